"""The schema walk, SL008 and the diff read each tool in its dialect (issue 27).

MCP tools default to JSON Schema 2020-12, other formats to draft-07, and a declared ``$schema``
wins. A tuple is ``prefixItems`` + ``items`` (the rest) in 2020-12 and an array ``items`` +
``additionalItems`` (the rest) in draft-07. The shapes come from a real pydantic v2 model (its
``model_json_schema`` writes ``prefixItems`` and ``$defs``, 2020-12) and from the draft-07 rendering
of the same schema (an array ``items``, ``definitions``: what zod-to-json-schema and pydantic v1
write), listed by the real loaders as an MCP tool and as an OpenAI function.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from schemalint.api import check
from schemalint.commands.diff_compare import compare_tools
from schemalint.diff.dialects import text_tokens, to_2020
from schemalint.loaders.formats.json_tools import find_tools
from schemalint.schema.draft7 import to_draft7
from schemalint.schema.index import index_schema
from schemalint.schema.walk import walk

DRAFT7 = "http://json-schema.org/draft-07/schema#"


class Label(BaseModel):
    text: str
    size: int = 12


class Viewport(BaseModel):
    """Move the viewport of a map view."""

    origin: tuple[float, float] = Field(description="x and y of the top-left corner")
    zoom: int
    label: Label | None = None


def schema_2020() -> dict[str, Any]:
    """The real pydantic v2 rendering: ``prefixItems`` for the tuple, ``$defs`` for ``Label``."""
    schema = Viewport.model_json_schema()
    assert "prefixItems" in schema["properties"]["origin"] and "$defs" in schema
    return schema


def schema_07() -> dict[str, Any]:
    """The same schema as draft-07 writes it: an array ``items`` and ``definitions``."""
    schema = to_draft7(schema_2020()).schema
    origin = schema["properties"]["origin"]
    assert isinstance(origin["items"], list) and "definitions" in schema
    return schema


def mcp_tool(schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": "set_viewport", "description": "Move the map viewport.", "inputSchema": schema}


def openai_tool(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": "set_viewport", "description": "Move the map viewport.",
                                             "parameters": schema}}


# ------------------------------------------------------------------------------------------ walk


@pytest.mark.parametrize(("schema", "positional"), [
    (schema_2020(), "/properties/origin/prefixItems"),
    (schema_07(), "/properties/origin/items"),
], ids=["2020-12", "draft-07"])
def test_walk_and_index_see_positional_items_at_their_pointer(schema: dict[str, Any], positional: str) -> None:
    walked = {n.pointer: n.instance_path for n in walk(schema)}
    indexed = {n.pointer: n.instance_path for n in index_schema(schema).nodes}
    for where in (walked, indexed):
        assert where[f"{positional}/0"] == "/origin/0"
        assert where[f"{positional}/1"] == "/origin/1"
    defs = "/$defs/Label" if "$defs" in schema else "/definitions/Label"
    assert walked[defs] is None and indexed[defs] is None  # a definition governs no instance in place


def test_the_rest_of_a_tuple_governs_any_other_position() -> None:
    rest_2020 = {"type": "array", "prefixItems": [{"type": "number"}], "items": {"type": "string"}}
    rest_07 = {"type": "array", "items": [{"type": "number"}], "additionalItems": {"type": "string"}}
    assert {n.pointer: n.instance_path for n in walk(rest_2020)}["/items"] == "/*"
    assert {n.pointer: n.instance_path for n in walk(rest_07)}["/additionalItems"] == "/*"
    more = {"type": "object", "properties": {"a": {"type": "string"}},
            "dependentSchemas": {"a": {"properties": {"b": {"type": "integer"}}}},
            "unevaluatedProperties": {"type": "boolean"}}
    seen = {n.pointer: n.instance_path for n in walk(more)}
    assert seen["/dependentSchemas/a/properties/b"] == "/b"
    assert seen["/unevaluatedProperties"] == "/*"


def test_anchors_resolve_as_the_dialect_defines_them() -> None:
    doc = {"type": "object", "properties": {"node": {"$ref": "#tree"}},
           "$defs": {"T": {"$anchor": "tree", "type": "object", "properties": {"leaf": {"type": "string"}}}}}
    reached = {n.pointer for n in walk(doc, follow_refs=True, include_definitions=False, dialect="2020-12")}
    assert "/$defs/T/properties/leaf" in reached
    # draft-07 names an anchor with `$id: "#tree"`; a `$anchor` means nothing there
    assert "/$defs/T/properties/leaf" not in {
        n.pointer for n in walk(doc, follow_refs=True, include_definitions=False, dialect="draft-07")}
    old = copy.deepcopy(doc)
    old["$defs"]["T"] = {"$id": "#tree", "type": "object", "properties": {"leaf": {"type": "string"}}}
    assert "/$defs/T/properties/leaf" in {
        n.pointer for n in walk(old, follow_refs=True, include_definitions=False, dialect="draft-07")}
    dynamic = {"$dynamicAnchor": "node", "type": "object",
               "properties": {"children": {"type": "array", "items": {"$dynamicRef": "#node"}}}}
    nodes = list(walk(dynamic, follow_refs=True, include_definitions=False, dialect="2020-12"))
    cut = [n for n in nodes if n.recursion_cut]
    assert [n.instance_path for n in nodes if n.pointer == "" and n.keyword == "$dynamicRef"] == ["/children/*"]
    assert cut, "a $dynamicRef back to its anchor is a recursive schema"


# ------------------------------------------------------------------------ rules on the walk (SL008)


def _write(tmp_path: Path, doc: Any, name: str = "tools.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def _sl008(tmp_path: Path, doc: Any) -> list[tuple[str | None, str]]:
    result = check([_write(tmp_path, doc)], select=["SL008"])
    return sorted((d.pointer, d.severity.value if hasattr(d.severity, "value") else str(d.severity))
                  for d in result.diagnostics)


def test_sl008_reports_a_positional_item_at_its_pointer_in_both_dialects(tmp_path: Path) -> None:
    new = schema_2020()
    new["properties"]["origin"]["prefixItems"][1].update(minimum=10, maximum=1)
    old = schema_07()
    old["properties"]["origin"]["items"][1].update(minimum=10, maximum=1)
    found_new = _sl008(tmp_path, {"tools": [mcp_tool(new)]})
    found_old = _sl008(tmp_path, [openai_tool(old)])
    assert [p for p, _ in found_new] == ["/tools/0/inputSchema/properties/origin/prefixItems/1"]
    assert [p for p, _ in found_old] == ["/0/function/parameters/properties/origin/items/1"]
    # `origin` is required and its two items are required by minItems: the whole schema is empty
    assert [s for _, s in found_new] == [s for _, s in found_old] == ["error"]


@pytest.mark.parametrize(("fmt", "array", "closed_at"), [
    ("mcp", {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": False},
     "/items"),
    ("openai", {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": False},
     "/additionalItems"),
], ids=["2020-12", "draft-07"])
def test_sl008_reads_a_closed_tuple_in_the_tools_dialect(tmp_path: Path, fmt: str, array: dict[str, Any],
                                                        closed_at: str) -> None:
    def doc(min_items: int) -> Any:
        schema = {"type": "object", "properties": {"point": {**array, "minItems": min_items}}, "required": ["point"]}
        return {"tools": [mcp_tool(schema)]} if fmt == "mcp" else [openai_tool(schema)]

    base = "/tools/0/inputSchema" if fmt == "mcp" else "/0/function/parameters"
    assert _sl008(tmp_path, doc(3)) == [(f"{base}/properties/point", "error")]
    result = check([_write(tmp_path, doc(3))], select=["SL008"])
    assert closed_at.lstrip("/") in result.diagnostics[0].message
    assert _sl008(tmp_path, doc(2)) == []  # the clean twin: two items fit


def test_sl008_in_another_dialect_reads_the_other_spelling(tmp_path: Path) -> None:
    """A 2020-12 array `items` is no tuple (SL001 reports it), and a declared draft-07 schema's
    `prefixItems` is no keyword, so its `items: false` refuses every item."""
    declared = {"$schema": DRAFT7, "type": "object", "required": ["point"], "properties": {
        "point": {"type": "array", "prefixItems": [{"type": "number"}], "items": False, "minItems": 1}}}
    assert _sl008(tmp_path, {"tools": [mcp_tool(declared)]}) == [("/tools/0/inputSchema/properties/point", "error")]
    undeclared = copy.deepcopy(declared)
    del undeclared["$schema"]
    assert _sl008(tmp_path, {"tools": [mcp_tool(undeclared)]}) == []


# ------------------------------------------------------------------------------------------ diff


def _diff(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str]]:
    result = compare_tools(list(find_tools(old, "old.json")), list(find_tools(new, "new.json")))
    return sorted((c.check.name, c.check.kind, c.pointer) for c in result.changes)


def test_a_tool_moving_from_draft07_to_2020_12_changes_no_meaning() -> None:
    """zod-to-json-schema (draft-07, declared) -> zod 4 / pydantic v2 (2020-12): the same contract."""
    old = {"tools": [mcp_tool({"$schema": DRAFT7, **schema_07()})]}
    new = {"tools": [mcp_tool(schema_2020())]}
    changes = _diff(old, new)
    assert [c for c in changes if c[1] == "breaking"] == []
    assert [name for name, _, _ in changes] == ["metadata-changed"]  # `$schema` only
    # an OpenAI function (draft-07 by default) rendered by pydantic v2: read as the author wrote it
    assert _diff([openai_tool(schema_07())], [openai_tool(schema_2020())]) == []


@pytest.mark.parametrize(("make", "wrap", "positional", "base"), [
    (schema_2020, lambda s: {"tools": [mcp_tool(s)]}, "prefixItems", "/inputSchema"),
    (schema_07, lambda s: [openai_tool(s)], "items", "/function/parameters"),
], ids=["2020-12", "draft-07"])
def test_tightening_a_positional_item_is_breaking_in_both_dialects(make: Any, wrap: Any, positional: str,
                                                                   base: str) -> None:
    old, new = make(), make()
    new["properties"]["origin"][positional][1]["maximum"] = 4096
    assert _diff(wrap(old), wrap(new)) == [
        ("constraint-tightened", "breaking", f"{base}/properties/origin/{positional}/1/maximum")]
    assert _diff(wrap(new), wrap(old)) == [
        ("constraint-loosened", "compatible", f"{base}/properties/origin/{positional}/1/maximum")]


@pytest.mark.parametrize(("make", "wrap", "rest", "base"), [
    (schema_2020, lambda s: {"tools": [mcp_tool(s)]}, "items", "/inputSchema"),
    (schema_07, lambda s: [openai_tool(s)], "additionalItems", "/function/parameters"),
], ids=["2020-12", "draft-07"])
def test_closing_and_opening_the_rest_of_a_tuple(make: Any, wrap: Any, rest: str, base: str) -> None:
    old, closed = make(), make()
    closed["properties"]["origin"]["minItems"] = 0
    old["properties"]["origin"]["minItems"] = 0
    closed["properties"]["origin"].pop("maxItems")
    old["properties"]["origin"].pop("maxItems")
    closed["properties"]["origin"][rest] = False
    at = f"{base}/properties/origin/{rest}"
    assert _diff(wrap(old), wrap(closed)) == [("constraint-tightened", "breaking", at)]
    assert _diff(wrap(closed), wrap(old)) == [("constraint-loosened", "compatible", at)]


def test_a_new_position_is_compared_with_the_rest_it_replaces() -> None:
    def tool(prefix: list[Any], rest: Any) -> Any:
        schema = {"type": "object", "properties": {"p": {"type": "array", "prefixItems": prefix,
                                                         **({} if rest is None else {"items": rest})}}}
        return {"tools": [mcp_tool(schema)]}

    num = {"type": "number"}
    at = "/inputSchema/properties/p/prefixItems/1"
    # the rest was open: a typed position refuses calls valid before
    assert _diff(tool([num], None), tool([num, num], None)) == [("constraint-tightened", "breaking", at)]
    # the tuple was closed after one item: a second position accepts more
    assert _diff(tool([num], False), tool([num, num], False)) == [("constraint-loosened", "compatible", at)]
    # the rest was the same schema: nothing changes for a caller
    assert _diff(tool([num], num), tool([num, num], num)) == []
    # a position dropped into a closed rest: calls with that item are refused now
    assert _diff(tool([num, num], False), tool([num], False)) == [
        ("constraint-tightened", "breaking", "/inputSchema/properties/p/items")]


def test_draft07_spellings_without_effect_or_renamed_change_nothing() -> None:
    """`additionalItems` beside a schema `items` has no effect in draft-07; `dependencies` is the
    2019-09 `dependentRequired`/`dependentSchemas`; `definitions` is `$defs` with its references."""
    old = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                                            "tags": {"type": "array", "items": {"type": "string"}}},
           "dependencies": {"a": ["b"]}}
    new = copy.deepcopy(old)
    new["properties"]["tags"]["additionalItems"] = False
    assert _diff([openai_tool(old)], [openai_tool(new)]) == []
    moved = {k: v for k, v in old.items() if k != "dependencies"}
    moved["dependentRequired"] = {"a": ["b"]}
    assert _diff([openai_tool(old)], {"tools": [mcp_tool(moved)]}) == []
    tightened = copy.deepcopy(old)
    tightened["dependencies"] = {"a": ["b"], "b": {"required": ["tags"]}}
    names = _diff([openai_tool(old)], [openai_tool(tightened)])
    assert names == [("constraint-tightened", "breaking", "/function/parameters/dependencies")]


def test_text_tokens_maps_the_one_spelling_back_to_the_file() -> None:
    old = schema_07()
    assert text_tokens(old, ("properties", "origin", "prefixItems", 1), "draft-07") == (
        "properties", "origin", "items", 1)
    assert text_tokens(old, ("$defs", "Label"), "draft-07") == ("definitions", "Label")
    rest = {"items": [{}], "additionalItems": {"type": "string"}}
    assert text_tokens(rest, ("items", "type"), "draft-07") == ("additionalItems", "type")
    assert to_2020(rest, "draft-07") == {"prefixItems": [{}], "items": {"type": "string"}}
    assert to_2020(rest, "2020-12") == rest  # an array `items` is not rewritten in 2020-12
