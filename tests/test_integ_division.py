"""Integration: one fault, one diagnostic across the shape (SL002/SL006) and provider
(SL301/SL304) families; target-accurate wording of SL301."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from tests.conftest import CORPUS, needs_shared


def _run(tmp_path: Path, tools: Any, targets: tuple[str, ...] = ()) -> list[Any]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    return check([str(path)], targets=targets, select=["SL002", "SL006", "SL301", "SL304"]).diagnostics


def _mcp(name: str, schema: Any = None) -> dict[str, Any]:
    return {"name": name, "description": "Read a file from disk.",
            "inputSchema": schema if schema is not None else {"type": "object", "properties": {}}}


def _fn(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "Read a file.", **extra}}


@pytest.mark.parametrize("targets", [(), ("openai",), ("all",)])
def test_bad_mcp_name_is_reported_once(tmp_path: Path, targets: tuple[str, ...]) -> None:
    diags = _run(tmp_path, [_mcp("Summarize Detection")], targets)
    assert [d.code for d in diags] == ["SL006"], [d.message for d in diags]


def test_other_target_name_goes_to_sl301_once(tmp_path: Path) -> None:
    assert [d.code for d in _run(tmp_path, [_mcp("fs.read")])] == ["SL006"]  # portability warning
    (d,) = _run(tmp_path, [_mcp("fs.read")], ("openai",))
    assert d.code == "SL301" and "400" in d.message and d.severity.value == "error"


def test_sl301_mcp_wording_is_not_a_400(tmp_path: Path) -> None:
    # 70 characters: OpenAI's own format refuses it, so SL006 reports it and SL301 adds nothing
    long_fn = _fn("n" * 70, parameters={"type": "object"})
    assert [d.code for d in _run(tmp_path, [long_fn], ("mcp",))] == ["SL006"]
    gem = [{"functionDeclarations": [{"name": "files:read", "description": "Read a file.",
                                      "parameters": {"type": "object", "properties": {}}}]}]
    (d,) = _run(tmp_path, gem, ("=mcp",))
    assert d.code == "SL301" and d.severity.value == "warning"
    assert "400" not in d.message and "SHOULD" in d.message and "drop" in d.message


def test_null_schema_reported_once_and_omitted_schema_by_sl304(tmp_path: Path) -> None:
    assert [d.code for d in _run(tmp_path, [{"name": "get_me", "inputSchema": None}], ("all",))] == ["SL002"]
    (d,) = _run(tmp_path, [_fn("get_time")], ("anthropic",))
    assert d.code == "SL304" and "input_schema" in d.message
    assert _run(tmp_path, [_fn("get_time")], ("openai", "gemini")) == []


@needs_shared
def test_corpus_has_no_cross_family_duplicates() -> None:
    diags = check([str(CORPUS)], targets=("openai", "mcp")).diagnostics
    at = Counter((d.file, d.line, d.pointer.rsplit("/", 1)[0], d.tool) for d in diags if d.code in ("SL006", "SL301"))
    roots = Counter((d.file, d.line, d.tool) for d in diags if d.code in ("SL002", "SL304"))
    assert not [k for k, n in at.items() if n > 1]
    assert not [k for k, n in roots.items() if n > 1]
    assert any(d.code == "SL006" for d in diags)
