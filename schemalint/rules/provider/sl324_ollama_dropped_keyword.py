"""SL324 ollama-dropped-keyword: a constraint Ollama drops before the model sees the tool.

Every keyword Ollama's structs do not hold is dropped: the model never sees the constraint, yet
the tool's own validator still enforces it: a warning.

Source: rules/SL324-ollama-dropped-keyword.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import KEYWORD_IN_CODE, MIXED, Fix, drop_constraint
from schemalint.rules.provider._common import ProfileFault, ProviderRule, W, index_for, ptr_key, where

DROPPED = (
    "additionalProperties",
    "nullable",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "const",
    "oneOf",
    "allOf",
    "not",
    "minItems",
    "maxItems",
    "uniqueItems",
    "patternProperties",
    "if",
    "dependentRequired",
)


class OllamaDroppedKeyword(ProviderRule):
    """A constraining keyword Ollama's tool structs drop, so the model is never told about it."""

    keywords = frozenset(DROPPED)  # only the dropped keywords are checked (Rule.keywords)

    severity = W

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "Ollama drops the keyword anyway, but a server validating with this schema would stop enforcing it; "
              "a `oneOf` becomes the `anyOf` Ollama keeps (safe when no value matches two branches)",
              drop_constraint,
              in_code=KEYWORD_IN_CODE)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        for node in index.having(*DROPPED):
            if index.is_conditional(node):
                continue
            keys = [k for k in DROPPED if k in node.schema]
            if node.keyword != "properties" and node.pointer != "" and "$ref" in node.schema:
                keys.append("$ref")
            if not keys or (
                keys == ["additionalProperties"] and node.schema.get("additionalProperties") is True
            ):
                continue
            if (
                keys == ["additionalProperties"]
                and node.schema.get("additionalProperties") is False
                and node.pointer == ""
            ):
                continue  # a closed root is harmless to drop for a model that follows properties
            names = ", ".join(f"`{k}`" for k in keys)
            yield ProfileFault(
                "ollama",
                W,
                ptr_key(node.pointer, keys[0]),
                "dropped",
                f"{where(node)} uses {names}, which Ollama drops before the model sees the tool; the model "
                "may send values your validator then refuses",
                "state the constraint in the property's description as well (e.g. 'an ISO date, "
                "YYYY-MM-DD'; 'at most 100')",
                node.instance_path,
            )
