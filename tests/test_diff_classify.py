"""Classification of schema changes into SDxxx checks (real loader, real deepdiff)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from schemalint.commands.diff_compare import compare_tools
from schemalint.diff.checks import BY_CODE, CHECKS
from schemalint.diff.classify import pattern_widens
from schemalint.diff.render import render, snapshot_filename
from schemalint.loaders.formats.json_tools import find_tools

BASE: dict[str, Any] = {
    "name": "search",
    "description": "Search issues.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Search text", "minLength": 1},
            "state": {"type": "string", "enum": ["open", "closed"]},
            "limit": {"type": "integer", "maximum": 100},
        },
        "required": ["query"],
    },
    "annotations": {"readOnlyHint": True},
}


def tools(*defs: Any) -> list[Any]:
    return list(find_tools(list(defs), "tools.json"))


def diff(old: Any, new: Any) -> Any:
    return compare_tools(tools(old), tools(new))


def names(old: Any, new: Any) -> list[str]:
    return sorted(c.check.name for c in diff(old, new).changes)


def edited(**schema_edits: Any) -> dict[str, Any]:
    new = copy.deepcopy(BASE)
    new["inputSchema"].update(schema_edits)
    return new


def test_identical_and_same_meaning() -> None:
    assert diff(BASE, copy.deepcopy(BASE)).tools[0].status == "identical"
    reordered = copy.deepcopy(BASE)
    schema = reordered["inputSchema"]
    reordered["inputSchema"] = {
        "required": schema["required"],
        "properties": schema["properties"],
        "type": "object",
    }
    result = diff(BASE, reordered)
    assert result.tools[0].status == "same-meaning"
    assert [c.check.code for c in result.changes] == ["SD001"]
    assert result.changes[0].pointer == "/inputSchema"
    enum_order = copy.deepcopy(BASE)
    enum_order["inputSchema"]["properties"]["state"]["enum"] = ["closed", "open"]
    result = diff(BASE, enum_order)
    assert result.tools[0].status == "same-meaning"
    assert [(c.check.name, c.pointer) for c in result.changes] == [
        ("list-order-changed", "/inputSchema/properties/state/enum")
    ]
    assert not result.fails("meaning") and result.fails("bytes")


def test_property_removed_and_required_added_are_breaking() -> None:
    new = copy.deepcopy(BASE)
    del new["inputSchema"]["properties"]["limit"]
    new["inputSchema"]["required"] = ["query", "state"]
    result = diff(BASE, new)
    got = {(c.check.code, c.check.name, c.pointer) for c in result.changes}
    assert got == {
        ("SD102", "property-removed", "/inputSchema/properties/limit"),
        ("SD103", "required-added", "/inputSchema/required"),
    }
    assert all(c.check.severity.value == "error" for c in result.changes)
    assert result.fails("breaking")


def test_new_required_property_is_one_required_added() -> None:
    new = copy.deepcopy(BASE)
    new["inputSchema"]["properties"]["repo"] = {"type": "string"}
    new["inputSchema"]["required"] = ["query", "repo"]
    assert names(BASE, new) == ["required-added"]
    new["inputSchema"]["required"] = ["query"]
    assert names(BASE, new) == ["property-added"]
    assert not diff(BASE, new).fails("breaking")


def test_required_dropped_is_compatible() -> None:
    result = diff(BASE, edited(required=[]))
    assert [c.check.name for c in result.changes] == ["required-dropped"]
    assert result.changes[0].check.kind == "compatible"


@pytest.mark.parametrize(
    ("prop", "new_schema", "expected"),
    [
        ("limit", {"type": "number", "maximum": 100}, "type-widened"),
        ("limit", {"type": ["integer", "null"], "maximum": 100}, "type-widened"),
        ("query", {"type": "integer", "description": "Search text", "minLength": 1}, "type-changed"),
        ("state", {"type": "string", "enum": ["open"]}, "enum-value-removed"),
        ("state", {"type": "string", "enum": ["open", "closed", "all"]}, "enum-value-added"),
        ("state", {"type": "string"}, "constraint-loosened"),
        ("limit", {"type": "integer", "maximum": 50}, "constraint-tightened"),
        ("limit", {"type": "integer", "maximum": 500}, "constraint-loosened"),
        ("limit", {"type": "integer"}, "constraint-loosened"),
        ("query", {"type": "string", "description": "Search text", "minLength": 3}, "constraint-tightened"),
        (
            "query",
            {"type": "string", "description": "Search text", "minLength": 1, "pattern": "^a"},
            "constraint-tightened",
        ),
        ("query", {"type": "string", "description": "What to find", "minLength": 1}, "description-changed"),
        ("limit", {"type": "integer", "maximum": 100, "default": 10}, "default-changed"),
    ],
)
def test_property_level_checks(prop: str, new_schema: Any, expected: str) -> None:
    new = copy.deepcopy(BASE)
    new["inputSchema"]["properties"][prop] = new_schema
    assert names(BASE, new) == [expected]


def test_type_narrowed() -> None:
    old = copy.deepcopy(BASE)
    old["inputSchema"]["properties"]["limit"]["type"] = "number"
    assert names(old, BASE) == ["type-narrowed"]


def test_additional_properties_closed_and_opened() -> None:
    closed = edited(additionalProperties=False)
    assert names(BASE, closed) == ["additional-properties-closed"]
    assert names(closed, BASE) == ["additional-properties-opened"]


def test_wrapped_in_any_of_with_null_is_widened_plus_tightened_branch() -> None:
    new = copy.deepcopy(BASE)
    new["inputSchema"]["properties"]["state"] = {
        "anyOf": [{"type": "string", "enum": ["open", "closed"]}, {"type": "null"}]
    }
    result = diff(BASE, new)
    assert [(c.check.name, c.pointer) for c in result.changes] == [
        ("union-branch-added", "/inputSchema/properties/state/anyOf/1")
    ]
    new["inputSchema"]["properties"]["state"]["anyOf"][0]["minLength"] = 1
    assert names(BASE, new) == ["constraint-tightened", "union-branch-added"]


def test_nested_items_and_union_branch_removed() -> None:
    old = edited(
        properties={
            "labels": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}
        }
    )
    new = edited(properties={"labels": {"type": "array", "items": {"anyOf": [{"type": "string"}]}}})
    result = diff(old, new)
    assert [(c.check.name, c.pointer) for c in result.changes] == [
        ("union-branch-removed", "/inputSchema/properties/labels/items/anyOf/1")
    ]
    assert "labels[]" in result.changes[0].message


def test_tool_description_and_annotations() -> None:
    new = copy.deepcopy(BASE)
    new["description"] = "Search issues and pull requests."
    new["annotations"] = {
        "readOnlyHint": True,
        "idempotentHint": False,
        "destructiveHint": True,
        "title": "S",
    }
    result = diff(BASE, new)
    got = sorted((c.check.name, c.pointer) for c in result.changes)
    assert got == [
        ("annotation-default-explicit", "/annotations/destructiveHint"),
        ("annotation-default-explicit", "/annotations/idempotentHint"),
        ("description-changed", "/annotations/title"),
        ("description-changed", "/description"),
    ]
    assert not result.fails("breaking")
    assert CHECKS["annotation-default-explicit"].severity.value == "info"
    flipped = copy.deepcopy(BASE)
    flipped["annotations"] = {"readOnlyHint": False}
    assert names(BASE, flipped) == ["annotation-changed"]


def test_tool_added_removed_with_rename_hint() -> None:
    renamed = copy.deepcopy(BASE)
    renamed["name"] = "find"
    other = {"name": "other", "description": "x", "inputSchema": {"type": "object"}}
    result = diff(BASE, [renamed, other])
    by = {t.name: t for t in result.tools}
    assert by["search"].status == "removed" and by["find"].status == "added" and by["other"].status == "added"
    assert "find" in (by["search"].changes[0].hint or "")
    assert by["other"].changes[0].hint is None


def test_property_rename_hint() -> None:
    new = copy.deepcopy(BASE)
    props = new["inputSchema"]["properties"]
    props["max_results"] = props.pop("limit")
    result = diff(BASE, new)
    removed = next(c for c in result.changes if c.check.name == "property-removed")
    assert "max_results" in (removed.hint or "")


def test_format_change_is_same_meaning() -> None:
    openai = {
        "type": "function",
        "function": {"name": "search", "description": BASE["description"], "parameters": BASE["inputSchema"]},
    }
    mcp = {k: v for k, v in BASE.items() if k != "annotations"}
    result = diff(openai, mcp)
    assert result.tools[0].status == "same-meaning"
    assert [c.check.name for c in result.changes] == ["format-changed"]


def test_empty_properties_is_bytes_only() -> None:
    old = {"name": "ping", "description": "p", "inputSchema": {"type": "object", "properties": {}}}
    new = {"name": "ping", "description": "p", "inputSchema": {"type": "object"}}
    result = diff(old, new)
    assert result.tools[0].status == "same-meaning"
    assert [c.check.name for c in result.changes] == ["empty-keyword-changed"]


def test_variants_of_one_name_in_one_file_are_paired() -> None:
    """A file that defines one name several ways (a dataset's variants of a function) is paired
    with the other side's: unchanged definitions first, wherever they moved, then the rest in the
    file's order, keyed `NAME #k`; extra definitions are added or removed. The same definition
    twice (recorded traffic repeats a request's tools) is one tool."""
    a, b, c = (dict(copy.deepcopy(BASE), description=d) for d in ("Search A.", "Search B.", "Search C."))
    b_required = copy.deepcopy(b)
    b_required["inputSchema"]["required"] = ["query", "state"]
    d = dict(copy.deepcopy(BASE), description="Search D.")
    result = compare_tools(tools(a, b, c), tools(c, b_required, a, d))
    by = {t.name: t for t in result.tools}
    assert sorted(by) == ["search #1", "search #2", "search #3", "search #4"]
    assert (by["search #1"].status, by["search #3"].status) == ("identical", "identical")
    assert by["search #3"].new.description == "Search C."  # found where it moved
    assert by["search #2"].status == "changed"
    assert [ch.check.name for ch in by["search #2"].changes] == ["required-added"]
    assert by["search #4"].status == "added"
    removed = compare_tools(tools(a, b), tools(b))
    assert {t.name: t.status for t in removed.tools} == {"search #1": "removed", "search #2": "identical"}
    assert [t.status for t in compare_tools(tools(BASE, copy.deepcopy(BASE)), tools(BASE)).tools] == ["identical"]


def test_pattern_widening_proof_is_narrow() -> None:
    assert pattern_widens(r"^[a-z]+$", r"^[a-z0-9]+$")
    assert not pattern_widens(r"^[a-z0-9]+$", r"^[a-z]+$")
    assert not pattern_widens(r"^[a-z]+$", r"^[a-z]*$")
    assert not pattern_widens(r"[ab]", r"[^ab]")


def test_render_is_canonical_and_filenames_are_safe() -> None:
    tool = tools(
        {"name": "café", "description": "ünïcode", "inputSchema": {"type": "object", "b": 1, "a": 2}}
    )[0]
    text = render(tool)
    assert text.endswith("}\n") and "ünïcode" in text and '\n  "inputSchema": {\n    "type"' in text
    assert text.index('"b"') < text.index('"a"')
    assert snapshot_filename("get_me") == "get_me.json"
    assert snapshot_filename("a/b") == "a%2Fb.json"
    assert snapshot_filename("../x") == "%2E.%2Fx.json"
    assert snapshot_filename("") == "%00.json"


def test_check_table_is_consistent() -> None:
    assert len(BY_CODE) == len(CHECKS)
    for code, chk in BY_CODE.items():
        assert chk.name == chk.name.lower() and " " not in chk.name
        prefix = {"bytes": "SD0", "breaking": "SD1", "compatible": "SD2", "description": "SD3", "security": "SD4"}[
            chk.kind
        ]
        assert code.startswith(prefix), code


def _env(schema: Any) -> dict[str, Any]:
    return edited(properties={"env": schema})


STRING, ARRAY, NULL = {"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}


def test_a_nested_union_is_compared_as_its_branches() -> None:
    # a nullable union (zod: `z.union([...]).nullable()`) unwrapped and the null dropped: the old
    # `anyOf: [{anyOf: [string, array]}, null]` was compared position by position with
    # `anyOf: [string, array]` ("no longer accepts array", null -> array type change); only the
    # null branch went
    old = _env({"anyOf": [{"anyOf": [STRING, ARRAY]}, NULL]})
    result = diff(old, _env({"anyOf": [STRING, ARRAY]}))
    assert [(c.check.name, c.pointer) for c in result.changes] == [
        ("union-branch-removed", "/inputSchema/properties/env/anyOf/1")]
    assert '`env` no longer accepts {"type": "null"}' in result.changes[0].message
    back = diff(_env({"anyOf": [STRING, ARRAY]}), old)
    assert [(c.check.name, c.pointer) for c in back.changes] == [
        ("union-branch-added", "/inputSchema/properties/env/anyOf/1")]
    tighter = _env({"anyOf": [{**STRING, "minLength": 1}, ARRAY]})
    assert [(c.check.name, c.pointer) for c in diff(old, tighter).changes] == [
        ("constraint-tightened", "/inputSchema/properties/env/anyOf/0/minLength"),
        ("union-branch-removed", "/inputSchema/properties/env/anyOf/1")]
    # spliced the same branches: nothing is reported, and the tool means the same
    spliced = diff(old, _env({"anyOf": [STRING, ARRAY, NULL]}))
    assert spliced.changes == [] and [t.status for t in spliced.tools] == ["same-meaning"]
    # a nested union with a text of its own is compared as it stands (its text change is seen)
    described = _env({"anyOf": [{"anyOf": [STRING, ARRAY], "description": "one or many"}, NULL]})
    redescribed = _env({"anyOf": [{"anyOf": [STRING, ARRAY], "description": "one or more"}, NULL]})
    assert names(described, redescribed) == ["description-changed"]


def test_a_type_list_wrapped_into_any_of_is_one_branch_per_type() -> None:
    # zod 3 renders z.union([z.string(), z.number()]) as a type list, zod 4 as anyOf: the same
    # schema; it was reported as the breaking SD104 "no longer accepts string"
    listed = _env({"type": ["string", "number"]})
    split = _env({"anyOf": [{"type": "string"}, {"type": "number"}]})
    assert diff(listed, split).changes == [] and diff(split, listed).changes == []
    other = _env({"anyOf": [{"type": "string", "minLength": 1}, NULL]})
    assert [(c.check.name, c.pointer) for c in diff(listed, other).changes] == [
        ("constraint-tightened", "/inputSchema/properties/env/anyOf/0/minLength"),
        ("union-branch-added", "/inputSchema/properties/env/anyOf/1"),
        ("union-branch-removed", "/inputSchema/properties/env")]
    removed = next(c for c in diff(listed, other).changes if c.check.name == "union-branch-removed")
    assert '`env` no longer accepts {"type": "number"}' in removed.message
