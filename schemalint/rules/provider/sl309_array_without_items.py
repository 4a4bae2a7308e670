"""SL309 array-without-items: an array schema with no ``items`` (OpenAI, Gemini ``parameters``; MCP: a
warning, VS Code's client refuses the tool).

Untyped ``items`` in strict mode: a warning (a third-party report).

Source: rules/SL309-array-without-items.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.provider_facts import fact
from schemalint.rules.base import Context
from schemalint.rules.fixes import MIXED, Fix, add_items
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, ptr_key, types_of, where

_TYPING = ("type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const")


class ArrayWithoutItems(ProviderRule):
    """An ``array`` schema without ``items`` (or, strict, with untyped items)."""

    keywords = frozenset({"type"})  # only schemas with a `type` are checked (Rule.keywords)

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "`items: {}` keeps any element (safe); where the target needs typed items, string elements are "
              "assumed (unsafe)",
              add_items,
              in_code={"python": "in the Pydantic model: type the elements (list[str], not list or list[Any])",
                       "typescript": "in the zod schema: z.array(z.string()), not z.array(z.any())"})
    facts = ("gemini.array-items", "mcp.vscode-array-items")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        for node in index.having("type"):
            # Gemini spells types in capitals (ARRAY); the other providers' lower case
            t = node.schema["type"]
            if isinstance(t, str):  # the common case, without building types_of's tuple
                if t.lower() != "array":
                    continue
            elif not any(name.lower() == "array" for name in types_of(node.schema)):
                continue
            if index.is_conditional(node):
                continue
            items = node.schema.get("items", "<missing>")
            if items == "<missing>" and "prefixItems" not in node.schema:
                for target in targets:
                    if target == "gemini":
                        why = ("Gemini answers 400 '...items: missing field' and the whole request fails "
                               f"(observed {fact('gemini.array-items').seen})")
                    elif target == "mcp":
                        why = ("JSON Schema allows it, but VS Code (Copilot Chat) refuses the tool: 'Failed "
                               "to validate tool ...: tool parameters array type must have items' (observed "
                               f"{fact('mcp.vscode-array-items').seen})")
                    else:
                        why = "OpenAI answers 400 'array schema missing items' and the whole request fails"
                    yield ProfileFault(
                        target,
                        W if target == "mcp" else E,
                        node.pointer,
                        "noitems",
                        f'{where(node)} is an array without "items"; {why}',
                        'add an items schema naming the element type, e.g. "items": {"type": "string"}',
                        node.instance_path,
                    )
            elif "openai-strict" in targets and (
                items is True or (isinstance(items, Mapping) and not any(k in items for k in _TYPING))
            ):
                yield ProfileFault(
                    "openai-strict",
                    W,
                    ptr_key(node.pointer, "items"),
                    "untyped",
                    f"{where(node)} has untyped items; OpenAI strict mode requires array items to "
                    f"have a type",
                    'give the items a type, e.g. "items": {"type": "string"}',
                    node.instance_path,
                )
