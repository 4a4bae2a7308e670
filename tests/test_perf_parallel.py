"""`check --jobs N` gives exactly the result of a serial run; the start-up stays light."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check, load
from schemalint.engine import (
    PARALLEL_BYTES,
    PARALLEL_FILES,
    PARALLEL_TOOLS,
    available_cpus,
    default_jobs,
)
from schemalint.engine.parallel import file_chunks
from tests.conftest import CORPUS, ROOT, needs_shared, run_json


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("schemalint_bench_run", ROOT / "benchmarks" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _same(a: Any, b: Any) -> None:
    assert [d.to_json() for d in a.diagnostics] == [d.to_json() for d in b.diagnostics]
    assert a.fingerprints == b.fingerprints
    assert (a.files, a.tools, a.tools_by_format) == (b.files, b.tools, b.tools_by_format)


def _write_mixed_catalog(directory: Path) -> Path:
    """Files with per-tool findings, a duplicate name across files (a catalog rule) and a file
    written wholly in the BFCL "dict" dialect (SL001 summarises it per file in check_catalog)."""
    directory.mkdir()
    bench = _bench()
    bench.write_catalog(directory / "synthetic", 120, seed=3)
    for i in range(12):
        tools = [{"name": f"tool_{i}_{j}", "description": "Look up an item; pass `item_id` and `limt`.",
                  "parameters": {"type": "object",
                                 "properties": {"item_id": {"type": "string"}, "limit": {"type": "integer"},
                                                "bad": {"type": "strin"}},
                                 "required": ["item_id", "missing"]}} for j in range(3)]
        tools.append({"name": "shared_name", "description": "Same name in every file.",
                      "parameters": {"type": "object", "properties": {}}})
        if i == 5:
            tools.append(dict(tools[-1]))  # a duplicate name within one request
        (directory / f"openai_{i:02d}.json").write_text(json.dumps([{"type": "function", "function": t}
                                                                    for t in tools], indent=2))
    bfcl = [{"name": f"calc_{k}", "description": "Compute.", "parameters": {
        "type": "dict", "properties": {"x": {"type": "integer"}, "y": {"type": "float"}}, "required": ["x"]}}
        for k in range(4)]
    (directory / "bfcl.json").write_text(json.dumps(bfcl))
    return directory


def test_jobs_give_identical_results_on_a_mixed_catalog(tmp_path: Path) -> None:
    catalog = _write_mixed_catalog(tmp_path / "catalog")
    serial = check([str(catalog)], targets=["all"], jobs=1)
    codes = {d.code for d in serial.diagnostics}
    assert {"SL001", "SL005", "SL320"} <= codes, codes  # SL005/SL320 are catalog rules
    assert any(d.code == "SL001" and d.message.startswith("all 4 tool schemas") for d in serial.diagnostics)
    assert len(serial.diagnostics) > 50
    for jobs in (2, 3):
        _same(check([str(catalog)], targets=["all"], jobs=jobs), serial)


def test_cli_jobs_json_identical_on_examples() -> None:
    code1, one = run_json("check", "examples", "--target", "all", "--format", "json", "--jobs", "1")
    code2, two = run_json("check", "examples", "--target", "all", "--format", "json", "--jobs", "2")
    assert code1 == code2
    assert one["diagnostics"] and one["diagnostics"] == two["diagnostics"]
    one["summary"].pop("elapsed_seconds", None)
    two["summary"].pop("elapsed_seconds", None)
    assert one["summary"] == two["summary"]


def test_cli_rejects_zero_jobs() -> None:
    proc = subprocess.run([sys.executable, "-m", "schemalint", "check", "examples", "--jobs", "0"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2
    assert "--jobs must be at least 1" in proc.stderr


@needs_shared
def test_jobs_identical_on_corpus_subset() -> None:
    sources = [str(CORPUS / "github-mcp-server"), str(CORPUS / "kubernetes-mcp-server")]
    serial = check(sources, targets=["all"], jobs=1)
    assert len(serial.diagnostics) > 1000
    _same(check(sources, targets=["all"], jobs=2), serial)


def test_file_chunks_cover_all_tools_and_never_split_a_file(tmp_path: Path) -> None:
    catalog = _write_mixed_catalog(tmp_path / "catalog")
    loaded = load([str(catalog)]).tools
    assert len({t.origin.file for t in loaded}) > 10
    for parts in (1, 2, 5, 64, 1000):
        chunks = file_chunks(loaded, parts)
        assert chunks[0][0] == 0 and chunks[-1][1] == len(loaded)
        assert all(a[1] == b[0] for a, b in itertools.pairwise(chunks))
        assert len(chunks) <= max(parts, 1) + 1
        for start, _ in chunks[1:]:
            assert loaded[start].origin.file != loaded[start - 1].origin.file
    assert file_chunks([], 4) == []


def test_default_jobs_by_size_and_usable_cpus() -> None:
    cpus = available_cpus()
    assert default_jobs(10, 1_000_000) == 1
    assert default_jobs(PARALLEL_FILES, PARALLEL_BYTES) == 1
    assert default_jobs(10, 1_000_000, PARALLEL_TOOLS) == 1
    for large in ((PARALLEL_FILES + 1, 0, 0), (1, PARALLEL_BYTES + 1, 0), (10, 1_000_000, PARALLEL_TOOLS + 1)):
        assert default_jobs(*large) == cpus  # every CPU the process may use, whatever the load average


def test_available_cpus_is_bounded_by_the_affinity_mask() -> None:
    assert 1 <= available_cpus() <= (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                                     else (os.cpu_count() or 1))


def test_metaschemas_read_without_referencing_match_the_registry() -> None:
    from jsonschema_specifications import REGISTRY

    from schemalint.schema.dialect import DIALECTS, metaschema

    for name, uri in DIALECTS.items():
        assert metaschema(name) == REGISTRY.contents(uri), name


HEAVY = ("pydantic", "deepdiff", "hypothesis", "mcp", "jsonschema", "referencing", "jsonschema_specifications")


def _imported(*args: str) -> set[str]:
    code = ("import sys, runpy\nsys.argv = ['schemalint', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('schemalint', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT)
    return set(proc.stderr.strip().splitlines()[-1].split())


@pytest.mark.parametrize("args", [("--version",), ("check", "examples/mcp/get_me.snap")])
def test_start_up_imports_no_heavy_library(args: tuple[str, ...]) -> None:
    loaded = _imported(*args)
    assert "schemalint" in loaded
    # pydantic comes with typer itself (typer >= 0.16 builds parameter adapters with it), so it
    # is only forbidden where typer does not load it
    forbidden = set(HEAVY) - ({"pydantic"} if "pydantic" in _imported_by_typer() else set())
    assert not (loaded & forbidden), loaded & forbidden


def _imported_by_typer() -> set[str]:
    code = ("import sys, typer\napp = typer.Typer()\n@app.command()\ndef main() -> None:\n    pass\n"
            "try:\n    app([])\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return set(proc.stderr.strip().splitlines()[-1].split())


@pytest.mark.parametrize(("old", "new"), [
    ({"a": 1}, {"a": 1}),
    ({"a": 1}, {"a": 1.0}),
    ({"a": 1}, {"a": True}),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
    ({"a": float("nan")}, {"a": None}),
    ({"a": float("nan")}, {"a": float("nan")}),
    ({"a": float("inf")}, {"a": None}),
    ({"a": [None, "null"]}, {"a": [None, "null"]}),
    ({"type": "null"}, {"type": "null"}),
    ({"a": 1e16}, {"a": 1e16}),
    ({"a": 0.0}, {"a": -0.0}),
    ({"a": 10**30}, {"a": 10**30}),
    ({1: "x"}, {"1": "x"}),
    ({"a": "é"}, {"a": "\\u00e9"}),
])
def test_same_rendering_agrees_with_the_rendering(old: dict[str, Any], new: dict[str, Any]) -> None:
    from schemalint.diff.render import NotJson, render, same_rendering
    from schemalint.model import Origin, Tool

    def tool(schema: dict[str, Any]) -> Tool:
        return Tool(name="t", description="d", advertised=schema, origin=Origin("f.json", "", "manifest"),
                    raw={"name": "t", "description": "d", "parameters": schema})

    a, b = tool(old), tool(new)
    try:
        rendered_alike = render(a) == render(b)
    except NotJson:
        # a value JSON cannot hold is refused, never rendered: snapshot and diff refuse the tool
        assert any(isinstance(v, float) and not math.isfinite(v) for v in (*old.values(), *new.values()))
        return
    assert same_rendering(a, b) == rendered_alike


@pytest.mark.parametrize("document", [
    {"a": 1, "b": [1.5, None, "é", {"c": True}], "d": {}, "e": []},
    {"nan": float("nan")},
    {"inf": [float("-inf")]},
    {1: "non-string key"},
    {"big": 10**40},
    {"surrogate": "a\udc80"},
    {"floats": [1e16, 1e-7, 0.1, -0.0, 123456789.125, 0.0001]},
])
def test_fast_json_dumps_matches_json(document: Any) -> None:
    import datetime

    from schemalint.report.json_report import dumps

    assert dumps(document) == json.dumps(document, indent=2, ensure_ascii=False)
    dated = {"when": datetime.date(2024, 1, 2), "value": document}
    assert dumps(dated, default=str) == json.dumps(dated, indent=2, ensure_ascii=False, default=str)


def _write_one_big_document(path: Path) -> Path:
    """One JSON document of 240 tools: synthetic ones and some with findings (per-tool rules, SL201/
    SL202 against other definitions of the same name, SL005 duplicates in the one tools list)."""
    import random

    bench = _bench()
    rng = random.Random(5)
    tools: list[dict[str, Any]] = []
    for i in range(240):
        if i % 6 == 0:
            tools.append({"name": f"lookup_{i % 5}", "description": "Look up an item; pass `item_id` and `limit`.",
                          "inputSchema": {"type": "object",
                                          "properties": {"item_id": {"type": "string"}, "bad": {"type": "strin"},
                                                         **({"limit": {"type": "integer"}} if i % 4 else {})},
                                          "required": ["item_id", "missing"]}})
        else:
            tools.append(bench.synthetic_tool(rng, i))
    path.write_text(json.dumps({"tools": tools}, indent=1))
    return path


def test_jobs_share_one_large_document(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import schemalint.engine.parallel as parallel

    (tmp_path / "catalog").mkdir()
    big = _write_one_big_document(tmp_path / "catalog" / "tools.json")
    bfcl = [{"name": f"calc_{k}", "description": "Compute.", "parameters": {
        "type": "dict", "properties": {"x": {"type": "integer"}, "y": {"type": "float"}}, "required": ["x"]}}
        for k in range(40)]
    (tmp_path / "catalog" / "bfcl.json").write_text(json.dumps(bfcl))  # SL001 summarises it: never split
    serial = check([str(tmp_path / "catalog")], targets=["all"], jobs=1)
    codes = {d.code for d in serial.diagnostics}
    assert {"SL001", "SL005", "SL202"} <= codes, codes
    assert any(d.code == "SL001" and d.message.startswith("all 40 tool schemas") for d in serial.diagnostics)
    cuts: list[list[tuple[int, int]]] = []
    real = parallel.file_chunks

    def spy(tools: Any, parts: int, splittable: Any = ()) -> list[tuple[int, int]]:
        cuts.append(real(tools, parts, splittable))
        return cuts[-1]

    monkeypatch.setattr(parallel, "file_chunks", spy)
    for jobs in (2, 3):
        _same(check([str(tmp_path / "catalog")], targets=["all"], jobs=jobs), serial)
    loaded = load([str(tmp_path / "catalog")]).tools
    for chunks in cuts:
        files = [{t.origin.file for t in loaded[a:b]} for a, b in chunks]
        assert sum(str(big) in f for f in files) >= 2  # the large document is checked by several workers
        assert sum(str(tmp_path / "catalog" / "bfcl.json") in f for f in files) == 1  # the dialect file is not


def test_file_chunks_split_only_the_splittable_files(tmp_path: Path) -> None:
    from schemalint.engine.parallel import splittable_files
    from schemalint.rules.registry import all_rules

    catalog = _write_mixed_catalog(tmp_path / "catalog")
    loaded = load([str(catalog)]).tools
    rules = list(all_rules())
    splittable = splittable_files(rules, loaded)
    assert str(catalog / "bfcl.json") not in splittable and str(catalog / "openai_03.json") in splittable
    assert splittable_files([r for r in rules if r.code != "SL001"], loaded) == {t.origin.file for t in loaded}
    for parts in (2, 7, 64):
        chunks = file_chunks(loaded, parts, splittable)
        assert chunks[0][0] == 0 and chunks[-1][1] == len(loaded)
        assert all(a[1] == b[0] for a, b in itertools.pairwise(chunks))
        for start, _ in chunks[1:]:
            assert loaded[start].origin.file in splittable or loaded[start].origin.file != loaded[start - 1].origin.file
    assert len(file_chunks(loaded, len(loaded), splittable)) > len({t.origin.file for t in loaded})
