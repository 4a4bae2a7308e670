"""``schemalint check --watch``: check, then check again each time a watched file changes.

Each check runs in a child process (``python -m schemalint check ...`` with the same arguments,
less ``--watch``), so a changed Python or TypeScript module is imported afresh and the report,
exit code and messages are exactly those of a plain ``check``. The file watching is the
``watchfiles`` library's (inotify, FSEvents or ReadDirectoryChangesW; polling where none is
available, or with ``WATCHFILES_FORCE_POLLING=1``), with its default filter: changes under
``.git``, ``__pycache__``, ``node_modules``, virtual environments and editor swap files do not
start a check. Ctrl-C (or SIGTERM) stops the running check and the watch, and the program exits 0.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

WATCH_FLAG = "--watch"
DEBOUNCE_MS = 300
"""Changes within this many milliseconds of each other start one check, not one per file
(an editor's save or a ``git checkout`` writes several files at once)."""


class WatchError(Exception):
    """``--watch`` cannot run: the ``watchfiles`` library is missing, or nothing can be watched."""


def child_argv(argv: Sequence[str]) -> list[str]:
    """The command line of one check: ``argv`` (the program's arguments, ``sys.argv[1:]``) without
    ``--watch``. Raises :class:`WatchError` when ``argv`` does not hold ``--watch`` before ``--``
    (the command was not run from a command line, e.g. by an embedding caller)."""
    args = list(argv)
    end = args.index("--") if "--" in args else len(args)
    if WATCH_FLAG not in args[:end]:
        raise WatchError("--watch runs only from the `schemalint` command line")
    args.remove(WATCH_FLAG)
    return args


def watched_paths(sources: Iterable[str], extra: Iterable[str], root: Path) -> list[str]:
    """The existing paths to watch: the files and directories among ``sources`` and ``extra`` (the
    configuration file, ``--previous``, the baseline, ``--python-path`` roots). A source that is no
    path (``module:attr``, a glob) or a server stands for the project: ``root`` is watched then.
    Paths inside another watched directory are dropped (one watch covers them). Raises
    :class:`WatchError` when nothing exists to watch."""
    paths: list[str] = []
    project = False
    for source in sources:
        if os.path.exists(source):
            paths.append(os.path.abspath(source))
        else:
            project = True  # module:attr, a glob or a server: its files live in the project
    paths.extend(os.path.abspath(p) for p in extra if p and os.path.exists(p))
    if project or not paths:
        paths.append(str(root.resolve()))
    kept: list[str] = []
    for path in sorted(set(paths), key=len):
        if not any(path == k or path.startswith(k.rstrip(os.sep) + os.sep) for k in kept if os.path.isdir(k)):
            kept.append(path)
    if not kept:
        raise WatchError("--watch: nothing to watch (no source exists)")
    return sorted(kept)


def _say(message: str) -> None:
    print(f"schemalint: {message}", file=sys.stderr, flush=True)


def _run_once(argv: Sequence[str]) -> int:
    """One check in a child process; its output goes straight to ours. Returns its exit code.

    The child runs in a session of its own, so a Ctrl-C at the terminal reaches only the watch,
    which stops the child (SIGTERM, then SIGKILL after 5 s) and says so once."""
    proc = subprocess.Popen([sys.executable, "-m", "schemalint", *argv], start_new_session=True)
    try:
        return proc.wait()
    except BaseException:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        raise


def _describe(changes: Iterable[tuple[Any, str]], cwd: str) -> str:
    files = sorted({os.path.relpath(path, cwd) if path.startswith(cwd + os.sep) else path for _, path in changes})
    shown = ", ".join(files[:3]) + (f" and {len(files) - 3} more" if len(files) > 3 else "")
    return shown


def watch_check(argv: Sequence[str], paths: Sequence[str]) -> int:
    """Run ``schemalint check`` with ``argv`` (already without ``--watch``) now and after each
    change under ``paths`` (:func:`watched_paths`), until interrupted. Returns 0 when stopped by
    Ctrl-C or SIGTERM. Raises :class:`WatchError` when the ``watchfiles`` library is missing."""
    try:
        import watchfiles
    except ImportError:
        from schemalint.distribution import extra_install_line

        raise WatchError(f"--watch needs the watchfiles library: {extra_install_line('watch')}") from None
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _as_interrupt)
    cwd = os.getcwd()
    try:
        code = _run_once(argv)
        _say(f"exit {code}; watching {', '.join(_short(p, cwd) for p in paths)} for changes (Ctrl-C to stop)")
        for changes in watchfiles.watch(*paths, debounce=DEBOUNCE_MS, raise_interrupt=True):
            _say(f"{time.strftime('%H:%M:%S')} {_describe(changes, cwd)} changed; checking again")
            code = _run_once(argv)
            _say(f"exit {code}; watching for changes (Ctrl-C to stop)")
    except KeyboardInterrupt:
        _say("stopped watching")
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
    return 0


def _short(path: str, cwd: str) -> str:
    rel = os.path.relpath(path, cwd)
    return path if rel.startswith("..") else rel


def _as_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
