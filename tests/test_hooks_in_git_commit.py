"""Every hook of .pre-commit-hooks.yaml run from inside a real `git commit` (issue 32).

git runs its hooks with `GIT_INDEX_FILE` (and, by how it was called, `GIT_DIR`, `GIT_PREFIX`,
`GIT_WORK_TREE`) set for the commit being made; `schemalint diff --base HEAD` on Python sources
makes a `git worktree`, which failed there ("index file open failed"). Here `.git/hooks/pre-commit`
runs each hook's `entry` exactly as the manifest writes it (with the staged files it selects when
`pass_filenames` is on), in `git commit` and in `git commit -a` (which commits through a temporary
index), on a project with Python and JSON sources and snapshots: a clean commit passes, a breaking
one is blocked by the hook meant to block it, never by a git error.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT, cli

pytest.importorskip("pydantic")

HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
TOOL = {"name": "lookup", "description": "Look up a word.",
        "inputSchema": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"]}}
MODEL = '''
from pydantic import BaseModel


class Search(BaseModel):
    """Search issues."""

    query: str
'''


def _git(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env={**base, **(env or {})},
                          timeout=900)


def _hook_script(hooks: list[dict[str, object]]) -> str:
    """A pre-commit hook running each manifest entry as pre-commit would (files by `files`)."""
    bindir = Path(sys.executable).parent
    lines = ["#!/bin/sh", f'export PATH="{bindir}:$PATH"', "status=0"]
    for hook in hooks:
        entry = str(hook["entry"])
        if hook.get("pass_filenames", True):
            pattern = str(hook.get("files", ""))
            pick = ("import re,sys; p=re.compile(sys.argv[1]); "
                    "print(' '.join(l.strip() for l in sys.stdin if p.search(l.strip())))")
            select = (f"git diff --cached --name-only --diff-filter=ACMR | {shlex.quote(sys.executable)} -c "
                      f"{shlex.quote(pick)} {shlex.quote(pattern)}")
            lines.append(f'files=$({select}); if [ -n "$files" ]; then {entry} $files || status=1; fi')
        else:
            lines.append(f"{entry} || status=1")
    lines.append("exit $status")
    return "\n".join(lines) + "\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "app").mkdir(parents=True)
    (root / "tools").mkdir()
    (root / "app" / "models.py").write_text(MODEL)
    (root / "tools" / "lookup.json").write_text(json.dumps([TOOL], indent=2) + "\n")
    (root / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.schemalint]
        sources = ["tools", "app.models:Search"]
        python-path = ["."]
        snapshot-dir = "snaps"
    """))
    _git(root, "init", "-q", "-b", "main")
    _git(root, "config", "commit.gpgsign", "false")
    snap = cli("snapshot", cwd=root)
    assert snap.returncode == 0, snap.stderr
    _git(root, "add", "-A")
    assert _git(root, "commit", "-q", "-m", "first").returncode == 0
    hook = root / ".git" / "hooks" / "pre-commit"
    hook.write_text(_hook_script(HOOKS))
    hook.chmod(0o755)
    return root


def test_every_hook_inside_git_commit(project: Path) -> None:
    assert {h["id"] for h in HOOKS} >= {"schemalint", "schemalint-python", "schemalint-snapshot", "schemalint-diff"}
    # a compatible change (an optional field with a default) and its snapshot: every hook passes
    (project / "app" / "models.py").write_text(MODEL + "    limit: int = 10\n")
    assert cli("snapshot", cwd=project).returncode == 0
    _git(project, "add", "-A")
    clean = _git(project, "commit", "-q", "-m", "optional limit")
    said = clean.stdout + clean.stderr
    assert clean.returncode == 0, said
    assert "worktree" not in said and "index file" not in said

    # a breaking change committed with -a (git's temporary index): blocked by schemalint-diff
    (project / "app" / "models.py").write_text(MODEL + "    limit: int\n")
    assert cli("snapshot", cwd=project).returncode == 0
    _git(project, "add", "snaps")
    blocked = _git(project, "commit", "-a", "-q", "-m", "limit required")
    said = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0
    assert "SD103 required-added" in said, said
    assert "git worktree add failed" not in said and "index file" not in said, said
    assert _git(project, "log", "--format=%s").stdout.split("\n")[0] == "optional limit"

    # a stale snapshot is blocked by schemalint-snapshot; a broken tool file by schemalint
    _git(project, "checkout", "--", ".")
    (project / "tools" / "lookup.json").write_text(json.dumps([dict(TOOL, description="Look a word up.")]))
    _git(project, "add", "-A")
    stale = _git(project, "commit", "-q", "-m", "description")
    assert stale.returncode != 0 and "lookup.json" in stale.stdout + stale.stderr
    (project / "tools" / "lookup.json").write_text('[{"name": "lookup", "inputSchema": {')
    _git(project, "add", "-A")
    broken = _git(project, "commit", "-q", "-m", "broken")
    assert broken.returncode != 0 and "SL000" in broken.stdout + broken.stderr


def test_git_calls_ignore_the_hook_environment(project: Path, tmp_path: Path) -> None:
    """The variables git gives a hook, pointing at another repository's index and git directory,
    change nothing: schemalint's git calls find the repository from their working directory."""
    other = tmp_path / "other"
    other.mkdir()
    _git(other, "init", "-q")
    (project / "app" / "models.py").write_text(MODEL + "    limit: int\n")
    env = {**os.environ, "GIT_INDEX_FILE": str(other / ".git" / "index"), "GIT_DIR": str(other / ".git"),
           "GIT_WORK_TREE": str(other), "GIT_PREFIX": "x/", "GIT_OBJECT_DIRECTORY": str(other / ".git" / "objects")}
    proc = cli("diff", "--base", "HEAD", cwd=project, env=env, timeout=600)
    assert proc.returncode == 1, proc.stderr
    assert "SD103 required-added" in proc.stdout
    listed = _git(project, "worktree", "list").stdout.strip().splitlines()
    assert len(listed) == 1, listed  # the temporary work tree was removed
