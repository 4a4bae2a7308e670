"""The fixing hook (`schemalint-fix` in .pre-commit-hooks.yaml, docs/fix.md) under the real pre-commit.

A real git repository in a temporary directory, the hook installed with `pre-commit install` as a
`repo: local` hook running the manifest's own `entry` (with `schemalint` spelled
`python -m schemalint`, the interpreter of this test run, so no hook environment is built): a commit
of a tool file with a fixable finding fails once, pre-commit saying the hook modified the file, and
the file holds the fix; the same commit passes once the fixed file is added.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

PRE_COMMIT = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")

pytestmark = pytest.mark.skipif(PRE_COMMIT is None or shutil.which("git") is None,
                                reason="needs pre-commit (test extra) and git")


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "PRE_COMMIT_HOME": str(cwd.parent / "pre-commit-home")}
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)


def test_fixing_hook_fails_once_then_passes(tmp_path: Path) -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    hook = hooks["schemalint-fix"]
    words = shlex.split(hook["entry"])
    assert words[:2] == ["schemalint", "check"] and "--fix" in words and words[-1] == "--"
    entry = " ".join([shlex.quote(sys.executable), "-m", *map(shlex.quote, words)])
    repo = tmp_path / "repo"
    repo.mkdir()
    assert _git(repo, "init", "-q", "-b", "main").returncode == 0
    _git(repo, "config", "commit.gpgsign", "false")
    config = {"repos": [{"repo": "local", "hooks": [{
        "id": "schemalint-fix", "name": hook["name"], "entry": entry, "language": "system",
        "files": hook["files"], "types": hook["types"], "pass_filenames": True}]}]}
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    (repo / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["openai"]\n')
    tools = [{"type": "function", "function": {"name": "find_pets", "description": "Finds pets by tag.",
                                               "parameters": {"type": "object", "properties": {
                                                   "tags": {"type": "array"}}, "required": ["tags"]}}}]
    (repo / "tools.json").write_text(json.dumps(tools, indent=2) + "\n")
    env_path = str(Path(sys.executable).parent)
    proc = subprocess.run([PRE_COMMIT, "install"], cwd=repo, capture_output=True, text=True,
                          env={**os.environ, "PATH": env_path + os.pathsep + os.environ.get("PATH", ""),
                               "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _git(repo, "add", "-A")
    first = _git(repo, "commit", "-q", "-m", "tools")
    assert first.returncode != 0, first.stdout + first.stderr
    out = first.stdout + first.stderr
    assert "files were modified by this hook" in out, out
    fixed = json.loads((repo / "tools.json").read_text())
    assert fixed[0]["function"]["parameters"]["properties"]["tags"]["items"] == {}
    _git(repo, "add", "-A")
    second = _git(repo, "commit", "-q", "-m", "tools")
    assert second.returncode == 0, second.stdout + second.stderr
    assert "tools.json" in _git(repo, "show", "--stat", "HEAD").stdout
