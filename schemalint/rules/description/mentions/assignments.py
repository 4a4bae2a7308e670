"""``assign`` mentions: ``x_y=value`` outside URLs, not after "if/when", not in another tool's call;
a plain word (``order=asc``) only where an instruction or a "Defaults:" label hands it over."""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _RE_ASSIGN, _RE_COND_BEFORE
from schemalint.rules.description.mentions.text import (
    _after_other_tool,
    _assignment_is_value,
    _is_identifier_like,
)

_RE_HANDED_OVER = re.compile(
    r"(?:\b(?:use|using|set|setting|pass|passing|send|sending|add|adding|specify|specifying|try|with|"
    r"supply|supplying|provide|providing|give|giving|include|including|accepts?|takes?)|\bdefaults?\s*:|"
    r"\be\.g\.,?)\s+(?:also\s+)?"
    r"(?:[A-Za-z_]\w*=[^\s,;]+,?\s+){0,4}$", re.I)
"""What hands a plain ``word=value`` over as an argument: "Use order=asc", "by passing state=open", "also
accepts since=2024-01-01", "Defaults: limit=50, since=1h"."""


def _instructed(clean: str, at: int, tok: str) -> bool:
    """Whether the plain word ``tok`` written as ``tok=value`` at ``at`` is handed over as an argument."""
    return tok.isalpha() and tok.islower() and len(tok) >= 3 and (
        _RE_HANDED_OVER.search(clean, max(0, at - 80), at) is not None)


_RE_ANNOTATED = re.compile(r"[(,]\s*[A-Za-z_]\w*\s*\??\s*:\s*$")
"""A parameter's name and colon before the word: the word is its type (``f(opts: QueryOpts = None)``)."""


def assignments(clean: str, found: Found) -> None:
    """Identifier-like names written as ``name=value`` that read as an instruction to pass them."""
    for m in _RE_ASSIGN.finditer(clean):
        tok = m.group(1)
        if not _is_identifier_like(tok) and not _instructed(clean, m.start(), tok):
            continue
        if _after_other_tool(clean, m.start(), found.tool_names, found.tool_name):
            continue
        if _RE_COND_BEFORE.search(clean[max(0, m.start() - 30) : m.start()]):
            continue
        if _RE_ANNOTATED.search(clean, max(0, m.start() - 60), m.start()):
            continue
        if _assignment_is_value(clean, m, found.tool_name):
            continue
        found.add(tok, m.start(1), m.end(1), "assign")
