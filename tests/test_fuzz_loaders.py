"""A hypothesis fuzz of the loaders over mutated corpus files (issue 18).

Mutants of real corpus files (bytes flipped, cut, hostile snippets spliced in: huge integers,
lone surrogates, YAML tags and anchors, deep nesting, invalid UTF-8), read as JSON, JSON
Lines and YAML: no exception escapes a load, every failure is a located SL000 diagnostic,
and every tool loaded renders (or is refused as too deep). Bounded: a fixed number of
derandomized examples, a deadline per example, a few seconds in all (``BUDGET_S``).
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, examples, needs_shared

pytestmark = needs_shared

HOSTILE = [
    b"9" * 5000,
    b'"\\ud800"',
    b'"\\udfff\\ud800x"',
    b"!!float notafloat",
    b"!!timestamp 2020-13-45",
    b"!!int zz",
    b"!foo",
    b"&a [*a]",
    b"*a",
    b"\xff\xfe",
    b"\xed\xa0\x80",
    b"[" * 3000,
    b"{" * 2000,
    b"NaN",
    b"1e999",
    b"-0",
    b'"\\u0000"',
    b"\x00",
    b"\n",
    b"? [a, b]\n: 1\n",
    b"2020-01-01: x\n",
]
SUFFIXES = [".json", ".jsonl", ".yaml"]
BUDGET_S = 8.0  # its share of the suite stays a few seconds (issue 25)


def corpus_files() -> list[bytes]:
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".json", ".snap")
                   and p.stat().st_size < 8_000)
    return [p.read_bytes() for p in files[:120]]


mutation = st.tuples(
    st.sampled_from(["insert", "replace", "delete", "truncate"]),
    st.floats(min_value=0, max_value=1, allow_nan=False),
    st.one_of(st.sampled_from(HOSTILE), st.binary(min_size=1, max_size=8)),
)


@pytest.fixture(scope="module")
def originals() -> list[bytes]:
    files = corpus_files()
    assert files, f"no small corpus files under {CORPUS}"
    return files


def mutate(data: bytes, ops: list[tuple[str, float, bytes]]) -> bytes:
    for op, where, payload in ops:
        pos = int(where * len(data))
        if op == "insert":
            data = data[:pos] + payload + data[pos:]
        elif op == "replace":
            data = data[:pos] + payload + data[pos + len(payload):]
        elif op == "delete":
            data = data[:pos] + data[pos + len(payload):]
        else:
            data = data[:pos]
    return data


def test_loaders_never_raise_on_mutated_corpus_files(originals: list[bytes], tmp_path: Path) -> None:
    from schemalint.api import load
    from schemalint.diff.render import NotJson, TooDeep, render

    refusals = (TooDeep, NotJson)  # a rendering refused with a message (too deep, not JSON), not a crash

    started = time.monotonic()
    seen = {"examples": 0, "sl000": 0, "tools": 0}

    @settings(max_examples=examples(1000), derandomize=True, database=None, deadline=3000,
              suppress_health_check=list(HealthCheck))
    @given(index=st.integers(min_value=0, max_value=len(originals) - 1),
           suffix=st.sampled_from(SUFFIXES),
           ops=st.lists(mutation, min_size=1, max_size=4))
    def run(index: int, suffix: str, ops: list[tuple[str, float, bytes]]) -> None:
        if time.monotonic() - started > BUDGET_S:
            return  # the budget is spent: the remaining examples pass at once
        seen["examples"] += 1
        path = tmp_path / f"mutant{suffix}"
        path.write_bytes(mutate(originals[index], ops))
        result = load([str(path)])  # nothing may escape
        for d in result.diagnostics:
            assert d.code == "SL000", d
            assert d.line is not None and d.column is not None, d.message
            seen["sl000"] += 1
        for tool in result.tools:
            seen["tools"] += 1
            with contextlib.suppress(*refusals):
                render(tool)

    run()
    print(f"fuzz figures: {seen}")  # shown with -s (the closing table)
    assert seen["examples"] >= 20, seen  # the budget allowed a meaningful number of mutants
    assert seen["sl000"] > 0 and seen["tools"] > 0, seen  # both outcomes were exercised
