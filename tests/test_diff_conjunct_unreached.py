"""A condition added beside a schema (an ``allOf`` wrapping it with one more conjunct, an ``anyOf``
written beside it) tightens (SD107) and its removal relaxes (SD207); a change in a ``$defs`` entry
nothing refers to accepts and refuses nothing (SD212). Real JSON pairs diffed both ways with the
command, each direction checked against jsonschema's own verdict on a witness value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from schemalint.diff.unreached import unreached_definitions
from tests.conftest import cli_json

OBJ = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}


def _tool(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": "pick", "description": "Picks one.", "inputSchema": schema}]


def _diff(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> tuple[int, list[tuple[str, str]]]:
    (tmp_path / "old.json").write_text(json.dumps(_tool(old)))
    (tmp_path / "new.json").write_text(json.dumps(_tool(new)))
    code, report = cli_json("diff", "old.json", "new.json", cwd=tmp_path)
    return code, sorted((c["code"], c["pointer"]) for c in report["changes"])


CONJUNCTS = [
    # allOf wrapping the old schema plus one more condition
    ({"type": "string"}, {"allOf": [{"type": "string"}, {"minLength": 1}]}, "", "/inputSchema/allOf/1"),
    (OBJ, {"allOf": [OBJ, {"required": ["a"]}]}, {}, "/inputSchema/allOf/1"),
    # an anyOf of two conditions written beside the unchanged object
    (OBJ, {**OBJ, "anyOf": [{"required": ["a"]}, {"required": ["b"]}]}, {}, "/inputSchema/anyOf"),
]


@pytest.mark.parametrize(("old", "new", "witness", "pointer"), CONJUNCTS)
def test_adding_a_conjunct_tightens_and_removing_it_relaxes(
        tmp_path: Path, old: dict[str, Any], new: dict[str, Any], witness: Any, pointer: str) -> None:
    # jsonschema: the witness is accepted without the condition and refused with it, and nothing the
    # new schema accepts is refused by the old one (the condition only adds)
    assert jsonschema.Draft202012Validator(old).is_valid(witness)
    assert not jsonschema.Draft202012Validator(new).is_valid(witness)
    code, changes = _diff(tmp_path, old, new)
    assert (code, changes) == (1, [("SD107", pointer)])
    code, changes = _diff(tmp_path, new, old)
    assert (code, changes) == (0, [("SD207", pointer)])  # was SD104/SD109 (breaking) before


def test_a_single_branch_beside_the_schema_is_compared_keyword_by_keyword(tmp_path: Path) -> None:
    old = {"type": "object", "properties": {"a": {"type": "string"}}}
    new = {"type": "object", "properties": {"a": {"type": "string", "allOf": [{"minLength": 2}]}}}
    assert not jsonschema.Draft202012Validator(new).is_valid({"a": "x"})
    assert _diff(tmp_path, old, new) == (1, [("SD107", "/inputSchema/properties/a/allOf/0/minLength")])
    assert _diff(tmp_path, new, old) == (0, [("SD207", "/inputSchema/properties/a/allOf/0/minLength")])


def test_a_union_that_widens_is_still_branches(tmp_path: Path) -> None:
    """A schema wrapped into ``anyOf`` with a null branch (its keywords moved into a branch) is no
    conjunct: the null branch is SD211 one way and SD109 the other."""
    old = {"type": "object", "properties": {"a": {"type": "string"}}}
    new = {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}
    assert _diff(tmp_path, old, new) == (0, [("SD211", "/inputSchema/properties/a/anyOf/1")])
    assert _diff(tmp_path, new, old) == (1, [("SD109", "/inputSchema/properties/a/anyOf/1")])


def _with_defs(b_max: int, a_min: int = 0, ref: str = "#/$defs/A") -> dict[str, Any]:
    return {"type": "object", "properties": {"x": {"$ref": ref}},
            "$defs": {"A": {"type": "string", "minLength": a_min}, "B": {"type": "string", "maxLength": b_max}}}


def test_a_change_in_an_unreached_definition_is_metadata(tmp_path: Path) -> None:
    old, new = _with_defs(5), _with_defs(3)
    for schema in (old, new):  # B is used nowhere: both accept the same calls
        assert jsonschema.Draft202012Validator(schema).is_valid({"x": "abcdef"})
    assert _diff(tmp_path, old, new) == (0, [("SD212", "/inputSchema/$defs/B")])
    assert _diff(tmp_path, new, old) == (0, [("SD212", "/inputSchema/$defs/B")])


def test_a_change_in_a_reached_definition_keeps_its_meaning(tmp_path: Path) -> None:
    old, new = _with_defs(5, a_min=0), _with_defs(5, a_min=2)
    assert not jsonschema.Draft202012Validator(new).is_valid({"x": "a"})
    assert _diff(tmp_path, old, new) == (1, [("SD107", "/inputSchema/$defs/A/minLength")])
    assert _diff(tmp_path, new, old) == (0, [("SD207", "/inputSchema/$defs/A/minLength")])
    # B reached through A: its change is a real one too
    chained = {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}},
               "$defs": {"A": {"type": "array", "items": {"$ref": "#/$defs/B"}}, "B": {"type": "string"}}}
    tighter = json.loads(json.dumps(chained))
    tighter["$defs"]["B"]["maxLength"] = 3
    assert _diff(tmp_path, chained, tighter) == (1, [("SD107", "/inputSchema/$defs/B/maxLength")])
    assert _diff(tmp_path, tighter, chained) == (0, [("SD207", "/inputSchema/$defs/B/maxLength")])


def test_draft07_definitions_are_read_as_defs(tmp_path: Path) -> None:
    def tools(b_max: int) -> list[dict[str, Any]]:
        return [{"type": "function", "function": {"name": "pick", "description": "Picks one.", "parameters": {
            "type": "object", "properties": {"x": {"$ref": "#/definitions/A"}},
            "definitions": {"A": {"type": "string"}, "B": {"type": "string", "maxLength": b_max}}}}}]
    for old, new in ((5, 3), (3, 5)):
        (tmp_path / "old.json").write_text(json.dumps(tools(old)))
        (tmp_path / "new.json").write_text(json.dumps(tools(new)))
        code, report = cli_json("diff", "old.json", "new.json", cwd=tmp_path)
        assert code == 0 and [(c["code"], c["pointer"]) for c in report["changes"]] == [
            ("SD212", "/function/parameters/definitions/B")]


def test_unreached_definitions() -> None:
    assert unreached_definitions(_with_defs(5)) == {"B"}
    assert unreached_definitions({"$defs": {"A": {}}, "$ref": "#"}) == {"A"}
    # a reference it cannot resolve (an anchor, another document) keeps every definition reached
    assert unreached_definitions(_with_defs(5, ref="#anchor")) == frozenset()
    assert unreached_definitions(_with_defs(5, ref="other.json#/$defs/B")) == frozenset()
    assert unreached_definitions({"$defs": {"a/b": {}}, "$ref": "#/$defs/a~1b"}) == frozenset()
