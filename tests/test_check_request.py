"""``schemalint check`` is a thin command: its options become one :class:`CheckRequest` handed to
``api.check_request``, and what the command prints an API caller gets too (issue 29).

Real files in a temporary project, the real configuration loader and the real CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from schemalint import api
from schemalint.config import load_config
from schemalint.engine.baseline import Baseline
from schemalint.safe_write import WriteRefused
from tests.conftest import cli

BAD = [{"type": "function", "function": {"name": "get_user", "description": "Get a user.",
                                         "parameters": {"type": "object", "properties": {},
                                                        "required": ["id"]}}}]


def _project(tmp_path: Path) -> Path:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "tools.json").write_text(json.dumps(BAD), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\n', encoding="utf-8")
    return tmp_path


def test_an_api_caller_writes_the_same_baseline_as_the_command(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    cfg = load_config(None)
    result = api.check_request(api.CheckRequest(sources=("tools",), config=cfg, write_baseline="api-baseline.json"))
    assert result.baseline_written is not None and result.baseline_written >= 1
    assert result.diagnostics, "the findings recorded are still reported to the caller"
    proc = cli("check", "tools", "--write-baseline", "cli-baseline.json", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert f"as {result.baseline_written} baseline entr" in proc.stderr
    assert (root / "api-baseline.json").read_text() == (root / "cli-baseline.json").read_text()
    recorded = Baseline.read(root / "api-baseline.json")
    assert len(recorded.entries) == result.baseline_written
    # the baseline it wrote hides those findings on the next request, which applies the configured one
    again = api.check_request(api.CheckRequest(sources=("tools",), config=cfg, baseline="api-baseline.json"))
    assert again.diagnostics == [] and again.baselined == len(result.diagnostics)


def test_the_write_policy_refuses_a_source_as_the_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    before = (root / "tools" / "tools.json").read_bytes()
    with pytest.raises(WriteRefused):
        api.check_request(api.CheckRequest(sources=("tools/tools.json",), config=load_config(None),
                                           write_baseline="tools/tools.json"))
    assert (root / "tools" / "tools.json").read_bytes() == before


def test_an_api_check_of_nothing_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "server.ts").write_text("export const x = 1;\n", encoding="utf-8")
    result = api.check([str(empty)])
    assert result.tools == 0
    assert result.notes[0] == f"no tool definitions found in {empty}"
    assert any("server.ts" in n for n in result.notes[1:]), result.notes  # the TypeScript hint


@pytest.mark.parametrize(("field", "value", "message"), [
    ("jobs", 0, "--jobs must be at least 1, not 0"),
    ("targets", ("opena",), "unknown target"),
    ("dialect", "draft-99", "unknown --dialect 'draft-99'"),
])
def test_a_bad_request_is_one_error_naming_the_option(tmp_path: Path, field: str, value: object,
                                                      message: str) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(BAD), encoding="utf-8")
    with pytest.raises(api.RequestError, match=message.replace("(", r"\(")):
        api.check_request(api.CheckRequest(sources=(str(tmp_path / "tools.json"),), **{field: value}))


def test_the_request_is_frozen_and_extended_by_copy() -> None:
    request = api.CheckRequest(sources=("a.json",))
    with pytest.raises(AttributeError):
        request.jobs = 2  # type: ignore[misc]
    wider = request.with_(jobs=2, exclude=("b/*",))
    assert (wider.jobs, wider.exclude, request.jobs) == (2, ("b/*",), None)
    assert os.fspath(wider.sources[0]) == "a.json"


def test_the_exit_decision_is_the_requests_as_for_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project(tmp_path)
    monkeypatch.chdir(root)
    (root / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\nfail-on = "never"\n',
                                         encoding="utf-8")
    cfg = load_config(None)
    request = api.CheckRequest(sources=("tools",), config=cfg)
    assert api.check([str(root / "tools")]).fails is None, "a bare engine check decides nothing"
    assert api.check_request(request).fails is False  # the configuration's fail-on: never
    assert cli("check", "tools", cwd=root).returncode == 0
    failing = api.check_request(request.with_(fail_on="error"))
    assert failing.fails is True and any(d.severity.value == "error" for d in failing.diagnostics)
    assert cli("check", "tools", "--fail-on", "error", cwd=root).returncode == 1
    assert api.check_request(request.with_(fail_on="error", write_baseline="b.json")).fails is False
    with pytest.raises(api.RequestError, match=r"^unknown --fail-on 'fatal'; choose from error, warning, info, never$"):
        api.check_request(request.with_(fail_on="fatal"))
