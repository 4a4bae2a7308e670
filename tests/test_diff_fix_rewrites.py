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


def _diff(tmp_path: Path, old: Any, new: Any) -> tuple[int, dict[str, Any]]:
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
    """The SL314 fix for Gemini writes ``"type": "string", "nullable": true`` beside the union: in a
    Gemini ``parameters`` schema (OpenAPI 3.0, where ``nullable`` admits null) that accepts the same
    values. (In an MCP tool, JSON Schema, ``nullable`` is an annotation and the new ``type`` refuses
    null: tests/test_diff_pointers.py.)"""
    union = {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A filter, or null."}
    old: Any = {"functionDeclarations": [{"name": "pick", "description": "Picks one.",
                                          "parameters": {"type": "object", "properties": {"x": union}}}]}
    new = json.loads(json.dumps(old))
    new["functionDeclarations"][0]["parameters"]["properties"]["x"].update({"type": "string", "nullable": True})
    code, report = _diff(tmp_path, old, new)
    assert code == 0
    assert _codes(report) == ["SD212"]
    narrowed = json.loads(json.dumps(old))
    narrowed["functionDeclarations"][0]["parameters"]["properties"]["x"]["type"] = "string"  # null refused now
    code, report = _diff(tmp_path, old, narrowed)
    assert code == 1 and _codes(report) == ["SD104"]


def _openai(params: dict[str, Any], strict: bool = False) -> list[dict[str, Any]]:
    function: dict[str, Any] = {"name": "pick", "description": "Picks one.", "parameters": params}
    if strict:
        function["strict"] = True
    return [{"type": "function", "function": function}]


@pytest.mark.parametrize(("strict", "args", "params", "expected", "exit_status"), [
    (True, (), {"properties": {"x": {"type": "string"}}}, "SD213", 0),  # the tool says strict
    (False, ("--target", "openai-strict"), {"properties": {"x": {"type": "string"}}}, "SD213", 0),
    (False, (), {"properties": {"x": {"type": "string"}}}, "SD106", 1),  # sent non-strict: breaking
    (False, ("--target", "=openai"), {"properties": {"x": {"type": "string"}}}, "SD106", 1),
    (True, (), {}, "SD106", 1),  # a free-form object closed: it now takes no key at all
    (True, (), {"properties": {"x": {"type": "string"}}, "anyOf": [{"required": ["x"]}, {"properties": {
        "y": {"type": "string"}}}]}, "SD106", 1),  # the branches declare keys the closing refuses
])
def test_closing_for_a_strict_target(tmp_path: Path, strict: bool, args: tuple[str, ...], params: dict[str, Any],
                                     expected: str, exit_status: int) -> None:
    """``additionalProperties: false`` added to an object that declares its keys, in a tool sent to a
    strict target (its own ``strict: true``, or ``--target``), is SD213 (compatible): strict decoding
    sends only declared keys. Anywhere else, or on an object whose keys are not all its ``properties``',
    it is SD106 (breaking): jsonschema refuses a call the old schema accepted."""
    old = {"type": "object", **params}
    new = {**old, "additionalProperties": False}
    call = {"x": "a", "y": "b", "z": 1}
    assert jsonschema.Draft202012Validator(old).is_valid(call)
    assert not jsonschema.Draft202012Validator(new).is_valid(call)
    (tmp_path / "old.json").write_text(json.dumps(_openai(old, strict)))
    (tmp_path / "new.json").write_text(json.dumps(_openai(new, strict)))
    proc = cli("diff", "old.json", "new.json", "--format", "json", *args, cwd=tmp_path)
    assert proc.returncode == exit_status, proc.stdout + proc.stderr
    assert _codes(json.loads(proc.stdout)) == [expected]


def test_a_dataset_type_name_renamed_is_no_type_change(tmp_path: Path) -> None:
    """SL314's safe fix renames a dataset's ``float``/``dict``/``int`` to the JSON type it means; diff reads
    both names as that type (SD212, compatible), and a real change of type is still SD108."""
    def tools(t: str, inner: str = "float") -> list[dict[str, Any]]:
        return [{"name": "pick", "description": "Picks one.", "parameters": {"type": t, "properties": {
            "x": {"type": inner}}}}]
    code, report = _diff(tmp_path, tools("dict"), tools("object", "number"))
    assert code == 0 and set(_codes(report)) == {"SD212"}, report
    code, report = _diff(tmp_path, tools("dict"), tools("object", "string"))
    assert code == 1 and "SD108" in _codes(report)
