"""Provider rules from issue 13: property keys Anthropic/Bedrock refuse (SL325), Gemini union nodes
without a type (SL314), `--target gemini` on a parametersJsonSchema declaration, and the
severity of SL306 for Gemini no-argument declarations.

Real files in tmp dirs through :func:`schemalint.api.check`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from schemalint import api


def _check(tmp_path: Path, tools: Any, targets: list[str] | None = None, select: str = "SL3") -> list[Any]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools, indent=2))
    return api.check([str(path)], targets=targets or [], select=[select]).diagnostics


def _anthropic(props: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": "list_apps", "description": "List apps.",
             "input_schema": {"type": "object", "properties": props}}]


S = {"type": "string"}


def test_sl325_brackets_spaces_and_length_at_the_top_level(tmp_path: Path) -> None:
    props = {"filter[bundleId]": S, "Account Number": S, "k" * 65: S, "ok.key-1_x": S,
             "nested": {"type": "object", "properties": {"inner key[]": S}}}
    diags = _check(tmp_path, _anthropic(props), select="SL325")
    got = {(d.severity.value, d.instance_path) for d in diags}
    assert got == {("error", "/filter[bundleId]"), ("error", "/Account Number"), ("error", "/" + "k" * 65)}
    assert all("^[a-zA-Z0-9_.-]{1,64}$" in d.message for d in diags)
    assert "'filter.bundleId'" in next(d.hint for d in diags if "bundleId" in d.message)


def test_sl325_bedrock_error_and_mcp_warning(tmp_path: Path) -> None:
    bedrock = [{"toolSpec": {"name": "extract", "description": "Extract.",
                             "inputSchema": {"json": {"type": "object", "properties": {"Policy Number": S}}}}}]
    assert [d.severity.value for d in _check(tmp_path, bedrock, select="SL325")] == ["error"]
    mcp = [{"name": "x", "description": "X.", "inputSchema": {"type": "object", "properties": {"a[]": S}}}]
    assert [d.severity.value for d in _check(tmp_path, mcp, select="SL325")] == ["warning"]
    openai = [{"type": "function", "function": {"name": "x", "description": "X.",
                                                "parameters": {"type": "object", "properties": {"a[]": S}}}}]
    assert _check(tmp_path, openai, select="SL325") == []


def _gemini(decl: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"functionDeclarations": [dict({"name": "find", "description": "Find."}, **decl)]}]


def test_sl314_union_without_type(tmp_path: Path) -> None:
    union = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    diags = _check(tmp_path, _gemini({"parameters": {"type": "object", "properties": {"q": union}}}),
                   select="SL314")
    assert [(d.severity.value, d.instance_path) for d in diags] == [("error", "/q")]
    assert "TYPE_UNSPECIFIED" in diags[0].message
    typed = {"type": "string", "anyOf": [{"type": "string", "format": "date"}, {"type": "string"}]}
    assert _check(tmp_path, _gemini({"parameters": {"type": "object", "properties": {"q": typed}}}),
                  select="SL314") == []
    # the same union under parametersJsonSchema is JSON Schema: fine
    assert _check(tmp_path, _gemini({"parametersJsonSchema": {"type": "object", "properties": {"q": union}}}),
                  targets=["gemini"], select="SL314") == []


def test_target_gemini_on_parameters_json_schema_checks_that_surface(tmp_path: Path) -> None:
    opts = {"type": "object", "properties": {"a": S}, "additionalProperties": False,
            "allOf": [{"required": ["a"]}]}
    schema = {"type": "object", "properties": {"q": S, "opts": opts}, "additionalProperties": False}
    for targets in (["gemini"], ["=gemini"]):
        diags = _check(tmp_path, _gemini({"parametersJsonSchema": schema}), targets=targets)
        assert {d.code for d in diags} == {"SL315"}, (targets, [d.message for d in diags])
        assert all("[Gemini parametersJsonSchema]" in d.message for d in diags)
    # the `parameters` surface still gets the `parameters` subset
    diags = _check(tmp_path, _gemini({"parameters": schema}), targets=["gemini"])
    assert "SL313" in {d.code for d in diags}


def test_sl306_gemini_no_argument_declaration_is_a_warning(tmp_path: Path) -> None:
    for params in ({"type": "object"}, {"type": "object", "properties": {}}):
        diags = _check(tmp_path, _gemini({"parameters": params}), select="SL306")
        assert [d.severity.value for d in diags] == ["warning"]
        assert "{}" in diags[0].message
    openai = [{"type": "function", "function": {"name": "ping", "description": "Ping.",
                                                "parameters": {"type": "object"}}}]
    assert [d.severity.value for d in _check(tmp_path, openai, select="SL306")] == ["error"]
