"""The mentions found so far in one description, deduplicated by token."""

from __future__ import annotations

from schemalint.rules.description.mentions.records import Mention
from schemalint.rules.description.mentions.strengths import rank
from schemalint.rules.description.mentions.text import _ok_token

_TOOL_SUFFIXES = ("_tool", "Tool")
"""How a name says it is a tool of its own (``deploy_webapp_tool``, ``searchTool``)."""


class Found:
    """Mentions by token, first found first; a *plain* mention gives way to a later non-plain one, and
    a mention to a later one of a form reported more strongly (:func:`~.strengths.rank`).

    ``tool_name`` and ``tool_names`` (the catalog's tool names) are never parameters.
    """

    def __init__(self, tool_name: str, tool_names: frozenset[str] | set[str]) -> None:
        self.tool_name = tool_name
        self.tool_names = tool_names
        self.by_token: dict[str, Mention] = {}

    def add(self, tok: str, start: int, end: int, kind: str, plain: bool = False) -> None:
        """Record ``tok`` at ``text[start:end]`` as a mention of ``kind`` (see the package docstring)."""
        if tok == self.tool_name or tok in self.tool_names or not _ok_token(tok) or tok.endswith(_TOOL_SUFFIXES):
            return  # a tool ("use the deploy_webapp_tool"), never a parameter
        old = self.by_token.get(tok)
        if old is None or (old.plain and not plain) or (old.plain == plain and rank(kind) > rank(old.kind)):
            self.by_token[tok] = Mention(tok, start, end, kind, plain)
