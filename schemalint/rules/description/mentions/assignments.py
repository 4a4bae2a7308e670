"""``assign`` mentions: ``x_y=value`` outside URLs, not after "if/when", not in another tool's call."""

from __future__ import annotations

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _RE_ASSIGN, _RE_COND_BEFORE
from schemalint.rules.description.mentions.text import (
    _after_other_tool,
    _assignment_is_value,
    _is_identifier_like,
)


def assignments(clean: str, found: Found) -> None:
    """Identifier-like names written as ``name=value`` that read as an instruction to pass them."""
    for m in _RE_ASSIGN.finditer(clean):
        tok = m.group(1)
        if not _is_identifier_like(tok):
            continue
        if _after_other_tool(clean, m.start(), found.tool_names, found.tool_name):
            continue
        if _RE_COND_BEFORE.search(clean[max(0, m.start() - 30) : m.start()]):
            continue
        if _assignment_is_value(clean, m, found.tool_name):
            continue
        found.add(tok, m.start(1), m.end(1), "assign")
