"""`--format github` within GitHub's limits: at most 10 annotations of a level per step, the count
of those left out, and the full list appended to `$GITHUB_STEP_SUMMARY` (issue 15)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.conftest import ROOT, cli


def _run(*args: str, cwd: Path, summary: Path | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE")}
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    return cli(*args, cwd=cwd, env=env, timeout=300)


def _tools(n: int) -> list[dict]:
    return [{"name": f"bad name {i}", "description": f"Look up record {i} by its key.",
             "inputSchema": {"type": "object", "properties": {"key": {"type": "string", "description": "Key."}},
                             "required": ["key", f"missing_{i}"]}} for i in range(n)]


def test_check_annotates_at_most_ten_per_level_and_summarises_all(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text("")
    (tmp_path / "tools.json").write_text(json.dumps({"tools": _tools(25)}, indent=2))
    expected = json.loads(_run("check", "tools.json", "--format", "json", cwd=tmp_path, summary=None).stdout)
    errors = [d for d in expected["diagnostics"] if d["severity"] == "error"]
    assert len(errors) > 20
    summary = tmp_path / "summary.md"
    summary.write_text("## an earlier step\n\nkept\n")
    proc = _run("check", "tools.json", "--format", "github", cwd=tmp_path, summary=summary)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    annotations = [line for line in lines if line.startswith("::error ")]
    assert len(annotations) == 10
    left = len(errors) - 9
    assert f"{left} more error annotation(s) not shown" in annotations[-1]
    plain = [line for line in lines if line.startswith("tools.json:") and ": error " in line]
    assert len(plain) == left
    hinted = [line for line in plain if "(hint: " in line]  # one line each, the hint on it
    assert hinted and not any("%0A" in line for line in plain)
    warnings = [d for d in expected["diagnostics"] if d["severity"] == "warning"]
    assert len([line for line in lines if line.startswith("::warning ")]) == min(10, len(warnings))
    not_annotated = left + (len(warnings) - 9 if len(warnings) > 10 else 0)
    assert f"; {not_annotated} not annotated" in next(line for line in lines if line.startswith("schemalint: "))
    text = summary.read_text()
    assert text.startswith("## an earlier step\n\nkept\n")  # appended, never truncated
    rows = [line for line in text.splitlines() if line.startswith("| error |")]
    assert len(rows) == len(errors)
    assert "bad name 24" in text


def test_without_a_summary_file_and_few_findings_nothing_changes(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text("")
    (tmp_path / "tools.json").write_text(json.dumps({"tools": _tools(2)}, indent=2))
    proc = _run("check", "tools.json", "--format", "github", cwd=tmp_path, summary=None)
    lines = proc.stdout.splitlines()
    assert not any("more error" in line for line in lines)
    assert all(line.startswith(("::", "schemalint: ")) for line in lines)


def test_diff_annotations_are_limited_too(tmp_path: Path) -> None:
    old = {"tools": [{"name": f"t{i}", "description": "d", "inputSchema": {
        "type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}} for i in range(12)]}
    (tmp_path / "old.json").write_text(json.dumps(old, indent=2))
    (tmp_path / "new.json").write_text(json.dumps({"tools": []}))
    summary = tmp_path / "s.md"
    proc = _run("diff", "old.json", "new.json", "--format", "github", cwd=tmp_path, summary=summary)
    assert proc.returncode == 1
    annotations = [line for line in proc.stdout.splitlines() if line.startswith("::error ")]
    assert len(annotations) == 10 and "3 more error annotation(s)" in annotations[-1]
    assert summary.read_text().count("| error | SD101 tool-removed |") == 12


def test_repository_examples_stay_within_the_limits() -> None:
    proc = _run("check", "--format", "github", cwd=ROOT, summary=None)
    for level in ("error", "warning", "notice"):
        assert sum(1 for line in proc.stdout.splitlines() if line.startswith(f"::{level} ")) <= 10
