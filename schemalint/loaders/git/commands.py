"""Read-only git plumbing: revisions, tree listings and blob contents.

Everything is read with git itself (``git rev-parse``, ``git ls-tree``, ``git cat-file``);
nothing in the working tree, the index or ``HEAD`` is changed.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

GIT_TIMEOUT = 120


class GitError(Exception):
    """A git command failed, or a revision or path does not exist (the message names which)."""


_LOCAL_ENV_VARS = (
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_SHALLOW_FILE",
    "GIT_COMMON_DIR", "GIT_INTERNAL_SUPER_PREFIX",
)
"""What ``git rev-parse --local-env-vars`` printed (git 2.47); used when that call fails."""


@functools.lru_cache(maxsize=1)
def _local_env_vars() -> frozenset[str]:
    """The variables that tie git to one repository, as git itself lists them
    (``git rev-parse --local-env-vars``, git-rev-parse(1)), with :data:`_LOCAL_ENV_VARS`."""
    try:
        out = subprocess.run(["git", "rev-parse", "--local-env-vars"], capture_output=True, text=True,
                             timeout=GIT_TIMEOUT, check=False, env=_without(os.environ, _LOCAL_ENV_VARS)).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    return frozenset(out.split()) | frozenset(_LOCAL_ENV_VARS)


def _without(env: Mapping[str, str], names: Iterable[str]) -> dict[str, str]:
    drop = set(names)
    return {k: v for k, v in env.items() if k not in drop}


def git_env() -> dict[str, str]:
    """The environment for every git call schemalint makes: this process's, less the variables
    that point git at one repository, index or work tree (``GIT_DIR``, ``GIT_INDEX_FILE``,
    ``GIT_WORK_TREE``, ``GIT_PREFIX``, ... : :func:`_local_env_vars`).

    git sets them for its hooks: inside ``git commit``, ``GIT_INDEX_FILE`` names the index being
    committed, so a ``git worktree add`` made for ``diff --base`` wrote (or failed to write) that
    index instead of the new work tree's, and ``git -C other-repo`` calls read the committing
    repository. schemalint passes the repository as ``cwd``, so git finds it as it would in a
    shell; what git is asked about (the revision, the blobs) is the same, since the commit being
    made is not in the object store yet. ``GIT_CONFIG_*`` go too, as git does for submodules.
    """
    return _without(os.environ, _local_env_vars())


def git(args: Sequence[str], cwd: str | Path | None = None, *, input: bytes | None = None) -> bytes:
    """Run ``git ARGS`` with :func:`git_env` and return stdout; raises :class:`GitError` with git's
    message on failure."""
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, input=input, capture_output=True, timeout=GIT_TIMEOUT, check=False,
            env=git_env(),
        )
    except FileNotFoundError:
        raise GitError("git is not installed (needed for REV:PATH and --base)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args)} did not finish in {GIT_TIMEOUT} s") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])} failed: {message[-1] if message else proc.returncode}")
    return proc.stdout


def git_root(cwd: str | Path | None = None) -> Path:
    """The top directory of the git repository containing ``cwd``; :class:`GitError` outside one."""
    where = Path(cwd or os.getcwd()).resolve()
    try:
        out = git(["rev-parse", "--show-toplevel"], cwd=where)
    except GitError:
        raise GitError(f"{where} is not inside a git repository; REV:PATH and --base need one") from None
    return Path(out.decode().strip())


def verify_revision(rev: str, cwd: str | Path | None = None) -> str:
    """The full commit id of ``rev``; :class:`GitError` naming ``rev`` when it does not exist."""
    if not rev or rev.startswith("-"):
        raise GitError(f"{rev!r} is not a revision")
    try:
        out = git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], cwd=cwd)
    except GitError:
        raise GitError(f"revision {rev!r} does not exist in this repository") from None
    return out.decode().strip()


def cat_files(specs: Sequence[str], cwd: str | Path) -> list[bytes]:
    """Contents of ``REV:PATH`` blobs, read in one ``git cat-file --batch`` call."""
    if not specs:
        return []
    if any("\n" in s or "\r" in s for s in specs):  # --batch reads one spec per line
        return [b for spec in specs for b in (cat_files([spec], cwd) if "\n" not in spec and "\r" not in spec
                                              else [git(["cat-file", "blob", spec], cwd=cwd)])]
    out = git(["cat-file", "--batch"], cwd=cwd,
              input="".join(s + "\n" for s in specs).encode("utf-8", "surrogateescape"))
    blobs: list[bytes] = []
    pos = 0
    for spec in specs:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode("utf-8", "replace")
        if header.endswith(" missing") or header.endswith(" ambiguous"):
            raise GitError(f"{spec} does not exist")
        size = int(header.rsplit(" ", 1)[1])
        blobs.append(out[end + 1 : end + 1 + size])
        pos = end + 1 + size + 1
    return blobs


def tree_files(spec: str, cwd: str | Path, *, full_tree: bool = False) -> list[str]:
    """Paths of the regular files under the tree ``spec`` (``git ls-tree -r -z``).

    Names that are not UTF-8 are decoded as the file system decodes them (surrogate escapes),
    and encoded back the same way for git. Symbolic links (mode 120000) and submodules are
    left out: at a revision a link is only the text of its target, not a tool file.
    """
    args = ["ls-tree", "-r", "-z", *(["--full-tree"] if full_tree else []), spec]
    out = git(args, cwd=cwd)
    names = []
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        if meta.split(b" ", 1)[0] not in (b"100644", b"100755"):
            continue
        names.append(name.decode("utf-8", "surrogateescape"))
    return names
