"""``schemalint snapshot``: one file per tool holding what the model is shown, and ``--check``.

A snapshot directory holds ``<tool>.json`` files (:func:`~schemalint.diff.render.snapshot_filename`),
each the canonical rendering of one tool (:func:`~schemalint.diff.render.render`).

* :func:`plan_snapshots` computes the expected files; it raises
  :class:`~schemalint.diff.compare.DiffError` for two tools with one name (or two names
  that map to the same file on a case-insensitive file system).
* :func:`check_snapshots` compares them with the directory without writing: ``missing``,
  ``stale`` (bytes differ) and ``orphaned`` (a snapshot of a tool that no longer exists).
* :func:`write_snapshots` writes each changed file atomically (temporary file in the
  same directory, then ``os.replace``) and removes orphans; nothing outside the directory
  changes, and nothing is written when any check fails first.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from schemalint.diff.compare import DiffError, index_tools
from schemalint.diff.render import render, snapshot_filename
from schemalint.model import Tool


@dataclass(frozen=True)
class Problem:
    """One out-of-date snapshot: ``kind`` is ``missing``, ``stale`` or ``orphaned``; ``diff`` unified."""

    kind: str
    filename: str
    tool: str | None
    diff: str


@dataclass
class WriteReport:
    """What :func:`write_snapshots` did: file names written, unchanged and removed."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


def plan_snapshots(tools: Sequence[Tool], label: str = "the sources") -> dict[str, tuple[str, str]]:
    """``{file name: (tool name, rendered text)}`` for ``tools``; :class:`DiffError` on name clashes."""
    by_name = index_tools(tools, label)
    plan: dict[str, tuple[str, str]] = {}
    folded: dict[str, str] = {}
    for name, tool in sorted(by_name.items()):
        filename = snapshot_filename(name)
        other = folded.get(filename.casefold())
        if other is not None:
            raise DiffError(
                f"tools {other!r} and {name!r} differ only in letter case; their snapshot files "
                "would collide on case-insensitive file systems"
            )
        folded[filename.casefold()] = name
        plan[filename] = (name, render(tool))
    return plan


def validate_dir(directory: Path, *, create: bool) -> None:
    """Raise :class:`DiffError` when ``directory`` is a file, or (``create``) its parent is missing."""
    if directory.exists() and not directory.is_dir():
        raise DiffError(f"{directory} exists and is not a directory; choose another --dir")
    if create and not directory.exists() and not directory.parent.is_dir():
        raise DiffError(
            f"{directory.parent} does not exist; create it first (snapshot writes only inside --dir)"
        )


def _is_snapshot_file(path: Path) -> tuple[bool, str | None]:
    """Whether ``path`` holds exactly one tool definition (a snapshot), and that tool's name."""
    from schemalint.api import load_document_tools
    from schemalint.loaders.documents import read_document

    doc = read_document(path)
    if doc.problems:
        return False, None
    tools = load_document_tools(doc)
    if len(tools) == 1 and tools[0].origin.pointer == "":
        return True, tools[0].name
    return False, None


def existing_snapshots(directory: Path) -> dict[str, str]:
    """``{file name: text}`` of the ``*.json`` files directly inside ``directory`` (empty if absent)."""
    if not directory.is_dir():
        return {}
    out: dict[str, str] = {}
    for path in sorted(directory.iterdir()):
        if path.is_file() and path.name.endswith(".json") and not path.name.startswith("."):
            out[path.name] = path.read_bytes().decode("utf-8", errors="replace")
    return out


def check_snapshots(plan: dict[str, tuple[str, str]], directory: Path) -> list[Problem]:
    """Every missing, stale or orphaned snapshot in ``directory``; writes nothing."""
    validate_dir(directory, create=False)
    have = existing_snapshots(directory)
    problems: list[Problem] = []
    shown = directory.as_posix().lstrip("/")  # git-style a/ and b/ prefixes
    for filename, (tool, text) in plan.items():
        old = have.get(filename)
        if old == text:
            continue
        kind = "missing" if old is None else "stale"
        diff = "".join(
            difflib.unified_diff(
                (old or "").splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile="/dev/null" if old is None else f"a/{shown}/{filename}",
                tofile=f"b/{shown}/{filename}",
            )
        )
        problems.append(Problem(kind, filename, tool, diff))
    for filename in sorted(set(have) - set(plan)):
        is_snap, name = _is_snapshot_file(directory / filename)
        if not is_snap:
            continue
        diff = "".join(
            difflib.unified_diff(
                have[filename].splitlines(keepends=True),
                [],
                fromfile=f"a/{shown}/{filename}",
                tofile="/dev/null",
            )
        )
        problems.append(Problem("orphaned", filename, name, diff))
    return problems


def _atomic_write(path: Path, text: str) -> None:
    data = text.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_snapshots(plan: dict[str, tuple[str, str]], directory: Path) -> WriteReport:
    """Bring ``directory`` up to date with ``plan`` (atomic writes, orphans removed).

    Creates ``directory`` itself when missing (not its parents). Raises :class:`DiffError`
    for a directory that is a file or whose parent is missing, and for I/O errors.
    """
    validate_dir(directory, create=True)
    report = WriteReport()
    try:
        if not directory.exists():
            directory.mkdir()
        problems = {p.filename: p for p in check_snapshots(plan, directory)}
        for filename, (_tool, text) in plan.items():
            if filename in problems:
                _atomic_write(directory / filename, text)
                report.written.append(filename)
            else:
                report.unchanged.append(filename)
        for p in problems.values():
            if p.kind == "orphaned":
                (directory / p.filename).unlink()
                report.removed.append(p.filename)
    except OSError as exc:
        raise DiffError(f"{directory}: cannot write snapshots: {exc.strerror or exc}") from None
    return report
