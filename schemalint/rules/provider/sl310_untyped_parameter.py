"""SL310 untyped-parameter: a property schema that declares no type at all.

An error for Gemini, a warning elsewhere.

Source: rules/SL310-untyped-parameter.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, where

_TYPED = frozenset(("type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not", "if", "properties", "items"))


class UntypedParameter(ProviderRule):
    """A parameter (any depth) whose schema says nothing about its type."""

    keywords = frozenset({"properties"})  # only property schemas are checked (Rule.keywords)

    severity = W

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        if not index.loose_properties:
            return  # every property schema has `type`, `anyOf` or `$ref`: typed for every target
        for node in index.property_nodes:
            schema = node.schema
            if "type" in schema:
                continue  # typed for every target (the common case: one lookup)
            typed = not _TYPED.isdisjoint(schema)
            for target in targets:
                if target == "gemini":
                    if "type" in schema or "anyOf" in schema or "$ref" in schema:
                        continue  # $ref is SL313's finding
                    yield ProfileFault(
                        target,
                        E,
                        node.pointer,
                        "gemini",
                        f'parameter {where(node)} has no "type"; Gemini answers 400 "Invalid value at '
                        '\'...value.type\' (Type), \\"\\"" and the whole request fails',
                        'add "type" (e.g. "type": "string" for an enum of strings, "type": "object" for a '
                        "nested object)",
                        node.instance_path,
                    )
                elif not typed:
                    yield ProfileFault(
                        target,
                        W,
                        node.pointer,
                        "untyped",
                        f"parameter {where(node)} declares no type; clients such as Claude Code then send "
                        "its value as a JSON string, which a runtime expecting an object, array or number "
                        "refuses (Ollama shows the model no type at all)",
                        'declare its type, e.g. "type": "object" (or "type": "string" if any text is fine)',
                        node.instance_path,
                    )
