"""Every file the user names is read through one bounded path (schemalint.safe_read), with the
checks sources get: a FIFO or a device is refused without being read (no hang, no endless read),
a file above the size bound is refused, invalid UTF-8 is reported with the file and the place.

Each case runs the real CLI in a subprocess with a timeout, so a regression fails instead of
hanging the suite: baselines, ``--previous``, ``--summaries``, the ``--write-baseline`` target,
configuration files, replay logs and replay ``--tools``.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import cli

TOOL = {"type": "function", "function": {"name": "a", "description": "d",
                                         "parameters": {"type": "object", "properties": {}}}}

KINDS = ["fifo", "dev_zero", "huge", "bad_utf8"]


def _make(tmp_path: Path, kind: str) -> str:
    if kind == "fifo":
        path = tmp_path / "named.fifo"
        os.mkfifo(path)
        return str(path)
    if kind == "dev_zero":
        return "/dev/zero"
    if kind == "huge":
        path = tmp_path / "huge.json"
        with open(path, "wb") as fh:
            fh.truncate(300 * 1024 * 1024)  # sparse: above the 256 MiB bound, costs no disk
        return str(path)
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"a":\n  "x\xff"}\n')
    return str(path)


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    ok = tmp_path / "ok.json"
    ok.write_text(json.dumps({"tools": [TOOL]}))
    return cli(*args, cwd=tmp_path, timeout=60)


REASON = {"fifo": "a FIFO, not a regular file", "dev_zero": "a character device, not a regular file",
          "huge": "above the", "bad_utf8": "invalid UTF-8 (byte 0xff at line 2, column 5"}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("option", ["--baseline", "--summaries", "--config"])
def test_a_named_input_file_that_cannot_be_read_is_an_error_naming_it(tmp_path: Path, option: str,
                                                                        kind: str) -> None:
    path = _make(tmp_path, kind)
    proc = _run(tmp_path, "check", "ok.json", option, path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert path in proc.stderr
    reason = REASON[kind] if not (kind == "huge" and option == "--config") else "16,777,216-byte size bound"
    assert reason in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", KINDS)
def test_an_unreadable_previous_file_is_reported_not_silently_left_out(tmp_path: Path, kind: str) -> None:
    path = _make(tmp_path, kind)
    proc = _run(tmp_path, "check", "ok.json", "--previous", path, "--format", "json")
    assert "Traceback" not in proc.stderr
    report = json.loads(proc.stdout)
    sl000 = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert len(sl000) == 1 and sl000[0]["file"] == path, report["diagnostics"]
    assert REASON[kind].split(" (")[0] in sl000[0]["message"]


@pytest.mark.parametrize("kind", ["fifo", "dev_zero"])
def test_a_write_baseline_target_that_is_a_fifo_or_device_is_not_read(tmp_path: Path, kind: str) -> None:
    path = _make(tmp_path, kind)
    proc = _run(tmp_path, "check", "ok.json", "--write-baseline", path)
    assert proc.returncode == 2 and "refusing" in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("how", ["log", "tools"])
def test_replay_logs_and_tools_are_read_through_the_bounded_path(tmp_path: Path, kind: str, how: str) -> None:
    path = _make(tmp_path, kind)
    if kind == "bad_utf8" and how == "log":
        path = str(tmp_path / "bad.jsonl")  # a log read line by line: the line and column are named
        Path(path).write_bytes(b'{"messages": []}\n{"x": "\xff"}\n')
    args = ["replay", path] if how == "log" else ["replay", "ok.json", "--tools", path]
    proc = _run(tmp_path, *args, "--format", "json")
    assert "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    sl000 = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert len(sl000) == 1 and sl000[0]["file"] == path, report["diagnostics"]
    if kind == "bad_utf8" and how == "log":
        assert (sl000[0]["line"], sl000[0]["column"]) == (2, 8)
        assert "invalid UTF-8 (byte 0xff" in sl000[0]["message"]
    else:
        assert REASON[kind].split(" (")[0] in sl000[0]["message"]


def test_safe_read_refuses_without_blocking_and_names_the_utf8_place(tmp_path: Path) -> None:
    from schemalint import safe_read

    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(safe_read.UnreadableFile, match="a FIFO"):
        safe_read.read_text(fifo)
    with pytest.raises(safe_read.UnreadableFile, match="character device"):
        safe_read.read_bytes("/dev/zero")
    small = tmp_path / "s.txt"
    small.write_bytes(b"0123456789")
    with pytest.raises(safe_read.UnreadableFile, match="above the 5-byte size bound"):
        safe_read.read_bytes(small, limit=5)
    bad = tmp_path / "b.txt"
    bad.write_bytes(b"\xc3\xa9a\nxy\xc3(")
    with pytest.raises(safe_read.UnreadableFile) as info:
        safe_read.read_text(bad)
    assert "byte 0xc3 at line 2, column 3, offset 6" in str(info.value) and str(bad) in str(info.value)
    with pytest.raises(FileNotFoundError):
        safe_read.read_bytes(tmp_path / "missing")
