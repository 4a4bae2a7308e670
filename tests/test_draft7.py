"""Rendering schemas as draft-07."""

from __future__ import annotations

import jsonschema

from schemalint.schema.draft7 import DRAFT7_URI, to_draft7


def test_defs_become_definitions_with_refs_rewritten() -> None:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}
    out = to_draft7(schema).schema
    assert out == {"$schema": DRAFT7_URI, "type": "object", "properties": {"a": {"$ref": "#/definitions/A"}},
                   "definitions": {"A": {"type": "string"}}}
    assert list(out) == ["$schema", "type", "properties", "definitions"]
    assert "$defs" in schema  # input untouched
    jsonschema.Draft7Validator.check_schema(out)


def test_prefix_items_and_dependent_keywords() -> None:
    schema = {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False}
    assert to_draft7(schema).schema == {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                                        "additionalItems": False}
    dep = {"type": "object", "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"c": {"required": ["d"]}}}
    assert to_draft7(dep).schema == {"type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}


def test_what_draft7_cannot_say_is_reported() -> None:
    rendered = to_draft7({"type": "object", "properties": {"x": {"unevaluatedProperties": False}}})
    assert rendered.unsupported == [("/properties/x/unevaluatedProperties", "unevaluatedProperties")]


def test_deep_schema_renders_without_recursion() -> None:
    schema: dict = {"type": "string"}
    for _ in range(5000):
        schema = {"type": "object", "properties": {"x": schema}}
    out = to_draft7(schema).schema
    for _ in range(5000):
        out = out["properties"]["x"]
    assert out == {"type": "string"}


def test_every_change_of_spelling_is_listed_with_the_written_pointer() -> None:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "properties": {"a": {"$ref": "#/$defs/A"}, "pair": {"type": "array", "prefixItems": [{}], "items": False},
                             "b": {"$ref": "#/properties/a"}},
              "dependentRequired": {"a": ["b"]}, "$defs": {"A": {"type": "string"}}}
    assert to_draft7(schema).rewritten == [
        ("/$defs", "$defs", "definitions"),
        ("/$schema", "https://json-schema.org/draft/2020-12/schema", DRAFT7_URI),
        ("/dependentRequired", "dependentRequired", "dependencies"),
        ("/properties/a/$ref", "#/$defs/A", "#/definitions/A"),
        ("/properties/pair/items", "items", "additionalItems"),
        ("/properties/pair/prefixItems", "prefixItems", "items"),
    ]
    # Already draft-07: nothing is shown otherwise than written; a property named $defs is data.
    same = {"$schema": DRAFT7_URI, "properties": {"$defs": {"type": "string"}}, "definitions": {"A": {}},
            "items": [{}], "dependencies": {"a": ["b"]}}
    assert to_draft7(same).rewritten == []
    assert to_draft7(same).schema == same
