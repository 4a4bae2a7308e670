"""`check --jobs N` whose workers load the files they check (engine/held.py): the result of a
serial in-memory run, diagnostic for diagnostic, with real forked workers and real files."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.config import Config, parse_config
from schemalint.engine import held
from tests.conftest import CORPUS, CORPUS_CHECKED_GROUP, REPOS, needs_repos, needs_shared, run_cli
from tests.test_perf_parallel import _write_mixed_catalog, _write_one_big_document


def _same(a: Any, b: Any) -> None:
    assert [d.to_json() for d in a.diagnostics] == [d.to_json() for d in b.diagnostics]
    assert a.fingerprints == b.fingerprints
    assert (a.files, a.tools, a.tools_by_format, a.notes, a.suppressed, a.unused_suppressions) == \
        (b.files, b.tools, b.tools_by_format, b.notes, b.suppressed, b.unused_suppressions)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the held runs that completed (so a test fails when the route is silently not taken)."""
    runs: list[int] = []
    real = held.check_held

    def spy(*args: Any, **kwargs: Any) -> Any:
        outcome = real(*args, **kwargs)
        if outcome is not None:
            runs.append(len(outcome[1].found))
        return outcome

    monkeypatch.setattr(held, "check_held", spy)
    return runs


def _catalog(tmp_path: Path) -> Path:
    """Several files with per-tool and catalog findings, a BFCL type-dialect file (SL001 summarises
    it from every tool), one large document (cut between workers), a name defined in several files
    (SL202 "another definition"), a file that does not parse and a recorded traffic file."""
    catalog = _write_mixed_catalog(tmp_path / "catalog")
    _write_one_big_document(catalog / "zz_big.json")
    (catalog / "broken_tools.json").write_text('{"tools": [')
    (catalog / "notes.json").write_text("{not json")  # not a tool file: skipped with a note
    bfcl = [{"name": f"calc_{k}", "description": "Compute.", "parameters": {
        "type": "dict", "properties": {"x": {"type": "integer"}}, "required": ["x"]}} for k in range(60)]
    (catalog / "zz_dialect.json").write_text(json.dumps(bfcl, indent=2))
    return catalog


@pytest.fixture(scope="module")
def serial_catalog(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """:func:`_catalog` and its serial check (``jobs=1``), made once for the parametrized tests
    that compare a held-workers run with it (read-only)."""
    catalog = _catalog(tmp_path_factory.mktemp("held"))
    return catalog, check([str(catalog)], targets=["all"], jobs=1)


@pytest.mark.parametrize("jobs", [2, 3])
def test_held_workers_give_the_serial_result(serial_catalog: tuple[Path, Any], taken: list[int], jobs: int) -> None:
    catalog, serial = serial_catalog
    codes = {d.code for d in serial.diagnostics}
    assert {"SL000", "SL001", "SL005", "SL202", "SL320"} <= codes, codes
    assert any(d.code == "SL001" and d.message.startswith("all 60 tool schemas") for d in serial.diagnostics)
    assert serial.notes
    parallel = check([str(catalog)], targets=["all"], jobs=jobs, catalog=False)
    assert taken and taken[0] == len(serial.diagnostics)
    assert not parallel.catalog
    _same(parallel, serial)
    assert not multiprocessing.active_children()


def _config(root: Path) -> Config:
    return parse_config({"per-file-ignores": [
        {"files": ["catalog/openai_0*.json"], "rules": ["SL003"], "reason": "known"},
        {"files": ["catalog/nothing_here.json"], "rules": ["SL001"], "reason": "hides nothing"}]},
        root / "schemalint.toml", prefix="")


def test_held_workers_count_the_suppressions(tmp_path: Path, taken: list[int]) -> None:
    catalog = _catalog(tmp_path)
    serial = check([str(catalog)], targets=["all"], config=_config(tmp_path), jobs=1)
    assert serial.suppressed > 0 and len(serial.unused_suppressions) == 1
    _same(check([str(catalog)], targets=["all"], config=_config(tmp_path), jobs=2, catalog=False), serial)
    assert taken


def test_one_large_document_is_cut_between_the_workers(tmp_path: Path, taken: list[int]) -> None:
    big = _write_one_big_document(tmp_path / "tools.json")
    serial = check([str(big)], targets=["all"], jobs=1)
    assert {"SL005", "SL202"} <= {d.code for d in serial.diagnostics}
    blocks = held.plan([str(big)], 2 * held.BLOCKS_PER_JOB)
    assert len(blocks) == 2 * held.BLOCKS_PER_JOB and all(len(b) == 1 for b in blocks)
    _same(check([str(big)], targets=["all"], jobs=2, catalog=False), serial)
    assert taken


def test_a_large_type_dialect_document_is_checked_whole(tmp_path: Path, taken: list[int]) -> None:
    bfcl = [{"name": f"calc_{k}", "description": "Compute `x`.", "parameters": {
        "type": "dict", "properties": {"x": {"type": "integer"}, "y": {"type": "float"}}, "required": ["x"]}}
        for k in range(400)]
    (tmp_path / "bfcl.json").write_text(json.dumps(bfcl, indent=2))
    serial = check([str(tmp_path / "bfcl.json")], jobs=1)
    assert any(d.code == "SL001" and d.message.startswith("all 400 tool schemas") for d in serial.diagnostics)
    _same(check([str(tmp_path / "bfcl.json")], jobs=2, catalog=False), serial)
    assert taken


def test_a_huge_document_keeps_the_shared_copy_route(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    taken: list[int]) -> None:
    big = _write_one_big_document(tmp_path / "tools.json")
    monkeypatch.setattr(held, "SHARED_FILE_BYTES", big.stat().st_size - 1)
    serial = check([str(big)], jobs=1)
    _same(check([str(big)], jobs=2, catalog=False), serial)
    assert not taken  # the in-memory route: one parsed copy, shared by the workers
    monkeypatch.setattr(held, "SHARED_FILE_BYTES", big.stat().st_size)
    _same(check([str(big)], jobs=2, catalog=False), serial)
    assert taken


def test_plan_covers_every_tool_once_in_order() -> None:
    sizes = [10, 500, 7, 7, 3000, 1, 0, 40]
    paths = [f"f{i}.json" for i in range(len(sizes))]
    for parts in (1, 2, 3, 8, 16, 64):
        blocks = held.plan(paths, parts, sizes)
        assert 1 <= len(blocks) <= parts and all(blocks)
        pieces = [p for block in blocks for p in block]
        order = [paths.index(p.path) for p in pieces]
        assert order == sorted(order)
        for count in (0, 1, 5, 97):
            for path in paths:
                mine = [p.tools(count) for p in pieces if p.path == path]
                covered = [i for r in mine for i in r]
                assert covered == list(range(count)), (parts, path, mine)
                assert [p.last for p in pieces if p.path == path][-1]
                assert sum(p.last for p in pieces if p.path == path) == 1
    # the largest file is cut when a share is smaller than it; small files never are
    blocks = held.plan(paths, 8, sizes)
    assert sum(p.path == "f4.json" for b in blocks for p in b) > 1
    assert all(sum(p.path == f for b in blocks for p in b) == 1 for f in ("f0.json", "f2.json", "f5.json"))


def test_a_failed_worker_falls_back_to_another_route(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = _catalog(tmp_path)
    serial = check([str(catalog)], targets=["all"], jobs=1)
    calls: list[Any] = []
    real = held.check_held

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(real(*args, **kwargs))
        return calls[-1]

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise MemoryError("a worker that cannot load its share")

    monkeypatch.setattr(held, "check_held", spy)
    monkeypatch.setattr(held, "_load", broken)  # inherited by the forked workers
    _same(check([str(catalog)], targets=["all"], jobs=2, catalog=False), serial)
    assert calls == [None]
    assert not multiprocessing.active_children()


def test_cli_jobs_2_output_is_byte_identical(tmp_path: Path) -> None:
    catalog = _catalog(tmp_path)
    outputs = []
    for jobs in ("1", "2"):
        proc = run_cli("check", str(catalog), "--target", "all", "--format", "jsonl", "--jobs", jobs, cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("\n") > 50


@needs_shared
@pytest.mark.xdist_group(CORPUS_CHECKED_GROUP)
def test_corpus_by_held_workers_as_serially(taken: list[int], corpus_checked: Any) -> None:
    serial = corpus_checked
    _same(check([str(CORPUS)], jobs=2, catalog=False), serial)
    assert taken


@needs_repos
def test_repositories_by_held_workers_as_serially(taken: list[int]) -> None:
    serial = check([str(REPOS)], jobs=1)
    _same(check([str(REPOS)], jobs=2, catalog=False), serial)
    assert taken
