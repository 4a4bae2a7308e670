"""``deflist`` mentions in two more layouts of a parameter listing: markup tags (``<param
name="to">recipient</param>``) and a run of entries after a label on one line (``Fields: to — the
recipient; cc — copies; subject — one line``).

Both are read as :mod:`.deflists` reads a block of lines (:func:`~.deflists.close_block`), strictly:
two entries or more, most of them parameters declared where the text speaks, so that a listing of
values (``Formats: json — machine readable; text — for humans``) or of a result's fields is not read
as the call's parameters.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.deflists import close_block
from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, IDENT

_TAG = re.compile(
    rf"<(?:param|parameter|arg|argument|field|input|property)\b[^<>\n]{{0,80}}?\bname\s*=\s*[\"']?({IDENT})",
    re.I)
"""A markup tag that names one parameter: ``<param name="to">``, ``<parameter name='cc' type="string">``."""

_INVOKE = re.compile(r"<(?:invoke|tool_call|tool|function_call|function)\b[^<>\n]{0,80}?\bname\s*=\s*[\"']?([\w.-]+)",
                     re.I)
"""A markup call of a named tool (``<invoke name="other_tool">``): the tags after it are its arguments."""


def param_tags(clean: str, level: Sequence[str], found: Found) -> None:
    """Names of ``<param name="x">`` tags (two or more, most of them declared at ``level``) that do
    not follow a markup call of another tool (``<invoke name="other">``)."""
    block: list[tuple[str, int, int]] = []
    other = [(m.start(), m.group(1)) for m in _INVOKE.finditer(clean) if m.group(1) != found.tool_name]
    for m in _TAG.finditer(clean):
        if any(at < m.start() for at, _ in other):
            continue
        block.append((m.group(1), m.start(1), m.end(1)))
    close_block(block, set(level), found, strict=True)


_RUN_LABEL = re.compile(
    r"\b(?:fields|parameters|params|arguments|args|inputs|options|keys)(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*", re.I)
"""The label before a run of entries: "Fields:", "**Parameters:**"."""

_RUN_ENTRY = re.compile(
    rf"[ \t]*(?:\*\*|__|`)?({IDENT})(?:\*\*|__|`)?(?:\s*\([^)\n]{{0,60}}\))?\s*(?::|–|—|->|=>|→|-(?=\s))\s*\S")
"""One entry of a run: the name (bold, code or bare), an optional ``(type)``, a separator, its text."""


def labelled_runs(clean: str, level: Sequence[str], found: Found) -> None:
    """Entries of a run ``name — text; name — text`` after a label ("Fields:", "Parameters:") on one
    line, separated by ``;`` (or ``,`` when every piece is an entry), two or more with most of them
    declared at ``level``; not where the line before the label speaks of output."""
    declared = set(level)
    for label in _RUN_LABEL.finditer(clean):
        start = label.end()
        end = clean.find("\n", start)
        end = len(clean) if end == -1 else end
        line_start = clean.rfind("\n", 0, label.start()) + 1
        if _OUTPUT_WORDS.search(clean, line_start, label.start()):
            continue
        run = clean[start:end]
        block = _entries(run, ";", start)
        if len(block) < 2:
            block = _entries(run, ",", start, every=True)
        close_block(block, declared, found, strict=True)


def _entries(run: str, sep: str, offset: int, every: bool = False) -> list[tuple[str, int, int]]:
    """``(name, start, end)`` of the leading pieces of ``run`` split at ``sep`` that are entries (with
    ``every``: all pieces or none); ``offset``: where ``run`` starts in the text."""
    out: list[tuple[str, int, int]] = []
    at = 0
    for piece in run.split(sep):
        m = _RUN_ENTRY.match(piece)
        if m is None:
            if every:
                return []
            break
        out.append((m.group(1), offset + at + m.start(1), offset + at + m.end(1)))
        at += len(piece) + 1
    return out
