"""The performance floor: parse every file with orjson and visit every subschema in pure Python.

usage: python benchmarks/floor.py [--hold] DIR [DIR...]

This is what any linter must do at least; `schemalint check` is measured as a
multiple of it (benchmarks/run.py). Prints the number of subschemas visited.
A file that parses neither as JSON nor as JSON Lines (a ``tsconfig.json`` with comments in a
repository) is skipped, as a linter skips it; their count goes to stderr.
``--hold`` keeps every parsed file alive until the end, as a linter with cross-tool (catalog)
rules must: the baseline for peak memory. The cyclic garbage collector is paused,
as schemalint pauses it while loading: parsed JSON holds no cycles, and without the pause one
large document costs the floor 1.5x its parse in collector passes (an unfair, slow floor).
"""

from __future__ import annotations

import gc
import os
import sys

import orjson


def visit(value: object) -> int:
    """Count every dict in ``value`` (each subschema), iteratively."""
    count = 0
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            count += 1
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def main(roots: list[str]) -> None:
    gc.disable()
    hold = "--hold" in roots
    roots = [r for r in roots if r != "--hold"]
    held: list[object] = []
    total = 0
    skipped = 0
    for root in roots:
        for dirpath, _, filenames in os.walk(root):
            for name in filenames:
                if name.endswith((".json", ".snap")):
                    with open(os.path.join(dirpath, name), "rb") as fh:
                        data = fh.read()
                    try:
                        values = [orjson.loads(data)]
                    except orjson.JSONDecodeError:  # JSON Lines stored as .json (BFCL, ACEBench)
                        try:
                            values = [orjson.loads(line) for line in data.splitlines() if line.strip()]
                        except orjson.JSONDecodeError:
                            skipped += 1
                            continue
                    total += sum(visit(v) for v in values)
                    if hold:
                        held.append(values)
    print(total)
    if skipped:
        print(f"{skipped} file(s) skipped: not JSON", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
