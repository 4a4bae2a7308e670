"""A large JSON Lines log is replayed in bounded memory (issue 17: "a 1 GB JSON Lines log in
bounded memory"): the peak resident memory of a real ``replay`` over 200,000 lines (about 57 MB)
grows no more than over 20,000 lines, give or take a few MB."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import ROOT

_SCRIPT = textwrap.dedent('''
    import json, resource, sys
    n, path = int(sys.argv[1]), sys.argv[2]
    with open(path, "w") as fh:
        for i in range(n):
            fh.write(json.dumps({"messages": [
                {"role": "user", "content": f"q{i}"},
                {"role": "assistant", "content": None, "tool_calls": [{"id": f"call_{i}", "type": "function",
                 "function": {"name": f"tool_{i % 7}", "arguments": json.dumps({"city": "x"})}}]},
                {"role": "tool", "tool_call_id": f"call_{i if i % 1000 else -1}", "content": "ok"}]}) + "\\n")
    from schemalint.commands.replay import replay
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = replay([path])
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"growth_kb": after - before, "codes": sorted({d.code for d in result.diagnostics}),
                      "diagnostics": len(result.diagnostics), "notes": result.notes}))
''')


def _run(lines: int, path: Path) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", _SCRIPT, str(lines), str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, object] = json.loads(proc.stdout)
    return out


def test_a_large_log_streams_in_bounded_memory(tmp_path: Path) -> None:
    small = _run(20_000, tmp_path / "small.jsonl")
    large = _run(200_000, tmp_path / "large.jsonl")
    assert (tmp_path / "large.jsonl").stat().st_size > 50_000_000
    # every 1000th result is an orphan and its call unanswered: found in every part of the log
    assert large["codes"] == ["SL402", "SL403"] and large["diagnostics"] == 400
    assert "replayed 200000 recorded call(s)" in str(large["notes"])
    growth = int(str(large["growth_kb"])) - int(str(small["growth_kb"]))
    assert growth < 8_000, (small, large)  # 51 MB more log, under 8 MB more memory
