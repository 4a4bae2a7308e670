"""One JSON document above the in-memory read limit is checked part by part (loaders/files/stream_json.py),
with the diagnostics of the in-memory route; what cannot be streamed is refused with a clear SL000.

The read limit is lowered through ``SCHEMALINT_READ_LIMIT`` so that the documents stay small, and the
batches through ``pipeline.BATCH_LINES`` so that a document spans several of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.engine import pipeline
from schemalint.loaders.files.documents import READ_LIMIT_ENV
from tests.conftest import CORPUS, needs_shared

PER_REQUEST = {"SL320", "SL321", "SL322"}
"""The provider budgets of one request (docs/performance.md, "One huge JSON document"): on a streamed
document they count the tools of a tools list batch by batch, so they are compared apart."""


def _same(a: Any, b: Any, budgets: bool = True) -> None:
    def kept(result: Any) -> list[Any]:
        return [(d.to_json(), fp) for d, fp in zip(result.diagnostics, result.fingerprints, strict=True)
                if budgets or d.code not in PER_REQUEST]

    assert kept(a) == kept(b)
    assert (a.files, a.tools, a.tools_by_format, a.suppressed) == (b.files, b.tools, b.tools_by_format, b.suppressed)


def _mcp(i: int) -> dict[str, Any]:
    props: dict[str, Any] = {"query": {"type": "string", "description": "What to look for."},
                             "limit": {"type": "integer", "minimum": 10, "maximum": 1}}  # unsatisfiable
    tool: dict[str, Any] = {"name": f"search_{i % 9}", "inputSchema": {"type": "object", "properties": props}}
    if i % 3:
        tool["description"] = f"Search the index. Pass `limt` to cap the results (tool {i})."
    if i % 4 == 0:
        tool["inputSchema"]["required"] = ["query", "missing"]
    if i % 5 == 0:
        props["node"] = {"$ref": "#/$defs/Nowhere"}
    return tool


def _legacy(i: int) -> dict[str, Any]:
    return {"name": f"get_{i}", "description": "Get the thing.",
            "parameters": {"type": "object", "properties": {"id": {"type": "strng"}}, "required": ["id"]}}


def _dialect(i: int) -> dict[str, Any]:  # BFCL's type dialect: SL001's per-file summary
    return {"name": f"calc_{i}", "description": "Compute it.",
            "parameters": {"type": "dict", "properties": {"x": {"type": "float", "description": "A value."}},
                           "required": ["x", "y"] if i % 3 == 0 else ["x"]}}  # SL003 on every third


def _compare(path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int = 1, budgets: bool = True, **kw: Any) -> Any:
    monkeypatch.delenv(READ_LIMIT_ENV, raising=False)
    whole = check([str(path)], jobs=1, stream=False, **kw)
    assert not any(d.code == "SL000" for d in whole.diagnostics)
    monkeypatch.setenv(READ_LIMIT_ENV, str(path.stat().st_size // 3))
    monkeypatch.setattr(pipeline, "BATCH_LINES", 7)
    assert pipeline.streams_document(str(path))
    streamed = check([str(path)], jobs=jobs, **kw)
    _same(whole, streamed, budgets)
    return whole, streamed


@pytest.mark.parametrize("jobs", [1, 2])
def test_object_with_tool_arrays_streamed_as_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       jobs: int) -> None:
    doc = {"model": "gpt-4.1", "tools": [_mcp(i) for i in range(40)], "meta": {"exported": "2026-12-01"},
           "functions": [_legacy(i) for i in range(10)], "note": "é ünïcode before the last array",
           "more": [{"type": "function", "function": _legacy(100 + i)} for i in range(5)]}
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False))
    whole, _ = _compare(path, monkeypatch, jobs)  # the default targets: every diagnostic the same
    codes = {d.code for d in whole.diagnostics}
    assert {"SL003", "SL004", "SL005", "SL007", "SL201"} <= codes, codes
    assert whole.tools == 55
    # every provider: the same, but for the per-request budgets, which a streamed list counts per batch
    whole, _ = _compare(path, monkeypatch, jobs, budgets=False, targets=["all"])
    assert {d.code for d in whole.diagnostics} & PER_REQUEST  # here counted on 7 tools at a time: not reached


def test_minified_array_and_file_summary_streamed_as_in_memory(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bfcl.json"  # one line: columns count from the start of the file
    path.write_text(json.dumps([_dialect(i) for i in range(30)], separators=(",", ":")))
    whole, _ = _compare(path, monkeypatch)
    assert any("non-standard type dialect" in d.message for d in whole.diagnostics)
    assert all(d.line == 1 for d in whole.diagnostics) and len({d.column for d in whole.diagnostics}) > 10


@needs_shared
def test_corpus_tools_as_one_streamed_document(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from schemalint.engine import load

    files = sorted(str(f) for f in CORPUS.rglob("*.json"))[::8]  # every eighth file: all of its formats
    tools = [t.raw for t in load(files).tools if isinstance(t.raw, dict)]
    assert len(tools) > 1000
    path = tmp_path / "corpus-export.json"
    path.write_text(json.dumps({"tools": tools}, indent=1, ensure_ascii=False))
    _compare(path, monkeypatch)


def test_what_cannot_be_streamed_is_refused_with_the_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = tmp_path / "tool.json"  # the top-level object is one tool: no parts to read apart
    tool.write_text(json.dumps({**_mcp(1), "examples": [{"query": "x" * 50} for _ in range(50)]}))
    yaml_file = tmp_path / "tools.yaml"
    yaml_file.write_text("tools:\n" + "".join(f"  - name: t{i}\n    inputSchema: {{type: object}}\n"
                                              for i in range(200)))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"tools": [_mcp(i) for i in range(20)]}, indent=2)[:-40] + "}")
    monkeypatch.setenv(READ_LIMIT_ENV, "1000")
    result = check([str(tool), str(yaml_file), str(broken)])
    messages = {Path(d.file).name: d.message for d in result.diagnostics if d.code == "SL000"}
    assert "cannot be streamed: its top-level object is itself a tool definition" in messages["tool.json"]
    assert "1,000-byte size bound: not read" in messages["tools.yaml"]
    assert messages["broken.json"].startswith("invalid JSON")
    assert result.tools == 0
