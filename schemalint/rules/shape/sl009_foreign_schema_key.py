"""SL009 foreign-schema-key: a tool carries its schema under another format's key.

Each format keeps the input schema under its own key: OpenAI ``parameters`` (inside
``function`` for Chat Completions), Anthropic ``input_schema``, MCP ``inputSchema``, Gemini
``parameters``/``parametersJsonSchema``, Bedrock ``inputSchema.json``. A converter that writes the
key of one format into the envelope of another (``input_schema`` inside an OpenAI ``function``,
``parameters`` in an Anthropic request's tool, ``inputSchema`` in a Gemini declaration, an MCP
``inputSchema`` in a Bedrock ``toolSpec`` without its ``json`` wrapper) leaves a tool that the
provider either refuses (an unknown field, a missing required one) or reads as a tool without
arguments, which a lenient proxy turns into calls with empty arguments.

What is reported (error): the envelope's own key is missing and another format's key is there
(the tool is read without arguments); both are there (the foreign key is refused or ignored,
warning when the own key holds a schema); the schema under the right key is itself wrapped in
another envelope's key (``"parameters": {"input_schema": {...}}``, ``"input_schema": {"json":
{...}}``). Which envelope a ``{name, parameters}`` tool is in is known only from its document: a
request to the Anthropic Messages API (``anthropic_version``, or ``max_tokens`` with a ``claude``
model) makes its ``tools`` Anthropic tools.

Source: rules/SL009-foreign-schema-key.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from schemalint.model import Diagnostic, Severity, Tool, join_pointer
from schemalint.rules.base import Context, Rule
from schemalint.rules.shape._common import (
    ENVELOPE_NAMES,
    OWN_SCHEMA_KEYS,
    SCHEMA_KEYS,
    foreign_schema_keys,
    wrapped_schema_key,
)

_OWN_NAME = {"openai-chat": "`parameters`", "openai-responses": "`parameters`", "anthropic": "`input_schema`",
             "mcp": "`inputSchema`", "bedrock": "`inputSchema.json`",
             "gemini": "`parameters` (or `parametersJsonSchema`)",
             "gemini-json": "`parametersJsonSchema` (or `parameters`)"}


class ForeignSchemaKey(Rule):
    """The tool's schema sits under the key of another tool format, or is wrapped in one.
    """

    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one diagnostic per foreign key, or one for a wrapped schema."""
        fmt = tool.origin.format
        envelope = ENVELOPE_NAMES.get(fmt)
        if envelope is None:
            return
        fields = tool.fields
        own = OWN_SCHEMA_KEYS[fmt]
        has_own = any(k in fields for k in own) and not (fmt == "bedrock" and tool.advertised is None)
        for key in foreign_schema_keys(tool):
            if fmt == "bedrock" and key == "inputSchema":
                continue
            found = SCHEMA_KEYS[key]
            if not has_own:
                message = (f"{envelope} has no {_OWN_NAME[fmt]} but has {found}: the provider reads a tool "
                           "without arguments (the model calls it with `{}`) or refuses the unknown field")
                severity = None
            else:
                message = (f"{envelope} has both {_OWN_NAME[fmt]} and {found}: the provider refuses the unknown "
                           "field or ignores it, and a reader of the other format takes the wrong schema")
                severity = Severity.WARNING
            yield self.diag(tool, None, message, severity=severity,
                            file_pointer=tool.field_pointer(key),
                            hint=f"rename `{key}` to {_OWN_NAME[fmt]} (convert the tool when moving it between "
                                 "formats)")
        if fmt == "mcp" and tool.origin.pointer.endswith("/toolSpec"):
            yield self.diag(tool, None, "a Bedrock Converse `toolSpec` holds its schema as `inputSchema.json`; "
                            "this `inputSchema` is an MCP-style schema without the `json` wrapper, so Bedrock "
                            "refuses it", file_pointer=tool.field_pointer("inputSchema"),
                            hint='wrap it: "inputSchema": {"json": {...}}')
        if fmt == "openai-chat":
            yield from self._beside_function(tool)
        wrapped = wrapped_schema_key(tool.advertised)
        if wrapped is not None and isinstance(tool.advertised, Mapping):
            yield self.diag(
                tool, "",
                f"the schema under {_OWN_NAME[fmt]} is itself wrapped in `{wrapped}` (another envelope's key): the "
                f"provider reads a schema with no `type` and no `properties`, a tool without arguments",
                hint=f"put the schema that `{wrapped}` holds directly under {_OWN_NAME[fmt]}",
            )

    def _beside_function(self, tool: Tool) -> Iterator[Diagnostic]:
        """Fields of the function definition written beside ``function`` in a Chat Completions tool,
        where no reader of that shape looks: a schema key (the tool is read without arguments, or
        with the schema inside ``function`` when there is one) and ``strict`` (strict mode stays off)."""
        wrapper = tool.raw if isinstance(tool.raw, Mapping) else {}
        inside = tool.fields
        for key in wrapper:
            if key in SCHEMA_KEYS:
                if "parameters" in inside:
                    message = (f"`{key}` sits beside `function`, where {ENVELOPE_NAMES['openai-chat']} has no such "
                               "field: the provider refuses the unknown field or ignores it, and the schema inside "
                               "`function` is the one the model sees")
                    severity: Severity | None = Severity.WARNING
                    hint = "remove it: the schema inside `function` is the one that counts"
                else:
                    message = (f"`{key}` sits beside `function` instead of inside it: readers of "
                               f"{ENVELOPE_NAMES['openai-chat']} take the schema from `function.parameters` only, "
                               "so the tool is read without arguments (the model calls it with `{}`) or the "
                               "unknown field is refused")
                    severity = None
                    hint = "move it into `function` as `parameters`"
                yield self.diag(tool, None, message, severity=severity,
                                file_pointer=join_pointer(tool.origin.pointer, key), hint=hint)
            elif key == "strict" and "strict" not in inside:
                yield self.diag(tool, None, "`strict` sits beside `function` instead of inside it: the provider "
                                "reads `function.strict`, so strict mode stays off (or the unknown field is refused)",
                                severity=Severity.WARNING, file_pointer=join_pointer(tool.origin.pointer, key),
                                hint="move it into `function`")
