"""Shared pieces of the shape (SL0xx) rules, also read by the provider rules that defer to them
(SL301 to SL006, SL304 to SL002)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from schemalint.model import Tool, split_pointer

if TYPE_CHECKING:
    from schemalint.rules.base import Context

STANDARD_TYPES = frozenset({"null", "boolean", "object", "array", "number", "string", "integer"})
"""The seven primitive type names of JSON Schema (Validation draft-07 section 6.1.1)."""

NONSTANDARD_TYPES: dict[str, str | None] = {
    "dict": "object", "map": "object", "hashmap": "object", "hash": "object", "record": "object",
    "struct": "object", "json": "object", "jsonobject": "object", "obj": "object",
    "float": "number", "double": "number", "decimal": "number", "real": "number", "float64": "number",
    "float32": "number", "num": "number", "bigdecimal": "number",
    "int": "integer", "long": "integer", "short": "integer", "byte": "integer", "bigint": "integer",
    "int32": "integer", "int64": "integer", "uint": "integer",
    "str": "string", "char": "string", "text": "string", "date": "string", "datetime": "string",
    "enum": "string",
    "bool": "boolean",
    "list": "array", "arraylist": "array", "tuple": "array", "set": "array", "sequence": "array",
    "none": "null", "nonetype": "null", "nil": "null",
    "any": None, "": None,
}
"""Type names seen in the wild (lower-cased) -> the JSON Schema type to use (``None``: omit ``type``)."""


def has_schema_key(tool: Tool) -> bool:
    """True when the key at ``tool.schema_path`` is present in the tool object (even if null)."""
    tokens = split_pointer(tool.schema_path or "")
    if not tokens:
        return False
    node: object = tool.raw or {}
    for token in tokens[:-1]:
        if not isinstance(node, Mapping):
            return False
        node = node.get(token)
    return isinstance(node, Mapping) and tokens[-1] in node


def reports(code: str, tool: Tool, ctx: Context) -> bool:
    """True when the rule ``code`` (e.g. ``"SL006"``) reports ``tool`` in ``ctx``, whether or not it
    is selected: a provider rule that defers to a shape rule (SL301 to SL006 for the tool's own
    name pattern, SL304 to SL002 for the root) stays silent then, so that one problem yields one
    diagnostic. The rule is found through the catalog (its module is imported on first use);
    raises ``KeyError`` for an unknown code."""
    from schemalint.rules.registry import rule_by_code

    return any(True for _ in rule_by_code(code).check_tool(tool, ctx))
