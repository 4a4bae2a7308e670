"""Find tool definitions by their shape anywhere inside a parsed JSON/YAML document.

Recognised shapes (checked in this order on every object; a matched tool is not
searched further, so a schema property called ``name`` is never taken for a tool):

==================  ==========================================================
format              shape
==================  ==========================================================
manifest            ``{"schemalint": 1, "tools": [...]}`` (docs/contract-analysis.md, "Contract manifest"; an entry's
                    ``outputSchema`` is the advertised output schema, and then
                    ``runtime.output`` the schema of the result the tool emits)
openai-chat         ``{"type": "function", "function": {name, parameters, strict}}``
openai-responses    ``{"type": "function", "name", "parameters", "strict"}``
gemini              items of ``functionDeclarations`` / ``function_declarations``
                    with ``parameters`` (``gemini-json`` with ``parametersJsonSchema``)
anthropic           ``{name, input_schema}``
mcp                 ``{name, inputSchema, outputSchema?, annotations?}``
bedrock             Converse ``toolSpec`` object ``{name, description?, inputSchema: {json},
                    strict?}``, usually wrapped as ``{"toolSpec": {...}}`` (the tool's
                    pointer is the ``toolSpec`` object; schema at ``/inputSchema/json``)
docker-arguments    ``{name, arguments: [{name, type, desc, optional}]}`` (no schema; not a
                    command-line program's command spec: :func:`_command_line_spec`; not an
                    MCP prompt: :func:`_prompt_arguments`)
function            ``{name, parameters}`` or ``{name, arguments: {...}}`` (legacy
                    OpenAI functions, BFCL, ACEBench, Gorilla): in a tools list
                    (:data:`TOOL_LIST_KEYS`) whatever the schema, elsewhere only with a
                    JSON-Schema-looking schema (:func:`schema_like`)
==================  ==========================================================

Calls are not definitions: subtrees under :data:`CALL_KEYS` (``tool_calls``, ``tool_choice``
...), objects typed as calls or results (:data:`CALL_TYPES`) and JSON-RPC ``tools/call`` messages
(:data:`CALL_METHODS`) are not searched; OpenAI ``function`` objects with ``arguments`` and no
``parameters``, messages (``role``) and ``{name, arguments}`` records without a description outside
a tools list are not tools (recorded traffic, docs/traffic.md).

Schemas read through a view (``Tool.schema_view``, docs/shape-rules.md): a ``parameters`` string
that decodes to a JSON object (xAI's gRPC API encodes the schema so) is read as that object; the
snake_case field names of a Gemini Schema in a ``function_declarations`` list (the Python SDKs'
spelling: ``any_of``, ``min_items``) are read as their camelCase names; an AgentSchema
``parameters`` block (``kind: function`` tools: ``kind`` per property, ``required: true``) is read
as the JSON Schema it stands for, and so is a ``parameters`` map of argument records
(``{name: {type, description}}``, API-Bank/ToolAlpaca data: :func:`property_map_schema`). A
response that echoes a request's tool (same name, description and schema in a ``response`` part
of the same document) is not a second definition.

Sources: OpenAI function calling guide, Anthropic tool use docs, Gemini function
calling docs, MCP specification (server/tools), AWS Bedrock API_runtime_ToolSpecification;
see ``reference/provider-constraints.md`` sections 1-4 and 5.1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from schemalint.model import Contract, Origin, Tool, escape_token

if TYPE_CHECKING:
    from schemalint.loaders.files.documents import Document

_GEMINI_LISTS = ("functionDeclarations", "function_declarations")

TOOL_LIST_KEYS = frozenset({"tools", "functions", "function", "functionDeclarations", "function_declarations",
                            "languageModelTools"})
"""Keys whose list holds tool definitions (a request's ``tools``, legacy ``functions``, BFCL's and
ACEBench's ``function``, VS Code's ``languageModelTools``): an entry
of such a list, and the ``function`` object of an entry, is a tool even with a broken schema."""

CALL_KEYS = frozenset({"tool_calls", "toolCalls", "tool_choice", "toolChoice", "function_call", "functionCall",
                       "function_calls", "functionCalls", "functionResponse", "function_response"})
"""Keys that hold calls, their results or a choice of tool, never definitions: not searched."""

CALL_METHODS = frozenset({"tools/call"})
"""JSON-RPC ``method`` values of recorded MCP calls: such a message (its ``params`` are a call's
name and arguments) is not searched. A ``tools/list`` answer holds definitions and is searched."""

CALL_TYPES = frozenset({"function_call", "tool_call", "tool-call", "tool_use", "function_call_output",
                        "tool-result", "tool_result"})
"""``type`` values of recorded calls and results (Responses API items, AI SDK steps, Anthropic blocks)."""

_SCHEMA_KEYS = ("type", "anyOf", "oneOf", "allOf", "$ref", "$schema", "enum", "const")


def schema_like(value: Any) -> bool:
    """True for a dict that reads as a JSON Schema: it has ``type`` (or a union, ``$ref``,
    ``$schema``, ``enum``) or a ``properties`` dict. A call's argument values
    (``{"location": "Paris"}``) or a list of parameter names are not."""
    if not isinstance(value, Mapping):
        return False
    return any(k in value for k in _SCHEMA_KEYS) or isinstance(value.get("properties"), Mapping)


def _name(obj: Mapping[str, Any]) -> str | None:
    name = obj.get("name")
    return name if isinstance(name, str) else None


def _description(obj: Mapping[str, Any]) -> str | None:
    desc = obj.get("description")
    if desc is None and "inputSchema" in obj:
        # VS Code `contributes.languageModelTools`: the model is shown `modelDescription`
        desc = obj.get("modelDescription")
    return desc if isinstance(desc, str) else None


_COMMAND_LINE_KEYS = frozenset({"usage", "options", "subcommands", "flags"})
"""Keys of a command of a command-line program's spec (``{name, description, usage, arguments, options,
subcommands}``), never of a Docker MCP registry tool (``{name, description, arguments, annotations}``)."""


def _command_line_spec(obj: Mapping[str, Any], args: list[Any]) -> bool:
    """Whether ``{name, arguments: [...]}`` is a command of a command-line program's spec rather than a
    Docker MCP registry tool: it has a key only such a command has (:data:`_COMMAND_LINE_KEYS`), or its
    arguments are documented with argparse's ``help`` where Docker writes ``desc``. Measured on a CLI
    spec JSON (mem0ai/mem0 ``cli/cli-spec.json``: 15 commands loaded as tools before)."""
    if not _COMMAND_LINE_KEYS.isdisjoint(obj):
        return True
    return bool(args) and all("help" in a and "desc" not in a for a in args)


def _prompt_arguments(args: list[Any]) -> bool:
    """Whether the ``arguments`` of ``{name, arguments: [...]}`` are an MCP prompt's (``prompts/list``:
    ``{name, title?, description?, required?}``, never a ``type``) rather than a Docker MCP registry
    tool's, which writes ``type`` and ``desc`` for every argument. A prompt is a message template a
    user picks, not a tool a model calls. Measured on the MCP specification's own examples
    (modelcontextprotocol/modelcontextprotocol ``schema/*/examples/ListPromptsResult/*.json``: a
    prompt loaded as a tool before)."""
    return bool(args) and all("type" not in a and "desc" not in a for a in args)


def _tool(
    obj: Mapping[str, Any],
    fmt: str,
    file: str,
    pointer: str,
    line: int | None,
    schema_path: str | None,
    *,
    fields: Mapping[str, Any] | None = None,
    output_key: str | None = None,
    runtime: Contract | None = None,
    view: str | None = None,
    schema: Any = None,
) -> Tool:
    fields = obj if fields is None else fields
    advertised = schema
    if schema_path is not None and view is None:
        if fmt == "bedrock":  # /inputSchema/json: the JSON Schema sits one level down
            holder = fields.get("inputSchema")
            advertised = holder.get("json") if isinstance(holder, Mapping) else None
        else:
            advertised = fields.get(schema_path.rsplit("/", 1)[-1])
        if isinstance(advertised, str):
            decoded = decode_schema_string(advertised)
            if decoded is not None:
                advertised, view = decoded, "json-string"
    return Tool(
        name=_name(fields) or "",
        description=_description(fields),
        advertised=advertised,
        origin=Origin(file, pointer, fmt, line),
        schema_path=schema_path,
        runtime=runtime,
        output_schema=fields.get(output_key) if output_key else None,
        raw=obj,
        schema_view=view,
    )


def _manifest_tools(doc: Mapping[str, Any], file: str, pointer: str, line: int | None,
                    first: int = 0) -> Iterator[Tool]:
    tools = doc.get("tools")
    if not isinstance(tools, list):
        return
    for i, entry in enumerate(tools, first):
        if not isinstance(entry, Mapping):
            continue
        runtime_obj = entry.get("runtime")
        refused = entry.get("refused_when_omitted")
        runtime = None
        if isinstance(runtime_obj, Mapping) or isinstance(refused, list):
            runtime_obj = runtime_obj if isinstance(runtime_obj, Mapping) else {}
            runtime = Contract(
                input=runtime_obj.get("input"),
                output=runtime_obj.get("output"),
                refused_when_omitted=tuple(p for p in (refused or []) if isinstance(p, str)),
            )
        yield _tool(
            entry, "manifest", file, f"{pointer}/tools/{i}", line, "/advertised",
            output_key="outputSchema", runtime=runtime,
        )


def match_tool(
    obj: Mapping[str, Any], file: str, pointer: str, line: int | None, in_list: bool = True
) -> Tool | None:
    """Return the tool ``obj`` defines, or ``None`` when ``obj`` is not tool-shaped.

    A call is not a definition: an object whose ``type`` is a call type (:data:`CALL_TYPES`) or an
    OpenAI ``function`` object carrying ``arguments`` and no ``parameters`` (a recorded
    ``tool_calls`` entry) is not a tool. ``in_list``: ``obj`` is an entry of a tools list
    (:data:`TOOL_LIST_KEYS`) or the ``function`` of one; there a ``{name, parameters}`` or
    ``{name, arguments: {...}}`` object is a tool whatever its schema looks like (a broken one is
    SL002's to report). Elsewhere it needs more evidence: its ``parameters``/``arguments`` must read
    as a JSON Schema (:func:`schema_like`), or be ``{}`` beside a description. Distinctive shapes
    (``type: function``, ``input_schema``, ``inputSchema``, ``parametersJsonSchema``) need no list.
    """
    kind = obj.get("type")
    if isinstance(kind, str) and kind in CALL_TYPES:
        return None
    if not in_list and isinstance(obj.get("role"), str) and "parameters" in obj:
        return None  # a recorded message ({"role": "function", "name", ...}), not a definition
    if kind == "function":
        fn = obj.get("function")
        if isinstance(fn, Mapping) and _name(fn) is not None:
            if "arguments" in fn and "parameters" not in fn:
                return None  # {"type": "function", "function": {"name", "arguments"}}: a call
            return _tool(obj, "openai-chat", file, pointer, line, "/function/parameters", fields=fn)
        if _name(obj) is not None and ("parameters" in obj or "strict" in obj or "description" in obj):
            return _tool(obj, "openai-responses", file, pointer, line, "/parameters")
    name = _name(obj)
    if name is None:
        return None
    if "input_schema" in obj:
        return _tool(obj, "anthropic", file, pointer, line, "/input_schema")
    if "inputSchema" in obj:
        holder = obj["inputSchema"]
        if isinstance(holder, Mapping) and "json" in holder and "type" not in holder and "properties" not in holder:
            # AWS Bedrock Converse toolSpec: {"name", "description", "inputSchema": {"json": {...}}}
            return _tool(obj, "bedrock", file, pointer, line, "/inputSchema/json")
        return _tool(obj, "mcp", file, pointer, line, "/inputSchema", output_key="outputSchema")
    if "parameters" in obj:
        params = obj["parameters"]
        if isinstance(params, Mapping) and (in_list or _description(obj) is not None):
            mapped = property_map_schema(params)
            if mapped is not None:
                return _tool(obj, "function", file, pointer, line, "/parameters", view="property-map",
                             schema=mapped)
        if isinstance(obj.get("kind"), str) and isinstance(params, Mapping):
            converted = agentschema_schema(params)
            if converted is not None:
                return _tool(obj, "function", file, pointer, line, "/parameters", view="agentschema",
                             schema=converted)
        if in_list or schema_like(params) or (params == {} and _description(obj) is not None):
            return _tool(obj, "function", file, pointer, line, "/parameters")
        return None
    if "parametersJsonSchema" in obj:
        return _tool(obj, "gemini-json", file, pointer, line, "/parametersJsonSchema")
    args = obj.get("arguments")
    if (isinstance(args, list) and all(isinstance(a, Mapping) for a in args) and not _command_line_spec(obj, args)
            and not _prompt_arguments(args)):
        return _tool(obj, "docker-arguments", file, pointer, line, None)
    if isinstance(args, Mapping) and (in_list or (schema_like(args) and _description(obj) is not None)):
        # outside a tools list, {name, arguments} without a description is a recorded call (a
        # trajectory step) even when its argument values happen to use a key such as `type`
        return _tool(obj, "function", file, pointer, line, "/arguments")
    return None


def _gemini_tool(obj: Mapping[str, Any], file: str, pointer: str, line: int | None,
                 snake: bool = False) -> Tool | None:
    if _name(obj) is None:
        return None
    if "parametersJsonSchema" in obj:
        return _tool(obj, "gemini-json", file, pointer, line, "/parametersJsonSchema")
    if snake and isinstance(obj.get("parameters"), Mapping):
        camel = camel_case_schema(obj["parameters"])
        if camel is not None:
            return _tool(obj, "gemini", file, pointer, line, "/parameters", view="snake-case", schema=camel)
    return _tool(obj, "gemini", file, pointer, line, "/parameters" if "parameters" in obj else None)


MAX_DECODED_SCHEMA = 4 * 1024 * 1024
"""Longest ``parameters`` string decoded as a schema (4 MiB); a longer one stays a string (SL002)."""


def decode_schema_string(text: str) -> dict[str, Any] | None:
    """The JSON object a schema string encodes (xAI gRPC ``Function.parameters`` is a string of
    JSON), or ``None`` when ``text`` is not the JSON text of an object (then it stays a string,
    which SL002 reports). Never raises."""
    stripped = text.strip()
    if not stripped.startswith("{") or len(stripped) > MAX_DECODED_SCHEMA:
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


SNAKE_CASE_FIELDS = {
    "any_of": "anyOf", "min_items": "minItems", "max_items": "maxItems", "min_length": "minLength",
    "max_length": "maxLength", "min_properties": "minProperties", "max_properties": "maxProperties",
    "property_ordering": "propertyOrdering", "additional_properties": "additionalProperties",
}
"""Gemini ``Schema`` fields spelled as the proto field names (the google-genai and Vertex AI Python
SDKs' ``types.Schema`` attributes, ``any_of = 11`` in the proto) and their JSON (camelCase) names.
Proto3's JSON mapping accepts both spellings."""

_CAMEL_MAX_DEPTH = 256


def camel_case_schema(schema: Mapping[str, Any]) -> dict[str, Any] | None:
    """``schema`` with every snake_case Gemini Schema field (:data:`SNAKE_CASE_FIELDS`) renamed to
    its camelCase name, through ``properties`` values, ``items`` and ``any_of``/``anyOf`` branches
    (property names are kept); ``None`` when nothing is renamed, when both spellings of a field
    sit in one node, or when the schema is nested deeper than 256 levels. Never raises."""
    changed = False

    def convert(node: Any, depth: int) -> Any:
        nonlocal changed
        if depth > _CAMEL_MAX_DEPTH:
            raise _TooDeep
        if not isinstance(node, Mapping):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            name = SNAKE_CASE_FIELDS.get(key, key) if isinstance(key, str) else key
            if name != key:
                if name in node:
                    raise _TooDeep  # both spellings: not a translation we can make
                changed = True
            if name == "properties" and isinstance(value, Mapping):
                value = {k: convert(v, depth + 1) for k, v in value.items()}
            elif name == "items":
                value = convert(value, depth + 1)
            elif name == "anyOf" and isinstance(value, list):
                value = [convert(v, depth + 1) for v in value]
            out[name] = value
        return out

    try:
        result = convert(schema, 0)
    except (_TooDeep, RecursionError):
        return None
    return result if changed else None


class _TooDeep(Exception):
    """Raised inside :func:`camel_case_schema` and :func:`agentschema_schema` to give up."""


_AGENT_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object"})


def agentschema_schema(params: Mapping[str, Any]) -> dict[str, Any] | None:
    """The JSON Schema an AgentSchema ``parameters`` block stands for, or ``None`` when ``params``
    is not one.

    AgentSchema (microsoft/agent-framework declarative agents, https://microsoft.github.io/AgentSchema/reference:
    ``PropertySchema.properties``; each ``Property`` has ``kind``, ``description``, ``required``
    (a boolean), ``default``, ``enumValues``) writes a property's type as ``kind`` and its
    requiredness on the property. ``params`` qualifies when it has no ``type`` and its
    ``properties`` (a mapping by name, or a list of ``{name, ...}``) all carry ``kind`` or a boolean
    ``required``. The result is ``{"type": "object", "properties": ..., "required": [...]}`` with
    ``kind`` as ``type``, ``enumValues`` as ``enum`` and the other keys kept; nested ``object`` and
    ``array`` properties are converted likewise. Never raises."""
    if "type" in params:
        return None
    try:
        return _agent_object(params, 0)
    except (_TooDeep, RecursionError):
        return None


def _agent_object(params: Mapping[str, Any], depth: int) -> dict[str, Any] | None:
    if depth > _CAMEL_MAX_DEPTH:
        raise _TooDeep
    props = params.get("properties")
    if isinstance(props, Mapping):
        entries = list(props.items())
    elif isinstance(props, list) and all(isinstance(p, Mapping) and isinstance(p.get("name"), str) for p in props):
        entries = [(p["name"], p) for p in props]
    else:
        return None
    if not entries or not all(isinstance(p, Mapping) and ("kind" in p or isinstance(p.get("required"), bool))
                              for _, p in entries):
        return None
    out: dict[str, Any] = {"type": "object", "properties": {}}
    required = []
    for name, prop in entries:
        out["properties"][name] = _agent_property(prop, depth + 1)
        if prop.get("required") is True:
            required.append(name)
    if required:
        out["required"] = required
    return out


def _agent_property(prop: Mapping[str, Any], depth: int) -> dict[str, Any]:
    if depth > _CAMEL_MAX_DEPTH:
        raise _TooDeep
    out: dict[str, Any] = {}
    for key, value in prop.items():
        if key in ("required", "name"):
            continue
        if key == "kind":
            out["type"] = value
        elif key == "enumValues":
            out["enum"] = value
        else:
            out[key] = value
    kind = prop.get("kind", prop.get("type"))
    if kind == "object" and "properties" in prop:
        nested = _agent_object(prop, depth + 1)
        if nested is not None:
            out.update(nested)
    elif kind == "array" and isinstance(prop.get("items"), Mapping):
        out["items"] = _agent_property(prop["items"], depth + 1)
    return out


def property_map_schema(params: Mapping[str, Any]) -> dict[str, Any] | None:
    """The object schema a ``parameters`` map of argument records stands for, or ``None`` when
    ``params`` is not one.

    API-Bank, ToolAlpaca and Seal-Tools data (and function-calling datasets built on them) write a
    tool's ``parameters`` as ``{argument name: {type, description, required?}}``: the ``properties``
    of an object schema without the object around them. ``params`` qualifies when it is not empty,
    every value is a mapping with a string ``type`` or ``description``, and not every key is a
    JSON Schema keyword that holds a subschema (``{"items": {"type": "string"}}`` is a schema).
    The result is ``{"type": "object", "properties": ..., "required": [...]}``, each record without
    its boolean ``required`` (listed in ``required`` when true). Never raises.

    Measured on MadeAgents/Hammer ``data/test/original/*.json``: before, every key was read as a
    schema keyword, so SL001 reported a property named ``title`` as "`title` must be a string" and
    SL201 the declared ``username`` as an undeclared parameter."""
    from schemalint.schema import MAPS, SINGLE

    if not params or all(key in SINGLE or key in MAPS for key in params):
        return None
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, record in params.items():
        if not isinstance(record, Mapping) or not (
                isinstance(record.get("type"), str) or isinstance(record.get("description"), str)):
            return None
        if isinstance(record.get("required"), bool):
            if record["required"]:
                required.append(name)
            record = {k: v for k, v in record.items() if k != "required"}
        properties[name] = record
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out


RESPONSE_KEYS = frozenset({"response", "response_sample", "responseBody", "response_body"})
"""Keys of the recorded response in a request/response recording (VCR cassettes, replays)."""


def _in_response(pointer: str) -> bool:
    return any(token in RESPONSE_KEYS for token in pointer.split("/"))


def _signature(tool: Tool) -> str:
    try:
        schema = json.dumps(tool.advertised, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        schema = repr(id(tool))
    return f"{tool.origin.format}\0{tool.name}\0{tool.description or ''}\0{schema}"


def drop_response_echoes(tools: list[Tool]) -> list[Tool]:
    """``tools`` without the copies a recorded response echoes of its request's tools.

    A tool found under a response part (:data:`RESPONSE_KEYS`: the OpenAI Responses API echoes the
    request's ``tools``; xAI echoes them in ``settings.tools``) with the same format, name,
    description and schema as a tool found outside any response part of the same document is the
    same definition reached twice: it is dropped (the provider may add normalised fields such as
    ``strict`` to the echo, or answer ``null`` for an empty description; the schema is what is
    compared). A tool only a response holds (a
    fixture that recorded just the response, an MCP ``mcp_list_tools`` item) is kept."""
    if not any(_in_response(t.origin.pointer) for t in tools):
        return tools
    requested = {_signature(t) for t in tools if not _in_response(t.origin.pointer)}
    return [t for t in tools if not _in_response(t.origin.pointer) or _signature(t) not in requested]


def find_tools(value: Any, file: str, line: int | None = None, base: str = "") -> Iterator[Tool]:
    """Yield every tool definition inside ``value`` in document order.

    ``file`` and ``line`` (JSON Lines line number, or ``None``) go into each tool's
    :class:`~schemalint.model.Origin`; ``base`` is the pointer of ``value`` in its file.
    Shared containers (YAML aliases) are visited once; a response's echo of a request's tool is
    dropped (:func:`drop_response_echoes`). Never raises on odd input.
    """
    tools = drop_response_echoes(list(_find_tools(value, file, line, base)))
    envelope = _document_envelope(value)
    if envelope is not None:
        tools = [_in_envelope(t, *envelope) for t in tools]
    yield from tools


_ENVELOPE_SCHEMA_PATH = {"anthropic": "/input_schema", "mcp": "/inputSchema"}


def _document_envelope(value: Any) -> tuple[str, str] | None:
    """``(format, pointer of its tools list)`` when the document says which envelope its tools are in:
    a request to the Anthropic Messages API (``anthropic_version``, or ``max_tokens`` with a
    ``claude`` model) holds Anthropic tools in ``tools``; a JSON-RPC answer with
    ``result.tools`` holds MCP tools. ``None`` otherwise."""
    if not isinstance(value, Mapping):
        return None
    model = value.get("model")
    if isinstance(value.get("tools"), list) and (
            "anthropic_version" in value
            or ("max_tokens" in value and isinstance(model, str) and "claude" in model.lower())):
        return "anthropic", "/tools/"
    result = value.get("result")
    if value.get("jsonrpc") == "2.0" and isinstance(result, Mapping) and isinstance(result.get("tools"), list):
        return "mcp", "/result/tools/"
    return None


def _in_envelope(tool: Tool, fmt: str, list_pointer: str) -> Tool:
    """``tool`` read as a tool of ``fmt`` when the document puts it in that envelope but its keys made
    it read as another format (an Anthropic request's tool written with ``parameters``, an MCP
    ``tools/list`` tool with ``input_schema``): its schema is then under the envelope's key, which
    is missing (SL009 names the key that was found instead)."""
    prefix = tool.origin.pointer.rsplit("/", 1)[0] + "/"
    if tool.origin.format == fmt or not prefix.endswith(list_pointer) or tool.origin.format not in (
            "function", "anthropic", "mcp") or tool.schema_view is not None:
        return tool
    if prefix != list_pointer and not prefix.endswith("/" + list_pointer.lstrip("/")):
        return tool
    path = _ENVELOPE_SCHEMA_PATH[fmt]
    fields = tool.raw if isinstance(tool.raw, Mapping) else {}
    return replace(tool, origin=replace(tool.origin, format=fmt), schema_path=path, advertised=fields.get(path[1:]),
                   output_schema=fields.get("outputSchema") if fmt == "mcp" else None)


_SCALARS = frozenset({str, int, float, bool, type(None)})
"""The types of parsed JSON scalars: no tool inside, tested by identity before ``isinstance``."""


def _find_tools(value: Any, file: str, line: int | None, base: str, context: int = 0) -> Iterator[Tool]:
    # (value, pointer, context): context 2 = a tools list, whose entries get context 1 ("an
    # entry of a tools list"); 1 is passed on to an entry's "function" object; 0 elsewhere.
    stack: list[tuple[Any, str, int]] = [(value, base, context)]
    visited: set[int] = set()
    while stack:
        obj, ptr, ctx = stack.pop()
        kind_of = type(obj)
        if kind_of is list or kind_of is dict or isinstance(obj, (Mapping, list)):
            if id(obj) in visited:
                continue
            visited.add(id(obj))
        else:
            continue
        if isinstance(obj, list):
            # only containers can hold a tool: a pointer is made for them alone
            entry_ctx = 1 if ctx == 2 else 0
            stack.extend((obj[i], f"{ptr}/{i}", entry_ctx) for i in range(len(obj) - 1, -1, -1)
                         if type(obj[i]) not in _SCALARS and isinstance(obj[i], (Mapping, list)))
            continue
        if obj.get("schemalint") == 1 and isinstance(obj.get("tools"), list):
            yield from _manifest_tools(obj, file, ptr, line)
            continue
        method, kind = obj.get("method"), obj.get("type")
        if (isinstance(method, str) and method in CALL_METHODS) or (
                isinstance(kind, str) and kind in CALL_TYPES and ctx != 1):
            continue  # a recorded call or result (and what it carries) is traffic, not definitions
        # every shape match_tool knows has a name, or is {"type": "function", "function": {...}}
        tool = match_tool(obj, file, ptr, line, in_list=ctx == 1) if "name" in obj or kind == "function" else None
        if tool is not None:
            yield tool
            continue
        children: list[tuple[Any, str, int]] = []
        for key, sub in obj.items():
            sub_type = type(sub)
            if sub_type in _SCALARS or (sub_type is not dict and sub_type is not list
                                        and not isinstance(sub, (Mapping, list))):
                continue  # a scalar holds no tool (and needs no pointer)
            if key in CALL_KEYS:
                continue
            kptr = f"{ptr}/{escape_token(key)}"
            if key in _GEMINI_LISTS and isinstance(sub, list):
                for i, decl in enumerate(sub):
                    if isinstance(decl, Mapping):
                        gtool = _gemini_tool(decl, file, f"{kptr}/{i}", line, key == "function_declarations")
                        if gtool is not None:
                            yield gtool
                continue
            if isinstance(sub, list):
                children.append((sub, kptr, 2 if key in TOOL_LIST_KEYS else 0))
            else:
                children.append((sub, kptr, 1 if ctx == 1 and key == "function" else 0))
        stack.extend(reversed(children))


def streamed_root_problem(skeleton: Mapping[str, Any] | None, file: str) -> str | None:
    """Why a streamed document (:mod:`schemalint.loaders.files.stream_json`) whose top-level object,
    with its arrays left empty, is ``skeleton`` (``None``: a top-level array) cannot be read part by
    part as :func:`find_tools` reads it whole: the top-level object is itself a tool, or the tools a
    response part echoes would have to be compared with the whole document's. ``None``: it can."""
    if skeleton is None:
        return None
    if match_tool(skeleton, file, "", None, in_list=False) is not None:
        return "its top-level object is itself a tool definition"
    if any(key in RESPONSE_KEYS for key in skeleton):
        return "it holds a recorded response beside its tools"
    return None


def part_tools(skeleton: Mapping[str, Any] | None, key: str | None, index: int | None, value: Any,
               file: str) -> list[Tool]:
    """The tools :func:`find_tools` finds, in the whole document, inside one part of a streamed
    document (an item ``index`` of the top-level array or of the member ``key``'s array, or the member
    ``key``'s whole ``value``); ``skeleton``: the top-level object with its streamed arrays empty
    (``None``: the document is an array), for what the top level decides (a manifest, a recorded call,
    the document's envelope). Call :func:`streamed_root_problem` first."""
    if skeleton is None:
        return list(_find_tools(value, file, None, f"/{index}"))
    if key is None:
        return []
    if skeleton.get("schemalint") == 1 and isinstance(skeleton.get("tools"), list):
        if key != "tools" or index is None:
            return []
        return list(_manifest_tools({"tools": [value]}, file, "", None, index))
    method, kind = skeleton.get("method"), skeleton.get("type")
    if (isinstance(method, str) and method in CALL_METHODS) or (isinstance(kind, str) and kind in CALL_TYPES):
        return []
    if key in CALL_KEYS:
        return []
    kptr = f"/{escape_token(key)}"
    tools: list[Tool] = []
    if index is not None:
        pointer = f"{kptr}/{index}"
        if key in _GEMINI_LISTS:
            gtool = _gemini_tool(value, file, pointer, None, key == "function_declarations") \
                if isinstance(value, Mapping) else None
            tools = [gtool] if gtool is not None else []
        else:
            tools = list(_find_tools(value, file, None, pointer, 1 if key in TOOL_LIST_KEYS else 0))
    elif isinstance(value, Mapping):
        tools = list(_find_tools(value, file, None, kptr))
    envelope = _document_envelope(skeleton)
    if envelope is not None:
        tools = [_in_envelope(t, *envelope) for t in tools]
    return tools


def load_document_tools(doc: Document) -> list[Tool]:
    """Every tool definition found by shape in a parsed document (``doc.values``: one value, or
    one per line of a JSON Lines file)."""
    tools: list[Tool] = []
    if not may_hold_tools(doc.text):
        return tools
    for line, value in doc.values:
        tools.extend(find_tools(value, doc.path, line))
    return tools


_SCHEMA_WORDS = ("parameters", "inputSchema", "input_schema", "arguments", "function")
"""Words one of which every tool shape :func:`match_tool` and the Gemini lists know holds (besides
``name``): ``parameters`` (also in ``parametersJsonSchema``), ``inputSchema`` (MCP, Bedrock's
``toolSpec``), ``input_schema``, ``arguments``, ``function`` (``{"type": "function"}``,
``functionDeclarations``, ``function_declarations``)."""


def may_hold_tools(text: str) -> bool:
    """False when no value parsed from ``text`` (JSON, JSON Lines or YAML) can hold a tool that
    :func:`find_tools` finds: but for a schemalint manifest (a ``schemalint`` key), every shape it
    knows has a ``name`` key and one of the keys or values of :data:`_SCHEMA_WORDS`; so a text
    without ``schemalint`` that lacks ``name`` or all of those holds none, unless an escape
    (``\\``) could spell them. A few C-level scans of the text: the walk of a file that cannot
    hold tools (a lock file, a CI workflow with a ``name:``) is skipped."""
    if "\\" in text or "schemalint" in text:
        return True
    return "name" in text and any(word in text for word in _SCHEMA_WORDS)
