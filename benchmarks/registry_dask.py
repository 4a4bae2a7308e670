"""A registry-scale scan on Dask: shards of whole files checked by a local cluster of processes,
their ``--format jsonl`` lines merged into the report one run over everything would print.

usage: python benchmarks/registry_dask.py SOURCE... [--shards N] [--workers W] [--out FILE] [--no-summary]

Needs ``pip install 'dask[distributed]'`` beside schemalint (docs/performance.md, "Registry
scale"). Each shard is a list of whole files, in the order one run reads them. Two rounds of tasks:
each shard's catalog summary (``schemalint.api.summarise``: every tool's name, origin and property
names, SL001's dialect counts), merged in shard order into the facts of the whole scan
(``schemalint.rules.facts.merge_summaries``); then each shard checked with those facts
(``check(files, facts=...)``), so that the rules that read the whole catalog (SL201 and SL506 take
every tool name of the scan as known, SL202's "another definition", SL502's look-alike names) see
every shard: the merged lines are those of one run. ``--no-summary`` skips the first round: each
shard then sees only itself (the difference this makes is documented).
Only :func:`shard`, :func:`summarise_shard`, :func:`check_shard` and :func:`merge` are schemalint
logic (tested in tests/test_registry_merge.py and tests/test_registry_summary.py); the rest is
Dask's ordinary API.
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


def summarise_shard(files: Sequence[str]) -> dict[str, Any]:
    """The catalog summary of one shard (JSON-able; :func:`schemalint.api.summarise`), its files
    judged as a directory walk judges them."""
    from schemalint.api import summarise

    return summarise(list(files), scan=True)


def check_shard(files: Sequence[str], facts: Any = None) -> tuple[list[str], dict[str, Any]]:
    """Check one shard in this process: its ``--format jsonl`` lines and its counts. ``facts``: the
    merged facts of every shard (:func:`schemalint.rules.facts.merge_summaries`), else the shard
    sees only itself; its files are judged as a directory walk judges them."""
    from schemalint.api import check
    from schemalint.report.jsonl import line

    result = check(list(files), stream=True, jobs=1, facts=facts, scan=True)
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
    parser.add_argument("--no-summary", action="store_true",
                        help="one round: each shard sees only its own tools (no catalog summaries)")
    args = parser.parse_args(argv)

    from dask import bag
    from dask.distributed import Client, LocalCluster

    from schemalint.loaders.files.sources import expand_sources

    started = time.perf_counter()
    files = expand_sources(args.sources)
    parts = shard(files, args.shards)
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster):
        facts = None
        if not args.no_summary:
            from schemalint.rules.facts import merge_summaries

            summaries = bag.from_sequence(parts, npartitions=len(parts)).map(summarise_shard).compute()
            facts = merge_summaries(summaries)  # in shard order (a bag keeps its partitions' order)
        outputs = bag.from_sequence(parts, npartitions=len(parts)).map(check_shard, facts=facts).compute()
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
