"""Shared cases (../shared/cases) under the shape rules: each gives the verdict its file states.

The case's ``tools`` are written to a temporary file in the case's own format and checked
with the real CLI. ``expected[].rule`` is a descriptive name; :data:`RULE_FOR` maps the
names the shape rules cover to their codes (the others belong to other rule families).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import load
from tests.conftest import CASES, load_case, needs_shared, run_json

RULE_FOR = {
    "mcp-inputschema-root-type-object": "SL002",
    "schema-well-formed-subschema": "SL001",
    "required-not-in-properties": "SL003",
}
"""Case rule name -> shape rule code."""


def write_case_tools(case: dict[str, Any], tmp_path: Path) -> Path:
    """Write a case's ``tools`` to ``tmp_path/tools.json`` in a format the loader reads.

    ``openai``/``anthropic``/``gemini``/``mcp`` cases hold a provider-shaped list;
    ``pydantic``/``schema-pair``/``zod-pair`` cases hold one tool's schemas and become a
    contract manifest (docs/contract-analysis.md, "Contract manifest").
    """
    tools = case["tools"]
    if case["format"] in ("pydantic", "schema-pair", "zod-pair"):
        pair = tools
        entry: dict[str, Any] = {"name": pair.get("name", "tool"), "description": pair.get("description"),
                                 "advertised": pair.get("advertised", pair.get("after"))}
        if "runtime_input" in pair or "runtime_output" in pair:
            entry["runtime"] = {"input": pair.get("runtime_input"), "output": pair.get("runtime_output")}
        doc: Any = {"schemalint": 1, "tools": [entry]}
    else:
        doc = tools if isinstance(tools, list) else [tools]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def shape_report(path: Path) -> list[dict[str, Any]]:
    code, report = run_json("check", str(path), "--select", "SL0", "--fail-on", "never")
    assert code == 0
    return report["diagnostics"]  # type: ignore[no-any-return]


def schema_pointers(path: Path) -> dict[str, str]:
    """Tool name -> JSON pointer of its advertised schema in the file."""
    return {t.name: t.schema_pointer for t in load([str(path)]).tools}


@needs_shared
@pytest.mark.parametrize("prefix", ["010", "011", "013", "015", "033"])
def test_case_verdict(prefix: str, tmp_path: Path) -> None:
    case = load_case(prefix)
    path = write_case_tools(case, tmp_path)
    diags = shape_report(path)
    pointers = schema_pointers(path)
    covered = [e for e in case["expected"] if e["rule"] in RULE_FOR]
    assert covered, f"case {prefix} has no expectation for the shape rules"
    for exp in covered:
        code = RULE_FOR[exp["rule"]]
        tools = [exp["tool"]] if "tool" in exp else list(pointers)
        wanted = {pointers[t] + exp["path"] for t in tools}
        hits = [d for d in diags if d["code"] == code and d["pointer"] in wanted]
        assert hits, f"{prefix}: expected {code} at {sorted(wanted)}; got {diags}"
        assert all(d["severity"] == "error" for d in hits)
        assert all(d["line"] and d["column"] for d in hits), "every diagnostic is located"
    # Nothing beyond what the case expects from these rules.
    expected_keys = {(RULE_FOR[e["rule"]], e.get("tool")) for e in covered}
    for d in diags:
        assert (d["code"], d["tool"]) in expected_keys or (d["code"], None) in expected_keys, \
            f"{prefix}: unexpected {d['code']} on {d['tool']}: {d['message']}"


@needs_shared
def test_case_011_healthy_tool_not_flagged(tmp_path: Path) -> None:
    diags = shape_report(write_case_tools(load_case("011"), tmp_path))
    assert [d for d in diags if d["tool"] == "lookup_doc"]
    assert not [d for d in diags if d["tool"] == "healthy"]


@needs_shared
def test_case_013_object_tool_not_flagged(tmp_path: Path) -> None:
    diags = shape_report(write_case_tools(load_case("013"), tmp_path))
    assert not [d for d in diags if d["tool"] == "list_records"]


@needs_shared
def test_case_015_parameter_named_properties_is_legal(tmp_path: Path) -> None:
    path = write_case_tools(load_case("015"), tmp_path)
    diags = shape_report(path)
    base = schema_pointers(path)["replace_matching_props"]
    assert [d["pointer"] for d in diags] == [base + "/properties/type"]
    assert "not a schema" in diags[0]["message"]
    assert "move it up one level" in diags[0]["hint"]


@needs_shared
def test_case_033_declared_required_key_not_flagged(tmp_path: Path) -> None:
    path = write_case_tools(load_case("033"), tmp_path)
    diags = shape_report(path)
    base = schema_pointers(path)["type_text"]
    assert base + "/required/1" not in {d["pointer"] for d in diags}  # "text" is declared


CLEAN = sorted(p.name.split("-", 1)[0] for p in CASES.glob("*-clean-*.json")) if CASES.is_dir() else []


@needs_shared
def test_clean_cases_exist() -> None:
    assert len(CLEAN) >= 4


@needs_shared
@pytest.mark.parametrize("prefix", CLEAN)
def test_clean_case_has_no_shape_error(prefix: str, tmp_path: Path) -> None:
    path = write_case_tools(load_case(prefix), tmp_path)
    assert load([str(path)]).tools, "the case's tools were loaded"
    errors = [d for d in shape_report(path) if d["severity"] == "error"]
    assert not errors, errors
