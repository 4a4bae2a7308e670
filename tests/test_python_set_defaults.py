"""Issue 28: a default built from a Python set is listed in one order on every run (pydantic writes
a set whose items do not compare in the process's iteration order, which follows PYTHONHASHSEED).
Real pydantic and a real fastmcp server, loaded through the worker in processes with different
hash seeds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pydantic")

from schemalint.loaders.python.set_defaults import canonical_set_defaults
from tests.conftest import ROOT

MODULE = '''\
from pydantic import BaseModel


class Tag(BaseModel):
    """Tag things."""

    labels: set[int | str] = {1, "alpha", "beta", 2, "gamma", "delta"}
    names: frozenset[str] = frozenset({"b", "a", "c"})
'''

PRINT = (
    "import json, sys; from schemalint.engine import load; "
    "t = load(['tags:Tag'], python_path=[sys.argv[1]]).tools[0]; "
    "print(json.dumps([t.advertised['properties'][k]['default'] for k in ('labels', 'names')]))"
)


def _defaults(folder: Path, seed: str) -> list[list[object]]:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", PRINT, str(folder)], capture_output=True, text=True,
                          timeout=300, env=env, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def test_a_mixed_set_default_has_one_order_whatever_the_hash_seed(tmp_path: Path) -> None:
    (tmp_path / "tags.py").write_text(MODULE)
    seen = {json.dumps(_defaults(tmp_path, seed)) for seed in ("1", "2", "3", "4", "5")}
    assert seen == {json.dumps([[1, 2, "alpha", "beta", "delta", "gamma"], ["a", "b", "c"]])}


def test_the_order_is_pydantics_own_for_items_that_compare() -> None:
    schema = {"type": "object", "properties": {
        "n": {"type": "array", "uniqueItems": True, "default": [10, 9, 2.5]},
        "authored": {"type": "array", "default": ["b", "a"]},  # a list: its order is the author's
        "nested": {"type": "object", "properties": {"s": {"type": "array", "uniqueItems": True,
                                                          "default": [None, "x", True, {"k": 1}, 3]}}}}}
    out = canonical_set_defaults(schema)
    assert out["properties"]["n"]["default"] == [2.5, 9, 10]
    assert out["properties"]["authored"]["default"] == ["b", "a"]
    assert out["properties"]["nested"]["properties"]["s"]["default"] == [None, True, 3, "x", {"k": 1}]
    assert canonical_set_defaults(out) is out  # nothing left to change: the same object
