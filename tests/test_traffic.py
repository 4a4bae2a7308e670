"""Recorded traffic (issue 17, docs/traffic.md): the readers keep every message, the examples
reproduce their incidents, the clean twins are clean, replay shares check's reporters, fail-on,
selection, configuration and baseline, and check does not take traffic for tool definitions."""

from __future__ import annotations

import json
import re
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import load
from schemalint.commands.replay import replay
from schemalint.traffic.records import Conversation
from schemalint.traffic.stream import Problem, read_file
from tests.conftest import REPOS, ROOT, cli, internal_errors, needs_repos

EXAMPLES = ROOT / "examples" / "traffic"
MANIFEST = EXAMPLES / "incident1-present-answer.tools.json"


def _replay(*args: str) -> tuple[int, dict[str, Any]]:
    proc = cli("replay", *args, "--format", "json")
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _codes(report: dict[str, Any]) -> Counter[str]:
    return Counter(d["code"] for d in report["diagnostics"])


def _conversations(path: Path) -> list[Conversation]:
    return [c for c in read_file(str(path)) if isinstance(c, Conversation)]


# --------------------------------------------------------------------------- the examples

INCIDENTS = {
    "incident1-present-answer.openai-chat.jsonl": {"SL406": 1, "SL407": 1},
    "incident2-bridged-name.anthropic.json": {"SL201": 1, "SL408": 1},
    "incident2-bridged-name.mcp.jsonl": {"SL201": 1, "SL408": 1},
    "incident3-advisor-no-tools.anthropic.json": {"SL401": 1, "SL402": 1},
    "incident3-advisor-no-tools.gemini.json": {"SL401": 1},
    "incident4-facade-history.openai-chat.jsonl": {"SL002": 1, "SL402": 1, "SL403": 1},
}


@pytest.mark.parametrize("name", sorted(INCIDENTS))
def test_each_incident_log_reproduces_its_finding(name: str) -> None:
    code, report = _replay(str(EXAMPLES / name))
    assert dict(_codes(report)) == INCIDENTS[name], report["diagnostics"]
    assert code == 1
    for d in report["diagnostics"]:
        assert d["line"] and d["column"], d  # located: file, line, column of the message's pointer


def test_incident1_names_the_argument_and_counts_the_calls() -> None:
    _, report = _replay(str(EXAMPLES / "incident1-present-answer.openai-chat.jsonl"))
    (sl407,) = [d for d in report["diagnostics"] if d["code"] == "SL407"]
    assert sl407["instance_path"] == "/presentation"
    assert "`presentation` of `present_answer`" in sl407["message"]
    assert "(3 of 4 recorded call(s)" in sl407["message"]
    assert "at the call boundary" in sl407["hint"] and "description" in sl407["hint"]
    (sl406,) = [d for d in report["diagnostics"] if d["code"] == "SL406"]
    assert (sl406["line"], sl406["pointer"]) == (4, "/messages/2")  # the recorded refusal is the witness
    assert "presentation: Field required" in sl406["message"]


def test_incident1_replayed_against_the_manifest_runtime() -> None:
    _, report = _replay(str(EXAMPLES / "incident1-present-answer.openai-chat.jsonl"), "--tools", str(MANIFEST))
    (sl406,) = [d for d in report["diagnostics"] if d["code"] == "SL406"]
    assert "refuses it when replayed" in sl406["message"] and "'presentation' is a required property" in sl406[
        "message"]
    assert sl406["pointer"] == "/messages/1/tool_calls/0/function/arguments"
    assert "SL405" not in _codes(report)  # the recorded tool is the manifest's


def test_incident1_replayed_against_a_real_pydantic_model(tmp_path: Path) -> None:
    (tmp_path / "answer_tools.py").write_text(textwrap.dedent('''
        from pydantic import BaseModel

        class Presentation(BaseModel):
            chart_type: str
            title: str | None = None

        class present_answer(BaseModel):
            """Present the final answer: the artifact to show and how to present it."""
            artifact: str
            presentation: Presentation
    '''))
    _, report = _replay(str(EXAMPLES / "incident1-present-answer.openai-chat.jsonl"),
                        "--tools", "answer_tools:present_answer", "--python-path", str(tmp_path))
    codes = _codes(report)
    assert codes["SL406"] == 1 and codes["SL405"] == 1, report["diagnostics"]
    (sl406,) = [d for d in report["diagnostics"] if d["code"] == "SL406"]
    assert "presentation: Field required" in sl406["message"] and "replayed" in sl406["message"]
    (sl405,) = [d for d in report["diagnostics"] if d["code"] == "SL405"]
    assert "required ['artifact'] in the traffic, ['artifact', 'presentation'] in the project" in sl405["message"]


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("clean.*")))
def test_clean_twins_are_clean(name: str) -> None:
    code, report = _replay(str(EXAMPLES / name))
    assert report["diagnostics"] == [] and code == 0
    convs = _conversations(EXAMPLES / name)
    assert convs and sum(len(c.calls()) for c in convs) >= 1
    assert sum(len(c.calls()) for c in convs) == sum(len(c.results()) for c in convs)


def test_every_message_is_kept_including_content_null_turns() -> None:
    (conv,) = _conversations(EXAMPLES / "clean.openai-chat.jsonl")
    doc = json.loads((EXAMPLES / "clean.openai-chat.jsonl").read_text().splitlines()[0])
    assert [t.role for t in conv.turns] == [m["role"] for m in doc["messages"]]
    nulls = [t for t in conv.turns if t.role == "assistant" and t.calls]
    assert len(nulls) == 2 and all(doc["messages"][int(t.pointer.rsplit("/", 1)[1])]["content"] is None
                                   for t in nulls)
    assert [r.id for r in conv.results()] == ["call_1", "call_2", "call_3"]
    assert conv.calls()[2].arguments == {"artifact": "t1", "presentation": {"chart_type": "bar",
                                                                            "title": "Temperature"}}
    assert [t.name for t in conv.declared or ()] == ["present_answer", "get_weather"]


def test_each_format_reads_calls_results_and_pointers() -> None:
    (resp,) = _conversations(EXAMPLES / "clean.openai-responses.json")
    assert resp.format == "openai-responses" and [t.role for t in resp.turns] == ["user", "assistant", "tool",
                                                                                 "assistant", "user"]
    assert [c.id for c in resp.calls()] == ["fc_1", "fc_2"] and resp.calls()[1].pointer == "/input/2"
    (anth,) = _conversations(EXAMPLES / "clean.anthropic.json")
    assert anth.format == "anthropic" and anth.calls()[0].pointer == "/messages/1/content/1"
    assert anth.results()[0].id == "toolu_01"
    (gem,) = _conversations(EXAMPLES / "clean.gemini.json")
    assert gem.format == "gemini" and gem.calls()[0].arguments == {"path": "tests/"}
    assert gem.results()[0].name == "run_tests" and [t.name for t in gem.declared or ()] == ["run_tests"]
    mcp = _conversations(EXAMPLES / "clean.mcp.jsonl")
    assert [c.format for c in mcp] == ["mcp", "mcp"]
    assert [(c.calls()[0].line, c.results()[0].line) for c in mcp] == [(6, 7), (8, 9)]
    assert [t.name for t in mcp[0].declared or ()] == ["create_task"]


# --------------------------------------------------------------------------- rules beyond the pages

def _write(tmp_path: Path, doc: Any, name: str = "log.json") -> str:
    path = tmp_path / name
    if name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(d) + "\n" for d in doc))
    else:
        path.write_text(json.dumps(doc))
    return str(path)


WEATHER = {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                                                           "days": {"type": "integer"}},
                          "required": ["city"]}}}


def _call(cid: str, args: Any, name: str = "get_weather") -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def test_call_to_an_undeclared_tool_once_per_tool_with_a_count(tmp_path: Path) -> None:
    lines = [{"model": "m", "tools": [WEATHER], "messages": [
        {"role": "user", "content": "x"}, _call(f"c{i}", {"q": 1}, "search"),
        {"role": "tool", "tool_call_id": f"c{i}", "content": "r"}]} for i in range(3)]
    report = replay([_write(tmp_path, lines, "log.jsonl")])
    (d,) = report.diagnostics
    assert d.code == "SL401" and d.tool == "search" and "3 such calls" in d.message and d.line == 1


def test_transcripts_and_responses_are_not_judged_for_declarations(tmp_path: Path) -> None:
    transcript = [{"role": "user", "content": "x"}, _call("c1", {"city": "Oslo"}),
                  {"role": "tool", "tool_call_id": "c1", "content": "r"}]
    completion = {"choices": [{"message": _call("c2", {"city": "Oslo"})}]}
    report = replay([_write(tmp_path, transcript, "t.json"), _write(tmp_path, completion, "c.json")])
    assert report.diagnostics == []


def test_gemini_results_pair_by_name_and_orphans_are_found(tmp_path: Path) -> None:
    doc = {"tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT"}}]}], "contents": [
        {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {}}},
                                   {"functionResponse": {"name": "f", "response": {}}}]}]}
    report = replay([_write(tmp_path, doc)], select=["SL4"])
    assert [(d.code, d.pointer) for d in report.diagnostics] == [("SL402", "/contents/1/parts/1/functionResponse")]


def test_a_call_left_waiting_in_a_request_is_unanswered(tmp_path: Path) -> None:
    doc = {"model": "m", "tools": [WEATHER], "messages": [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"A\"}"}},
            {"id": "b", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"B\"}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "r"}]}
    report = replay([_write(tmp_path, doc)])
    assert [(d.code, d.pointer) for d in report.diagnostics] == [("SL403", "/messages/1/tool_calls/1")]


def test_duplicate_id_while_waiting_is_an_error_reused_later_a_warning(tmp_path: Path) -> None:
    waiting = {"model": "m", "tools": [WEATHER], "messages": [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"A\"}"}},
            {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"B\"}"}}]},
        {"role": "tool", "tool_call_id": "a", "content": "r"}, {"role": "tool", "tool_call_id": "a", "content": "r"}]}
    later = {"model": "m", "tools": [WEATHER], "messages": [
        _call("a", {"city": "A"}), {"role": "tool", "tool_call_id": "a", "content": "r"},
        _call("a", {"city": "B"}), {"role": "tool", "tool_call_id": "a", "content": "r"}]}
    got = replay([_write(tmp_path, waiting, "w.json"), _write(tmp_path, later, "l.json")]).diagnostics
    assert [(Path(d.file).name, d.code, d.severity.value) for d in got] == [("l.json", "SL404", "warning"),
                                                                            ("w.json", "SL404", "error")]


def test_repeated_invalid_calls_once_with_a_count_and_single_slips_not_at_all(tmp_path: Path) -> None:
    def line(i: int, args: Any) -> dict[str, Any]:
        return {"model": "m", "tools": [WEATHER], "messages": [
            _call(f"c{i}", args), {"role": "tool", "tool_call_id": f"c{i}", "content": "r"}]}
    lines = [line(i, {"location": "Oslo"}) for i in range(4)] + [line(9, {"city": "Oslo", "days": "three"})]
    report = replay([_write(tmp_path, lines, "log.jsonl")])
    (d,) = report.diagnostics
    assert d.code == "SL409" and "`city` is missing at the top level" in d.message
    assert "(4 of 5 recorded call(s))" in d.message and d.line == 1
    cfg = tmp_path / "schemalint.toml"
    cfg.write_text("[options.SL409]\nmin_count = 5\n")
    proc = cli("replay", str(tmp_path / "log.jsonl"), "--config", str(cfg), "--format", "json")
    assert json.loads(proc.stdout)["diagnostics"] == [] and proc.returncode == 0


def test_recorded_error_about_the_tools_work_is_not_drift(tmp_path: Path) -> None:
    doc = {"model": "m", "tools": [WEATHER], "messages": [
        _call("c1", {"city": "Atlantis"}),
        {"role": "tool", "tool_call_id": "c1", "content": "{\"error\": \"city not found\"}"}]}
    assert replay([_write(tmp_path, doc)]).diagnostics == []


def test_an_unresolvable_remote_ref_leaves_the_call_unjudged(tmp_path: Path) -> None:
    tool = {"type": "function", "function": {"name": "f", "description": "d", "parameters": {
        "type": "object", "properties": {"x": {"$ref": "https://example.invalid/schema.json"}}}}}
    doc = {"model": "m", "tools": [tool], "messages": [_call("c1", {"x": 1}, "f"), _call("c2", {"x": 2}, "f")]}
    report = replay([_write(tmp_path, doc)], select=["SL4"])
    assert not internal_errors(report.diagnostics)
    assert [d.code for d in report.diagnostics] == ["SL403", "SL403"]  # both left unanswered; no replay finding


# --------------------------------------------------------------------------- interface

def test_every_check_format_renders_a_replay() -> None:
    log = str(EXAMPLES / "incident3-advisor-no-tools.anthropic.json")
    sarif = json.loads(cli("replay", log, "--format", "sarif").stdout)
    results = sarif["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"SL401", "SL402"}
    assert all(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results)
    github = cli("replay", log, "--format", "github").stdout
    assert re.search(r"^::error file=.*incident3-advisor-no-tools\.anthropic\.json,line=\d+", github, re.M)
    text = cli("replay", log)
    assert text.returncode == 1 and "SL401 undeclared-tool-call" in text.stdout


def test_fail_on_select_ignore_and_baseline(tmp_path: Path) -> None:
    log = str(EXAMPLES / "incident1-present-answer.openai-chat.jsonl")
    assert cli("replay", log, "--fail-on", "never").returncode == 0
    code, report = _replay(log, "--select", "SL407")
    assert dict(_codes(report)) == {"SL407": 1} and code == 0  # a warning does not fail at error
    assert cli("replay", log, "--select", "SL407", "--fail-on", "warning").returncode == 1
    _, report = _replay(log, "--ignore", "json-string-argument")
    assert dict(_codes(report)) == {"SL406": 1}
    baseline = tmp_path / "baseline.json"
    assert cli("replay", log, "--write-baseline", str(baseline)).returncode == 0
    code, report = _replay(log, "--baseline", str(baseline))
    assert code == 0 and report["diagnostics"] == [] and report["summary"]["baseline"]["hidden"] == 2


def test_configured_select_does_not_switch_traffic_rules_off(tmp_path: Path) -> None:
    cfg = tmp_path / "schemalint.toml"
    cfg.write_text('select = ["SL0"]\n')
    _, report = _replay(str(EXAMPLES / "incident3-advisor-no-tools.gemini.json"), "--config", str(cfg))
    assert dict(_codes(report)) == {"SL401": 1}


def test_malformed_lines_are_located_and_the_rest_is_read(tmp_path: Path) -> None:
    good = json.dumps({"model": "m", "messages": [_call("c1", {"city": "x"}),
                                                  {"role": "tool", "tool_call_id": "c1", "content": "r"}]})
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([good, '{"model": "m", "messages": [', good, "not json at all", good, ""]))
    items = list(read_file(str(path)))
    problems = [i for i in items if isinstance(i, Problem)]
    assert [(p.line, p.column) for p in problems] == [(2, 29), (4, 1)]
    assert sum(isinstance(i, Conversation) for i in items) == 3
    code, report = _replay(str(path))
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("SL401", 1), ("SL000", 2), ("SL000", 4)]
    assert code == 1
    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [}')
    _, report = _replay(str(broken))
    assert [(d["code"], d["line"], d["column"]) for d in report["diagnostics"]] == [("SL000", 1, 15)]


# --------------------------------------------------------------------------- check does not read traffic as tools

def test_check_loads_no_call_as_a_tool_and_names_traffic_files(tmp_path: Path) -> None:
    mcp = [{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "create_issue", "arguments": {"type": "bug", "enum": "a"}}}]
    steps = {"steps": [{"name": "search", "arguments": {"type": "web", "query": "q"}}],
             "messages": [{"role": "function", "name": "lookup", "parameters": {"type": "object"}}]}
    paths = [_write(tmp_path, mcp, "mcp.jsonl"), _write(tmp_path, steps, "steps.json")]
    assert load(paths).tools == []
    loaded = load([str(EXAMPLES)])
    assert {(Path(t.origin.file).name, t.name) for t in loaded.tools} >= {
        ("incident2-bridged-name.mcp.jsonl", "create_task"), ("clean.gemini.json", "run_tests")}
    assert not any("/params" in t.origin.pointer or "/messages" in t.origin.pointer for t in loaded.tools)
    (note,) = [n for n in loaded.notes if "recorded tool traffic" in n]
    assert note.startswith("11 file(s) hold recorded tool traffic") and "schemalint replay" in note
    assert "incident1-present-answer.tools.json" not in note  # a manifest is not traffic


# --------------------------------------------------------------------------- inputs we did not write

@needs_repos
def test_real_recorded_traffic_in_the_shared_repos() -> None:
    markers = re.compile(rb'"tool_calls"|"tool_use"|"functionCall"|"function_call_output"|"tools/call"')
    files = sorted(str(p) for p in REPOS.rglob("*") if p.suffix in (".json", ".jsonl", ".yaml", ".yml")
                   and p.is_file() and p.stat().st_size < 5_000_000 and markers.search(p.read_bytes()))
    assert len(files) > 50
    report = replay(files)
    assert not internal_errors(report.diagnostics)
    assert not [d for d in report.diagnostics if d.code.startswith("SL4")], report.diagnostics  # read clean
    assert "conversation(s)" in report.notes[0] and int(report.notes[0].split()[1]) >= 50  # calls were read


def test_a_directory_walk_skips_files_that_do_not_parse_with_a_note(tmp_path: Path) -> None:
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {}, // a comment\n}')
    (tmp_path / "log.jsonl").write_text('{"model": "m", "messages": [\n')
    report = replay([str(tmp_path)])
    assert [(Path(d.file).name, d.code) for d in report.diagnostics] == [("log.jsonl", "SL000")]
    assert any(n.startswith("1 file(s) found in directories that do not parse were skipped") for n in report.notes)


def test_builtin_tools_and_provider_calls_are_not_judged(tmp_path: Path) -> None:
    anthropic = {"model": "m", "max_tokens": 10, "tools": [{"type": "memory_20250818", "name": "memory"}],
                 "messages": [{"role": "assistant", "content": [
                     {"type": "tool_use", "id": "t1", "name": "memory", "input": {"command": "view"}}]},
                     {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}]}
    responses = {"model": "m", "tools": [{"type": "tool_search"}], "input": [
        {"role": "user", "content": "find"},
        {"type": "tool_search_call", "call_id": "s1", "execution": "server", "arguments": {}},
        {"type": "tool_search_output", "call_id": "s1", "tools": []},
        {"role": "user", "content": "go on"}]}
    empty_legacy = {"choices": [{"message": {"role": "assistant", "content": "{}",
                                             "function_call": {"name": "", "arguments": ""}}}]}
    swe = [{"role": "assistant", "content": "x", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "edit", "arguments": "{}"}}]},
        {"role": "tool", "content": "done", "tool_call_ids": ["c1"]}, {"role": "user", "content": "next"}]
    paths = [_write(tmp_path, doc, f"{i}.json") for i, doc in enumerate([anthropic, responses, empty_legacy, swe])]
    assert replay(paths).diagnostics == []


def test_check_lints_a_tool_declared_in_every_request_of_a_recording_once(tmp_path: Path) -> None:
    from schemalint.api import check

    def request(description: str, turns: int) -> dict[str, Any]:
        messages: list[dict[str, Any]] = [{"role": "user", "content": "weather?"}]
        for i in range(turns):
            messages += [{"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": f"c{i}", "content": "sunny"}]
        return {"model": "gpt-4o", "messages": messages, "tools": [
            {"type": "function", "function": {"name": "get_weather", "description": description,
                                              "parameters": {"type": "object", "properties": {}}}}]}

    log = tmp_path / "cassette.jsonl"
    log.write_text("".join(json.dumps(request("", i)) + "\n" for i in range(3))
                   + json.dumps(request("Weather now.", 3)) + "\n")
    result = check([str(log)], select=["SL007"])
    # three byte-identical declarations with an empty description: one finding, at the first one;
    # the fourth request changed the definition, so it is read too (and is fine)
    assert [(d.code, d.line) for d in result.diagnostics] == [("SL007", 1)]
    assert result.tools == 2
    assert any("2 repeated declaration(s) left out" in n for n in result.notes)
    streamed = check([str(log)], select=["SL007"], stream=True)
    assert [d.to_json() for d in streamed.diagnostics] == [d.to_json() for d in result.diagnostics]
    assert streamed.notes == result.notes and streamed.tools == result.tools


def test_files_without_traffic_are_an_input_error(tmp_path: Path) -> None:
    """Files that hold no recorded traffic (a tool definition file, a configuration, a directory of
    them) exit 2 naming what was given, never a clean "0 tool(s)" run; the same files beside a real
    log are skipped as before, and an empty result stays available to API callers."""
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]))
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg" / "settings.yaml").write_text("retries: 3\n")
    for named in ([str(tools)], [str(tmp_path / "cfg")], [str(tools), str(tmp_path / "cfg")]):
        proc = cli("replay", *named)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert "no recorded traffic was found in " + ", ".join(named) in proc.stderr
        assert proc.stdout == ""
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"model": "m", "tools": [], "messages": [{"role": "user", "content": "hi"}]}) + "\n")
    proc = cli("replay", str(log), str(tools), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "1 conversation(s)" in json.loads(proc.stdout)["summary"]["notes"][0]
    assert replay([str(tools)]).diagnostics == []
