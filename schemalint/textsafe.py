"""One escaping step for untrusted text shown on a terminal or in a CI log.

Tool names, pointers, ``required`` entries, descriptions quoted in messages, server and
module output: all come from files schemalint does not trust. :func:`visible` renders
every character that could move the cursor, rewrite the screen, write the clipboard
(OSC 52), ring the bell, start a new line (and so forge a line of output or a GitHub
workflow command) or reorder text, as a visible escape: ``\\x1b``, ``\\r``, ``\\n``,
``\\x07``, ``\\u202e``, and a lone surrogate as ``\\ud800`` (it cannot be encoded). Other
text is returned unchanged, so ordinary output stays byte-identical.

Escaped: C0 controls (U+0000-U+001F, tab included), DEL and C1 controls (U+007F-U+009F),
the line and paragraph separators U+2028/U+2029, the bidirectional embedding, override
and isolate controls (U+202A-U+202E, U+2066-U+2069) and surrogates (U+D800-U+DFFF).
JSON and SARIF output do not use this: JSON's own escaping keeps the text exact.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _one(match: re.Match[str]) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: object, keep: str = "") -> str:
    """``text`` (any object, through ``str``) with the unsafe characters above made visible,
    except those in ``keep`` (e.g. ``"\r\n"`` where the caller escapes them its own way)."""
    s = text if isinstance(text, str) else str(text)
    if not _UNSAFE.search(s):
        return s
    if keep:
        return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _one(m), s)
    return _UNSAFE.sub(_one, s)


def visible_lines(text: object) -> str:
    """Like :func:`visible` but keeps ``\\n`` as a line break (for multi-line messages
    schemalint itself composes, such as a captured stderr tail); CR and the rest are escaped."""
    return "\n".join(visible(line) for line in str(text).split("\n"))
