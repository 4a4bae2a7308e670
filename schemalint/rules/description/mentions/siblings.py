"""A name that belongs to another tool of the catalog, which the description names nearby.

A server's tools are described together: a description says how its results feed another tool
("list the values first, then use them in the `where` filter of `query_metrics`"). A name the
text presents there is that other tool's parameter, not a key of this call, when two things hold:
the other tool declares a property of exactly that name, and the paragraph holding the name (the
text between blank lines) names that tool. The name alone is not enough: copy-pasted descriptions
mention a sibling's parameter by mistake, and only a description that speaks of the sibling shows
the name is meant for it.
"""

from __future__ import annotations

from collections.abc import Callable

from schemalint.rules.description.mentions.patterns import _RE_IDENT

_BLANK_LINE = "\n\n"


def paragraph(text: str, start: int, end: int) -> str:
    """The paragraph of ``text`` around ``[start, end)``: from the blank line before it (or the
    start) to the blank line after it (or the end); lines holding only spaces count as blank."""
    flat = "\n".join(line if line.strip() else "" for line in text.split("\n"))
    lo = flat.rfind(_BLANK_LINE, 0, start)
    hi = flat.find(_BLANK_LINE, end)
    return flat[0 if lo < 0 else lo : len(flat) if hi < 0 else hi]


def sibling_owner(text: str, start: int, end: int, token: str, tool_name: str, catalog_names: frozenset[str],
                  properties_of: Callable[[str], frozenset[str]]) -> str | None:
    """The name of another tool of the catalog that declares ``token`` as a property and that the
    paragraph of ``text`` around the mention ``[start, end)`` names, else ``None``.

    ``tool_name``: the tool whose description ``text`` is (never its own sibling);
    ``catalog_names``: the tool names of the run; ``properties_of``: a tool name's property names
    (every definition of that name in the catalog, any level; empty when unknown)."""
    for m in _RE_IDENT.finditer(paragraph(text, start, end)):
        name = m.group(0)
        if name != tool_name and name != token and name in catalog_names and token in properties_of(name):
            return name
    return None
