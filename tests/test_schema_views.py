"""Schemas read through a view (issue 13, the kinds of false finding measured on ../shared/repos):
a JSON-encoded `parameters` string, snake_case Gemini Schema fields, AgentSchema `parameters`
blocks; a response's echo of its request's tools; SL321 counted per tools list; SL311 `default`.
Each test checks both sides: the real-but-differently-spelled schema is read, the broken one is still
reported."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from schemalint.api import check
from schemalint.loaders.formats.json_tools import agentschema_schema, camel_case_schema, decode_schema_string
from schemalint.model import Diagnostic
from tests.conftest import REPOS, needs_repos

_SCHEMA = {"additionalProperties": False, "properties": {"loc_name": {"type": "string"}},
           "required": ["loc_name"], "type": "object"}


def _write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc) if name.endswith(".yaml") else json.dumps(doc, indent=1))
    return str(path)


def _diags(path: str, *targets: str) -> list[Diagnostic]:
    return list(check([path], targets=list(targets)).diagnostics)


def _xai_request(parameters: Any) -> dict[str, Any]:
    return {"request_sample": {"json": {"model": "grok-4", "tools": [
        {"function": {"name": "get_location", "description": "Where a place is.", "parameters": parameters}}]}}}


# --- a JSON-encoded schema string (xAI gRPC Function.parameters) --------------------------------

def test_schema_string_is_read_as_the_object_it_encodes(tmp_path: Path) -> None:
    path = _write(tmp_path, "cassette.yaml", {"interactions": [_xai_request(json.dumps(_SCHEMA))]})
    result = check([path])
    [tool] = result.catalog
    assert tool.schema_view == "json-string" and tool.advertised == _SCHEMA
    assert [(d.code, d.severity.value) for d in result.diagnostics] == [("SL002", "info")]
    assert "JSON-encoded string" in result.diagnostics[0].message


def test_findings_inside_a_schema_string_point_at_the_string(tmp_path: Path) -> None:
    broken = dict(_SCHEMA, required=["loc_name", "country"])
    path = _write(tmp_path, "cassette.yaml", {"interactions": [_xai_request(json.dumps(broken))]})
    sl003 = [d for d in _diags(path) if d.code == "SL003"]
    assert len(sl003) == 1
    assert sl003[0].pointer == "/interactions/0/request_sample/json/tools/0/function/parameters"
    assert "/required/1 of the schema as read" in sl003[0].message
    assert sl003[0].line is not None


def test_an_array_or_a_non_json_string_is_still_sl002_error(tmp_path: Path) -> None:
    for bad in (["loc_name"], "loc_name: string", "[1, 2]", '{"type": "object"'):
        path = _write(tmp_path, "cassette.yaml", {"interactions": [_xai_request(bad)]})
        got = [(d.code, d.severity.value) for d in _diags(path) if d.code == "SL002"]
        assert got == [("SL002", "error")], bad


def test_a_schema_string_in_an_openai_tool_is_a_warning(tmp_path: Path) -> None:
    path = _write(tmp_path, "req.json", {"tools": [{"type": "function", "function": {
        "name": "f", "description": "Does f.", "parameters": json.dumps(_SCHEMA)}}]})
    got = [(d.code, d.severity.value) for d in _diags(path)]
    assert got == [("SL002", "warning")]


def test_decode_schema_string_edges() -> None:
    assert decode_schema_string(' {"type": "object"} ') == {"type": "object"}
    assert decode_schema_string('"{}"') is None and decode_schema_string("{") is None
    assert decode_schema_string("[" * 100_000) is None


# --- snake_case Gemini Schema fields (google-genai Python SDK) ------------------------------------

def _genai(parameters: dict[str, Any], key: str = "function_declarations") -> dict[str, Any]:
    return {"config": {"tools": [{key: [{"name": "update_fc", "description": "Hello", "parameters": parameters}]}]}}


_SNAKE = {"type": "OBJECT", "properties": {"data": {"type": "ARRAY", "min_items": 1, "items": {
    "any_of": [{"type": "INTEGER"}, {"type": "STRING"}], "type": "STRING"}}}}


def test_snake_case_gemini_fields_are_read_as_camel_case(tmp_path: Path) -> None:
    path = _write(tmp_path, "session.json", _genai(_SNAKE))
    [tool] = check([path]).catalog
    assert tool.schema_view == "snake-case"
    assert tool.advertised["properties"]["data"]["minItems"] == 1
    assert "anyOf" in tool.advertised["properties"]["data"]["items"]
    assert [d.code for d in _diags(path, "gemini")] == []


def test_camel_case_list_keeps_reporting_snake_case_keys(tmp_path: Path) -> None:
    """Only a Python-SDK-shaped declaration list (function_declarations) is read as snake_case."""
    path = _write(tmp_path, "req.json", _genai(_SNAKE, key="functionDeclarations"))
    assert "SL313" in {d.code for d in _diags(path, "gemini")}


def test_a_refused_field_in_snake_case_is_reported_at_the_files_spelling(tmp_path: Path) -> None:
    schema = {"type": "OBJECT", "properties": {"m": {"type": "OBJECT", "additional_properties": False,
                                                     "properties": {"k": {"type": "STRING"}}}}}
    path = _write(tmp_path, "session.json", _genai(schema))
    [d] = [d for d in _diags(path, "gemini") if d.code == "SL313"]
    assert d.pointer.endswith("/parameters/properties/m/additional_properties")


def test_camel_case_schema_keeps_property_names_and_refuses_both_spellings() -> None:
    schema = {"type": "OBJECT", "properties": {"min_items": {"type": "STRING"}}}
    assert camel_case_schema(schema) is None  # a property called min_items is not a field
    assert camel_case_schema({"type": "ARRAY", "min_items": 1, "minItems": 2}) is None


# --- AgentSchema parameters (microsoft/agent-framework declarative agents) -------------------------

_AGENT = {"kind": "Prompt", "name": "Assistant", "tools": [{
    "kind": "function", "name": "GetWeather", "description": "Get the weather for a given location.",
    "parameters": {"properties": {
        "location": {"kind": "string", "description": "The city", "required": True},
        "unit": {"kind": "string", "description": "The unit.", "required": False,
                 "enum": ["celsius", "fahrenheit"]}}}}]}


def test_agentschema_parameters_are_read_as_json_schema(tmp_path: Path) -> None:
    path = _write(tmp_path, "GetWeather.yaml", _AGENT)
    result = check([path])
    [tool] = result.catalog
    assert tool.schema_view == "agentschema"
    assert tool.advertised == {"type": "object", "properties": {
        "location": {"type": "string", "description": "The city"},
        "unit": {"type": "string", "description": "The unit.", "enum": ["celsius", "fahrenheit"]}},
        "required": ["location"]}
    assert result.diagnostics == []


def test_a_broken_agentschema_property_is_located_at_its_kind(tmp_path: Path) -> None:
    doc = json.loads(json.dumps(_AGENT))
    doc["tools"][0]["parameters"]["properties"]["unit"]["kind"] = 7
    path = _write(tmp_path, "GetWeather.yaml", doc)
    [d] = [d for d in _diags(path) if d.code == "SL001"]
    assert d.pointer == "/tools/0/parameters/properties/unit/kind"


def test_agentschema_list_form_and_nesting() -> None:
    got = agentschema_schema({"properties": [
        {"name": "tags", "kind": "array", "required": True, "items": {"kind": "string"}},
        {"name": "where", "kind": "object", "properties": {"city": {"kind": "string", "required": True}}}]})
    assert got == {"type": "object", "required": ["tags"], "properties": {
        "tags": {"type": "array", "items": {"type": "string"}},
        "where": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
    assert agentschema_schema({"type": "object", "properties": {"a": {"kind": "string"}}}) is None
    assert agentschema_schema({"properties": {"a": {"type": "string"}}}) is None


# --- a response's echo of its request's tools ------------------------------------------------------

def _tool(desc: str = "Look up a rate.") -> dict[str, Any]:
    return {"type": "function", "name": "rate", "description": desc, "parameters": dict(_SCHEMA)}


def test_a_response_echo_is_not_a_second_definition(tmp_path: Path) -> None:
    echoed = dict(_tool(), strict=True)  # the provider normalises the echo
    blank = dict(_tool(""), name="blank")
    doc = {"interactions": [{"request": {"tools": [blank]}, "response": {"tools": [dict(blank, description=None)]}}]}
    assert len(check([_write(tmp_path, "blank.yaml", doc)]).catalog) == 1  # "" and null: the same
    doc = {"interactions": [{"request": {"parsed_body": {"tools": [_tool()]}},
                             "response": {"parsed_body": {"tools": [echoed]}}}]}
    result = check([_write(tmp_path, "cassette.yaml", doc)])
    assert [t.origin.pointer for t in result.catalog] == ["/interactions/0/request/parsed_body/tools/0"]


def test_a_response_only_tool_and_a_changed_echo_are_kept(tmp_path: Path) -> None:
    doc = {"interactions": [{"request": {"parsed_body": {"tools": [_tool()]}},
                             "response": {"parsed_body": {"tools": [_tool("Another text.")]}}}]}
    assert len(check([_write(tmp_path, "cassette.yaml", doc)]).catalog) == 2
    only = {"response": {"tools": [_tool()]}}
    assert len(check([_write(tmp_path, "fixture.json", only)]).catalog) == 1


def test_two_requests_with_the_same_tool_are_both_loaded(tmp_path: Path) -> None:
    doc = {"interactions": [{"request": {"tools": [_tool()]}}, {"request": {"tools": [_tool()]}}]}
    assert len(check([_write(tmp_path, "cassette.yaml", doc)]).catalog) == 2


# --- SL321 counts a request, not a file ------------------------------------------------------------

def _fns(n: int, prefix: str) -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": f"{prefix}{i}", "description": "d",
                                              "parameters": {"type": "object", "properties": {}}}}
            for i in range(n)]


def test_sl321_counts_each_tools_list(tmp_path: Path) -> None:
    replay = {"prompts": [{"metadata": {"tools": _fns(100, "a")}}, {"metadata": {"tools": _fns(100, "b")}}]}
    assert "SL321" not in {d.code for d in _diags(_write(tmp_path, "replay.json", replay))}
    big = {"prompts": [{"metadata": {"tools": _fns(10, "a")}}, {"metadata": {"tools": _fns(129, "b")}}]}
    [d] = [d for d in _diags(_write(tmp_path, "replay.json", big)) if d.code == "SL321"]
    assert d.tool == "b128" and "129 tools" in d.message and "/prompts/1/metadata/tools" in d.message


def test_sl321_gemini_counts_declarations_across_one_tools_array(tmp_path: Path) -> None:
    """Gemini's 512 is per request: two functionDeclarations lists of 300 in one tools array are 600."""
    def decls(prefix: str) -> list[dict[str, Any]]:
        return [{"name": f"{prefix}{i}", "description": "d", "parameters": {
            "type": "OBJECT", "properties": {"a": {"type": "STRING"}}}} for i in range(300)]

    one = {"tools": [{"functionDeclarations": decls("a")}, {"functionDeclarations": decls("b")}]}
    assert "SL321" in {d.code for d in _diags(_write(tmp_path, "req.json", one))}
    two = {"requests": [{"tools": [{"functionDeclarations": decls("a")}]},
                        {"tools": [{"functionDeclarations": decls("b")}]}]}
    assert "SL321" not in {d.code for d in _diags(_write(tmp_path, "req.json", two))}


# --- SL311 default: accepted by a recorded OpenAI answer -------------------------------------------

def test_sl311_default_is_a_warning(tmp_path: Path) -> None:
    tool = {"type": "function", "name": "calc", "description": "Adds.", "strict": True, "parameters": {
        "type": "object", "additionalProperties": False, "required": ["op"],
        "properties": {"op": {"type": "string", "enum": ["add"], "default": "add"}}}}
    got = [(d.code, d.severity.value) for d in _diags(_write(tmp_path, "r.json", {"tools": [tool]}))]
    assert got == [("SL311", "warning")]


@needs_repos
def test_the_recorded_answer_is_there() -> None:
    """The evidence SL311's severity rests on: a completed OpenAI answer echoing strict + default."""
    path = REPOS / "vercel__ai/packages/openai/src/responses/__fixtures__/openai-reasoning-encrypted-content.1.json"
    doc = json.loads(path.read_text())
    assert doc["status"] == "completed" and doc["object"] == "response"
    [tool] = doc["tools"]
    assert tool["strict"] is True and "default" in tool["parameters"]["properties"]["op"]


# --- a `parameters` map of argument records (API-Bank / ToolAlpaca data) --------------------------

_RECORDS = [{"query": "When is my next visit?", "tools": [
    {"name": "FindVisit", "description": "Find a visit. Pass `patient` and the `title` of the visit.",
     "parameters": {"patient": {"type": "string", "description": "The patient.", "required": True},
                    "title": {"type": "string", "description": "Visit title."},
                    "type": {"type": "str", "description": "Visit kind."}}},
    {"name": "Ping", "description": "Check the service.", "parameters": {}},
    {"name": "Tagged", "description": "A real schema.", "parameters": {"items": {"type": "string"}}}]}]


def test_a_map_of_argument_records_is_read_as_the_object_schema_it_stands_for(tmp_path: Path) -> None:
    """Hammer's data kind: keys such as `title` and `type` are argument names, not keywords (no SL001
    "`title` must be a string"); the names are declared (no SL201 on `patient`); SL002 says once
    what the form is; a non-standard type name inside is reported at its place in the file."""
    path = _write(tmp_path, "visits.json", _RECORDS)
    result = check([path])
    tool = next(t for t in result.catalog if t.name == "FindVisit")
    assert tool.schema_view == "property-map"
    assert tool.advertised == {"type": "object", "required": ["patient"], "properties": {
        "patient": {"type": "string", "description": "The patient."},
        "title": {"type": "string", "description": "Visit title."},
        "type": {"type": "str", "description": "Visit kind."}}}
    found = sorted((d.code, d.pointer) for d in result.diagnostics if d.tool == "FindVisit")
    assert found == [("SL001", "/0/tools/0/parameters/type/type"), ("SL002", "/0/tools/0/parameters")]
    [sl002] = [d for d in result.diagnostics if d.tool == "FindVisit" and d.code == "SL002"]
    assert "`patient`, `title`, `type`" in sl002.message and sl002.severity.value == "error"
    # not a map of records: an empty schema, and a schema whose only key is a subschema keyword
    others = {d.tool: d.message for d in result.diagnostics if d.code == "SL002" and d.tool != "FindVisit"}
    assert set(others) == {"Ping", "Tagged"} and "maps argument names" not in "".join(others.values())
