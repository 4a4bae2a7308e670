"""SL323 bedrock-strict-unsupported-keyword: a keyword Bedrock refuses in strict tools.

The list is the provider-facts row ``bedrock-strict.refused-keywords``. Checked only for tools
with ``"strict": true``.

Source: rules/SL323-bedrock-strict-unsupported-keyword.md, section "Source" (the one place it is written).
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
    keyword_findings,
    ptr_key,
    where,
)

_WHY = "{where} uses `{key}`; Bedrock refuses it in strict tools (400)"
_HINT = "remove `{key}`, state the limit in the description and enforce it in the tool"
_ONEOF_HINT = "use `anyOf` with the same branches (strict mode compiles anyOf)"
TABLE = {
    k: (E, _WHY, _ONEOF_HINT if k == "oneOf" else _HINT)
    for k in value("bedrock-strict.refused-keywords")
}


class BedrockStrictUnsupportedKeyword(ProviderRule):
    """Numeric bounds and array limits that Bedrock strict tools refuse."""

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "a bound removed leaves the runtime to enforce it (unsafe); `oneOf` rewritten as `anyOf` is safe "
              "when no value can match two branches, unsafe otherwise",
              drop_keyword,
              in_code=KEYWORD_IN_CODE)
    facts = ("bedrock-strict.refused-keywords",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        if not tool.strict:
            return
        index = index_for(tool, ctx)
        yield from keyword_findings(index, TABLE, "bedrock")
        for node in index.having("minItems"):
            n = node.schema.get("minItems")
            if isinstance(n, int) and n > 1:
                yield ProfileFault(
                    "bedrock",
                    E,
                    ptr_key(node.pointer, "minItems"),
                    "minItems",
                    f"{where(node)} has minItems {n}; Bedrock strict tools accept only 0 or 1 (400)",
                    "use minItems 0 or 1 and state the minimum in the description",
                    node.instance_path,
                )
