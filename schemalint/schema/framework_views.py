"""What a framework sends to a provider, when it converts a tool's schema on the way.

An AI SDK (TypeScript) tool sent to Gemini does not go out as its JSON Schema:

- ``@ai-sdk/google`` 3.x (the provider of ``ai`` 6) sends ``parameters`` built by its own
  ``convertJSONSchemaToOpenAPISchema``, which keeps only ``description``, ``required``, ``format``,
  ``type`` (a type list becomes one type plus ``nullable``, or an ``anyOf`` of types), ``enum`` and
  ``const`` (as ``enum``), ``properties``, ``items``, ``allOf``, ``anyOf`` (a ``null`` branch becomes
  ``nullable``), ``oneOf`` and ``minLength``; it inlines local ``$ref`` targets, drops everything else
  (``$schema``, ``additionalProperties``, ``minimum``/``maximum``, ``pattern``, ``default``, ``$defs``
  ...), omits ``parameters`` for an empty root object schema, and falls back to
  ``parametersJsonSchema`` (the schema as is) for a recursive reference (read in the published
  package ``@ai-sdk/google@3.0.141``, ``dist/index.js``, 2026-12-02);
- a local ``$ref`` to ``#/$defs/X`` or ``#/definitions/X`` is inlined with its siblings merged in
  (``convertJSONSchemaReference``), so what a definition holds is sent wherever it is referenced; a
  reference back to one being resolved throws, and ``prepareFunctionDeclaration`` then sends the whole
  schema as ``parametersJsonSchema`` (same package, read 2026-12-02);
- ``@ai-sdk/google`` 4.x sends the schema as is as ``parametersJsonSchema`` (``@ai-sdk/google@4.0.121``,
  ``prepareTools``), the surface that accepts those keywords (profile ``gemini-json``).

So a keyword either version removes before the request is not refused by Gemini's ``parameters``;
:func:`ai_sdk_google_sends` answers, for a pointer into the tool's schema, whether the keyword there
reaches ``parameters`` as written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.model import escape_token, split_pointer
from schemalint.schema.walk import walk

AI_SDK_GOOGLE_KEPT = frozenset({
    "description", "required", "format", "type", "enum", "const", "properties", "items", "allOf", "anyOf", "oneOf",
    "minLength",
})
"""The JSON Schema keywords ``@ai-sdk/google`` 3.x copies into Gemini ``parameters`` (``const`` as ``enum``)."""

_LISTS = frozenset({"allOf", "anyOf", "oneOf", "items"})


def ai_sdk_google_sends(schema: Any, pointer: str | None) -> bool:
    """Whether the keyword (or subschema) at ``pointer`` (relative to the tool's input ``schema``)
    reaches Gemini ``parameters`` as written when the AI SDK sends the tool (see the module
    docstring). ``False`` for a dropped keyword or one under a dropped keyword, a type list or an
    ``anyOf`` with a ``null`` branch and the subschema that holds it (rewritten as ``nullable``),
    ``const`` (rewritten as ``enum``), the root of an empty object schema (``parameters`` omitted),
    and anything at all in a schema with a recursive reference (sent as ``parametersJsonSchema``).
    A ``$defs``/``definitions`` entry that a ``$ref`` names is inlined where it is referenced, so a
    pointer into it is judged as a subschema of its own; an entry nothing references is not sent.
    ``True`` otherwise, also for a pointer that does not resolve. Never raises."""
    if pointer is None:
        return True
    try:
        tokens = split_pointer(pointer)
    except ValueError:
        return True
    if _recursive(schema):
        return False
    if len(tokens) >= 2 and tokens[0] in ("$defs", "definitions") and isinstance(schema, Mapping):
        defs = schema.get(tokens[0])
        entry = defs.get(tokens[1]) if isinstance(defs, Mapping) else None
        if not isinstance(entry, Mapping) or f"#/{tokens[0]}/{escape_token(tokens[1])}" not in _refs(schema):
            return False
        return _sends(entry, tokens[2:], root=False)
    return _sends(schema, tokens, root=True)


def _sends(schema: Any, tokens: list[str], *, root: bool) -> bool:
    node: Any = schema
    if not tokens:
        return not _empty_object(schema) if root else not _rewritten_nullable(schema)
    i = 0
    while i < len(tokens):
        if not isinstance(node, Mapping):
            return True
        key = tokens[i]
        if key not in AI_SDK_GOOGLE_KEPT:
            return False
        value = node.get(key)
        last = i == len(tokens) - 1
        if last:
            if key == "const":
                return False
            if key == "type" and isinstance(value, list):
                return False
            return not (key == "anyOf" and isinstance(value, list) and any(
                isinstance(b, Mapping) and b.get("type") == "null" for b in value))
        if key == "properties":
            if not isinstance(value, Mapping):
                return True
            node = value.get(tokens[i + 1])
            i += 2
        elif key in _LISTS and isinstance(value, list):
            token = tokens[i + 1]
            node = value[int(token)] if token.isdigit() and int(token) < len(value) else None
            i += 2
        else:
            node = value
            i += 1
    return not _rewritten_nullable(node)


def _refs(schema: Any) -> set[str]:
    """Every string ``$ref`` in ``schema``."""
    return {n.schema["$ref"] for n in walk(schema, max_nodes=20_000)
            if isinstance(n.schema, Mapping) and isinstance(n.schema.get("$ref"), str)}


def _recursive(schema: Any) -> bool:
    """True when following ``schema``'s local references from its root comes back to a reference
    already being resolved: ``@ai-sdk/google`` 3.x then throws its recursive-reference error and sends
    the schema as ``parametersJsonSchema`` (``prepareFunctionDeclaration``)."""
    if not isinstance(schema, Mapping):
        return False
    return any(n.recursion_cut for n in walk(schema, follow_refs=True, include_definitions=False, max_nodes=20_000))


def _rewritten_nullable(node: Any) -> bool:
    """True for a subschema the converter rewrites whole: an ``anyOf`` with a ``null`` branch and one
    other branch (sent as that branch plus ``nullable``), or a type list with ``null``."""
    if not isinstance(node, Mapping):
        return False
    branches = node.get("anyOf")
    if isinstance(branches, list):
        others = [b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")]
        if len(others) == 1 and len(others) < len(branches):
            return True
    kinds = node.get("type")
    return isinstance(kinds, list) and "null" in kinds


def _empty_object(schema: Any) -> bool:
    """``@ai-sdk/google``'s test for an empty root: ``type: object``, no properties, no ``additionalProperties``."""
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return False
    props = schema.get("properties")
    return (props is None or (isinstance(props, Mapping) and not props)) and not schema.get("additionalProperties")
