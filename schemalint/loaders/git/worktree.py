"""Module sources (Python ``module:attr``, TypeScript ``path.ts:ATTR``) as they were at a commit, imported
from a temporary worktree."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from schemalint.loaders.files.sources import SourceError, is_typescript_source, split_typescript_source
from schemalint.loaders.git.commands import GitError, git
from schemalint.model import Tool


def load_python_at_revision(
    commit: str, sources: Sequence[str], *, root: Path, prefix: str, python_path: Sequence[str], label: str,
    exclude: Sequence[str] = (),
) -> list[Tool]:
    """Import ``module:attr`` sources (and TypeScript modules, ``path.ts:ATTR``) as they were at ``commit``.

    Creates a detached ``git worktree`` in a temporary directory (the main working tree,
    index and ``HEAD`` are not touched, so a dirty working tree is fine), imports the
    sources in a worker process (:mod:`schemalint.bridge`) running in that checkout (same
    isolation and time limit as for the working tree), and removes the worktree afterwards,
    also on failure and on SIGTERM/SIGHUP (raised as ``SystemExit`` while it exists) or
    Ctrl-C. ``root``: the repository's top directory; ``prefix``: the working directory
    relative to it (``git rev-parse --show-prefix``); ``label``: the revision as the user
    wrote it, prefixed to each tool's file; ``exclude``: patterns leaving out modules a
    TypeScript glob matches (relative to the working directory's place in the checkout).
    Raises :class:`GitError`.
    """
    from schemalint.bridge.client import load_python_sources, terminate_as_exit

    with terminate_as_exit():
        prune_leftovers(root)
        tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX))
        _write_owner(tmp)
        checkout = tmp / "checkout"
        try:
            git(["worktree", "add", "--detach", "--quiet", str(checkout), commit], cwd=root)
            where = checkout / prefix
            roots = [p if os.path.isabs(p) else str(where / p) for p in (str(p) for p in python_path)]
            python_sources = [s for s in sources if not is_typescript_source(s)]
            ts_sources = [s for s in sources if is_typescript_source(s)]
            tools: list[Tool] = []
            try:
                if python_sources:
                    tools.extend(load_python_sources(python_sources, roots, cwd=str(where))[0])
                if ts_sources:
                    from schemalint.loaders.typescript.source import load_typescript_sources

                    _link_node_modules(ts_sources, root, checkout, prefix)
                    tools.extend(load_typescript_sources(ts_sources, cwd=str(where), exclude=exclude)[0])
            except SourceError as exc:
                raise GitError(f"at {label}: {exc}") from None
            from schemalint.bridge.client import stop_workers

            stop_workers(tools)  # the old revision's validators are never called
            return [dataclasses.replace(t, origin=dataclasses.replace(t.origin, file=f"{label}:{t.origin.file}"),
                                        runtime=None) for t in tools]
        finally:
            _remove_worktree(root, checkout, tmp)


TMP_PREFIX = "schemalint-base-"
"""Prefix of the temporary directory holding a ``diff --base`` checkout (in the system temp folder)."""

OWNER_FILE = "schemalint-owner.json"
"""Written first into each such directory: the pid and start time of the run that made it, so a later
run can tell a leftover of a killed run (its owner is gone) from a checkout in use."""


def _start_time(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot, ``/proc/PID/stat`` field 22), or
    ``None`` when it does not exist (or there is no ``/proc``): with the pid it names one process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()
    return fields[19].decode() if len(fields) > 19 else None


def _write_owner(tmp: Path) -> None:
    import json

    pid = os.getpid()
    (tmp / OWNER_FILE).write_text(json.dumps({"pid": pid, "start": _start_time(pid)}))


def _owner_gone(tmp: Path) -> bool:
    """True when ``tmp`` holds schemalint's owner file and the run it names no longer exists (a
    process with that pid and start time). A folder without a readable owner file is not ours to
    remove; a live owner's checkout is in use."""
    import json

    from schemalint import safe_read

    try:
        owner = json.loads(safe_read.read_text(tmp / OWNER_FILE, 4096))
        pid = int(owner["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if not os.path.exists("/proc/self/stat"):
        return False  # no way to tell a live owner from a dead one: leave it
    start = _start_time(pid)
    return start is None or (owner.get("start") is not None and start != owner.get("start"))


def prune_leftovers(root: Path) -> list[str]:
    """Remove what earlier ``diff --base`` runs killed with SIGKILL left: their worktrees registered in
    the repository ``root`` and their temporary directories (``<tmp>/schemalint-base-*``), but only
    those whose owner file names a run that no longer exists (:func:`_owner_gone`). Returns the
    directories removed. Never raises."""
    removed: list[str] = []
    base = Path(tempfile.gettempdir())
    registered: list[Path] = []
    with contextlib.suppress(GitError, UnicodeDecodeError):
        for line in git(["worktree", "list", "--porcelain"], cwd=root).decode("utf-8").splitlines():
            if line.startswith("worktree "):
                registered.append(Path(line[len("worktree "):]))
    candidates = {p.parent for p in registered if p.name == "checkout" and p.parent.name.startswith(TMP_PREFIX)}
    with contextlib.suppress(OSError):
        candidates.update(p for p in base.glob(TMP_PREFIX + "*") if p.is_dir() and not p.is_symlink())
    pruned = False
    for tmp in sorted(candidates):
        if not _owner_gone(tmp):
            continue
        if tmp / "checkout" in registered:
            with contextlib.suppress(GitError):
                git(["worktree", "remove", "--force", str(tmp / "checkout")], cwd=root)
            pruned = True
        shutil.rmtree(tmp, ignore_errors=True)
        removed.append(str(tmp))
    if pruned or any(not p.exists() for p in registered if p.parent.name.startswith(TMP_PREFIX)):
        with contextlib.suppress(GitError):
            git(["worktree", "prune"], cwd=root)
    return removed


def _link_node_modules(sources: Sequence[str], root: Path, checkout: Path, prefix: str) -> None:
    """Give the temporary checkout the working tree's ``node_modules`` folders (never tracked by
    git): for each TypeScript source, every ``node_modules`` at the module's folder or above it
    (up to the repository's top) becomes a symbolic link at the same place in the checkout, so the
    old module is imported with the project's installed packages."""
    for source in sources:
        split = split_typescript_source(source)
        if split is None:
            continue
        folder = (root / prefix / split[0]).parent.resolve()
        try:
            rel = folder.relative_to(root.resolve())
        except ValueError:
            continue
        parts = rel.parts
        for i in range(len(parts), -1, -1):
            here = Path(*parts[:i]) if i else Path()
            installed = root / here / "node_modules"
            target = checkout / here / "node_modules"
            if installed.is_dir() and not target.exists() and target.parent.is_dir():
                with contextlib.suppress(OSError):
                    target.symlink_to(installed.resolve(), target_is_directory=True)


def _remove_worktree(root: Path, checkout: Path, tmp: Path) -> None:
    """Remove the temporary worktree with SIGINT/SIGTERM/SIGHUP held back until it is gone."""
    import signal

    from schemalint.bridge.client import held_signals

    with held_signals(signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(GitError):
            git(["worktree", "remove", "--force", str(checkout)], cwd=root)
        shutil.rmtree(tmp, ignore_errors=True)
        with contextlib.suppress(GitError):
            git(["worktree", "prune"], cwd=root)
