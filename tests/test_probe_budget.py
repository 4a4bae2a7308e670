"""Issue 28: SL107's probes share one run budget across the tools of a run, and what the budget
skipped is counted (a probe that did not run is not a pass). Real pydantic models whose validators
are slow, read from a module in a tmp folder through the CLI (worker process)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("pydantic")

from tests._fixtures_cli import run_cli_here

SLOW = '''\
import time

from pydantic import BaseModel, model_validator


def _slow(cls, data):
    time.sleep(0.1)
    return data


TOOLS = []
for i in range(12):
    TOOLS.append(type(f"Tool{i}", (BaseModel,), {
        "__doc__": f"Tool number {i}.",
        "__annotations__": {f"k{j}": "int | None" for j in range(6)},
        **{f"k{j}": None for j in range(6)},
        "slow": model_validator(mode="before")(classmethod(_slow)),
    }))
'''


def test_the_run_budget_is_shared_and_what_it_skipped_is_counted(tmp_path: Path) -> None:
    (tmp_path / "slow_tools.py").write_text(SLOW)
    (tmp_path / "pyproject.toml").write_text("[tool.schemalint.options.SL107]\nrun_budget = 2.4\n")
    started = time.monotonic()
    proc = run_cli_here("check", "slow_tools:TOOLS", "--python-path", str(tmp_path), "--format", "json", cwd=tmp_path)
    elapsed = time.monotonic() - started
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 12, proc.stderr
    stopped = [d for d in report["diagnostics"] if d["code"] == "SL107" and "probing stopped" in d["message"]]
    # 12 tools share 2.4 s: 0.2 s each, time for about two 0.1 s calls of the eight planned
    assert len(stopped) == 12, report["diagnostics"]
    first = stopped[0]
    assert first["severity"] == "info"
    assert "(0.2 s: the run's 2.4 s shared by 12 probed tool(s), at most 2 s each)" in first["message"]
    assert " of 8 calls made; the calls not made are not a pass" in first["message"]
    assert not [d for d in report["diagnostics"] if d["code"] == "SL107" and d["severity"] != "info"]
    # without the share, 12 tools x 8 calls x 0.1 s = 9.6 s of probing alone (plus the loader's probes)
    assert elapsed < 60


needs_generator = pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("hypothesis_jsonschema") is None,
    reason="generated probes need hypothesis-jsonschema (the pydantic extra)")


@needs_generator
def test_probe_command_shares_its_run_budget_and_counts_what_it_stopped(tmp_path: Path) -> None:
    (tmp_path / "slow_tools.py").write_text(SLOW)
    started = time.monotonic()
    proc = run_cli_here("probe", "slow_tools:TOOLS", "--python-path", str(tmp_path), "--max-examples", "5",
                        "--run-budget", "2.4", "--format", "json", "--fail-on", "never", cwd=tmp_path)
    elapsed = time.monotonic() - started
    report = json.loads(proc.stdout)
    assert report["summary"]["probed"] == 12, proc.stderr
    budget = report["summary"]["budget"]
    assert budget["seconds"] == 2.4
    # 0.2 s a tool: two 0.1 s calls of the omission probes' 8 and none of the 5 generated
    assert budget["tools_stopped"] == 12 and budget["calls_not_made"] >= 12 * 5
    assert all(row["budget_stopped"] for row in report["tools"])
    assert report["summary"]["seconds"] < 2.4 + 12 * 0.2  # a call in flight may finish
    assert elapsed < 60
    text = run_cli_here("probe", "slow_tools:TOOLS", "--python-path", str(tmp_path), "--max-examples", "5",
                        "--run-budget", "1.2", "--fail-on", "never", cwd=tmp_path)
    assert "stopped the probes of 12 tool(s)" in text.stdout and "raise it with --run-budget" in text.stdout


@needs_generator
def test_a_large_budget_stops_nothing(tmp_path: Path) -> None:
    (tmp_path / "fast_tools.py").write_text(SLOW.replace("time.sleep(0.1)", "pass"))
    # a budget that gives every tool its whole time limit (the default 30 s gives 12 tools 2.5 s
    # each, which a starved machine's hypothesis can spend: then counted, rightly)
    proc = run_cli_here("probe", "fast_tools:TOOLS", "--python-path", str(tmp_path), "--max-examples", "5",
                        "--run-budget", "300", "--format", "json", "--fail-on", "never", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert report["summary"]["budget"] == {"seconds": 300.0, "tools_stopped": 0, "calls_not_made": 0}
    assert all(row["generated"] is not None and not row["budget_stopped"] for row in report["tools"])


def test_the_loaders_probes_share_a_load_budget(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    (tmp_path / "slow_tools.py").write_text(SLOW)
    # the subject is the probe budget, not start-up: the worker's import gets room on a loaded machine
    env = {**os.environ, "SCHEMALINT_LOAD_PROBE_BUDGET": "0.6", "SCHEMALINT_IMPORT_TIME_LIMIT": "60"}
    proc = subprocess.run([sys.executable, "-m", "schemalint", "check", "slow_tools:TOOLS", "--python-path",
                           str(tmp_path), "--format", "json", "--select", "SL000"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode in (0, 1) and proc.stdout, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 12, proc.stderr
    cut = [d for d in report["diagnostics"] if d["code"] == "SL000" and d.get("kind") == "unchecked"]
    assert len(cut) == 1, report["diagnostics"]
    assert "the omission probes run while loading were cut short" in cut[0]["message"]
    assert "planned call(s) not made" in cut[0]["message"] and cut[0]["severity"] == "warning"


def test_verbose_names_the_python_workers_phases(tmp_path: Path) -> None:
    (tmp_path / "slow_tools.py").write_text(SLOW)
    proc = run_cli_here("--verbose", "check", "slow_tools:TOOLS", "--python-path", str(tmp_path), "--select",
                        "SL000", cwd=tmp_path)
    line = next((x for x in proc.stderr.splitlines() if x.startswith("schemalint: slow_tools:TOOLS: ")), "")
    assert line, proc.stderr
    for phase in ("python start", "import", "discovery", "schema rendering", "probes"):
        assert f"{phase} " in line and " s" in line, line
    seconds = {name: float(value) for name, value in
               (part.rsplit(" ", 2)[:2] for part in line.split(": ", 2)[2].split("; ")[0].split(", "))}
    # the loader's omission probes call each slow validator (0.1 s a call) several times
    assert seconds["probes"] > 12 * 0.1
    assert seconds["import"] < seconds["probes"]
    quiet = run_cli_here("check", "slow_tools:TOOLS", "--python-path", str(tmp_path), "--select", "SL000", cwd=tmp_path)
    assert "schema rendering" not in quiet.stderr
