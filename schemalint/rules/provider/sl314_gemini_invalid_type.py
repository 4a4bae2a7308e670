"""SL314 gemini-invalid-type: ``type`` is a list (``["string", "null"]``) or not a Gemini type name.

A union node (``anyOf``) without ``type`` becomes ``TYPE_UNSPECIFIED`` in the proto, which
Gemini 3 refuses, as Vertex refuses union branches without a type. ``parametersJsonSchema`` takes
``anyOf`` as JSON Schema, so the ``gemini-json`` profile does not report it.

Source: rules/SL314-gemini-invalid-type.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.fixes import MIXED, Fix, gemini_type
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, index_for, ptr_key, where

TYPES = frozenset(value("gemini.types"))
"""The names ``Schema.type`` takes: the provider-facts row ``gemini.types``."""


class GeminiInvalidType(ProviderRule):
    """A ``type`` value Gemini's Schema proto cannot hold, or none on a union (``anyOf``) node."""

    keywords = frozenset({"anyOf", "type"})  # only `anyOf` and `type` are checked (Rule.keywords)

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "a type name's JSON Schema spelling and the type every branch shares say the same values; the"
              " nullable form does so only in a file read as Gemini's Schema, and narrows a JSON Schema file",
              gemini_type)
    facts = ("gemini.types",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        for node in index.having("anyOf"):
            if "type" in node.schema or node.pointer == "" or index.is_conditional(node):
                continue
            branches = node.schema.get("anyOf")
            if not isinstance(branches, list):
                continue
            types = {b["type"] for b in branches if isinstance(b, dict) and isinstance(b.get("type"), str)}
            types.discard("null")
            shared = next(iter(types)) if len(types) == 1 else None
            yield ProfileFault(
                "gemini",
                E,
                node.pointer,
                "union",
                f'{where(node)} is an anyOf without "type"; Gemini\'s parameters proto then holds '
                "TYPE_UNSPECIFIED, which Gemini 3 and Vertex AI refuse (400 'Invalid value ... type')",
                (f'add "type": "{shared}" next to anyOf' if shared else
                 'add the "type" the branches share, or send the declaration as parametersJsonSchema, '
                 "which takes anyOf as JSON Schema"),
                node.instance_path,
            )
        for node in index.having("type"):
            t = node.schema.get("type")
            pointer = ptr_key(node.pointer, "type")
            if isinstance(t, list):
                others = [x for x in t if x != "null"]
                if len(others) == 1 and "null" in t:
                    hint = f'use "type": {json.dumps(others[0])} with "nullable": true'
                else:
                    hint = (
                        'use "anyOf": ['
                        + ", ".join(json.dumps({"type": x}) for x in others)
                        + '] (plus "nullable": true if null is allowed)'
                    )
                yield ProfileFault(
                    "gemini",
                    E,
                    pointer,
                    "list",
                    f"{where(node)} has a list of types {json.dumps(t)}; Gemini answers 400 'Proto field is "
                    "not repeating, cannot start list' and the whole request fails",
                    hint,
                    node.instance_path,
                )
            elif isinstance(t, str) and t.lower() not in TYPES and node.pointer != "":  # root: SL304
                fix = {
                    "dict": "object",
                    "float": "number",
                    "int": "integer",
                    "bool": "boolean",
                    "list": "array",
                    "tuple": "array",
                    "str": "string",
                    "any": "string",
                }.get(t.lower())
                yield ProfileFault(
                    "gemini",
                    E,
                    pointer,
                    "name",
                    f"{where(node)} has type {t!r}, which is not a Gemini type (STRING, NUMBER, INTEGER, "
                    "BOOLEAN, ARRAY, OBJECT, NULL); the request fails with 400 'Invalid value'",
                    f'use "type": "{fix}"'
                    if fix
                    else "use one of string, number, integer, boolean, array, object",
                    node.instance_path,
                )
