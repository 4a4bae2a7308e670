"""`check --statistics` (counts per rule, as ruff) and the source `-` with --stdin-filename (as
ruff and check-jsonschema read standard input), issue 32."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, cli

FAULTY = {"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {}, "required": ["x"]}},
                    {"name": "b", "inputSchema": {"type": "object", "properties": {}, "required": ["y"]}}]}


def _run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return cli(*args, input=stdin, cwd=cwd, timeout=300)


def test_statistics_count_what_the_report_lists(tmp_path: Path) -> None:
    full = json.loads(_run("check", "examples/openai", "examples/poisoning", "--format", "json").stdout)
    expected = full["summary"]["by_code"]
    text = _run("check", "examples/openai", "examples/poisoning", "--statistics")
    assert text.returncode == 1  # the exit code is as without --statistics
    rows = [line.split() for line in text.stdout.splitlines()]
    assert {code: int(count) for count, code, *_ in rows} == expected
    counts = [int(r[0]) for r in rows]
    assert counts == sorted(counts, reverse=True)
    as_json = json.loads(_run("check", "examples/openai", "examples/poisoning", "--statistics",
                              "--format", "json").stdout)
    assert {r["code"]: r["count"] for r in as_json} == expected
    assert _run("check", "examples/openai", "--statistics", "--format", "sarif").returncode == 2


def test_stdin_is_reported_under_its_stdin_filename(tmp_path: Path) -> None:
    proc = _run("check", "-", "--stdin-filename", "tools/mine.json", "--format", "json", stdin=json.dumps(FAULTY),
                cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert {d["file"] for d in report["diagnostics"]} == {"tools/mine.json"}
    assert {d["code"] for d in report["diagnostics"]} >= {"SL003"}
    assert "schemalint-stdin-" not in proc.stdout + proc.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran
    yaml_in = "tools:\n  - name: a\n    description: Add.\n    inputSchema: {type: object}\n"
    ok = _run("check", "-", "--stdin-filename", "t.yaml", stdin=yaml_in, cwd=tmp_path)
    assert ok.returncode == 0 and "1 tool(s)" in ok.stdout, ok.stdout + ok.stderr
    sarif = json.loads(_run("check", "-", "--format", "sarif", stdin=json.dumps(FAULTY), cwd=tmp_path).stdout)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in sarif["runs"][0]["results"]}
    assert uris and all("schemalint-stdin" not in u for u in uris), uris
    assert _run("check", "tools.json", "--stdin-filename", "x.json", cwd=tmp_path).returncode == 2


def test_shell_completion_completes_commands_and_options() -> None:
    """typer's completion (README, "Shell completion"): the script it installs, and the answers
    it gives the shell through _SCHEMALINT_COMPLETE."""
    import os
    from pathlib import Path as _Path

    exe = str(_Path(sys.executable).parent / "schemalint")  # the console script, as a shell runs it
    script = subprocess.run([exe, "--show-completion", "bash"], capture_output=True, text=True, timeout=120)
    assert script.returncode == 0 and "_SCHEMALINT_COMPLETE=complete_bash" in script.stdout
    env = {**os.environ, "_SCHEMALINT_COMPLETE": "complete_bash", "COMP_WORDS": "schemalint ch", "COMP_CWORD": "1"}
    proc = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=120)
    assert "check" in proc.stdout.split(), proc.stdout + proc.stderr
    env.update(COMP_WORDS="schemalint check --stat", COMP_CWORD="2")
    proc = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=120)
    assert "--statistics" in proc.stdout.split(), proc.stdout + proc.stderr
