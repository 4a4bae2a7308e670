"""``deflist`` mentions: the entries of a definition list that also names a declared parameter.

Authors list a tool's arguments one per line in many spellings besides a docstring ``Args:``
section (which :mod:`.arglists` reads): Markdown bold (``**sender_id** (optional): ...``,
``- **size_gb**: ...``), dashes and arrows (``severity — low or urgent``, ``base -> branch``),
bullets (``• `locale`: BCP 47 tag``) and Go struct fields (``Invite   bool   // send a mail``).
A block of two or more such lines in which at least one entry is a parameter declared where the
text speaks is a list of the call's arguments, so its other entries are too. A block naming no
declared parameter says nothing about the call (enum values, result fields, settings).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import IDENT

_ENTRY = re.compile(
    rf"^[ \t]*(?:[-*•+◦▪]\s+|\d{{1,2}}[.)]\s+)?(?:\*\*|__|`)?({IDENT})(?:\*\*|__|`)?"
    r"(?:\s*\([^)\n]{0,60}\))?\s*(?:\*\*)?\s*(?::|–|—|->|=>|-(?=\s))\s*(?!(?:\*\*|__)[ \t]*$)\S"
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
    block_indent = 0
    pos = 0
    for line in [*clean.split("\n"), ""]:
        m = _ENTRY.match(line) or _GO_FIELD.match(line)
        indent = len(line) - len(line.lstrip())
        if m is not None and (not block or indent == block_indent):
            if not block:
                block_indent = indent
            block.append((m.group(1), pos + m.start(1), pos + m.end(1)))
        elif m is not None and indent > block_indent:
            pass  # a nested entry (a key of an object parameter, an example): not this list's
        elif not (block and indent > block_indent and line.strip()):  # a continuation keeps it
            _close(block, declared, found)
            block = [] if m is None else [(m.group(1), pos + m.start(1), pos + m.end(1))]
            block_indent = indent
        pos += len(line) + 1


def _close(block: list[tuple[str, int, int]], declared: set[str], found: Found) -> None:
    names = {name for name, _, _ in block}
    if not (2 <= len(block) <= 20) or not (names & declared) or names <= declared:
        return
    for name, start, end in block:
        found.add(name, start, end, "deflist")
