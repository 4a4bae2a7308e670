"""The shortcuts that keep ``schemalint diff`` fast give the same answers as the slow paths.

* :func:`~schemalint.diff.checks._common.diff_locations` shares equal subtrees before deepdiff
  walks them: its paths must equal deepdiff's on the unshared values (random schemas and
  random edits, real deepdiff);
* the order of the changes does not depend on the string hash seed.
"""

from __future__ import annotations

import datetime
import enum
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemalint.diff.checks._common import diff_locations, normalise, share_equal
from tests.conftest import cli, examples

KEYS = ["type", "properties", "required", "enum", "items", "anyOf", "description", "minimum", "a", "b"]

# few distinct scalars, so that edits often swap values equal in Python but not in JSON (1, 1.0, true)
scalars = st.sampled_from([None, True, False, 0, 1, 0.0, -0.0, 1.0, math.nan, "string", "x", ""])
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    ),
    max_leaves=30,
)


@st.composite
def edited(draw: st.DrawFn) -> tuple[Any, Any]:
    """A value and a copy of it with a few random edits somewhere inside (or none)."""
    old = draw(json_values)
    new = json.loads(json.dumps(old))  # NaN survives the round trip

    def edit(value: Any) -> Any:
        if isinstance(value, dict) and value and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(value)))
            value[key] = edit(value[key])
            return value
        if isinstance(value, list) and value and draw(st.booleans()):
            i = draw(st.integers(0, len(value) - 1))
            value[i] = edit(value[i])
            return value
        action = draw(st.integers(0, 3))
        if action == 0:
            return draw(json_values)
        if action == 1 and isinstance(value, dict):
            value[draw(st.sampled_from(KEYS))] = draw(scalars)
            return value
        if action == 2 and isinstance(value, list):
            value.append(draw(scalars))
            return value
        return value

    for _ in range(draw(st.integers(0, 3))):
        new = edit(new)
    return old, new


def deepdiff_paths(old: Any, new: Any) -> list[list[Any]]:
    """Every path deepdiff reports on the normalised values, without any sharing."""
    from deepdiff import DeepDiff

    tree = DeepDiff(normalise(old), normalise(new), view="tree", verbose_level=0)
    return [list(level.path(output_format="list")) for report in sorted(tree) for level in tree[report]]


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited())
def test_sharing_equal_subtrees_changes_no_deepdiff_path(pair: tuple[Any, Any]) -> None:
    old, new = pair
    assert diff_locations(old, new) == deepdiff_paths(old, new)


def test_share_equal_keeps_types_apart_and_shares_equal_parts() -> None:
    old = {"a": {"minimum": 1}, "b": [1, {"x": "y"}], "c": {"d": 1}}
    new = {"a": {"minimum": True}, "b": [1, {"x": "y"}], "c": {"d": 1.0}}
    shared, equal = share_equal(old, new)
    assert not equal
    assert shared["b"] is old["b"]  # equal: shared
    assert shared["a"] is not old["a"] and shared["a"] == {"minimum": True}  # 1 vs true
    assert shared["c"] == {"d": 1.0} and isinstance(shared["c"]["d"], float)  # 1 vs 1.0
    assert new == {"a": {"minimum": True}, "b": [1, {"x": "y"}], "c": {"d": 1.0}}  # not modified
    assert not share_equal({"x": float("nan")}, {"x": float("nan")})[1]  # deepdiff: nan != nan
    assert share_equal({"k": [1, 2]}, {"k": [1, 2]})[1]
    assert not share_equal({"k": [1, 2]}, {"k": [1, 2, 3]})[1]


def test_change_order_does_not_depend_on_the_hash_seed(tmp_path: Path) -> None:
    """deepdiff keeps report types in a set; the diff must still print changes in one order."""
    props = {f"p{i}": {"type": "string", "description": f"d{i}"} for i in range(6)}
    old = {"name": "t", "description": "x", "inputSchema": {"type": "object", "properties": props}}
    new_props = {k: dict(v) for k, v in props.items() if k not in ("p1", "p4")}
    new_props["p2"]["description"] = "changed"
    new_props["p3"]["type"] = 3
    new_props["q"] = {"type": "integer"}
    new = {**old, "inputSchema": {"type": "object", "properties": new_props, "required": ["p0"]}}
    (tmp_path / "old.json").write_text(json.dumps([old]))
    (tmp_path / "new.json").write_text(json.dumps([new]))
    outputs = set()
    for seed in ("0", "1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        proc = subprocess.run(
            [sys.executable, "-m", "schemalint", "diff", "old.json", "new.json", "--format", "json",
             "--fail-on", "never"],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1
    report = json.loads(outputs.pop())
    names = {c["name"] for c in report["changes"]}
    assert names == {"required-added", "property-removed", "property-added", "type-narrowed", "description-changed"}


# ---------------------------------------------------------------- files parsed once for both sides
def _tool(i: int, **extra: Any) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "integer"}}}
    return {"name": f"t{i}", "description": f"Tool {i}.", "inputSchema": schema, **extra}


def _catalog(root: Path, changed: bool) -> Path:
    """Three files: one identical on both sides, one with an edited tool, one with NaN (which
    orjson refuses: the loader's own reader parses it) identical on both sides. The NaN is beside
    the tool, not in it: a tool holding one is refused (tests/test_non_json_values.py)."""
    root.mkdir(parents=True)
    (root / "same.json").write_text(json.dumps({"tools": [_tool(0), _tool(1)]}, indent=1))
    edited = _tool(2, title="New title") if changed else _tool(2)
    (root / "sub").mkdir()
    (root / "sub" / "edited.json").write_text(json.dumps([edited, _tool(3)]))
    (root / "nan.json").write_text('{"version": NaN, "tools": [{"name": "t4", "inputSchema": {"type": "number"}}]}')
    return root


def test_identical_files_are_parsed_once_and_the_diff_is_unchanged(tmp_path: Path) -> None:
    from schemalint.commands.diff_compare import compare_tools
    from schemalint.commands.diff_sources import ParsedFiles, load_side, load_worktree

    old_dir, new_dir = _catalog(tmp_path / "old", False), _catalog(tmp_path / "new", True)
    reuse = ParsedFiles()
    old, new = load_side(str(old_dir), reuse=reuse), load_side(str(new_dir), reuse=reuse)
    by_old, by_new = {t.name: t for t in old}, {t.name: t for t in new}
    assert by_old["t0"].raw is by_new["t0"].raw  # same.json: parsed once
    assert by_old["t4"].raw is by_new["t4"].raw  # nan.json: parsed once, by the slow reader
    assert by_old["t3"].raw is not by_new["t3"].raw  # sub/edited.json differs: parsed on each side
    assert by_new["t0"].origin.file == str(new_dir / "same.json")
    with_reuse = compare_tools(old, new).to_json()
    without = compare_tools(load_worktree([str(old_dir)]), load_worktree([str(new_dir)])).to_json()
    assert with_reuse == without
    statuses = {t["tool"]: t["status"] for t in with_reuse["tools"]}
    assert statuses == {"t0": "identical", "t1": "identical", "t2": "changed", "t3": "identical", "t4": "identical"}


def test_a_file_moved_to_another_place_is_parsed_again(tmp_path: Path) -> None:
    from schemalint.commands.diff_sources import ParsedFiles, load_side

    old_dir, new_dir = _catalog(tmp_path / "old", False), _catalog(tmp_path / "new", False)
    (new_dir / "same.json").rename(new_dir / "moved.json")
    reuse = ParsedFiles()
    old, new = load_side(str(old_dir), reuse=reuse), load_side(str(new_dir), reuse=reuse)
    by_old, by_new = {t.name: t for t in old}, {t.name: t for t in new}
    assert by_old["t0"].raw is not by_new["t0"].raw and by_old["t0"].raw == by_new["t0"].raw
    assert by_new["t0"].origin.file == str(new_dir / "moved.json")


def test_an_unreadable_file_is_still_an_error_on_the_second_side(tmp_path: Path) -> None:
    old_dir, new_dir = _catalog(tmp_path / "old", False), _catalog(tmp_path / "new", False)
    (new_dir / "sub" / "edited.json").write_text('[{"name": "t2",')
    proc = cli("diff", str(old_dir), str(new_dir), timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "edited.json" in proc.stderr and "cannot diff an unreadable file" in proc.stderr


def test_rev_path_side_reuses_the_blobs_that_did_not_change(tmp_path: Path, monkeypatch: Any) -> None:
    """``diff HEAD:tools tools`` with one file edited in the working tree: the right statuses
    (the identical files come from git on one side and from disk on the other)."""
    root = tmp_path / "repo"
    _catalog(root / "tools", False)
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    for args in (["init", "-q"], ["add", "-A"], ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "v1"]):
        subprocess.run(["git", *args], cwd=root, check=True, env=env, capture_output=True)
    (root / "tools" / "sub" / "edited.json").write_text(json.dumps([_tool(2, title="T"), _tool(3)]))
    for old in ("HEAD:tools", "HEAD:./tools/"):
        proc = cli("diff", old, "tools", "--format", "json", "--fail-on", "never", cwd=root, timeout=120)
        assert proc.returncode == 0, proc.stderr
        report = json.loads(proc.stdout)
        statuses = {t["tool"]: t["status"] for t in report["tools"]}
        assert statuses == {"t0": "identical", "t1": "identical", "t2": "changed", "t3": "identical",
                            "t4": "identical"}
        assert report["tools"][0]["old_file"] == f"{old.rstrip('/')}/same.json"
    from schemalint.commands.diff_sources import ParsedFiles, load_side

    monkeypatch.chdir(root)
    reuse = ParsedFiles()
    by_old = {t.name: t for t in load_side("HEAD:tools", reuse=reuse)}
    by_new = {t.name: t for t in load_side("tools", reuse=reuse)}
    assert by_old["t0"].raw is by_new["t0"].raw and by_old["t2"].raw is not by_new["t2"].raw
    from schemalint.commands.diff_sources import load_base, load_worktree

    reuse = ParsedFiles()  # --base: the place of a file is its absolute path
    by_old = {t.name: t for t in load_base("HEAD", ["tools"], reuse=reuse)}
    by_new = {t.name: t for t in load_worktree(["tools"], reuse=reuse)}
    assert by_old["t0"].raw is by_new["t0"].raw and by_old["t2"].raw is not by_new["t2"].raw
    assert by_old["t0"].origin.file == "HEAD:tools/same.json"


def _fields(tool: Any) -> tuple[Any, ...]:
    """Everything a tool holds, its origin's ``path``/``path_line`` (left out of ``==``) and raw too."""
    import dataclasses

    return (tool, tool.origin.path, tool.origin.path_line, tool.raw,
            [(f.name, getattr(tool, f.name)) for f in dataclasses.fields(tool)])


def test_the_tools_of_an_identical_file_are_not_searched_again_and_equal_a_fresh_search(
        tmp_path: Path, monkeypatch: Any) -> None:
    """The examples (every file format schemalint reads, JSON Lines and YAML too) on both sides,
    one file edited: the second side's tools of the identical files are the first side's, moved
    to their new file, exactly the tools a fresh search of that side finds."""
    import shutil

    from schemalint.commands import diff_sources as sources
    from schemalint.commands.diff_sources import ParsedFiles, load_side, load_worktree

    examples = Path(__file__).resolve().parents[1] / "examples"
    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    for side in (old_dir, new_dir):
        shutil.copytree(examples, side, ignore=shutil.ignore_patterns("*.py", "*.ts", "*.js", "node_modules"))
    edited = new_dir / "mcp" / "get_me.snap"
    edited.write_text(edited.read_text().replace('"description": "', '"description": "Now: ', 1))
    fresh = [_fields(t) for t in load_worktree([str(new_dir)])]
    searched: list[str] = []
    real = sources.tools_of_values
    monkeypatch.setattr(sources, "tools_of_values", lambda values, name: searched.append(name) or real(values, name))
    reuse = ParsedFiles()
    old = load_side(str(old_dir), reuse=reuse)
    first = len(searched)
    new = load_side(str(new_dir), reuse=reuse)
    assert [_fields(t) for t in new] == fresh
    assert len(old) == len(new) > 40
    assert searched[first:] == [str(edited)]  # only the edited file was searched on the second side
    by_old = {(t.origin.file.replace(str(old_dir), ""), t.origin.pointer, t.origin.line): t for t in old}
    moved = [t for t in new if t.origin.file != str(edited)]
    assert moved and all(by_old[(t.origin.file.replace(str(new_dir), ""), t.origin.pointer, t.origin.line)].raw
                         is t.raw for t in moved)


# ---------------------------------------------------------------- snapshot rendering by orjson
def _reference_rendering(value: Any) -> str:
    """The documented rendering, made by the standard library alone."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, indent=2, ensure_ascii=True, default=str) + "\n"
    return text


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    LOW = 1


odd_scalars = st.one_of(
    st.text(max_size=6),  # every code point, control characters and lone surrogates included
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([True, False, None, 1e16, 1e-7, 0.1, -0.0, 1e22, 5e-324, Colour.RED, Level.LOW,
                     datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 3, 4, 5), (1, "a")]),
)
odd_values = st.recursive(
    odd_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(-2, 2)), inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_values)
def test_fast_rendering_is_byte_for_byte_the_documented_one(value: Any) -> None:
    from schemalint.diff.render import render_value

    assert render_value(value) == _reference_rendering(value)


def test_fast_rendering_is_used_for_plain_json() -> None:
    from schemalint.diff.render import _render_fast

    value = {"name": "t", "inputSchema": {"type": "object", "properties": {"é\n": {"enum": [1, "x", None]}},
                                          "required": [], "x": {}}}
    assert _render_fast(value) == _reference_rendering(value)
    assert _render_fast({"minimum": 1e-05}) is None  # orjson writes 0.00001, the standard library 1e-05
    assert _render_fast({"maximum": 0.5}) == _reference_rendering({"maximum": 0.5})
    assert _render_fast({"c": Colour.RED}) is None  # orjson writes the value, default=str the name


def _plain_reference(value: Any) -> bool:
    """The walk ``_plain`` replaced: every value of a dict and item of a list, one by one."""
    stack = [value]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)
        elif type(node) not in (str, int, bool, type(None)):
            return False
    return True


@settings(max_examples=examples(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(odd_values, json_values))
def test_the_level_walk_types_every_node_as_the_plain_walk_did(value: Any) -> None:
    from schemalint.diff.render import _plain

    assert _plain(value) == _plain_reference(value)
    assert _plain({"a": [value]}) == _plain_reference(value)


def test_the_level_walk_sees_a_float_or_an_object_at_any_depth() -> None:
    from schemalint.diff.render import _plain

    for odd in (1.5, Colour.RED, Level.LOW, (1,), datetime.date(2024, 1, 2), b"x", {"k"}):
        value: Any = odd
        for depth in range(60):
            value = [value, "x"] if depth % 2 else {"a": 1, "b": value}
            assert not _plain(value)
    assert _plain({"a": [{"b": [1, "x", None, True, {}]}], "c": []})


def test_a_definition_orjson_writes_is_never_too_deep_to_render() -> None:
    """``render`` skips the depth walk when orjson wrote the rendering: orjson refuses anything
    nested deeper than 254 levels, far below MAX_RENDER_DEPTH; deeper ones take the slow path."""
    import orjson

    from schemalint.diff.render import MAX_RENDER_DEPTH, TooDeep, nesting_depth, render
    from schemalint.model import Origin, Tool

    def nested(depth: int) -> dict[str, Any]:  # ``depth`` levels of objects and arrays
        value: Any = {"type": "string"}
        for level in range(depth - 1):
            value = [value] if level % 3 == 2 else {"p": value, "q": [1]}
        return value

    for depth in (255, 600, MAX_RENDER_DEPTH + 1):
        try:
            orjson.dumps(nested(depth))
        except orjson.JSONEncodeError:
            continue
        raise AssertionError(f"orjson wrote {depth} levels: render must walk the depth again")
    orjson.dumps(nested(250))
    for depth in (250, 600, MAX_RENDER_DEPTH - 2):
        raw = {"name": "d", "inputSchema": nested(depth)}
        assert nesting_depth(raw, MAX_RENDER_DEPTH) <= MAX_RENDER_DEPTH
        tool = Tool("d", None, raw["inputSchema"], Origin("d.json", "", "mcp"), "/inputSchema", raw=raw)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 8 * depth))  # the reference encoder recurses per level
        try:
            expected = _reference_rendering(raw)
        finally:
            sys.setrecursionlimit(limit)
        assert render(tool) == expected
    from schemalint.diff.render import too_deep

    for depth in (3, 250, 254, 255, 600, MAX_RENDER_DEPTH - 1, MAX_RENDER_DEPTH, MAX_RENDER_DEPTH + 1, 1500):
        raw = {"name": "d", "inputSchema": nested(depth)}
        tool = Tool("d", None, raw["inputSchema"], Origin("d.json", "", "mcp"), "/inputSchema", raw=raw)
        assert too_deep(tool) == (nesting_depth(raw, MAX_RENDER_DEPTH) > MAX_RENDER_DEPTH), depth
    raw = {"name": "d", "inputSchema": nested(MAX_RENDER_DEPTH + 5)}
    with pytest.raises(TooDeep):
        render(Tool("d", None, raw["inputSchema"], Origin("d.json", "", "mcp"), "/inputSchema", raw=raw))


# ---------------------------------------------------------------- leaving without freeing
def test_the_program_leaves_early_with_all_its_output_and_exit_code(tmp_path: Path) -> None:
    """``diff`` ends with ``os._exit`` as a program: the output (far more than a pipe buffer)
    must be complete and the exit code kept, run as ``python -m`` and as the console script."""
    old = [_tool(i) for i in range(400)]
    new = [_tool(i, title="x") if i % 2 else _tool(i) for i in range(400)]
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    script = Path(sys.executable).with_name("schemalint")
    commands = [[sys.executable, "-m", "schemalint"]] + ([[str(script)]] if script.exists() else [])
    for command in commands:
        for fail_on, code in (("never", 0), ("meaning", 1)):
            proc = subprocess.run(
                [*command, "diff", "old.json", "new.json", "--format", "json", "--fail-on", fail_on],
                capture_output=True, text=True, cwd=tmp_path, timeout=120,
            )
            assert proc.returncode == code, proc.stderr
            assert len(proc.stdout) > 150_000  # more than two pipe buffers
            report = json.loads(proc.stdout)
            assert report["summary"]["by_status"]["changed"] == 200


def test_exit_now_returns_inside_another_program() -> None:
    from schemalint.cli._common import exit_now

    exit_now(0)  # pytest is the program here: nothing happens


# ---------------------------------------------------------------- normalise's exact-type fast path
def _normalise_reference(value: Any) -> Any:
    """:func:`normalise` as it was written before its exact-type checks (every node asked
    ``isinstance(value, Mapping)`` first, then ``list``)."""
    from collections.abc import Mapping

    from schemalint.diff.checks._common import SET_KEYWORDS, canonical, is_noop

    if isinstance(value, Mapping):
        return {k: ({canonical(x): True for x in v} if k in SET_KEYWORDS and isinstance(v, list)
                    else _normalise_reference(v)) for k, v in value.items() if not is_noop(k, v)}
    if isinstance(value, list):
        return [_normalise_reference(v) for v in value]
    return value


class _Enum(enum.Enum):
    A = "a"


class _List(list):  # type: ignore[type-arg]
    pass


def _odd(value: Any) -> Any:
    """``value`` with some containers turned into a mapping proxy, an ordered dict, a tuple or a list
    subclass, and some scalars into an enum member or a date (what a Python source can hold)."""
    import collections
    import types

    if isinstance(value, dict):
        inner = {k: _odd(v) for k, v in value.items()}
        return [types.MappingProxyType, collections.OrderedDict, dict][len(inner) % 3](inner)
    if isinstance(value, list):
        items = [_odd(v) for v in value]
        return [tuple, _List, list][len(items) % 3](items)
    if value == "x":
        return _Enum.A
    if value == "":
        return datetime.date(2026, 1, 1)
    return value


@settings(max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.booleans())
def test_normalise_is_the_isinstance_walk(value: Any, odd: bool) -> None:
    value = _odd(value) if odd else value
    got, want = normalise(value), _normalise_reference(value)
    assert json.dumps(got, default=repr, sort_keys=True) == json.dumps(want, default=repr, sort_keys=True)
    assert got == want or json.dumps(got, default=repr) == json.dumps(want, default=repr)  # NaN != NaN


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.booleans())
def test_canonical_is_json_dumps_with_sorted_keys(value: Any, odd: bool) -> None:
    from schemalint.diff.checks._common import canonical

    value = _odd(value) if odd else value  # enum members, dates, mapping proxies: written by default=str
    assert canonical(value) == json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    assert canonical(value) == canonical(value)  # nothing kept from one call to the next
