"""An exception inside a rule is SL999 internal-error, counted, and never configured away."""

from __future__ import annotations

import json
from pathlib import Path

from schemalint.api import check
from schemalint.engine import run_rules
from schemalint.model import Origin, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.shape.sl007_missing_description import MissingDescription
from schemalint.rules.shape.sl999_internal_error import InternalError
from tests.conftest import cli, cli_json

TOOL = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {}}}


class Broken(Rule):
    code = "SL007"
    name = "missing-description"

    def check_tool(self, tool: Tool, ctx: Context):  # type: ignore[no-untyped-def]
        raise KeyError("boom")

    def check_catalog(self, tools, ctx):  # type: ignore[no-untyped-def]
        raise ValueError("catalog boom")


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([TOOL]))
    return path


def test_crash_is_sl999_naming_rule_exception_and_frame(tmp_path: Path) -> None:
    result = check([str(_file(tmp_path))], rules=[Broken(), MissingDescription()])
    crashes = [d for d in result.diagnostics if d.code == "SL999"]
    assert len(crashes) == 2, result.diagnostics
    tool_crash = next(d for d in crashes if d.tool)
    assert tool_crash.severity.value == "error" and tool_crash.name == "internal-error"
    assert tool_crash.tool == "get_weather" and tool_crash.pointer == "/0" and tool_crash.line == 1
    assert "SL007 missing-description crashed" in tool_crash.message
    assert "KeyError: 'boom'" in tool_crash.message and "test_internal_error.py:" in tool_crash.message
    assert "please report" in tool_crash.message
    assert not [d for d in result.diagnostics if d.code == "SL007" and "boom" in d.message]
    # the working rule still reports: a crash does not lose other findings
    assert [d.code for d in result.diagnostics if d.code == "SL007"] == ["SL007"]


def test_sl999_cannot_be_ignored_or_regraded(tmp_path: Path) -> None:
    from schemalint.config import Config

    path = _file(tmp_path)
    for kwargs in ({"ignore": ["SL999"]}, {"select": ["SL007"]}):
        result = check([str(path)], rules=[Broken(), InternalError()], **kwargs)  # type: ignore[arg-type]
        assert [d.code for d in result.diagnostics] == ["SL999", "SL999"], kwargs
    cfg = Config(severity={"SL999": Severity.INFO, "SL007": Severity.INFO})
    result = check([str(path)], rules=[Broken(), InternalError()], config=cfg)
    assert {d.severity.value for d in result.diagnostics} == {"error"}


def test_cli_counts_internal_errors_in_both_summaries(tmp_path: Path) -> None:
    path = _file(tmp_path)
    code, report = cli_json("check", str(path), "--fail-rule", "SL007", "--ignore", "SL999")
    assert code == 1
    assert report["summary"]["internal_errors"] == 1 and report["summary"]["by_code"]["SL999"] == 1
    proc = cli("check", str(path), "--fail-rule", "SL007")
    assert "internal errors: 1" in proc.stdout and "Traceback" not in proc.stderr
    code, report = cli_json("check", str(path))
    assert report["summary"]["internal_errors"] == 0


def test_tool_without_schema_first_in_a_run_does_not_crash_provider_rules(tmp_path: Path) -> None:
    """The SL309 'NoneType has no attribute nodes' crash: a recorded chat-completions tool call
    with no parameters was the first schema indexed, and hit the index cache's empty slot (each
    run has its own cache: run_rules makes the fresh Context's run the current one)."""
    tool = Tool(name="weather", description=None, advertised=None,
                origin=Origin("f.json", "/0", "openai-chat", None),
                schema_path="/function/parameters")
    from schemalint.rules.registry import all_rules

    diags = list(run_rules(list(all_rules()), [tool], Context()))
    assert not [d for d in diags if d.code == "SL999"], diags
