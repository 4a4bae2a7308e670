"""Issue 28: SL107's probes share one run budget across the tools of a run, and what the budget
skipped is counted (a probe that did not run is not a pass). Real pydantic models whose validators
are slow, read from a module in a tmp folder through the CLI (worker process)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("pydantic")

from tests.conftest import run_cli

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
    proc = run_cli("check", "slow_tools:TOOLS", "--python-path", str(tmp_path), "--format", "json", cwd=tmp_path)
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
