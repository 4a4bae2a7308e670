"""Peak memory of reading a large HAR archive: schemalint's reader against ``json.load``.

usage: python benchmarks/har_memory.py [--mb 200] [--keep DIR]

Writes a HAR 1.2 archive of about ``--mb`` MiB (seeded: OpenAI chat requests and responses in
``postData.text`` / ``content.text``, as a browser or proxy records them) into a temporary
directory, then runs, each in its own child process (its peak memory read from ``VmHWM``),
(1) :func:`schemalint.traffic.stream.read_file`
over the whole file, counting conversations, and (2) ``json.load`` of the same file. Prints each
child's peak resident memory (``VmHWM``; ``ru_maxrss`` from ``wait4`` as a cross-check) as MiB
and as a multiple of the file.
Nothing here is collected by pytest; tests/test_traffic_stream.py holds the bounded test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PY = sys.executable
HWM = ("\nprint(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')))\n")
"""Appended to each reader: its own peak resident memory (KiB) since its ``exec``. The ``ru_maxrss``
``wait4`` reports for a child also counts the memory of the process it was forked from (a pytest
process of 80 MiB shows as 80 MiB whatever the child does), so it is only a cross-check here."""

READERS = {
    "schemalint read_file": (
        "import sys\nfrom schemalint.traffic.stream import read_file\n"
        "n = sum(1 for _ in read_file(sys.argv[1]))\nprint(n)\n"),
    "json.load": ("import json, sys\nwith open(sys.argv[1], 'rb') as fh:\n    d = json.load(fh)\n"
                  "print(len(d['log']['entries']))\n"),
}


def _entry(rng: random.Random, i: int) -> dict:
    words = " ".join(rng.choice(["alpha", "beta", "city", "weather", "order", "refund"]) for _ in range(60))
    request = {"model": "gpt-4o", "tools": [{"type": "function", "function": {
        "name": f"tool_{i % 50}", "description": words[:200],
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}],
        "messages": [{"role": "user", "content": words}]}
    response = {"id": f"c{i}", "object": "chat.completion", "choices": [{"index": 0, "message": {
        "role": "assistant", "content": None, "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {
            "name": f"tool_{i % 50}", "arguments": json.dumps({"city": words[:30]})}}]},
        "finish_reason": "tool_calls"}]}
    return {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
            "request": {"method": "POST", "url": "https://api.example.test/v1/chat/completions", "headers": [],
                        "postData": {"mimeType": "application/json", "text": json.dumps(request)}},
            "response": {"status": 200, "headers": [], "content": {"mimeType": "application/json",
                                                                  "text": json.dumps(response)}}}


def write_har(path: Path, mb: int, seed: int = 25) -> int:
    """Write a HAR of about ``mb`` MiB to ``path`` one entry at a time; return its entry count."""
    rng = random.Random(seed)
    limit = mb << 20
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        fh.write('{"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "entries": [\n')
        size = 0
        while size < limit:
            text = (",\n" if n else "") + json.dumps(_entry(rng, n))
            fh.write(text)
            size += len(text)
            n += 1
        fh.write("\n]}}\n")
    return n


def peak(code: str, path: Path) -> tuple[float, float, str]:
    """(peak RSS MiB, seconds, stdout) of ``python -c code path`` in a child process."""
    started = time.perf_counter()
    proc = subprocess.Popen([PY, "-c", code + HWM, str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    out = proc.stdout.read().decode().split() if proc.stdout else []
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"reader failed: {err}")
    hwm = int(out[-1]) / 1024
    return hwm, seconds, f"{out[0]} records, ru_maxrss {usage.ru_maxrss / 1024:.0f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="har-memory-") as tmp:
        folder = args.keep or Path(tmp)
        path = folder / "large.har"
        entries = write_har(path, args.mb)
        size = path.stat().st_size / (1 << 20)
        print(f"HAR: {size:.0f} MiB, {entries:,} entries")
        for name, code in READERS.items():
            rss, seconds, out = peak(code, path)
            print(f"{name:<22} peak RSS {rss:7.0f} MiB = {rss / size:4.2f} x the file  {seconds:6.1f} s  ({out})")


if __name__ == "__main__":
    main()
