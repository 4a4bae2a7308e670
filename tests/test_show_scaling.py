"""``show`` stays near-linear in the schema's size (issue 25): wide unions, large enums, deep nesting.

The figures are ratios measured in one process on the same machine, never absolute times: a tool
ten times larger may take about ten times longer (measured 12-17 times on an idle machine, the
sorting and caches of a larger input; the bound is 30, about the geometric midpoint of linear (10)
and quadratic (100) growth, which the quadratic layout this replaces reached and passed). The
layout's pieces are checked against the standard library: the JSON lines against
``json.dumps(indent=2)``, the alignment against the sequences it aligns.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.report.show_layout import INDENT_CAP, align, json_lines
from tests.conftest import cli

RATIO_BOUND = 30


def _union(n: int, shift: int) -> dict[str, Any]:
    """An object whose ``x`` is an ``anyOf`` of ``n`` objects; every seventh branch's ``required``
    differs between ``shift`` 0 and 1 (the two sides of ``show`` differ all along)."""
    return {"type": "object", "properties": {"x": {"anyOf": [
        {"type": "object", "properties": {f"k{i}": {"type": "string"}},
         "required": [f"k{i}"] if (i + shift) % 7 else []} for i in range(n)]}}}


def _enum(n: int, shift: int) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": {"type": "string", "enum": [f"v{i}" for i in range(shift, n)]}}}


def _manifest(path: Path, make: Any, n: int) -> Path:
    path.write_text(json.dumps({"schemalint": 1, "tools": [
        {"name": "t", "description": "d", "advertised": make(n, 0), "runtime": {"input": make(n, 1)}}]}))
    return path


def _show_seconds(path: Path) -> float:
    from schemalint.api import load
    from schemalint.report.text import render_show
    from schemalint.show import build_view

    (tool,) = load([str(path)]).tools
    # CPU time of this process: the suite's other workers load the machine, and wall time measured
    # that load (a x22 ratio once under a full parallel run) rather than the rendering's growth
    started = time.process_time()
    out = io.StringIO()
    render_show(build_view(tool), out, color=False)
    assert "runtime input (draft-07)" in out.getvalue()
    return time.process_time() - started


@pytest.mark.parametrize(("make", "small"), [(_union, 150), (_enum, 1_500)], ids=["anyOf", "enum"])
def test_show_time_grows_linearly_with_the_union_or_enum(tmp_path: Path, make: Any, small: int) -> None:
    little = _manifest(tmp_path / "small.json", make, small)
    large = _manifest(tmp_path / "large.json", make, small * 10)
    _show_seconds(little)  # imports and caches warmed
    times: dict[Path, list[float]] = {little: [], large: []}
    for _ in range(5):  # interleaved: a change of the machine's load hits both alike
        for path in (little, large):
            times[path].append(_show_seconds(path))
    ratio = min(times[large]) / min(times[little])
    print(f"show x10 size: x{ratio:.1f} time ({min(times[little]):.2f}s -> {min(times[large]):.2f}s)")
    assert ratio < RATIO_BOUND, (ratio, times)


def _deep(levels: int) -> dict[str, Any]:
    inner: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        inner = {"type": "object", "properties": {"a": inner}, "required": ["a"]}
    return inner


def test_a_schema_nested_450_levels_is_shown_with_its_levels_tagged(tmp_path: Path) -> None:
    old, new = _deep(450), _deep(450)
    node = new
    for _ in range(300):
        node = node["properties"]["a"]
    node["required"] = []  # one difference 300 levels down
    (tmp_path / "deep.json").write_text(json.dumps({"schemalint": 1, "tools": [
        {"name": "d", "description": "d", "advertised": old, "runtime": {"input": new}}]}))
    proc = cli("show", "d", "deep.json", cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert any(f"..{INDENT_CAP + 1} " in line for line in lines) and any("..600 " in line for line in lines)
    marked = [line for line in lines if line[:2] in ("~ ", "- ", "+ ")]
    assert marked and all("..601 " in line or "..602 " in line for line in marked), marked
    side_by_side = lines[1:lines.index("  ~ differs   - advertised only   + runtime only")]
    assert max(len(line) for line in side_by_side) <= 160  # the indentation stopped growing


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=30)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(JSON)
def test_json_lines_are_json_dumps_lines_up_to_the_indentation_cap(value: Any) -> None:
    assert json_lines(value) == ([] if value is None else json.dumps(value, indent=2, ensure_ascii=False).split("\n"))


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from("abcdefgh"), max_size=30), st.lists(st.sampled_from("abcdefgh"), max_size=30))
def test_align_covers_both_sides_and_its_equal_ranges_are_equal(a: list[str], b: list[str]) -> None:
    ops = align(a, b)
    assert [x for op in ops for x in range(op[1], op[2])] == list(range(len(a)))
    assert [y for op in ops for y in range(op[3], op[4])] == list(range(len(b)))
    for op, a0, a1, b0, b1 in ops:
        assert (a[a0:a1] == b[b0:b1]) if op == "equal" else op in ("replace", "delete", "insert")
    if a == b:
        assert all(op[0] == "equal" for op in ops)
