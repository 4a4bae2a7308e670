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
