"""The schema walker reaches every subschema with the right pointers and instance paths."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from schemalint.schema.walk import walk
from tests.conftest import examples

SCHEMA = {
    "type": "object",
    "properties": {
        "a": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
        "b": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"c": {"type": "integer"}}}]},
        "t": {"type": "array", "prefixItems": [{"type": "string"}], "items": [{"type": "number"}]},
    },
    "patternProperties": {"^x-": {"type": "string"}},
    "additionalProperties": {"type": "boolean"},
    "if": {"properties": {"b": {"const": "s"}}},
    "then": {"required": ["a"]},
    "else": {"not": {"required": ["t"]}},
    "dependentSchemas": {"a": {"properties": {"d": {"type": "string"}}}},
    "$defs": {"Item": {"type": "object", "properties": {"name": {"type": "string"}, "next": {"$ref": "#/$defs/Item"}}}},
}


def _index(**kwargs: object) -> dict[str, tuple[str | None, tuple[tuple[str, int], ...]]]:
    return {n.pointer: (n.instance_path, n.branch) for n in walk(SCHEMA, **kwargs)}  # type: ignore[arg-type]


def test_every_applicator_is_visited_once_without_refs() -> None:
    idx = _index()
    assert idx["/properties/a/items"][0] == "/a/*"
    assert idx["/properties/b/anyOf/1/properties/c"] == ("/b/c", (("anyOf", 1),))
    assert idx["/properties/t/prefixItems/0"][0] == "/t/0"
    assert idx["/properties/t/items/0"][0] == "/t/0"
    assert idx["/patternProperties/^x-"][0] == "/*"
    assert idx["/additionalProperties"][0] == "/*"
    assert idx["/if"][0] is None and idx["/then"][0] == "" and idx["/else/not"][0] is None
    assert idx["/dependentSchemas/a/properties/d"][0] == "/d"
    assert idx["/$defs/Item/properties/name"][0] is None


def test_local_refs_are_followed_with_a_cycle_guard() -> None:
    nodes = list(walk(SCHEMA, follow_refs=True, include_definitions=False))
    paths = [n.instance_path for n in nodes if n.pointer == "/$defs/Item/properties/name"]
    # Reached through items; the self-reference `next` is visited but not entered again.
    assert paths == ["/a/*/name"]
    assert [n.instance_path for n in nodes if n.pointer == "/$defs/Item/properties/next"] == ["/a/*/next"]


def test_remote_refs_are_not_followed() -> None:
    schema = {"properties": {"x": {"$ref": "https://example.invalid/schema.json"}}}
    assert [n.pointer for n in walk(schema, follow_refs=True)] == ["", "/properties/x"]


def test_deep_nesting_needs_no_recursion() -> None:
    schema: dict[str, object] = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"x": schema}}
    nodes = list(walk(schema))
    assert len(nodes) == 5001
    assert nodes[-1].instance_path == "/x" * 5000


def test_escaped_pointer_tokens() -> None:
    nodes = {n.pointer: n.instance_path for n in walk({"properties": {"a/b~c": {}}})}
    assert nodes["/properties/a~1b~0c"] == "/a~1b~0c"


_schemas = st.recursive(
    st.just({"type": "string"}),
    lambda inner: st.one_of(
        st.dictionaries(st.text("abc", min_size=1, max_size=3), inner, max_size=3).map(
            lambda p: {"type": "object", "properties": p}),
        inner.map(lambda s: {"type": "array", "items": s}),
        st.lists(inner, min_size=1, max_size=3).map(lambda b: {"anyOf": b}),
    ),
    max_leaves=12,
)


@settings(max_examples=60, deadline=None)
@given(_schemas)
def test_every_pointer_resolves_to_the_node_schema(schema: dict[str, object]) -> None:
    from schemalint.schema.walk import resolve_local_ref

    for node in walk(schema):
        found, value, _ = resolve_local_ref(schema, "#" + node.pointer)
        assert found and value is node.schema


_KEYWORD_SCHEMAS: st.SearchStrategy[object] = st.recursive(
    st.one_of(st.booleans(), st.integers(), st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["string", "object"]), "description": st.text(max_size=3),
        "$ref": st.just("#/$defs/a"), "anyOf": st.just([{"type": "string"}])})),
    lambda inner: st.one_of(
        st.dictionaries(st.sampled_from(["properties", "patternProperties", "$defs", "definitions",
                                         "dependentSchemas", "dependencies"]),
                        st.one_of(st.dictionaries(st.sampled_from(["a", "b~c", "d/e", "0"]), inner, max_size=3),
                                  inner), max_size=2),
        st.dictionaries(st.sampled_from(["items", "additionalProperties", "not", "if", "then", "else", "contains",
                                         "propertyNames", "additionalItems", "unevaluatedProperties"]),
                        st.one_of(inner, st.lists(inner, max_size=2)), max_size=3),
        st.dictionaries(st.sampled_from(["anyOf", "oneOf", "allOf", "prefixItems", "items", "type", "$ref"]),
                        st.one_of(st.lists(inner, max_size=3), inner), max_size=3),
    ),
    max_leaves=14,
)


def _same_walk(schema: object) -> None:
    from schemalint.model import RunContext, running
    from schemalint.schema.index import index_schema

    with running(RunContext()):
        index = index_schema(schema)
    walked = [n for n in walk(schema) if type(n.schema) is dict]
    assert [(n.pointer, n.instance_path) for n in index.nodes] == [(n.pointer, n.instance_path) for n in walked]
    assert all(a.schema is b.schema for a, b in zip(index.nodes, walked, strict=True))
    props = [n.schema for n in index.nodes if n.keyword == "properties"]
    assert index.loose_properties == any("type" not in p and "anyOf" not in p and "$ref" not in p for p in props)


@settings(max_examples=examples(300), deadline=None)
@given(_KEYWORD_SCHEMAS)
@example({"properties": {"a": {"$ref": "#/$defs/a"}, "b": {"anyOf": []}, "c": {"type": "x"}}})
@example({"properties": {"a": {"type": "string"}}, "then": {"properties": {"b": {"description": "B."}}}})
def test_the_shared_index_visits_the_walks_object_subschemas_in_its_order(schema: object) -> None:
    _same_walk(schema)
