"""SL317 recursive-schema: a ``$ref`` that refers back to a schema containing it.

Checked for ``strict: true`` tools under ``bedrock`` too, as a warning.

Source: rules/SL317-recursive-schema.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, ptr_key
from schemalint.schema.walk import walk


def recursive_refs(root: object) -> list[tuple[str, str]]:
    """``(pointer of the $ref node, ref)`` for every local ``$ref`` that closes a cycle."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for node in walk(root, follow_refs=True, include_definitions=False, max_nodes=20_000):
        schema = node.schema
        if isinstance(schema, Mapping):
            ref = schema.get("$ref")
            if isinstance(ref, str) and ref in node.via_ref and node.pointer not in seen:
                seen.add(node.pointer)
                out.append((node.pointer, ref))
    return out


class RecursiveSchema(ProviderRule):
    """A self-referential schema, which Anthropic's strict grammar compiler refuses."""

    keywords = frozenset({"$ref"})  # a schema without `$ref` cannot recurse (Rule.keywords)

    severity = E

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        active = [t for t in targets if t != "bedrock" or tool.strict]
        if not active or not index_for(tool, ctx).having("$ref"):
            return
        for pointer, ref in recursive_refs(tool.advertised):
            for target in active:
                yield ProfileFault(
                    target,
                    E if target == "anthropic-strict" else W,
                    ptr_key(pointer, "$ref"),
                    "rec",
                    f"schema {pointer or '/'} refers back to {ref!r}, a recursive schema; Anthropic strict "
                    "mode does not support recursion and refuses the tool",
                    "unroll the recursion to a fixed depth (e.g. two levels of children), or send the "
                    "nested part as a JSON string described in the description",
                )
