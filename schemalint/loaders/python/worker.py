"""The Python worker of the runtime bridge: imports ``module:attr`` sources in a child process.

Started by :class:`schemalint.bridge.client.Worker` as
``python -c "...; from schemalint.loaders.python.worker import main; main()"``. Before any
user code runs it keeps private copies of its stdin and stdout for the protocol and points
file descriptors 0 at ``/dev/null`` and 1 at stderr, so what an imported module prints (at
import, in a validator, in ``atexit``, in a forked child) never reaches the protocol
channel; it ends with ``os._exit`` so ``atexit`` handlers never run. A process forked by
the imported code that returns into this loop exits at once (the pid is checked).

Requests and answers are one JSON object per line (docs/runtime-bridge.md):
``load`` (import a source, answer its tools in wire form), ``validate`` (call a tool's
runtime validator with a candidate call, answer the outcome), ``shutdown``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, BinaryIO

PID = os.getpid()


def _send(out: BinaryIO, message: dict[str, Any]) -> None:
    try:
        line = json.dumps(message, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:  # jsonable() should have prevented it
        line = json.dumps({"id": message.get("id"), "ok": False,
                           "error": f"the answer could not be written as JSON: {type(exc).__name__}: {exc}"})
    out.write(line.encode("ascii") + b"\n")
    out.flush()


def _guard_fork() -> None:
    if os.getpid() != PID:  # a child forked by the imported code came back here
        os._exit(0)


class _State:
    def __init__(self) -> None:
        self.validators: dict[str, Any] = {}
        self.count = 0
        self.started: float | None = _process_age()


def _process_age() -> float | None:
    """Seconds since this process started (Linux: ``/proc``), or ``None`` where that cannot be read."""
    try:
        with open("/proc/self/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as uptime_file:
            uptime = float(uptime_file.read().split()[0])
        return round(uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK"), 3)
    except (OSError, ValueError, IndexError):
        return None


def _load(state: _State, request: dict[str, Any]) -> dict[str, Any]:
    from schemalint.bridge.protocol import tool_to_wire
    from schemalint.errors import SourceError
    from schemalint.loaders.python.python_source import load_python_source, recognizers

    recognizers()  # schemalint's own modules, before a checkout's folders go on sys.path

    cwd = request.get("cwd")
    if isinstance(cwd, str) and cwd:
        os.chdir(cwd)
    source = str(request["source"])
    python_path = [str(p) for p in request.get("python_path") or ()]
    problems: list[Any] = []
    from schemalint.loaders.python.phases import measure
    from schemalint.probe import load_budget

    try:
        with measure() as phases, load_budget() as budget:
            tools = load_python_source(source, python_path, problems=problems)
        stopped = budget.diagnostic(source)
        if stopped is not None:
            problems.append(stopped)
    except SourceError as exc:
        _guard_fork()
        return {"ok": False, "error": str(exc)}
    except BaseException as exc:  # the module's own code (a recognizer, SystemExit ...)
        _guard_fork()
        return {"ok": False, "error": f"{source}: cannot load: {type(exc).__name__}: {exc}"}
    _guard_fork()
    wires = []
    for tool in tools:
        handle = None
        if tool.runtime is not None and tool.runtime.validate is not None:
            state.count += 1
            handle = f"t{state.count}"
            state.validators[handle] = tool.runtime.validate
        changed: list[str] = []
        wire = tool_to_wire(tool, handle, changed)
        if changed:
            wire["not_json"] = changed
        wires.append(wire)
    if state.started is not None:  # the first load: how long the interpreter took to be ready
        phases = {"python start": state.started, **phases}
        state.started = None
    return {"ok": True, "tools": wires, "problems": [p.to_json() for p in problems], "phases": phases}


def _validate(state: _State, request: dict[str, Any]) -> dict[str, Any]:
    from schemalint.bridge.protocol import outcome_to_wire
    from schemalint.probe import Outcome, call_outcome

    validate = state.validators.get(str(request.get("tool")))
    if validate is None:
        return {"ok": False, "error": f"unknown tool handle {request.get('tool')!r}"}
    try:
        outcome = call_outcome(validate, request.get("arguments"))
    except BaseException as exc:  # SystemExit, KeyboardInterrupt raised by the validator
        outcome = Outcome("crash", str(exc)[:300] or type(exc).__name__, type(exc).__name__)
    _guard_fork()
    return {"ok": True, "outcome": outcome_to_wire(outcome)}


def _watch_parent() -> None:
    """Exit when the parent is gone (it was killed and could not stop this process), even
    while the imported code hangs (this runs in its own thread)."""
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                from schemalint.bridge.reaper import kill_descendants

                kill_descendants()
                os._exit(3)

    threading.Thread(target=watch, daemon=True, name="schemalint-parent-watch").start()


def main() -> None:
    """Serve requests from the parent until ``shutdown`` or end of input; never returns."""
    import signal

    # A signal mask survives exec: the parent may hold SIGALRM back while it restarts a worker,
    # and the loaders' own probes need it.
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    from schemalint.bridge import reaper

    reaper.become_subreaper()  # what the imported code starts stays below this worker, detached or not
    _watch_parent()
    proto_in = os.fdopen(os.dup(0), "rb")
    proto_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)  # the imported code's prints go to stderr (captured by the parent)
    state = _State()
    _send(proto_out, {"event": "ready", "protocol": 1, "runtime": "python",
                      "version": ".".join(str(v) for v in sys.version_info[:3])})
    while True:
        line = proto_in.readline()
        if not line:
            break
        try:
            request = json.loads(line)
            rid = request.get("id")
            op = request.get("op")
        except (ValueError, AttributeError):
            _send(proto_out, {"id": None, "ok": False, "error": "the request is not a JSON object"})
            continue
        if op == "shutdown":
            _send(proto_out, {"id": rid, "ok": True})
            break
        try:
            if op == "load":
                answer = _load(state, request)
            elif op == "validate":
                answer = _validate(state, request)
            else:
                answer = {"ok": False, "error": f"unknown op {op!r}"}
        except Exception as exc:  # a bug here: reported, never a silent exit
            answer = {"ok": False, "error": f"worker error: {type(exc).__name__}: {exc}"}
        _guard_fork()
        answer["id"] = rid
        _send(proto_out, answer)
    try:
        reaper.kill_descendants()
        sys.stderr.flush()
    finally:
        os._exit(0)


if __name__ == "__main__":  # pragma: no cover
    main()
