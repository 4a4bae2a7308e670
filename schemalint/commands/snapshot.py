"""``schemalint snapshot``: one file per tool holding what the model is shown, and ``--check``.

A snapshot directory holds ``<tool>.json`` files (:func:`~schemalint.diff.render.snapshot_filename`),
each the canonical rendering of one tool (:func:`~schemalint.diff.render.render`), and
``.schemalint-snapshots`` (:data:`MANIFEST`), the record of the files schemalint wrote there: one
line per file, its name and the SHA-256 of the bytes written (``s.json  sha256:<hex>``).

The record is not trusted blindly (docs/security.md): a file counts as written by schemalint
(removed when its tool is gone, replaced when stale) only when its bytes still hash to the recorded
value, it is a regular file (never a symbolic link) and it holds exactly one tool whose snapshot
file name is its own name. A file listed without a hash (a record of an older schemalint) or whose
bytes changed is not provably schemalint's: it is replaced only when it is exactly the rendering
of its tool (as a directory without a record), never removed, and ``snapshot`` says so. A symbolic
link where a snapshot would go is refused; nothing is written or removed outside the directory.

* :func:`plan_snapshots` computes the expected files; it raises
  :class:`~schemalint.diff.errors.DiffError` for two tools with one name (or two names
  that map to the same file on a case-insensitive file system).
* :func:`check_snapshots` compares them with the directory without writing: ``missing``,
  ``stale`` (bytes differ) and ``orphaned`` (a snapshot of a tool that no longer exists).
  A ``*.json`` file is schemalint's when the manifest names it, or (a directory written before
  the manifest existed) when its bytes are exactly the rendering of the one tool it holds
  under that tool's file name. Any other file holding a tool definition makes it raise
  :class:`DiffError`: the directory is not a snapshot directory of its own.
* :func:`write_snapshots` writes each changed file atomically (temporary file in the
  same directory, fsync, ``os.replace``, never through a link), removes only orphans the
  manifest proves schemalint wrote, and rewrites the manifest with the new hashes; nothing
  outside the directory changes, and nothing is written when any check fails first.
  Two runs on one directory take turns (a ``flock``).
"""

from __future__ import annotations

import contextlib
import difflib
import errno
import hashlib
import os
import stat
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from schemalint.diff.errors import DiffError, index_tools
from schemalint.diff.render import NotJson, TooDeep, render, same_snapshot_text, snapshot_filename
from schemalint.model import Tool


@dataclass(frozen=True)
class Problem:
    """One out-of-date snapshot: ``kind`` is ``missing``, ``stale`` or ``orphaned``; ``diff`` unified."""

    kind: str
    filename: str
    tool: str | None
    diff: str
    recorded: bool = True
    """For ``orphaned``: the manifest proves schemalint wrote the file (``snapshot`` removes it);
    ``False`` for one it cannot prove it wrote (no record, a record without a content hash, or
    bytes changed since): kept, for the user to delete."""


@dataclass
class WriteReport:
    """What :func:`write_snapshots` did: file names written, unchanged and removed."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    """Orphaned snapshots the manifest does not prove schemalint wrote: not removed."""


MANIFEST = ".schemalint-snapshots"
"""The file in a snapshot directory naming (one per line, sorted) the snapshots schemalint wrote,
each with the SHA-256 of its bytes."""

_HASH_PREFIX = "sha256:"

_MANIFEST_HEADER = ("# schemalint snapshots: the files below were written by `schemalint snapshot`, each with the\n"
                    "# SHA-256 of its bytes; a file whose bytes changed is not removed or overwritten\n")


MAX_FILE_NAME_BYTES = 255
"""Longest snapshot file name (bytes): NAME_MAX of Linux file systems, macOS APFS and Windows NTFS
(255). A tool whose file name would be longer is refused while planning, before any file is written."""


def plan_snapshots(tools: Sequence[Tool], label: str = "the sources") -> dict[str, tuple[str, str]]:
    """``{file name: (tool name, rendered text)}`` for ``tools``, by tool name; :class:`DiffError`
    on name clashes and for a tool too deep to render or holding a value JSON cannot hold (the first
    such tool by name).

    The tools are rendered in the order given (the order they were parsed in, which keeps the
    encoder's reads close together in memory: by name they took half as long again).
    """
    by_name = index_tools(tools, label)
    rendered: dict[str, str | TooDeep | NotJson] = {}
    for key, tool in by_name.items():
        try:
            rendered[key] = render(tool)
        except (TooDeep, NotJson) as exc:
            rendered[key] = exc
    plan: dict[str, tuple[str, str]] = {}
    folded: dict[str, str] = {}
    for name in sorted(by_name):
        tool_name = by_name[name].name
        # a name defined in several files: one snapshot per file, <name>--<file>.json
        filename = (snapshot_filename(name) if name == tool_name else
                    snapshot_filename(f"{tool_name}--{_file_part(name[len(tool_name) + 2:-1])}"))
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
        if isinstance(text, (TooDeep, NotJson)):
            raise DiffError(str(text)) from None
        plan[filename] = (name, text)
    return plan


def _file_part(path: str) -> str:
    """``path`` as a readable file-name part: runs of other characters than letters, digits,
    ``_``, ``-`` and ``.`` become one ``_`` (``tools/a b.json`` -> ``tools_a_b.json``)."""
    import re

    return re.sub(r"[^A-Za-z0-9_.-]+", "_", path).strip("_.") or "_"


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


def read_manifest(directory: Path) -> dict[str, str | None] | None:
    """``{file name: recorded SHA-256 hex digest, or None}`` of :data:`MANIFEST` in ``directory``
    (``None`` for a line without a hash, as older versions wrote); ``None`` when there is none.

    Raises :class:`DiffError` when it cannot be read, is a symbolic link or not a regular file, or
    holds a line that is not a record line (a merge conflict leaves ``<<<<<<<`` lines: take both
    sides' names, or delete it and run ``schemalint snapshot`` again).
    """
    path = directory / MANIFEST
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise DiffError(f"{path}: cannot read the snapshot manifest: {exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise DiffError(f"{path}: the snapshot manifest is a symbolic link or not a regular file; schemalint "
                        "never reads or writes its record through a link (delete it and run `schemalint snapshot`)")
    try:
        text = _read_bytes(str(path)).decode("utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise DiffError(f"{path}: cannot read the snapshot manifest: {exc}") from None
    names: dict[str, str | None] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, digest = line.partition("  ")
        digest = digest.strip()
        if (line.startswith(("<<<<<<<", "=======", ">>>>>>>", "|||||||")) or "/" in name or not name.endswith(".json")
                or (digest and not _is_digest(digest))):
            raise DiffError(f"{path}: not a snapshot manifest line: {line[:80]!r} (after a merge conflict keep "
                            "both sides' names, or delete the file and run `schemalint snapshot`)")
        names[name] = digest[len(_HASH_PREFIX):] if digest else None
    return names


def _is_digest(text: str) -> bool:
    hexpart = text[len(_HASH_PREFIX):]
    return text.startswith(_HASH_PREFIX) and len(hexpart) == 64 and all(c in "0123456789abcdef" for c in hexpart)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def existing_snapshots(directory: Path) -> dict[str, str]:
    """``{file name: text}`` of the ``*.json`` regular files (not symbolic links) directly inside
    ``directory`` (empty if absent),
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
        self.links: list[str] = []
        """``*.json`` names that are symbolic links: never read, written or removed through."""
        if not directory.is_dir():
            return
        with os.scandir(directory) as listing:  # the names and file types of one directory read
            entries = {e.name: e for e in listing if e.name.endswith(".json") and not e.name.startswith(".")}
        for name in sorted(entries, key=str.lower if os.name == "nt" else None):
            entry = entries[name]
            try:
                if entry.is_symlink():
                    self.links.append(name)
                    continue
                if not entry.is_file():
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

    manifest: dict[str, str | None] | None
    recorded: set[str] = field(default_factory=set)  # proven by the record's content hash
    recognised: dict[str, str] = field(default_factory=dict)  # file name -> tool name (exact renderings)
    foreign: list[str] = field(default_factory=list)  # files holding tools schemalint did not write
    unproven: dict[str, str | None] = field(default_factory=dict)
    """Files the record lists that it does not prove (no hash, as older records, or bytes that
    changed since), with their recorded hash: kept, and listed again in the new record."""

    def owns(self, filename: str) -> bool:
        """Whether ``filename`` is a snapshot schemalint wrote (proven, or exactly a rendering)."""
        return filename in self.recorded or filename in self.recognised


def ownership(directory: Path, have: Mapping[str, str], skip: Iterable[str] = ()) -> Ownership:
    """Classify the files ``have`` (from :func:`existing_snapshots`, or a :class:`SnapshotTexts`,
    whose texts are read only for the files the manifest does not prove) of ``directory``.
    ``skip``: names decided later by the caller (planned snapshots: only a stale one needs proof,
    :func:`may_replace`)."""
    own = Ownership(read_manifest(directory))
    skipped = set(skip)
    for filename in have:
        if filename in skipped:
            continue
        if own.manifest is not None and filename in own.manifest:
            if _proven(directory, filename, own.manifest[filename]):
                own.recorded.add(filename)
                continue
            own.unproven[filename] = own.manifest[filename]
            name = _rendering_at_own_name(directory, filename)
            if name is not None:
                own.recognised[filename] = name
            continue  # listed once: kept (and listed again), never an error, never removed
        _classify(directory, filename, have, own)
    return own


def _classify(directory: Path, filename: str, have: Mapping[str, str], own: Ownership) -> None:
    """A file the record does not list: schemalint's when it is exactly the rendering of its one tool
    under that tool's file name (written before the record existed), else foreign when it holds tools."""
    tools = _tools_of(directory / filename)
    if not tools:
        return  # not a tool file (or unreadable): not schemalint's, not touched
    tool = _single_tool(tools)
    text = have.get(filename)
    if (tool is not None and snapshot_filename(tool.name) == filename and text is not None
            and _renders_as(tool, text)):
        own.recognised[filename] = tool.name
    else:
        own.foreign.append(filename)


def _proven(directory: Path, filename: str, digest: str | None) -> bool:
    """Whether the record proves schemalint wrote ``filename``: a recorded hash its bytes still have,
    a regular file (not a link), exactly the rendering of one tool whose snapshot file name is
    ``filename`` (a forged record naming a hand-written file with that file's hash proves nothing)."""
    if digest is None:
        return False
    path = directory / filename
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode) or _digest(_read_bytes(str(path))) != digest:
            return False
    except OSError:
        return False
    return _rendering_at_own_name(directory, filename) is not None


def _rendering_at_own_name(directory: Path, filename: str, text: str | None = None) -> str | None:
    """The tool name when ``filename`` holds exactly one tool, named so that its snapshot file is
    ``filename``, and its text is exactly that tool's rendering; else ``None``."""
    path = directory / filename
    tool = _single_tool(_tools_of(path))
    if tool is None or snapshot_filename(tool.name) != filename:
        return None
    if text is None:
        try:
            text = _read_bytes(str(path)).decode("utf-8", errors="replace")
        except OSError:
            return None
    return tool.name if _renders_as(tool, text) else None


def may_replace(directory: Path, filename: str, own: Ownership, old: str) -> str | None:
    """Why the existing snapshot file ``filename`` (text ``old``) must not be overwritten, or ``None``
    when it may: it is exactly the rendering of its one tool under that tool's file name (what
    schemalint writes; the stale snapshot of an earlier definition), whatever the record says."""
    recorded = own.manifest.get(filename) if own.manifest is not None else None
    if filename in own.recognised or _rendering_at_own_name(directory, filename, old) is not None:
        return None
    if recorded is not None:
        return (f"{directory / filename}: changed since schemalint wrote it (its content no longer has the hash "
                f"{MANIFEST} records) and is not a snapshot schemalint would write; refusing to overwrite it "
                "(move it out, or delete it if it is yours to replace)")
    if own.manifest is not None and filename in own.manifest:
        return (f"{directory / filename}: listed in {MANIFEST} without a content hash (an older record), so not "
                "provably written by schemalint, and not a snapshot schemalint would write; refusing to overwrite "
                "it (move it out, or delete it if it is yours to replace)")
    return (f"{directory / filename}: exists and was not written by schemalint; refusing to "
            "overwrite it with a snapshot (move it out or choose another --dir)")


def _renders_as(tool: Tool, text: str) -> bool:
    """Whether ``text`` is exactly the rendering of ``tool`` (``False`` when it cannot be rendered)."""
    try:
        return same_snapshot_text(text, render(tool))
    except (TooDeep, NotJson):
        return False


def refuse_foreign(directory: Path, own: Ownership, have: SnapshotTexts | None = None,
                   plan: Mapping[str, tuple[str, str]] | None = None) -> None:
    """Raise :class:`DiffError` (one line) when ``directory`` holds tool files schemalint did not
    write, or a symbolic link where a snapshot of ``plan`` would go."""
    links = [name for name in (have.links if have is not None else []) if plan is None or name in plan]
    if links:
        raise DiffError(f"{directory / links[0]}: a symbolic link where a snapshot would go; schemalint never writes "
                        "through a link (replace it with the file, or remove it)")
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


def _problems(plan: dict[str, tuple[str, str]], directory: Path, *,
              writing: bool = False) -> tuple[list[Problem], Ownership]:
    validate_dir(directory, create=False)
    have = SnapshotTexts(directory)
    own = ownership(directory, have, skip=plan)
    refuse_foreign(directory, own, have, plan)
    problems: list[Problem] = []
    shown = directory.as_posix().lstrip("/")  # git-style a/ and b/ prefixes
    for filename, (tool, text) in plan.items():
        old = have.read(filename)  # one file at a time: an up-to-date one is dropped at once
        if old is not None and same_snapshot_text(old, text):  # an older one with x-schemalint too
            continue
        if old is not None and writing:  # --check writes nothing: a stale file is reported, not refused
            refusal = may_replace(directory, filename, own, old)
            if refusal:
                raise DiffError(refusal)
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
        if filename in own.recorded:  # proven: one tool under its own file name
            tool_obj = _single_tool(_tools_of(directory / filename))
            if tool_obj is None:
                continue
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
            problem_list, own = _problems(plan, directory, writing=True)
            problems = {p.filename: p for p in problem_list}
            digests: dict[str, str] = {}
            for filename, (_tool, text) in plan.items():
                if filename in problems:
                    atomic_write_text(directory / filename, text, follow_links=False)
                    digests[filename] = _digest(text.encode("utf-8"))
                    report.written.append(filename)
                else:
                    digests[filename] = _digest(_read_bytes(str(directory / filename)))
                    report.unchanged.append(filename)
            for p in problems.values():
                if p.kind != "orphaned":
                    continue
                path = directory / p.filename
                if p.recorded and not os.path.islink(path):
                    path.unlink(missing_ok=True)
                    report.removed.append(p.filename)
                else:
                    report.kept.append(p.filename)
            rows = {name: f"{name}  {_HASH_PREFIX}{digest}\n" for name, digest in digests.items()}
            for name in report.kept:  # still not provably schemalint's: listed as before, with their message
                if name in own.unproven or name in own.recognised:
                    recorded = own.unproven.get(name)
                    rows[name] = f"{name}  {_HASH_PREFIX}{recorded}\n" if recorded else f"{name}\n"
            manifest = _MANIFEST_HEADER + "".join(rows[name] for name in sorted(rows))
            current = None
            with contextlib.suppress(OSError):
                if not os.path.islink(directory / MANIFEST):
                    current = (directory / MANIFEST).read_text(encoding="utf-8")
            if current != manifest:
                atomic_write_text(directory / MANIFEST, manifest, follow_links=False)
    except OSError as exc:
        raise DiffError(f"{directory}: cannot write snapshots: {exc.strerror or exc}") from None
    return report
