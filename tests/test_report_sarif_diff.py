"""``schemalint diff --format sarif`` on a real git repository, validated against the OASIS schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import cli
from tests.test_diff_git import OTHER, TOOL, git, write
from tests.test_report_sarif import validate


def repo_with_changes(tmp_path: Path) -> Path:
    """A repository whose working tree makes `query` an integer, requires `limit`, removes `ping`."""
    repo = tmp_path / "repo"
    write(repo / "tools" / "mcp.json", {"tools": [TOOL, OTHER]})
    git(repo, "init", "-q")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "base")
    changed = json.loads(json.dumps(TOOL))
    changed["inputSchema"]["properties"]["query"]["type"] = "integer"
    changed["inputSchema"]["required"] = ["query", "limit"]
    write(repo / "tools" / "mcp.json", {"tools": [changed]})
    return repo


def sarif_diff(repo: Path, *args: str) -> tuple[int, dict[str, Any]]:
    proc = cli("diff", "--base", "HEAD", "tools", "--format", "sarif", *args, cwd=repo)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_diff_sarif_validates_and_every_result_has_a_physical_location(tmp_path: Path) -> None:
    repo = repo_with_changes(tmp_path)
    code, log = sarif_diff(repo)
    assert code == 1
    validate(log)
    run = log["runs"][0]
    assert run["automationDetails"] == {"id": "schemalint/diff/"}
    rule_ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert rule_ids == sorted(rule_ids) and all(i.startswith("SD") for i in rule_ids)
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert set(by_rule) == {"SD101", "SD103", "SD108"}
    for res in run["results"]:
        assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]
        physical = res["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": "tools/mcp.json", "uriBaseId": "%SRCROOT%"}
        assert res["level"] == "error"
    lines = (repo / "tools" / "mcp.json").read_text().splitlines()
    type_line = by_rule["SD108"]["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert '"type": "integer"' in lines[type_line - 1]
    assert by_rule["SD108"]["properties"]["before"] == {"type": "string"}
    assert by_rule["SD101"]["properties"]["tool"] == "ping"
    assert by_rule["SD101"]["properties"]["status"] == "removed"


def test_diff_sarif_fingerprints_survive_reformatting(tmp_path: Path) -> None:
    repo = repo_with_changes(tmp_path)
    _, before = sarif_diff(repo)
    path = repo / "tools" / "mcp.json"
    path.write_text("\n\n" + json.dumps(json.loads(path.read_text()), indent=4) + "\n")
    _, after = sarif_diff(repo)

    def prints(log: dict[str, Any]) -> dict[str, str]:
        return {r["ruleId"]: r["partialFingerprints"]["schemalint/v1"] for r in log["runs"][0]["results"]}

    def lines(log: dict[str, Any]) -> dict[str, int]:
        return {r["ruleId"]: r["locations"][0]["physicalLocation"]["region"]["startLine"]
                for r in log["runs"][0]["results"]}

    assert prints(before) == prints(after)
    assert lines(before)["SD108"] != lines(after)["SD108"]


def test_diff_sarif_with_nothing_changed_is_an_empty_valid_run(tmp_path: Path) -> None:
    repo = repo_with_changes(tmp_path)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "next")
    code, log = sarif_diff(repo)
    assert code == 0
    validate(log)
    assert log["runs"][0]["results"] == []


def test_diff_sarif_honours_ignore(tmp_path: Path) -> None:
    repo = repo_with_changes(tmp_path)
    _, log = sarif_diff(repo, "--ignore", "SD108")
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"SD101", "SD103"}
