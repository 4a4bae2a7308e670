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


_MCP_SPEC = "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification"

FACTS: tuple[Fact, ...] = (
    # --- OpenAI
    Fact("openai-strict.max-depth", "OpenAI", "function tools, strict", "current docs",
         "strict schemas may nest objects up to this many levels", 10, "DOC",
         "https://developers.openai.com/api/docs/guides/structured-outputs", "2026-12-02"),
    Fact("openai-strict.observed-depth", "OpenAI", "response_format / strict", "o3 (2025)",
         "'6 levels of nesting exceeds limit of 5' was answered for a strict schema", 5, "OBS",
         "https://github.com/tidyverse/ellmer/issues/671", "2025-07"),
    # --- Gemini
    Fact("gemini.array-items", "Google", "Gemini functionDeclarations[].parameters", "2026",
         "an ARRAY schema without items is refused: 400 '...items: missing field'", "required", "OBS",
         "https://github.com/AstrBotDevs/AstrBot/issues/6029", "2026-03"),
    Fact("gemini.max-depth", "Google", "Gemini function declarations", "2025-2026",
         "declarations beyond a maximum nesting depth are refused; the value is not documented", 5,
         "UNCONFIRMED", "https://github.com/google-gemini/gemini-cli/issues/6031", "2025-08"),
    # --- Bedrock
    Fact("bedrock-strict.refused-keywords", "AWS", "Bedrock Converse toolSpec, strict", "Claude 4.5+ on Bedrock",
         "keywords a strict tool schema may not use (ValidationException for the whole request)",
         ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "maxItems", "oneOf"),
         "OBS", "https://github.com/strands-agents/harness-sdk/issues/2664", "2026-07-14"),
    # --- Anthropic
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
    Fact("mcp.default-dialect", "MCP", "inputSchema / outputSchema", "2025-11-25, 2026-07-28",
         "a schema without $schema is JSON Schema 2020-12 (SEP-1613)", "2020-12", "SPEC",
         f"{_MCP_SPEC}/2025-11-25/basic/index.mdx", "2026-08-22"),
    Fact("mcp.output-root-object", "MCP", "outputSchema", "2025-06-18, 2025-11-25",
         "outputSchema must have type object at its root", ("2025-06-18", "2025-11-25"), "SPEC",
         f"{_MCP_SPEC}/2025-11-25/server/tools.mdx", "2026-08-22"),
    Fact("mcp.output-any-root", "MCP", "outputSchema", "2026-07-28",
         "outputSchema may be any JSON Schema 2020-12 (SEP-2106)", ("2026-07-28",), "SPEC",
         f"{_MCP_SPEC}/2026-07-28/server/tools.mdx", "2026-08-22"),
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
    Fact("mcp.unknown-schema-id", "MCP clients", "inputSchema / outputSchema", "2026",
         "a $schema that is no meta-schema's id is fetched by some clients; a failed fetch dropped "
         "most of a server's tools", "fetch", "OBS",
         "https://github.com/executeautomation/mcp-playwright/pull/219", "2026-05-12"),
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

