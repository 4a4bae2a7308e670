"""SL312 anthropic-strict-unsupported-keyword: a keyword outside Anthropic's strict-tool subset.

Client-side strict derivations (provider-facts row ``anthropic-strict.client-derivation``)
refuse ``const``: a warning, since the API documents ``const`` as supported. A subschema
without a type is SL310's finding (untyped-parameter).

Source: rules/SL312-anthropic-strict-unsupported-keyword.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import KEYWORD_IN_CODE, MIXED, Fix, drop_keyword
from schemalint.rules.provider._common import (
    E,
    ProfileFault,
    ProviderRule,
    W,
    index_for,
    keyword_findings,
    ptr_key,
    regex_trouble,
    where,
)

FORMATS = frozenset(
    ("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid")
)
_REFUSED = "{where} uses `{key}`; Anthropic strict tools do not support it and the request fails with 400"
_MOVE = "remove `{key}`, state the limit in the description and enforce it in the tool"
_UNLISTED = (
    "{where} uses `{key}`, which is not in Anthropic's strict-mode subset (the SDK rewrites or "
    "drops it; the API may refuse it)"
)
TABLE = {
    "minimum": (E, _REFUSED, _MOVE),
    "maximum": (E, _REFUSED, _MOVE),
    "exclusiveMinimum": (E, _REFUSED, _MOVE),
    "exclusiveMaximum": (E, _REFUSED, _MOVE),
    "multipleOf": (E, _REFUSED, _MOVE),
    "minLength": (E, _REFUSED, _MOVE),
    "maxLength": (E, _REFUSED, _MOVE),
    "maxItems": (E, _REFUSED, _MOVE),
    "uniqueItems": (E, _REFUSED, _MOVE),
    "contains": (E, _REFUSED, _MOVE),
    "minContains": (E, _REFUSED, _MOVE),
    "maxContains": (E, _REFUSED, _MOVE),
    "oneOf": (W, _UNLISTED, "use `anyOf` with the same branches"),
    "not": (W, _UNLISTED, _MOVE),
    "if": (W, _UNLISTED, _MOVE),
    "patternProperties": (W, _UNLISTED, "declare the keys as properties"),
    "propertyNames": (W, _UNLISTED, _MOVE),
    "minProperties": (W, _UNLISTED, _MOVE),
    "maxProperties": (W, _UNLISTED, _MOVE),
    "dependentRequired": (W, _UNLISTED, _MOVE),
    "dependentSchemas": (W, _UNLISTED, _MOVE),
}


class AnthropicStrictUnsupportedKeyword(ProviderRule):
    """A JSON Schema feature Anthropic's strict-tool grammar compiler refuses (errors) or does not "
    "list (warnings)."""

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "removing an annotation changes no call (safe; a `default` moves into the description); removing a "
              "validation keyword leaves the runtime to enforce it (unsafe); `oneOf` becomes `anyOf` (safe only "
              "when no value can match two branches)",
              drop_keyword,
              in_code=KEYWORD_IN_CODE)
    facts = ("anthropic-strict.client-derivation",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        t = "anthropic-strict"
        yield from keyword_findings(index, TABLE, t)
        for node in index.having("minItems"):
            n = node.schema.get("minItems")
            if isinstance(n, int) and n > 1:
                yield ProfileFault(
                    t,
                    E,
                    ptr_key(node.pointer, "minItems"),
                    "minItems",
                    f"{where(node)} has minItems {n}; Anthropic strict mode accepts only 0 or 1 (400)",
                    "use minItems 0 or 1 and state the minimum in the description",
                    node.instance_path,
                )
        for node in index.having("enum"):
            values = node.schema.get("enum")
            if isinstance(values, list) and any(isinstance(v, (Mapping, list)) for v in values):
                yield ProfileFault(
                    t,
                    E,
                    ptr_key(node.pointer, "enum"),
                    "enum",
                    f"{where(node)} has objects or arrays among its enum values; Anthropic strict "
                    "mode supports only strings, numbers, booleans and null",
                    "use scalar enum values (e.g. names) and map them to the objects in the tool",
                    node.instance_path,
                )
        for node in index.having("$ref"):
            ref = node.schema.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                yield ProfileFault(
                    t,
                    E,
                    ptr_key(node.pointer, "$ref"),
                    "$ref",
                    f"{where(node)} refers to an external schema ({ref}); Anthropic strict mode "
                    "supports internal references only",
                    "copy the definition into $defs and refer to it as #/$defs/Name",
                    node.instance_path,
                )
        for node in index.having("allOf"):
            branches = node.schema.get("allOf")
            if isinstance(branches, list) and any(isinstance(b, Mapping) and "$ref" in b for b in branches):
                yield ProfileFault(
                    t,
                    E,
                    ptr_key(node.pointer, "allOf"),
                    "allOf-ref",
                    f"{where(node)} uses allOf with a $ref branch, which Anthropic strict mode does "
                    "not support",
                    "inline the referenced schema into one object, or use the $ref alone",
                    node.instance_path,
                )
        for node in index.having("pattern"):
            trouble = regex_trouble(node.schema.get("pattern"))
            if trouble:
                yield ProfileFault(
                    t,
                    E,
                    ptr_key(node.pointer, "pattern"),
                    "pattern",
                    f"{where(node)} has a pattern with {trouble}; Anthropic strict mode does not "
                    "support it (400)",
                    "rewrite the pattern with anchors, classes and simple "
                    "repetition only, or move it to the description",
                    node.instance_path,
                )
        for node in index.having("const"):
            if index.is_conditional(node):
                continue
            yield ProfileFault(
                t, W, ptr_key(node.pointer, "const"), "const",
                f"{where(node)} uses `const`; the API documents it, but client-side strict derivations "
                "(the Anthropic SDK's transform_schema, Claude Code) move it into the description or "
                "refuse the tool as unsupported_const",
                'write a one-value enum instead, e.g. "enum": ["fixed"]',
                node.instance_path,
            )
        for node in index.having("format"):
            fmt = node.schema.get("format")
            if isinstance(fmt, str) and fmt not in FORMATS:
                yield ProfileFault(
                    t,
                    W,
                    ptr_key(node.pointer, "format"),
                    "format",
                    f"{where(node)} has format {fmt!r}, outside Anthropic's strict-mode list "
                    "(the SDK moves it into the description)",
                    f"remove `format` and say in the description that the value is a {fmt}",
                    node.instance_path,
                )
