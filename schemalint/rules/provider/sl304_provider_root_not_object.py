"""SL304 provider-root-not-object: the parameters schema is not a ``type: "object"`` schema.

Bedrock: a warning (its object root is UNCONFIRMED).

Source: rules/SL304-provider-root-not-object.md, section "Source" (the one place it is written).

Division of labour with SL002 root-not-object: SL002 checks the root of every schema that
is there (null, not an object, no ``type``, a ``type`` other than ``object``) whatever the
target, and SL001 reports ``"type": "dict"``. This rule reports only what a target adds
beyond the tool's own format: a schema the format lets you omit (OpenAI/Gemini function
without ``parameters``, OpenAI Responses ``parameters: null``) that an Anthropic or MCP
target requires, and Gemini's upper-case ``"OBJECT"`` sent to a non-Gemini target.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.shape._common import foreign_schema_keys, has_schema_key, reports

_MAY_OMIT = ("openai", "openai-strict", "gemini", "gemini-json", "bedrock")
_FIELD = {
    "openai": "parameters",
    "openai-strict": "parameters",
    "anthropic": "input_schema",
    "anthropic-strict": "input_schema",
    "gemini": "parameters",
    "gemini-json": "parametersJsonSchema",
    "mcp": "inputSchema",
    "bedrock": "inputSchema.json",
}


class ProviderRootNotObject(ProviderRule):
    """The root of the parameters schema must be an object schema with ``type: "object"``."""

    severity = E

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        schema = tool.advertised
        if tool.schema_path is None and tool.origin.format == "docker-arguments":
            return  # parameters listed as Docker "arguments": the schema is built elsewhere
        if isinstance(schema, Mapping):
            # SL002 owns the root type (and SL001 the "dict" spelling); only Gemini's proto enum
            # spelling "OBJECT", which SL002 accepts for a Gemini tool, is refused by the others
            if schema.get("type") != "OBJECT" or tool.origin.format != "gemini":
                return
            for target in targets:
                if target.startswith("gemini"):
                    continue
                yield ProfileFault(
                    target,
                    W if target == "bedrock" else E,
                    "/type",
                    "upper",
                    'the root schema has type "OBJECT" (Gemini\'s enum spelling); JSON Schema types are '
                    'lower-case, so the provider refuses the tool',
                    'write "type": "object" (Gemini accepts the lower-case spelling too)',
                )
            return
        if reports("SL002", tool, ctx) or foreign_schema_keys(tool):
            return  # SL002 reports a null, non-object or required-but-missing schema; SL009 a schema under another key
        needing = [t for t in targets if t not in _MAY_OMIT]
        fields = " / ".join(f"`{f}`" for f in dict.fromkeys(_FIELD[t] for t in needing))
        first_field = _FIELD[needing[0]] if needing else ""
        for target in needing:
            yield ProfileFault(
                target,
                W if target == "bedrock" else E,
                None,
                "missing",
                f"the tool has {'a null' if has_schema_key(tool) else 'no'} parameters schema, which its own "
                f"format allows, but the provider requires {fields} to be a schema object and refuses the tool",
                f'add "{first_field}": {{"type": "object", "properties": {{}}}} (for a tool that takes no '
                "arguments) when converting it",
            )

