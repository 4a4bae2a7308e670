"""SL323 bedrock-strict-unsupported-keyword: a keyword Bedrock refuses in strict tools.

Source: reference/provider-constraints.md §5.1 (read 2026-08): tested against Claude Sonnet
4.5 on Bedrock (2026-05-19), strict tools get 400 on number/integer ``minimum``, ``maximum``,
``exclusiveMinimum``, ``exclusiveMaximum``, ``multipleOf``; array ``maxItems``; ``minItems``
above 1 (pydantic-ai ``providers/bedrock.py`` ``_BEDROCK_STRICT_UNSUPPORTED_KEYS_BY_TYPE``,
citing docs.aws.amazon.com/bedrock/latest/userguide/structured-output.html); and ``oneOf``
("oneOf is unsupported": strands-agents/harness-sdk#2664, a production outage, and the maintainers'
reply of 2026-07-14 with PR #3261). The list is the provider-facts row
``bedrock-strict.refused-keywords``. Checked only for tools with ``"strict": true``.
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
