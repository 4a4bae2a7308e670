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


SCHEMA_KEYS: dict[str, str] = {
    "parameters": "the OpenAI/Gemini key `parameters`",
    "input_schema": "Anthropic's key `input_schema`",
    "inputSchema": "the MCP/Bedrock key `inputSchema`",
    "parametersJsonSchema": "Gemini's key `parametersJsonSchema`",
    "parameters_json_schema": "Gemini's key `parameters_json_schema`",
}
"""The keys each tool format keeps its input schema under, with who uses them (for messages)."""

OWN_SCHEMA_KEYS: dict[str, frozenset[str]] = {
    "openai-chat": frozenset({"parameters"}),
    "openai-responses": frozenset({"parameters"}),
    "function": frozenset({"parameters"}),
    "anthropic": frozenset({"input_schema"}),
    "mcp": frozenset({"inputSchema"}),
    "bedrock": frozenset({"inputSchema"}),
    "gemini": frozenset({"parameters", "parametersJsonSchema", "parameters_json_schema"}),
    "gemini-json": frozenset({"parameters", "parametersJsonSchema", "parameters_json_schema"}),
}
"""Per :attr:`Origin.format`, the schema keys the format defines (Gemini's
``FunctionDeclaration`` has both ``parameters`` and ``parametersJsonSchema``; proto JSON also
accepts the snake_case spelling)."""

ENVELOPE_NAMES: dict[str, str] = {
    "openai-chat": "an OpenAI Chat Completions tool (`{\"type\": \"function\", \"function\": {...}}`)",
    "openai-responses": "an OpenAI Responses tool (`{\"type\": \"function\", \"name\": ...}`)",
    "anthropic": "an Anthropic tool",
    "mcp": "an MCP tool",
    "bedrock": "a Bedrock Converse `toolSpec`",
    "gemini": "a Gemini function declaration",
    "gemini-json": "a Gemini function declaration",
}


def foreign_schema_keys(tool: Tool) -> list[str]:
    """The schema keys of *other* formats present in ``tool``'s fields (:data:`SCHEMA_KEYS`), for a
    tool of a format with a known envelope (:data:`ENVELOPE_NAMES`); ``[]`` otherwise. A
    ``{name, parameters}`` tool of no known envelope (format ``function``) has none."""
    own = OWN_SCHEMA_KEYS.get(tool.origin.format)
    if own is None or tool.origin.format not in ENVELOPE_NAMES:
        return []
    fields = tool.fields
    return [key for key in SCHEMA_KEYS if key not in own and key in fields]


_WRAPPERS = frozenset({*SCHEMA_KEYS, "json", "jsonSchema", "json_schema", "schema"})
_SCHEMA_WORDS = frozenset({"type", "properties", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "items",
                           "required", "not"})


def wrapped_schema_key(schema: object) -> str | None:
    """The envelope key (``json``, ``input_schema``, ``parameters``, ``schema`` ...) that ``schema``
    wraps its real schema in, when ``schema`` is a dict with no JSON Schema keyword of its own and
    exactly one such key, whose value reads as an object schema (``type`` or ``properties``);
    else ``None``."""
    if not isinstance(schema, Mapping) or not schema or not _SCHEMA_WORDS.isdisjoint(schema):
        return None
    keys = [k for k in schema if k in _WRAPPERS]
    if len(keys) != 1 or any(k not in ("description", "title", "$schema", keys[0]) for k in schema):
        return None
    inner = schema[keys[0]]
    if isinstance(inner, Mapping) and ("type" in inner or isinstance(inner.get("properties"), Mapping)):
        return keys[0]
    return None


def root_composition_hint(key: str) -> str:
    """How to write what a root ``key`` (``anyOf``, ``oneOf``, ``allOf``, ``not``, ``enum``,
    ``const``) says without it, the object's rule then stated in the description and checked by
    the tool; shared by SL002 (a bare union at the root) and SL305 (root composition)."""
    if key == "allOf":
        return ("merge the `allOf` branches into the root object: every branch's `properties` and "
                "`required` at the root, and a rule no property can carry said in the description and "
                "checked in the tool")
    if key == "not":
        return ("drop the root `not` and say what it excludes in the description (\"do not send both `a` "
                "and `b`\"); check it in the tool")
    if key in ("enum", "const"):
        return f"drop the root `{key}`: describe the accepted objects with `properties` and `required`"
    return ("flatten the alternatives: one root object whose properties are the union of the "
            "branches' properties (branch-specific ones optional), and state the either/or rule "
            "in the description; validate it in the tool")
