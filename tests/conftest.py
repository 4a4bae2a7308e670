"""Shared test fixtures: the repository root, ../shared, and a CLI runner."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("SCHEMALINT_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus"
CASES = SHARED / "cases"

needs_shared = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason=f"needs the shared corpus and cases at {SHARED} (only project members have it; "
    "set SCHEMALINT_SHARED to point elsewhere)",
)


def run_cli(*args: str, cwd: Path | str | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run ``python -m schemalint ARGS`` in a subprocess, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "schemalint", *args],
        capture_output=True,
        text=True,
        cwd=cwd or ROOT,
        timeout=timeout,
    )


IN_PROCESS = os.environ.get("SCHEMALINT_TEST_CLI", "in-process") != "subprocess"
"""Whether :func:`cli` runs commands inside the test process (the default) or, with
``SCHEMALINT_TEST_CLI=subprocess``, each in a new ``python -m schemalint`` process: the way to
check that a test file means the same both ways (``SCHEMALINT_TEST_CLI=subprocess pytest FILE``)."""

NEEDS_A_PROCESS = frozenset({"probe", "server", "mcp", "--watch", "--jobs", "-j"})
"""Words of a command line that :func:`cli` always runs in a new process: probe (hypothesis, an
interval timer and SIGALRM in the process that runs it), the servers, watch (signal handlers,
a loop), ``--jobs`` (forks the caller), ``--verbose`` (the Node and Python workers' phases)."""


class _ProcessExit(BaseException):
    """``os._exit(code)`` called by the command run in-process (the CLI ends the process so on an
    unwritable output or a plugin that cannot be used): the process's exit code, not the end of
    the test process."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def cli(*args: str, cwd: Path | str | None = None, timeout: float = 600, input: str | None = None,
        env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``schemalint ARGS`` as :func:`run_cli` runs it (same arguments, same result: exit code,
    stdout and stderr as text), but inside this test process, through :func:`schemalint.cli.main`
    with ``sys.argv`` set: a command costs its work, not a Python start and the imports again
    (0.6 s of CPU per call, and the suite made thousands). Use it where the command's behaviour is
    tested, not the process (start-up time, signals, children that outlive it, the console
    script): those tests call :func:`run_cli` or ``subprocess`` themselves.

    What a process would give is given here too: the working directory ``cwd``; file
    descriptors 1 and 2 redirected to files for the call (what the command and its children, the
    Node and Python workers and MCP servers, write is captured, as through a pipe: no terminal);
    standard input from ``input`` (or empty, like ``/dev/null``); ``os.environ`` (``env``, the whole
    environment as ``subprocess.run`` takes it, or this process's), signal handlers
    and the program name (``python -m schemalint`` in usage lines) as a new process has them,
    restored afterwards with the working directory; an exception that escapes the command is a
    traceback on stderr and exit 1, as Python ends a process with it; ``os._exit(n)`` is exit n;
    worker processes the command left open are closed, as the process's end closes them.
    Not done in-process (a new process runs them): command lines with a word of
    :data:`NEEDS_A_PROCESS`, an ``env`` that changes a ``PYTHON*`` variable (read when Python
    starts), and everything with ``SCHEMALINT_TEST_CLI=subprocess``. ``timeout``:
    past it the test process dumps its stacks and ends (a hang fails the test, as in a process)."""
    if os.environ.get("SCHEMALINT_TEST_CLI_LOG"):  # one line per command, to count them (a file path)
        with open(os.environ["SCHEMALINT_TEST_CLI_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '').split(' ')[0]}\t{' '.join(args)[:200]}\n")
    python_vars = {k: v for k, v in (env or {}).items() if k.startswith("PYTHON")}
    starts_python = env is not None and python_vars != {k: v for k, v in os.environ.items() if k.startswith("PYTHON")}
    if (not IN_PROCESS or starts_python or NEEDS_A_PROCESS.intersection(args)
            or any(a.startswith("--jobs=") for a in args)):
        return subprocess.run([sys.executable, "-m", "schemalint", *args], capture_output=True, text=True,
                              cwd=cwd or ROOT, timeout=timeout, input=input, env=env)
    import faulthandler
    import signal
    import tempfile
    import traceback
    import types

    import schemalint.cli as schemalint_cli
    from schemalint.bridge import client, reaper
    from schemalint.loaders.files import evidence

    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_argv, saved_main = sys.argv, sys.modules.get("__main__")
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    signals = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM, signal.SIGPIPE)
    saved_handlers = {s: signal.getsignal(s) for s in signals}
    saved_enable, saved_exit = reaper.enable, os._exit
    live_before = set(client._LIVE)
    me = os.getpid()
    real_exit = os._exit

    def fake_exit(code: int) -> None:
        if os.getpid() != me:  # a forked child (multiprocessing) ends as it would
            real_exit(code)
        raise _ProcessExit(code)

    # python -m schemalint: click names the program "python -m schemalint" from __main__'s package
    main = types.ModuleType("__main__")
    main.__package__ = "schemalint"
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp:
        inp.write((input or "").encode())
        inp.seek(0)
        saved_fds = os.dup(0), os.dup(1), os.dup(2)
        streams: list[Any] = []
        code = 0
        try:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(inp.fileno(), 0)
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            streams = [open(0, encoding="utf-8", closefd=False),  # noqa: SIM115 - closed below
                       open(1, "w", encoding="utf-8", closefd=False),  # noqa: SIM115
                       open(2, "w", encoding="utf-8", closefd=False, buffering=1)]  # noqa: SIM115
            sys.stdin, sys.stdout, sys.stderr = streams
            sys.argv = [os.path.join(os.path.dirname(schemalint_cli.__file__), "..", "__main__.py"), *args]
            sys.modules["__main__"] = main
            reaper.enable = lambda: None  # type: ignore[assignment]  # no subreaper: see the docstring
            os._exit = fake_exit  # type: ignore[assignment]
            for s in signals:
                signal.signal(s, signal.SIG_IGN if s == signal.SIGPIPE else signal.default_int_handler
                              if s == signal.SIGINT else signal.SIG_DFL)
            os.chdir(cwd or ROOT)
            if env is not None:
                os.environ.clear()
                os.environ.update(env)
            faulthandler.dump_traceback_later(timeout, exit=True, file=saved_fds[2])
            try:
                schemalint_cli.main()
            except SystemExit as exc:
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    sys.stderr.write(f"{exc.code}\n")
                    code = 1
            except _ProcessExit as exc:
                code = exc.code
            except KeyboardInterrupt:
                raise
            except BaseException:  # what Python does with an exception nothing caught
                sys.stderr.write(traceback.format_exc())
                code = 1
            finally:
                faulthandler.cancel_dump_traceback_later()
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(ValueError, OSError):
                        stream.flush()
        finally:
            for worker in set(client._LIVE) - live_before:  # the end of the process would close them
                with worker.lock:
                    worker.close()
            os.chdir(saved_cwd)
            os._exit = saved_exit  # type: ignore[assignment]
            reaper.enable = saved_enable  # type: ignore[assignment]
            for s, handler in saved_handlers.items():
                signal.signal(s, handler)
            sys.argv = saved_argv
            if saved_main is not None:
                sys.modules["__main__"] = saved_main
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            for stream in streams:
                with contextlib.suppress(ValueError, OSError):
                    stream.close()
            for target, fd in zip((0, 1, 2), saved_fds, strict=True):
                os.dup2(fd, target)
                os.close(fd)
            os.environ.clear()
            os.environ.update(saved_env)
            evidence._repository_root.cache_clear()  # keyed by folder: a test may `git init` one later
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        stderr = err.read().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    return subprocess.CompletedProcess(["schemalint", *args], code, stdout, stderr)


def load_in(cwd: Path | str, *sources: str) -> Any:
    """``schemalint.engine.load(sources)`` with ``cwd`` as the working directory (restored after),
    as the CLI loads sources named relative to the folder it runs in."""
    from schemalint.engine import load

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return load(list(sources))
    finally:
        os.chdir(old)


def run_json(*args: str, cwd: Path | str | None = None) -> tuple[int, dict[str, Any]]:
    """Run a command with ``--format json`` and return ``(exit code, parsed report)``."""
    proc = run_cli(*args, "--format", "json", cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def cli_json(*args: str, cwd: Path | str | None = None) -> tuple[int, dict[str, Any]]:
    """:func:`run_json` through :func:`cli` (in-process)."""
    proc = cli(*args, "--format", "json", cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def load_case(name: str) -> dict[str, Any]:
    """One case file from ../shared/cases by file-name prefix (e.g. ``"033"``)."""
    matches = sorted(CASES.glob(f"{name}*.json"))
    assert matches, f"no case {name} in {CASES}"
    return json.loads(matches[0].read_text())  # type: ignore[no-any-return]


HYPOTHESIS_THOROUGH = 400
"""``max_examples`` of the ``thorough`` hypothesis profile (``pytest --hypothesis-profile thorough``)."""


def _hypothesis_profiles() -> None:
    """Two hypothesis profiles: ``ci`` (loaded by default: hypothesis's own 100 examples) and
    ``thorough`` (400). The property tests that ask for many examples write
    ``@settings(max_examples=examples(N))``: N under ``thorough``, a quarter of N (never fewer than
    100, hypothesis's default) under ``ci``. The properties are the same; the README's test
    command runs ``ci`` so the suite stays under 10 minutes, and a change to the code those tests
    guard is worth one ``--hypothesis-profile thorough`` run of their files."""
    try:
        from hypothesis import settings
    except ImportError:  # pragma: no cover - the test extra brings hypothesis
        return
    settings.register_profile("ci", max_examples=100)
    settings.register_profile("thorough", max_examples=HYPOTHESIS_THOROUGH)
    if settings.get_current_profile_name() == "default":  # not once more when imported as tests.conftest
        settings.load_profile("ci")


_hypothesis_profiles()


def examples(thorough: int) -> int:
    """``max_examples`` for a property test that asks for ``thorough`` examples: all of them under
    the ``thorough`` profile, a quarter (at least 100, or ``thorough`` when smaller) under ``ci``."""
    from hypothesis import settings

    scaled = round(thorough * settings.default.max_examples / HYPOTHESIS_THOROUGH)
    return max(min(thorough, 100), scaled)


@pytest.fixture
def repo_root() -> Path:
    return ROOT


def pytest_configure(config: pytest.Config) -> None:
    """In CI (SCHEMALINT_REQUIRE_SHARED=1) a missing ../shared is a failure, not a skip; with
    SCHEMALINT_REQUIRE_NODE=1 a missing Node, npm or examples/typescript/node_modules is one too.

    Checked at configure time, not at collection: under pytest-xdist (``-n``) the controller
    collects nothing, and a worker's collection error would not stop the run; ``pytest_configure``
    runs in the controller (and in every worker), so the run stops at once with exit code 4."""
    if not hasattr(config, "workerinput"):  # the controller (or a run without -n), before any worker
        _compile_package()
    if os.environ.get("SCHEMALINT_REQUIRE_SHARED") and not CORPUS.is_dir():
        raise pytest.UsageError(f"SCHEMALINT_REQUIRE_SHARED is set but {CORPUS} is missing")
    if os.environ.get("SCHEMALINT_REQUIRE_NODE") and NODE_MISSING:
        raise pytest.UsageError(f"SCHEMALINT_REQUIRE_NODE is set but {NODE_MISSING}")


def _compile_package() -> None:
    """Write the bytecode of every module of ``schemalint/`` once, before the tests start.

    The package is installed editable (``pip install -e``), which compiles nothing, and where
    ``PYTHONDONTWRITEBYTECODE`` is set (this CI machine sets it) no process writes bytecode either:
    every ``python -m schemalint`` a test starts compiled the ~125 modules it imports again (0.2 s
    for a small check, 0.8 s for one that loads the rules and the diff). A wheel's install compiles
    them, as here. ``compileall`` writes each file atomically, so a concurrent import reads either
    no bytecode or a whole one; a file that does not compile is left to the test that imports it."""
    import compileall

    compileall.compile_dir(str(ROOT / "schemalint"), quiet=2)


REPOS = SHARED / "repos"

TS_EXAMPLE = ROOT / "examples" / "typescript"


def _node_missing() -> str:
    """Why the TypeScript tests cannot run here (``""`` when they can)."""
    import shutil

    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not on PATH (install Node.js 20 or later)"
    for folder in (TS_EXAMPLE / "node_modules", TS_EXAMPLE / "zod-fixed" / "node_modules"):
        if not folder.is_dir():
            return f"{folder.relative_to(ROOT)} is missing (run `npm ci --prefix examples/typescript`)"
    return ""


NODE_MISSING = _node_missing()

needs_node = pytest.mark.skipif(
    bool(NODE_MISSING),
    reason=f"needs Node and the example's npm packages: {NODE_MISSING} (SCHEMALINT_REQUIRE_NODE=1 makes this "
    "a failure)",
)

needs_repos = pytest.mark.skipif(
    not REPOS.is_dir(),
    reason=f"needs the real-repository data sets at {REPOS} (only project members have it; "
    "set SCHEMALINT_SHARED to point elsewhere)",
)


def internal_errors(diagnostics: Any) -> list[str]:
    """The ``SL999 internal-error`` diagnostics (Diagnostic objects or JSON dicts) as text, for
    ``assert not internal_errors(...)``; also catches the old form, a rule code with
    "could not check ... internal error"."""
    out = []
    for d in diagnostics:
        code, message, file = ((d["code"], d["message"], d["file"]) if isinstance(d, dict)
                               else (d.code, d.message, d.file))
        if code == "SL999" or "internal error" in message:
            out.append(f"{file}: {code} {message}")
    return out


@pytest.fixture(scope="session")
def corpus_loaded() -> Any:
    """``schemalint.api.load([CORPUS])`` (a :class:`~schemalint.api.LoadResult`: tools, documents,
    diagnostics) computed once per test process and shared by the tests that only read it: loading
    the ~20,000 tools of the corpus took 6-10 s each time, and a dozen tests did it. Tests must not
    change the tools or documents it holds (loading is deterministic, so a fresh load is equal)."""
    if not CORPUS.is_dir():
        pytest.skip(f"needs the shared corpus at {SHARED}")
    from schemalint.api import load

    return load([str(CORPUS)])


CORPUS_CHECKED_GROUP = "corpus-checked"
"""The ``xdist_group`` of the tests that read :func:`corpus_checked`: on one pytest-xdist worker the
session fixture is computed once; spread over two it was computed on each (~10 s of CPU)."""


@pytest.fixture(scope="session")
def corpus_checked() -> Any:
    """``schemalint.api.check([CORPUS], stream=False, jobs=1)``: the corpus checked in memory in one
    process (the reference route), computed once per test process from the repository root. The
    tests that compare another route (held workers, streaming, shards) with it each run their own
    route; only this reference, which each of them computed anew, is shared. Read-only."""
    if not CORPUS.is_dir():
        pytest.skip(f"needs the shared corpus at {SHARED}")
    from schemalint.api import check

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        return check([str(CORPUS)], stream=False, jobs=1)
    finally:
        os.chdir(here)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under ``--dist loadgroup`` (the README's test command) the tests of one ``xdist_group`` run
    whole on one worker, in the order collected; a group collected last (a module that builds a
    wheel, a pre-commit environment, runs every documented command) then ran alone at the end
    while the other worker idled. The grouped tests go first, the largest group first, so the
    other workers take the single tests meanwhile (longest work first), then the tests that need
    Node (:data:`needs_node`), then the rest. Order within a group, and among the other tests, is
    kept; every worker collects the same order."""
    if config.getoption("dist", default="no") != "loadgroup" and not hasattr(config, "workerinput"):
        return

    def group(item: pytest.Item) -> str | None:
        mark = item.get_closest_marker("xdist_group")
        if mark is None:
            return None
        return str(mark.args[0] if mark.args else mark.kwargs.get("name", ""))

    sizes: dict[str, int] = {}
    for item in items:
        name = group(item)
        if name is not None:
            sizes[name] = sizes.get(name, 0) + 1
    order = {name: rank for rank, name in enumerate(sorted(sizes, key=lambda n: (-sizes[n], n)))}

    def rank(item: pytest.Item) -> tuple[int, int]:
        name = group(item)
        if name is not None:
            return (0, order[name])
        # Node tests start a Node worker per command, the slowest single tests; collected last
        # (test_typescript*.py), they ran at the end while the other worker idled
        return (1, 0) if any(mark == needs_node.mark for mark in item.iter_markers("skipif")) else (2, 0)

    items.sort(key=rank)  # stable: other orders kept


def pytest_collection_finish(session: pytest.Session) -> None:
    """On a pytest-xdist worker under ``--dist loadgroup``: fail the run when a test marked with
    ``xdist_group`` did not get its group (the ``@name`` suffix of its node id, which the scheduler
    groups by). With pytest 9.2 and pytest-xdist 3.8 that happened silently (pytest-dev/pytest-xdist
    #1386): every grouped module's shared setup (hook environments, a plugin venv, a wheel, corpus
    fixtures) was built on each worker and the suite took minutes longer."""
    config = session.config
    if not hasattr(config, "workerinput") or not config.getvalue("loadgroup"):
        return
    lost = [item.nodeid for item in session.items
            if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(
            f"--dist loadgroup ignores xdist_group here (pytest {pytest.__version__}; see "
            f"pytest-dev/pytest-xdist#1386), e.g. {lost[0]}: install the versions pyproject.toml's "
            "test extra allows")
