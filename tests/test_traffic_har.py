"""HAR 1.2 captures in ``replay`` (docs/traffic.md "What it reads"), SL401's wording by where the
call is, and provider-rule errors on requests whose recorded response was accepted (issue 17,
fresh-user trial). The archives are written here from the HAR 1.2 spec: ``log.entries[]`` with
``request.postData.text`` and ``response.content.text`` (optionally ``encoding: "base64"``)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from schemalint.api import check, load
from schemalint.commands.replay import replay
from schemalint.model import Severity
from schemalint.traffic.records import Conversation
from schemalint.traffic.stream import read_file
from tests.conftest import REPOS, cli, needs_repos

WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                          "required": ["city"], "additionalProperties": False}}}
STRICT_OPEN = {"type": "function", "function": {
    "name": "get_weather", "description": "Weather for a city.", "strict": True,
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}


def _entry(url: str, request: Any, response: Any, status: int = 200, b64: bool = False,
           mime: str = "application/json") -> dict[str, Any]:
    text = json.dumps(response)
    content: dict[str, Any] = {"size": len(text), "mimeType": mime, "text": text}
    if b64:
        content.update(text=base64.b64encode(text.encode()).decode(), encoding="base64")
    return {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
            "request": {"method": "POST", "url": url, "httpVersion": "HTTP/1.1", "headers": [],
                        "queryString": [], "cookies": [], "headersSize": -1, "bodySize": -1,
                        "postData": {"mimeType": "application/json", "text": json.dumps(request)}},
            "response": {"status": status, "statusText": "", "httpVersion": "HTTP/1.1", "headers": [],
                         "cookies": [], "content": content, "redirectURL": "", "headersSize": -1,
                         "bodySize": -1},
            "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}


def _har(tmp_path: Path, *entries: dict[str, Any], name: str = "capture.har") -> str:
    path = tmp_path / name
    path.write_text(json.dumps({"log": {"version": "1.2", "creator": {"name": "test", "version": "1"},
                                        "entries": list(entries)}}, indent=2))
    return str(path)


def _chat_call(name: str, cid: str = "c1") -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": cid, "type": "function", "function": {"name": name, "arguments": '{"city": "Oslo"}'}}]}


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": message,
                                                                  "finish_reason": "tool_calls"}]}


def test_har_request_and_base64_response_are_read_and_located(tmp_path: Path) -> None:
    request = {"model": "gpt-x", "tools": [WEATHER], "messages": [{"role": "user", "content": "weather?"}]}
    path = _har(tmp_path,
                _entry("https://api.openai.com/v1/chat/completions", {"model": "m", "messages": [{"role": "user",
                       "content": "hi"}]}, _completion({"role": "assistant", "content": "hello"})),
                _entry("https://api.openai.com/v1/chat/completions", request,
                       _completion(_chat_call("search")), b64=True))
    convs = [c for c in read_file(path) if isinstance(c, Conversation)]
    assert [c.format for c in convs] == ["openai-chat", "openai-chat"]
    second = convs[1]
    assert [t.name for t in second.declared or ()] == ["get_weather"]
    assert second.accepted and second.refusal is None
    (call,) = second.calls()
    assert call.pointer == "/log/entries/1/response/content/text/choices/0/message/tool_calls/0"
    report = replay([path])
    (d,) = report.diagnostics
    assert d.code == "SL401" and d.tool == "search"
    assert d.message.startswith("the model's answer calls `search`, which the request does not declare")
    assert "in its history" not in d.message
    text_lines = [i for i, row in enumerate(Path(path).read_text().splitlines(), 1) if '"text":' in row]
    assert d.line == text_lines[3]  # the line of entry 1's response text (each entry: request text, response text)


def test_a_directory_run_reads_har_files_and_check_does_not(tmp_path: Path) -> None:
    request = {"model": "m", "messages": [{"role": "user", "content": "x"}, _chat_call("get_weather"),
                                          {"role": "tool", "tool_call_id": "c1", "content": "sunny"}]}
    _har(tmp_path, _entry("https://api.openai.com/v1/chat/completions", request,
                          _completion({"role": "assistant", "content": "It is sunny."})))
    proc = cli("replay", str(tmp_path), "--format", "json")
    assert "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["files"] == 1
    (d,) = report["diagnostics"]  # a request without tools that carries a call and its result
    assert d["code"] == "SL401" and d["pointer"].startswith("/log/entries/0/request/postData/text/messages/1")
    assert proc.returncode == 1
    assert load([str(tmp_path)]).files == 0  # check reads .json/.yaml: a .har is not a tool file


def test_sl401_names_a_call_in_the_history_and_a_refused_answer(tmp_path: Path) -> None:
    gemini_tools = [{"functionDeclarations": [{"name": "get_weather", "description": "Weather for a city.",
                                               "parameters": {"type": "object",
                                                              "properties": {"city": {"type": "string"}}}}]}]
    history = {"contents": [{"role": "user", "parts": [{"text": "x"}]},
                            {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {}}}]},
                            {"role": "user", "parts": [{"functionResponse": {"name": "lookup",
                                                                             "response": {"r": 1}}}]}],
               "tools": gemini_tools}
    answer = {"candidates": [{"content": {"role": "model", "parts": [
        {"functionCall": {"name": "describe_image", "args": {}}}]}, "finishReason": "UNEXPECTED_TOOL_CALL"}]}
    url = "https://generativelanguage.googleapis.com/v1beta/models/g:generateContent"
    path = _har(tmp_path, _entry(url, history, {"candidates": [{"content": {"role": "model", "parts": [
        {"text": "ok"}]}, "finishReason": "STOP"}]}), _entry(url, {**history, "contents": history["contents"][:1]},
                                                             answer))
    by_tool = {d.tool: d for d in replay([path]).diagnostics}
    assert set(by_tool) == {"lookup", "describe_image"}
    assert "in the request's history" in by_tool["lookup"].message
    refused = by_tool["describe_image"].message
    assert refused.startswith("the model's answer calls `describe_image`")
    assert refused.endswith("the recorded response shows the provider refused it (finishReason UNEXPECTED_TOOL_CALL)")


def test_provider_errors_on_an_accepted_request_become_info_in_replay_only(tmp_path: Path) -> None:
    request = {"model": "qwen/qwen3", "tools": [STRICT_OPEN], "messages": [{"role": "user", "content": "x"}]}
    ok = _completion({"role": "assistant", "content": "done"})
    url = "https://openrouter.ai/api/v1/chat/completions"
    accepted = replay([_har(tmp_path, _entry(url, request, ok), name="ok.har")])
    (d,) = [d for d in accepted.diagnostics if d.code == "SL307"]
    assert d.severity is Severity.INFO and "the recorded response was accepted" in d.message
    refused = replay([_har(tmp_path, _entry(url, request, {"error": {"message": "invalid schema"}}, status=400),
                           name="bad.har")])
    (d,) = [d for d in refused.diagnostics if d.code == "SL307"]
    assert d.severity is Severity.ERROR and "accepted" not in d.message
    # the same tools refused once and accepted once: the refusal stands
    mixed = replay([_har(tmp_path, _entry(url, request, ok), _entry(url, request, {"error": {"message": "no"}},
                                                                     status=400), name="mixed.har")])
    assert [d.severity for d in mixed.diagnostics if d.code == "SL307"] == [Severity.ERROR]
    # check on the same tools is unchanged
    (tmp_path / "tools.json").write_text(json.dumps([STRICT_OPEN]))
    checked = check([str(tmp_path / "tools.json")])
    assert [d.severity for d in checked.diagnostics if d.code == "SL307"] == [Severity.ERROR]


def test_mcp_over_http_in_a_har_is_one_session(tmp_path: Path) -> None:
    listed = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "create_task", "description": "Create a task.",
         "inputSchema": {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}}]}}
    sse = f"event: message\ndata: {json.dumps(listed)}\n\n"
    first = _entry("https://mcp.example/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {})
    first["response"]["content"] = {"size": len(sse), "mimeType": "text/event-stream", "text": sse}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "delete_task", "arguments": {}}}
    second = _entry("https://mcp.example/mcp", call, {"jsonrpc": "2.0", "id": 2, "result": {"content": []}})
    convs = [c for c in read_file(_har(tmp_path, first, second)) if isinstance(c, Conversation)]
    assert {c.format for c in convs} == {"mcp"}
    assert [t.name for c in convs for t in c.declared or ()] == ["create_task"]
    report = replay([str(tmp_path / "capture.har")])
    assert [(d.code, d.tool) for d in report.diagnostics] == [("SL401", "delete_task")]
    assert report.diagnostics[0].pointer.startswith("/log/entries/1/request/postData/text")


def test_odd_har_entries_are_skipped_without_an_error(tmp_path: Path) -> None:
    bad = _entry("https://x.example/", {"model": "m"}, {})
    bad["request"]["postData"] = {"mimeType": "text/plain", "text": "not json"}
    bad["response"]["content"] = {"mimeType": "application/json", "text": "!!!", "encoding": "base64"}
    path = _har(tmp_path, bad, {"request": None}, "oops")
    report = replay([path])
    assert report.diagnostics == [] and "no traffic found" in report.notes[0]


@needs_repos
def test_recorded_outcomes_in_real_vcr_cassettes() -> None:
    cassettes = REPOS / "pydantic__pydantic-ai" / "tests" / "models" / "cassettes"
    openrouter = cassettes / "test_openrouter" / "test_openrouter_google_nested_schema.yaml"
    refused = cassettes / "test_deepseek_responses" / "test_deepseek_responses_rejects_interleaved_function_calls.yaml"
    report = replay([str(openrouter), str(refused)])
    strict = [d for d in report.diagnostics if d.code == "SL307"]
    assert strict and all(d.severity is Severity.INFO and "recorded response was accepted" in d.message
                          for d in strict)  # OpenRouter answered 200 to what OpenAI strict refuses
    (no_tools,) = [d for d in report.diagnostics if d.code == "SL401"]
    assert no_tools.file == str(refused)
    assert no_tools.message.endswith("the recorded response shows the provider refused it (HTTP 400)")
    checked = [d.severity for d in check([str(openrouter)]).diagnostics if d.code == "SL307"]
    assert checked == [Severity.ERROR] * len(strict)  # check reads no outcome: unchanged
