"""SL320 strict-budget: Anthropic's per-request budgets for strict tools are exceeded.

A request is taken to be the tools of one file (one JSON Lines line). Options ``max_strict_tools``,
``max_optional_params``, ``max_union_params`` (the last two default to the provider-facts rows
``anthropic-strict.max-optional`` and ``anthropic-strict.max-unions``).

Source: rules/SL320-strict-budget.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import (
    E,
    ProfileFault,
    ProviderRule,
    catalog_members,
    index_for,
    request_groups,
    types_of,
)
from schemalint.schema import required_names


def budget_counts(tool: Tool, ctx: Context) -> tuple[int, int]:
    """``(optional parameters, union parameters)`` of one schema, at every depth."""
    optional = unions = 0
    index = index_for(tool, ctx)
    for node in index.having("properties"):
        props = node.schema.get("properties")
        if not isinstance(props, Mapping) or index.is_conditional(node):
            continue
        listed = set(required_names(node.schema))
        for name, sub in props.items():
            if name not in listed:
                optional += 1
            if isinstance(sub, Mapping) and ("anyOf" in sub or "oneOf" in sub or len(types_of(sub)) > 1):
                unions += 1
    return optional, unions


class StrictBudget(ProviderRule):
    """Whole-request limits of Anthropic strict tools: 20 tools, 24 optional and 16 union parameters."""

    severity = E
    facts = ("anthropic-strict.max-optional", "anthropic-strict.max-unions")

    options: ClassVar[Mapping[str, Any]] = {
        "max_strict_tools": 20,
        "max_optional_params": value("anthropic-strict.max-optional"),
        "max_union_params": value("anthropic-strict.max-unions"),
    }

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        members = [
            (t, [x for x in a if x != "bedrock" or t.strict]) for t, a in catalog_members(self, tools, ctx)
        ]
        active = {id(t): tuple(a) for t, a in members if a}
        strict_tools = [t for t, a in members if a]
        max_tools = int(self.option(ctx, "max_strict_tools"))
        max_opt = int(self.option(ctx, "max_optional_params"))
        max_union = int(self.option(ctx, "max_union_params"))
        for group in request_groups(strict_tools).values():
            findings: list[tuple[Tool, ProfileFault]] = []
            if len(group) > max_tools:
                over = group[max_tools]
                for target in active[id(over)]:
                    findings.append(
                        (
                            over,
                            ProfileFault(
                                target,
                                E,
                                None,
                                "tools",
                                f"this request declares {len(group)} strict tools; at most "
                                f"{max_tools} are allowed "
                                f"(tool {over.name!r} is number {max_tools + 1})",
                                f'keep at most {max_tools} tools strict: set "strict": false on the others',
                            ),
                        )
                    )
            # (finding key, limit, message, hint) per Anthropic budget, in budget_counts() order
            budgets = (
                ("optional", max_opt,
                 "counting up to this tool, the strict tools of this request have {n} optional parameters; "
                 "Anthropic allows {limit} in total across strict schemas (400)",
                 "list more parameters in `required`, or make some tools non-strict"),
                ("unions", max_union,
                 "counting up to this tool, the strict tools of this request have {n} parameters using anyOf "
                 "or type arrays; Anthropic allows {limit} in total (400, 'Schema is too complex')",
                 "make nullable parameters plain required ones whose description says which value means "
                 "'none', or make some tools non-strict"),
            )
            totals = [0, 0]
            done = [False, False]
            for tool in group:
                for i, count in enumerate(budget_counts(tool, ctx)):
                    totals[i] += count
                    what, limit, message, hint = budgets[i]
                    if totals[i] <= limit or done[i]:
                        continue
                    done[i] = True
                    findings.extend(
                        (tool, ProfileFault(target, E, "", what, message.format(n=totals[i], limit=limit), hint))
                        for target in active[id(tool)] if target == "anthropic-strict"
                    )
            by_tool: dict[int, list[ProfileFault]] = {}
            owners: dict[int, Tool] = {}
            for tool, f in findings:
                by_tool.setdefault(id(tool), []).append(f)
                owners[id(tool)] = tool
            for key, fs in by_tool.items():
                yield from self.merge(owners[key], fs)
