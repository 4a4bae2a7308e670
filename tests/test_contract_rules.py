"""Contract rules (SL1xx) on real manifests: the zod example, the shared cases, the rule pages, edge cases."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from tests.conftest import ROOT, cli_json, internal_errors, load_case, needs_shared

CONTRACT_CODES = ("SL101", "SL102", "SL103", "SL104", "SL105", "SL106", "SL108", "SL109")


def manifest(*tools: dict[str, Any]) -> dict[str, Any]:
    return {"schemalint": 1, "tools": list(tools)}


def tool(
    advertised: Any,
    rt_input: Any = None,
    rt_output: Any = None,
    refused: list[str] | None = None,
    name: str = "t",
    **extra: Any,
) -> dict[str, Any]:
    runtime = {k: v for k, v in (("input", rt_input), ("output", rt_output)) if v is not None}
    out: dict[str, Any] = {
        "name": name,
        "description": "A tool.",
        "advertised": advertised,
        "runtime": runtime,
    }
    if refused is not None:
        out["refused_when_omitted"] = refused
    out.update(extra)
    return out


def lint(tmp_path: Path, doc: Any) -> list[Any]:
    path = tmp_path / "contracts.json"
    path.write_text(json.dumps(doc, indent=2))
    return [d for d in check([str(path)]).diagnostics if d.code.startswith("SL1")]


def found(diags: list[Any], code: str) -> list[tuple[str | None, str | None]]:
    return sorted((d.tool, d.instance_path) for d in diags if d.code == code)


def obj(props: dict[str, Any], required: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required is not None:
        out["required"] = required
    out.update(kw)
    return out


S = {"type": "string"}
I = {"type": "integer"}  # noqa: E741


# -- the zod example (incident 1) ------------------------------------------------------------


def test_zod_example_required_drift_top_level_and_nested() -> None:
    result = check([str(ROOT / "examples/zod/contracts.json")])
    errors = [(d.code, d.tool, d.instance_path) for d in result.diagnostics if d.severity.value == "error"]
    assert errors == [
        ("SL101", "present_answer", "/presentation"),
        ("SL101", "present_answer_nested", "/options/presentation"),
    ]
    by_tool = {d.tool: d for d in result.diagnostics}
    assert "a call without `presentation` satisfies the advertised schema but the runtime refuses it" in (
        by_tool["present_answer"].message
    )
    assert (
        by_tool["present_answer_nested"].pointer
        == "/tools/1/advertised/properties/options/properties/presentation"
    )
    # the clean twin and the defaulted field produce nothing at all
    assert not [d for d in result.diagnostics if d.tool in ("present_answer_clean", "search_docs")]


def test_zod_example_cli_json_and_exit_code() -> None:
    code, report = cli_json("check", "examples/zod/contracts.json")
    assert code == 1
    sl101 = [d for d in report["diagnostics"] if d["code"] == "SL101"]
    assert [(d["tool"], d["line"]) for d in sl101] == [("present_answer", 14), ("present_answer_nested", 140)]


def test_zod_example_without_probes_still_warns_through_output_mode(tmp_path: Path) -> None:
    """Drop the measured parts (refused_when_omitted, probed runtime.input): SL105 still sees the wrapper
    from input vs output mode, at both depths, and stays quiet on the defaulted `limit`."""
    doc = json.loads((ROOT / "examples/zod/contracts.json").read_text())
    for t in doc["tools"]:
        t.pop("refused_when_omitted")
        del t["runtime"]["input"]
    diags = lint(tmp_path, doc)
    assert found(diags, "SL105") == [
        ("present_answer", "/presentation"),
        ("present_answer_nested", "/options/presentation"),
    ]
    assert found(diags, "SL101") == []


# -- shared cases -----------------------------------------------------------------------------


def case_manifest(name: str) -> dict[str, Any]:
    """A case written as a contract manifest, as ../shared/tools/eval_cases.py does."""
    case = load_case(name)
    t = case["tools"]
    runtime = {k2: t[k1] for k1, k2 in (("runtime_input", "input"), ("runtime_output", "output")) if k1 in t}
    return manifest(
        {
            "name": t["name"],
            "description": t.get("description", ""),
            "advertised": t["advertised"],
            "runtime": runtime,
        }
    )


@needs_shared
def test_case_016_defaults_advertised_as_required(tmp_path: Path) -> None:
    diags = lint(tmp_path, case_manifest("016"))
    assert found(diags, "SL109") == [
        ("consume_messages", p) for p in ("/maxMessages", "/timeoutMs", "/topics/*/start")
    ]
    assert [d for d in diags if d.severity.value == "error"] == []
    assert found(diags, "SL105") == []  # runtime_output requiring defaulted keys is correct


@needs_shared
def test_case_018_preprocess_required_drift(tmp_path: Path) -> None:
    diags = lint(tmp_path, case_manifest("018"))
    assert [(d.code, d.instance_path, d.severity.value) for d in diags] == [("SL101", "/label", "error")]


@needs_shared
def test_case_020_alias_dropped_from_advertised(tmp_path: Path) -> None:
    diags = lint(tmp_path, case_manifest("020"))
    assert [(d.code, d.instance_path) for d in diags] == [("SL101", "/ext")]
    assert "never mentions `ext`" in diags[0].message


@needs_shared
def test_case_025_advertised_open_runtime_closed(tmp_path: Path) -> None:
    diags = lint(tmp_path, case_manifest("025"))
    assert [(d.code, d.instance_path) for d in diags] == [("SL106", "")]
    assert "`^_`" in diags[0].message
    assert diags[0].pointer == "/tools/0/advertised"


@needs_shared
def test_case_030_clean_defaults(tmp_path: Path) -> None:
    assert lint(tmp_path, case_manifest("030")) == []


# -- rule pages -----------------------------------------------------------------------------------

_BLOCK = re.compile(r"^## (Bad|Good)\s*\n```json\n(.*?)\n```", re.S | re.M)


@pytest.mark.parametrize("code", CONTRACT_CODES)
def test_rule_page_examples(code: str, tmp_path: Path) -> None:
    (page,) = (ROOT / "rules").glob(f"{code}-*.md")
    blocks = dict((kind, json.loads(text)) for kind, text in _BLOCK.findall(page.read_text()))
    assert set(blocks) == {"Bad", "Good"}
    assert found(lint(tmp_path, blocks["Bad"]), code), f"{code} Bad example does not trigger it"
    assert not found(lint(tmp_path, blocks["Good"]), code), f"{code} Good example triggers it"


# -- SL101 ------------------------------------------------------------------------------------------


def test_sl101_refused_when_omitted_with_array_index_and_through_ref(tmp_path: Path) -> None:
    adv = {
        "type": "object",
        "properties": {"rows": {"type": "array", "items": {"$ref": "#/$defs/Row"}}},
        "required": ["rows"],
        "$defs": {"Row": obj({"id": S, "note": S}, ["id"])},
    }
    diags = lint(tmp_path, manifest(tool(adv, refused=["/rows", "/rows/0/id", "/rows/0/note"])))
    assert found(diags, "SL101") == [("t", "/rows/*/note")]
    assert diags[0].pointer == "/tools/0/advertised/$defs/Row/properties/note"


def test_sl101_key_undeclared_and_refused_by_advertised(tmp_path: Path) -> None:
    diags = lint(
        tmp_path, manifest(tool(obj({"a": S}, additionalProperties=False), obj({"a": S, "b": S}, ["b"])))
    )
    (d,) = [d for d in diags if d.code == "SL101"]
    assert "no call that satisfies the advertised schema is accepted" in d.message


def test_sl101_union_branches_matched_by_branch(tmp_path: Path) -> None:
    adv = {
        "anyOf": [
            obj({"kind": {"const": "a"}, "x": S}, ["kind"]),
            obj({"kind": {"const": "b"}, "y": S}, ["kind"]),
        ]
    }
    rt = {
        "anyOf": [
            obj({"kind": {"const": "a"}, "x": S}, ["kind"]),
            obj({"kind": {"const": "b"}, "y": S}, ["kind", "y"]),
        ]
    }
    assert found(lint(tmp_path, manifest(tool(adv, rt))), "SL101") == [("t", "/y")]


def test_sl101_union_branch_counts_differ_match_by_overlap(tmp_path: Path) -> None:
    adv = {"anyOf": [obj({"x": S, "x2": S}, ["x"]), obj({"y": S, "y2": S}, ["y"])]}
    rt = {"oneOf": [obj({"y": S, "y2": S}, ["y", "y2"]), obj({"x": S, "x2": S}, ["x"]), obj({"z": S}, ["z"])]}
    diags = lint(tmp_path, manifest(tool(adv, rt)))
    assert ("t", "/y2") in found(diags, "SL101")
    assert ("t", "/x2") not in found(diags, "SL101")


def test_sl101_allof_merged(tmp_path: Path) -> None:
    adv = {"allOf": [obj({"a": S}), {"required": ["a"]}]}
    rt = obj({"a": S}, ["a"])
    assert found(lint(tmp_path, manifest(tool(adv, rt))), "SL101") == []


def test_sl101_no_runtime_no_findings(tmp_path: Path) -> None:
    doc = manifest({"name": "t", "description": "x", "advertised": obj({"a": S})})
    assert lint(tmp_path, doc) == []


# -- SL102 / SL103 -------------------------------------------------------------------------------


def test_sl102_defaulted_hidden_key_is_info(tmp_path: Path) -> None:
    rt = obj({"q": S, "trace": {"type": "boolean", "default": False}}, ["q"])
    (d,) = lint(tmp_path, manifest(tool(obj({"q": S}, ["q"]), rt)))
    assert (d.code, d.severity.value, d.instance_path) == ("SL102", "info", "/trace")


def test_sl103_ignored_is_warning_refused_is_error(tmp_path: Path) -> None:
    adv = obj({"q": S, "name": S, "inner": obj({"k": S, "extra": S})})
    rt = obj({"q": S, "inner": obj({"k": S}, additionalProperties=False)})
    got = {
        (d.instance_path, d.severity.value)
        for d in lint(tmp_path, manifest(tool(adv, rt)))
        if d.code == "SL103"
    }
    assert got == {("/name", "warning"), ("/inner/extra", "error")}


def test_sl103_pattern_property_accepts_key(tmp_path: Path) -> None:
    adv = obj({"_meta": S})
    rt = obj({}, patternProperties={"^_": {}}, additionalProperties=False)
    assert found(lint(tmp_path, manifest(tool(adv, rt))), "SL103") == []


# -- SL104 -----------------------------------------------------------------------------------------


def test_sl104_nullable_forms_agree_and_null_refused(tmp_path: Path) -> None:
    adv = obj(
        {"a": {"anyOf": [S, {"type": "null"}]}, "b": {"type": ["integer", "null"]}, "c": {"type": "number"}}
    )
    rt = obj({"a": {"type": ["string", "null"]}, "b": I, "c": {"type": "integer"}})
    diags = [d for d in lint(tmp_path, manifest(tool(adv, rt))) if d.code == "SL104"]
    assert sorted((d.instance_path, d.severity.value) for d in diags) == [
        ("/b", "warning"),
        ("/c", "warning"),
    ]


def test_sl104_disjoint_is_error_and_children_not_repeated(tmp_path: Path) -> None:
    adv = obj({"spec": S})
    rt = obj({"spec": obj({"x": S}, ["x"])})
    diags = lint(tmp_path, manifest(tool(adv, rt)))
    assert [(d.code, d.instance_path, d.severity.value) for d in diags] == [("SL104", "/spec", "error")]


# -- SL105 / SL109 ---------------------------------------------------------------------------------


def test_sl105_defaulted_field_is_not_a_finding(tmp_path: Path) -> None:
    adv = obj({"q": S, "limit": {"type": "integer", "default": 10}}, ["q"])
    out = obj({"q": S, "limit": I}, ["q", "limit"], additionalProperties=False)
    assert lint(tmp_path, manifest(tool(adv, adv, out))) == []


def test_sl105_output_only_key_is_not_compared(tmp_path: Path) -> None:
    adv = obj({"ext": S}, ["ext"])
    out = obj({"file_suffix": S}, ["file_suffix"])
    assert lint(tmp_path, manifest(tool(adv, adv, out))) == []


def test_sl109_strict_tool_is_not_a_finding(tmp_path: Path) -> None:
    adv = obj({"q": S, "limit": {"type": "integer", "default": 10}}, ["q", "limit"])
    rt = obj({"q": S, "limit": {"type": "integer", "default": 10}}, ["q"])
    assert found(lint(tmp_path, manifest(tool(adv, rt))), "SL109") == [("t", "/limit")]
    assert found(lint(tmp_path, manifest(tool(adv, rt, strict=True))), "SL109") == []


# -- SL106 / SL108 ----------------------------------------------------------------------------------


def test_sl106_ignores_output_mode_closed_objects(tmp_path: Path) -> None:
    adv = obj({"a": S})
    out = obj({"a": S}, additionalProperties=False)
    assert lint(tmp_path, manifest(tool(adv, adv, out))) == []
    assert found(lint(tmp_path, manifest(tool(adv, out))), "SL106") == [("t", "")]


def test_sl108_bounds_enum_and_harmless_enum(tmp_path: Path) -> None:
    adv = obj(
        {
            "n": {"type": "number", "minimum": 0},
            "m": {"type": "number", "exclusiveMinimum": 0},
            "color": {"type": "string", "enum": ["red", "green", "blue"]},
            "size": {"type": "integer", "enum": [2, 4]},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
        }
    )
    rt = obj(
        {
            "n": {"type": "number", "minimum": 1},
            "m": {"type": "number", "exclusiveMinimum": 0},
            "color": {"type": "string", "enum": ["red", "green"]},
            "size": {"type": "integer", "minimum": 1, "maximum": 8},
            "tags": {"type": "array", "maxItems": 3, "items": {"type": "string", "pattern": "^[a-z]{1,8}$"}},
        }
    )
    got = {
        (d.instance_path, d.pointer.rsplit("/", 1)[-1])
        for d in lint(tmp_path, manifest(tool(adv, rt)))
        if d.code == "SL108"
    }
    assert got == {("/n", "minimum"), ("/color", "enum"), ("/tags", "tags"), ("/tags/*", "pattern")}


def test_bad_runtime_values_do_not_crash(tmp_path: Path) -> None:
    doc = manifest(
        tool(obj({"a": S}), rt_input=["not", "a", "schema"], name="list"),
        tool(True, rt_input=obj({"a": S}, ["a"]), name="bool"),
        tool(
            obj({"a": {"$ref": "#/nowhere"}, "b": {"$ref": "#"}}),
            obj({"a": S, "b": {"$ref": "#"}}),
            name="refs",
        ),
        tool(obj({"a": S}), refused=["", "not a pointer", "/a/0/x", "/a"], name="odd"),
    )
    diags = lint(tmp_path, doc)
    assert not internal_errors(diags)
    assert found(diags, "SL101") == [("bool", "/a"), ("odd", "/a")]


def test_sl101_through_nullable_union_encoded_differently(tmp_path: Path) -> None:
    """pydantic writes Optional[Model] as anyOf [$ref, null]; another runtime writes type [object, null]."""
    adv = {
        "type": "object",
        "properties": {"opts": {"anyOf": [{"$ref": "#/$defs/Opts"}, {"type": "null"}], "default": None}},
        "$defs": {"Opts": obj({"presentation": S, "title": S}, ["title"])},
    }
    rt = obj({"opts": {"type": ["object", "null"], "properties": {"presentation": S, "title": S},
                       "required": ["title", "presentation"]}})
    diags = lint(tmp_path, manifest(tool(adv, rt)))
    assert [(d.code, d.instance_path) for d in diags] == [("SL101", "/opts/presentation")]
    assert diags[0].pointer == "/tools/0/advertised/$defs/Opts/properties/presentation"


# -- SL106: what the runtime's refusal says ----------------------------------------------------------


def _signature_tool(probe: bool) -> list[Any]:
    """A tool whose runtime is pydantic's call validator (``validate_call``: a keyword the signature
    lacks is refused, as fastmcp 2 refuses it) while the advertised schema leaves the root open."""
    from pydantic import validate_call

    from schemalint.model import Contract, Origin, Tool
    from schemalint.rules.base import Context
    from schemalint.rules.contract.sl106_additional_properties_drift import AdditionalPropertiesDrift

    @validate_call
    def quote_parcel(weight_kg: float, zone: str = "EU") -> float:
        return weight_kg

    advertised = {"type": "object", "properties": {"weight_kg": {"type": "number"}, "zone": {"type": "string"}},
                  "required": ["weight_kg"]}
    runtime = Contract(input={**advertised, "additionalProperties": False},
                       validate=lambda args: quote_parcel(**args))
    tool = Tool("quote_parcel", "Price a parcel.", advertised, Origin("t.json", "/tools/0", "mcp"),
                schema_path="/inputSchema", runtime=runtime)
    return list(AdditionalPropertiesDrift().check_tool(tool, Context(probe=probe)))


def test_sl106_a_refusal_that_names_the_key_is_information() -> None:
    (diag,) = _signature_tool(probe=True)
    assert diag.severity.value == "info"
    assert "its refusal names the key" in diag.message and "schemalint_undeclared_key" in diag.message


def test_sl106_without_probes_keeps_the_warning() -> None:
    (diag,) = _signature_tool(probe=False)
    assert diag.severity.value == "warning"
    assert "names no key" in diag.message
