"""Regression tests for the internal errors the fuzzing of issue 25 found, one kind per test.

Each test reproduces the kind on real inputs (files written here, a real Python module imported
by the real worker, the real CLI) and asserts the fixed behaviour: no ``SL999``, no traceback, a
diagnostic that names the place. The inputs that fuzzing produced are also kept in
``tests/data/fuzz/`` and replayed by ``tests/test_fuzz_commands.py``.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests._fixtures_cli import run_cli_here
from tests.conftest import internal_errors

HOSTILE_VALUES: list[Any] = [
    {"x": 1}, [{"a": 1}], [[1]], [None], "x", 5, None, True, [1.5], {"x": {"y": []}}, [], {}, 10**30, "",
    ["x", "x"], {"$ref": "#"},
]
"""Values put where a keyword expects something else: objects and arrays (unhashable), scalars."""

KEYWORDS = ["required", "type", "enum", "properties", "items", "anyOf", "additionalProperties", "const",
            "default", "$ref", "format", "pattern", "minimum", "description", "$defs", "nullable", "oneOf",
            "allOf", "not", "prefixItems", "propertyNames", "patternProperties", "dependencies",
            "dependentRequired", "if", "examples", "minItems", "maxLength", "$schema"]


def _nested(depth: int) -> dict[str, Any]:
    inner: dict[str, Any] = {}
    node = inner
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]
    return inner


def _schema(keyword: str, value: Any, where: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "string"},
                                                               "y": {"type": "object", "properties": {}}},
                              "required": ["x"], "additionalProperties": False}
    target = schema if where == "root" else schema["properties"]["x"]
    target[keyword] = value
    return schema


def test_rules_never_crash_on_keywords_holding_the_wrong_kind_of_value(tmp_path: Path) -> None:
    """SL308/SL320 hashed the entries of `required` (an object in it crashed them): every rule at every
    target reads `required`, `type`, `enum`, `properties`... through accessors that skip what is not
    of the expected kind. Both the tool rules and the catalog rules (SL320) run on one file."""
    from schemalint.api import check

    tools = []
    for keyword in KEYWORDS:
        for value in HOSTILE_VALUES:
            for where in ("root", "nested"):
                schema = _schema(keyword, value, where)
                tools.append({"name": f"t_{len(tools)}", "description": "Pass x.", "advertised": schema,
                              "runtime": {"input": schema}, "strict": True})
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"schemalint": 1, "tools": tools}))
    openai = tmp_path / "openai.json"
    openai.write_text(json.dumps({"tools": [{"type": "function", "function": {
        "name": t["name"], "description": t["description"], "strict": True, "parameters": t["advertised"]}}
        for t in tools]}))
    result = check([str(path), str(openai)], targets=["all"])
    assert not internal_errors(result.diagnostics)
    assert result.tools == 2 * len(tools)
    codes = {d.code for d in result.diagnostics}
    assert {"SL001", "SL308"} <= codes  # the malformed values are reported, by the rules that own them


def test_sl308_and_sl320_read_only_the_string_entries_of_required(tmp_path: Path) -> None:
    from schemalint.api import check

    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
              "required": ["a", {"b": 1}, ["b"]], "additionalProperties": False}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"type": "function", "function": {
        "name": "t", "description": "d", "strict": True, "parameters": schema}}]}))
    result = check([str(path)], targets=["openai-strict", "anthropic-strict"])
    assert not internal_errors(result.diagnostics)
    sl308 = [d for d in result.diagnostics if d.code == "SL308"]
    assert len(sl308) == 1 and "'b'" in sl308[0].message and "'a'" not in sl308[0].message


@pytest.mark.parametrize("depth", [260, 400, 3000])
def test_sl001_on_a_type_holding_a_deeply_nested_object(tmp_path: Path, depth: int) -> None:
    """The walk counts subschemas only; a keyword's value (`type`, `enum`) nested a few hundred levels
    made the native validator raise "Recursion limit reached" (SL999). Now a located warning."""
    from schemalint.api import check

    path = tmp_path / "tools.json"
    text = ('{"tools":[{"type":"function","function":{"name":"a","description":"d","parameters":'
            '{"type":"object","properties":{"x":{"type":' + '{"a":' * depth + "1" + "}" * depth + "}}}}}]}")
    path.write_text(text)
    result = check([str(path)], select=["SL001", "SL999"])
    assert not internal_errors(result.diagnostics)
    assert [(d.code, d.severity.value) for d in result.diagnostics] == [("SL001", "warning")]
    assert "nested more than" in result.diagnostics[0].message
    assert result.diagnostics[0].pointer == "/tools/0/function/parameters"


def _deep_tool(name: str, depth: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    return {"type": "function", "function": {"name": name, "description": "d", "parameters": schema}}


@pytest.mark.parametrize("depth", [400, 3000])
def test_diff_with_a_deeply_nested_tool_added_removed_or_renamed(tmp_path: Path, depth: int) -> None:
    """A deep tool added or removed is compared for a rename by its shape: that recursed past the
    interpreter's limit (RecursionError). The whole comparison falls back to the big stack."""
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 4 * depth + 1000))
    try:
        small = {"type": "function", "function": {"name": "s", "description": "d", "parameters": {"type": "object"}}}
        base = tmp_path / "base.json"
        base.write_text(json.dumps({"tools": [small]}))
        head = tmp_path / "head.json"
        head.write_text(json.dumps({"tools": [small, _deep_tool("deep", depth)]}))
        renamed = tmp_path / "renamed.json"
        renamed.write_text(json.dumps({"tools": [small, _deep_tool("deep2", depth)]}))
    finally:
        sys.setrecursionlimit(old_limit)
    from schemalint.api_commands import diff_tools
    from schemalint.config import Config

    for old, new, expect in ((base, head, "added"), (head, base, "removed"), (head, renamed, "added")):
        result = diff_tools([str(old), str(new)], cfg=Config())
        statuses = {t.name: t.status for t in result.tools}
        assert statuses["s"] == "identical"
        assert expect in statuses.values()
    renames = [c for t in diff_tools([str(head), str(renamed)], cfg=Config()).tools for c in t.changes
               if c.hint and "rename" in c.hint]
    assert renames  # the rename was recognised on the deep shapes


PY_MODULE = textwrap.dedent('''
    class Thing:
        pass

    def _tool(name, params):
        return {"type": "function", "function": {"name": name, "description": "d", "parameters": params}}

    GOOD = _tool("good", {"type": "object", "properties": {}})
    LOOP = _tool("loop", {"type": "object", "properties": {}})
    LOOP["function"]["parameters"]["properties"]["me"] = LOOP["function"]["parameters"]
    WITH_LOOP = [GOOD, LOOP]

    _deep = {"type": "string"}
    for _ in range(600):
        _deep = {"type": "object", "properties": {"a": _deep}}
    DEEP = _tool("deep", _deep)
    WITH_DEEP = [GOOD, DEEP]

    OBJECT_DEFAULT = [_tool("t", {"type": "object", "properties": {
        "x": {"type": "string", "default": Thing()}, "s": {"type": "array", "default": {1, 2}}}})]
''')


@pytest.fixture(scope="module")
def py_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pytools")
    (root / "fuzz_tools.py").write_text(PY_MODULE)
    return root


def _check_module(root: Path, attr: str) -> dict[str, Any]:
    proc = run_cli_here("check", f"fuzz_tools:{attr}", "--python-path", str(root), "--format", "json", cwd=root)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    assert not internal_errors(report["diagnostics"])
    return report


@pytest.mark.parametrize("attr", ["WITH_LOOP", "LOOP"])
def test_a_self_referencing_dict_in_a_python_tool_list_is_reported_not_dropped(py_tools: Path, attr: str) -> None:
    report = _check_module(py_tools, attr)
    assert report["summary"]["tools"] == (2 if attr == "WITH_LOOP" else 1)  # the looping tool is kept
    sl000 = [d for d in report["diagnostics"] if d["code"] == "SL000" and d["tool"] == "loop"]
    assert len(sl000) == 1 and sl000[0]["severity"] == "error"
    assert "/function/parameters/properties/me" in sl000[0]["message"]
    assert "cycle" in sl000[0]["message"] and "refers back to /function/parameters" in sl000[0]["message"]


@pytest.mark.parametrize("attr", ["WITH_DEEP", "DEEP"])
def test_a_600_deep_python_dict_says_it_is_too_deep(py_tools: Path, attr: str) -> None:
    """It was dropped (in a list) or called "not a tool source" (named alone)."""
    report = _check_module(py_tools, attr)
    assert "deep" in {d["tool"] for d in report["diagnostics"]}
    sl000 = [d for d in report["diagnostics"] if d["code"] == "SL000" and d["tool"] == "deep"]
    assert len(sl000) == 1, report["diagnostics"]
    assert "nests deeper than schemalint reads" in sl000[0]["message"]
    assert "not JSON" not in sl000[0]["message"] and "not a tool source" not in sl000[0]["message"]


def test_a_non_json_default_is_reported_and_snapshots_the_same_on_every_run(py_tools: Path, tmp_path: Path) -> None:
    """An object instance as a default rendered as '<...Thing object at 0x7f...>': a new snapshot
    on every run. Now a stand-in naming its class, and an SL000 warning naming the pointer."""
    report = _check_module(py_tools, "OBJECT_DEFAULT")
    sl000 = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert len(sl000) == 1 and sl000[0]["severity"] == "warning"
    assert "/function/parameters/properties/x/default (Thing object)" in sl000[0]["message"]
    assert "/function/parameters/properties/s/default (set object)" in sl000[0]["message"]
    snaps = tmp_path / "snaps"
    first = run_cli_here("snapshot", "fuzz_tools:OBJECT_DEFAULT", "--python-path", str(py_tools), "--dir", str(snaps),
                         cwd=py_tools)
    assert first.returncode == 0, first.stderr
    text = (snaps / "t.json").read_text()
    assert "0x" not in text and "<non-JSON value: fuzz_tools.Thing>" in text
    again = run_cli_here("snapshot", "--check", "fuzz_tools:OBJECT_DEFAULT", "--python-path", str(py_tools),
                         "--dir", str(snaps), cwd=py_tools)
    assert again.returncode == 0, again.stdout + again.stderr
