"""schemalint.schema.shapes: shapes per instance path and union branch, and matching of two sides."""

from __future__ import annotations

from schemalint.schema.shapes import ABSENT, display_path, match, normalize_path, pairs, shapes_of

SCHEMA = {
    "type": "object",
    "properties": {
        "a": {"anyOf": [{"type": "string", "maxLength": 5}, {"type": "null"}], "default": None},
        "b": {"$ref": "#/$defs/B"},
        "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
    },
    "allOf": [{"required": ["a"]}, {"properties": {"c": {"type": "integer", "minimum": 1}}}],
    "anyOf": [{"required": ["b"]}, {"required": ["c"]}],
    "if": {"properties": {"a": {"const": "x"}}},
    "then": {"required": ["tags"]},
    "$defs": {
        "B": {
            "type": "object",
            "properties": {"x": {"type": "integer", "default": 3}},
            "additionalProperties": False,
            "patternProperties": {"^_": {}},
        }
    },
}


def test_root_alternatives_merge_allof_and_keep_anyof_branches_apart() -> None:
    m = shapes_of(SCHEMA)
    roots = m.alternatives("")
    assert [s.branch for s in roots] == [(("anyOf", 0),), (("anyOf", 1),)]
    for s in roots:
        assert list(s.properties) == ["a", "b", "tags", "c"]  # allOf member merged, enclosing shape folded in
        assert s.types == frozenset({"object"})
        assert s.property_defaults == {"a": None}
        assert "tags" not in s.required  # `then` is conditional: left out
    assert roots[0].required == {"a", "b"} and roots[1].required == {"a", "c"}


def test_ref_followed_in_place_with_target_pointers() -> None:
    (b,) = shapes_of(SCHEMA).alternatives("/b")
    assert b.additional is False and b.additional_pointer == "/$defs/B/additionalProperties"
    assert b.properties == {"x": "/$defs/B/properties/x"}
    assert b.property_defaults == {"x": 3}
    assert b.admits_extra("_private") and not b.admits_extra("other") and b.refuses_extra()


def test_nested_union_and_constraints() -> None:
    m = shapes_of(SCHEMA)
    a_alts = m.alternatives("/a")
    assert sorted(sorted(s.types or ()) for s in a_alts) == [["null"], ["string"]]
    assert m.union_types("/a") == frozenset({"string", "null"})
    (tags_item,) = m.alternatives("/tags/*")
    assert tags_item.constraints == {"pattern": "^[a-z]+$"}
    assert m.alternatives("/tags/3") == [tags_item]  # concrete index falls back to *
    (c,) = [s for s in m.alternatives("/c")]
    assert c.constraints["minimum"] == 1 and c.default is ABSENT


def test_allof_tightens_bounds_and_intersects_enum() -> None:
    schema = {
        "allOf": [
            {"type": "number", "minimum": 1, "maximum": 9, "enum": [1, 2, 3]},
            {"type": "integer", "minimum": 2, "maximum": 20, "enum": [2, 3, 4]},
        ]
    }
    (s,) = shapes_of(schema).alternatives("")
    assert s.types == frozenset({"integer"})
    assert (s.constraints["minimum"], s.constraints["maximum"], s.constraints["enum"]) == (2, 9, [2, 3])


def test_match_by_overlap_when_branch_counts_differ() -> None:
    left = shapes_of({"anyOf": [{"properties": {"x": {}, "x2": {}}}, {"properties": {"y": {}, "y2": {}}}]})
    right = shapes_of({"oneOf": [{"properties": {"y": {}, "y2": {}}}, {"properties": {"x": {}}}]})
    got = {
        (tuple(p.left.properties), tuple(p.right.properties))
        for p in match(left.alternatives(""), right.alternatives(""))
        if p.left and p.right
    }
    assert got == {(("x", "x2"), ("x",)), (("y", "y2"), ("y", "y2"))}


def test_pairs_cover_paths_of_both_sides() -> None:
    left = shapes_of({"type": "object", "properties": {"a": {"type": "string"}}})
    right = shapes_of({"type": "object", "properties": {"b": {"type": "string"}}})
    got = [(p.instance_path, p.left is not None, p.right is not None) for p in pairs(left, right)]
    assert got == [("", True, True), ("/a", True, False), ("/b", False, True)]


def test_broken_inputs_never_raise() -> None:
    for schema in (
        None,
        True,
        False,
        [],
        "x",
        {"properties": []},
        {"required": "a"},
        {"type": 3},
        {"$ref": "#"},
        {"properties": {"a": {"$ref": "#"}}},
        {"type": ["string", "integer"], "allOf": [{"type": "null"}]},
    ):
        m = shapes_of(schema)
        assert m.alternatives("") is not None
    (never,) = shapes_of(False).alternatives("")
    assert never.never
    (contradiction,) = shapes_of({"type": "string", "allOf": [{"type": "null"}]}).alternatives("")
    assert contradiction.never


def test_paths_helpers() -> None:
    assert display_path("/options/presentation") == "options.presentation"
    assert display_path("/topics/*/start") == "topics[].start"
    assert display_path("") == "(the call)"
    assert display_path("/a~1b") == "a/b"
    assert normalize_path("/rows/0/id") == "/rows/*/id"
