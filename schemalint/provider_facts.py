"""Provider and protocol facts as data: one dated, sourced row per limit or refused shape.

Every number, keyword list and revision rule that a target rule (SL3xx) enforces is a fact some
provider, SDK or specification states (or that a public report observed) at a date. They live
here, once, so that the next revision is one row: the rules read their values with :func:`value`,
``docs/targets.md`` shows the table (its "Provider facts" section is :func:`markdown_table`, checked
by ``tests/test_provider_facts.py``), and each rule page names the source of the facts its rule
declares (:attr:`schemalint.rules.provider._common.ProviderRule.facts`); the test fails when a
page or the docs disagree with a row.

A :class:`Fact` has a ``key`` (``"openai-strict.max-depth"``), the ``provider`` and ``surface`` it
concerns, the ``revision`` (protocol revision or model) it was stated for, what it says
(``fact``), its ``value``, the ``evidence`` kind (DOC, SPEC, SDK, OBS, 3P, UNCONFIRMED: the tags of
the shared provider reference; a rule never makes an UNCONFIRMED or 3P fact an error on its
own), the ``source`` (a URL, or a repository path at a commit) and ``seen`` (the date the source
was read, or the date of the report). Rows are plain data: nothing here imports schemalint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Fact:
    """One sourced fact (see the module docstring for the fields)."""

    key: str
    provider: str
    surface: str
    revision: str
    fact: str
    value: Any
    evidence: str
    source: str
    seen: str

    def shown(self) -> str:
        """The value as the docs and pages write it: a number, a word, or a comma-separated list."""
        if isinstance(self.value, (tuple, list, frozenset)):
            return ", ".join(str(v) for v in self.value)
        return str(self.value)


_OPENAI_SO = "https://developers.openai.com/api/docs/guides/structured-outputs"
_MCP_SPEC = "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification"

FACTS: tuple[Fact, ...] = (
    # --- OpenAI
    Fact("openai-strict.max-depth", "OpenAI", "function tools, strict", "current docs",
         "strict schemas may nest objects up to this many levels", 10, "DOC",
         "https://developers.openai.com/api/docs/guides/structured-outputs", "2026-12-02"),
    Fact("openai-strict.observed-depth", "OpenAI", "response_format / strict", "o3 (2025)",
         "'6 levels of nesting exceeds limit of 5' was answered for a strict schema", 5, "OBS",
         "https://github.com/tidyverse/ellmer/issues/671", "2025-07"),
    Fact("openai.tool-name", "OpenAI", "function tools name", "current docs",
         "characters a tool name may use, and its maximum length (^[a-zA-Z0-9_-]{1,64}$)", ("A-Za-z0-9_-", 64),
         "DOC",
         "https://github.com/openai/openai-python/blob/main/src/openai/types/shared_params/function_definition.py",
         "2026-08"),
    Fact("openai.description-max-length", "OpenAI", "function tools description",
         "gpt-4o, o3-mini, Azure (2024-11 to 2025-04)",
         "400 string_above_max_length 'Expected a string with maximum length 1024' for a longer tool description; "
         "not in the API reference, current enforcement UNCONFIRMED", 1024, "OBS",
         "https://github.com/getsentry/sentry-mcp/issues/106", "2025-04"),
    Fact("openai.max-tools", "OpenAI", "Chat Completions tools", "current API",
         "'A max of 128 functions are supported' in one request", 128, "DOC",
         "https://github.com/openai/openai-openapi/pull/76", "2026-08"),
    Fact("openai-strict.max-properties", "OpenAI", "function tools, strict", "current docs",
         "object properties in total across the schema", 5000, "DOC", _OPENAI_SO, "2026-08"),
    Fact("openai-strict.max-enum-values", "OpenAI", "function tools, strict", "current docs",
         "enum values across all enum properties", 1000, "DOC", _OPENAI_SO, "2026-08"),
    Fact("openai-strict.max-string-budget", "OpenAI", "function tools, strict", "current docs",
         "total characters of property names, definition names, enum values and const values", 120000, "DOC",
         _OPENAI_SO, "2026-08"),
    Fact("openai-strict.large-enum", "OpenAI", "function tools, strict", "current docs",
         "a string enum of more than the first number of values may total at most the second number of characters",
         (250, 15000), "DOC", _OPENAI_SO, "2026-08"),
    Fact("openai-strict.refused-keywords", "OpenAI", "function tools, strict", "current docs",
         "keywords strict mode refuses (400 \"'oneOf' is not permitted\" and the like): composition other than "
         "anyOf, conditionals, dependencies", ("allOf", "oneOf", "not", "if", "then", "else", "dependentRequired",
                                                 "dependentSchemas", "dependencies"), "DOC",
         _OPENAI_SO, "2026-08"),
    Fact("openai-strict.unlisted-keywords", "OpenAI", "function tools, strict", "current docs and SDKs",
         "keywords the supported-schema list does not name; SDKs strip them, whether the server refuses or ignores "
         "them is UNCONFIRMED", ("minLength", "maxLength", "patternProperties", "propertyNames", "minProperties",
                                 "maxProperties", "uniqueItems", "contains", "unevaluatedProperties",
                                 "unevaluatedItems", "definitions"), "UNCONFIRMED",
         "https://github.com/pydantic/pydantic-ai/blob/main/pydantic_ai_slim/pydantic_ai/profiles/openai.py",
         "2026-08"),
    Fact("openai-strict.default", "OpenAI", "function tools, strict", "2024 refusal; 2025-12 acceptance",
         "default is not applied in strict mode; once refused ('default' is not permitted), accepted by a "
         "2025-12 gpt-5-mini answer", ("default",), "OBS", "https://zenn.dev/nicopin/scraps/a8d8f53f5faebb",
         "2026-08"),
    Fact("openai-strict.formats", "OpenAI", "function tools, strict", "current docs",
         "string formats strict mode supports", ("date-time", "time", "date", "duration", "email", "hostname",
                                                  "ipv4", "ipv6", "uuid"), "DOC", _OPENAI_SO, "2026-08"),
    # --- Gemini
    Fact("gemini.tool-name", "Google", "Gemini functionDeclarations[].name", "Gemini API (2025-11)",
         "a letter or _ first, then these characters, at most 64", ("A-Za-z0-9_.:-", 64), "OBS",
         "https://github.com/kaitranntt/ccs/issues/25", "2025-11"),
    Fact("gemini.max-tools", "Google", "Gemini functionDeclarations", "Gemini API (2026)",
         "'At most 512 function declarations can be specified' (Vertex's current value UNCONFIRMED)", 512, "OBS",
         "https://github.com/google-gemini/gemini-cli/issues/19083", "2026-08"),
    Fact("gemini.schema-fields", "Google", "Gemini functionDeclarations[].parameters", "v1beta / Vertex v1",
         "the fields of the Schema proto; any other key is 400 'Unknown name ... Cannot find field'",
         ("type", "format", "title", "description", "nullable", "enum", "items", "minItems", "maxItems",
          "properties", "propertyOrdering", "required", "minProperties", "maxProperties", "minLength", "maxLength",
          "pattern", "example", "anyOf", "default", "minimum", "maximum"), "DOC",
         "https://googleapis.github.io/js-genai/interfaces/types.Schema.html", "2026-08"),
    Fact("gemini.types", "Google", "Gemini functionDeclarations[].parameters", "v1beta / Vertex v1",
         "Schema.type is one value of this enum (a list is 400 'Proto field is not repeating')",
         ("string", "number", "integer", "boolean", "array", "object", "null"), "DOC",
         "https://googleapis.github.io/js-genai/interfaces/types.Schema.html", "2026-08"),
    Fact("gemini-json.unconfirmed-keywords", "Google", "Gemini functionDeclarations[].parametersJsonSchema",
         "since 2025-11", "keywords an SDK still drops or rewrites before sending parametersJsonSchema; whether "
         "Gemini ignores or refuses them is UNCONFIRMED", ("allOf", "oneOf", "not", "if", "dependentRequired",
                                                           "dependentSchemas", "dependencies", "exclusiveMinimum",
                                                           "exclusiveMaximum", "const", "$schema"), "UNCONFIRMED",
         "https://github.com/pydantic/pydantic-ai/blob/main/pydantic_ai_slim/pydantic_ai/profiles/google.py",
         "2026-08"),
    Fact("gemini.array-items", "Google", "Gemini functionDeclarations[].parameters", "2026",
         "an ARRAY schema without items is refused: 400 '...items: missing field'", "required", "OBS",
         "https://github.com/AstrBotDevs/AstrBot/issues/6029", "2026-03"),
    Fact("gemini.max-depth", "Google", "Gemini function declarations", "2025-2026",
         "declarations beyond a maximum nesting depth are refused; the value is not documented", 5,
         "UNCONFIRMED", "https://github.com/google-gemini/gemini-cli/issues/6031", "2025-08"),
    # --- Bedrock
    Fact("bedrock.tool-name", "AWS", "Bedrock Converse toolSpec.name", "current API reference",
         "characters a tool name may use ([a-zA-Z0-9_-]+), and its maximum length", ("A-Za-z0-9_-", 64), "DOC",
         "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html", "2026-08"),
    Fact("bedrock-strict.refused-keywords", "AWS", "Bedrock Converse toolSpec, strict", "Claude 4.5+ on Bedrock",
         "keywords a strict tool schema may not use (ValidationException for the whole request)",
         ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "maxItems", "oneOf"),
         "OBS", "https://github.com/strands-agents/harness-sdk/issues/2664", "2026-07-14"),
    # --- Anthropic
    Fact("anthropic.tool-name", "Anthropic", "tools[].name", "Messages API (2025-08 to 2026-09)",
         "characters a tool name may use, and its maximum length: the server answers 400 'tools.N.custom.name: "
         "String should have at most 128 characters' (^[a-zA-Z0-9_-]{1,128}$; the define-tools page still says 64)",
         ("A-Za-z0-9_-", 128), "OBS", "https://github.com/anthropics/claude-code/issues/96152", "2026-09-22"),
    Fact("anthropic-strict.client-derivation", "Anthropic", "strict tools, client-side derivation",
         "Claude Code / SDK transform (2026)",
         "shapes a strict-schema derivation refuses before sending: const (a subschema with no type: "
         "SL310)", ("const",), "SDK",
         "https://github.com/anthropics/anthropic-sdk-python/blob/main/src/anthropic/lib/_parse/_transform.py",
         "2026-08"),
    Fact("anthropic-strict.max-optional", "Anthropic", "strict tools (whole request)", "current docs",
         "optional parameters across all strict schemas of a request", 24, "DOC",
         "https://platform.claude.com/docs/en/build-with-claude/structured-outputs", "2026-08"),
    Fact("anthropic-strict.max-unions", "Anthropic", "strict tools (whole request)", "current docs",
         "parameters using anyOf or a type list across all strict schemas of a request", 16, "DOC",
         "https://platform.claude.com/docs/en/build-with-claude/structured-outputs", "2026-08"),
    Fact("anthropic-strict.grammar-too-large", "Anthropic", "strict tools / structured outputs", "2026",
         "400 'The compiled grammar is too large' is answered below the documented count caps; "
         "reported drivers: optional fields, large enums, maxItems, patterns, nesting",
         "UNCONFIRMED threshold", "OBS", "https://github.com/anthropics/claude-code/issues/55539",
         "2026-05-02"),
    # --- Ollama
    Fact("ollama.refused-shapes", "Ollama", "/api/chat and /v1 tools", "ollama @ fb30760 (2026-08-21)",
         "Go structs refuse: a property schema that is not an object (true, false, a string), a "
         "non-string root type, a type that is not a string or a list of strings, required that "
         "is not a list of strings, properties that is not an object",
         ("boolean subschema", "type list at the root", "required object", "properties array"), "SDK",
         "https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/api/types.go",
         "2026-12-02"),
    Fact("ollama.accepted-shapes", "Ollama", "/api/chat and /v1 tools", "ollama @ fb30760 (2026-08-21)",
         "accepted (dropped or kept): additionalProperties (any value, dropped) and a type list on a "
         "property (PropertyType takes a string or a list of strings)",
         ("additionalProperties", "type list on a property"), "SDK",
         "https://github.com/ollama/ollama/blob/fb30760996871fa9460115c753afd2c60d4ab0f7/api/types.go",
         "2026-12-02"),
    # --- MCP
    Fact("mcp.revisions", "MCP", "tools/list", "specification",
         "protocol revisions schemalint checks, oldest first (the last is what --target mcp means)",
         ("2025-06-18", "2025-11-25", "2026-07-28"), "SPEC",
         "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/docs.json", "2026-08-22"),
    Fact("mcp.tool-name", "MCP", "Tool.name", "2025-11-25, 2026-07-28",
         "tool names SHOULD use only these characters and at most this many (SEP-986)", ("A-Za-z0-9_.-", 128),
         "SPEC", f"{_MCP_SPEC}/2025-11-25/server/tools.mdx", "2026-08-22"),
    Fact("mcp.default-dialect", "MCP", "inputSchema / outputSchema", "2025-11-25, 2026-07-28",
         "a schema without $schema is JSON Schema 2020-12 (SEP-1613)", "2020-12", "SPEC",
         f"{_MCP_SPEC}/2025-11-25/basic/index.mdx", "2026-08-22"),
    Fact("mcp.output-root-object", "MCP", "outputSchema", "2025-06-18, 2025-11-25",
         "outputSchema must have type object at its root", ("2025-06-18", "2025-11-25"), "SPEC",
         f"{_MCP_SPEC}/2025-11-25/server/tools.mdx", "2026-08-22"),
    Fact("mcp.output-any-root", "MCP", "outputSchema", "2026-07-28",
         "outputSchema may be any JSON Schema 2020-12 (SEP-2106)", ("2026-07-28",), "SPEC",
         f"{_MCP_SPEC}/2026-07-28/server/tools.mdx", "2026-08-22"),
    Fact("mcp-clients.output-root-object", "MCP clients (Claude Code, Cursor)", "tools/list outputSchema",
         "2025 to 2026-05",
         "clients still validating tools/list against the 2025 revisions leave out every tool whose outputSchema root "
         "is not type object (Claude Code loaded 7 of 19 tools: 'outputSchema.type expected \"object\"'; Cursor "
         "listed none of a Go SDK server's array-output tools, modelcontextprotocol/go-sdk#310)",
         ("2025-06-18", "2025-11-25"), "OBS", "https://github.com/Wynelson94/longhand/issues/10", "2026-05-22"),
    Fact("mcp.header-types", "MCP", "inputSchema x-mcp-header", "2026-07-28",
         "x-mcp-header may mark only properties of these types, reachable through properties alone "
         "(SEP-2243)", ("integer", "string", "boolean"), "SPEC",
         f"{_MCP_SPEC}/2026-07-28/server/tools.mdx", "2026-08-22"),
    Fact("mcp.annotation-defaults", "MCP", "Tool.annotations", "2025-06-18 onward",
         "hint defaults: readOnlyHint false, destructiveHint true, idempotentHint false, "
         "openWorldHint true; destructiveHint and idempotentHint are meaningful only when "
         "readOnlyHint is false", ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"),
         "SPEC", f"{_MCP_SPEC}/2025-11-25/server/tools.mdx", "2026-08-22"),
    Fact("mcp.draft07-refused", "MCP clients", "inputSchema / outputSchema", "2026",
         "clients whose validator knows only 2020-12 refuse a tool that declares draft-07 "
         "('JSON Schema declares an unsupported dialect')", "draft-07", "OBS",
         "https://github.com/nataliapc/mcp-openmsx/issues/22", "2026-09-15"),
    Fact("mcp.draft07-tuple-reading", "MCP clients", "outputSchema / structuredContent", "2026",
         "a client validating structuredContent with draft-07 semantics ignores prefixItems and applies the "
         "items: false beside it to every element, refusing every result that holds the tuple "
         "('boolean schema is false')", ("prefixItems", "items: false"), "OBS",
         "https://github.com/ScriptedAlchemy/agent-bundle/issues/563", "2026-09-04"),
    Fact("mcp-ts-sdk.lists-draft07", "MCP TypeScript SDK 1 (@modelcontextprotocol/sdk)", "McpServer tools/list",
         "1.29.0 to 1.32.2", "tools/list converts every zod schema without a target, so each inputSchema and "
         "outputSchema declares draft-07; SDK 2 (@modelcontextprotocol/server 2.4.0) lists 2020-12",
         "draft-07", "SDK", "https://github.com/modelcontextprotocol/typescript-sdk/issues/2084", "2026-12-03"),
    Fact("fastmcp-ts.lists-draft07", "FastMCP (TypeScript, fastmcp)", "FastMCP tools/list", "4.3.2 (xsschema 0.4.4)",
         "tools/list converts each tool's parameters with xsschema's toJsonSchema: draft-07 for zod 3, and for zod 4 "
         "from xsschema 0.4 (0.3.0-beta.3 gave zod 4's default, 2020-12)",
         "draft-07", "SDK", "https://github.com/moeru-ai/xsai", "2026-12-03"),
    Fact("mcp.unknown-schema-id", "MCP clients", "inputSchema / outputSchema", "2026",
         "a $schema that is no meta-schema's id is fetched by some clients; a failed fetch dropped "
         "most of a server's tools", "fetch", "OBS",
         "https://github.com/executeautomation/mcp-playwright/pull/219", "2026-05-12"),
    Fact("mcp.vscode-array-items", "MCP clients", "VS Code (Copilot Chat) tool validation",
         "VS Code 1.100+ (2025-2026)",
         "a tool whose inputSchema holds an array schema without items is refused ('tool parameters array "
         "type must have items') and left out of the chat", "required", "OBS",
         "https://github.com/DeusData/codebase-memory-mcp/pull/75", "2026-03-20"),
)
"""Every fact, grouped by provider."""

_BY_KEY = {f.key: f for f in FACTS}


def fact(key: str) -> Fact:
    """The :class:`Fact` with ``key``; raises ``KeyError`` for an unknown key."""
    return _BY_KEY[key]


def value(key: str) -> Any:
    """The value of the fact ``key`` (``fact(key).value``); raises ``KeyError`` for an unknown key."""
    return _BY_KEY[key].value


def markdown_table() -> str:
    """The "Provider facts" table of ``docs/targets.md``: one row per fact, in :data:`FACTS` order."""
    lines = ["| key | provider, surface | revision / model | fact | value | evidence | source | seen |",
             "|---|---|---|---|---|---|---|---|"]
    for f in FACTS:
        cells = (f"`{f.key}`", f"{f.provider}, {f.surface}", f.revision, f.fact, f.shown(), f.evidence,
                 f"<{f.source}>", f.seen)
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"

