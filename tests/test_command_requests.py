"""The commands other than ``check`` as requests (issue 29, "thin commands"): ``diff``, ``snapshot``,
``replay``, ``probe`` and ``show`` parse their options into one frozen request and hand it to a run
function of :mod:`schemalint.api_commands`. These tests call the run functions without the CLI and
check that an API caller gets what the command prints and decides: the exit decision, the
summaries and notes, the errors with the command's message."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from schemalint.api_commands import (
    DiffRequest,
    ProbeRequest,
    ReplayRequest,
    ShowRequest,
    SnapshotRequest,
    run_diff,
    run_probe,
    run_replay,
    run_show,
    run_snapshot,
)
from schemalint.config import Config
from schemalint.engine.request import RequestError
from tests.conftest import ROOT, cli

EXAMPLES = ROOT / "examples"
STRICT = EXAMPLES / "openai" / "strict_tools.json"


def _tools(path: Path, required: list[str]) -> Path:
    path.write_text(json.dumps([{"type": "function", "function": {
        "name": "get_weather", "description": "Weather for a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
                       "required": required}}}]), encoding="utf-8")
    return path


def test_requests_are_frozen_values() -> None:
    request = DiffRequest(paths=("a.json", "b.json"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.base = "HEAD"  # type: ignore[misc]
    assert SnapshotRequest() == SnapshotRequest() and ProbeRequest().fail_on == "warning"


def test_run_diff_decides_the_exit_status_by_fail_on(tmp_path: Path) -> None:
    old = _tools(tmp_path / "old.json", ["city"])
    new = _tools(tmp_path / "new.json", ["city", "unit"])  # a new required parameter: breaking
    cfg = Config(root=tmp_path)
    run = run_diff(DiffRequest(paths=(str(old), str(new)), config=cfg))
    assert run.result is not None and run.fails and run.message is None
    assert not run_diff(DiffRequest(paths=(str(old), str(new)), fail_on="never", config=cfg)).fails
    assert not run_diff(DiffRequest(paths=(str(old), str(old)), fail_on="bytes", config=cfg)).fails
    proc = cli("diff", str(old), str(new), "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1  # the command exits as the run decided


def test_run_diff_refuses_what_the_command_refuses(tmp_path: Path) -> None:
    cfg = Config(root=tmp_path)
    with pytest.raises(RequestError, match=r"^unknown --fail-on 'sometimes'; choose from breaking, meaning, bytes, "):
        run_diff(DiffRequest(paths=(str(STRICT), str(STRICT)), fail_on="sometimes", config=cfg))
    with pytest.raises(RequestError, match="--mcp-header is sent to --mcp-url servers"):
        run_diff(DiffRequest(paths=(str(STRICT),), mcp_stdio=("python server.py",), mcp_headers={"A": "b"},
                             config=cfg))


def test_run_diff_base_with_only_servers_configured_says_nothing_to_diff(tmp_path: Path) -> None:
    cfg = Config(root=tmp_path, mcp_stdio=["python server.py"])
    run = run_diff(DiffRequest(base="HEAD", config=cfg))
    assert run.result is None and not run.fails
    assert run.message is not None and run.message.startswith("nothing to diff against HEAD: `diff --base` compares")


def test_run_snapshot_writes_then_reports_stale_with_the_command_to_run(tmp_path: Path) -> None:
    source = _tools(tmp_path / "tools.json", ["city"])
    snaps = tmp_path / "snaps"
    cfg = Config(root=tmp_path)
    written = run_snapshot(SnapshotRequest(sources=(str(source),), directory=snaps, config=cfg))
    assert not written.fails and written.text() == f"{snaps}: 1 written, 0 unchanged, 0 removed (1 tools)\n"
    assert run_snapshot(SnapshotRequest(sources=(str(source),), directory=snaps, check=True, config=cfg)).text() == (
        f"1 snapshot(s) up to date in {snaps}\n")
    _tools(source, ["city", "unit"])
    stale = run_snapshot(SnapshotRequest(sources=(str(source),), directory=snaps, check=True, config=cfg))
    assert stale.fails and stale.rerun == f"schemalint snapshot {source} --dir {snaps}"
    assert f"{snaps / 'get_weather.json'}: stale\n" in stale.text()
    assert stale.text().endswith(f"run `{stale.rerun}` and commit the result\n")
    proc = cli("snapshot", str(source), "--dir", str(snaps), "--check", "--config", str(_config(tmp_path)),
               cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == stale.text()  # the command prints the run's text


def _config(folder: Path) -> Path:
    path = folder / "schemalint.toml"
    path.write_text("[tool.schemalint]\n", encoding="utf-8")
    return path


def test_run_snapshot_needs_a_directory_and_something_to_read(tmp_path: Path) -> None:
    from schemalint.diff.errors import DiffError

    with pytest.raises(DiffError, match="no snapshot directory: give --dir DIR"):
        run_snapshot(SnapshotRequest(config=Config(root=tmp_path)))
    with pytest.raises(RequestError, match=r"^no sources given and none configured"):
        run_snapshot(SnapshotRequest(directory=tmp_path / "snaps", config=Config(root=tmp_path)))


def test_run_replay_decides_and_writes_the_baseline(tmp_path: Path) -> None:
    log = tmp_path / "requests.jsonl"
    shutil.copy(EXAMPLES / "traffic" / "incident1-present-answer.openai-chat.jsonl", log)
    cfg = Config(root=tmp_path)
    run = run_replay(ReplayRequest(logs=(str(log),), config=cfg))
    assert run.result.diagnostics and run.fails == any(d.severity.value == "error" for d in run.result.diagnostics)
    assert not run_replay(ReplayRequest(logs=(str(log),), fail_on="never", config=cfg)).fails
    assert run_replay(ReplayRequest(logs=(str(log),), fail_on="info", config=cfg)).fails
    baseline = tmp_path / "baseline.json"
    written = run_replay(ReplayRequest(logs=(str(log),), write_baseline=str(baseline), config=cfg))
    assert not written.fails and written.result.baseline_written and baseline.is_file()
    hidden = run_replay(ReplayRequest(logs=(str(log),), baseline=str(baseline), fail_on="info", config=cfg))
    assert not hidden.result.diagnostics and not hidden.fails  # the baseline hides what it recorded
    with pytest.raises(RequestError, match="unknown --fail-on"):
        run_replay(ReplayRequest(logs=(str(log),), fail_on="breaking", config=cfg))


def test_run_replay_refuses_to_write_the_baseline_over_a_log(tmp_path: Path) -> None:
    from schemalint.safe_write import WriteRefused

    log = tmp_path / "requests.jsonl"
    shutil.copy(EXAMPLES / "traffic" / "clean.openai-chat.jsonl", log)
    before = log.read_bytes()
    with pytest.raises(WriteRefused):
        run_replay(ReplayRequest(logs=(str(log),), write_baseline=str(log), config=Config(root=tmp_path)))
    assert log.read_bytes() == before


def test_run_probe_refuses_servers_alone_and_decides(tmp_path: Path) -> None:
    with pytest.raises(RequestError, match=r"^give the module:attr Python sources \(or files\) to probe$"):
        run_probe(ProbeRequest())
    with pytest.raises(RequestError, match=r"^nothing to probe: --mcp-stdio 'python -m examples.mcp_server.server' "
                       r".*schemalint probe examples.mcp_server.server:$"):
        run_probe(ProbeRequest(mcp_stdio=("python -m examples.mcp_server.server",)))
    request = ProbeRequest(sources=("shop_tools:",), python_path=(str(EXAMPLES / "pydantic"),), max_examples=0,
                           config=Config(root=tmp_path))
    run = run_probe(request)
    assert run.result.probed and any(d.code == "SL107" for d in run.result.diagnostics)
    assert run.fails and not run.notes  # the examples hold faulty models; no server listed
    assert not run_probe(dataclasses.replace(request, fail_on="never")).fails


def test_run_show_finds_the_tool_or_names_close_ones(tmp_path: Path) -> None:
    source = _tools(tmp_path / "tools.json", ["city"])
    views = run_show(ShowRequest("get_weather", sources=(str(source),), config=Config(root=tmp_path)))
    assert [v.tool.name for v in views] == ["get_weather"] and views[0].advertised["required"] == ["city"]
    with pytest.raises(RequestError, match=r"^no tool named 'get_wether' in .*\(1 tools\); did you mean get_weather"):
        run_show(ShowRequest("get_wether", sources=(str(source),), config=Config(root=tmp_path)))


def test_check_and_replay_share_the_baseline_steps(tmp_path: Path) -> None:
    """`check` and `replay` choose, apply and write the baseline with the same functions
    (engine/request.py `baseline_to_apply`, `settle`): the configured baseline applies to both
    unless `no_baseline` or a baseline is being written; the written one hides what it recorded."""
    from schemalint.api import CheckRequest, check_request
    from schemalint.engine.request import baseline_to_apply

    log = tmp_path / "requests.jsonl"
    shutil.copy(EXAMPLES / "traffic" / "incident1-present-answer.openai-chat.jsonl", log)
    tools = _tools(tmp_path / "tools.json", ["city", "nowhere"])
    plain = Config(root=tmp_path)
    for name, run in (("replay.json", lambda cfg, **kw: run_replay(ReplayRequest(logs=(str(log),), config=cfg,
                                                                                   fail_on="info", **kw))),
                      ("check.json", lambda cfg, **kw: check_request(CheckRequest(sources=(str(tools),), config=cfg,
                                                                                  fail_on="info", **kw)))):
        found = run(plain)
        result = found.result if hasattr(found, "result") else found
        assert result.diagnostics and result.fails, name
        written = run(plain, write_baseline=str(tmp_path / name))
        written = written.result if hasattr(written, "result") else written
        assert written.baseline_written and written.fails is False
        configured = Config(root=tmp_path, baseline=name)
        assert Path(str(baseline_to_apply(configured, None))).resolve() == (tmp_path / name).resolve()
        hidden = run(configured)
        hidden = hidden.result if hasattr(hidden, "result") else hidden
        assert not hidden.diagnostics and hidden.fails is False, name
        shown = run(configured, no_baseline=True)
        shown = shown.result if hasattr(shown, "result") else shown
        assert len(shown.diagnostics) == len(result.diagnostics) and shown.fails, name
    assert baseline_to_apply(Config(root=tmp_path, baseline="b.json"), "mine.json") == "mine.json"
    assert baseline_to_apply(Config(root=tmp_path, baseline="b.json"), "mine.json", write_baseline="w.json") is None
