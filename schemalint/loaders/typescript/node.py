"""Node for TypeScript sources: find ``node``, choose how TypeScript is run, start the worker.

The worker is ``schemalint/bridge/node_worker.mjs`` (package data). It speaks the bridge
protocol of docs/runtime-bridge.md on two private pipes (file descriptors passed in
``SCHEMALINT_BRIDGE_FDS``), not on stdin/stdout: its standard input is an empty pipe that stays
open and is never written (a server started at import that exits when its stdin ends, as MCP
stdio entry points do, keeps running and is listed; ``/dev/null`` ended it at once) and its
standard output goes to the same pipe as its stderr, so what the imported module prints (or
an MCP stdio transport it starts) never reaches the protocol channel.

TypeScript without a build step (docs/typescript.md): the project's own ``tsx`` (found in a
``node_modules`` folder at or above the module's folder) when it has one, else Node's type
stripping (``--experimental-strip-types``, Node 22.6 and later; on by default from 22.18 and
23.6), else a :class:`SourceError` naming what to install.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from schemalint.bridge.client import _LIVE, Worker, _StderrTail
from schemalint.errors import SourceError

WORKER_SCRIPT = Path(__file__).resolve().parent.parent.parent / "bridge" / "node_worker.mjs"
TS_SUFFIXES = (".ts", ".mts", ".cts")
STRIP_FLAG = "--experimental-strip-types"


def find_node(source: str) -> str:
    """The ``node`` executable on ``PATH``; :class:`SourceError` (one line, exit 2) when there is none."""
    node = shutil.which("node")
    if node is None:
        raise SourceError(f"{source}: TypeScript and JavaScript sources need Node.js, and no `node` was found on PATH "
                          "(install Node.js 20 or later)")
    return node


@functools.lru_cache(maxsize=8)
def node_version(node: str) -> tuple[int, int, int]:
    """``node --version`` as a tuple (``(0, 0, 0)`` when it cannot be read)."""
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return (0, 0, 0)
    m = re.match(r"v(\d+)\.(\d+)\.(\d+)", out.strip())
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else (0, 0, 0)


def strips_types(version: tuple[int, int, int]) -> str | None:
    """How this Node version runs ``.ts`` files itself: ``""`` (by default), the flag to pass,
    or ``None`` (it cannot; Node 22.6 added type stripping behind a flag, 22.18 and 23.6 turned
    it on by default)."""
    if version >= (23, 6, 0) or (22, 18, 0) <= version < (23, 0, 0):
        return ""
    if version >= (22, 6, 0):
        return STRIP_FLAG
    return None


def find_package(name: str, start: Path) -> Path | None:
    """The folder of package ``name`` as Node would find it from ``start`` (``node_modules``
    at ``start`` or above), or ``None``."""
    for folder in (start, *start.parents):
        candidate = folder / "node_modules" / name
        if (candidate / "package.json").is_file():
            return candidate
    return None


def tsx_api(start: Path) -> str | None:
    """The file of the project's ``tsx/esm/api`` (its ``register()`` makes ``import()`` read
    TypeScript), found from ``start``; ``None`` when the project has no tsx."""
    folder = find_package("tsx", start)
    if folder is None:
        return None
    try:
        meta = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    target: Any = (meta.get("exports") or {}).get("./esm/api") if isinstance(meta.get("exports"), dict) else None
    for _ in range(4):
        if isinstance(target, dict):
            target = target.get("import") or target.get("default")
    path = folder / target if isinstance(target, str) else folder / "dist" / "esm" / "api" / "index.mjs"
    return str(path) if path.is_file() else None


REACT_SERVER_FLAG = "--conditions=react-server"
SERVER_PACKAGES = ("next", "server-only")
"""A module whose ``package.json`` depends on one of these is server code of a React Server
Components framework: Next.js loads it with the ``react-server`` condition, and ``server-only``
(which such modules import) throws when imported without it."""


def needs_react_server(module: Path) -> bool:
    """True when the nearest ``package.json`` at or above ``module``'s folder depends on
    :data:`SERVER_PACKAGES` (``dependencies``, ``devDependencies`` or ``peerDependencies``), or the
    module imports ``server-only`` itself: it is then imported with Node's ``--conditions=react-server``,
    the conditions the framework resolves server code with."""
    try:
        text = module.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        text = ""
    if re.search(r"""(?:import|require\()\s*["']server-only["']""", text):
        return True
    for folder in module.parents:
        meta_file = folder / "package.json"
        if not meta_file.is_file():
            continue
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(meta, dict):
            return False
        for key in ("dependencies", "devDependencies", "peerDependencies"):
            deps = meta.get(key)
            if isinstance(deps, dict) and any(p in deps for p in SERVER_PACKAGES):
                return True
        return False
    return False


class NodeWorker(Worker):
    """A :class:`~schemalint.bridge.client.Worker` running ``node node_worker.mjs``.

    ``node``: the executable; ``flags``: Node options (e.g. ``--experimental-strip-types``).
    Requests go through a pipe on the child's descriptor named in ``SCHEMALINT_BRIDGE_FDS``,
    answers come back on another; stdout and stderr of the child share one pipe, drained
    into the stderr tail.
    """

    def __init__(self, node: str, flags: tuple[str, ...] = (), cwd: str | None = None,
                 time_limit: float | None = None) -> None:
        super().__init__(cwd=cwd, time_limit=time_limit)
        self.node = node
        self.flags = flags
        self.requests: Any = None
        self.answers: Any = None
        self.errors: Any = None
        self.stdin_hold: int | None = None

    def start(self) -> None:
        """Start ``node`` with the protocol on two private pipes."""
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        err_r, err_w = os.pipe()
        in_r, in_w = os.pipe()
        env = dict(os.environ)
        env["SCHEMALINT_BRIDGE_FDS"] = f"{req_r},{ans_w}"
        try:
            from schemalint.bridge.reaper import before_spawn

            before_spawn()
            self.proc = subprocess.Popen(
                [self.node, *self.flags, str(WORKER_SCRIPT)], stdin=in_r, stdout=err_w, stderr=err_w,
                cwd=self.cwd, env=env, start_new_session=True, close_fds=True, pass_fds=(req_r, ans_w))
        except OSError as exc:
            for fd in (req_r, req_w, ans_r, ans_w, err_r, err_w, in_r, in_w):
                with contextlib.suppress(OSError):
                    os.close(fd)
            from schemalint.bridge.client import WorkerFailure

            raise WorkerFailure(f"cannot start node: {exc}") from None
        for fd in (req_r, ans_w, err_w, in_r):
            os.close(fd)
        self.stdin_hold = in_w  # never written; closed with the worker
        self.requests = os.fdopen(req_w, "wb")
        self.answers = os.fdopen(ans_r, "rb", buffering=0)
        self.errors = os.fdopen(err_r, "rb", buffering=0)
        self.stderr = _StderrTail(self.errors)
        self.buffer = bytearray()
        self.ready = False
        self.owner = os.getpid()
        _LIVE.add(self)

    def _channel(self, proc: subprocess.Popen[bytes]) -> tuple[Any, Any]:
        return self.requests, self.answers

    def close(self) -> None:
        """Stop the worker (and its process group) and close the pipes; never raises."""
        had = self.proc is not None
        super().close()
        if had:
            for pipe in (self.requests, self.answers):
                with contextlib.suppress(Exception):
                    if pipe is not None:
                        pipe.close()
            self.requests = self.answers = None
            hold, self.stdin_hold = self.stdin_hold, None
            if hold is not None:
                with contextlib.suppress(OSError):
                    os.close(hold)
            errors, self.errors = self.errors, None
            tail = self.stderr
            if tail is not None:
                tail.thread.join(timeout=1)
            with contextlib.suppress(Exception):
                if errors is not None:
                    errors.close()
