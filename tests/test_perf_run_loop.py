"""The run loop's own costs (engine/run_loop.py): the cyclic garbage collector is paused while the
rules run and always enabled again, the cycles the rules leave are still collected on a large
catalog, and the rule plans kept for the run choose the rules a fresh choice would. Real files,
real rules."""

from __future__ import annotations

import gc
import json
import weakref
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.engine import run_loop
from schemalint.model import RunContext, Tool, running
from schemalint.rules.base import FAIL_RULE_ENV
from schemalint.rules.shape.sl008_unsatisfiable_schema import UnsatisfiableSchema

_TOOL = {
    "name": "get_weather",
    "description": "Get the weather.",
    "inputSchema": {"type": "object", "properties": {"days": {"type": "integer", "minimum": 10, "maximum": 2}},
                    "required": ["days"]},
}


def _catalog(path: Path, count: int) -> str:
    """A catalog of ``count`` distinct tools (each its own definition: no copy is skipped)."""
    tools = [dict(_TOOL, name=f"get_weather_{i}") for i in range(count)]
    path.write_text(json.dumps({"tools": tools}, indent=1))
    return str(path)


def _json(result: Any) -> list[dict[str, Any]]:
    return [d.to_json() for d in result.diagnostics]


@pytest.fixture
def collector_on() -> Any:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.mark.parametrize("stream", [False, True])
def test_collector_paused_while_rules_run_and_enabled_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            collector_on: None, stream: bool) -> None:
    seen: list[bool] = []
    real = UnsatisfiableSchema.check_tool

    def watched(self: Any, tool: Tool, ctx: Any) -> Any:
        seen.append(gc.isenabled())
        return real(self, tool, ctx)

    monkeypatch.setattr(UnsatisfiableSchema, "check_tool", watched)
    result = check([_catalog(tmp_path / "tools.json", 3)], jobs=1, stream=stream)
    assert seen == [False, False, False]
    assert gc.isenabled()
    assert [d.code for d in result.diagnostics].count("SL008") == 3


def test_collector_enabled_after_a_rule_crashes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                collector_on: None) -> None:
    monkeypatch.setenv(FAIL_RULE_ENV, "SL008")
    result = check([_catalog(tmp_path / "tools.json", 2)], jobs=1)
    assert [d.code for d in result.diagnostics].count("SL999") == 2
    assert gc.isenabled()


def test_collector_enabled_after_an_interrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              collector_on: None) -> None:
    def interrupted(self: Any, tool: Tool, ctx: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(UnsatisfiableSchema, "check_tool", interrupted)
    with pytest.raises(KeyboardInterrupt):
        check([_catalog(tmp_path / "tools.json", 2)], jobs=1)
    assert gc.isenabled()
    assert run_loop._PAUSE[0] == 0


def test_a_collector_disabled_by_the_caller_stays_disabled(tmp_path: Path) -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        check([_catalog(tmp_path / "tools.json", 2)], jobs=1)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_cycles_the_rules_leave_are_collected_during_a_long_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                collector_on: None) -> None:
    # each call leaves a cycle; with the collector paused for the whole catalog, only the young
    # collections every COLLECT_EVERY tools free them before the run ends
    refs: list[weakref.ref[_Cycle]] = []
    alive_at: list[int] = []
    real = UnsatisfiableSchema.check_tool

    def cyclic(self: Any, tool: Tool, ctx: Any) -> Any:
        refs.append(weakref.ref(_Cycle()))
        alive_at.append(int(refs[0]() is not None))
        return real(self, tool, ctx)

    monkeypatch.setattr(UnsatisfiableSchema, "check_tool", cyclic)
    count = run_loop.COLLECT_EVERY + 10
    check([_catalog(tmp_path / "tools.json", count)], jobs=1, stream=False)
    assert len(refs) == count
    # the first cycle was alive until the first young collection (before tool COLLECT_EVERY), and freed by it
    assert alive_at[run_loop.COLLECT_EVERY - 2] == 1
    assert alive_at[run_loop.COLLECT_EVERY - 1] == 0


def test_rule_plans_are_kept_per_set_of_rules() -> None:
    from schemalint.rules.registry import all_rules

    rules = list(all_rules())
    with running(RunContext()):
        first = run_loop.rule_plans(rules, True)
        assert run_loop.rule_plans(list(rules), True) is first  # the same rules: the same plan
        assert run_loop.rule_plans(rules, False) is not first
        assert run_loop.rule_plans(rules[1:], True) is not first
    with running(RunContext()):
        assert run_loop.rule_plans(rules, True) is not first  # a plan lasts one run


def test_kept_plans_choose_as_a_fresh_choice(tmp_path: Path) -> None:
    # file by file (the plans kept from one file to the next), one file at a time (fresh plans),
    # and every rule called (no plan skips one): the same findings
    files = []
    for i, tool in enumerate([_TOOL, {"type": "function", "function": {"name": "f", "parameters": {
            "type": "object", "properties": {"x": {"type": "string", "format": "email"}}}}},
                              {"name": "g", "input_schema": {"type": "object", "additionalProperties": True}}]):
        path = tmp_path / f"t{i}.json"
        path.write_text(json.dumps([tool]))
        files.append(str(path))
    together = check(files, jobs=1, stream=True)
    alone = [d for f in files for d in _json(check([f], jobs=1, stream=True))]
    assert together.diagnostics
    assert sorted(_json(together), key=json.dumps) == sorted(alone, key=json.dumps)


def test_a_catalog_cut_between_workers_is_located_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # SL005 (a name declared twice) is found by a catalog rule in the parent, the other findings by
    # the workers, none of which sees the whole file: the parent scans its text once, for them all
    import multiprocessing

    from schemalint.engine import locate as locating

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork: the run is serial")
    path = _catalog(tmp_path / "tools.json", 40)
    text = Path(path).read_text()
    tools = json.loads(text)["tools"]
    tools[1]["name"] = tools[0]["name"]
    Path(path).write_text(json.dumps({"tools": tools}, indent=1))
    scans: list[int] = []
    real = locating.locate

    def counted(text: str, kind: str, pointers: Any, first_line: int | None = None) -> Any:
        scans.append(len(text))
        return real(text, kind, pointers, first_line)

    monkeypatch.setattr(locating, "locate", counted)
    parallel = check([path], jobs=2)
    assert scans.count(len(Path(path).read_text())) == 1
    codes = [d.code for d in parallel.diagnostics]
    assert "SL005" in codes and codes.count("SL008") == 40
    monkeypatch.setattr(locating, "locate", real)
    assert _json(parallel) == _json(check([path], jobs=1))


def test_dropping_the_run_clears_every_memo() -> None:
    from schemalint.model import FILE, RUN, TOOL

    run = RunContext()
    for lifetime in (TOOL, FILE, RUN):
        run.table("test", dict, lifetime)["k"] = lifetime
    run.drop(FILE)
    assert (run.memo, run.file_memo, run.run_memo) == ({}, {}, {"test": {"k": RUN}})
    run.drop(RUN)
    assert (run.memo, run.file_memo, run.run_memo) == ({}, {}, {})
