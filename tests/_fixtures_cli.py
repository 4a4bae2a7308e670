"""Helpers over :func:`tests.conftest.cli`, the one in-process runner of the command line, for
tests whose subject is what a command reports, not the process that reports it: ``run_cli_here``
(the same, with an optional cross-check against a real subprocess) and ``run_json_here`` (the
parsed JSON report). Why in-process, and what a subprocess still tests, is in conftest.cli's
docstring and docs/architecture.md ("Where things go").
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_cli_here(*args: str, cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``schemalint ARGS`` in this process from ``cwd`` (default: the repository root), through
    :func:`tests.conftest.cli` (the one in-process runner: what it restores, captures and closes is
    written there). Returns ``CompletedProcess(args, returncode, stdout, stderr)``; never raises for
    what the command does. With ``SCHEMALINT_TEST_CROSSCHECK=1`` the same command also runs as a
    subprocess and the two must agree (:func:`_crosscheck`)."""
    from tests.conftest import cli

    here_proc = cli(*args, cwd=cwd)
    if os.environ.get("SCHEMALINT_TEST_CROSSCHECK"):
        _crosscheck(here_proc, args, cwd)
    return here_proc


_ELAPSED = re.compile(r'"elapsed_seconds": [0-9.]+')


def _crosscheck(here_proc: subprocess.CompletedProcess[str], args: tuple[str, ...], cwd: Path | str | None) -> None:
    """With ``SCHEMALINT_TEST_CROSSCHECK=1``: run the same command as a ``python -m schemalint``
    subprocess too and fail unless exit status, stdout and stderr are the same (less the
    ``elapsed_seconds`` of a JSON summary, and with the program named as the console script names
    it). A check on this module, for a run of the tests that use it
    (``SCHEMALINT_TEST_CROSSCHECK=1 pytest tests/test_rule_pages.py tests/rules``)."""
    proc = subprocess.run([sys.executable, "-m", "schemalint", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, timeout=600, stdin=subprocess.DEVNULL)
    got = (here_proc.returncode, _ELAPSED.sub("", here_proc.stdout), here_proc.stderr)
    # click names the program after how it was started: "python -m schemalint" here, "schemalint" for the console
    # script, which run_cli_here stands for
    want = tuple(text.replace("python -m schemalint", "schemalint") if isinstance(text, str) else text
                 for text in (proc.returncode, _ELAPSED.sub("", proc.stdout), proc.stderr))
    assert got == want, f"in-process and subprocess runs of {args} differ:\n{got}\n{want}"


def run_json_here(*args: str, cwd: Path | str | None = None) -> tuple[int, dict[str, Any]]:
    """:func:`run_cli_here` with ``--format json``: ``(exit status, parsed report)``, as
    :func:`tests.conftest.run_json` gives it for a subprocess."""
    proc = run_cli_here(*args, "--format", "json", cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)
