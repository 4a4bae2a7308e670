"""``schemalint diff`` and ``schemalint snapshot`` on real files and real git repositories."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli, cli_json

TOOL: dict[str, Any] = {
    "name": "search",
    "description": "Search issues.",
    "inputSchema": {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["query"],
    },
}
OTHER: dict[str, Any] = {"name": "ping", "description": "Ping.", "inputSchema": {"type": "object"}}


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True).stdout


def write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n") if not isinstance(value, str) else path.write_text(
        value
    )


def breaking(tool: dict[str, Any]) -> dict[str, Any]:
    new = json.loads(json.dumps(tool))
    new["inputSchema"]["required"] = ["query", "limit"]
    return new


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "commit.gpgsign", "false")
    write(root / "pyproject.toml", '[tool.schemalint]\nsources = ["tools.json"]\n')
    write(root / "tools.json", [TOOL, OTHER])
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "v1")
    return root


def snapshot_tree(root: Path) -> dict[str, tuple[bytes, int]]:
    out = {}
    for p in sorted(root.rglob("*")):
        if ".git" in p.parts or not p.is_file():
            continue
        out[p.relative_to(root).as_posix()] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


# ----------------------------------------------------------------- diff of files
def test_diff_files_json_shape_and_fail_on(tmp_path: Path) -> None:
    write(tmp_path / "old.json", [TOOL, OTHER])
    write(tmp_path / "new.json", [breaking(TOOL)])
    code, report = cli_json("diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert code == 1
    assert report["version"] == 1
    statuses = {t["tool"]: t["status"] for t in report["tools"]}
    assert statuses == {"search": "changed", "ping": "removed"}
    codes = sorted(c["code"] for c in report["changes"])
    assert codes == ["SD101", "SD103"]
    change = next(c for c in report["changes"] if c["code"] == "SD103")
    assert (
        change["name"] == "required-added" and change["kind"] == "breaking" and change["severity"] == "error"
    )
    assert change["pointer"] == "/inputSchema/required" and "limit" in change["message"]
    assert report["summary"]["by_status"]["removed"] == 1
    proc = cli("diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--fail-on", "never")
    assert proc.returncode == 0 and "SD103 required-added" in proc.stdout


def test_fail_on_levels(tmp_path: Path) -> None:
    write(tmp_path / "a.json", [TOOL])
    write(tmp_path / "b.json", [dict(TOOL, description="Search all issues.")])
    reordered = dict(TOOL, inputSchema={"required": ["query"], **TOOL["inputSchema"]})
    write(tmp_path / "c.json", [reordered])
    a, b, c = (str(tmp_path / n) for n in ("a.json", "b.json", "c.json"))
    assert cli("diff", a, b).returncode == 0
    assert cli("diff", a, b, "--fail-on", "meaning").returncode == 1
    assert cli("diff", a, c, "--fail-on", "meaning").returncode == 0
    assert cli("diff", a, c, "--fail-on", "bytes").returncode == 1
    assert cli("diff", a, a, "--fail-on", "bytes").returncode == 0
    assert cli("diff", a, c, "--fail-on", "sometimes").returncode == 2


def test_github_format_locates_the_line(tmp_path: Path) -> None:
    write(tmp_path / "old.json", [TOOL])
    write(tmp_path / "new.json", [breaking(TOOL)])
    proc = cli("diff", "old.json", "new.json", "--format", "github", cwd=tmp_path)
    line = next(x for x in proc.stdout.splitlines() if x.startswith("::error"))
    text = (tmp_path / "new.json").read_text().splitlines()
    lineno = int(line.split("line=")[1].split(",")[0])
    assert '"required"' in text[lineno - 1]
    assert "file=new.json" in line and "SD103 required-added" in line


def test_diff_snapshot_dir_against_source(tmp_path: Path) -> None:
    write(tmp_path / "tools.json", [TOOL, OTHER])
    assert cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path).returncode == 0
    code, report = cli_json("diff", "snaps", "tools.json", cwd=tmp_path)
    assert code == 0 and {t["status"] for t in report["tools"]} == {"identical"}


# ----------------------------------------------------------------- git: REV:PATH
def test_rev_path_file_and_directory(repo: Path) -> None:
    write(repo / "tools.json", [breaking(TOOL), OTHER])
    write(repo / "snaps" / "search.json", TOOL)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "v2")
    write(repo / "snaps" / "search.json", breaking(TOOL))
    git(repo, "commit", "-qam", "v3")
    code, report = cli_json("diff", "HEAD~2:tools.json", "HEAD~1:tools.json", cwd=repo)
    assert code == 1 and [c["code"] for c in report["changes"]] == ["SD103"]
    assert report["changes"][0]["file"] == "HEAD~1:tools.json"
    code, report = cli_json("diff", "HEAD~1:snaps", "HEAD:snaps", cwd=repo)
    assert code == 1 and [c["code"] for c in report["changes"]] == ["SD103"]
    code, report = cli_json("diff", "HEAD:tools.json", "tools.json", cwd=repo)
    assert code == 0 and all(t["status"] == "identical" for t in report["tools"])


def test_base_compares_configured_sources_with_dirty_working_tree(repo: Path) -> None:
    write(repo / "tools.json", [breaking(TOOL), OTHER])  # uncommitted: the normal case for --base
    before_status = git(repo, "status", "--porcelain")
    code, report = cli_json("diff", "--base", "HEAD", cwd=repo)
    assert code == 1 and [c["code"] for c in report["changes"]] == ["SD103"]
    assert git(repo, "status", "--porcelain") == before_status
    assert json.loads((repo / "tools.json").read_text())[0]["inputSchema"]["required"] == ["query", "limit"]


def test_base_source_new_since_revision_counts_as_added(repo: Path) -> None:
    write(repo / "more.json", [dict(OTHER, name="pong")])
    code, report = cli_json(
        "diff", "--base", "HEAD", "tools.json", "more.json", "--fail-on", "meaning", cwd=repo
    )
    assert code == 1
    assert [(t["tool"], t["status"]) for t in report["tools"] if t["status"] != "identical"] == [
        ("pong", "added")
    ]
    assert any("more.json does not exist at HEAD" in n for n in report["summary"]["notes"])


def test_base_python_source_from_temporary_worktree(repo: Path) -> None:
    write(repo / "mypkg" / "__init__.py", "")
    write(repo / "mypkg" / "tools.py", f"TOOLS = {json.dumps([TOOL])}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "python tools")
    write(repo / "mypkg" / "tools.py", f"TOOLS = {json.dumps([breaking(TOOL)])}\n")  # dirty
    write(repo / "scratch.txt", "untracked file\n")
    before = snapshot_tree(repo)
    before_status = git(repo, "status", "--porcelain")
    code, report = cli_json("diff", "--base", "HEAD", "mypkg.tools:TOOLS", cwd=repo)
    assert code == 1, report
    assert [(c["tool"], c["code"]) for c in report["changes"]] == [("search", "SD103")]
    assert snapshot_tree(repo) == before
    assert git(repo, "status", "--porcelain") == before_status
    assert len(git(repo, "worktree", "list").splitlines()) == 1
    assert not (repo / ".git" / "worktrees").exists() or not any((repo / ".git" / "worktrees").iterdir())


def test_base_python_import_failure_is_exit_2(repo: Path) -> None:
    proc = cli("diff", "--base", "HEAD", "nosuchpkg.tools:TOOLS", cwd=repo)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "nosuchpkg" in proc.stderr
    assert len(git(repo, "worktree", "list").splitlines()) == 1


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("diff", "nope:tools.json", "tools.json"), "revision 'nope' does not exist"),
        (("diff", "--base", "nope"), "revision 'nope' does not exist"),
        (("diff", "HEAD:absent.json", "tools.json"), "'absent.json' does not exist at revision 'HEAD'"),
        (("diff", "HEAD:tools.json"), "give OLD and NEW"),
        (("diff", "missing.json", "tools.json"), "missing.json"),
    ],
)
def test_bad_revisions_and_paths(repo: Path, args: tuple[str, ...], message: str) -> None:
    before = snapshot_tree(repo)
    proc = cli(*args, cwd=repo)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert snapshot_tree(repo) == before


def test_non_git_directory(tmp_path: Path) -> None:
    write(tmp_path / "tools.json", [TOOL])
    for args in (("diff", "HEAD:tools.json", "tools.json"), ("diff", "--base", "HEAD", "tools.json")):
        proc = cli(*args, cwd=tmp_path)
        assert proc.returncode == 2 and "not inside a git repository" in proc.stderr


def test_duplicate_tool_names(tmp_path: Path) -> None:
    write(tmp_path / "a.json", [TOOL, dict(TOOL, description="again")])
    write(tmp_path / "b.json", [TOOL])
    proc = cli("diff", "a.json", "b.json", cwd=tmp_path)  # a diff pairs them: the second one was removed
    assert proc.returncode == 1 and "search #2: removed" in proc.stdout, proc.stdout + proc.stderr
    assert "search #1" not in proc.stdout  # identical: not listed
    proc = cli("snapshot", "a.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 2 and "two tools named 'search'" in proc.stderr
    assert not (tmp_path / "snaps").exists()


def test_one_name_in_several_files_is_one_tool_per_file(repo: Path) -> None:
    """A tool kept in several files (issue 32: the README's diff and snapshot lines exited 2 in
    its own repository): diff pairs each file's definition with the same file's at the revision,
    snapshot writes one file per definition, and snapshot --check reads them back."""
    write(repo / "pyproject.toml", '[tool.schemalint]\nsources = ["tools"]\n')
    write(repo / "tools" / "a.json", [TOOL])
    write(repo / "tools" / "b.json", {"tools": [TOOL]})
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two files")
    proc = cli("diff", "--base", "HEAD", cwd=repo)
    assert proc.returncode == 0 and "2 tools: 2 identical" in proc.stdout, proc.stdout + proc.stderr
    proc = cli("snapshot", "--dir", "snaps", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (repo / "snaps").glob("*.json")) == [
        "search--tools_a.json.json", "search--tools_b.json.json"]
    assert cli("snapshot", "--check", "--dir", "snaps", cwd=repo).returncode == 0
    required = json.loads(json.dumps(TOOL))
    required["inputSchema"]["required"] = [*required["inputSchema"].get("required", []), "limit"]
    required["inputSchema"]["properties"]["limit"] = {"type": "integer"}
    write(repo / "tools" / "b.json", {"tools": [required]})
    proc = cli("diff", "--base", "HEAD", "--format", "json", cwd=repo)
    assert proc.returncode == 1, proc.stderr
    changed = [t for t in json.loads(proc.stdout)["tools"] if t["status"] == "changed"]
    assert [t["tool"] for t in changed] == ["search (tools/b.json)"]
    assert cli("snapshot", "--check", "--dir", "snaps", cwd=repo).returncode == 1


def test_unreadable_side_is_exit_2(tmp_path: Path) -> None:
    write(tmp_path / "a.json", '{"name": "x", "inputSchema": {\n')
    write(tmp_path / "b.json", [TOOL])
    proc = cli("diff", "a.json", "b.json", cwd=tmp_path)
    assert proc.returncode == 2 and "a.json:" in proc.stderr and "invalid JSON" in proc.stderr


# ----------------------------------------------------------------- snapshot
def test_snapshot_write_check_stale_missing_orphaned(tmp_path: Path) -> None:
    write(tmp_path / "tools.json", [TOOL, OTHER])
    write(tmp_path / "snaps" / "notes.json", {"not": "a tool"})
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0 and "2 written" in proc.stdout
    snap = (tmp_path / "snaps" / "search.json").read_text()
    assert snap == json.dumps(TOOL, indent=2, ensure_ascii=False) + "\n"
    mtimes = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "snaps").iterdir()}
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert "0 written, 2 unchanged" in proc.stdout
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "snaps").iterdir()} == mtimes
    assert cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path).returncode == 0

    write(tmp_path / "tools.json", [breaking(TOOL), dict(OTHER, name="pong")])
    before = snapshot_tree(tmp_path)
    proc = cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path)
    assert proc.returncode == 1
    assert "snaps/search.json: stale" in proc.stdout and '+      "limit"' in proc.stdout
    assert "snaps/pong.json: missing" in proc.stdout
    assert "snaps/ping.json: orphaned" in proc.stdout
    assert "notes.json" not in proc.stdout
    assert snapshot_tree(tmp_path) == before, "--check writes nothing"

    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert "2 written, 0 unchanged, 1 removed" in proc.stdout
    assert sorted(p.name for p in (tmp_path / "snaps").iterdir()) == [
        ".schemalint-snapshots",  # the names of the snapshots schemalint wrote
        "notes.json",
        "pong.json",
        "search.json",
    ]
    assert (tmp_path / "tools.json").read_bytes() == before["tools.json"][0]


def test_snapshot_dir_inside_sources_and_from_config(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.schemalint]\nsources = ["."]\nsnapshot-dir = "snaps"\n')
    write(tmp_path / "tools.json", [TOOL])
    assert cli("snapshot", cwd=tmp_path).returncode == 0
    proc = cli("snapshot", "--check", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 snapshot(s) up to date" in proc.stdout


@pytest.mark.parametrize("check", [False, True])
def test_snapshot_dir_is_a_file(tmp_path: Path, check: bool) -> None:
    write(tmp_path / "tools.json", [TOOL])
    write(tmp_path / "snaps", "I am a file\n")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", *(["--check"] if check else []), cwd=tmp_path)
    assert proc.returncode == 2 and "is not a directory" in proc.stderr
    assert (tmp_path / "snaps").read_text() == "I am a file\n"


def test_snapshot_parent_missing_writes_nothing(tmp_path: Path) -> None:
    write(tmp_path / "tools.json", [TOOL])
    before = snapshot_tree(tmp_path)
    proc = cli("snapshot", "tools.json", "--dir", "a/b/snaps", cwd=tmp_path)
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    assert snapshot_tree(tmp_path) == before and not (tmp_path / "a").exists()


def test_snapshot_only_touches_its_directory(tmp_path: Path) -> None:
    write(tmp_path / "tools.json", [TOOL, OTHER])
    write(tmp_path / "other" / "keep.json", {"x": 1})
    before = snapshot_tree(tmp_path)
    assert cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path).returncode == 0
    after = snapshot_tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("snaps/")} == before
    left = [p.name for p in (tmp_path / "snaps").iterdir() if p.name.startswith(".")]
    assert left == [".schemalint-snapshots"], "no temp files left, only the record of the snapshots"


def test_a_mistyped_revision_is_named_as_such() -> None:
    proc = cli("diff", "nosuchrev:examples", "examples")
    assert proc.returncode == 2
    assert "'nosuchrev' is not a revision of the git repository here" in proc.stderr, proc.stderr


# ----------------------------------------------------------------- files that do not parse
def test_diff_skips_unparseable_non_tool_files_as_check_does(tmp_path: Path) -> None:
    """A walk-found file that does not parse and does not look like a tool file is skipped with a
    note (working tree and revision, ``--base`` and ``REV:PATH``); a broken tool file is exit 2."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "commit.gpgsign", "false")
    write(root / "pyproject.toml", '[tool.schemalint]\nsources = ["."]\n')
    write(root / "api" / "tools.json", [TOOL])
    write(root / "tsconfig.json", '{\n  # not a JSONC comment\n  "compilerOptions": {}\n}\n')
    write(root / "stack.yaml", "Resources:\n  Bucket:\n    Name: !Ref BucketName\n")
    (root / "passwd.json").symlink_to("/etc/passwd")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "v1")
    write(root / "api" / "tools.json", [breaking(TOOL)])
    for args in (("diff", "--base", "HEAD", "."), ("diff", "--base", "HEAD"), ("diff", "HEAD:", ".")):
        proc = cli(*args, "--format", "json", cwd=root)
        assert proc.returncode == 1, (args, proc.stderr)
        assert [c["code"] for c in json.loads(proc.stdout)["changes"]] == ["SD103"]
        assert "tsconfig.json: skipped" in proc.stderr and "stack.yaml: skipped" in proc.stderr
        assert "passwd.json: skipped" in proc.stderr
    # named explicitly: still an error
    proc = cli("diff", "HEAD:tsconfig.json", "tsconfig.json", cwd=root)
    assert proc.returncode == 2 and "cannot diff an unreadable file" in proc.stderr
    # a broken tool file is still an error, in the working tree and at the revision
    write(root / "api" / "tools.json", '[{"name": "search",\n')
    proc = cli("diff", "--base", "HEAD", ".", cwd=root)
    assert proc.returncode == 2 and "tools.json:" in proc.stderr and "invalid JSON" in proc.stderr
    git(root, "commit", "-qam", "v2")
    write(root / "api" / "tools.json", [TOOL])
    proc = cli("diff", "--base", "HEAD", ".", cwd=root)
    assert proc.returncode == 2 and "HEAD:api/tools.json:" in proc.stderr and "invalid JSON" in proc.stderr
    proc = cli("diff", "HEAD:", ".", cwd=root)
    assert proc.returncode == 2 and "HEAD:api/tools.json:" in proc.stderr


def test_snapshot_and_diff_messages_name_paths_relative_from_a_subdirectory(repo: Path) -> None:
    """Run from a subdirectory of the project, snapshot and diff name the configured snapshot
    directory and the sources relative to the working directory, never as absolute paths."""
    write(repo / "pyproject.toml", '[tool.schemalint]\nsources = ["tools"]\nsnapshot-dir = "snaps"\n')
    write(repo / "tools" / "a.json", [TOOL])
    (repo / "sub").mkdir()
    assert cli("snapshot", cwd=repo / "sub").returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "snapshots")
    changed = json.loads(json.dumps(TOOL))
    changed["inputSchema"]["required"] = ["query", "limit"]
    write(repo / "tools" / "a.json", [changed])
    for args in (("snapshot", "--check"), ("diff", "--base", "HEAD")):
        proc = cli(*args, cwd=repo / "sub")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        said = proc.stdout + proc.stderr
        assert str(repo) not in said, said
        assert "../" in said
