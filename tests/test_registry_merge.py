"""The merge of benchmarks/registry_dask.py (shards of whole files checked apart, their JSON Lines
merged) gives one run's report on the examples; Dask itself is not needed for this."""

from __future__ import annotations

import importlib.util
import json
import sys
from typing import Any

from schemalint.api import check
from schemalint.loaders.files.sources import expand_sources
from schemalint.report.jsonl import line
from tests.conftest import ROOT


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("schemalint_registry_dask", ROOT / "benchmarks" / "registry_dask.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_shards_merge_into_the_report_of_one_run(monkeypatch: Any) -> None:
    monkeypatch.chdir(ROOT)
    script = _script()
    files = expand_sources(["examples"])
    parts = script.shard(files, 5)
    assert len(parts) == 5 and [f for p in parts for f in p] == files
    lines, counts = script.merge(script.check_shard(p) for p in reversed(parts))  # any order of shards
    whole = check(["examples"])
    assert lines == [line(d) for d in whole.diagnostics] and len(lines) > 20
    assert counts["files"] == whole.files and counts["tools"] == whole.tools
    assert counts["tools_by_format"] == whole.tools_by_format and counts["diagnostics"] == len(lines)
    assert all(json.loads(text)["file"] for text in lines)


def test_shard_keeps_whole_files_in_order() -> None:
    script = _script()
    assert script.shard(["a", "b", "c"], 2) == [["a", "b"], ["c"]]
    assert script.shard(["a"], 4) == [["a"]] and script.shard([], 3) == []
