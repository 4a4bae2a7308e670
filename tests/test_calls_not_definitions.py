"""Recorded calls, call-shaped records and bare `{name, parameters}` data are not tool definitions;
a broken tool inside a tools list still is (issue 13, "Data read as tool definitions")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from schemalint.api import check, load

OBJ = {"type": "object", "properties": {"city": {"type": "string"}}}


def _tools(tmp_path: Path, doc: Any, name: str = "data.json") -> list[tuple[str, str]]:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return [(t.name, t.origin.pointer) for t in load([str(path)]).tools]


def test_recorded_tool_calls_are_not_tools(tmp_path: Path) -> None:
    completion = {"choices": [{"message": {"role": "assistant", "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\": \"x\"}"}}]}}]}
    assert _tools(tmp_path, completion) == []
    # the same call outside a tool_calls list (a trajectory step) is not a tool either
    step = {"history": [{"type": "function", "function": {"name": "weather", "arguments": {"city": "x"}}}]}
    assert _tools(tmp_path, step) == []
    responses_item = {"output": [{"type": "function_call", "name": "weather", "arguments": "{}", "call_id": "c"}]}
    assert _tools(tmp_path, responses_item) == []
    ai_sdk_step = {"steps": [{"id": "z", "type": "function_call", "name": "getWeather",
                              "arguments": {"location": "San Francisco"}}]}
    assert _tools(tmp_path, ai_sdk_step) == []
    choice = {"tool_choice": {"type": "function", "function": {"name": "weather"}}}
    assert _tools(tmp_path, choice) == []


def test_task_records_with_arguments_are_not_tools(tmp_path: Path) -> None:
    tasks = [{"question": "q", "expected": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}]
    assert _tools(tmp_path, tasks, "tasks.jsonl") == []
    # ACEBench writes a definition's schema under `arguments`: a schema there is a definition
    ace = {"function": [{"name": "lookup", "description": "d", "arguments": OBJ}]}
    assert _tools(tmp_path, ace) == [("lookup", "/function/0")]


def test_bare_name_parameters_needs_a_schema_outside_a_tools_list(tmp_path: Path) -> None:
    fixture = {"cases": [{"name": "read", "parameters": ["path", "mode"]},
                         {"name": "pipeline", "parameters": [{"name": "x", "type": "boolean"}]},
                         {"name": "agent", "description": "d", "parameters": {"properties": []}}]}
    assert _tools(tmp_path, fixture) == []
    defined = {"entries": [{"name": "weather", "parameters": OBJ},
                           {"name": "noop", "description": "does nothing", "parameters": {}}]}
    assert _tools(tmp_path, defined) == [("weather", "/entries/0"), ("noop", "/entries/1")]


def test_broken_tool_in_a_tools_list_is_still_sl002(tmp_path: Path) -> None:
    request = {"model": "m", "tools": [{"name": "a", "parameters": ["path"]},
                                       {"type": "function", "function": {"name": "b", "parameters": "{}"}},
                                       {"name": "c", "parameters": "not a schema"}]}
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request))
    result = check([str(path)])
    assert result.tools == 3
    errors = [d.tool for d in result.diagnostics if d.code == "SL002" and d.severity.value == "error"]
    assert sorted(errors) == ["a", "b", "c"]  # b: the string decodes to {}, an empty schema


def test_vscode_language_model_tools_use_model_description(tmp_path: Path) -> None:
    manifest = {"contributes": {"languageModelTools": [
        {"name": "find", "modelDescription": "Find files by glob.", "inputSchema": OBJ}]}}
    path = tmp_path / "package.json"
    path.write_text(json.dumps(manifest))
    (tool,) = load([str(path)]).tools
    assert tool.description == "Find files by glob."
    assert not [d for d in check([str(path)]).diagnostics if d.code == "SL007"]
