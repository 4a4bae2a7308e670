"""Progress on a terminal only (issue 32): standard error when it is a terminal (a real pseudo
terminal here), nothing in a pipe or a CI log unless SCHEMALINT_PROGRESS=1 asks, and the report
on standard output byte for byte the same either way."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

ARGS = ["check", "examples/openai", "examples/anthropic", "examples/mcp", "--format", "json"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "SCHEMALINT_PROGRESS", "GITHUB_ACTIONS")}
    env["TERM"] = "xterm"
    return {**env, **extra}


def _run(args: list[str], env: dict[str, str], *, tty: bool) -> tuple[int, str, str]:
    """Run ``schemalint ARGS`` with stdout to a pipe and stderr to a pipe or a pseudo terminal."""
    if not tty:
        proc = subprocess.run([sys.executable, "-m", "schemalint", *args], cwd=ROOT, capture_output=True,
                              text=True, env=env, timeout=300)
        return proc.returncode, proc.stdout, proc.stderr
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "schemalint", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=follower, env=env)
    os.close(follower)
    err = b""
    assert proc.stdout is not None
    while True:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: the process ended
                break
            if not chunk:
                break
            err += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait(timeout=300)
    os.close(leader)
    return proc.returncode, out, err.decode("utf-8", "replace")


def test_nothing_in_a_pipe_and_the_same_report_on_a_terminal() -> None:
    code, piped, piped_err = _run(ARGS, _env(), tty=False)
    assert code == 1 and "reading files" not in piped_err and "\x1b" not in piped_err
    code, out, err = _run(ARGS, _env(), tty=True)
    assert code == 1
    assert "reading files" in err or "checking" in err, err  # rich's transient line on the terminal
    strip = [line for line in out.splitlines() if '"elapsed_seconds"' not in line]
    assert strip == [line for line in piped.splitlines() if '"elapsed_seconds"' not in line]


def test_nothing_in_ci_even_on_a_terminal_and_plain_lines_when_asked(tmp_path: Path) -> None:
    code, _, err = _run(ARGS, _env(CI="true"), tty=True)
    assert code == 1 and "reading files" not in err and "checking" not in err
    code, _, err = _run(ARGS, _env(SCHEMALINT_PROGRESS="0"), tty=True)
    assert "reading files" not in err
    code, out, err = _run(ARGS, _env(CI="true", SCHEMALINT_PROGRESS="1"), tty=False)
    assert code == 1 and '"diagnostics"' in out
    lines = err.splitlines()
    assert any(line.startswith("schemalint: reading files") for line in lines), err
    assert any(line.startswith("schemalint: checking") for line in lines), err
    assert "\x1b" not in err  # plain lines in a log


@pytest.mark.parametrize("args", [
    ["probe", "shop_tools:", "--python-path", "examples/pydantic", "--max-examples", "5"],
    ["diff", "examples/openai/chat_tools.json", "examples/openai/strict_tools.json"],
    ["replay", "examples/traffic/clean.openai-chat.jsonl"],
])
def test_long_commands_report_their_phases_when_asked(args: list[str], tmp_path: Path) -> None:
    if args[0] == "probe":
        pytest.importorskip("hypothesis_jsonschema")
    _, _, err = _run(args, _env(SCHEMALINT_PROGRESS="1"), tty=False)
    assert any(line.startswith("schemalint: ") and ("probing" in line or "comparing" in line or "replaying" in line)
               for line in err.splitlines()), err
    _, _, quiet = _run(args, _env(), tty=False)
    assert "probing tools" not in quiet and "comparing" not in quiet and "replaying" not in quiet


def test_snapshot_phases(tmp_path: Path) -> None:
    _, _, err = _run(["snapshot", "examples/openai", "--dir", str(tmp_path / "snaps")],
                     _env(SCHEMALINT_PROGRESS="1"), tty=False)
    assert "schemalint: writing" in err and "snapshots" in err, err
