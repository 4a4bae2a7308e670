"""A registry-scale scan on Dask: shards of whole files checked by a local cluster of processes,
their ``--format jsonl`` lines merged into the report one run over everything would print.

usage: python benchmarks/registry_dask.py SOURCE... [--shards N] [--workers W] [--out FILE]

Needs ``pip install 'dask[distributed]'`` beside schemalint (docs/performance.md, "Registry
scale"). Each shard is a list of whole files: schemalint's per-tool rules and its catalog rules
that group by file or by request (SL001's dialect summary, SL005, SL320-SL322) see exactly what a
single run sees, so their findings are the same. The rules that read the whole catalog (SL201 and
SL506 treat every tool name of the run as known; SL202 "another definition"; SL502 look-alike
names) see only their shard: that is the documented difference, and the reason to put a server's
files (and its look-alike rivals, when known) in one shard.
Only :func:`shard` and :func:`merge` are schemalint logic (tested in tests/test_registry_merge.py);
the rest is Dask's ordinary API.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any


def shard(files: Sequence[str], shards: int) -> list[list[str]]:
    """``files`` cut into at most ``shards`` contiguous lists of about equal length (whole files,
    in order, none empty)."""
    size = max(1, -(-len(files) // max(1, shards)))
    return [list(files[i:i + size]) for i in range(0, len(files), size)]


def check_shard(files: Sequence[str]) -> tuple[list[str], dict[str, Any]]:
    """Check one shard in this process: its ``--format jsonl`` lines and its counts."""
    from schemalint.api import check
    from schemalint.report.jsonl import line

    result = check(list(files), stream=True, jobs=1)
    return [line(d) for d in result.diagnostics], {"files": result.files, "tools": result.tools,
                                                   "tools_by_format": result.tools_by_format}


def merge(outputs: Iterable[tuple[list[str], dict[str, Any]]]) -> tuple[list[str], dict[str, Any]]:
    """The shards' lines in the order of one report (sorted as ``check`` sorts its diagnostics: file,
    line, column, code, pointer, message; a stable sort, so that lines that tie keep their shard's
    order) and their counts added up."""
    lines: list[str] = []
    counts: dict[str, Any] = {"files": 0, "tools": 0, "tools_by_format": {}}
    for shard_lines, shard_counts in outputs:
        lines.extend(shard_lines)
        counts["files"] += shard_counts["files"]
        counts["tools"] += shard_counts["tools"]
        for fmt, n in shard_counts["tools_by_format"].items():
            counts["tools_by_format"][fmt] = counts["tools_by_format"].get(fmt, 0) + n

    def key(text: str) -> tuple[str, int, int, str, str, str]:
        d = json.loads(text)
        return (d["file"], d["line"] or 0, d["column"] or 0, d["code"], d["pointer"], d["message"])

    lines.sort(key=key)
    counts["diagnostics"] = len(lines)
    return lines, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="+")
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="write the merged JSON Lines here (default: stdout)")
    args = parser.parse_args(argv)

    from dask import bag
    from dask.distributed import Client, LocalCluster

    from schemalint.loaders.files.sources import expand_sources

    started = time.perf_counter()
    files = expand_sources(args.sources)
    parts = shard(files, args.shards)
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        outputs = bag.from_sequence(parts, npartitions=len(parts)).map(check_shard).compute()
    lines, counts = merge(outputs)
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    try:
        out.writelines(text + "\n" for text in lines)
    finally:
        if args.out:
            out.close()
    counts["shards"] = len(parts)
    counts["seconds"] = round(time.perf_counter() - started, 2)
    print(json.dumps(counts), file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
