"""SL313 gemini-unsupported-keyword: a key the Gemini ``parameters`` Schema proto does not have.

Source: rules/SL313-gemini-unsupported-keyword.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.fixes import KEYWORD_IN_CODE, MIXED, Fix, drop_keyword
from schemalint.rules.provider._common import (
    E,
    ProfileFault,
    ProviderRule,
    index_for,
    ptr_key,
    types_of,
    under,
    where,
)
from schemalint.schema.index import SchemaNode

ALLOWED = frozenset(value("gemini.schema-fields"))
"""Fields of the Gemini API ``Schema`` message: the provider-facts row ``gemini.schema-fields`` (reference §3.2)."""

HINTS = {
    "additionalProperties": "remove it (Gemini has no such field; objects only carry their declared "
    "properties)",
    "$schema": "remove `$schema` from the declaration",
    "$ref": "inline the referenced definition in place of the $ref (Gemini parameters has no references)",
    "$defs": "inline every definition where it is referenced and drop `$defs`",
    "definitions": "inline every definition where it is referenced and drop `definitions`",
    "const": 'use a one-value enum: "enum": ["value"] with "type": "string"',
    "oneOf": "use `anyOf` with the same branches",
    "allOf": "merge the allOf branches into one schema",
    "exclusiveMinimum": "use `minimum` (and state the exclusive bound in the description)",
    "exclusiveMaximum": "use `maximum` (and state the exclusive bound in the description)",
    "examples": "use `example` (one value) or put the examples in the description",
}
_DEFAULT_HINT = "remove `{key}` and state the rule in the description (or send parametersJsonSchema instead)"
_NUMBER_FORMATS = {"number": ("float", "double"), "integer": ("int32", "int64")}


class GeminiUnsupportedKeyword(ProviderRule):
    """A schema key outside the Gemini ``parameters`` Schema fields, or a field value it cannot hold:
    a string ``format`` other than ``enum``/``date-time``, non-string ``enum`` values, ``items`` written
    as a list (the tuple form; ``Schema.items`` is one schema), and a ``required`` name that the same
    node's ``properties`` does not declare (Gemini checks each Schema node on its own, so an
    ``anyOf`` branch that only lists ``required`` is refused: "property is not defined").
    """

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "removing an annotation changes no call (safe; a `default` moves into the description); removing a "
              "validation keyword leaves the runtime to enforce it (unsafe); `oneOf` becomes `anyOf` (safe only "
              "when no value can match two branches)",
              drop_keyword,
              in_code=KEYWORD_IN_CODE)
    facts = ("gemini.schema-fields",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        flagged: list[str] = []
        for node in index.nodes:
            if flagged and under(node.pointer, flagged):
                continue
            schema = node.schema
            for key in schema:
                if key in ALLOWED or not isinstance(key, str):
                    continue
                pointer = ptr_key(node.pointer, key)
                flagged.append(pointer)
                yield ProfileFault(
                    "gemini",
                    E,
                    pointer,
                    key,
                    f"{where(node)} uses `{key}`, which Gemini's parameters Schema does not have; "
                    f"the request "
                    f"fails with 400 'Unknown name \"{key}\" ... Cannot find field' and every tool "
                    f"in it is lost",
                    HINTS.get(key, _DEFAULT_HINT.format(key=key)),
                    node.instance_path,
                )
            fmt = schema.get("format")
            if isinstance(fmt, str):
                types = types_of(schema) or ("string",)
                ok: tuple[str, ...] = ("enum", "date-time")
                for t in types:
                    if t in _NUMBER_FORMATS:
                        ok = _NUMBER_FORMATS[t]
                if fmt not in ok:
                    yield ProfileFault(
                        "gemini",
                        E,
                        ptr_key(node.pointer, "format"),
                        "format",
                        f"{where(node)} has format {fmt!r}; Gemini accepts only {' or '.join(ok)} here "
                        '("otherwise requests will fail")',
                        f"remove `format` and say in the description that the value is a {fmt}",
                        node.instance_path,
                    )
            items = schema.get("items")
            if isinstance(items, list):
                yield ProfileFault(
                    "gemini",
                    E,
                    ptr_key(node.pointer, "items"),
                    "items",
                    f"{where(node)} writes `items` as a list (a tuple); Gemini's Schema.items holds one schema, "
                    "so the request fails with 400 and every tool in it is lost",
                    "use one items schema (an anyOf of the element types if they differ), or an object with "
                    "one named property per position",
                    node.instance_path,
                )
            yield from _undeclared_required(node)
            values = schema.get("enum")
            if isinstance(values, list) and not all(isinstance(v, str) for v in values):
                yield ProfileFault(
                    "gemini",
                    E,
                    ptr_key(node.pointer, "enum"),
                    "enum",
                    f"{where(node)} has non-string enum values; Gemini's Schema.enum is a list of strings",
                    'use "type": "string" with the values written as strings, and convert them in the tool',
                    node.instance_path,
                )


_BRANCHES = frozenset({"anyOf", "oneOf", "allOf", "if", "then", "else", "not"})
"""Keywords whose subschema describes the same instance as its parent."""


def _undeclared_required(node: SchemaNode) -> Iterable[ProfileFault]:
    """``required`` names the node's own ``properties`` lack: Gemini reads each Schema on its own
    (400 "...any_of[0].required[1]: property is not defined", jcode#655), where JSON Schema lets an
    ``anyOf`` branch require a property its parent declares (SL003 follows JSON Schema)."""
    required = node.schema.get("required")
    if not isinstance(required, list) or not required:
        return
    props = node.schema.get("properties")
    declared = props if isinstance(props, dict) else {}
    around: set[str] = set()  # what the schemas around it at the same instance declare
    current = node
    while current.keyword in _BRANCHES and current.parent is not None:
        current = current.parent
        outer = current.schema.get("properties")
        if isinstance(outer, dict):
            around.update(k for k in outer if isinstance(k, str))
    # a name declared nowhere around it is SL003's finding (one fault, one diagnostic)
    missing = [r for r in required if isinstance(r, str) and r not in declared and r in around]
    if not missing:
        return
    shown = ", ".join(f"`{m}`" for m in missing[:5])
    yield ProfileFault(
        "gemini",
        E,
        ptr_key(node.pointer, "required"),
        "required",
        f"{where(node)} requires {shown}, which its own `properties` does not declare; Gemini checks each "
        "schema node on its own and answers 400 'property is not defined' for the whole request",
        "declare the property in this node's `properties` (repeat it in each anyOf branch that requires "
        "it), or state the either-or rule in the description",
        node.instance_path,
    )
