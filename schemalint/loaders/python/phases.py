"""Where the time of loading a Python source goes, for ``--verbose`` (docs/runtime-bridge.md).

The Python worker (:mod:`schemalint.loaders.python.worker`) measures each ``load`` in four phases
and sends them with its answer; the parent prints one stderr line per source when
``SCHEMALINT_VERBOSE`` is set (``_report_phases`` in :mod:`schemalint.bridge.client`), as it does for the
Node worker:

- ``import``: importing the module named by the source (and everything it imports);
- ``discovery``: finding the tools in what was imported (the recognizers, a server's own
  listing machinery, following mounts), everything not counted in another phase;
- ``schema rendering``: rendering JSON Schemas (pydantic's ``model_json_schema``/``json_schema``,
  a server's ``tools/list`` through its in-memory client);
- ``probes``: the omission probes run while loading (a complete call with each key left out in
  turn, :func:`schemalint.loaders.python.framework_common.refused_when_omitted`).

Time is counted once: a phase entered inside another pauses the outer one (a schema rendered while
a server lists its tools counts as ``schema rendering``, not also as ``discovery``). Outside a
measured load (:func:`measure`), :func:`phase` costs one attribute read.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

PHASES = ("import", "discovery", "schema rendering", "probes")

_totals: dict[str, float] | None = None
_stack: list[list[float | str]] = []  # [name, time the phase was last resumed]


@contextmanager
def phase(name: str) -> Iterator[None]:
    """Count the time spent inside the block as ``name`` (one of :data:`PHASES`), excluding the time
    of phases entered inside it. Does nothing outside :func:`measure`."""
    if _totals is None:
        yield
        return
    now = time.perf_counter()
    if _stack:
        outer = _stack[-1]
        _add(str(outer[0]), now - float(outer[1]))
    _stack.append([name, now])
    try:
        yield
    finally:
        end = time.perf_counter()
        entry = _stack.pop()
        _add(str(entry[0]), end - float(entry[1]))
        if _stack:
            _stack[-1][1] = end


def _add(name: str, seconds: float) -> None:
    if _totals is not None:
        _totals[name] = _totals.get(name, 0.0) + seconds


@contextmanager
def measure() -> Iterator[dict[str, float]]:
    """Measure the phases of the block (its own time is ``discovery``); the dict yielded is filled
    when the block ends: phase name -> seconds, in :data:`PHASES` order, every phase present.
    Not re-entrant: a nested ``measure`` is measured by the outer one."""
    global _totals
    result: dict[str, float] = {}
    if _totals is not None:
        yield result
        return
    _totals = {}
    _stack.clear()
    try:
        with phase("discovery"):
            yield result
    finally:
        totals, _totals = _totals, None
        _stack.clear()
        result.update({name: round(totals.get(name, 0.0), 4) for name in PHASES})
