"""A registry scan in shards with catalog summaries (schemalint.api.summarise, then
schemalint.rules.facts.merge_summaries, then check(shard, facts=...)) gives the report of one run,
diagnostic for diagnostic, where shards checked apart differ (benchmarks/registry_dask.py)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check, summarise
from schemalint.loaders.files.sources import expand_sources
from schemalint.report.jsonl import line
from schemalint.rules.facts import SummaryError, merge_summaries
from tests._fixtures_cli import run_cli_here
from tests.conftest import CORPUS, CORPUS_CHECKED_GROUP, ROOT, needs_shared


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("schemalint_registry_dask_s",
                                                  ROOT / "benchmarks" / "registry_dask.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _sharded(sources: list[str], shards: int, tmp_path: Path, summaries: bool = True) -> tuple[list[str], Any]:
    """The merged lines of a scan of ``sources`` in ``shards`` shards, the summaries written to and
    read from files as separate processes would exchange them."""
    script = _script()
    parts = script.shard(expand_sources(sources), shards)
    assert len(parts) == shards
    facts = None
    if summaries:
        paths = []
        for i, part in enumerate(parts):
            paths.append(tmp_path / f"shard-{i}.json")
            paths[-1].write_text(json.dumps(script.summarise_shard(part)), encoding="utf-8")
        facts = merge_summaries(json.loads(p.read_text(encoding="utf-8")) for p in paths)
    return script.merge(script.check_shard(p, facts) for p in reversed(parts))  # shards end in any order


def _write_catalog(directory: Path) -> Path:
    """Files whose catalog-wide findings need another file: a name defined in two files with other
    properties (SL202 "another definition"), a look-alike name (SL502), a description naming another
    tool (SL201/SL506 know every name of the run)."""
    directory.mkdir()
    s = {"type": "string"}

    def tool(name: str, props: dict[str, Any], description: str) -> dict[str, Any]:
        return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": props}}

    files = [
        [tool("search", {"query": s, "limit": {"type": "integer"}}, "Search the index.")],
        [tool("paypal_send", {"to": s}, "Send money.")],
        [tool("search", {"query": s}, "Search; pass `limit` to cap the results.")],
        [tool("p\u0430ypal_send", {"to": s}, "Send money.")],
        [tool("report", {"q": s}, "Call `search` first, then `paypal_send`.")],
    ]
    for i, tools in enumerate(files):
        (directory / f"server_{i}.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return directory


def test_shards_with_summaries_give_one_run(tmp_path: Path) -> None:
    catalog = _write_catalog(tmp_path / "catalog")
    files = expand_sources([str(catalog)])
    whole = [line(d) for d in check([str(catalog)], extend_select=["SL5"]).diagnostics]
    codes = {json.loads(text)["code"] for text in whole}
    assert {"SL202", "SL502"} <= codes, codes
    parts = [[f] for f in files]  # one server a shard
    facts = merge_summaries(json.loads(json.dumps(summarise(p, scan=True))) for p in parts)

    def lines(shard_facts: Any) -> list[str]:
        found = [d for p in parts for d in check(p, extend_select=["SL5"], scan=True, facts=shard_facts,
                                                    stream=True).diagnostics]
        return _script().merge([([line(d) for d in found], {"files": 0, "tools": 0, "tools_by_format": {}})])[0]

    assert lines(facts) == whole
    assert lines(None) != whole  # without the summaries each shard sees only itself


@needs_shared
@pytest.mark.xdist_group(CORPUS_CHECKED_GROUP)
def test_corpus_in_eight_shards_with_summaries_is_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          corpus_checked: Any) -> None:
    monkeypatch.chdir(ROOT)
    result = corpus_checked  # the in-memory run in one process: the shards together must be it
    whole = [line(d) for d in result.diagnostics]
    together, counts = _sharded([str(CORPUS)], 8, tmp_path)
    assert len(whole) > 3000 and any("another definition" in text for text in whole)
    assert together == whole
    assert (counts["files"], counts["tools"], counts["tools_by_format"]) == \
        (result.files, result.tools, result.tools_by_format)


def test_summary_round_trip_and_refusals(tmp_path: Path) -> None:
    catalog = _write_catalog(tmp_path / "catalog")
    one = summarise([str(catalog)])
    assert one["schemalint-summary"] == 1 and len(one["tools"]) == 5
    whole = check([str(catalog)], stream=True)
    merged = merge_summaries([json.loads(json.dumps(one))])
    assert merged.names == {"search", "paypal_send", "p\u0430ypal_send", "report"}
    assert [d.origin.file for d in merged.repeated["search"]] == [str(catalog / "server_0.json"),
                                                                  str(catalog / "server_2.json")]
    assert any(len(v) == 2 for v in merged.lookalikes.values())
    assert [d.to_json() for d in check([str(catalog)], facts=merged).diagnostics] == \
        [d.to_json() for d in whole.diagnostics]
    for bad in ({"tools": []}, {"schemalint-summary": 1, "files": [], "tools": [["a", 3]], "dialect": []}):
        with pytest.raises(SummaryError):
            merge_summaries([bad])


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """One ``schemalint`` run from ``cwd``, in this process (tests/_fixtures_cli.py): each run is a
    fresh command, so a shard that saw another's tools without ``--summaries`` would still show."""
    return run_cli_here(*args, cwd=cwd)


def test_cli_rounds_summary_out_then_summaries_give_one_run(tmp_path: Path) -> None:
    catalog = _write_catalog(tmp_path / "catalog")
    shards = sorted(p.name for p in catalog.iterdir())
    (tmp_path / "summaries").mkdir()
    for i, name in enumerate(shards):  # round 1, one run a shard
        done = _cli("check", f"catalog/{name}", "--summary-out", f"summaries/{i:03}.json", cwd=tmp_path)
        assert done.returncode == 0 and done.stdout == "", done.stderr
        assert "wrote the summary of 1 tool(s) in 1 file(s)" in done.stderr

    def round_two(*extra: str) -> list[str]:
        lines: list[str] = []
        for name in reversed(shards):  # shards end in any order
            done = _cli("check", f"catalog/{name}", "--format", "jsonl", "--extend-select", "SL5",
                        "--fail-on", "never", *extra, cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            lines += done.stdout.splitlines()
        return sorted(lines)

    whole = _cli("check", "catalog", "--format", "jsonl", "--extend-select", "SL5", "--fail-on", "never",
                 cwd=tmp_path).stdout.splitlines()
    assert {json.loads(x)["code"] for x in whole} >= {"SL202", "SL502"}
    assert round_two("--summaries", "summaries") == sorted(whole)
    assert round_two() != sorted(whole)  # without the summaries each shard sees only itself


def test_cli_summary_refusals_name_the_file(tmp_path: Path) -> None:
    catalog = _write_catalog(tmp_path / "catalog")
    source = catalog / "server_0.json"
    before = source.read_bytes()
    done = _cli("check", str(source), "--summary-out", str(source), cwd=tmp_path)
    assert done.returncode == 2 and "refusing to write the shard summary onto" in done.stderr
    assert source.read_bytes() == before
    bad = tmp_path / "bad.json"
    bad.write_text('{"tools": []}', encoding="utf-8")
    done = _cli("check", str(catalog), "--summaries", str(bad), cwd=tmp_path)
    assert done.returncode == 2 and "not a schemalint shard summary" in done.stderr, done.stderr
    bad.write_text("{", encoding="utf-8")
    done = _cli("check", str(catalog), "--summaries", str(bad), cwd=tmp_path)
    assert done.returncode == 2 and f"{bad}: not a schemalint shard summary" in done.stderr, done.stderr
