"""SL321 too-many-tools: more tools in one request than the provider accepts.

A request is one tools list: the tools of one list in one file (one JSON Lines line), so a replay
log or cassette that records several requests is counted request by request (:func:`request_key`);
Gemini's declarations count across the ``functionDeclarations`` lists of one ``tools`` array.
Options ``openai_max_tools``, ``gemini_max_tools``.

Source: rules/SL321-too-many-tools.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, catalog_members

_GEMINI_LISTS = frozenset({"functionDeclarations", "function_declarations"})


def request_key(tool: Tool) -> str:
    """The pointer of the tools list ``tool`` is an entry of: the tool's pointer cut before its
    list index (an OpenAI ``function`` object counts as its entry); for a Gemini declaration, the
    ``tools`` array holding its ``functionDeclarations`` list. ``""`` for a whole-file tool."""
    tokens = tool.origin.pointer.split("/")[1:] if tool.origin.pointer else []
    while tokens and not tokens[-1].isdigit():
        tokens.pop()
    if tokens:
        tokens.pop()  # the index in its list
    if len(tokens) >= 2 and tokens[-1] in _GEMINI_LISTS and tokens[-2].isdigit():
        tokens = tokens[:-2]  # tools/N/functionDeclarations: the request's tools array
    return "".join("/" + t for t in tokens)


class TooManyTools(ProviderRule):
    """One request (file) declares more tools than the target accepts."""

    severity = E

    facts = ("openai.max-tools", "gemini.max-tools")

    options: ClassVar[Mapping[str, Any]] = {
        "openai_max_tools": value("openai.max-tools"),
        "gemini_max_tools": value("gemini.max-tools"),
    }

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        limits = {
            "openai": int(self.option(ctx, "openai_max_tools")),
            "gemini": int(self.option(ctx, "gemini_max_tools")),
        }
        members = catalog_members(self, tools, ctx)
        for fam, limit in limits.items():
            groups: dict[tuple[str, int | None, str], list[tuple[Tool, tuple[str, ...]]]] = {}
            for tool, active in members:
                fam_targets = tuple(t for t in active if t.startswith(fam))
                if fam_targets:
                    groups.setdefault((tool.origin.file, tool.origin.line, request_key(tool)), []).append(
                        (tool, fam_targets))
            for (file, _line, at_list), entries in groups.items():
                if len(entries) <= limit:
                    continue
                over, targets = entries[limit]
                yield from self.merge(
                    over,
                    [
                        ProfileFault(
                            t,
                            E,
                            None,
                            "count",
                            f"{file} declares {len(entries)} tools for one request"
                            f"{' (the list at ' + at_list + ')' if at_list else ''}; the provider "
                            f"accepts at most "
                            f"{limit} (this tool is number {limit + 1}) and refuses the request",
                            "send only the tools relevant to the task (select them per request), or "
                            "split them "
                            "between several agents",
                        )
                        for t in targets
                    ],
                )
