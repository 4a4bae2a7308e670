"""``schemalint check --watch`` (issue 32): a real change to a real file in a temp dir starts a
second check, whose report is the plain check's; Ctrl-C (SIGINT) ends the watch with exit 0,
no traceback and no check left running."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from schemalint.commands.watch import WatchError, child_argv, watched_paths
from tests.conftest import ROOT, run_cli

pytest.importorskip("watchfiles", reason="--watch needs the watchfiles library (the [watch] extra)")

CLEAN = {"tools": [{"type": "function", "function": {
    "name": "get_weather", "description": "Weather for a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "City."}},
                   "required": ["city"]}}}]}


def _broken() -> dict:
    tools = json.loads(json.dumps(CLEAN))
    tools["tools"][0]["function"]["parameters"]["required"] = ["city", "country"]  # SL003: not a property
    return tools


def _reader(stream, lines: queue.Queue) -> None:  # type: ignore[no-untyped-def]
    for line in iter(stream.readline, ""):
        lines.put(line)
    lines.put(None)


def _wait_for(lines: queue.Queue, text: str, seen: list[str], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
        except queue.Empty:
            break
        if line is None:
            break
        seen.append(line)
        if text in line:
            return
    raise AssertionError(f"{text!r} not seen; stderr so far:\n{''.join(seen)}")


def _inotify_watches(pid: int) -> int:
    """How many inotify watches process ``pid`` holds (Linux ``/proc/PID/fdinfo``)."""
    count = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd) == "anon_inode:inotify":
                count += Path(f"/proc/{pid}/fdinfo/{fd.name}").read_text().count("inotify wd:")
        except OSError:  # closed meanwhile
            continue
    return count


def _wait_until_watching(proc: subprocess.Popen[str], timeout: float = 90) -> None:
    """Wait until ``proc`` watches its paths: a change written before that is never seen (under
    load the watcher was set up more than the half second after its status line this test once
    slept, and the test waited for a check that never came). On Linux, until the process holds an
    inotify watch; elsewhere (no /proc, or watchfiles told to poll) a pause is all there is."""
    if not Path(f"/proc/{proc.pid}/fdinfo").is_dir() or os.environ.get("WATCHFILES_FORCE_POLLING"):
        time.sleep(2)
        return
    deadline = time.monotonic() + timeout
    while not _inotify_watches(proc.pid):
        assert proc.poll() is None, "the watch ended before it watched anything"
        assert time.monotonic() < deadline, f"no inotify watch within {timeout} s"
        time.sleep(0.02)


def _stop(proc: subprocess.Popen[str], err: queue.Queue, seen: list[str], timeout: float = 30) -> int:
    """Send Ctrl-C (SIGINT) to the watch and return its exit code. A watch still running after
    ``timeout`` seconds fails the test with what it was doing: its signal state from /proc and the
    Python stacks that faulthandler prints on SIGABRT (the watch runs with PYTHONFAULTHANDLER=1)."""
    proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        status = Path(f"/proc/{proc.pid}/status")
        state = "".join(line + "\n" for line in status.read_text().splitlines()
                        if line.startswith(("State", "Sig", "Shd", "Threads"))) if status.exists() else ""
        proc.send_signal(signal.SIGABRT)
        try:
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
        time.sleep(0.5)  # the reader thread drains the rest of stderr
        while not err.empty():
            line = err.get()
            if line is not None:
                seen.append(line)
        pytest.fail(f"the watch did not stop within {timeout:g} s of its SIGINT\n{state}stderr:\n{''.join(seen)}")


def test_a_change_to_a_watched_file_checks_again_and_ctrl_c_exits_cleanly(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps(CLEAN))
    # faulthandler: a watch that outlives its Ctrl-C is made to print where it is (_stop)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "schemalint", "check", "tools.json", "--watch"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    err: queue.Queue = queue.Queue()
    out: queue.Queue = queue.Queue()
    threads = [threading.Thread(target=_reader, args=(proc.stderr, err), daemon=True),
               threading.Thread(target=_reader, args=(proc.stdout, out), daemon=True)]
    for t in threads:
        t.start()
    seen: list[str] = []
    try:
        _wait_for(err, "exit 0; watching tools.json for changes", seen)
        _wait_until_watching(proc)  # the watcher is set up right after that line
        tools.write_text(json.dumps(_broken()))
        _wait_for(err, "tools.json changed; checking again", seen)
        _wait_for(err, "exit 1; watching for changes", seen)
        # an unrelated file outside the watched path starts nothing
        (tmp_path / "notes.txt").write_text("x")
        time.sleep(1.0)
        assert err.empty(), list(err.queue)
    finally:
        code = _stop(proc, err, seen)
    for t in threads:
        t.join(timeout=10)
    rest = []
    while not err.empty():
        line = err.get()
        if line is not None:
            rest.append(line)
    stdout = []
    while not out.empty():
        line = out.get()
        if line is not None:
            stdout.append(line)
    stderr = "".join(seen + rest)
    assert code == 0, stderr
    assert "stopped watching" in stderr and "Traceback" not in stderr, stderr
    report = "".join(stdout)
    # the first check found nothing, the second the required name that is not a property
    assert report.count("SL003") >= 1 and "country" in report, report
    first = report.partition("SL003")[0]
    assert "country" not in first


def test_watch_refuses_what_writes_files(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(CLEAN))
    proc = run_cli("check", "tools.json", "--watch", "--write-baseline", "b.json", cwd=tmp_path, timeout=120)
    assert proc.returncode == 2 and "--watch only reports" in proc.stderr, proc.stderr
    assert not (tmp_path / "b.json").exists()


def test_child_argv_drops_only_the_watch_flag() -> None:
    assert child_argv(["check", "a.json", "--watch", "--format", "json"]) == ["check", "a.json", "--format", "json"]
    with pytest.raises(WatchError):
        child_argv(["check", "a.json", "--", "--watch"])  # after `--` it is a file name


def test_watched_paths(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a.json").write_text("{}")
    (tmp_path / "base.json").write_text("{}")
    got = watched_paths([str(tmp_path / "tools"), str(tmp_path / "tools" / "a.json")], [str(tmp_path / "base.json")],
                        tmp_path)
    assert got == sorted([str(tmp_path / "base.json"), str(tmp_path / "tools")])  # a.json is under tools/
    # a module source or a glob: the project root is watched
    assert watched_paths(["shop_tools:TOOLS"], [], tmp_path) == [str(tmp_path.resolve())]
