"""The fast paths of SL001, SL005 and SL008 give the diagnostics of their slow paths.

Each test runs a rule twice on the same real files, once as shipped and once with its fast path
turned off (the slow path it replaces forced with monkeypatch), and compares every field of every
diagnostic: on crafted edge cases (invalid schemas, duplicates that differ only in key order or
in ``1`` / ``1.0`` / ``true``, NaN beside ``null``) and on the shared corpus (skipped when
``../shared`` is absent, see tests/conftest.py).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

import schemalint.rules.shape.sl001_invalid_schema as sl001
import schemalint.rules.shape.sl005_duplicate_tool_name as sl005
import schemalint.rules.shape.sl008_unsatisfiable_schema as sl008
from schemalint.api import check, load
from schemalint.model import Diagnostic
from schemalint.schema.satisfiable import why_empty
from tests.conftest import CORPUS, needs_shared


def _fields(diags: list[Diagnostic]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(d) for d in diags]


def _both(monkeypatch: pytest.MonkeyPatch, paths: list[str], code: str, slow: dict[str, Any],
          module: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The diagnostics of rule ``code`` on ``paths``: as shipped, then with ``slow`` patched into
    ``module`` (the fast path off)."""
    fast = _fields(check(paths, select=[code]).diagnostics)
    with monkeypatch.context() as m:
        for name, value in slow.items():
            m.setattr(module, name, value)
        slower = _fields(check(paths, select=[code]).diagnostics)
    return fast, slower


class _NeverValid:
    """A metaschema validator whose ``is_valid`` always answers False: every schema takes the route
    that lists its errors (the route of every schema before the fast path)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def is_valid(self, schema: Any) -> bool:
        self.inner.is_valid(schema)  # raises where the real one raises
        return False

    def iter_errors(self, schema: Any) -> Any:
        return self.inner.iter_errors(schema)


def _slow_sl001() -> dict[str, Any]:
    real = sl001.fast_validator
    return {"fast_validator": lambda dialect: _NeverValid(real(dialect))}


def _write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _tool(name: str, schema: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "A tool.", "parameters": schema}}


def test_sl001_valid_first_lists_the_same_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = [
        {"type": "dict", "properties": {"a": {"type": "float"}}},
        {"type": "object", "properties": {"a": {"type": "string", "minLength": -1}}},
        {"type": "object", "properties": {"a": "string"}, "required": "a"},
        {"type": "object", "properties": {"a": {"type": "string", "required": True}}},
        {"type": "object", "properties": {"a": {"type": ["string", "string"]}}},
        {"type": "object", "properties": {"a": {"items": [{"type": "string"}]}}},
    ]
    good = [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "object"}]
    # each schema twice: the second of an invalid pair comes from the run's verdict table
    tools = [_tool(f"t{i}", s) for i, s in enumerate(bad + good + bad + good)]
    paths = [_write(tmp_path, "tools.json", tools)]
    fast, slow = _both(monkeypatch, paths, "SL001", _slow_sl001(), sl001)
    assert len(fast) >= 2 * len(bad)
    assert fast == slow


@needs_shared
def test_sl001_valid_first_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(monkeypatch, [str(CORPUS)], "SL001", _slow_sl001(), sl001)
    assert len(fast) > 100  # thousands of invalid schemas, most summarised per dialect file
    assert fast == slow


def test_sl005_orjson_comparison_matches_the_canonical_text(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer", "default": 1}}}
    variants = [
        schema,
        {"properties": {"a": {"default": 1, "type": "integer"}}, "type": "object"},  # key order only
        {"type": "object", "properties": {"a": {"type": "integer", "default": 1.0}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": True}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": None}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": float("nan")}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": float("inf")}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": -0.0}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": 0.0}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": 2**70}}},
        {"type": "object", "properties": {"a": {"type": "integer", "default": "\ud800"}}},
    ]
    path = tmp_path / "tools.json"
    path.write_text("[]", encoding="utf-8")
    tools = [t for t in load([str(path)]).tools]
    assert tools == []
    docs = [_tool("same", v) for v in variants]
    path.write_text(json.dumps(docs, ensure_ascii=True), encoding="utf-8")
    tools = load([str(path)]).tools
    assert len(tools) == len(variants)
    for a in tools:
        for b in tools:
            first = sl005._First(a)
            assert first.same_as(b) == (sl005._canonical(a) == sl005._canonical(b)), (a.raw, b.raw)
    assert sl005._First(tools[0]).same_as(tools[1])  # key order does not matter
    assert not sl005._First(tools[0]).same_as(tools[2])  # 1 and 1.0 differ, as in the canonical text
    assert not sl005._First(tools[4]).same_as(tools[5])  # null and NaN: orjson writes both as null


def test_sl005_fast_comparison_same_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"type": "object", "properties": {"n": {"type": "number", "default": 1}}}
    docs = [_tool("dup", base),
            _tool("dup", {"properties": {"n": {"default": 1, "type": "number"}}, "type": "object"}),
            _tool("dup", {"type": "object", "properties": {"n": {"type": "number", "default": 1.0}}}),
            _tool("dup", {"type": "object", "properties": {"n": {"type": "number", "default": True}}}),
            _tool("dup", base), _tool("other", base), _tool("other", {"type": "object"})]
    paths = [_write(tmp_path, "tools.json", docs)]
    fast, slow = _both(monkeypatch, paths, "SL005", {"_encoded": lambda tool: None}, sl005)
    assert len(fast) == 5
    assert ["repeats the first definition" in d["message"] for d in fast] == [True, False, False, True, False]
    assert fast == slow


@needs_shared
def test_sl005_fast_comparison_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(monkeypatch, [str(CORPUS)], "SL005", {"_encoded": lambda tool: None}, sl005)
    assert fast
    assert fast == slow


def test_sl008_plain_subschemas_are_never_empty() -> None:
    plain = [
        {"type": "string"}, {"type": "integer", "minimum": 1, "maximum": 1}, {"type": "number", "minimum": 0.5,
                                                                             "maximum": 0.5},
        {"type": "string", "enum": ["a", 1]}, {"enum": [None]}, {"anyOf": [{"type": "string"}, {"not": {}}]},
        {"type": "string", "minLength": 0, "maxLength": 0}, {"minimum": 2, "maximum": 1, "type": "string"},
    ]
    empty = [
        {"type": "integer", "minimum": 1.2, "maximum": 1.8}, {"type": "string", "enum": [1, 2]},
        {"type": "number", "minimum": 2, "maximum": 1}, {"type": "string", "minLength": 3, "maxLength": 2},
        {"enum": []}, {"anyOf": [{"type": "strin"}]},
    ]
    for schema in plain:
        assert sl008._plainly_satisfiable(schema), schema
        assert why_empty(schema, schema, dialect="draft-07") is None, schema
    for schema in empty:
        assert not sl008._plainly_satisfiable(schema), schema


def test_sl008_fast_path_same_diagnostics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    schemas = [
        {"type": "object", "properties": {"a": {"type": "integer", "minimum": 1.2, "maximum": 1.8}},
         "required": ["a"]},
        {"type": "object", "properties": {"a": {"type": "string", "enum": [1, 2]}, "b": False}, "required": ["b"]},
        {"type": "object", "properties": {"a": {"type": "string", "minLength": 3, "maxLength": 2, "enum": ["x"]}}},
        {"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}], "minimum": 1}}},
        {"type": "object", "properties": {"a": {"type": "number", "minimum": None, "maximum": 3}}},
        {"type": "object", "properties": {"a": {"type": "integer", "enum": [1.5, True]}}},
    ]
    paths = [_write(tmp_path, "tools.json", [_tool(f"t{i}", s) for i, s in enumerate(schemas)])]
    fast, slow = _both(monkeypatch, paths, "SL008", {"_plainly_satisfiable": lambda schema: False}, sl008)
    assert len(fast) >= 4
    assert fast == slow


@needs_shared
def test_sl008_fast_path_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(monkeypatch, [str(CORPUS)], "SL008", {"_plainly_satisfiable": lambda schema: False},
                       sl008)
    assert fast
    assert fast == slow
