"""SL305 root-composition: ``anyOf``/``oneOf``/``allOf`` (and for OpenAI ``enum``/``not``/``const``) at
the schema root.

MCP, Bedrock and Gemini ``parametersJsonSchema``: warnings. For MCP also a root conditional
(``if``, with its ``then``/``else``): providers accept it at the root, but Claude Code drops a tool
whose ``inputSchema`` has any of these keywords at its root, silently (anthropics/claude-code#95504,
2026-09-19).

Source: rules/SL305-root-composition.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Severity, Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, ptr_key
from schemalint.rules.shape._common import root_composition_hint

_BY_TARGET: dict[str, tuple[tuple[str, ...], Severity]] = {
    "openai": (("anyOf", "oneOf", "allOf", "enum", "not", "const"), E),
    "openai-strict": (("anyOf", "oneOf", "allOf", "enum", "not", "const"), E),
    "anthropic": (("anyOf", "oneOf", "allOf"), E),
    "anthropic-strict": (("anyOf", "oneOf", "allOf"), E),
    "bedrock": (("anyOf", "oneOf", "allOf"), W),
    "gemini-json": (("anyOf", "oneOf", "allOf", "not"), W),
    "mcp": (("anyOf", "oneOf", "allOf", "not", "if"), W),
}

DROPPED_BY_CLAUDE_CODE = "Claude Code leaves such a tool out of its list without a word (anthropics/claude-code#95504)"
"""What the MCP messages add: an MCP client that drops the tool (observed 2026-09-19, Claude Code
with MCP 2026-07-28, for root ``allOf``/``oneOf``/``anyOf``/``not``/``if``/``then``/``else``)."""


class RootComposition(ProviderRule):
    """A composition keyword at the root of the parameters schema."""

    keywords = frozenset(k for keys, _ in _BY_TARGET.values() for k in keys)  # the root keys checked (Rule.keywords)

    severity = E

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        schema = tool.advertised
        if not isinstance(schema, Mapping):
            return
        for target in targets:
            keys, sev = _BY_TARGET[target]
            for key in keys:
                if key not in schema:
                    continue
                if target == "mcp" and key == "if":
                    branches = " and ".join(f"`{k}`" for k in ("then", "else") if k in schema)
                    yield ProfileFault(
                        target, sev, ptr_key("", key), key,
                        "a conditional (`if`" + (f" with {branches}" if branches else "") + ") at the root of "
                        "inputSchema is outside the typed shape of MCP 2025-06-18 and 2025-11-25 (allowed "
                        "from 2026-07-28); "
                        f"{DROPPED_BY_CLAUDE_CODE}, so the model never sees it",
                        "declare what `then`/`else` require as optional properties of the root object, say "
                        "the condition in the description (\"`b` is required when `a` is `x`\"), and check it "
                        "in the tool",
                    )
                    continue
                if target == "mcp":
                    msg = (
                        f"`{key}` at the root of inputSchema is outside the typed shape of MCP 2025-06-18 and "
                        "2025-11-25 (allowed from 2026-07-28); clients that forward it to OpenAI or Anthropic "
                        f"get the whole request refused, and {DROPPED_BY_CLAUDE_CODE}"
                    )
                else:
                    msg = (
                        f'`{key}` at the root of the parameters schema is refused ("not have '
                        f"'{key}' at the top level\"); one such tool fails the whole request"
                    )
                yield ProfileFault(target, sev, ptr_key("", key), key, msg, root_composition_hint(key))
