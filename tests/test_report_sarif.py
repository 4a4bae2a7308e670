"""SARIF 2.1.0 and GitHub workflow-command reports, validated against the official schema."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from ci_rules import TEST_RULES, openai_tool

from schemalint.api import check
from schemalint.config import load_config
from schemalint.report import REPORTERS, write_report
from schemalint.report.github import annotation, escape_property
from tests.conftest import ROOT, cli

SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())


def validate(log: dict) -> None:
    validator = jsonschema.Draft4Validator(SCHEMA)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def test_official_schema_is_the_oasis_file() -> None:
    assert SCHEMA["id"].startswith("https://docs.oasis-open.org/sarif/sarif/v2.1.0/")
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    # The schema really constrains: a log without runs, or a result level it does not know, fails.
    with pytest.raises(AssertionError):
        validate({"version": "2.1.0"})
    with pytest.raises(AssertionError):
        validate({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                                 "results": [{"message": {"text": "m"}, "level": "info"}]}]})


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "schemalint.toml").write_text("")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a b.json").write_text(json.dumps(
        [openai_tool("search", {"query": {"type": "string"}}), openai_tool("ok", {}, closed=True)], indent=2))
    (tmp_path / "tools" / "broken.json").write_text('{\n  "tools": [\n')
    return tmp_path


def sarif_of(result) -> dict:
    buf = io.StringIO()
    write_report("sarif", result, buf)
    return json.loads(buf.getvalue())


def test_sarif_results_rules_and_locations(project: Path) -> None:
    result = check(["tools"], targets=["openai-strict"], config=load_config(start=project), rules=TEST_RULES)
    log = sarif_of(result)
    validate(log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["SL000", "SL990", "SL991"]
    assert rules[1]["name"] == "undescribed-property"
    assert rules[1]["helpUri"].endswith("/rules/SL990-undescribed-property.md")
    assert rules[1]["defaultConfiguration"]["level"] == "warning"
    by_rule = {}
    for res in run["results"]:
        by_rule.setdefault(res["ruleId"], []).append(res)
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
    assert set(by_rule) == {"SL000", "SL990", "SL991"}
    undescribed = by_rule["SL990"][0]
    assert undescribed["level"] == "warning"
    phys = undescribed["locations"][0]["physicalLocation"]
    assert phys["artifactLocation"] == {"uri": "tools/a%20b.json", "uriBaseId": "%SRCROOT%"}
    text = (project / "tools" / "a b.json").read_text().splitlines()
    line, col = phys["region"]["startLine"], phys["region"]["startColumn"]
    assert text[line - 1][col - 1:].startswith('"query"')
    assert undescribed["locations"][0]["logicalLocations"] == [{"name": "search", "kind": "function"}]
    assert undescribed["partialFingerprints"]["schemalint/v1"] == result.fingerprints[
        result.diagnostics.index(next(d for d in result.diagnostics if d.code == "SL990"))].digest()
    assert "Hint: describe" in undescribed["message"]["text"]
    assert by_rule["SL000"][0]["level"] == "error"
    assert by_rule["SL000"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 3
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"


def test_sarif_info_level_notes_and_empty_run(project: Path) -> None:
    (project / "schemalint.toml").write_text(
        '[severity]\nSL990 = "info"\n'
        '[[per-tool-ignores]]\ntools = ["nobody"]\nrules = ["SL99"]\nreason = "r"\n')
    result = check(["tools"], config=load_config(start=project, rules=TEST_RULES), rules=TEST_RULES)
    log = sarif_of(result)
    validate(log)
    levels = {r["ruleId"]: r["level"] for r in log["runs"][0]["results"]}
    assert levels["SL990"] == "note"
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any("matched no finding" in n["message"]["text"] for n in notes)
    empty = check(["tools/a b.json"], select=["SL000"], rules=TEST_RULES)
    log = sarif_of(empty)
    validate(log)
    assert log["runs"][0]["results"] == []


def test_sarif_from_the_cli_validates(project: Path) -> None:
    proc = cli("check", "tools", "--format", "sarif", cwd=project)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    validate(log)
    assert "SL000" in {r["ruleId"] for r in log["runs"][0]["results"]}


def test_format_choices_come_from_the_registry(project: Path) -> None:
    assert {"text", "json", "sarif", "github"} <= set(REPORTERS)
    proc = cli("check", "tools", "--format", "xml", cwd=project)
    assert proc.returncode == 2 and all(name in proc.stderr for name in REPORTERS)
    assert all(name in cli("check", "--help").stdout for name in REPORTERS)


def test_github_annotations(project: Path) -> None:
    result = check(["tools"], config=load_config(start=project), rules=TEST_RULES)
    buf = io.StringIO()
    write_report("github", result, buf)
    lines = buf.getvalue().splitlines()
    broken = next(line for line in lines if "SL000" in line)
    assert broken.startswith("::error file=tools/broken.json,line=3,col=1,title=SL000 unreadable-source::")
    warn = next(line for line in lines if "SL990" in line)
    assert warn.startswith("::warning file=tools/a b.json,line=")
    assert "title=SL990 undescribed-property::[search] property `query`" in warn
    assert "%0Ahint: describe what the model should pass" in warn
    assert lines[-1].startswith("schemalint: 2 file(s), 2 tool(s)")
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_github_paths_relative_to_workspace(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = check(["tools/broken.json"], rules=TEST_RULES)
    monkeypatch.chdir(project / "tools")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(project))
    d = result.diagnostics[0]
    moved = type(d)(**{**d.__dict__, "file": "broken.json"})
    assert "file=tools/broken.json," in annotation(moved)
    info = type(d)(**{**d.__dict__, "file": "", "severity": type(d.severity)("info")})
    assert annotation(info).startswith("::notice title=SL000 unreadable-source::")


def test_sarif_keeps_within_githubs_result_limit(tmp_path: Path) -> None:
    """GitHub code scanning rejects a run of more than 25,000 results (GITHUB_LIMITS cites the
    page): the most severe are kept, and what was left out is said in a warning notification, in
    run.properties and on stderr; every region has endLine/endColumn."""

    from schemalint.report.sarif import GITHUB_LIMITS

    tools = []
    for i in range(13_000):  # each: SL003 (error, undeclared required key) and SL007 (no description)
        tools.append({"name": f"t{i}", "inputSchema": {"type": "object", "properties": {}, "required": ["x"]}})
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}))
    proc = cli("check", "tools.json", "--format", "sarif", cwd=tmp_path, timeout=600)
    assert proc.returncode == 1, proc.stderr
    log = json.loads(proc.stdout)
    run = log["runs"][0]
    results = run["results"]
    assert len(results) == GITHUB_LIMITS["results_per_run"] == 25_000
    left = run["properties"]["schemalint"]["leftOut"]
    total = left["results"]
    assert total > 25_000 and left["leftOut"] == total - 25_000
    assert sum(1 for r in results if r["level"] == "error") == 13_000  # every error kept
    assert set(left["leftOutByLevel"]) <= {"warning", "note"}
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert notes[-1]["level"] == "warning" and "left out" in notes[-1]["message"]["text"]
    assert f"{left['leftOut']:,} of {total:,} results left out" in proc.stderr
    region = results[0]["locations"][0]["physicalLocation"]["region"]
    assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(region)
    assert region["endColumn"] > region["startColumn"]


def test_sarif_region_spans_the_reported_token(tmp_path: Path) -> None:
    text = '{"tools": [{"name": "a", "description": "d",\n  "inputSchema": {"type": "object", "required": ["zz"]}}]}\n'
    (tmp_path / "t.json").write_text(text)

    proc = cli("check", "t.json", "--format", "sarif", cwd=tmp_path, timeout=300)
    results = json.loads(proc.stdout)["runs"][0]["results"]
    sl003 = next(r for r in results if r["ruleId"] == "SL003")
    region = sl003["locations"][0]["physicalLocation"]["region"]
    line = text.split("\n")[region["startLine"] - 1]
    token = line[region["startColumn"] - 1: region["endColumn"] - 1]
    assert token.startswith('"') and token.endswith('"') and len(token) > 2, (token, region)
