"""Findings repeated in copies of a tool (datasets: BFCL, ACEBench, Gorilla) are reported once.

Every check reporter renders the folded result (:mod:`schemalint.report.copies`): one entry per
finding with the places of its copies; the exit code, the API's result and baselines keep every
copy. Real input: a JSON Lines dataset and a JSON array of our own, and the BFCL file of the
shared corpus that repeats ``requests.get`` most.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema

from schemalint.api import check
from tests.conftest import CORPUS, ROOT, cli, cli_json, needs_shared

SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
GET = {"name": "requests.get", "description": "Fetch a URL.",
       "parameters": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}}
FINE = {"name": "ok_tool", "description": "Fine.", "parameters": {"type": "object", "properties": {}}}


def _dataset(tmp_path: Path) -> Path:
    """Four questions offering ``requests.get``, at index 0 on some lines and 1 on others."""
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps({"id": i, "function": [FINE, GET] if i % 2 else [GET]}) + "\n"
                            for i in range(4)))
    return path


def test_every_format_reports_a_repeated_finding_once_with_its_copies(tmp_path: Path) -> None:
    path = str(_dataset(tmp_path))
    raw = check([path]).diagnostics
    assert [(d.code, d.line) for d in raw] == [("SL006", 1), ("SL006", 2), ("SL006", 3), ("SL006", 4)]

    code, report = cli_json("check", path)
    assert code == 0
    [d] = report["diagnostics"]
    assert (d["code"], d["pointer"], d["line"]) == ("SL006", "/function/0/name", 1)
    assert [(c["pointer"], c["line"]) for c in d["copies"]] == [
        ("/function/1/name", 2), ("/function/0/name", 3), ("/function/1/name", 4)]
    assert (report["summary"]["diagnostics"], report["summary"]["copies"]) == (1, 3)

    text = cli("check", path)
    assert "also in 3 other copies of this tool: line 2, line 3, line 4" in text.stdout
    assert "1 diagnostic(s) (1 warning); 3 more in repeated copies of a tool" in text.stdout
    assert text.stdout.count("SL006 invalid-tool-name") == 1


    lines = cli("check", path, "--format", "jsonl").stdout.splitlines()
    assert [json.loads(line) for line in lines] == report["diagnostics"]

    sarif = json.loads(cli("check", path, "--format", "sarif").stdout)
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(sarif)
    [result] = sarif["runs"][0]["results"]
    assert [r["physicalLocation"]["region"]["startLine"] for r in result["relatedLocations"]] == [2, 3, 4]
    assert result["properties"]["copies"] == 3

    github = cli("check", path, "--format", "github").stdout
    assert github.count("::warning ") == 1 and "also in 3 other copies of this tool" in github


def test_the_exit_code_and_the_baseline_keep_every_copy(tmp_path: Path) -> None:
    path = str(_dataset(tmp_path))
    assert cli("check", path, "--fail-on", "warning").returncode == 1
    assert cli("check", path).returncode == 0
    baseline = tmp_path / "baseline.json"
    wrote = cli("check", path, "--write-baseline", str(baseline))
    assert "wrote 4 finding(s)" in wrote.stderr, wrote.stderr
    assert cli("check", path, "--baseline", str(baseline), "--fail-on", "warning").returncode == 0


def test_findings_at_different_places_of_one_tool_are_not_copies(tmp_path: Path) -> None:
    """Copies are told by the place *in* the tool: the same fault at `p` and at `q` of one tool
    stays two findings; the tool repeated at index 2 of the array gives each one copy."""
    bad = {"type": "function", "function": {"name": "a.b", "description": "x", "parameters": {
        "type": "object", "properties": {"p": {"type": "string", "enum": [1]}, "q": {"type": "string", "enum": [1]}}}}}
    other = {"type": "function", "function": {"name": "other", "description": "y",
                                              "parameters": {"type": "object", "properties": {}}}}
    path = tmp_path / "arr.json"
    path.write_text(json.dumps([bad, other, bad], indent=1))
    code, report = cli_json("check", str(path))
    assert code == 1  # SL005 (error): a name repeated in one tools list is a finding of its own
    by_pointer = {d["pointer"]: [c["pointer"] for c in d.get("copies", [])] for d in report["diagnostics"]}
    assert by_pointer == {
        "/0/function/name": ["/2/function/name"],
        "/0/function/parameters/properties/p": ["/2/function/parameters/properties/p"],
        "/0/function/parameters/properties/q": ["/2/function/parameters/properties/q"],
        "/2": [],
    }


@needs_shared
def test_bfcl_reports_each_fault_once() -> None:
    path = str(CORPUS / "bfcl" / "BFCL_v4_live_irrelevance.json")
    raw = check([path]).diagnostics
    code, report = cli_json("check", path)
    assert code == (1 if any(d.severity.value == "error" for d in raw) else 0)
    assert report["summary"]["diagnostics"] + report["summary"]["copies"] == len(raw)
    assert report["summary"]["diagnostics"] < len(raw) / 2
    gets = [d for d in report["diagnostics"] if d["tool"] == "requests.get" and d["code"] == "SL006"]
    assert len(gets) == 1 and len(gets[0]["copies"]) == sum(
        1 for d in raw if d.tool == "requests.get" and d.code == "SL006") - 1
    # Each entry is one fault: no two entries left with the same rule, tool, message and place in the tool.
    keys = Counter((d["code"], d["tool"], d["message"], d["pointer"].split("/", 3)[-1])
                   for d in report["diagnostics"])
    assert max(keys.values()) == 1


def test_the_summary_counts_severities_most_severe_first() -> None:
    """Alphabetical order put info before warning; the summary reads error, warning, info."""
    from schemalint.model import Diagnostic, Severity
    from schemalint.report.copies import severity_counts

    found = [Diagnostic(code="SL001", name="n", severity=sev, tool="t", file="f", pointer="", message="m")
             for sev in (Severity.INFO, Severity.WARNING, Severity.ERROR, Severity.INFO)]
    assert severity_counts(found) == "1 error, 1 warning, 2 info"
    assert severity_counts([]) == ""


def test_statistics_count_every_copy_and_say_so(tmp_path: Path) -> None:
    """``--statistics`` counts each copy (as the exit code and the baseline see them); the summary
    folds them, and stderr says why the two numbers differ."""
    proc = cli("check", str(_dataset(tmp_path)), "--statistics")
    assert proc.stdout.split() == ["4", "SL006", "invalid-tool-name", "warning"]
    assert "include 3 finding(s) in repeated copies of a tool" in proc.stderr
