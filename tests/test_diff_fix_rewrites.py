"""Rewrites that ``check --fix`` makes, read by ``diff`` as what they mean: a ``oneOf`` rewritten
as ``anyOf`` (and back) is what a caller can send differently, checked against jsonschema's own
verdicts, never a branch removed and added; a ``type`` written beside a union of the same types
accepts the same values."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import cli

DISJOINT = [{"type": "string"}, {"type": "integer"}]
OVERLAPPING = [{"type": "string"}, {"type": "string", "minLength": 3}]
BOTH_BRANCHES = "abcd"  # matches both OVERLAPPING branches


def _tools(keyword: str, branches: list[Any]) -> list[dict[str, Any]]:
    return [{"name": "pick", "description": "Picks one.",
             "inputSchema": {"type": "object", "properties": {"x": {keyword: branches}}}}]


def _diff(tmp_path: Path, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    proc = cli("diff", "old.json", "new.json", "--format", "json", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _codes(report: dict[str, Any]) -> list[str]:
    return sorted(c["code"] for c in report["changes"])


def test_disjoint_branches_mean_the_same_either_way(tmp_path: Path) -> None:
    for value in ("a", 3, 2.5, None):  # jsonschema agrees that the two keywords accept the same
        assert (jsonschema.Draft202012Validator({"oneOf": DISJOINT}).is_valid(value)
                == jsonschema.Draft202012Validator({"anyOf": DISJOINT}).is_valid(value))
    code, report = _diff(tmp_path, _tools("oneOf", DISJOINT), _tools("anyOf", DISJOINT))
    assert code == 0
    assert [t["status"] for t in report["tools"]] == ["same-meaning"]
    assert "SD109" not in _codes(report) and "SD211" not in _codes(report)


@pytest.mark.parametrize(("old", "new", "code", "exit_status"), [
    ("oneOf", "anyOf", "SD207", 0),  # accepts a value matching two branches now: compatible
    ("anyOf", "oneOf", "SD107", 1),  # refuses it now: breaking
])
def test_overlapping_branches(tmp_path: Path, old: str, new: str, code: str, exit_status: int) -> None:
    accepted_before = jsonschema.Draft202012Validator({old: OVERLAPPING}).is_valid(BOTH_BRANCHES)
    accepted_after = jsonschema.Draft202012Validator({new: OVERLAPPING}).is_valid(BOTH_BRANCHES)
    assert accepted_after != accepted_before and accepted_after == (new == "anyOf")
    status, report = _diff(tmp_path, _tools(old, OVERLAPPING), _tools(new, OVERLAPPING))
    assert status == exit_status
    assert _codes(report) == [code]
    assert report["changes"][0]["pointer"] == f"/inputSchema/properties/x/{new}"


def test_a_branch_changed_with_the_keyword_is_reported_as_the_branch(tmp_path: Path) -> None:
    new = [{"type": "string"}, {"type": "boolean"}]
    _, report = _diff(tmp_path, _tools("oneOf", DISJOINT), _tools("anyOf", new))
    by_code = {c["code"]: c for c in report["changes"]}
    assert sorted(by_code) == ["SD109", "SD211"]
    assert by_code["SD109"]["pointer"] == "/inputSchema/properties/x/oneOf/1"
    assert "`oneOf` branch was removed" in by_code["SD109"]["message"]
    assert by_code["SD211"]["pointer"] == "/inputSchema/properties/x/anyOf/1"


def test_a_type_beside_a_union_of_the_same_types_is_no_narrowing(tmp_path: Path) -> None:
    union = {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A filter, or null."}
    old = [{"name": "pick", "description": "Picks one.",
            "inputSchema": {"type": "object", "properties": {"x": union}}}]
    new = json.loads(json.dumps(old))
    new[0]["inputSchema"]["properties"]["x"].update({"type": "string", "nullable": True})
    code, report = _diff(tmp_path, old, new)
    assert code == 0
    assert _codes(report) == ["SD212"]
    narrowed = json.loads(json.dumps(old))
    narrowed[0]["inputSchema"]["properties"]["x"]["type"] = "string"  # null refused now: still breaking
    code, report = _diff(tmp_path, old, narrowed)
    assert code == 1 and _codes(report) == ["SD104"]
