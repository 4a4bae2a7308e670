"""The schemalint end of the runtime bridge: start a worker, send requests, read answers.

:func:`load_python_sources` is what the loaders call: it starts one Python worker
(:mod:`schemalint.loaders.python.worker`) for a set of ``module:attr`` sources, loads
them, and returns :class:`~schemalint.model.Tool` objects whose ``Contract.validate`` is
a :class:`RemoteValidator` answering over the pipe. The worker runs in its own session
(process group), its stderr is drained into a bounded buffer (the last
:data:`STDERR_KEEP` bytes), and it is killed, with its whole group, when schemalint exits,
when it does not answer in time, or when it sends something that is not a protocol line.

Time limits: each ``load`` (the import and listing of one source) gets
``import_time_limit`` seconds (default :data:`DEFAULT_IMPORT_TIME_LIMIT`, or the
environment variable ``SCHEMALINT_IMPORT_TIME_LIMIT``); a ``validate`` answer is awaited
until the probe's own deadline. Failures raise
:class:`~schemalint.errors.SourceError` naming the source (exit 2).
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from schemalint.errors import SourceError
from schemalint.model import Diagnostic, Severity, Tool

DEFAULT_IMPORT_TIME_LIMIT = 30.0
STDERR_KEEP = 64 * 1024
MAX_LINE = 256 * 1024 * 1024
VALIDATE_WAIT = 60.0
"""Seconds a ``validate`` answer is awaited when the caller gives no deadline."""

_BOOT = ("import sys\n"
         "if sys.path and sys.path[0] in ('', '.'): del sys.path[0]\n"
         "from schemalint.loaders.python.worker import main\n"
         "main()\n")
_LIVE: set[Worker] = set()


def import_time_limit() -> float:
    """The import time limit in seconds: ``SCHEMALINT_IMPORT_TIME_LIMIT`` when set to a positive
    number, else :data:`DEFAULT_IMPORT_TIME_LIMIT`."""
    text = os.environ.get("SCHEMALINT_IMPORT_TIME_LIMIT", "")
    try:
        value = float(text)
    except ValueError:
        return DEFAULT_IMPORT_TIME_LIMIT
    return value if value > 0 else DEFAULT_IMPORT_TIME_LIMIT


class WorkerFailure(Exception):
    """The worker died, did not answer in time, or broke the protocol (message says which)."""


class _StderrTail:
    """Drains a pipe in a daemon thread, keeping only the last :data:`STDERR_KEEP` bytes."""

    def __init__(self, pipe: Any) -> None:
        self.chunks: collections.deque[bytes] = collections.deque()
        self.size = 0
        self.dropped = 0
        self.lock = threading.Lock()
        self.fd = pipe.fileno()
        self.thread = threading.Thread(target=self._drain, args=(pipe,), daemon=True,
                                       name="schemalint-worker-stderr")
        self.thread.start()

    def _drain(self, pipe: Any) -> None:
        fd = pipe.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self.lock:
                self.chunks.append(chunk)
                self.size += len(chunk)
                while self.size - len(self.chunks[0]) >= STDERR_KEEP:
                    old = self.chunks.popleft()
                    self.size -= len(old)
                    self.dropped += len(old)

    def settle(self, wait: float = 0.25) -> None:
        """Give the drain thread up to ``wait`` seconds to read what the process has already written
        (a line written just before an answer may still be in the pipe)."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                ready = select.select([self.fd], [], [], 0)[0]
            except (OSError, ValueError):
                return
            if not ready:
                return
            time.sleep(0.01)

    def text(self, limit: int = 2000) -> str:
        """The last ``limit`` characters captured, with unsafe characters made visible."""
        from schemalint.textsafe import visible_lines

        with self.lock:
            data = b"".join(self.chunks)
        text = data.decode("utf-8", "replace").strip()
        if len(text) > limit:
            text = "..." + text[-limit:]
        return visible_lines(text)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()


@atexit.register
def _close_all() -> None:
    for worker in list(_LIVE):
        worker.close()


def _report_phases(source: str, phases: Any, waited: float) -> None:
    """With ``SCHEMALINT_VERBOSE`` set (``--verbose``), one stderr line naming how long each phase
    of loading ``source`` took, as the worker measured it (``phases``: name -> seconds), and how
    long the answer was awaited (``waited``)."""
    if not os.environ.get("SCHEMALINT_VERBOSE") or not isinstance(phases, dict):
        return
    shown = ", ".join(f"{k.replace('_', ' ')} {v:.3f} s" for k, v in phases.items() if isinstance(v, (int, float)))
    sys.stderr.write(f"schemalint: {source}: {shown}; answer after {waited:.3f} s\n")
    sys.stderr.flush()


NETWORK_FAILURES = re.compile(
    r"Name or service not known|Temporary failure in name resolution|nodename nor servname|getaddrinfo "
    r"(?:ENOTFOUND|EAI_AGAIN)|Network is unreachable|Connection refused|ECONNREFUSED|ENETUNREACH|"
    r"NameResolutionError|Max retries exceeded|Could not download|Failed to establish a new connection",
    re.IGNORECASE)
"""Lines a process writes when it cannot reach a host (resolver, socket and HTTP client errors of
Python and Node, and download retries such as fastembed's "Could not download model")."""


def network_failure(stderr: str) -> str | None:
    """The last line of ``stderr`` that says a host could not be reached (:data:`NETWORK_FAILURES`),
    shortened to 160 characters, or ``None``. An import that times out after such lines was waiting
    on the network, not hanging: measured on qdrant/mcp-server-qdrant, whose import downloads an
    embedding model and retries for more than 30 s without network."""
    for line in reversed(stderr.splitlines()):
        if NETWORK_FAILURES.search(line):
            line = line.strip()
            return line if len(line) <= 160 else line[:159] + "…"
    return None


class Worker:
    """One worker process speaking the bridge protocol (docs/runtime-bridge.md).

    ``cwd``: working directory of the worker (and of the imports); ``time_limit``: seconds
    per ``load``. Thread-safe (one request at a time); after ``fork`` a child process gets
    its own worker (replaying the loads) instead of sharing the parent's pipes.
    """

    def __init__(self, cwd: str | None = None, time_limit: float | None = None) -> None:
        self.cwd = cwd
        self.time_limit = time_limit if time_limit is not None else import_time_limit()
        self.proc: subprocess.Popen[bytes] | None = None
        self.stderr: _StderrTail | None = None
        self.owner = os.getpid()
        self.lock = threading.RLock()
        self.next_id = 0
        self.buffer = bytearray()
        self.loads: list[tuple[dict[str, Any], list[str]]] = []  # replayed after a restart
        self.ready = False
        self.last_answer = 0.0

    # -- process ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the process (it answers ``ready`` when it can take requests)."""
        env = dict(os.environ)
        env["PYTHONIOENCODING"] = "utf-8"
        from schemalint.bridge.reaper import before_spawn

        before_spawn()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=self.cwd, env=env, start_new_session=True, close_fds=True)
        self.stderr = _StderrTail(self.proc.stderr)
        self.buffer = bytearray()
        self.ready = False
        self.owner = os.getpid()
        _LIVE.add(self)

    def close(self) -> None:
        """Stop the worker and every process in its group; never raises."""
        proc, self.proc = self.proc, None
        _LIVE.discard(self)
        if proc is None:
            return
        requests, answers = self._channel(proc)
        with contextlib.suppress(OSError, ValueError):
            if proc.poll() is None and requests is not None:
                requests.close()
        _kill_group(proc)
        with contextlib.suppress(Exception):
            proc.wait(timeout=2)
        for pipe in (answers, proc.stdout, proc.stderr):
            with contextlib.suppress(Exception):
                if pipe is not None:
                    pipe.close()

    def _channel(self, proc: subprocess.Popen[bytes]) -> tuple[Any, Any]:
        """``(requests, answers)``: the pipe requests are written to and the one answers are read
        from (the Python worker's stdin and stdout; a subclass may use other descriptors)."""
        return proc.stdin, proc.stdout

    def _ensure(self) -> None:
        if self.proc is not None and self.owner != os.getpid():
            self.proc = None  # inherited through fork: the parent's pipes are not ours
        if self.proc is None:
            self.start()
            if not self.loads:
                return  # nothing to replay: the ready message is read with the first answer
            self._await_ready()
            for request, handles in self.loads:
                answer = self._exchange(dict(request), self.time_limit)
                got = [t.get("handle") for t in answer.get("tools") or ()]
                if not answer.get("ok") or got != handles:
                    raise WorkerFailure(f"{request.get('source')}: a second import gave different tools")

    def _await_ready(self) -> None:
        message = self._read(time.monotonic() + self.time_limit)
        if message.get("event") != "ready":
            raise WorkerFailure("the worker did not start the protocol")
        self.ready = True

    def describe_exit(self) -> str:
        """Why the process is gone, and what it wrote to stderr."""
        proc = self.proc
        status = ""
        if proc is not None:
            with contextlib.suppress(Exception):
                proc.wait(timeout=1)
            code = proc.returncode
            if code is not None:
                status = f" (exit status {code})" if code >= 0 else f" (killed by signal {-code})"
        return status + self.stderr_note()

    def stderr_note(self) -> str:
        """``"; stderr: ..."`` with the captured tail, or ``""``."""
        tail = self.stderr.text() if self.stderr is not None else ""
        return f"\nworker stderr (last lines):\n{tail}" if tail else ""

    # -- messages ---------------------------------------------------------------------

    def _read(self, deadline: float) -> dict[str, Any]:
        proc = self.proc
        assert proc is not None
        answers = self._channel(proc)[1]
        assert answers is not None
        fd = answers.fileno()
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                try:
                    message = json.loads(line)
                except ValueError:
                    message = None
                if not isinstance(message, dict):
                    from schemalint.textsafe import visible

                    shown = visible(line[:120].decode("utf-8", "replace"))
                    raise WorkerFailure(f"the worker sent a line that is not a protocol message: {shown!r}")
                return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], min(remaining, 0.5))
            if not ready:
                if proc.poll() is not None:
                    raise WorkerFailure("the worker process ended" + self.describe_exit())
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise WorkerFailure("the worker process ended" + self.describe_exit())
            self.buffer += chunk
            if len(self.buffer) > MAX_LINE:
                raise WorkerFailure(f"the worker sent a line longer than {MAX_LINE} bytes")

    def _submit(self, request: dict[str, Any]) -> int:
        proc = self.proc
        assert proc is not None
        requests = self._channel(proc)[0]
        assert requests is not None
        self.next_id += 1
        request["id"] = self.next_id
        data = json.dumps(request, ensure_ascii=True, allow_nan=False, default=str).encode("ascii") + b"\n"
        try:
            requests.write(data)
            requests.flush()
        except (BrokenPipeError, OSError):
            raise WorkerFailure("the worker process ended" + self.describe_exit()) from None
        return self.next_id

    def _collect(self, rid: int, deadline: float) -> dict[str, Any]:
        if not self.ready:
            self._await_ready()
        while True:
            message = self._read(deadline)
            if message.get("id") == rid:
                return message

    def _exchange(self, request: dict[str, Any], seconds: float | None, deadline: float | None = None
                  ) -> dict[str, Any]:
        rid = self._submit(request)
        end = deadline if deadline is not None else time.monotonic() + (seconds or VALIDATE_WAIT)
        return self._collect(rid, end)

    def request(self, request: dict[str, Any], seconds: float | None = None,
                deadline: float | None = None) -> dict[str, Any]:
        """Send ``request`` and return the answer with the same id.

        Raises :class:`WorkerFailure` (the worker is then stopped) or ``TimeoutError`` when
        no answer comes within ``seconds`` (or by the monotonic ``deadline``); any exception
        while waiting (an alarm, Ctrl-C) stops the worker too, so that no late answer is
        ever read as the answer to a later request.
        """
        with self.lock:
            try:
                self._ensure()
                return self._exchange(request, seconds, deadline)
            except BaseException:
                self.close()
                raise

    def submit_load(self, source: str, python_path: Sequence[str], extra: dict[str, Any] | None = None
                    ) -> tuple[int, dict[str, Any], float]:
        """Start the worker if needed and send a ``load`` request for ``source`` without waiting
        (the answer is read by :meth:`finish_load`), so the import runs while this process
        reads files. ``extra``: more request fields (the Node worker's ``file``, ``attr``,
        ``loader``). Returns ``(id, request, time sent)``."""
        request: dict[str, Any] = {"op": "load", "source": source, "python_path": [str(p) for p in python_path],
                                   **(extra or {})}
        if self.cwd:
            request["cwd"] = self.cwd
        with self.lock:
            try:
                if self.proc is None or self.owner != os.getpid():
                    self._ensure()
                return self._submit(dict(request)), request, time.monotonic()
            except TimeoutError:
                self.close()
                raise SourceError(f"{source}: the worker process did not start within {self.time_limit:g} s"
                                  + self.stderr_note()) from None
            except WorkerFailure as exc:
                self.close()
                raise SourceError(f"{source}: cannot import: {exc}") from None

    def finish_load(self, pending: tuple[int, dict[str, Any], float]) -> tuple[list[Tool], list[Diagnostic]]:
        """The tools (validators answered by the worker) and load problems of a request sent by
        :meth:`submit_load`. Raises :class:`SourceError` naming the source; the worker is then
        stopped."""
        from schemalint.bridge.protocol import diagnostic_from_wire, tool_from_wire

        rid, request, sent = pending
        source = str(request["source"])
        with self.lock:
            try:
                if not self.ready:
                    self._await_ready()
                answer = self._collect(rid, max(sent, self.last_answer) + self.time_limit)
                self.last_answer = time.monotonic()
            except TimeoutError:
                note = self.stderr_note()
                waited = network_failure(self.stderr.text() if self.stderr is not None else "")
                self.close()
                cause = (" (a module that hangs at import?)" if waited is None else
                         f", while it kept trying the network, which fails here (its stderr: {waited!r}): the "
                         "environment lacks a network service the module reaches at import (a download or a "
                         "connection); give it that access or a local copy it reads")
                raise SourceError(
                    f"{source}: importing and listing it did not finish within {self.time_limit:g} s{cause}; "
                    "the worker process was stopped. Raise the limit with SCHEMALINT_IMPORT_TIME_LIMIT"
                    + note) from None
            except WorkerFailure as exc:
                self.close()
                raise SourceError(f"{source}: cannot import: {exc} before answering (does the module "
                                  "exit or kill its process at import?)") from None
            except BaseException:
                self.close()
                raise
        if not answer.get("ok"):
            error = str(answer.get("error") or f"{source}: the worker refused the request")
            waited = None
            if "cannot import: " in error and "the environment lacks" not in error and self.stderr is not None:
                self.stderr.settle()
                waited = network_failure(self.stderr.text())
            if waited is not None:
                # The module caught its own network error and raised another (fastembed's "Could not
                # load model ... from any source"): what it wrote says what the environment lacks.
                error = error.replace("cannot import: ", "cannot import: the environment lacks a network service "
                                      f"the module reaches at import (its stderr: {waited!r}): ", 1)
            # A module that exited at import printed why (a usage text): its last lines are shown.
            note = self.stderr_note() if "called process.exit(" in error else ""
            self.close()
            raise SourceError(error + note)
        wires = answer.get("tools") or []
        _report_phases(source, answer.get("phases"), time.monotonic() - sent)
        self.loads.append((request, [w.get("handle") for w in wires]))
        try:
            tools = [tool_from_wire(w, self.validator) for w in wires]
            problems = [diagnostic_from_wire(d) for d in answer.get("problems") or ()]
        except (KeyError, TypeError, ValueError) as exc:
            raise SourceError(f"{source}: the worker's answer is malformed: {type(exc).__name__}: {exc}") from None
        for wire, tool in zip(wires, tools, strict=True):
            if wire.get("not_json"):
                problems.append(not_json_diagnostic(source, tool, wire["not_json"]))
        return tools, problems

    def load(self, source: str, python_path: Sequence[str]) -> tuple[list[Tool], list[Diagnostic]]:
        """Import ``source`` in the worker and wait for it (:meth:`submit_load` + :meth:`finish_load`)."""
        return self.finish_load(self.submit_load(source, python_path))

    def validator(self, handle: str) -> RemoteValidator:
        """The ``Contract.validate`` stand-in for the tool ``handle``."""
        return RemoteValidator(self, handle)


def not_json_diagnostic(source: str, tool: Tool, where: Sequence[str]) -> Diagnostic:
    """SL000 for a tool whose Python definition held what JSON cannot carry (``where``: the
    ``"pointer (what)"`` entries :func:`schemalint.bridge.protocol.jsonable` recorded), worded by
    kind: a cycle (an error: no SDK can encode the tool), parts nested too deeply to carry (cut,
    so not checked), values that are not JSON (read as a stand-in naming their class)."""
    raw = [w[len("/raw"):] or "(root)" for w in where if w.startswith("/raw/") or w.startswith("/raw ")]
    if raw:  # the same places as written in the definition (the advertised schema repeats them)
        where = raw
    cycles = [w for w in where if "(cycle" in w]
    deep = [w for w in where if "(nested more than" in w or "(more than" in w]
    other = [w for w in where if w not in cycles and w not in deep]

    def short(item: str) -> str:
        return item if len(item) <= 120 else f"{item[:50]}...{item[-60:]}"

    def listed(items: Sequence[str]) -> str:
        return ", ".join(short(i) for i in items[:5]) + (f" (+{len(items) - 5} more)" if len(items) > 5 else "")

    parts: list[str] = []
    hints: list[str] = []
    if cycles:
        parts.append(f"the tool's definition contains itself at {listed(cycles)}: JSON cannot carry a cycle "
                     "(json.dumps raises 'Circular reference detected'), so no SDK can send this tool; "
                     "schemalint cut it there")
        hints.append("build the schema without a reference back to an enclosing dict (copy it, or use $ref)")
    if deep:
        parts.append(f"the tool's definition nests deeper than schemalint reads from Python at {listed(deep)}; "
                     "the part below was cut and is not checked")
        hints.append("flatten the definition (use $defs and $ref for repeated parts)")
    if other:
        parts.append(f"the tool's schema holds values that are not JSON at {listed(other)}; schemalint reads "
                     "them as a stand-in string naming their type (a provider would refuse or mangle them)")
        hints.append("give the field a JSON default (a finite number, a string, null) or none")
    return Diagnostic(
        code="SL000", name="unreadable-source", severity=Severity.ERROR if cycles else Severity.WARNING,
        tool=tool.name, file=source, pointer="", message="; ".join(parts), hint="; ".join(hints))


class RemoteValidator:
    """``Contract.validate`` for a tool whose runtime lives in a worker process.

    :meth:`outcome_of` is what the probe engine calls (it gets the outcome as the worker
    classified it); calling the object itself raises like a local validator would.
    """

    def __init__(self, worker: Worker, handle: str) -> None:
        self.worker = worker
        self.handle = handle

    def outcome_of(self, arguments: Any, deadline: float | None = None) -> Any:
        """The :class:`schemalint.probe.Outcome` of the candidate call ``arguments``.

        ``deadline`` (monotonic seconds): past it the worker is stopped, and restarted for
        later calls, and the outcome is ``timeout``. A worker that dies gives ``crash``.
        """
        from schemalint.bridge.protocol import outcome_from_wire
        from schemalint.probe import Outcome

        request = {"op": "validate", "tool": self.handle, "arguments": arguments}
        wait = None if deadline is not None else VALIDATE_WAIT
        with _alarm_blocked_restart(self.worker):
            try:
                answer = self.worker.request(request, wait, None if deadline is None else deadline + 0.5)
            except TimeoutError:
                return Outcome("timeout", "the validator did not answer in time", "timeout")
            except (WorkerFailure, SourceError) as exc:
                return Outcome("crash", str(exc).splitlines()[0][:300], "WorkerExit")
        if not answer.get("ok"):
            return Outcome("crash", str(answer.get("error"))[:300], "WorkerError")
        return outcome_from_wire(answer.get("outcome") or {})

    def __call__(self, arguments: Any) -> Any:
        outcome = self.outcome_of(arguments)
        if outcome.status == "accepted":
            return arguments
        if outcome.status == "refused":
            raise RemoteValidationError(outcome)
        raise RemoteCrash(f"{outcome.error_type}: {outcome.message}")


class RemoteValidationError(ValueError):
    """The worker's runtime refused the call; ``errors()`` lists what it named (pydantic-like)."""

    def __init__(self, outcome: Any) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome

    def errors(self) -> list[dict[str, Any]]:
        """One ``{"loc", "type", "msg"}`` per error (``loc`` from the error's path)."""
        from schemalint.model import split_pointer

        return [{"loc": tuple(split_pointer(p)), "type": t, "msg": m} for p, t, m in self.outcome.details]


class RemoteCrash(RuntimeError):
    """The worker's runtime raised something other than a validation error."""


@contextlib.contextmanager
def held_signals(*signums: int) -> Iterator[None]:
    """Hold ``signums`` back while inside (main thread only; elsewhere nothing is held): a
    signal that arrives is recorded and raised again, with the previous handler back in
    place, on the way out. A signal mask would not do: Python runs its handlers in the main
    thread whichever thread the kernel chose, and worker stderr threads do not block them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []
    saved: dict[int, Any] = {}
    for signum in signums:
        with contextlib.suppress(OSError, ValueError):
            saved[signum] = signal.signal(signum, lambda n, _frame: fired.append(n))
    try:
        yield
    finally:
        for signum, old in saved.items():
            signal.signal(signum, old)
        for signum in dict.fromkeys(fired):
            signal.raise_signal(signum)


@contextlib.contextmanager
def _alarm_blocked_restart(worker: Worker) -> Iterator[None]:
    """After a request interrupted by the probe alarm, restart the worker (replaying its loads)
    with the alarm held back, so that the next tool finds a worker ready and its own time
    budget is not spent on the re-import. The interruption then goes on as it was."""
    try:
        yield
    except BaseException as exc:
        from schemalint.probe import _ProbeTimeout

        if isinstance(exc, _ProbeTimeout) and threading.current_thread() is threading.main_thread():
            fired: list[int] = []
            old = signal.signal(signal.SIGALRM, lambda n, _frame: fired.append(n))
            try:
                with worker.lock, contextlib.suppress(Exception):
                    worker._ensure()
            finally:
                signal.signal(signal.SIGALRM, old)
        raise


class PendingSources:
    """``module:attr`` sources sent to one worker, whose answers are read by :meth:`finish`."""

    def __init__(self, sources: Sequence[str], python_path: Sequence[str], cwd: str | None,
                 time_limit: float | None) -> None:
        self.worker = Worker(cwd=cwd, time_limit=time_limit)
        try:
            self.pending = [self.worker.submit_load(s, python_path) for s in sources]
        except BaseException:
            self.worker.close()
            raise

    def finish(self) -> tuple[list[Tool], list[Diagnostic]]:
        """The tools (in source order) and load problems (SL000 diagnostics). Raises
        :class:`SourceError` for the first source that cannot be loaded (the worker is stopped)."""
        tools: list[Tool] = []
        problems: list[Diagnostic] = []
        try:
            for pending in self.pending:
                got, found = self.worker.finish_load(pending)
                tools.extend(got)
                problems.extend(found)
        except BaseException:
            self.worker.close()
            raise
        if not any(t.runtime is not None and t.runtime.validate is not None for t in tools):
            self.worker.close()
        return tools, problems


def stop_workers(tools: Sequence[Tool]) -> None:
    """Stop the worker processes answering the validators of ``tools`` (a later call of one of
    those validators starts its worker again, replaying the loads)."""
    seen: set[int] = set()
    for tool in tools:
        validate = tool.runtime.validate if tool.runtime is not None else None
        worker = getattr(validate, "worker", None)
        if isinstance(worker, Worker) and id(worker) not in seen:
            seen.add(id(worker))
            with worker.lock:
                worker.close()


def load_python_sources(sources: Sequence[str], python_path: Sequence[str] = (), *, cwd: str | None = None,
                        time_limit: float | None = None) -> tuple[list[Tool], list[Diagnostic]]:
    """Import each ``module:attr`` of ``sources`` in one worker process and return the tools
    (in source order) and the load problems (SL000 diagnostics).

    ``cwd``: the directory the imports run in (default: this process's); ``time_limit``:
    seconds per source (default :func:`import_time_limit`). Raises :class:`SourceError`
    for the first source that cannot be loaded.
    """
    return PendingSources(sources, python_path, cwd, time_limit).finish()


@contextlib.contextmanager
def terminate_as_exit() -> Iterator[None]:
    """While inside, SIGTERM (and SIGHUP) raise ``SystemExit(128 + signal)`` in the main thread
    instead of killing the process outright, so ``finally`` blocks (a temporary git worktree,
    a worker process) run. Elsewhere than the main thread it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    saved = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(OSError, ValueError):
            if signal.getsignal(sig) in (signal.SIG_DFL, None):
                saved[sig] = signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)
