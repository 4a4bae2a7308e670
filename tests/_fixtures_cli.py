"""Run the schemalint command line in the test process, for tests whose subject is what a command
reports, not the process that reports it.

``run_cli_here(*args, cwd=...)`` runs the same typer application as the console script
(:func:`schemalint.cli.main`): the command named on the line is registered the way ``main``
registers it, the arguments are parsed by click, the command body, the loaders, the rules and the
reporter run unchanged, and what the command writes to ``sys.stdout`` and ``sys.stderr`` comes
back as a :class:`subprocess.CompletedProcess` (``returncode``, ``stdout``, ``stderr``), as
:func:`tests.conftest.run_cli` returns it. An exception the command lets escape is written to
``stderr`` as a ``Traceback`` with exit status 1, as the interpreter would, so the tests' ``assert
"Traceback" not in proc.stderr`` still catches it.

Why: a ``python -m schemalint`` subprocess costs 0.7-0.9 CPU seconds of interpreter start and
imports before the command runs; the rule pages and rule cases ran about 500 of them for inputs
that take milliseconds to check. What a subprocess adds besides that (exit through
``sys.exit``, the reaper of leftover children, progress on a terminal, a stdout that cannot be
written) is tested where it is the subject (tests/test_child_lifetime.py, tests/test_progress.py,
tests/test_cli_package.py, tests/test_hardening_*.py), through real subprocesses.

Left out on purpose, and why it does not change what these tests see: ``main()`` also makes the
process a child subreaper and kills its descendants when the command ends (in a test worker that
would kill servers other fixtures hold; the Node and Python workers the command started, which the
process's exit would stop, are stopped when it returns), installs terminal progress (stderr here
is not a terminal, so it would print nothing) and turns an ``OSError`` into ``os._exit(2)`` (here
it is a traceback, which the tests reject).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_cli_here(*args: str, cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``schemalint ARGS`` in this process from ``cwd`` (default: the repository root).

    Returns ``CompletedProcess(args, returncode, stdout, stderr)``; never raises for what the
    command does (a ``SystemExit`` is its exit status, any other exception a ``Traceback`` on
    ``stderr`` with status 1). The working directory, the environment, ``sys.argv`` and the standard
    streams are restored afterwards; standard input is empty, as for a subprocess started without a terminal.
    """
    from schemalint import cli
    from schemalint.bridge.client import _LIVE

    running = set(_LIVE)  # workers of fixtures or earlier tests: not this run's to stop
    argv = ["schemalint", *args]
    streams = (sys.stdin, sys.stdout, sys.stderr, sys.argv)
    here, environ = os.getcwd(), dict(os.environ)
    cli._take_verbose(argv)  # --verbose anywhere: SCHEMALINT_VERBOSE=1, as main() does
    args = tuple(argv[1:])
    name = cli._invoked_command(list(args))
    registered = list(cli.app.registered_commands)
    code: int = 0
    # the console script's streams: UTF-8, lone surrogates written as their escape (cli._tolerate_lone_surrogates)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace", write_through=True)
    sys.stdout, sys.stderr = out, err
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    sys.argv = argv
    try:
        os.chdir(cwd or ROOT)
        cli._register([name] if name in cli.COMMANDS else list(cli.COMMANDS))
        cli.app(args=list(args), prog_name="schemalint")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            err.write(f"{exc.code}\n")
    except Exception:  # reported as the interpreter reports an uncaught exception
        err.write(traceback.format_exc())
        code = 1
    finally:
        for worker in set(_LIVE) - running:  # what the process's exit stops (bridge.client._close_all)
            worker.close()
        sys.stdin, sys.stdout, sys.stderr, sys.argv = streams
        cli.app.registered_commands = registered
        os.chdir(here)
        if dict(os.environ) != environ:  # e.g. --fail-rule and --verbose hand a setting on through the environment
            os.environ.clear()
            os.environ.update(environ)
    texts = []
    for stream in (out, err):
        stream.flush()
        texts.append(stream.buffer.getvalue().decode("utf-8"))  # type: ignore[attr-defined]
    here_proc = subprocess.CompletedProcess(argv, code, texts[0], texts[1])
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
