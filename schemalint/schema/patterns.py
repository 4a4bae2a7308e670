"""Run a schema-supplied regular expression (``pattern``, ``patternProperties``) in linear time.

JSON Schema's ``pattern`` and ``patternProperties`` are ECMA-262 regular expressions, matched
anywhere in the string (not anchored): JSON Schema draft-07 Validation 4.3 and 6.3.3, 2020-12
Core 6.4 and Validation 6.3.3; ECMA-262 section 22.2 (RegExp). A tool file is untrusted input,
and a backtracking engine such as Python's ``re`` takes time exponential in the length of the
string for patterns like ``(a+)+$`` (40 characters: hours). Every place in schemalint that runs
such a pattern calls :func:`search`, which uses RE2 (the ``google-re2`` package, imported on
first use), whose time is linear in the pattern and the string.

The ECMA-262 syntax is translated to RE2's where the two differ: ``\\uXXXX`` (and surrogate
pairs), ``\\cX``, ``\\0``, ``.`` (no line terminators: ``\\n``, ``\\r``, U+2028, U+2029), ``\\s``
(ECMA-262's white space and line terminators, Unicode included), ``[^]``/``[]``, and a ``[``
inside a class. ``\\d``, ``\\w`` and ``\\b`` are ASCII in both; ``$`` means the end of the string
in both (Python's ``re`` also matched before a final newline).

What RE2 cannot express (lookahead and lookbehind, backreferences, a repetition above 1,000, a
``\\S`` inside a class, a lone surrogate) is *unknown*: :func:`search` returns ``None`` and each
caller takes the answer that reports nothing. It is never handed to ``re``. A pattern that is not
a regular expression at all never matches (``False``), as before. See docs/shape-rules.md.
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["linear_validator", "problem", "search", "to_re2"]

_SPACES = ("\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
           "\\x{205F}\\x{3000}\\x{FEFF}")
"""ECMA-262 WhiteSpace and LineTerminator (22.2.2.9 CharacterClassEscape ``s``), as RE2 class members."""

_DOT = "[^\\n\\r\\x{2028}\\x{2029}]"
_ANY = "[\\x{0}-\\x{10FFFF}]"
_HEX = frozenset("0123456789abcdefABCDEF")
_KEPT = frozenset("dDwWtnrfvpP")
"""Escapes that mean the same in RE2 (``\\p{...}`` as under ECMA-262's ``u`` flag)."""


class _Unknown(Exception):
    pass


def _hex4(p: str, i: int) -> int | None:
    s = p[i:i + 4]
    return int(s, 16) if len(s) == 4 and all(c in _HEX for c in s) else None


def _code_point(p: str, i: int) -> tuple[str, int]:
    """The RE2 text of the escape starting at ``p[i] == "\\\\"`` and the index after it."""
    c = p[i + 1] if i + 1 < len(p) else ""
    if c == "u":
        hi = _hex4(p, i + 2)
        if hi is None:
            return "u", i + 2  # Annex B identity escape
        if 0xD800 <= hi <= 0xDBFF and p.startswith("\\u", i + 6):
            lo = _hex4(p, i + 8)
            if lo is not None and 0xDC00 <= lo <= 0xDFFF:
                return f"\\x{{{0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00):X}}}", i + 12
        if 0xD800 <= hi <= 0xDFFF:
            raise _Unknown  # a lone surrogate: RE2 works on code points
        return f"\\x{{{hi:X}}}", i + 6
    if c == "x" and len(p) >= i + 4 and p[i + 2] in _HEX and p[i + 3] in _HEX:
        return p[i:i + 4], i + 4
    if c == "c" and i + 2 < len(p) and p[i + 2].isascii() and p[i + 2].isalpha():
        return f"\\x{{{ord(p[i + 2]) % 32:X}}}", i + 3
    if c == "0" and not (i + 2 < len(p) and p[i + 2].isdigit()):
        return "\\x{0}", i + 2
    if c.isdigit() or c == "k":
        raise _Unknown  # a backreference (or an octal escape of Annex B)
    if c in _KEPT:
        return p[i:i + 2], i + 2
    if c == "":
        raise _Unknown
    if c.isascii() and c.isalnum():
        return c, i + 2  # Annex B identity escape (\a is "a", not RE2's bell)
    return "\\" + c if c.isascii() else c, i + 2


def to_re2(pattern: str) -> str:
    """The RE2 spelling of ECMA-262 ``pattern``. Raises ``ValueError`` when RE2 cannot express it."""
    out: list[str] = []
    i, n = 0, len(pattern)
    try:
        while i < n:
            ch = pattern[i]
            if ch == "\\":
                c = pattern[i + 1] if i + 1 < n else ""
                if c == "s":
                    out.append(f"[{_SPACES}]")
                    i += 2
                elif c == "S":
                    out.append(f"[^{_SPACES}]")
                    i += 2
                elif c in ("b", "B"):
                    out.append("\\" + c)
                    i += 2
                else:
                    text, i = _code_point(pattern, i)
                    out.append(text)
            elif ch == ".":
                out.append(_DOT)
                i += 1
            elif ch == "(" and pattern.startswith("(?", i):
                if pattern.startswith(("(?=", "(?!", "(?<=", "(?<!"), i):
                    raise _Unknown
                out.append("(?")
                i += 2
            elif ch == "[":
                i = _class(pattern, i, out)
            else:
                out.append(ch)
                i += 1
    except _Unknown:
        raise ValueError("RE2 cannot express this pattern") from None
    return "".join(out)


def _class(p: str, i: int, out: list[str]) -> int:
    """Translate the class starting at ``p[i] == "["``; returns the index after its ``]``."""
    j = i + 1
    negated = j < len(p) and p[j] == "^"
    if negated:
        j += 1
    if j < len(p) and p[j] == "]":  # [] matches nothing, [^] any character
        out.append(_ANY if negated else f"[^{_ANY[1:-1]}]")
        return j + 1
    parts = ["[^" if negated else "["]
    while j < len(p) and p[j] != "]":
        ch = p[j]
        if ch == "\\":
            c = p[j + 1] if j + 1 < len(p) else ""
            if c == "s":
                parts.append(_SPACES)
                j += 2
            elif c == "S":
                raise _Unknown
            elif c == "b":
                parts.append("\\x{8}")
                j += 2
            elif c == "-":
                parts.append("\\-")
                j += 2
            else:
                text, j = _code_point(p, j)
                parts.append(text)
        elif ch == "[":
            parts.append("\\[")
            j += 1
        else:
            parts.append(ch)
            j += 1
    if j >= len(p):
        raise _Unknown  # unterminated: not a regular expression, let the validity check decide
    parts.append("]")
    out.append("".join(parts))
    return j + 1


_INVALID = object()
_UNKNOWN = object()


@functools.lru_cache(maxsize=2048)
def _compiled(pattern: str) -> Any:
    """The RE2 program of ``pattern``, or :data:`_INVALID` / :data:`_UNKNOWN`."""
    try:
        import re2
    except ImportError:  # google-re2 is a dependency; without it nothing is run
        return _UNKNOWN
    try:
        translated = to_re2(pattern)
        options = re2.Options()
        options.log_errors = False
        return re2.compile(translated, options)
    except (ValueError, re2.error):
        pass
    try:  # tell "not a regular expression" (never matches, as before) from "beyond RE2"
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError, ValueError):
        return _INVALID
    return _UNKNOWN


def problem(pattern: str) -> str | None:
    """Why :func:`search` cannot run ``pattern`` (a sentence), or ``None`` when it can."""
    prog = _compiled(pattern)
    if prog is _INVALID:
        return "is not a regular expression"
    if prog is _UNKNOWN:
        return ("cannot be run in linear time (RE2, google-re2): lookaround, backreferences and "
                "repetitions above 1,000 are not supported")
    return None


def search(pattern: str, text: str) -> bool | None:
    """Whether ECMA-262 ``pattern`` matches somewhere in ``text`` (JSON Schema semantics).

    Returns ``True`` or ``False`` when decided in linear time (RE2), ``False`` for a pattern
    that is not a regular expression, and ``None`` when RE2 cannot express the pattern
    (lookaround, backreferences, huge repetitions) or ``google-re2`` is not installed; never
    runs a backtracking engine and never raises for a string ``pattern`` and ``text``.
    """
    prog = _compiled(pattern)
    if prog is _INVALID:
        return False
    if prog is _UNKNOWN:
        return None
    try:
        return prog.search(text) is not None
    except (UnicodeError, ValueError, TypeError):  # e.g. a lone surrogate in text
        return None


def _pattern_keyword(validator: Any, patrn: Any, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and isinstance(patrn, str) and search(patrn, instance) is False:
        yield ValidationError(f"{instance!r} does not match {patrn!r}")


def _pattern_properties_keyword(validator: Any, pats: Any, instance: Any, schema: Any) -> Any:
    if not validator.is_type(instance, "object") or not isinstance(pats, dict):
        return
    for pattern, subschema in pats.items():
        for k, v in instance.items():
            if search(pattern, k):  # an undecidable pattern constrains nothing
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


def _additional_properties_keyword(validator: Any, ap: Any, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    props = schema.get("properties", {})
    pats = [p for p in schema.get("patternProperties", {}) if isinstance(p, str)]
    # An undecidable pattern counts as matching: the key is not called additional.
    extras = [k for k in instance if k not in props and not any(search(p, k) is not False for p in pats)]
    if validator.is_type(ap, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], ap, path=extra)
    elif not ap and extras:
        joined = ", ".join(repr(e) for e in sorted(extras))
        yield ValidationError(f"Additional properties are not allowed ({joined} "
                              f"{'was' if len(extras) == 1 else 'were'} unexpected)")


def linear_validator(cls: Any) -> Any:
    """``cls`` (a ``jsonschema`` validator class) with ``pattern``, ``patternProperties`` and
    ``additionalProperties`` evaluated by :func:`search` instead of Python's ``re``, so that
    validating an instance against an untrusted schema takes linear time in its patterns."""
    from jsonschema import validators

    return validators.extend(cls, {
        "pattern": _pattern_keyword,
        "patternProperties": _pattern_properties_keyword,
        "additionalProperties": _additional_properties_keyword,
    })
