"""SL335 anthropic-strict-grammar-size: strict tools whose compiled grammar risks being "too large".

Anthropic compiles strict tool schemas into one grammar per request and answers 400 "The compiled
grammar is too large ..." well below the documented caps (24 optional and 16 union parameters:
SL320). Public reports name the drivers but no threshold (provider-facts row
``anthropic-strict.grammar-too-large``), and the limit depends on the model.

The estimate (:func:`grammar_points`), per request (the strict tools of one file, one JSON Lines
line), expanding local ``$ref`` at each use as a grammar does: 1 point per optional property and
per union property (``anyOf``/``oneOf``/a type list), 1 more for each of them nested below level 3
per level, 1 per 25 enum values beyond the first 25 of an enum, 3 per ``pattern`` (plus 1 per
bounded repetition ``{n,m}`` in it), 2 per ``maxItems``. A warning when the request's points reach
the option ``max_points`` (default 24, the documented optional-parameter cap, so that a request
with no other driver is warned no earlier than SL320 would refuse it) while every documented cap
holds. UNCONFIRMED: weights and threshold are a heuristic, never an error.

Source: rules/SL335-anthropic-strict-grammar-size.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import (
    ProfileFault,
    ProviderRule,
    W,
    catalog_members,
    index_for,
    request_groups,
    types_of,
)
from schemalint.rules.provider.sl320_strict_budget import budget_counts
from schemalint.schema import required_names
from schemalint.schema.walk import walk

_RANGE = re.compile(r"\{\d+(,\d*)?\}")


def grammar_points(tool: Tool, ctx: Context) -> tuple[float, dict[str, float]]:
    """``(points, points per driver)`` of one strict tool's schema (see the module docstring)."""
    root = tool.advertised
    drivers = {"optional": 0.0, "unions": 0.0, "depth": 0.0, "enums": 0.0, "patterns": 0.0, "maxItems": 0.0}
    if not isinstance(root, Mapping):
        return 0.0, drivers
    nodes = walk(root, follow_refs=True, include_definitions=False, max_nodes=20_000) \
        if index_for(tool, ctx).having("$ref") else index_for(tool, ctx).nodes
    for node in nodes:
        schema = node.schema
        if not isinstance(schema, Mapping) or node.instance_path is None or getattr(node, "conditional", False):
            continue
        props = schema.get("properties")
        if isinstance(props, Mapping):
            listed = set(required_names(schema))  # entries that are not strings are skipped
            level = len(node.instance_path.split("/")) + 1  # the root object's properties: level 2
            for name, sub in props.items():
                union = isinstance(sub, Mapping) and ("anyOf" in sub or "oneOf" in sub or len(types_of(sub)) > 1)
                if name not in listed:
                    drivers["optional"] += 1
                if union:
                    drivers["unions"] += 1
                if (name not in listed or union) and level > 3:
                    drivers["depth"] += level - 3
        enum = schema.get("enum")
        if isinstance(enum, list) and len(enum) > 25:
            drivers["enums"] += (len(enum) - 25) / 25
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            drivers["patterns"] += 3 + len(_RANGE.findall(pattern))
        if "maxItems" in schema:
            drivers["maxItems"] += 2
    return sum(drivers.values()), drivers


class AnthropicStrictGrammarSize(ProviderRule):
    """A request's strict tools whose estimated grammar size risks 400 'compiled grammar is too large'."""

    severity = W
    facts = ("anthropic-strict.grammar-too-large", "anthropic-strict.max-optional", "anthropic-strict.max-unions")
    options: ClassVar[Mapping[str, Any]] = {"max_points": 24}

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        from schemalint.provider_facts import value

        members = [t for t, _a in catalog_members(self, tools, ctx)]
        limit = float(self.option(ctx, "max_points"))
        max_opt, max_union = int(value("anthropic-strict.max-optional")), int(value("anthropic-strict.max-unions"))
        for group in request_groups(members).values():
            total = 0.0
            per: dict[str, float] = {}
            optional = unions = 0
            for tool in group:
                points, drivers = grammar_points(tool, ctx)
                total += points
                for k, v in drivers.items():
                    per[k] = per.get(k, 0.0) + v
                o, u = budget_counts(tool, ctx)
                optional, unions = optional + o, unions + u
            if total < limit or optional > max_opt or unions > max_union:
                continue  # below the estimate, or SL320 already refuses the request
            worst = max(group, key=lambda t: grammar_points(t, ctx)[0])
            shown = ", ".join(f"{k} {v:g}" for k, v in sorted(per.items(), key=lambda kv: -kv[1]) if v)
            yield from self.merge(worst, [ProfileFault(
                "anthropic-strict", W, "", "grammar",
                f"the strict tools of this request score {total:g} grammar points ({shown}; this tool is the "
                f"largest), at or above {limit:g}: Anthropic refuses such requests with 400 'The compiled grammar "
                "is too large' below the documented caps (an estimate; the threshold is UNCONFIRMED and "
                "depends on the model)",
                "make optional fields required (nullable where needed), shorten large enums, drop patterns and "
                "maxItems, flatten nesting, or set strict: false on tools that do not need it",
            )])
