"""Unit tests of the shape rules SL001-SL007, run through the real loader and check pipeline."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check, load
from schemalint.model import Diagnostic, Severity
from schemalint.rules.base import Context
from schemalint.rules.shape.sl001_invalid_schema import token_role, type_hint
from schemalint.rules.shape.sl006_invalid_tool_name import InvalidToolName, suggest
from schemalint.schema.dialect import DEFAULT_DIALECT, dialect_of, fast_validator, normalize_dialect
from tests.conftest import needs_shared


def lint(tmp_path: Path, doc: Any, code: str, name: str = "tools.json", **kwargs: Any) -> list[Diagnostic]:
    """Write ``doc`` as JSON and return the diagnostics of rule ``code``."""
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return check([str(path)], select=[code], **kwargs).diagnostics


def mcp(schema: Any, name: str = "t", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": "A tool.", "inputSchema": schema, **extra}


def openai(schema: Any, name: str = "t") -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "A tool.", "parameters": schema}}


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


# --- dialect -------------------------------------------------------------------------


def test_dialect_from_schema_keyword_default_and_override() -> None:
    assert dialect_of({}).dialect == DEFAULT_DIALECT == "draft-07"
    assert dialect_of({"$schema": "https://json-schema.org/draft/2020-12/schema"}).dialect == "2020-12"
    assert dialect_of({"$schema": "http://json-schema.org/draft-04/schema#"}).dialect == "draft-04"
    assert dialect_of({"$schema": "http://json-schema.org/draft-06/schema"}).dialect == "draft-06"
    assert dialect_of({"$schema": "https://json-schema.org/draft/2019-09/schema"}).dialect == "2019-09"
    unknown = dialect_of({"$schema": "https://example.com/my-meta"})
    assert unknown.unknown and unknown.dialect == "draft-07"
    assert dialect_of({"$schema": "http://json-schema.org/draft-04/schema#"}, "2020-12").dialect == "2020-12"
    assert normalize_dialect("draft7") == normalize_dialect("7") == "draft-07"
    assert normalize_dialect("2020-12") == "2020-12"
    assert normalize_dialect("draft-99") is None


def test_validators_are_cached_per_dialect() -> None:
    assert fast_validator("draft-07") is fast_validator("draft-07")
    assert fast_validator("draft-07") is not fast_validator("2020-12")


# --- SL001 ---------------------------------------------------------------------------


def test_sl001_nonstandard_types_one_diagnostic_per_schema_with_hints(tmp_path: Path) -> None:
    schema = {"type": "dict", "properties": {"a": {"type": "float"}, "b": {"type": "float"},
                                             "c": {"type": "array", "items": {"type": "String"}}}}
    diags = lint(tmp_path, [{"name": "f", "description": "d", "parameters": schema}], "SL001")
    assert len(diags) == 1
    d = diags[0]
    assert d.pointer == "/0/parameters/type"
    assert '"dict"' in d.message and "/properties/a/type" in d.message
    assert "/properties/c/items/type" in d.message
    assert d.hint and 'use "type": "object"' in d.hint and 'use "type": "number"' in d.hint
    assert d.line == 1 and d.column


def test_sl001_dialect_file_summarised_once(tmp_path: Path) -> None:
    def fn(name: str, **props: Any) -> dict[str, Any]:
        return {"name": name, "description": "d", "parameters": {"type": "dict", "properties": props}}

    bench = [fn("a", x={"type": "float"}), fn("b", y={"type": "string", "minLength": -1}), fn("c")]
    for _ in range(2):  # the rule keeps per-run state: a second run gives the same answer
        diags = lint(tmp_path, bench, "SL001")
        assert sorted(d.pointer for d in diags) == ["/0/parameters/type",
                                                    "/1/parameters/properties/y/minLength"]
        summary = next(d for d in diags if d.pointer == "/0/parameters/type")
        assert "all 3 tool schemas" in summary.message and '"float" in 1' in summary.message
        assert summary.tool == "a" and summary.hint and 'use "type": "object"' in summary.hint
    mixed = [fn("a"), {"name": "b", "description": "d", "parameters": obj(q={"type": "float"})}]
    assert sorted(d.pointer for d in lint(tmp_path, mixed, "SL001")) == [
        "/0/parameters/type", "/1/parameters/properties/q/type"]


def test_sl001_type_hints() -> None:
    assert '"number"' in type_hint("float")
    assert '"object"' in type_hint("HashMap")
    assert '"array"' in type_hint("tuple")
    assert "omit `type`" in type_hint("any")
    assert 'lower case' in type_hint("String") or '"string"' in type_hint("String")


def test_sl001_nested_in_union_and_items_is_located(tmp_path: Path) -> None:
    schema = obj(x={"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "int"}}]})
    diags = lint(tmp_path, [mcp(schema)], "SL001")
    assert [d.pointer for d in diags] == ["/0/inputSchema/properties/x/anyOf/1/items/type"]


def test_sl001_other_metaschema_errors_located_per_keyword(tmp_path: Path) -> None:
    schema = obj(a={"type": "string", "minLength": -1}, b={"type": "string", "enum": "x"})
    schema["required"] = "a"
    diags = lint(tmp_path, [mcp(schema)], "SL001")
    by_ptr = {d.pointer: d for d in diags}
    assert set(by_ptr) == {"/0/inputSchema/properties/a/minLength", "/0/inputSchema/properties/b/enum",
                           "/0/inputSchema/required"}
    assert "must be an array" in by_ptr["/0/inputSchema/required"].message


def test_sl001_property_named_type_or_properties_is_fine(tmp_path: Path) -> None:
    schema = obj(type={"type": "string"},
                 properties={"type": "object", "properties": {"type": {"type": "string"}}})
    assert lint(tmp_path, [mcp(schema)], "SL001") == []


def test_sl001_draft03_required_boolean(tmp_path: Path) -> None:
    diags = lint(tmp_path, [mcp(obj(a={"type": "string", "required": True}))], "SL001")
    assert len(diags) == 1 and "draft-03" in diags[0].message
    assert diags[0].pointer == "/0/inputSchema/properties/a/required"


def test_sl001_dialect_decides_and_override_wins(tmp_path: Path) -> None:
    tuple_items = obj(p={"type": "array", "items": [{"type": "number"}, {"type": "number"}]})
    assert lint(tmp_path, [openai(tuple_items)], "SL001") == []  # draft-07 by default: array form is fine
    # an MCP tool without $schema is 2020-12 (MCP 2025-11-25, SEP-1613): array-form items is invalid
    assert [d.pointer for d in lint(tmp_path, [mcp(tuple_items)], "SL001")] == ["/0/inputSchema/properties/p/items"]
    assert lint(tmp_path, [mcp({"$schema": "http://json-schema.org/draft-07/schema#", **tuple_items})], "SL001") == []
    v2020 = {"$schema": "https://json-schema.org/draft/2020-12/schema", **tuple_items}
    diags = lint(tmp_path, [openai(v2020)], "SL001")
    assert [d.pointer for d in diags] == ["/0/function/parameters/properties/p/items"]
    # The message names the tuple form, the dialect read and why (a generated file of getsentry/sentry-mcp's
    # tools, draft-07 rendered by zod with `$schema` removed, got "an array where a schema must be").
    assert "tuple form" in diags[0].message and "prefixItems" in diags[0].message
    assert "read as 2020-12 (its `$schema`)" in diags[0].message
    (diag,) = lint(tmp_path, [mcp(tuple_items)], "SL001")
    assert "it has no `$schema`, and 2020-12 is the default of mcp tools" in diag.message
    assert lint(tmp_path, [openai(tuple_items)], "SL001", dialect="2020-12")
    assert lint(tmp_path, [mcp(tuple_items)], "SL001", dialect="draft-07") == []
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#",
              **obj(n={"type": "number", "exclusiveMinimum": 0})}
    draft4_ptrs = [d.pointer for d in lint(tmp_path, [mcp(draft4)], "SL001")]
    assert "/0/inputSchema/properties/n/exclusiveMinimum" in draft4_ptrs  # draft-04: a boolean
    draft7 = {**draft4, "$schema": "http://json-schema.org/draft-07/schema#"}
    assert lint(tmp_path, [mcp(draft7)], "SL001") == []


def test_sl001_unknown_schema_uri_is_a_warning(tmp_path: Path) -> None:
    diags = lint(tmp_path, [openai({"$schema": "https://example.com/meta", **obj()})], "SL001")
    assert [(d.severity, d.pointer) for d in diags] == [(Severity.WARNING, "/0/function/parameters/$schema")]
    # an MCP tool's unknown dialect is SL330's finding (an error: MCP clients must refuse it), not SL001's
    doc = [mcp({"$schema": "https://example.com/meta", **obj()})]
    assert lint(tmp_path, doc, "SL001") == []
    assert [(d.severity, d.pointer) for d in lint(tmp_path, doc, "SL330")] == [
        (Severity.ERROR, "/0/inputSchema/$schema")]


def test_sl001_gemini_uppercase_types_accepted_only_for_gemini(tmp_path: Path) -> None:
    params = {"type": "OBJECT", "properties": {"q": {"type": "STRING"}}}
    gem = [{"functionDeclarations": [{"name": "s", "description": "d", "parameters": params}]}]
    assert lint(tmp_path, gem, "SL001") == []
    diags = lint(tmp_path, [mcp(params)], "SL001")
    assert len(diags) == 1 and "lower case" in (diags[0].hint or "")


def test_sl001_output_schema_checked(tmp_path: Path) -> None:
    diags = lint(tmp_path, [mcp(obj(), outputSchema=obj(r={"type": "float"}))], "SL001")
    assert [d.pointer for d in diags] == ["/0/outputSchema/properties/r/type"]


def test_sl001_non_object_root_left_to_sl002(tmp_path: Path) -> None:
    assert lint(tmp_path, [mcp([1, 2])], "SL001") == []


def test_sl001_too_deep_schema_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    depth = 3000
    text = '{"type": "object", "properties": {"a": ' * depth + '{"type": "string"}' + "}}" * depth
    path = tmp_path / "deep.json"
    path.write_text(f'[{{"name": "deep", "description": "d", "inputSchema": {text}}}]', encoding="utf-8")
    diags = check([str(path)], select=["SL001"]).diagnostics
    assert [d.severity for d in diags] == [Severity.WARNING]
    assert "nested more than" in diags[0].message


def test_token_role() -> None:
    assert token_role(["type"]) == ("keyword", "type")
    assert token_role(["properties", "type"]) == ("entry", "properties")
    assert token_role(["properties", "properties", "type"]) == ("keyword", "type")
    assert token_role(["anyOf", 0, "type"]) == ("keyword", "type")
    assert token_role(["items", "type"]) == ("keyword", "type")
    assert token_role(["items", 1]) == ("index", "items")
    assert token_role(["enum", 0]) == ("data", "")


# --- SL002 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "severity"),
    [
        (openai([{"name": "folder"}]), Severity.ERROR),  # incident 4: an array passes typeof === "object"
        (openai("object"), Severity.ERROR),
        (openai(None), Severity.WARNING),  # omit the key instead
        (mcp(None), Severity.ERROR),
        (mcp(True), Severity.ERROR),
        (mcp({}), Severity.ERROR),
        (mcp({"type": "string"}), Severity.ERROR),
        (mcp({"type": ["object", "null"], "properties": {}}), Severity.ERROR),
        (mcp({"oneOf": [obj(a={"type": "string"}), obj(b={"type": "string"})]}), Severity.ERROR),
        (mcp({"properties": {"a": {"type": "string"}}}), Severity.ERROR),
        ({"name": "t", "description": "d", "input_schema": []}, Severity.ERROR),
    ],
)
def test_sl002_flags(tmp_path: Path, tool: dict[str, Any], severity: Severity) -> None:
    diags = lint(tmp_path, [tool], "SL002")
    assert [d.severity for d in diags] == [severity], diags


@pytest.mark.parametrize(
    "doc",
    [
        [{"type": "function", "function": {"name": "now", "description": "Current time."}}],
        [{"type": "function", "name": "now", "description": "Current time.", "parameters": None,
          "strict": False}],
        [{"functionDeclarations": [{"name": "now", "description": "Current time."}]}],
        [{"name": "now", "description": "d", "arguments": [{"name": "x", "type": "string", "desc": "x"}]}],
        [{"name": "f", "description": "d", "parameters": {"type": "dict", "properties": {}}}],
        [{"functionDeclarations": [{"name": "f", "description": "d", "parameters": {"type": "OBJECT",
                                                                                     "properties": {}}}]}],
        [mcp({"type": "object"})],
        [mcp({"type": "object", "anyOf": [{"required": ["a"]}], "properties": {"a": {"type": "string"}}})],
    ],
)
def test_sl002_accepts(tmp_path: Path, doc: Any) -> None:
    assert load_tools_count(tmp_path, doc) == 1
    assert lint(tmp_path, doc, "SL002") == []


def load_tools_count(tmp_path: Path, doc: Any) -> int:
    path = tmp_path / "count.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return len(load([str(path)]).tools)


def test_sl002_pointer_and_message(tmp_path: Path) -> None:
    (d,) = lint(tmp_path, [mcp({"anyOf": [obj(), obj()]})], "SL002")
    assert d.pointer == "/0/inputSchema/type" and "anyOf" in d.message
    assert d.hint and '"type": "object"' in d.hint
    (d,) = lint(tmp_path, [openai([])], "SL002")
    assert d.pointer == "/0/function/parameters" and "JSON array" in d.message


# --- SL003 ---------------------------------------------------------------------------


def test_sl003_nested_items_and_defs(tmp_path: Path) -> None:
    schema = obj(rows={"type": "array", "items": {"type": "object", "properties": {"x": {}},
                                                  "required": ["x", "y"]}},
                 ref={"$ref": "#/$defs/Point"})
    schema["$defs"] = {"Point": {"type": "object", "properties": {"lat": {}}, "required": ["lat", "lon"]}}
    diags = lint(tmp_path, [mcp(schema)], "SL003")
    assert sorted(d.pointer for d in diags) == ["/0/inputSchema/$defs/Point/required/1",
                                                "/0/inputSchema/properties/rows/items/required/1"]
    items_diag = next(d for d in diags if "items" in d.pointer)
    assert items_diag.instance_path == "/rows/*/y"


def test_sl003_union_branch_does_not_borrow_from_sibling(tmp_path: Path) -> None:
    schema = {"type": "object", "anyOf": [{"properties": {"id": {}}, "required": ["email"]},
                                          {"properties": {"email": {}}, "required": ["email"]}]}
    diags = lint(tmp_path, [mcp(schema)], "SL003")
    assert [d.pointer for d in diags] == ["/0/inputSchema/anyOf/0/required/0"]


def test_sl003_branches_may_require_keys_declared_by_the_parent(tmp_path: Path) -> None:
    schema = obj(id={"type": "string"}, email={"type": "string"})
    schema["oneOf"] = [{"required": ["id"]}, {"required": ["email"]}]
    schema["allOf"] = [{"if": {"required": ["id"]}, "then": {"not": {"required": ["email"]}}}]
    assert lint(tmp_path, [mcp(schema)], "SL003") == []


def test_sl003_declared_elsewhere_is_fine(tmp_path: Path) -> None:
    via_allof = {"type": "object", "allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"b": {}}}],
                 "required": ["a", "b"], "$defs": {"Base": {"properties": {"a": {}}}}}
    pattern = {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "required": ["x-id"]}
    mapping = {"type": "object", "additionalProperties": {"type": "string"}, "required": ["anything"]}
    for schema in (via_allof, pattern, mapping):
        assert lint(tmp_path, [mcp(schema)], "SL003") == [], schema


def test_sl003_closed_object_says_no_call_can_pass(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {}, "required": ["ref"], "additionalProperties": False}
    (d,) = lint(tmp_path, [mcp(schema)], "SL003")
    assert "no call can satisfy" in d.message and d.instance_path == "/ref"


def test_sl003_cyclic_ref_terminates(tmp_path: Path) -> None:
    schema = {"type": "object", "$ref": "#/$defs/A", "required": ["z"],
              "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A", "properties": {"z": {}}}}}
    assert lint(tmp_path, [mcp(schema)], "SL003") == []


# --- SL004 ---------------------------------------------------------------------------


def test_sl004_local_refs(tmp_path: Path) -> None:
    schema = obj(a={"$ref": "#/$defs/A"}, b={"$ref": "#/$defs/Missing"}, c={"$ref": "#"},
                 d={"$ref": "#/$defs/with%20space"}, e={"$ref": "#anchor"}, f={"$ref": "#nowhere"},
                 g={"$ref": "#/definitions/Old"})
    schema["$defs"] = {"A": {"type": "string"}, "with space": {"type": "string"},
                       "Anch": {"$anchor": "anchor", "type": "string"},
                       "Inner": {"$ref": "#/$defs/Gone"}}
    diags = lint(tmp_path, [mcp(schema)], "SL004")
    assert sorted(d.pointer for d in diags) == sorted([
        "/0/inputSchema/properties/b/$ref", "/0/inputSchema/properties/f/$ref",
        "/0/inputSchema/properties/g/$ref", "/0/inputSchema/$defs/Inner/$ref"])
    assert all(d.severity is Severity.ERROR for d in diags)


def test_sl004_own_id_resolves_locally(tmp_path: Path) -> None:
    schema = {"$id": "https://example.com/tool.json", **obj(a={"$ref": "https://example.com/tool.json#/$defs/A"},
                                                          b={"$ref": "tool.json#/$defs/A"})}
    schema["$defs"] = {"A": {"type": "string"}}
    assert lint(tmp_path, [mcp(schema)], "SL004") == []


def test_sl004_typo_hint(tmp_path: Path) -> None:
    schema = {**obj(a={"$ref": "#/$defs/timeRange"}), "$defs": {"TimeRange": {"type": "string"}}}
    (d,) = lint(tmp_path, [mcp(schema)], "SL004")
    assert d.hint and "#/$defs/TimeRange" in d.hint


def test_sl004_remote_ref_reported_and_never_fetched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[Any] = []

    def guard(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", guard)
    monkeypatch.setattr(socket.socket, "connect_ex", guard)
    monkeypatch.setattr(socket, "create_connection", guard)
    monkeypatch.setattr(socket, "getaddrinfo", guard)
    schema = obj(a={"$ref": "http://127.0.0.1:9/schema.json#/defs/a"}, b={"$ref": "common.json#/x"})
    schema["$schema"] = "http://127.0.0.1:9/meta"
    path = tmp_path / "remote.json"
    path.write_text(json.dumps([mcp(schema, outputSchema={"$ref": "http://127.0.0.1:9/out"})]))
    result = check([str(path)])  # every rule, not only SL004
    assert attempts == []
    remote = [d for d in result.diagnostics if d.code == "SL004"]
    assert sorted(d.pointer for d in remote) == ["/0/inputSchema/properties/a/$ref",
                                                 "/0/inputSchema/properties/b/$ref", "/0/outputSchema/$ref"]
    assert all("never fetches" in d.message for d in remote)


# --- SL005 ---------------------------------------------------------------------------


def test_sl005_duplicates_in_one_list(tmp_path: Path) -> None:
    a = mcp(obj(), name="search")
    b = mcp(obj(q={"type": "string"}), name="search")
    diags = lint(tmp_path, {"tools": [a, mcp(obj(), name="other"), b, a]}, "SL005")
    assert [d.pointer for d in diags] == ["/tools/2", "/tools/3"]
    assert "different definition" in diags[0].message and "first at /tools/0" in diags[0].message
    assert "repeats the first definition" in diags[1].message


def test_sl005_not_across_lists_lines_or_files(tmp_path: Path) -> None:
    tool = openai(obj(), name="get_weather")
    assert lint(tmp_path, {"a": {"tools": [tool]}, "b": {"tools": [tool]}}, "SL005") == []
    lines = "\n".join(json.dumps({"id": i, "function": [tool["function"]]}) for i in range(3))
    (tmp_path / "bench.jsonl").write_text(lines + "\n")
    (tmp_path / "other.json").write_text(json.dumps([tool]))
    (tmp_path / "tools.json").write_text(json.dumps([tool]))
    assert check([str(tmp_path)], select=["SL005"]).diagnostics == []


def test_sl005_gemini_declaration_groups_are_one_list(tmp_path: Path) -> None:
    decl = {"name": "f", "description": "d", "parameters": obj()}
    doc = {"tools": [{"functionDeclarations": [decl]}, {"functionDeclarations": [decl]}]}
    diags = lint(tmp_path, doc, "SL005")
    assert [d.pointer for d in diags] == ["/tools/1/functionDeclarations/0"]


# --- SL006 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "severity", "fragment"),
    [
        ([openai(obj(), name="Coffee Shop Locator")], Severity.ERROR, "a space"),
        # a legacy {name, parameters} file names no provider: a warning unless --target says where
        ([{"name": "math.gcd", "description": "d", "parameters": obj()}], Severity.WARNING, "'.'"),
        ([openai(obj(), name="x" * 65)], Severity.ERROR, "65 characters"),
        ([openai(obj(), name="")], Severity.ERROR, "no name"),
        ([mcp(obj(), name="fs.read")], Severity.WARNING, "valid for MCP"),
        ([mcp(obj(), name="read file")], Severity.WARNING, "MCP"),
        ([{"functionDeclarations": [{"name": "1st", "description": "d"}]}], Severity.ERROR,
         "starts with a digit"),
    ],
)
def test_sl006_flags(tmp_path: Path, doc: Any, severity: Severity, fragment: str) -> None:
    (d,) = lint(tmp_path, doc, "SL006")
    assert d.severity is severity and fragment in d.message, d.message


def test_sl006_accepts_and_targets(tmp_path: Path) -> None:
    # 56: the longest MCP name that Claude Code's `mcp__<server>__` leaves within 64 (tests/test_sl006_host_prefix.py)
    ok = [openai(obj(), name="get-weather_2"), mcp(obj(), name="x" * 56)]
    assert lint(tmp_path, ok, "SL006") == []
    gem = [{"functionDeclarations": [{"name": "files.read", "description": "d"}]}]
    assert lint(tmp_path, gem, "SL006") == []  # dots are fine for Gemini
    assert lint(tmp_path, gem, "SL006", targets=["openai"]) == []  # another target: SL301's job
    (d,) = lint(tmp_path, [openai(obj(), name="Coffee Shop")], "SL006")
    assert d.pointer == "/0/function/name" and d.hint and "'Coffee_Shop'" in d.hint


def test_sl006_custom_pattern_option(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([openai(obj(), name="GetWeather")]))
    tool = load([str(path)]).tools[0]
    rule = InvalidToolName()
    assert list(rule.check_tool(tool, Context())) == []
    ctx = Context(options={"SL006": {"pattern": r"^[a-z_]+$"}})
    assert len(list(rule.check_tool(tool, ctx))) == 1
    assert suggest("a.b c!") == "a_b_c"


# --- SL007 ---------------------------------------------------------------------------


def test_sl007(tmp_path: Path) -> None:
    doc = [
        {"name": "a", "inputSchema": obj()},
        {"name": "b", "description": "  ", "inputSchema": obj()},
        {"type": "function", "function": {"name": "c", "description": "", "parameters": obj()}},
        {"name": "d", "description": None, "inputSchema": obj()},
        mcp(obj(), name="ok"),
    ]
    diags = lint(tmp_path, doc, "SL007")
    assert [(d.tool, d.pointer) for d in diags] == [
        ("a", "/0"), ("b", "/1/description"), ("c", "/2/function/description"), ("d", "/3/description")]
    assert all(d.severity is Severity.WARNING for d in diags)


# --- the fast validator agrees with the reference implementation ---------------------


@needs_shared
def test_fast_validator_agrees_with_python_jsonschema_on_corpus_sample(corpus_loaded: Any) -> None:
    """jsonschema-rs decides SL001's validity; python-jsonschema is the reference. Same verdict
    on a deterministic sample of real schemas from every corpus source."""
    from schemalint.schema.dialect import python_validator

    tools = [t for t in corpus_loaded.tools if isinstance(t.advertised, dict)]
    sample = tools[:: max(1, len(tools) // 600)]
    disagree = []
    verdicts = set()
    for tool in sample:
        dialect = dialect_of(tool.advertised).dialect
        fast = fast_validator(dialect).is_valid(tool.advertised)
        ref = python_validator(dialect).is_valid(tool.advertised)
        verdicts.add(ref)
        if fast != ref:
            disagree.append((tool.origin.file, tool.origin.pointer))
    assert len(sample) >= 500 and verdicts == {True, False}
    assert not disagree, disagree[:5]
