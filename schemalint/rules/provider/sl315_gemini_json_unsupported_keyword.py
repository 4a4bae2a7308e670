"""SL315 gemini-json-unsupported-keyword: a keyword ``parametersJsonSchema`` may not honour.

Whether Gemini ignores or rejects them is UNCONFIRMED: warnings only.

Source: rules/SL315-gemini-json-unsupported-keyword.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.fixes import KEYWORD_IN_CODE, MIXED, Fix, drop_keyword
from schemalint.rules.provider._common import ProfileFault, ProviderRule, W, index_for, keyword_findings

_WHY = (
    "{where} uses `{key}`, which Gemini parametersJsonSchema is not known to support (it may be "
    "ignored, so the model never sees the rule, or refused; UNCONFIRMED)"
)
_MOVE = "drop `{key}`, state the rule in the description and enforce it in the tool"
_HINTS = {
    "allOf": (W, _WHY, "merge the allOf branches into one schema"),
    "oneOf": (W, _WHY, "use `anyOf` with the same branches"),
    "not": (W, _WHY, _MOVE),
    "if": (W, _WHY, _MOVE),
    "dependentRequired": (W, _WHY, _MOVE),
    "dependentSchemas": (W, _WHY, _MOVE),
    "dependencies": (W, _WHY, _MOVE),
    "exclusiveMinimum": (W, _WHY, "use `minimum` and state the exclusive bound in the description"),
    "exclusiveMaximum": (W, _WHY, "use `maximum` and state the exclusive bound in the description"),
    "const": (W, _WHY, 'use a one-value enum: "enum": [value]'),
    "$schema": (W, _WHY, "remove `$schema`"),
}
TABLE = {k: _HINTS.get(k, (W, _WHY, _MOVE)) for k in value("gemini-json.unconfirmed-keywords")}
"""Keyword -> (severity, message, hint), for the keywords of the provider-facts row
``gemini-json.unconfirmed-keywords`` (all warnings: the row is UNCONFIRMED)."""


class GeminiJsonUnsupportedKeyword(ProviderRule):
    """A keyword Gemini's ``parametersJsonSchema`` may ignore or refuse (UNCONFIRMED, warnings)."""

    severity = W

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "removing an annotation changes no call (safe; a `default` moves into the description); removing a "
              "validation keyword leaves the runtime to enforce it (unsafe); `oneOf` becomes `anyOf` (safe only "
              "when no value can match two branches)",
              drop_keyword,
              in_code=KEYWORD_IN_CODE)
    facts = ("gemini-json.unconfirmed-keywords",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        yield from keyword_findings(index_for(tool, ctx), TABLE, "gemini-json", skip_under_flagged=True)
