"""``diff OLD NEW`` honours ``--exclude`` and the configured ``exclude`` on every side read from
files (a directory, a file, ``REV:PATH``), as ``diff --base`` and ``check`` do (docs/diff.md).

Real directories and a real git repository in tmp dirs; the program runs as a subprocess (the
typer-free path of a plain command line) and through typer (``--exclude`` with ``--python-path``).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli


def _tool(name: str, required: list[str]) -> dict[str, Any]:
    return {"name": name, "description": f"Look up {name} records.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": required}}


def _side(root: Path, generated: list[dict[str, Any]]) -> Path:
    (root / "gen").mkdir(parents=True)
    (root / "tools.json").write_text(json.dumps({"tools": [_tool("search", ["q"])]}, indent=1))
    (root / "gen" / "generated.json").write_text(json.dumps({"tools": generated}, indent=1))
    return root


@pytest.fixture
def sides(tmp_path: Path) -> Path:
    """``old/`` and ``new/``: ``tools.json`` identical, ``gen/generated.json`` loses a tool and
    changes another in ``new``."""
    _side(tmp_path / "old", [_tool("gen_a", []), _tool("gen_b", [])])
    _side(tmp_path / "new", [_tool("gen_a", ["q"])])
    return tmp_path


def diff(cwd: Path, *args: str) -> dict[str, Any]:
    proc = cli("diff", *args, "--format", "json", "--fail-on", "never", cwd=cwd, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {t["tool"]: t["status"] for t in report["tools"]}


def test_without_exclude_the_generated_file_is_compared(sides: Path) -> None:
    assert statuses(diff(sides, "old", "new")) == {"gen_a": "changed", "gen_b": "removed", "search": "identical"}


@pytest.mark.parametrize("pattern", ["gen", "gen/*", "*/gen/*", "generated.json", "gen/"])
def test_exclude_leaves_the_file_out_of_both_directories(sides: Path, pattern: str) -> None:
    assert statuses(diff(sides, "old", "new", "--exclude", pattern)) == {"search": "identical"}


def test_exclude_through_typer_too(sides: Path) -> None:
    """``--python-path`` is not on the typer-free path: the same result through typer."""
    report = diff(sides, "old", "new", "--exclude", "gen", "--python-path", "src")
    assert statuses(report) == {"search": "identical"}


def test_a_pattern_of_one_side_leaves_it_out_of_that_side_only(sides: Path) -> None:
    """Patterns match the path as walked (as ``check`` matches it): ``old/gen/*`` names one side."""
    assert statuses(diff(sides, "old", "new", "--exclude", "old/gen/*")) == {
        "gen_a": "added", "search": "identical"}


def test_the_configured_exclude_applies(sides: Path) -> None:
    (sides / "schemalint.toml").write_text('exclude = ["gen"]\n')
    assert statuses(diff(sides, "old", "new")) == {"search": "identical"}
    assert statuses(diff(sides, "old/gen/generated.json", "new/gen/generated.json")) == {}


def test_an_excluded_file_named_as_a_side_has_no_tools(sides: Path) -> None:
    report = diff(sides, "old/tools.json", "new/gen/generated.json", "--exclude", "generated.json")
    assert statuses(report) == {"search": "removed"}


def _git(root: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=root, check=True, env=env, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose ``tools/`` was committed as ``old/`` is, then edited to ``new/``."""
    root = tmp_path / "repo"
    _side(root / "tools", [_tool("gen_a", []), _tool("gen_b", [])])
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "v1")
    (root / "tools" / "gen" / "generated.json").write_text(json.dumps({"tools": [_tool("gen_a", ["q"])]}))
    return root


@pytest.mark.parametrize("old", ["HEAD:tools", "HEAD:./tools/", "HEAD:tools/gen/generated.json"])
def test_rev_path_sides_honour_exclude_as_the_working_tree_does(repo: Path, old: str) -> None:
    new = "tools/gen/generated.json" if old.endswith(".json") else "tools"
    assert statuses(diff(repo, old, new))["gen_b"] == "removed"
    for pattern in ("gen", "tools/gen/*", "generated.json"):
        got = statuses(diff(repo, old, new, "--exclude", pattern))
        assert got == ({} if old.endswith(".json") else {"search": "identical"}), pattern


def test_rev_path_and_base_exclude_the_same_files(repo: Path) -> None:
    """``diff HEAD:tools tools --exclude P`` finds what ``diff --base HEAD tools --exclude P`` finds."""
    for pattern in ("gen", "tools/gen/*", "*.json", "nothing"):
        by_path = diff(repo, "HEAD:tools", "tools", "--exclude", pattern)
        by_base = diff(repo, "--base", "HEAD", "tools", "--exclude", pattern)
        assert statuses(by_path) == statuses(by_base), pattern
