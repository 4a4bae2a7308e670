"""SL318 nesting-depth: objects and arrays nested deeper than the provider allows.

Levels count object and array schemas on the path from the root (the root object is level 1),
following local ``$ref``. Options ``openai_max_depth``, ``openai_observed_depth``, ``gemini_max_depth``.

Source: rules/SL318-nesting-depth.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from schemalint.model import Tool, split_pointer
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, types_of
from schemalint.schema.walk import walk


def deepest(tool: Tool, ctx: Context) -> tuple[int, str, str]:
    """``(levels, schema pointer, instance path)`` of the most deeply nested object/array schema."""
    index = index_for(tool, ctx)
    if index.having("$ref"):
        nodes: Iterable = walk(index.root, follow_refs=True, include_definitions=False, max_nodes=50_000)
    else:
        nodes = index.nodes
    best = (0, "", "")
    for node in nodes:
        schema = node.schema
        if node.instance_path is None or not isinstance(schema, Mapping):
            continue
        types = types_of(schema)
        if not ("object" in types or "array" in types or (not types and "properties" in schema)):
            continue
        level = len(split_pointer(node.instance_path)) + 1
        if level > best[0]:
            best = (level, node.pointer, node.instance_path)
    return best


class NestingDepth(ProviderRule):
    """Object/array nesting deeper than the target's limit."""

    severity = E
    facts = ("openai-strict.max-depth", "openai-strict.observed-depth", "gemini.max-depth")

    options: ClassVar[Mapping[str, Any]] = {
        "openai_max_depth": value("openai-strict.max-depth"),
        "openai_observed_depth": value("openai-strict.observed-depth"),
        "gemini_max_depth": value("gemini.max-depth"),
    }

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        if not isinstance(tool.advertised, Mapping):
            return
        levels, pointer, ipath = deepest(tool, ctx)
        for target in targets:
            if target == "openai-strict":
                limit, sev = int(self.option(ctx, "openai_max_depth")), E
                why = (
                    f"OpenAI strict mode allows {limit} levels of nesting (400 'levels of nesting "
                    "exceeds limit')"
                )
                observed = int(self.option(ctx, "openai_observed_depth"))
                if observed < levels <= limit:
                    limit, sev = observed, W
                    why = (f"OpenAI documents up to {int(self.option(ctx, 'openai_max_depth'))} levels for "
                           f"strict schemas, but a limit of {observed} has been answered ('{observed + 1} levels "
                           f"of nesting exceeds limit of {observed}', o3, tidyverse/ellmer#671)")
            else:
                limit, sev = int(self.option(ctx, "gemini_max_depth")), W
                why = (
                    f"Gemini refuses declarations beyond its maximum nesting depth (value UNCONFIRMED; "
                    f"checked against {limit})"
                )
            if levels > limit:
                yield ProfileFault(
                    target,
                    sev,
                    pointer,
                    f"depth{limit}",
                    f"'{ipath.lstrip('/') or '/'}' is nested {levels} levels deep; {why}",
                    "flatten the structure (e.g. lift inner objects to top-level parameters, or pass the "
                    "deepest part as a JSON string described in the description)",
                    ipath,
                )
