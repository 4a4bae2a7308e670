"""SL311 openai-strict-unsupported-keyword: a keyword outside OpenAI's strict-mode subset.

The keyword lists are the provider-facts rows ``openai-strict.refused-keywords`` (errors),
``openai-strict.unlisted-keywords`` (warnings, UNCONFIRMED), ``openai-strict.default`` and
``openai-strict.formats`` (:mod:`schemalint.provider_facts`); this module only words each finding.

Source: rules/SL311-openai-strict-unsupported-keyword.md, section "Source" (the one place it is written).

``default`` is a warning, not an error: one refusal was captured, and a recorded answer shows the
server accepting it; strict mode does not apply it either way (the page says which records).
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
    W,
    index_for,
    keyword_findings,
    ptr_key,
    regex_trouble,
    where,
)

FORMATS = frozenset(value("openai-strict.formats"))

_NOT_PERMITTED = "{where} uses `{key}`, which OpenAI strict mode refuses (400 \"'{key}' is not permitted\")"
_RULE_HINT = (
    "drop `{key}`, state the rule in the description and enforce it in the tool; "
    "strict mode only supports type, properties, required, items, enum, const, anyOf, $ref"
)
_UNCONFIRMED = (
    "{where} uses `{key}`, which is not in OpenAI's strict-mode list of supported keywords "
    "(may be refused or ignored; UNCONFIRMED)"
)
_KNOWN = {
    "allOf": (E, _NOT_PERMITTED, "merge the allOf branches into a single schema"),
    "oneOf": (
        E,
        "{where} uses `oneOf`, which is not in OpenAI's strict-mode subset",
        "use `anyOf` with the same branches (what the OpenAI Agents SDK does)",
    ),
    "not": (E, _NOT_PERMITTED, _RULE_HINT),
    "if": (E, _NOT_PERMITTED, _RULE_HINT),
    "then": (E, _NOT_PERMITTED, _RULE_HINT),
    "else": (E, _NOT_PERMITTED, _RULE_HINT),
    "dependentRequired": (E, _NOT_PERMITTED, _RULE_HINT),
    "dependentSchemas": (E, _NOT_PERMITTED, _RULE_HINT),
    "dependencies": (E, _NOT_PERMITTED, _RULE_HINT),
    "default": (
        W,
        "{where} uses `default`, which OpenAI strict mode does not apply (every property is required, so "
        "the model always sends a value); older strict servers refused it (\"'default' is not permitted\"), "
        "a 2025-12 gpt-5-mini answer accepted it",
        "remove `default`, make the property nullable and say in the "
        "description what null means (the tool applies the default)",
    ),
    "minLength": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "maxLength": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "patternProperties": (
        W,
        _UNCONFIRMED,
        "declare the keys as properties, or use an array of key/value objects",
    ),
    "propertyNames": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "minProperties": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "maxProperties": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "uniqueItems": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "contains": (W, _UNCONFIRMED, "move the constraint into the description and enforce it in the tool"),
    "unevaluatedProperties": (W, _UNCONFIRMED, 'use "additionalProperties": false'),
    "unevaluatedItems": (W, _UNCONFIRMED, "drop it; describe the rule in the description"),
    "definitions": (
        W,
        "{where} uses `definitions`; OpenAI documents `$defs` (whether "
        "`#/definitions/...` is accepted is UNCONFIRMED)",
        "rename `definitions` to `$defs` and rewrite the `$ref`s to #/$defs/...",
    ),
}
"""How each keyword is worded; which keywords are reported, and at which severity, is the rows'."""

_MOVE = "move the constraint into the description and enforce it in the tool"
TABLE = {
    **{k: (E, *_KNOWN.get(k, (E, _NOT_PERMITTED, _RULE_HINT))[1:]) for k in value("openai-strict.refused-keywords")},
    **{k: (W, *_KNOWN[k][1:]) for k in value("openai-strict.default")},
    **{k: (W, *_KNOWN.get(k, (W, _UNCONFIRMED, _MOVE))[1:]) for k in value("openai-strict.unlisted-keywords")},
}
"""Keyword -> (severity, message, hint): errors for ``openai-strict.refused-keywords``, warnings for
``openai-strict.unlisted-keywords`` and ``openai-strict.default``."""


class OpenAIStrictUnsupportedKeyword(ProviderRule):
    """A JSON Schema keyword OpenAI strict mode refuses (errors) or does not document (warnings)."""

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "removing an annotation changes no call (safe; a `default` moves into the description); removing a "
              "validation keyword leaves the runtime to enforce it (unsafe); `oneOf` becomes `anyOf` (safe only "
              "when no value can match two branches)",
              drop_keyword,
              in_code=KEYWORD_IN_CODE)
    facts = ("openai-strict.refused-keywords", "openai-strict.unlisted-keywords", "openai-strict.default",
             "openai-strict.formats")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        yield from keyword_findings(index, TABLE, "openai-strict")
        for node in index.having("format"):
            fmt = node.schema.get("format")
            if isinstance(fmt, str) and fmt not in FORMATS and "string" in _types(node.schema):
                yield ProfileFault(
                    "openai-strict",
                    E,
                    ptr_key(node.pointer, "format"),
                    "format",
                    f"{where(node)} has format {fmt!r}; OpenAI strict mode supports only "
                    f"{', '.join(sorted(FORMATS))} and refuses other values",
                    f"remove `format` and say in the description that the value is a {fmt}",
                    node.instance_path,
                )
        for node in index.having("pattern"):
            trouble = regex_trouble(node.schema.get("pattern"))
            if trouble:
                yield ProfileFault(
                    "openai-strict",
                    W,
                    ptr_key(node.pointer, "pattern"),
                    "pattern",
                    f"{where(node)} has a pattern with {trouble}, which strict-mode grammars cannot "
                    "express (third-party tools treat it as incompatible)",
                    "rewrite the pattern without lookaround/backreferences, or move it to the description",
                    node.instance_path,
                )


def _types(schema: object) -> tuple[str, ...]:
    from schemalint.rules.provider._common import types_of

    if isinstance(schema, dict):
        t = types_of(schema)
        return t or ("string",)
    return ()
