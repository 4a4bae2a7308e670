"""Shared test fixtures: the repository root, ../shared, and a CLI runner."""

from __future__ import annotations

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


def run_json(*args: str, cwd: Path | str | None = None) -> tuple[int, dict[str, Any]]:
    """Run a command with ``--format json`` and return ``(exit code, parsed report)``."""
    proc = run_cli(*args, "--format", "json", cwd=cwd)
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
    if os.environ.get("SCHEMALINT_REQUIRE_SHARED") and not CORPUS.is_dir():
        raise pytest.UsageError(f"SCHEMALINT_REQUIRE_SHARED is set but {CORPUS} is missing")
    if os.environ.get("SCHEMALINT_REQUIRE_NODE") and NODE_MISSING:
        raise pytest.UsageError(f"SCHEMALINT_REQUIRE_NODE is set but {NODE_MISSING}")


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
    other workers take the single tests meanwhile (longest work first). Order within a group,
    and among the other tests, is kept; every worker collects the same order."""
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
    items.sort(key=lambda it: order.get(group(it) or "", len(order)))  # stable: other orders kept
