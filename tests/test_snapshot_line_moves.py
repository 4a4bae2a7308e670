"""Snapshots and diffs hold what the model is shown, never a line number (issue 15).

A real git repository in a temporary directory with a pydantic tools module: a comment line
added on top keeps every snapshot fresh and ``diff --base`` silent; one field added to one
model changes exactly that tool. Snapshots written by older versions (with
``x-schemalint.defined_at``) stay fresh.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    pytest.importorskip("pydantic")
    shutil.copy(ROOT / "examples/pydantic/shop_tools.py", tmp_path / "shop_tools.py")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.schemalint]\nsources = ["shop_tools:"]\npython-path = ["."]\nsnapshot-dir = "snaps"\n')
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "commit.gpgsign", "false")
    proc = cli("snapshot", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "tools and snapshots")
    return tmp_path


def _diff(repo: Path) -> dict:
    proc = cli("diff", "--base", "HEAD", "--format", "json", "--fail-on", "meaning", cwd=repo)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def test_a_comment_line_moves_nothing(repo: Path) -> None:
    module = repo / "shop_tools.py"
    module.write_text("# a comment that moves every definition one line down\n" + module.read_text())
    snaps = sorted((repo / "snaps").glob("*.json"))
    assert len(snaps) > 5
    assert all("defined_at" not in p.read_text() and "x-schemalint" not in p.read_text() for p in snaps)
    check = cli("snapshot", "--check", cwd=repo)
    assert check.returncode == 0, check.stdout + check.stderr
    report = _diff(repo)
    assert report["changes"] == []
    assert report["summary"]["by_status"]["identical"] == report["summary"]["tools"] > 5


def test_one_field_added_changes_exactly_that_tool(repo: Path) -> None:
    module = repo / "shop_tools.py"
    text = module.read_text()
    anchor = "class SetStock(BaseModel):\n"
    head, _, tail = text.partition(anchor)
    doc_end = tail.index('"""', tail.index('"""') + 3) + 3  # past the class docstring
    module.write_text(head + anchor + tail[:doc_end] + "\n    note: str | None = None" + tail[doc_end:])
    report = _diff(repo)
    changed = [t["tool"] for t in report["tools"] if t["status"] != "identical"]
    assert changed == ["SetStock"]
    assert [c["code"] for c in report["changes"]] == ["SD202"]
    check = cli("snapshot", "--check", cwd=repo)
    assert check.returncode == 1
    assert check.stdout.count("+++ b/") == 1 and "SetStock.json" in check.stdout
    line = next(i for i, t in enumerate(module.read_text().splitlines(), 1) if t.startswith("class SetStock("))
    text = cli("diff", "--base", "HEAD", cwd=repo).stdout
    assert f"* SetStock: changed  shop_tools.py:{line}\n" in text  # the module file and the class line
    sarif = json.loads(cli("diff", "--base", "HEAD", "--format", "sarif", cwd=repo).stdout)
    [result] = sarif["runs"][0]["results"]
    physical = result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "shop_tools.py" and physical["region"]["startLine"] == line
    github = cli("diff", "--base", "HEAD", "--format", "github", cwd=repo).stdout
    assert github.startswith(f"::warning file=shop_tools.py,line={line},title=SD202")


def test_snapshots_written_with_defined_at_stay_fresh(repo: Path) -> None:
    """Older versions wrote ``"x-schemalint": {"kind", "defined_at": "path:line", "notes"}``:
    such a snapshot is up to date (and left as it is) while the tool is the same."""
    path = repo / "snaps" / "SetStock.json"
    value = json.loads(path.read_text())
    value["x-schemalint"] = {"kind": "model", "defined_at": "shop_tools.py:85", "notes": []}
    legacy = json.dumps(value, indent=2, ensure_ascii=False) + "\n"
    path.write_text(legacy)
    assert cli("snapshot", "--check", cwd=repo).returncode == 0
    assert cli("snapshot", cwd=repo).returncode == 0
    assert path.read_text() == legacy  # not rewritten: nothing the model sees changed
    proc = cli("diff", "snaps/SetStock.json", "shop_tools:SetStock", "--python-path", ".", "--format", "json",
                   cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["changes"] == []
    value["description"] = "changed"
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n")
    assert cli("snapshot", "--check", cwd=repo).returncode == 1  # a real difference still shows
