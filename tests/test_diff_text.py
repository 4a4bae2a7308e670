"""The diff text a reviewer acts on: file and line of every tool and change, breaking first,
the rest grouped (issue 15). A real git repository in a temporary directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True)


def _tool(name: str, description: str, required: list[str]) -> dict:
    return {"name": name, "description": description, "inputSchema": {
        "type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}},
        "required": required}}


def _line(path: Path, needle: str, after: int = 0) -> int:
    lines = path.read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if i > after and needle in text)


def test_breaking_first_then_grouped_with_file_and_line(tmp_path: Path) -> None:
    old = [_tool("alpha", "Find alpha records.", ["q"]), _tool("beta", "Find beta records.", ["q"]),
           _tool("gamma", "Find gamma records.", ["q"]), _tool("zulu", "Find zulu records.", ["q"])]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": old}, indent=2) + "\n")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "tools")
    new = [_tool("alpha", "Find alpha records by text.", ["q"]),  # description only
           _tool("beta", "Find beta records.", ["q"]),  # identical
           _tool("delta", "Find delta records.", ["q"]),  # added
           _tool("zulu", "Find zulu records.", ["limit", "q"])]  # breaking: required added
    path.write_text(json.dumps({"tools": new}, indent=2) + "\n")
    proc = cli("diff", "--base", "HEAD", "tools.json", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    order = [out.index(s) for s in ("breaking changes", "- gamma", "* zulu", "other changes", "* alpha",
                                    "added:", "+ delta")]  # a removed tool is a breaking change (SD101)
    assert order == sorted(order), out
    assert "beta" not in out.split("\n\n", 1)[1].rsplit("\n\n", 1)[0]  # identical tools are not listed
    zulu = _line(path, '"name": "zulu"') - 1  # the tool object's opening brace
    assert f"* zulu: changed  tools.json:{zulu}\n" in out
    required = _line(path, '"required"', after=zulu)
    assert f"SD103 required-added  /inputSchema/required  (tools.json:{required})" in out
    delta = _line(path, '"name": "delta"') - 1
    assert f"+ delta: added  tools.json:{delta}\n" in out
    old_text = subprocess.run(["git", "show", "HEAD:tools.json"], cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout.splitlines()
    gamma = next(i for i, t in enumerate(old_text, 1) if '"name": "gamma"' in t) - 1
    assert f"- gamma: removed  HEAD:tools.json:{gamma}\n" in out  # removed: its place on the old side
    assert out.rstrip().endswith("0 bytes-only")  # the summary line is unchanged


def test_json_and_github_of_the_same_diff_agree(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"tools": [_tool("t", "d", ["q"])]}, indent=2))
    (tmp_path / "b.json").write_text(json.dumps({"tools": [_tool("t", "d", ["q", "limit"])]}, indent=2))
    report = json.loads(cli("diff", "a.json", "b.json", "--format", "json", cwd=tmp_path).stdout)
    github = cli("diff", "a.json", "b.json", "--format", "github", cwd=tmp_path).stdout
    assert [c["code"] for c in report["changes"]] == ["SD103"]
    assert github.startswith("::error file=b.json,line=") and "SD103 required-added (t)" in github
