"""SL304 provider-root-not-object: the parameters schema is not a ``type: "object"`` schema.

Source: reference/provider-constraints.md §0, §1.1, §1.7, §2.1, §3.2, §4.1, §5.1 (read
2026-08). OpenAI: "schema must be a JSON Schema of 'type: "object"', got 'type: null'"
(chatanywhere/GPT_API_free#403); omitting ``parameters`` is allowed. Anthropic: SDK type
``type: Literal["object"]`` (tool_param.py), ``input_schema`` required. Gemini ``parameters``:
OBJECT or omitted; ``parametersJsonSchema`` "must describe an object". MCP: ``inputSchema``
required with ``type: "object"`` (schema.ts 2025-06-18 to 2026-07-28). Bedrock: object in
practice, UNCONFIRMED (warning).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, Finding, ProviderRule, W

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

    code = "SL304"
    name = "provider-root-not-object"
    severity = E
    summary = (
        'Parameters schema missing, not a dict, or without root type "object" (the provider refuses it).'
    )
    targets = (
        "openai",
        "openai-strict",
        "anthropic",
        "anthropic-strict",
        "gemini",
        "gemini-json",
        "mcp",
        "bedrock",
    )
    source = (
        "OpenAI error chatanywhere/GPT_API_free#403; Anthropic tool_param.py @ 052d9dd; Gemini "
        "FunctionDeclaration (Vertex REST); MCP schema.ts 2025-11-25/2026-07-28; Bedrock "
        "UNCONFIRMED — reference §0, §1.1, §2.1, §3.3, §4.1 (2026-08)"
    )

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[Finding]:
        schema = tool.advertised
        if tool.schema_path is None and tool.origin.format == "docker-arguments":
            return  # parameters listed as Docker "arguments": the schema is built elsewhere
        for target in targets:
            sev = W if target == "bedrock" else E
            fld = _FIELD[target]
            if schema is None:
                if target in _MAY_OMIT:
                    continue
                yield Finding(
                    target,
                    sev,
                    None,
                    "missing",
                    f"the tool's parameters schema {'is null' if tool.schema_path else 'is missing'}; "
                    f"the provider requires `{fld}` to be a schema object and refuses the tool",
                    f'add "{fld}": {{"type": "object", "properties": {{}}}} for a tool that takes '
                    "no arguments",
                )
                continue
            if not isinstance(schema, Mapping):
                yield Finding(
                    target,
                    sev,
                    "",
                    "notdict",
                    f"`{fld}` is a {type(schema).__name__}, not a schema object; the provider "
                    "refuses the request",
                    'wrap the arguments in {"type": "object", "properties": {...}}',
                )
                continue
            t = schema.get("type")
            if t == "object":
                continue
            if t is None:
                yield Finding(
                    target,
                    sev,
                    "",
                    "notype",
                    'the root schema has no "type": "object"; the provider refuses the tool '
                    '(OpenAI: 400 \'schema must be a JSON Schema of type: "object", got type: '
                    "null'; Claude Code drops the server's tools)",
                    'add "type": "object" at the root; move any root anyOf/oneOf alternatives '
                    "into optional properties",
                )
            else:
                hint = (
                    'use "type": "object" (JSON Schema has no "dict")'
                    if t == "dict"
                    else 'use "type": "object" at the root (a single type, not a list)'
                )
                yield Finding(
                    target,
                    sev,
                    "/type",
                    "badtype",
                    f'the root schema has type {t!r}, not "object"; the provider refuses the '
                    "tool (tool arguments are always a JSON object)",
                    hint,
                )
