"""What a killed run leaves is cleaned by the next one, and walks and snapshots are bounded:

- ``diff --base`` killed with SIGKILL (no handler runs) leaves its git worktree and temporary
  checkout; the next ``diff --base`` in that repository prunes them, and only them (a folder of a
  live run, or one without schemalint's owner file, is kept);
- a ``**`` glob does not follow a symbolic-link loop;
- a tool name too long for a file name is refused before any snapshot file is written.

Real git repositories and real processes in temporary folders; the temporary folder of the runs is
the test's own (``TMPDIR``), so nothing of other runs on the machine is looked at.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

SLOW_BASE_MODULE = textwrap.dedent('''
    import os, time
    from pydantic import BaseModel

    if os.environ.get("SLOW_BASE"):
        time.sleep(120)


    class Ping(BaseModel):
        """Ping a host."""
        host: str
''')


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def _worktrees(repo: Path) -> int:
    return _git(repo, "worktree", "list", "--porcelain").count("worktree ")


@pytest.mark.parametrize("next_source", ["tools:", "tools.json"])
def test_a_sigkilled_diff_base_leaves_are_pruned_by_the_next_run(tmp_path: Path, next_source: str) -> None:
    """The next ``diff --base`` prunes what a killed one left, whether it compares module sources
    (a checkout of its own) or tool files (read with git, no checkout)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "tools.py").write_text(SLOW_BASE_MODULE)
    (repo / "tools.json").write_text('[{"name": "t", "description": "T.", "input_schema": {"type": "object"}}]')
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    unrelated = tmp / "schemalint-base-not-ours"  # no owner file: never removed
    unrelated.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    proc = subprocess.Popen([sys.executable, "-m", "schemalint", "diff", "--base", "HEAD", "tools:"], cwd=repo,
                            env={**env, "SLOW_BASE": "1"}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while _worktrees(repo) < 2:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    left = [p for p in tmp.glob("schemalint-base-*") if p != unrelated]
    assert len(left) == 1 and _worktrees(repo) == 2  # what SIGKILL leaves (no handler can run)
    done = subprocess.run([sys.executable, "-m", "schemalint", "diff", "--base", "HEAD", next_source], cwd=repo,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert _worktrees(repo) == 1
    assert not left[0].exists()
    assert unrelated.is_dir()
    assert not list((repo / ".git" / "worktrees").glob("*"))


def test_prune_keeps_the_checkout_of_a_live_run(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from schemalint.loaders.git import worktree

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q")
    live = tmp_path / "schemalint-base-live"
    live.mkdir()
    worktree._write_owner(live)  # this process: alive
    dead = tmp_path / "schemalint-base-dead"
    dead.mkdir()
    (dead / worktree.OWNER_FILE).write_text(json.dumps({"pid": 2**22 + 12345, "start": "1"}))
    removed = worktree.prune_leftovers(repo)
    assert removed == [str(dead)]
    assert live.is_dir() and not dead.exists()


def test_a_globstar_does_not_follow_a_symlink_loop(tmp_path: Path) -> None:
    from schemalint.api import check

    tools = tmp_path / "proj" / "tools"
    tools.mkdir(parents=True)
    (tools / "a.json").write_text(json.dumps({"tools": [{"type": "function", "function": {
        "name": "a", "description": "d", "parameters": {"type": "object", "properties": {}}}}]}))
    (tools / "loop").symlink_to(tools.parent, target_is_directory=True)  # tools/loop -> proj (holds tools)
    (tools / "self").symlink_to(".", target_is_directory=True)
    started = time.monotonic()
    result = check([str(tmp_path / "proj" / "**" / "*.json")])
    assert time.monotonic() - started < 30
    assert result.tools == 1 and result.files == 1


def test_a_tool_name_too_long_for_a_file_name_is_refused_before_any_snapshot_is_written(tmp_path: Path) -> None:
    long_name = "t" * 300
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [
        {"type": "function", "function": {"name": "a_first", "description": "d", "parameters": {"type": "object"}}},
        {"type": "function", "function": {"name": long_name, "description": "d", "parameters": {"type": "object"}}},
    ]}))
    snaps = tmp_path / "snaps"
    proc = subprocess.run([sys.executable, "-m", "schemalint", "snapshot", str(path), "--dir", str(snaps)],
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "too long" in proc.stderr, proc.stderr
    assert not snaps.exists() or not any(snaps.iterdir())  # nothing written, not even the first tool


def test_a_folder_also_reached_through_a_link_is_found_under_its_own_path(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An npm workspace links ``node_modules/pkg -> ../pkg``: ``**`` must name ``pkg/tool.json``, the
    file's own path, not the path through the link (sorted first), which source filters drop."""
    from schemalint.loaders.files.sources import safe_glob

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "tool.json").write_text("[]")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "pkg").symlink_to(tmp_path / "pkg")
    monkeypatch.chdir(tmp_path)
    assert safe_glob("**/tool.json") == [os.path.join("pkg", "tool.json")]
