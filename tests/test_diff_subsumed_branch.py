"""A union branch removed while the schema left admits all it admitted is no breaking SD109.

``{"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 5}]}`` reduced to
``{"type": "string"}`` accepts the same values (no change: the tool is same-meaning); it was
reported as a breaking SD109 "no longer accepts". From a ``oneOf`` the same removal loosens it (a
value matching both branches was refused) and is SD207.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.diff.checks._subsume import admits
from tests.conftest import cli_json


@pytest.mark.parametrize(("wider", "narrower"), [
    ({"type": "string"}, {"type": "string", "maxLength": 5}),
    ({"type": "number"}, {"type": "integer", "minimum": 0}),
    ({"type": ["string", "null"]}, {"type": "null"}),
    ({"type": "object", "required": ["a"]}, {"type": "object", "required": ["a", "b"]}),
    ({"enum": ["a", "b", "c"]}, {"enum": ["b"], "description": "only b"}),
    ({}, {"type": "string"}),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
     {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False, "minProperties": 1}),
])
def test_admits_what_follows_keyword_by_keyword(wider: Any, narrower: Any) -> None:
    assert admits(wider, narrower)


@pytest.mark.parametrize(("wider", "narrower"), [
    ({"type": "string"}, {"type": "null"}),
    ({"type": "integer"}, {"type": "number"}),
    ({"type": "string", "maxLength": 5}, {"type": "string"}),
    ({"type": "object", "required": ["a", "b"]}, {"type": "object", "required": ["a"]}),
    ({"enum": ["a"]}, {"enum": ["a", "b"]}),
    ({"type": "string"}, {"description": "anything"}),  # the narrower one has no type: it admits more
    # additionalProperties depends on its siblings: the narrower one's patternProperties admit x-keys
    ({"type": "object", "properties": {"a": {}}, "additionalProperties": False},
     {"type": "object", "properties": {"a": {}}, "patternProperties": {"^x-": {}}, "additionalProperties": False}),
    (False, {"type": "string"}),
])
def test_refuses_what_it_cannot_show(wider: Any, narrower: Any) -> None:
    assert not admits(wider, narrower)


def _changes(tmp_path: Path, old: Any, new: Any) -> list[tuple[str, str]]:
    for name, prop in (("old.json", old), ("new.json", new)):
        (tmp_path / name).write_text(json.dumps([{"name": "find", "description": "Find items.", "inputSchema": {
            "type": "object", "properties": {"q": prop}}}]))
    _, report = cli_json("diff", "old.json", "new.json", "--fail-on", "never", cwd=tmp_path)
    [tool] = report["tools"]
    assert tool["status"] == ("changed" if tool.get("changes") else "same-meaning"), tool
    return [(c["code"], c["pointer"]) for c in tool.get("changes", [])]


def test_a_union_reduced_to_a_schema_that_admits_the_dropped_branch_changes_nothing(tmp_path: Path) -> None:
    old = {"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 5}]}
    assert _changes(tmp_path, old, {"type": "string"}) == []
    old_one_of = {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 5}]}
    assert _changes(tmp_path, old_one_of, {"type": "string"}) == [("SD207", "/inputSchema/properties/q/oneOf/1")]


def test_a_union_reduced_to_a_schema_that_refuses_the_dropped_branch_is_breaking(tmp_path: Path) -> None:
    old = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert _changes(tmp_path, old, {"type": "string"}) == [("SD109", "/inputSchema/properties/q/anyOf/1")]


def test_a_branch_dropped_beside_one_that_admits_it_changes_nothing(tmp_path: Path) -> None:
    old = {"anyOf": [{"anyOf": [{"type": "string"}, {"type": "string", "format": "uri"}]}, {"type": "null"}]}
    new = {"anyOf": [{"anyOf": [{"type": "string"}]}, {"type": "null"}]}
    assert _changes(tmp_path, old, new) == []


def test_a_branch_removed_from_the_middle_is_that_branch_not_every_later_one(tmp_path: Path) -> None:
    # compared by position, [string, integer, null] -> [string, null] said branch 1 changed type to
    # null (SD108) and branch 2 was removed; it is branch 1, integer, that is gone
    old = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}
    assert _changes(tmp_path, old, {"anyOf": [{"type": "string"}, {"type": "null"}]}) == [
        ("SD109", "/inputSchema/properties/q/anyOf/1")]
    within = {"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 5}, {"type": "null"}]}
    assert _changes(tmp_path, within, {"anyOf": [{"type": "string"}, {"type": "null"}]}) == []
    assert _changes(tmp_path, {"anyOf": [{"type": "string"}, {"type": "null"}]}, old) == [
        ("SD211", "/inputSchema/properties/q/anyOf/1")]


def test_a_one_of_branch_removed_from_the_middle_is_matched_too(tmp_path: Path) -> None:
    old = {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 5}, {"type": "null"}]}
    new = {"oneOf": [{"type": "string"}, {"type": "null"}]}
    assert _changes(tmp_path, old, new) == [("SD207", "/inputSchema/properties/q/oneOf/1")]


def test_a_new_one_of_branch_that_overlaps_another_is_breaking(tmp_path: Path) -> None:
    # integers were accepted by the number branch; with an integer branch beside it they match two
    # branches, and oneOf refuses them
    old = {"oneOf": [{"type": "number"}, {"type": "string"}]}
    new = {"oneOf": [{"type": "number"}, {"type": "string"}, {"type": "integer"}]}
    assert _changes(tmp_path, old, new) == [("SD107", "/inputSchema/properties/q/oneOf/2")]
    assert _changes(tmp_path, {"type": "number"}, {"oneOf": [{"type": "number"}, {"type": "integer"}]}) == [
        ("SD107", "/inputSchema/properties/q/oneOf/1")]
    # an exclusive branch only adds values; in an anyOf, a branch another admits adds none
    assert _changes(tmp_path, old, {"oneOf": [*old["oneOf"], {"type": "null"}]}) == [
        ("SD211", "/inputSchema/properties/q/oneOf/2")]
    assert _changes(tmp_path, {"anyOf": old["oneOf"]}, {"anyOf": new["oneOf"]}) == []
    assert _changes(tmp_path, {"type": "number"}, {"anyOf": [{"type": "number"}, {"type": "integer"}]}) == []


def test_reordered_branches_are_matched_wherever_they_sit(tmp_path: Path) -> None:
    # by position, swapping two branches read as both changing type (two breaking SD108) and the
    # bound moving between them
    old = {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "integer"}]}
    assert _changes(tmp_path, old, {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 5}]}) == []
    assert _changes(tmp_path, old, {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 6}]}) == [
        ("SD207", "/inputSchema/properties/q/anyOf/1/maxLength")]
    one_of = {"oneOf": [{"type": "string"}, {"type": "null"}]}
    assert _changes(tmp_path, one_of, {"oneOf": [{"type": "null"}, {"type": "string"}]}) == []
