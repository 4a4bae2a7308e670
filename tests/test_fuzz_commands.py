"""A seeded fuzz of every command over every input kind (issue 25): check at every target, diff,
show, snapshot and replay, on tool files and recorded traffic, in JSON, JSON Lines and YAML.

The seeds are the regression inputs kept in ``tests/data/fuzz/`` (what fuzzing once broke) and a
few hand-written tool and traffic documents; each example applies seeded mutations (a keyword's
value replaced by a value of the wrong kind, nested deep, made cyclic through YAML anchors, bytes
flipped or cut, hostile snippets spliced in) and runs the commands in-process on the result.
Nothing may escape (no exception), no ``SL999`` internal error may be reported, and every tool
that loads renders (or is refused as too deep). The regression inputs themselves run first, every
time. Bounded: derandomized hypothesis examples, a deadline per example and a wall-clock budget
for the whole test of a few seconds (``BUDGET_S``), so its share of the suite stays small.
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import internal_errors

DATA = Path(__file__).parent / "data" / "fuzz"
BUDGET_S = 8.0
MIN_EXAMPLES = 6
"""Mutants run whatever the machine's load (the budget only cuts the ones after them)."""

KEYWORDS = ["required", "type", "enum", "properties", "items", "anyOf", "oneOf", "allOf", "not", "$ref",
            "additionalProperties", "const", "default", "format", "pattern", "minimum", "maxLength", "$defs",
            "description", "nullable", "prefixItems", "patternProperties", "dependencies", "if", "examples"]
WRONG = st.sampled_from([{"x": 1}, [{"a": 1}], [["x"]], [None], "x", 0, -1, None, True, 1.5, [], {}, 10**40,
                         "\ud800", "\x00", "a" * 3000, {"$ref": "#"}, {"$ref": "#/$defs/missing"}])
SEED_TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "get_weather", "description": "Weather for `city`, in `unit`.",
                                      "strict": True, "parameters": {
                                          "type": "object", "additionalProperties": False, "required": ["city", "unit"],
                                          "properties": {"city": {"type": "string", "description": "A city"},
                                                         "unit": {"type": ["string", "null"],
                                                                  "enum": ["c", "f", None]}}}}},
    {"name": "search", "description": "Search.", "inputSchema": {
        "type": "object", "properties": {"q": {"type": "string", "minLength": 1},
                                         "filters": {"type": "array", "items": {"anyOf": [
                                             {"type": "string"}, {"$ref": "#/$defs/f"}]}}},
        "required": ["q"], "$defs": {"f": {"type": "object", "properties": {"k": {"type": "string"}}}}}},
]


def _seed_documents() -> list[tuple[str, bytes]]:
    docs = [(p.name, p.read_bytes()) for p in sorted(DATA.glob("*.json"))]
    docs.append(("seed-openai.json", json.dumps({"tools": SEED_TOOLS[:1]}).encode()))
    docs.append(("seed-mcp.json", json.dumps({"tools": SEED_TOOLS[1:]}).encode()))
    docs.append(("seed-traffic.jsonl", (json.dumps({"model": "m", "tools": SEED_TOOLS[:1], "messages": [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "get_weather", "arguments": json.dumps({"city": "Oslo", "unit": "k"})}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "cold"}]}) + "\n").encode()))
    return docs


def _set_wrong(value: Any, path: list[int], keyword: str, wrong: Any) -> Any:
    """``value`` with ``keyword`` set to ``wrong`` in the dict reached by following ``path`` (indexes
    into each level's dict or list children, modulo their number)."""
    node = value
    for step in path:
        children = [c for c in (node.values() if isinstance(node, dict) else node if isinstance(node, list) else [])
                    if isinstance(c, dict | list)]
        if not children:
            break
        node = children[step % len(children)]
    if isinstance(node, dict):
        node[keyword] = wrong
    return value


def _nest(depth: int) -> Any:
    inner: Any = {"type": "string"}
    for _ in range(depth):
        inner = {"type": "object", "properties": {"a": inner}}
    return inner


def _run_commands(path: Path, tmp: Path) -> dict[str, int]:
    """Every command on ``path``, in-process; returns counts. Raises on anything escaping."""
    from schemalint.api import check, load
    from schemalint.api_commands import diff_tools
    from schemalint.commands.replay import replay
    from schemalint.commands.snapshot import plan_snapshots
    from schemalint.config import Config
    from schemalint.diff.errors import DiffError
    from schemalint.diff.render import MAX_RENDER_DEPTH, TooDeep, nesting_depth, render
    from schemalint.report.text import render_show
    from schemalint.show import build_view

    counts = {"tools": 0, "sl000": 0}
    result = check([str(path)], targets=["all"])
    assert not internal_errors(result.diagnostics), internal_errors(result.diagnostics)
    loaded = load([str(path)])
    counts["tools"] += len(loaded.tools)
    counts["sl000"] += sum(d.code == "SL000" for d in loaded.diagnostics)
    for tool in loaded.tools[:5]:
        with contextlib.suppress(TooDeep):
            render(tool)
        if nesting_depth(tool.advertised, MAX_RENDER_DEPTH) <= MAX_RENDER_DEPTH:  # else `show` refuses it, said
            render_show(build_view(tool), io.StringIO(), color=False)
    with contextlib.suppress(DiffError):  # a name clash or a tool too deep to render is a DiffError, said
        plan_snapshots(loaded.tools)
    seed = tmp / ("seed" + path.suffix)
    if seed.exists():
        with contextlib.suppress(DiffError):
            diff_tools([str(seed), str(path)], cfg=Config())
            diff_tools([str(path), str(seed)], cfg=Config())
    replayed = replay([str(path)])
    assert not internal_errors(replayed.diagnostics), internal_errors(replayed.diagnostics)
    return counts


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.glob("*.json")))
def test_the_kept_regression_inputs_pass_every_command(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes((DATA / name).read_bytes())
    _run_commands(path, tmp_path)


def test_seeded_mutants_pass_every_command(tmp_path: Path) -> None:
    seeds = _seed_documents()
    started = time.monotonic()
    seen = {"examples": 0, "tools": 0, "sl000": 0}

    @settings(max_examples=60, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(index=st.integers(min_value=0, max_value=len(seeds) - 1),
           keyword=st.sampled_from(KEYWORDS), wrong=WRONG,
           path=st.lists(st.integers(min_value=0, max_value=7), max_size=6),
           depth=st.sampled_from([0, 0, 0, 0, 300]),
           suffix=st.sampled_from([".json", ".jsonl", ".yaml"]),
           cut=st.floats(min_value=0.5, max_value=1.0), flip=st.booleans())
    @example(index=0, keyword="type", wrong="x", path=[], depth=0, suffix=".json", cut=0.5, flip=True)  # cut short
    @example(index=1, keyword="required", wrong={"x": 1}, path=[0], depth=300, suffix=".yaml", cut=1.0, flip=False)
    def run(index: int, keyword: str, wrong: Any, path: list[int], depth: int, suffix: str, cut: float,
            flip: bool) -> None:
        if seen["examples"] >= MIN_EXAMPLES and time.monotonic() - started > BUDGET_S:
            return  # the budget is spent: the remaining examples pass at once
        seen["examples"] += 1
        name, data = seeds[index]
        if name.endswith(".jsonl"):
            suffix = ".jsonl"
        try:
            value: Any = [json.loads(line) for line in data.splitlines() if line.strip()] if name.endswith(".jsonl") \
                else json.loads(data)
        except ValueError:
            value = None
        if value is not None:
            value = _set_wrong(value, path, keyword, _nest(depth) if depth else wrong)
            if suffix == ".jsonl":
                lines = value if isinstance(value, list) and name.endswith(".jsonl") else [value]
                text = "\n".join(json.dumps(v) for v in lines) + "\n"
            elif suffix == ".yaml":
                text = "seed: &a " + json.dumps(value) + "\nagain: *a\n"  # anchors: a shared node
            else:
                text = json.dumps(value)
            raw = text.encode("utf-8", "surrogatepass")
        else:
            raw = data
        if flip and raw:
            raw = raw[: int(len(raw) * cut)] + (b"\xff" if cut > 0.9 else b"")
        (tmp_path / ("seed" + suffix)).write_bytes(data)  # the unmutated side of the diff (JSON is YAML too)
        mutant = tmp_path / ("mutant" + suffix)
        mutant.write_bytes(raw)
        counts = _run_commands(mutant, tmp_path)
        seen["tools"] += counts["tools"]
        seen["sl000"] += counts["sl000"]

    run()
    print(f"fuzz figures: {seen}")  # shown with -s (the issue's closing table)
    assert seen["examples"] >= MIN_EXAMPLES, seen
    assert seen["tools"] > 0 and seen["sl000"] > 0, seen  # both outcomes were exercised
