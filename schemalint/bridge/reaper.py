"""Children of imported code and of started servers do not outlive the run.

Imported modules, MCP servers and Node workers may start processes, and some detach: a double
fork, ``setsid``, a cleared environment (so no marker variable finds them). On Linux the process
that starts them can declare itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``,
man 2 prctl, Linux >= 3.4): a descendant orphaned below it is re-parented to it instead of to
init, so it stays findable as a descendant whatever it did to its session or environment.

schemalint's CLI process and its Python worker become subreapers (:func:`become_subreaper`);
each kills what remains below it when it ends (:func:`kill_descendants`: every process whose
parent chain leads to it, found in ``/proc``, then reaped). Elsewhere (macOS, Windows) both are
no-ops: the process-group kill of the stdio servers still applies there.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Iterator

PR_SET_CHILD_SUBREAPER = 36
"""``prctl`` option (linux/prctl.h)."""

_state = {"subreaper": False, "enabled": False}


def enable() -> None:
    """Let :func:`before_spawn` make this process a subreaper (the CLI calls this: a program that
    imports schemalint as a library keeps its own process attributes). Costs nothing by itself."""
    _state["enabled"] = True


def before_spawn() -> None:
    """Called before schemalint starts a worker or a server: become a subreaper if :func:`enable`
    was called (once; the ``ctypes`` import is paid only by runs that start processes)."""
    if _state["enabled"] and not _state["subreaper"] and become_subreaper():
        import atexit

        atexit.register(kill_descendants)  # also on the CLI's fast exit (it runs the atexit handlers)


def is_subreaper() -> bool:
    """Whether :func:`become_subreaper` succeeded in this process."""
    return _state["subreaper"]


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants (Linux; ``False`` elsewhere or when the
    call fails). Idempotent; never raises."""
    if _state["subreaper"]:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    _state["subreaper"] = True
    return True


def proc_files(name: str) -> Iterator[tuple[int, bytes]]:
    """``(pid, content)`` of ``/proc/<pid>/<name>`` (``stat``, ``environ`` ...) for every process
    visible in ``/proc`` whose file can be read; nothing without ``/proc``."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/{name}", "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        yield int(entry), data


def _parents() -> dict[int, int]:
    """``{pid: parent pid}`` of every process visible in ``/proc`` (``{}`` without ``/proc``)."""
    out: dict[int, int] = {}
    for pid, stat in proc_files("stat"):
        # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after the last ")"
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) >= 2 and fields[0] != b"Z":
            with contextlib.suppress(ValueError):
                out[pid] = int(fields[1])
    return out


def descendants(pid: int | None = None) -> list[int]:
    """The living (not zombie) descendants of ``pid`` (default: this process), parents first."""
    root = os.getpid() if pid is None else pid
    children: dict[int, list[int]] = {}
    for child, parent in _parents().items():
        children.setdefault(parent, []).append(child)
    found: list[int] = []
    queue = list(children.get(root, ()))
    while queue:
        p = queue.pop(0)
        if p in found or p == root:
            continue
        found.append(p)
        queue.extend(children.get(p, ()))
    return found


def kill_descendants(grace: float = 0.0) -> int:
    """Kill every remaining descendant of this process (SIGKILL; after ``grace`` seconds of SIGTERM
    when ``grace`` > 0) and reap the ones re-parented to it. Returns how many were signalled. Only
    acts on Linux, where a subreaper keeps orphans findable; never raises."""
    if not sys.platform.startswith("linux"):
        return 0
    total = 0
    for _round in range(5):  # a dying process may fork once more: sweep until none is left
        pids = descendants()
        if not pids:
            break
        if grace > 0 and _round == 0:
            for p in pids:
                with contextlib.suppress(OSError):
                    os.kill(p, signal.SIGTERM)
            time.sleep(grace)
            pids = descendants()
        for p in pids:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGKILL)
        total += len(pids)
        _reap(0.5)
    _reap(0.0)
    return total


def _reap(wait: float) -> None:
    """Collect the exit status of dead children (orphans re-parented here would stay zombies)."""
    deadline = time.monotonic() + wait
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        except OSError:
            return
        if pid == 0:
            if time.monotonic() >= deadline:
                return
            time.sleep(0.02)
