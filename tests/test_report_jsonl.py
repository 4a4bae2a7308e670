"""`check --format jsonl`: one diagnostic per line, the JSON report's fields, mergeable by concatenation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from schemalint.api import check
from schemalint.model import Diagnostic, Severity
from schemalint.report import REPORTERS, get_reporter
from schemalint.report.jsonl import line
from tests.conftest import ROOT, cli


def _lines(stdout: str) -> list[dict]:
    assert stdout.endswith("\n") or stdout == ""
    return [json.loads(text) for text in stdout.splitlines()]


def test_jsonl_lines_are_the_json_reports_diagnostics_in_order() -> None:
    as_json = cli("check", "examples", "--target", "all", "--format", "json")
    as_jsonl = cli("check", "examples", "--target", "all", "--format", "jsonl")
    assert as_json.returncode == as_jsonl.returncode == 1
    expected = json.loads(as_json.stdout)["diagnostics"]
    got = _lines(as_jsonl.stdout)
    assert len(got) > 50 and got == expected
    # exactly the report's keys, in its order, and every line has a file (and a tool where one applies)
    assert all(list(d) == list(expected[0]) for d in got)
    assert all(d["file"] for d in got) and any(d["tool"] for d in got)
    assert "summary" not in as_jsonl.stdout.splitlines()[-1]


def test_concatenated_shards_hold_the_diagnostics_of_one_run(tmp_path: Path) -> None:
    # two shards of per-file sources: per-tool and per-file findings do not depend on the other shard
    names = ["examples/mcp", "examples/openai"]
    whole = _lines(cli("check", *names, "--format", "jsonl").stdout)
    shards = "".join(cli("check", n, "--format", "jsonl").stdout for n in names)
    key = lambda d: (d["file"], d["line"], d["column"], d["code"], d["pointer"], d["message"])  # noqa: E731
    assert sorted(_lines(shards), key=key) == sorted(whole, key=key) and whole


def test_clean_run_writes_nothing(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "mcp" / "get_me.snap", tmp_path / "get_me.snap")
    result = check([str(tmp_path)])
    assert not result.diagnostics
    proc = cli("check", str(tmp_path), "--format", "jsonl")
    assert proc.returncode == 0 and proc.stdout == ""


def test_a_line_keeps_non_ascii_and_falls_back_for_a_lone_surrogate() -> None:
    d = Diagnostic("SL201", "x", Severity.WARNING, "t\u00e9", "f.json", "/p", "m\u00fcnchen", line=1, column=2)
    assert json.loads(line(d)) == d.to_json() and "\u00fc" in line(d) and "\n" not in line(d)
    odd = Diagnostic("SL201", "x", Severity.WARNING, "t", "f.json", "/p", "lone \ud800 surrogate")
    text = line(odd)
    assert json.loads(text)["message"] == "lone \ud800 surrogate" and "\n" not in text
    assert "jsonl" in REPORTERS and get_reporter("jsonl") is not None
