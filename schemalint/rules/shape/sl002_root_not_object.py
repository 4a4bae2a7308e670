"""SL002 root-not-object: the tool's input schema is not an object schema of ``type: object``.

A tool call's arguments are always a JSON object, and every provider checks the root of
the parameter schema: OpenAI answers "schema must be a JSON Schema of 'type: "object"',
got 'type: null'"; MCP's ``Tool.inputSchema`` is typed ``{type: "object", ...}`` and the
TypeScript SDK client fails the whole ``tools/list`` on one bad tool (shared cases 010,
011, 013; incident 4: ``parameters`` accepted when it was a JSON array).

What is reported:

- a schema that is ``null``, an array, a string, a number or a boolean;
- an object schema without ``type`` (``{}``, or a bare top-level ``anyOf``/``oneOf``/``allOf``);
- a root ``type`` other than ``"object"`` (a type list such as ``["object", "null"]`` too).

Not reported: an omitted schema where the format allows it (OpenAI "Omitting
``parameters`` defines a function with an empty parameter list"; Gemini: omit
``parameters`` for a no-argument function; Docker registry ``arguments`` lists, which
are not JSON Schema), ``parameters: null`` in the OpenAI Responses shape (documented
as nullable), and a root ``type`` that is a known non-standard spelling of object
(``dict``: SL001 reports it with the fix). Gemini's upper-case ``OBJECT`` is accepted.

A schema given as a string that decodes to a JSON object (``"parameters": "{\"type\": ...}"``) is
the encoding of xAI's gRPC API (xai-sdk ``chat_pb2.Function.parameters`` is a string; pydantic-ai's
xAI cassettes record such requests being answered with tool calls). The loader reads the object it
encodes (``Tool.schema_view == "json-string"``), the other rules check that, and this rule notes the
encoding once: ``info`` for a tool in no provider's own shape (a ``{function: {name, parameters}}``
entry, as the xAI SDK sends it), ``warning`` for an OpenAI, Anthropic, Gemini, MCP or Bedrock tool
object, whose field is typed as an object (reference/provider-constraints.md §1.1, §2.1, §3.1,
§4.1, §5.1: ``FunctionParameters`` is ``Dict[str, object]``; ``input_schema``/``inputSchema`` are
objects), so sent to that provider as it stands the string is refused. A string that is not the
JSON text of an object stays an SL002 error.

A ``parameters`` map of argument records (``{"user_id": {"type": "str", "description": ...}}``, the
API-Bank/ToolAlpaca/Seal-Tools data style) is read as the object schema whose ``properties`` it is
(``Tool.schema_view == "property-map"``): the other rules check that, and this rule reports the
form once, an error (no provider takes it).

Source: rules/SL002-root-not-object.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.shape._common import (
    NONSTANDARD_TYPES,
    foreign_schema_keys,
    has_schema_key,
    root_composition_hint,
    wrapped_schema_key,
)

_OPTIONAL_SCHEMA_FORMATS = frozenset({"openai-chat", "openai-responses", "function", "gemini",
                                      "docker-arguments"})
"""Formats where a tool may come without a schema (the tool takes no arguments)."""

_KEY_BY_FORMAT = {
    "openai-chat": "parameters", "openai-responses": "parameters", "function": "parameters",
    "gemini": "parameters", "gemini-json": "parametersJsonSchema", "anthropic": "input_schema",
    "mcp": "inputSchema", "manifest": "advertised", "bedrock": "inputSchema.json",
}

_EMPTY_HINT = 'for a tool without arguments write {"type": "object", "properties": {}}'


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if isinstance(value, list):
        return "a JSON array"
    if isinstance(value, str):
        return f"the string {json.dumps(value[:40], ensure_ascii=False)}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return type(value).__name__


class RootNotObject(Rule):
    """The input schema's root is not ``{"type": "object", ...}``.
    """

    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        fmt = tool.origin.format
        key = _KEY_BY_FORMAT.get(fmt, "the input schema")
        schema = tool.advertised
        if tool.schema_view == "json-string":
            yield self._encoded_note(tool, key)
        elif tool.schema_view == "property-map":
            yield self._property_map(tool, key)
            return
        # Python sources (pydantic, MCP servers...) carry the schema without a key in a file.
        if schema is None and (tool.schema_path is None or not has_schema_key(tool)):
            if fmt in _OPTIONAL_SCHEMA_FORMATS or foreign_schema_keys(tool):
                return  # documented form of a tool without arguments; or SL009 names the key found instead
            yield self.diag(
                tool, None, f"the tool has no `{key}`; a {fmt} tool must declare its input schema, "
                "so clients refuse the tool", hint=_EMPTY_HINT,
            )
            return
        if schema is None and fmt == "openai-responses":
            return  # FunctionToolParam.parameters is "required, may be null"
        if not isinstance(schema, Mapping):
            nullable = schema is None and fmt in _OPTIONAL_SCHEMA_FORMATS
            yield self.diag(
                tool, "",
                f"`{key}` is {_describe(schema)}, not a schema object; "
                + ("omit the key for a tool without arguments (some SDKs send null and the provider "
                   "refuses it)" if nullable else
                   "providers refuse the tool (a call's arguments are always a JSON object)"),
                hint=_EMPTY_HINT if schema is None or schema == [] else
                'write an object schema: {"type": "object", "properties": {...}}',
                severity=Severity.WARNING if nullable else Severity.ERROR,
            )
            return
        if wrapped_schema_key(schema) is not None:
            return  # the schema is wrapped in another envelope's key: SL009 says which
        declared = schema.get("type")
        if declared is None and isinstance(schema.get("$ref"), str):
            from schemalint.schema.walk import resolve_local_ref

            found, target, _ = resolve_local_ref(schema, schema["$ref"])
            if found and isinstance(target, Mapping):
                if fmt in _LITERAL_ROOT_FORMATS and target.get("type") == "object":
                    yield self._root_ref(tool, key, schema["$ref"])
                    return
                declared = target.get("type")  # a root $ref (pydantic's recursive models) counts as its target
        if declared is None:
            unions = [k for k in ("anyOf", "oneOf", "allOf") if k in schema]
            if unions:
                msg = (f"the root of `{key}` is a bare `{unions[0]}` with no `type: object`; clients that "
                       "require an object root (MCP TypeScript SDK, Claude Code, OpenAI) drop the tool or "
                       "refuse the request")
                hint = ('add "type": "object" at the root; ' + root_composition_hint(unions[0])
                        + " (Anthropic and OpenAI refuse a root anyOf/oneOf/allOf even beside `type`: SL305)")
            elif not schema:
                who = ("MCP clients reject it (\"expected 'object' at inputSchema.type\"), so the server's "
                       "whole tools/list can fail" if fmt == "mcp" else
                       "OpenAI answers: schema must be a JSON Schema of 'type: \"object\"', got 'type: null'")
                msg = f"`{key}` is an empty schema {{}} with no `type: object`; {who}"
                hint = _EMPTY_HINT
            else:
                msg = (f"the root of `{key}` has no `type`; providers require `\"type\": \"object\"` at the "
                       "root and refuse the tool without it")
                hint = 'add "type": "object" at the root'
            yield self.diag(tool, "/type", msg, hint=hint)
            return
        if declared == "object" or (fmt == "gemini" and declared == "OBJECT"):
            return
        if isinstance(declared, str) and (declared.lower() == "object"
                                          or NONSTANDARD_TYPES.get(declared.lower()) == "object"):
            return  # `dict`, `Object` and friends: SL001 reports the spelling, with the fix
        shown = json.dumps(declared, ensure_ascii=False)
        if isinstance(declared, list) and "object" in declared:
            msg = (f"the root `type` of `{key}` is {shown}; the arguments of a call are always an object, "
                   "and providers accept only `\"type\": \"object\"` at the root")
            hint = 'use "type": "object" (make the individual properties nullable instead)'
        else:
            msg = (f"the root `type` of `{key}` is {shown}, not \"object\"; a call's arguments are a JSON "
                   "object, so providers refuse the tool and hosts forwarding it fail the whole request")
            hint = ('wrap the value in an object: {"type": "object", "properties": {"value": '
                    f'{{"type": {shown}}}}}, "required": ["value"]}}')
        yield self.diag(tool, "/type", msg, hint=hint)


    def _root_ref(self, tool: Tool, key: str, ref: str) -> Diagnostic:
        """A provider-shaped schema whose root is only a ``$ref`` to an object definition."""
        return self.diag(
            tool, "/type",
            f"the root of `{key}` is a `$ref` ({ref}) with no `type` of its own; providers read the root "
            "literally and do not follow it: OpenAI answers 'schema must be a JSON Schema of 'type: \"object\"', "
            "got 'type: \"None\"'', Anthropic 'input_schema.type: Field required', and MCP clients expect "
            "type 'object' at inputSchema.type",
            hint="inline the referenced definition at the root (zod-to-json-schema: leave out the `name` "
                 "option; pydantic: the schema of the model itself, not of a reference to it)",
        )

    def _property_map(self, tool: Tool, key: str) -> Diagnostic:
        """The one error on a ``parameters`` map of argument records (read as the object schema whose
        ``properties`` it is, :func:`schemalint.loaders.formats.json_tools.property_map_schema`)."""
        props = tool.advertised.get("properties", {}) if isinstance(tool.advertised, Mapping) else {}
        names = ", ".join(f"`{n}`" for n in list(props)[:3]) + (", ..." if len(props) > 3 else "")
        return self.diag(
            tool, "",
            f"`{key}` maps argument names ({names}) to their records with no `type: object` and no "
            "`properties`: the API-Bank/ToolAlpaca data style, not a JSON Schema, so providers refuse the "
            "tool as written; it was read as the object schema whose `properties` these are and checked as such",
            hint='wrap the map: {"type": "object", "properties": <the map>, "required": [...]}',
        )

    def _encoded_note(self, tool: Tool, key: str) -> Diagnostic:
        """The one note on a schema written as a JSON-encoded string (read as the object it encodes)."""
        typed = tool.origin.format in _OBJECT_TYPED_FORMATS
        who = (f"the {tool.origin.format} API types `{key}` as an object and refuses a string there"
               if typed else "xAI's gRPC API takes this encoding; OpenAI, Anthropic, Gemini and MCP type the "
               "field as an object and refuse a string")
        return self.diag(
            tool, "",
            f"`{key}` is a JSON-encoded string; it was read as the schema it encodes and checked as such. {who}",
            hint="send the decoded object (json.loads of the string) to any provider other than xAI's gRPC API",
            severity=Severity.WARNING if typed else Severity.INFO,
        )


_LITERAL_ROOT_FORMATS = frozenset({"openai-chat", "openai-responses", "function", "anthropic", "mcp", "bedrock"})
"""Provider-shaped tools, sent as written: the provider checks the root's own ``type`` and follows no
root ``$ref`` (bragi-canvas PR #36: zod-to-json-schema's ``name`` option, refused by OpenAI)."""

_OBJECT_TYPED_FORMATS = frozenset({"openai-chat", "openai-responses", "anthropic", "mcp", "gemini",
                                   "gemini-json", "bedrock"})
"""Tool shapes whose provider types the schema field as a JSON object (a string there is refused)."""
