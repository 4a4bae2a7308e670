"""``arglist`` and ``list`` mentions: ``Args:`` / ``Parameters:`` sections, ``:param x:``, JSDoc ``@param {T} x``, and
parenthesised lists of names beside a declared one."""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import (
    _ARG_ENTRY,
    _ARG_HEADER,
    _OUTPUT_WORDS,
    _RE_IDENT_FULL,
    _RE_PAREN_LIST,
    _SECTION_END,
    _SPHINX,
    IDENT,
)
from schemalint.rules.description.mentions.signatures import own_spellings
from schemalint.rules.description.mentions.text import (
    _lacks,
    _sentence,
)

_HEADER_WORDS = ("arg", "param", "input")
"""What every header :data:`~.patterns._ARG_HEADER` reads holds (args, arguments, kwargs, parameters,
params, input, inputs)."""


def arg_sections(clean: str, is_value: bool, found: Found, low: str | None = None) -> None:
    """Entries of ``Args:``/``Parameters:`` sections (docstring style, language neutral) at the
    section's first indentation, and Sphinx ``:param x:`` fields. ``low``: ``clean`` in lower case
    when it is ASCII (then a text without a header word is not searched for a header)."""
    lines = clean.split("\n") if not _lacks(low, _HEADER_WORDS) and _ARG_HEADER.search(clean) else []
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    in_args = False
    indent: int | None = None
    entries: list[tuple[str, int, int, str, int]] = []
    for idx, line in enumerate(lines):
        if _ARG_HEADER.match(line) and not is_value:
            in_args, indent = True, None
            continue
        if not in_args or not line.strip():
            continue
        if (_SECTION_END.match(line) and not _ARG_ENTRY.match(line)) or _TAG_LINE.match(line):
            in_args = False
            continue
        entry = _ARG_ENTRY.match(line)
        line_indent = len(line) - len(line.lstrip())
        if entry is None:
            if (
                indent is not None
                and line_indent <= indent
                and not re.match(r"\s*(?:[-*•+]|\d+[.)])\s", line)
            ):
                in_args = False
            continue
        if indent is None:
            indent = line_indent
        if line_indent != indent:
            if line_indent < indent:
                in_args = False
            continue  # nested keys of an object parameter, or a continuation
        entries.append((entry.group(2), offsets[idx] + entry.start(2), offsets[idx] + entry.end(2), line, entry.end()))
    _add_entries(entries, found)
    for m in _SPHINX.finditer(clean) if ":param" in clean else ():
        found.add(m.group(1), m.start(1), m.end(1), "arglist")
    for m in _JSDOC.finditer(clean) if "@param" in clean or "@arg" in clean else ():
        found.add(m.group(1), m.start(1), m.end(1), "arglist")


_TAG_LINE = re.compile(r"[ \t]*(?:<\s*/?\s*[A-Za-z][\w-]*\s*>[ \t]*)+$")
"""A line of markup tags only (``</example>``, ``<example>``): it closes the block an ``Args:`` section
stood in, so the lines after it (the next example's ``Question: ...``) are not its entries."""


_JSDOC = re.compile(rf"(?m)^[ \t*]*@(?:param|arg|argument)\s+(?:\{{[^}}\n]*\}}\s*)?\[?({IDENT})(?![\w.])")
"""A JSDoc/TSDoc field, ``@param {string} [pageSize] - results per page`` (not ``options.x``, a key of
an object parameter)."""


_NAMING_KEYS = frozenset(("name", "key", "field", "param", "parameter"))
_RE_NAMED_VALUE = re.compile(rf"\s*[`'\"]?({IDENT})[`'\"]?\s*$")


_LABEL_WORDS = frozenset(("required", "optional", "example", "examples", "note", "notes", "returns", "usage",
                          "see", "also", "tip", "tips", "warning"))
"""Words that label a line of an ``Args:`` section rather than name a parameter ("- Required: x",
"- Example: ..."); not "description", "type" or "default", which are parameters' names too."""


def _add_entries(entries: list[tuple[str, int, int, str, int]], found: Found) -> None:
    """Record the entries of the ``Args:`` sections. Where one naming key repeats (``- name: q``,
    ``- name: per_page``: OpenAPI's parameter objects), the parameters are its values, not the key."""
    counts: dict[str, int] = {}
    for token, *_ in entries:
        counts[token] = counts.get(token, 0) + 1
    for token, start, end, line, after in entries:
        if token.lower() in _LABEL_WORDS:
            continue  # "- Required: cluster (...)": a label before the entry, read by forms.label_lists
        if token.lower() in _NAMING_KEYS and counts[token] > 1:
            value = _RE_NAMED_VALUE.match(line, after - 1 if line[after - 1 : after] != " " else after)
            if value is not None:
                shift = start - line.find(token)
                found.add(value.group(1), shift + value.start(1), shift + value.end(1), "arglist")
            continue
        found.add(token, start, end, "arglist")


_RE_ACCEPTS_LIST = re.compile(
    r"\b(?:accepts|takes|inputs?|arguments|parameters|params|options)\s*:[ \t]*([^.;:\n()]{3,200})", re.I)
"""``Accepts: address, country_code, language.``: a labelled list of bare names (read as ``list``)."""


_RE_CALLEE = re.compile(r"(?<![\w.])([A-Za-z_][\w.]*)$")


def _another_call(clean: str, at: int, found: Found) -> bool:
    """Whether the "(" at ``at`` opens a call of another function (``client.listRepos(org, perPage)``,
    ``re.search(pattern, string)``): a name glued to it that is not one of this tool's spellings
    (:func:`~.signatures.own_spellings`, whose calls :mod:`.examples` reads)."""
    callee = _RE_CALLEE.search(clean, max(0, at - 80), at)
    if callee is None:
        return False
    name = callee.group(1)
    return name.rsplit(".", 1)[-1] not in own_spellings(found.tool_name, found.tool_names) or "." in name


def name_lists(clean: str, level: Sequence[str], found: Found) -> None:
    """``(perPage, after)``: a parenthesised list of 2-8 bare names, or one after a label such as
    "Accepts:" (``Accepts: address, country_code, language``), one of them declared at ``level``,
    outside sentences about output."""
    matches = list(_RE_PAREN_LIST.finditer(clean))
    if ":" in clean:
        matches += _RE_ACCEPTS_LIST.finditer(clean)
    for m in matches:
        if m.group(0).startswith("(") and _another_call(clean, m.start(), found):
            continue
        items = [x.strip() for x in re.split(r",|\s+(?:and|or)\s+", m.group(1).strip())]
        if not (2 <= len(items) <= 8) or not all(_RE_IDENT_FULL.fullmatch(x) for x in items):
            continue
        if not any(x in level for x in items) or _OUTPUT_WORDS.search(_sentence(clean, m.start(), m.end())):
            continue
        for x in items:
            at = clean.find(x, m.start(1))
            found.add(x, at, at + len(x), "list")
