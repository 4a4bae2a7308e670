"""Diffs of the real revision series in ../shared/corpus (github-mcp-server, kubernetes-mcp-server)."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

from schemalint.commands.diff_compare import compare_tools
from schemalint.commands.diff_sources import load_worktree
from schemalint.diff.result import DiffResult
from tests.conftest import CORPUS, cli_json, needs_shared

pytestmark = needs_shared

GITHUB = CORPUS / "github-mcp-server"
K8S = CORPUS / "kubernetes-mcp-server" / "revisions" / "toolsets-full-tools"


def github_dirs() -> list[Path]:
    index = json.loads((GITHUB / "revisions" / "index.json").read_text())
    return [GITHUB / r["dir"] for r in index["revisions"]]


def k8s_files() -> list[Path]:
    index = json.loads((K8S / "index.json").read_text())
    return [K8S / r["file"] for r in index["revisions"]]


def diff_paths(old: Path, new: Path) -> DiffResult:
    return compare_tools(
        load_worktree([str(old)]), load_worktree([str(new)]), old_label=old.name, new_label=new.name
    )


def by_check(result: DiffResult) -> Counter[str]:
    return Counter(c.check.name for c in result.changes)


def test_github_60aef5d2_to_62266f80_removes_22_tools() -> None:
    old, new = github_dirs()[0:2]
    result = diff_paths(old, new)
    status = result.counts_by_status()
    assert status["removed"] == 22 and status["added"] == 28
    assert status["changed"] + status["same-meaning"] == 73  # 15 changed per SOURCE.md; the rest re-sorted
    assert status["same-meaning"] == 58
    removed = {t.name for t in result.tools if t.status == "removed"}
    assert {"list_workflows", "get_workflow_run", "list_projects"} <= removed
    # assign_copilot_to_issue renamed issueNumber -> issue_number: removed + required-added, with hints
    changes = [c for c in result.changes if c.tool == "assign_copilot_to_issue"]
    removed_prop = next(c for c in changes if c.check.name == "property-removed")
    assert removed_prop.pointer == "/inputSchema/properties/issueNumber" and "issue_number" in (
        removed_prop.hint or ""
    )
    added_req = next(c for c in changes if c.check.name == "required-added")
    assert added_req.pointer == "/inputSchema/properties/issue_number"


def test_github_62266f80_to_225c47cd_explicit_defaults_are_not_breaking() -> None:
    old, new = github_dirs()[1:3]
    result = diff_paths(old, new)
    explicit = [c for c in result.changes if c.check.name == "annotation-default-explicit"]
    idempotent = [c for c in explicit if c.pointer == "/annotations/idempotentHint"]
    read_only = [c for c in explicit if c.pointer == "/annotations/readOnlyHint"]
    assert len(idempotent) >= 99 and len(read_only) >= 50
    assert all(c.kind == "compatible" and c.check.severity.value == "info" for c in explicit)
    added = result.counts_by_status()["added"]
    assert added == 13
    # the only breaking changes in this pair: get_commit lost include_diff, commentId got minimum 1
    breaking = sorted((c.tool, c.check.name, c.pointer) for c in result.changes if c.kind == "breaking")
    assert breaking == [
        (
            "add_reply_to_pull_request_comment",
            "constraint-tightened",
            "/inputSchema/properties/commentId/minimum",
        ),
        ("get_commit", "property-removed", "/inputSchema/properties/include_diff"),
    ]


def test_github_225c47cd_to_head() -> None:
    old, new = github_dirs()[2:4]
    result = diff_paths(old, new)
    status = result.counts_by_status()
    assert (status["added"], status["removed"], status["changed"], status["identical"]) == (3, 0, 25, 89)
    narrowed = [c for c in result.changes if c.check.name == "type-narrowed"]
    assert [(c.tool, c.pointer) for c in narrowed] == [
        ("add_issue_comment", "/inputSchema/properties/comment_id/type")
    ]
    # issue_write `type`: string -> anyOf[string minLength 1, null]
    iw = sorted(
        (c.check.name, c.pointer)
        for c in result.changes
        if c.tool == "issue_write" and c.pointer.startswith("/inputSchema/properties/type/")
    )
    assert ("union-branch-added", "/inputSchema/properties/type/anyOf/1") in iw
    assert ("constraint-tightened", "/inputSchema/properties/type/anyOf/0/minLength") in iw


def test_kubernetes_series() -> None:
    files = k8s_files()
    assert len(files) == 22
    results = {
        new.stem.split("_")[1]: diff_paths(old, new) for old, new in itertools.pairwise(files)
    }
    rename = results["56f7edec"]
    assert rename.counts_by_status()["added"] == 1 and rename.counts_by_status()["removed"] == 1
    assert by_check(results["db3f51dd"]) == Counter({"annotation-default-explicit": 22})
    assert not results["db3f51dd"].fails("breaking")
    assert by_check(results["f4ec533c"]) == Counter({"tool-removed": 3})
    assert by_check(results["8a1dfbfd"])["constraint-tightened"] == 8  # anchored selector patterns
    loosened = [c for c in results["9e0e1e8c"].changes if c.check.name == "constraint-loosened"]
    assert len(loosened) == 3 and all(c.pointer.endswith("/fieldSelector/pattern") for c in loosened)
    for sha in ("2b6c886d", "2f124f61"):  # only an empty "properties": {} moved
        assert results[sha].counts_by_status()["changed"] == 0
        assert {c.check.name for c in results[sha].changes} == {"empty-keyword-changed"}


def _git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True).stdout


def test_github_revisions_as_real_git_history(tmp_path: Path) -> None:
    """Commit each revision of the snaps folder, then diff REV:PATH pairs and --base."""
    repo = tmp_path / "gh"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "commit.gpgsign", "false")
    (repo / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["pkg/__toolsnaps__"]\n')
    snaps = repo / "pkg" / "__toolsnaps__"
    for d in github_dirs():
        if snaps.exists():
            shutil.rmtree(snaps)
        shutil.copytree(d, snaps)
        for p in snaps.iterdir():
            p.chmod(0o644)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", d.name)
    code, report = cli_json("diff", "HEAD~3:pkg/__toolsnaps__", "HEAD~2:pkg/__toolsnaps__", cwd=repo)
    assert code == 1
    assert report["summary"]["by_status"]["removed"] == 22
    direct = diff_paths(*github_dirs()[0:2])
    assert report["summary"]["by_check"] == direct.counts_by_check()
    # --base with a dirty working tree: revert the newest commit's folder by hand, uncommitted
    shutil.rmtree(snaps)
    shutil.copytree(github_dirs()[2], snaps)
    code, report = cli_json("diff", "--base", "HEAD", "--fail-on", "never", cwd=repo)
    assert code == 0
    status: dict[str, Any] = report["summary"]["by_status"]
    assert status["removed"] == 3 and status["changed"] == 25
