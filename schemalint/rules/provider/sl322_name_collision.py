"""SL322 name-collision: two tools whose names become equal once a client fits them to the provider.

Clients that sanitise names (replace other characters with ``_`` and cut to 64) send two tools
under one name, and calls go to the wrong one. Tools are compared within one request (one file
or JSON Lines line). Exact duplicates are SL005's job.

Source: rules/SL322-name-collision.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import (
    ProfileFault,
    ProviderRule,
    W,
    catalog_members,
)

_PATTERNS = {"gemini": re.compile(f"[^{value('gemini.tool-name')[0]}]"),
             "mcp": re.compile(f"[^{value('mcp.tool-name')[0]}]")}
_DEFAULT = re.compile(f"[^{value('openai.tool-name')[0]}]")
"""The characters a sanitising client replaces, per target: the provider-facts rows ``*.tool-name``."""


def fitted_name(name: str, target: str, max_length: int) -> str:
    """``name`` as a sanitising client would send it to ``target``."""
    pattern = _PATTERNS.get(target.split("-")[0] if target.startswith("gemini") else target, _DEFAULT)
    return pattern.sub("_", name)[:max_length]


class NameCollision(ProviderRule):
    """Distinct tool names that collide after the target's name pattern and length are applied."""

    severity = W

    facts = ("openai.tool-name", "gemini.tool-name", "mcp.tool-name")

    mcp_revisions = ("2025-11-25", "2026-07-28")  # SEP-986 tool names (row mcp.tool-name)

    options: ClassVar[Mapping[str, Any]] = {
        "max_length": value("openai.tool-name")[1],
        "mcp_max_length": value("mcp.tool-name")[1],
    }

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        max_len = int(self.option(ctx, "max_length"))
        mcp_max = int(self.option(ctx, "mcp_max_length"))
        seen: dict[tuple[str, int | None, str, str], Tool] = {}
        out: dict[int, tuple[Tool, list[ProfileFault]]] = {}
        for tool, active in catalog_members(self, tools, ctx):
            for target in active:
                limit = mcp_max if target == "mcp" else max_len
                fitted = fitted_name(tool.name, target, limit)
                key = (tool.origin.file, tool.origin.line, target, fitted)
                first = seen.setdefault(key, tool)
                if first is tool or first.name == tool.name:
                    continue
                out.setdefault(id(tool), (tool, []))[1].append(
                    ProfileFault(
                        target,
                        W,
                        None,
                        f"collide:{first.name}",
                        f"tool name {tool.name!r} becomes {fitted!r} once fitted to the provider's "
                        f"name rules, "
                        f"the same as {first.name!r}; the model cannot tell them apart and calls "
                        f"may reach the "
                        "wrong tool",
                        "give the tools names that differ within the first 64 characters using only letters, "
                        "digits, '_' and '-' (e.g. prefix with the server name)",
                        file_pointer=tool.field_pointer("name"),
                    )
                )
        for tool, findings in out.values():
            yield from self.merge(tool, findings, ctx)
