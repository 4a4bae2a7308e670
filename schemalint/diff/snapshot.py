"""``schemalint snapshot``: one file per tool holding what the model is shown, and ``--check``.

A snapshot directory holds ``<tool>.json`` files (:func:`~schemalint.diff.render.snapshot_filename`),
each the canonical rendering of one tool (:func:`~schemalint.diff.render.render`), and
``.schemalint-snapshots`` (:data:`MANIFEST`), the sorted names of the files schemalint wrote there.

* :func:`plan_snapshots` computes the expected files; it raises
  :class:`~schemalint.diff.compare.DiffError` for two tools with one name (or two names
  that map to the same file on a case-insensitive file system).
* :func:`check_snapshots` compares them with the directory without writing: ``missing``,
  ``stale`` (bytes differ) and ``orphaned`` (a snapshot of a tool that no longer exists).
  A ``*.json`` file is schemalint's when the manifest names it, or (a directory written before
  the manifest existed) when its bytes are exactly the rendering of the one tool it holds
  under that tool's file name. Any other file holding a tool definition makes it raise
  :class:`DiffError`: the directory is not a snapshot directory of its own.
* :func:`write_snapshots` writes each changed file atomically (temporary file in the
  same directory, fsync, ``os.replace``), removes only orphans the manifest names, and
  rewrites the manifest; nothing outside the directory changes, and nothing is written
  when any check fails first. Two runs on one directory take turns (a ``flock``).
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from schemalint.diff.errors import DiffError, index_tools
from schemalint.diff.render import TooDeep, render, same_snapshot_text, snapshot_filename
from schemalint.model import Tool


@dataclass(frozen=True)
class Problem:
    """One out-of-date snapshot: ``kind`` is ``missing``, ``stale`` or ``orphaned``; ``diff`` unified."""

    kind: str
    filename: str
    tool: str | None
    diff: str
    recorded: bool = True
    """For ``orphaned``: the manifest names the file (``snapshot`` removes it); ``False`` for a
    snapshot written before the manifest existed (kept, for the user to delete)."""


@dataclass
class WriteReport:
    """What :func:`write_snapshots` did: file names written, unchanged and removed."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """Orphaned snapshots not named in the manifest (written by an older schemalint): not removed."""


MANIFEST = ".schemalint-snapshots"
"""The file in a snapshot directory naming (one per line, sorted) the snapshots schemalint wrote."""

_MANIFEST_HEADER = "# schemalint snapshots: the files below were written by `schemalint snapshot`\n"


MAX_FILE_NAME_BYTES = 255
"""Longest snapshot file name (bytes): NAME_MAX of Linux file systems, macOS APFS and Windows NTFS
(255). A tool whose file name would be longer is refused while planning, before any file is written."""


def plan_snapshots(tools: Sequence[Tool], label: str = "the sources") -> dict[str, tuple[str, str]]:
    """``{file name: (tool name, rendered text)}`` for ``tools``, by tool name; :class:`DiffError`
    on name clashes and for a tool too deep to render (the first such tool by name).

    The tools are rendered in the order given (the order they were parsed in, which keeps the
    encoder's reads close together in memory: by name they took half as long again).
    """
    by_name = index_tools(tools, label)
    rendered: dict[str, str | TooDeep] = {}
    for tool in by_name.values():
        try:
            rendered[tool.name] = render(tool)
        except TooDeep as exc:
            rendered[tool.name] = exc
    plan: dict[str, tuple[str, str]] = {}
    folded: dict[str, str] = {}
    for name in sorted(by_name):
        filename = snapshot_filename(name)
        if len(filename.encode("utf-8")) > MAX_FILE_NAME_BYTES:
            shown = name if len(name) <= 60 else name[:40] + "..." + name[-12:]
            raise DiffError(
                f"tool {shown!r}: its name is too long for a snapshot file (the file name would be "
                f"{len(filename.encode('utf-8')):,} bytes; file systems allow {MAX_FILE_NAME_BYTES}); nothing was "
                "written"
            )
        other = folded.get(filename.casefold())
        if other is not None:
            raise DiffError(
                f"tools {other!r} and {name!r} differ only in letter case; their snapshot files "
                "would collide on case-insensitive file systems"
            )
        folded[filename.casefold()] = name
        text = rendered[name]
        if isinstance(text, TooDeep):
            raise DiffError(str(text)) from None
        plan[filename] = (name, text)
    return plan


def validate_dir(directory: Path, *, create: bool) -> None:
    """Raise :class:`DiffError` when ``directory`` is a file, or (``create``) its parent is missing."""
    if directory.exists() and not directory.is_dir():
        raise DiffError(f"{directory} exists and is not a directory; choose another --dir")
    if create and not directory.exists() and not directory.parent.is_dir():
        raise DiffError(
            f"{directory.parent} does not exist; create it first (snapshot writes only inside --dir)"
        )


def _tools_of(path: Path) -> list[Tool] | None:
    """The tools of the document at ``path``; ``None`` when it cannot be read or parsed."""
    from schemalint.api import load_document_tools
    from schemalint.loaders.files.documents import read_document

    doc = read_document(path)
    if doc.problems:
        return None
    return load_document_tools(doc)


def _single_tool(tools: list[Tool] | None) -> Tool | None:
    """The tool of a document that is exactly one tool definition, else ``None``."""
    if tools is not None and len(tools) == 1 and tools[0].origin.pointer == "":
        return tools[0]
    return None


def read_manifest(directory: Path) -> set[str] | None:
    """The file names :data:`MANIFEST` in ``directory`` lists; ``None`` when there is none.

    Raises :class:`DiffError` when it cannot be read (a merge conflict leaves ``<<<<<<<``
    lines: take both sides' names, or delete it and run ``schemalint snapshot`` again).
    """
    path = directory / MANIFEST
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise DiffError(f"{path}: cannot read the snapshot manifest: {exc}") from None
    names: set[str] = set()
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||")) or "/" in line or not line.endswith(".json"):
            raise DiffError(f"{path}: not a snapshot manifest line: {line[:80]!r} (after a merge conflict keep "
                            "both sides' names, or delete the file and run `schemalint snapshot`)")
        names.add(line)
    return names


def existing_snapshots(directory: Path) -> dict[str, str]:
    """``{file name: text}`` of the ``*.json`` files directly inside ``directory`` (empty if absent),
    in the order of their paths (file names; ignoring case on Windows, as :class:`~pathlib.Path` sorts).

    A file that disappears while the directory is read (another run removed it) is skipped; any
    other :class:`OSError` (a file that cannot be read) is raised. Text that is not UTF-8 is
    decoded with replacement characters (such a file is never a snapshot schemalint wrote).
    """
    texts = SnapshotTexts(directory)
    out: dict[str, str] = {}
    for name in texts:
        text = texts.read(name)
        if text is not None:
            out[name] = text
    return out


class SnapshotTexts(Mapping[str, str]):
    """The ``*.json`` files directly inside a directory, listed once (as :func:`existing_snapshots`
    lists them), each read when its text is asked for and not kept: ``--check`` compares 10,000
    snapshots one at a time instead of holding all their texts (and the memory they fault in).

    ``name in texts`` and iteration use the listing; ``texts[name]`` reads the file (``KeyError``
    when it is not listed or has disappeared since; other :class:`OSError` raised).
    """

    def __init__(self, directory: Path) -> None:
        self._paths: dict[str, str] = {}
        if not directory.is_dir():
            return
        with os.scandir(directory) as listing:  # the names and file types of one directory read
            entries = {e.name: e for e in listing if e.name.endswith(".json") and not e.name.startswith(".")}
        for name in sorted(entries, key=str.lower if os.name == "nt" else None):
            entry = entries[name]
            try:
                if not entry.is_file():  # follows a symbolic link, as Path.is_file
                    continue
            except OSError as exc:
                if exc.errno in _NOT_A_FILE:  # what Path.is_file answers False for (a link loop ...)
                    continue
                raise
            self._paths[name] = entry.path

    def read(self, name: str) -> str | None:
        """The text of the file ``name``; ``None`` when it is not listed or has disappeared."""
        path = self._paths.get(name)
        if path is None:
            return None
        try:
            return _read_bytes(path).decode("utf-8", errors="replace")
        except FileNotFoundError:
            return None

    def __getitem__(self, name: str) -> str:
        text = self.read(name)
        if text is None:
            raise KeyError(name)
        return text

    def __contains__(self, name: object) -> bool:
        return name in self._paths

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


_NOT_A_FILE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP})


def _read_bytes(path: str) -> bytes:
    """The bytes of the file ``path``, read with the operating system's calls (no buffered file
    object: 10,000 snapshots are read per ``--check``). Raises :class:`OSError`."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        size = os.fstat(fd).st_size
        data = os.read(fd, size + 1)  # a regular file reads short only at its end
        if len(data) <= size:
            return data
        chunks = [data]  # it grew meanwhile: read on to its end
        while chunks[-1]:
            chunks.append(os.read(fd, 1 << 20))
        return b"".join(chunks)
    finally:
        os.close(fd)


@dataclass
class Ownership:
    """Which ``*.json`` files of a snapshot directory are schemalint's (see the module docstring)."""

    manifest: set[str] | None
    recorded: set[str] = field(default_factory=set)
    recognised: dict[str, str] = field(default_factory=dict)  # file name -> tool name (pre-manifest)
    foreign: list[str] = field(default_factory=list)  # files holding tools schemalint did not write

    def owns(self, filename: str) -> bool:
        """Whether ``filename`` is a snapshot schemalint wrote."""
        return filename in self.recorded or filename in self.recognised


def ownership(directory: Path, have: Mapping[str, str]) -> Ownership:
    """Classify the files ``have`` (from :func:`existing_snapshots`, or a :class:`SnapshotTexts`,
    whose texts are read only for the files the manifest does not name) of ``directory``."""
    own = Ownership(read_manifest(directory))
    for filename in have:
        if own.manifest is not None and filename in own.manifest:
            own.recorded.add(filename)
            continue
        tools = _tools_of(directory / filename)
        if not tools:
            continue  # not a tool file (or unreadable): not schemalint's, not touched
        tool = _single_tool(tools)
        text = have.get(filename)
        if (tool is not None and snapshot_filename(tool.name) == filename and text is not None
                and _renders_as(tool, text)):
            own.recognised[filename] = tool.name
        else:
            own.foreign.append(filename)
    return own


def _renders_as(tool: Tool, text: str) -> bool:
    """Whether ``text`` is exactly the rendering of ``tool`` (``False`` when it cannot be rendered)."""
    try:
        return same_snapshot_text(text, render(tool))
    except TooDeep:
        return False


def refuse_foreign(directory: Path, own: Ownership, plan: dict[str, tuple[str, str]],
                   have: Mapping[str, str]) -> None:
    """Raise :class:`DiffError` (one line) when ``directory`` holds tool files schemalint did not
    write, or a file it did not write where a snapshot would go."""
    for filename in plan:
        if filename in have and not own.owns(filename) and filename not in own.foreign:
            raise DiffError(f"{directory / filename}: exists and was not written by schemalint; refusing to "
                            "overwrite it with a snapshot (move it out or choose another --dir)")
    if own.foreign:
        first = directory / own.foreign[0]
        more = f" and {len(own.foreign) - 1} other file(s)" if len(own.foreign) > 1 else ""
        raise DiffError(
            f"{first}{more}: a tool definition schemalint did not write; --dir {directory} must be a "
            "directory of its own for the snapshots (move the file out or choose another --dir)"
        )


def check_snapshots(plan: dict[str, tuple[str, str]], directory: Path) -> list[Problem]:
    """Every missing, stale or orphaned snapshot in ``directory``; writes nothing.

    Raises :class:`DiffError` when ``directory`` is a file or holds tool files schemalint did
    not write (:func:`refuse_foreign`), or its manifest cannot be read.
    """
    return _problems(plan, directory)[0]


def _problems(plan: dict[str, tuple[str, str]], directory: Path) -> tuple[list[Problem], Ownership]:
    validate_dir(directory, create=False)
    have = SnapshotTexts(directory)
    own = ownership(directory, have)
    refuse_foreign(directory, own, plan, have)
    problems: list[Problem] = []
    shown = directory.as_posix().lstrip("/")  # git-style a/ and b/ prefixes
    for filename, (tool, text) in plan.items():
        old = have.read(filename)  # one file at a time: an up-to-date one is dropped at once
        if old is not None and same_snapshot_text(old, text):  # an older one with x-schemalint too
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
        if filename in own.recorded:
            tool_obj = _single_tool(_tools_of(directory / filename))
            if tool_obj is None:
                continue  # the manifest names it but it no longer holds one tool: not touched
            name: str | None = tool_obj.name
        elif filename in own.recognised:
            name = own.recognised[filename]
        else:
            continue
        gone = have.read(filename)
        if gone is None:
            continue  # removed meanwhile (another run)
        diff = "".join(
            difflib.unified_diff(
                gone.splitlines(keepends=True),
                [],
                fromfile=f"a/{shown}/{filename}",
                tofile="/dev/null",
            )
        )
        problems.append(Problem("orphaned", filename, name, diff, recorded=filename in own.recorded))
    return problems, own


def write_snapshots(plan: dict[str, tuple[str, str]], directory: Path) -> WriteReport:
    """Bring ``directory`` up to date with ``plan`` (atomic writes, recorded orphans removed,
    :data:`MANIFEST` rewritten).

    Creates ``directory`` itself when missing (not its parents). Raises :class:`DiffError`
    for a directory that is a file or whose parent is missing, that holds tool files
    schemalint did not write, and for I/O errors.
    """
    from schemalint.safe_write import atomic_write_text, directory_lock

    validate_dir(directory, create=True)
    report = WriteReport()
    try:
        directory.mkdir(exist_ok=True)
        with directory_lock(directory):
            problem_list, _own = _problems(plan, directory)
            problems = {p.filename: p for p in problem_list}
            for filename, (_tool, text) in plan.items():
                if filename in problems:
                    atomic_write_text(directory / filename, text)
                    report.written.append(filename)
                else:
                    report.unchanged.append(filename)
            for p in problems.values():
                if p.kind != "orphaned":
                    continue
                if p.recorded:
                    (directory / p.filename).unlink(missing_ok=True)
                    report.removed.append(p.filename)
                else:
                    report.kept.append(p.filename)
            manifest = _MANIFEST_HEADER + "".join(f"{name}\n" for name in sorted(plan))
            current = None
            with contextlib.suppress(OSError):
                current = (directory / MANIFEST).read_text(encoding="utf-8")
            if current != manifest:
                atomic_write_text(directory / MANIFEST, manifest)
    except OSError as exc:
        raise DiffError(f"{directory}: cannot write snapshots: {exc.strerror or exc}") from None
    return report
