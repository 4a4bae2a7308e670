"""Baselines: write, check clean, add a fault, only the new finding fails; stale entries shrink."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from ci_rules import TEST_RULES, openai_tool

from schemalint.api import check
from schemalint.config import load_config
from schemalint.engine.baseline import Baseline, BaselineError
from tests.conftest import ROOT, cli, cli_json


def write_tools(path: Path, tools: list, indent: int | None = 2) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(tools, indent=indent))


def api_check(root: Path, **kwargs):
    cfg = load_config(start=root, rules=TEST_RULES)
    return check([str(root / "tools")], config=cfg, rules=TEST_RULES, **kwargs)


def test_fingerprint_survives_moves_and_reformatting(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text('sources = ["tools"]\n')
    a = openai_tool("search", {"query": {"type": "string"}})
    b = openai_tool("fetch", {"url": {"type": "string", "description": "the URL"}})
    write_tools(tmp_path / "tools" / "t.json", [a, b])
    first = api_check(tmp_path)
    assert [(d.tool, d.instance_path) for d in first.diagnostics] == [("search", "/query")]
    fp = first.fingerprints[0]
    assert (fp.code, fp.file, fp.tool, fp.path, fp.instance_path) == (
        "SL990", "tools/t.json", "search", "/function/parameters/properties/query", "/query")
    baseline = Baseline.from_findings(first.diagnostics, first.fingerprints)
    # Reorder the tools and put them on one line: lines and file pointers change, fingerprints do not.
    write_tools(tmp_path / "tools" / "t.json", [b, a], indent=None)
    moved = api_check(tmp_path, baseline=baseline)
    assert moved.diagnostics == [] and moved.baselined == 1 and moved.stale == []


def test_counts_and_stale_entries(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text("")
    write_tools(tmp_path / "tools" / "t.json", [openai_tool("search", {"q": {}, "r": {}})])
    base = api_check(tmp_path)
    baseline = Baseline.from_findings(base.diagnostics, base.fingerprints)
    assert len(baseline.entries) == 2
    fixed = openai_tool("search", {"q": {"description": "query"}, "r": {}})
    write_tools(tmp_path / "tools" / "t.json", [fixed])
    after = api_check(tmp_path, baseline=baseline)
    assert after.diagnostics == [] and after.baselined == 1
    assert [e.fingerprint.instance_path for e in after.stale] == ["/q"]
    assert any("no longer occur" in n for n in after.notes)
    # Two findings with one fingerprint (a duplicated tool) are counted, not merged away.
    dup = openai_tool("search", {"q": {}})
    write_tools(tmp_path / "tools" / "t.json", [dup, dup])
    twice = api_check(tmp_path)
    recorded = Baseline.from_findings(twice.diagnostics, twice.fingerprints)
    assert [e.count for e in recorded.entries] == [2]
    write_tools(tmp_path / "tools" / "t.json", [dup, dup, dup])
    thrice = api_check(tmp_path, baseline=recorded)
    assert len(thrice.diagnostics) == 1 and thrice.baselined == 2


def test_a_run_on_some_files_calls_only_their_entries_stale(tmp_path: Path) -> None:
    """A pre-commit hook checks the changed files only: the other files' entries are not stale
    (following the "shrink it" advice would drop them), but a deleted file's entries are."""
    (tmp_path / "schemalint.toml").write_text("")
    write_tools(tmp_path / "tools" / "a.json", [openai_tool("alpha", {"x": {}})])
    write_tools(tmp_path / "tools" / "b.json", [openai_tool("beta", {"y": {}})])
    full = api_check(tmp_path)
    baseline = Baseline.from_findings(full.diagnostics, full.fingerprints)
    assert len(baseline.entries) == 2
    cfg = load_config(start=tmp_path, rules=TEST_RULES)
    only_a = check([str(tmp_path / "tools" / "a.json")], config=cfg, rules=TEST_RULES, baseline=baseline)
    assert only_a.diagnostics == [] and only_a.baselined == 1 and only_a.stale == []
    assert not any("no longer occur" in n for n in only_a.notes)
    (tmp_path / "tools" / "b.json").unlink()
    after_delete = check([str(tmp_path / "tools" / "a.json")], config=cfg, rules=TEST_RULES, baseline=baseline)
    assert [e.fingerprint.file for e in after_delete.stale] == ["tools/b.json"]


def test_file_is_sorted_one_entry_per_line_and_round_trips(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text("")
    write_tools(tmp_path / "tools" / "z.json", [openai_tool("zeta", {"b": {}, "a": {}})])
    write_tools(tmp_path / "tools" / "a.json", [openai_tool("alpha", {"x": {}})])
    result = api_check(tmp_path)
    path = tmp_path / "baseline.json"
    Baseline.from_findings(result.diagnostics, result.fingerprints).write(path)
    text = path.read_text()
    lines = text.splitlines()
    assert lines[0] == "{" and lines[1] == '  "schemalint_baseline": 1,' and text.endswith("}\n")
    entries = [json.loads(line.strip().rstrip(",")) for line in lines[3:-2]]
    assert [(e["file"], e["tool"], e["instance_path"]) for e in entries] == [
        ("tools/a.json", "alpha", "/x"), ("tools/z.json", "zeta", "/a"), ("tools/z.json", "zeta", "/b")]
    assert json.loads(text)["entries"] == entries
    again = Baseline.read(path)
    assert again.dumps() == text


@pytest.mark.parametrize(
    ("content", "needle"),
    [("{", "not valid JSON"), ('{"entries": []}', "not a schemalint baseline"),
     ('{"schemalint_baseline": 1, "entries": [{"code": 1}]}', "entries[0]: `code`"),
     ('{"schemalint_baseline": 1, "entries": [{"code": "SL1", "file": "", "path": "", "count": 0}]}',
      "count")],
)
def test_bad_baseline_files_exit_2(tmp_path: Path, content: str, needle: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(content)
    with pytest.raises(BaselineError, match=r"b\.json"):
        Baseline.read(path)
    (tmp_path / "t.json").write_text("[]")
    proc = cli("check", "t.json", "--baseline", "b.json", cwd=tmp_path)
    assert proc.returncode == 2 and needle in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("check", "t.json", "--baseline", "missing.json", cwd=tmp_path)
    assert proc.returncode == 2 and "--write-baseline" in proc.stderr


def test_cli_round_trip_with_unreadable_files(tmp_path: Path) -> None:
    """Real CLI, real rule (SL000): write, check clean, add a fault, only the new one fails.

    ``select`` keeps the counts independent of the other rule families.
    """
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\nselect = ["SL000"]\n'
                                             'baseline = "schemalint-baseline.json"\n')
    write_tools(tmp_path / "tools" / "ok.json", [openai_tool("search", {"q": {"type": "string"}})])
    (tmp_path / "tools" / "broken.json").write_text('{"tools": [\n')
    assert cli("check", cwd=tmp_path).returncode == 2, "a configured baseline must exist"
    proc = cli("check", "--write-baseline", "schemalint-baseline.json", cwd=tmp_path)
    assert proc.returncode == 0 and "wrote 1 finding" in proc.stderr, proc.stderr
    code, report = cli_json("check", cwd=tmp_path)
    assert code == 0 and report["diagnostics"] == []
    assert report["summary"]["baseline"]["hidden"] == 1
    (tmp_path / "tools" / "new.yaml").write_text("tools: [unclosed\n")
    sub = tmp_path / "tools"
    code, report = cli_json("check", cwd=sub)  # from a subdirectory: paths are root-relative
    assert code == 1
    assert [(d["code"], Path(d["file"]).name) for d in report["diagnostics"]] == [("SL000", "new.yaml")]
    (tmp_path / "tools" / "broken.json").write_text("[]")
    code, report = cli_json("check", "--no-baseline", cwd=tmp_path)
    assert code == 1 and len(report["diagnostics"]) == 1
    (tmp_path / "tools" / "new.yaml").unlink()
    code, report = cli_json("check", cwd=tmp_path)
    assert code == 0
    stale = report["summary"]["baseline"]["stale"]
    assert [(e["code"], e["file"]) for e in stale] == [("SL000", "tools/broken.json")]
    proc = cli("check", cwd=tmp_path)
    assert "no longer occur" in proc.stdout and "tools/broken.json" in proc.stdout


FAULTS = [
    {"type": "function", "function": {"name": "lookup", "parameters": {
        "type": "object", "properties": {"q": {"type": "string"}}, "required": ["q", "limit"],
        "additionalProperties": False}}},
    {"name": "bad name!", "input_schema": {"type": "dict", "properties": {"a": {"type": "str"}}}},
    {"type": "function", "function": {"name": "lookup", "description": "Look up a {limit} of items.",
                                      "parameters": {"type": "array"}}},
]


def test_cli_round_trip_with_registry_rules(tmp_path: Path) -> None:
    """The same round trip with whatever tool-level rules the registry has (after all merges)."""
    write_tools(tmp_path / "tools" / "one.json", FAULTS)
    code, report = cli_json("check", "tools", "--target", "openai-strict", cwd=tmp_path)
    if not any(d["tool"] for d in report["diagnostics"]):
        pytest.skip("no registered rule reports a tool-level finding on the fault fixture")
    cli("check", "tools", "-t", "openai-strict", "--write-baseline", "b.json", cwd=tmp_path)
    code, clean = cli_json("check", "tools", "-t", "openai-strict", "--baseline", "b.json", cwd=tmp_path)
    assert clean["diagnostics"] == [] and code == 0
    # Same faults in a new file, and the old file's tools moved to new positions.
    fine = {"type": "function", "function": {
        "name": "fine", "description": "Fine.", "parameters": {"type": "object", "properties": {}}}}
    write_tools(tmp_path / "tools" / "one.json", [fine, *FAULTS])
    write_tools(tmp_path / "tools" / "two.json", FAULTS)
    code, again = cli_json("check", "tools", "-t", "openai-strict", "--baseline", "b.json", cwd=tmp_path)
    assert again["diagnostics"], "the copy in two.json is new"
    assert {Path(d["file"]).name for d in again["diagnostics"]} <= {"two.json", "one.json"}
    old = [d for d in again["diagnostics"] if d["file"].endswith("one.json") and d["tool"] != "fine"]
    assert old == [], "moving tools inside one.json must not resurface baselined findings"


@pytest.mark.skipif(not (ROOT / "examples").is_dir(), reason="examples/ not present in this checkout")
def test_round_trip_on_examples(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    shutil.copytree(ROOT / "examples", project / "examples",
                    ignore=shutil.ignore_patterns("node_modules", ".venv", "__pycache__"))
    (project / "schemalint.toml").write_text('sources = ["examples"]\n')
    proc = cli("check", "--write-baseline", "bl.json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    code, report = cli_json("check", "--baseline", "bl.json", cwd=project)
    assert code == 0 and report["diagnostics"] == [], report["diagnostics"][:3]
    (project / "examples" / "zz_new_fault.json").write_text('{"tools": [')
    code, report = cli_json("check", "--baseline", "bl.json", cwd=project)
    assert code == 1
    assert [Path(d["file"]).name for d in report["diagnostics"]] == ["zz_new_fault.json"]
