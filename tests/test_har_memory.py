"""A HAR archive is read entry by entry (issue 25): memory does not grow with the file.

Two generated HAR files (``benchmarks/har_memory.py``: 2 and 16 MiB of chat requests and
tool-call responses) are read whole by :func:`schemalint.traffic.stream.read_file` in child
processes; the peak resident memory (the child's own ``VmHWM``; ``ru_maxrss`` would count pytest's
memory, which the child was forked from) of the larger may exceed the
smaller's by a quarter of the 14 MiB between them at most. ``json.load`` of the same files grows by
about four times the difference (measured in the same test, so the bound is shown to discriminate).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> object:
    spec = importlib.util.spec_from_file_location("har_memory", ROOT / "benchmarks" / "har_memory.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reading_a_har_holds_one_entry_not_the_file(tmp_path: Path) -> None:
    bench: object = _bench()
    small, large = tmp_path / "small.har", tmp_path / "large.har"
    bench.write_har(small, 2)  # type: ignore[attr-defined]
    bench.write_har(large, 16)  # type: ignore[attr-defined]
    grown = large.stat().st_size - small.stat().st_size
    readers = bench.READERS  # type: ignore[attr-defined]
    rss = {name: [bench.peak(code, path)[0] * (1 << 20) for path in (small, large)]  # type: ignore[attr-defined]
           for name, code in readers.items()}
    streamed = rss["schemalint read_file"][1] - rss["schemalint read_file"][0]
    loaded = rss["json.load"][1] - rss["json.load"][0]
    print(f"peak RSS growth over {grown / 2**20:.1f} MiB more HAR: read_file {streamed / 2**20:.1f} MiB, "
          f"json.load {loaded / 2**20:.1f} MiB")
    assert loaded > grown, "json.load holds the file (the measure discriminates)"
    assert streamed < grown / 4, (streamed, grown)
