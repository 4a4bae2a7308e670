"""``deflist`` mentions: the entries of a definition list that also names a declared parameter.

Authors list a tool's arguments one per line in many spellings besides a docstring ``Args:``
section (which :mod:`.arglists` reads): Markdown bold (``**sender_id** (optional): ...``,
``- **size_gb**: ...``), dashes and arrows (``severity — low or urgent``, ``base -> branch``,
``cc → copies``, ``cc - copies``), bullets (``• `locale`: BCP 47 tag``) and Go struct fields
(``Invite   bool   // send a mail``). A block of two or more such lines in which at least one entry
is a parameter declared where the text speaks is a list of the call's arguments, so its other
entries are too. A block naming no declared parameter says nothing about the call (enum values,
result fields, settings). A plain hyphen or an arrow ``→`` is as often how the values of one
parameter are glossed (``- json - machine readable``, ``- text → for humans``), so a block with
such an entry must name declared parameters in most of its entries (:func:`close_block`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, IDENT

_ENTRY = re.compile(
    rf"^[ \t]*(?:[-*•+◦▪]\s+|\d{{1,2}}[.)]\s+)?(?:\*\*|__|`)?({IDENT})(?:\*\*|__|`)?"
    r"(?:\s*\([^)\n]{0,60}\))?\s*(?:\*\*)?\s*(:|–|—|->|=>|→|-(?=\s))\s*(?!(?:\*\*|__)[ \t]*$)\S"
)
"""One entry line: an optional bullet, the name (bold, code or bare), an optional ``(type)``, then a
separator and the definition (not a bold header such as ``**Parameters:**`` alone on its line)."""

_GO_FIELD = re.compile(rf"^[ \t]+({IDENT})[ \t]{{2,}}[\w\[\]*.]+[ \t]+//")
"""A struct field written ``Name  type  // what it is``."""


def definition_lists(clean: str, level: Sequence[str], found: Found) -> None:
    """Entries of definition-list blocks (2-20 entry lines at one indentation, with deeper lines
    between them read as their continuations) with at least one entry declared at ``level`` and at
    least one not."""
    declared = set(level)
    block: list[tuple[str, int, int]] = []
    strict = False
    block_indent = 0
    pos = 0
    for line in [*clean.split("\n"), ""]:
        m = _ENTRY.match(line) or _GO_FIELD.match(line)
        indent = len(line) - len(line.lstrip())
        if m is not None and (not block or indent == block_indent):
            if not block:
                block_indent = indent
            block.append((m.group(1), pos + m.start(1), pos + m.end(1)))
            strict = strict or _dashed(m)
        elif m is not None and indent > block_indent:
            pass  # a nested entry (a key of an object parameter, an example): not this list's
        elif not (block and indent > block_indent and line.strip()):  # a continuation keeps it
            if not (block and (_values_header(clean, block[0][1], declared) or _result_header(clean, block[0][1]))):
                close_block(block, declared, found, strict)
            block = [] if m is None else [(m.group(1), pos + m.start(1), pos + m.end(1))]
            strict = m is not None and _dashed(m)
            block_indent = indent
        pos += len(line) + 1


_RE_VALUES_WORDS = re.compile(  # what a header of a parameter's values says besides its name
    r"\b(?:values?|one\s+of|can\s+be|choices?|accepted|supported|allowed|possible|options?|kinds?|modes?|types?)\b",
    re.I)


def _line_above(clean: str, start: int) -> str:
    """The nearest non-blank line before the line holding ``start``, stripped of spaces and Markdown
    marks (``*``, ``_``, ``#``, backquotes)."""
    line_start = clean.rfind("\n", 0, start) + 1
    head = ""
    while line_start > 0 and not head:
        above = clean.rfind("\n", 0, line_start - 1) + 1
        head = clean[above : line_start - 1].strip().strip("*_#` ")
        line_start = above
    return head


def _result_header(clean: str, start: int) -> bool:
    """Whether the nearest non-blank line before the block starting at ``start`` ends with ":" and speaks
    about the result ("Each deployment in the response has these fields:"): the list is the result's."""
    head = _line_above(clean, start)
    return head.endswith(":") and _OUTPUT_WORDS.search(head) is not None


def _values_header(clean: str, start: int, declared: set[str]) -> bool:
    """Whether the nearest non-blank line before the block starting at ``start`` heads a listing of
    one declared parameter's values: it ends with ":" and names the parameter (``Formats:``, ``Values of
    `format`:``, ``The format can be one of:``) alone or with a word about values."""
    head = _line_above(clean, start)
    if not head.endswith(":"):
        return False
    words = [w.strip("`'\"*_") for w in re.findall(r"[`'\"*_]*[\w-]+[`'\"*_]*", head[:-1])]
    named = [w for w in words if w in declared or (w.endswith("s") and w[:-1] in declared)
             or w.lower() in declared or (w.lower().endswith("s") and w.lower()[:-1] in declared)]
    return bool(named) and (len(words) == 1 or _RE_VALUES_WORDS.search(head) is not None)


_GLOSSES = frozenset(("-", "→"))
"""The separators that gloss values as often as parameters (a block with one is read strictly)."""


def _dashed(entry: re.Match[str]) -> bool:
    """Whether an entry line's separator is one of :data:`_GLOSSES`."""
    return entry.re is _ENTRY and entry.group(2) in _GLOSSES


def close_block(block: list[tuple[str, int, int]], declared: set[str], found: Found, strict: bool = False) -> None:
    """Record the entries ``(name, start, end)`` of one listing as ``deflist`` mentions when it is a list of the
    call's parameters: 2-20 entries, at least one ``declared`` and one not; ``strict``: more than
    half of its distinct names declared (a listing whose layout also lists values)."""
    names = {name for name, _, _ in block}
    if not (2 <= len(block) <= 20) or not (names & declared) or names <= declared:
        return
    if strict and 2 * len(names & declared) <= len(names):
        return
    for name, start, end in block:
        found.add(name, start, end, "deflist")
