"""The two sides of a diff: files, directories, ``REV:PATH`` and configured sources at a revision.

Everything read from git is read with git itself (``git cat-file``, ``git ls-tree``);
nothing in the working tree, the index or ``HEAD`` is changed. Python ``module:attr``
sources at a revision are imported in a subprocess from a temporary ``git worktree``
that is removed afterwards. Every failure raises :class:`~schemalint.diff.compare.DiffError`
(exit code 2) with a message naming the revision and path.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from schemalint.diff.compare import DiffError
from schemalint.loaders.documents import TOOL_FILE_SUFFIXES, Document, parse_text
from schemalint.loaders.sources import SKIPPED_DIRS, SourceError, _excluded, is_python_source
from schemalint.model import Origin, Tool

GIT_TIMEOUT = 120


def git(args: Sequence[str], cwd: str | Path | None = None, *, input: bytes | None = None) -> bytes:
    """Run ``git ARGS`` and return stdout; raises :class:`DiffError` with git's message on failure."""
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, input=input, capture_output=True, timeout=GIT_TIMEOUT, check=False
        )
    except FileNotFoundError:
        raise DiffError("git is not installed (needed for REV:PATH and --base)") from None
    except subprocess.TimeoutExpired:
        raise DiffError(f"git {' '.join(args)} did not finish in {GIT_TIMEOUT} s") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DiffError(f"git {' '.join(args[:2])} failed: {message[-1] if message else proc.returncode}")
    return proc.stdout


def git_root(cwd: str | Path | None = None) -> Path:
    """The top directory of the git repository containing ``cwd``; :class:`DiffError` outside one."""
    where = Path(cwd or os.getcwd()).resolve()
    try:
        out = git(["rev-parse", "--show-toplevel"], cwd=where)
    except DiffError:
        raise DiffError(f"{where} is not inside a git repository; REV:PATH and --base need one") from None
    return Path(out.decode().strip())


def verify_revision(rev: str, cwd: str | Path | None = None) -> str:
    """The full commit id of ``rev``; :class:`DiffError` naming ``rev`` when it does not exist."""
    if not rev or rev.startswith("-"):
        raise DiffError(f"{rev!r} is not a revision")
    try:
        out = git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], cwd=cwd)
    except DiffError:
        raise DiffError(f"revision {rev!r} does not exist in this repository") from None
    return out.decode().strip()


def _decode(name: str, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DiffError(f"{name}: invalid UTF-8 at byte {exc.start}; cannot diff it") from None


def tools_of_document(doc: Document) -> list[Tool]:
    """Every tool of a parsed document; :class:`DiffError` when the document could not be parsed."""
    from schemalint.api import load_document_tools

    errors = [p for p in doc.problems if p.severity == "error"]
    if errors:
        p = errors[0]
        where = f":{p.line}:{p.column}" if p.line else ""
        raise DiffError(f"{doc.path}{where}: {p.message}; cannot diff an unreadable file")
    return load_document_tools(doc)


def _cat_files(specs: Sequence[str], cwd: str | Path) -> list[bytes]:
    """Contents of ``REV:PATH`` blobs, read in one ``git cat-file --batch`` call."""
    if not specs:
        return []
    out = git(["cat-file", "--batch"], cwd=cwd, input="".join(s + "\n" for s in specs).encode())
    blobs: list[bytes] = []
    pos = 0
    for spec in specs:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode()
        if header.endswith(" missing") or header.endswith(" ambiguous"):
            raise DiffError(f"{spec} does not exist")
        size = int(header.rsplit(" ", 1)[1])
        blobs.append(out[end + 1 : end + 1 + size])
        pos = end + 1 + size + 1
    return blobs


def _tool_file(path: str) -> bool:
    parts = path.split("/")
    return path.lower().endswith(TOOL_FILE_SUFFIXES) and not any(p in SKIPPED_DIRS for p in parts[:-1])


def load_rev_path(rev: str, path: str, cwd: str | Path | None = None) -> list[Tool]:
    """Tools of ``path`` (a file or a directory) at revision ``rev``, read with git.

    ``path`` follows git's rules: relative to the repository root, or to the working
    directory when it starts with ``./``. Raises :class:`DiffError` when the directory is
    not in a repository, the revision does not exist, or the path does not exist at it.
    """
    where = Path(cwd or os.getcwd())
    git_root(where)
    verify_revision(rev, where)
    spec = f"{rev}:{path}"
    try:
        kind = git(["cat-file", "-t", spec], cwd=where).decode().strip()
    except DiffError:
        raise DiffError(f"{path!r} does not exist at revision {rev!r}") from None
    if kind == "blob":
        return tools_of_document(parse_text(spec, _decode(spec, _cat_files([spec], where)[0])))
    if kind != "tree":
        raise DiffError(f"{spec} is a {kind}, not a file or directory")
    names = [
        n for n in git(["ls-tree", "-r", "-z", "--name-only", spec], cwd=where).decode().split("\0") if n
    ]
    names = sorted(n for n in names if _tool_file(n))
    base = path.rstrip("/")
    specs = [f"{rev}:{base}/{n}" if base else f"{rev}:{n}" for n in names]
    tools: list[Tool] = []
    for s, data in zip(specs, _cat_files(specs, where), strict=True):
        tools.extend(tools_of_document(parse_text(s, _decode(s, data))))
    return tools


def _is_rev_path(spec: str) -> bool:
    """Whether ``X:Y`` (not an existing path) means ``REV:PATH`` rather than ``module:attr``.

    ``REV:PATH`` when ``Y`` is empty, contains ``/`` or ends with a tool-file suffix, when
    ``X:Y`` is not a valid ``module:attr``, or when ``X`` is a revision of the git
    repository around the working directory (git wins: ``main:tools`` is a path at ``main``).
    """
    rev, _, path = spec.partition(":")
    if not path or "/" in path or path.lower().endswith(TOOL_FILE_SUFFIXES) or not is_python_source(spec):
        return True
    try:
        verify_revision(rev)
    except DiffError:
        return False
    return True


def load_side(spec: str, *, python_path: Sequence[str] = ()) -> list[Tool]:
    """Tools of one side of ``schemalint diff OLD NEW``: a file, a directory, ``REV:PATH`` or ``module:attr``.

    An existing path always wins; ``X:Y`` is read as ``REV:PATH`` by :func:`_is_rev_path`.
    Raises :class:`DiffError`.
    """
    if os.path.exists(spec):
        return load_worktree([spec], python_path=python_path)
    if ":" in spec:
        if _is_rev_path(spec):
            rev, _, path = spec.partition(":")
            return load_rev_path(rev, path)
        return load_worktree([spec], python_path=python_path)
    raise DiffError(f"{spec}: no such file or directory (and not REV:PATH)")


def load_worktree(
    sources: Sequence[str], *, exclude: Sequence[str] = (), python_path: Sequence[str] = ()
) -> list[Tool]:
    """Tools of ``sources`` in the working tree; unreadable files raise :class:`DiffError`."""
    from schemalint.api import load

    files = [s for s in sources if not is_python_source(s)]
    tools: list[Tool] = []
    try:
        loaded = load(files, exclude=exclude)
    except SourceError as exc:
        raise DiffError(str(exc)) from None
    for doc in loaded.documents.values():
        if doc.problems:
            tools_of_document(doc)  # raises DiffError for a file that cannot be parsed
    tools.extend(loaded.tools)
    for source in sources:
        if is_python_source(source):
            tools.extend(load_python_tools(source, python_path))
    return tools


def load_python_tools(source: str, python_path: Sequence[str] = ()) -> list[Tool]:
    """Tools of a ``module:attr`` Python source, imported in this process
    (:func:`schemalint.loaders.python_source.load_python_source`).

    Raises :class:`DiffError` when the import fails.
    """
    from schemalint.loaders.python_source import load_python_source

    try:
        return list(load_python_source(source, python_path))
    except SourceError as exc:
        raise DiffError(str(exc)) from None


def tool_to_json(tool: Tool) -> dict[str, Any]:
    """A JSON-ready form of ``tool`` (runtime validators are dropped) for the worktree worker."""
    return {
        "name": tool.name,
        "description": tool.description,
        "advertised": tool.advertised,
        "schema_path": tool.schema_path,
        "output_schema": tool.output_schema,
        "raw": dict(tool.raw) if tool.raw is not None else None,
        "origin": {
            "file": tool.origin.file,
            "pointer": tool.origin.pointer,
            "format": tool.origin.format,
            "line": tool.origin.line,
        },
    }


def tool_from_json(data: dict[str, Any], file: str) -> Tool:
    """Rebuild a :class:`Tool` from :func:`tool_to_json` output, with ``file`` as its origin."""
    o = data["origin"]
    return Tool(
        name=data["name"],
        description=data["description"],
        advertised=data["advertised"],
        origin=Origin(file, o["pointer"], o["format"], o["line"]),
        schema_path=data["schema_path"],
        output_schema=data["output_schema"],
        raw=data["raw"],
    )


def load_base(
    rev: str,
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    python_path: Sequence[str] = (),
    notes: list[str] | None = None,
) -> list[Tool]:
    """Tools of the configured ``sources`` as they were at revision ``rev``.

    File sources (files, directories, globs, relative to the working directory) are read
    with ``git ls-tree``/``git cat-file``; a source absent at ``rev`` contributes no tools
    (its tools count as added) and a note is appended to ``notes``. Python sources are
    imported from a temporary ``git worktree`` in a subprocess (see
    :func:`load_python_at_revision`). Raises :class:`DiffError`.
    """
    cwd = Path.cwd()
    root = git_root(cwd)
    commit = verify_revision(rev, cwd)
    prefix = git(["rev-parse", "--show-prefix"], cwd=cwd).decode().strip()
    listing = [
        n
        for n in git(["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit], cwd=root)
        .decode()
        .split("\0")
        if n
    ]
    files_at_rev = set(listing)
    wanted: list[str] = []
    for source in sources:
        if is_python_source(source):
            continue
        abs_path = (cwd / source).resolve() if not os.path.isabs(source) else Path(source).resolve()
        try:
            rel = abs_path.relative_to(root.resolve()).as_posix()
        except ValueError:
            raise DiffError(f"{source}: outside the git repository {root}") from None
        rel = "" if rel == "." else rel
        if any(ch in source for ch in "*?["):
            pattern = os.path.normpath(os.path.join(prefix, source)).replace(os.sep, "/")
            matched = [n for n in listing if fnmatch.fnmatch(n, pattern) and _tool_file(n)]
        elif rel in files_at_rev:
            matched = [rel]
        else:
            under = rel + "/" if rel else ""
            matched = [n for n in listing if n.startswith(under) and _tool_file(n[len(under) :])]
        if not matched and notes is not None:
            notes.append(f"{source} does not exist at {rev}: its tools count as added")
        for name in matched:
            shown = os.path.relpath(root / name, cwd).replace(os.sep, "/")
            if name not in wanted and not _excluded(shown, exclude):
                wanted.append(name)
    specs = [f"{commit}:{n}" for n in wanted]
    tools: list[Tool] = []
    for name, data in zip(wanted, _cat_files(specs, root), strict=True):
        shown = f"{rev}:{os.path.relpath(root / name, cwd)}"
        tools.extend(tools_of_document(parse_text(shown, _decode(shown, data))))
    python_sources = [s for s in sources if is_python_source(s)]
    if python_sources:
        tools.extend(
            load_python_at_revision(
                commit, python_sources, root=root, prefix=prefix, python_path=python_path, label=rev
            )
        )
    return tools


def load_python_at_revision(
    commit: str, sources: Sequence[str], *, root: Path, prefix: str, python_path: Sequence[str], label: str
) -> list[Tool]:
    """Import ``module:attr`` sources as they were at ``commit``.

    Creates a detached ``git worktree`` in a temporary directory (the main working tree,
    index and ``HEAD`` are not touched, so a dirty working tree is fine), runs
    :mod:`schemalint.diff.worker` in a subprocess with that checkout first on
    ``sys.path``, and removes the worktree afterwards (also on failure).
    """
    tmp = Path(tempfile.mkdtemp(prefix="schemalint-base-"))
    checkout = tmp / "checkout"
    try:
        git(["worktree", "add", "--detach", "--quiet", str(checkout), commit], cwd=root)
        request = {
            "root": str(checkout / prefix),
            "sources": list(sources),
            "python_path": [str(p) for p in python_path],
        }
        try:
            proc = subprocess.run(
                [sys.executable, "-c", "from schemalint.diff.worker import main; main()"],
                input=json.dumps(request),
                capture_output=True,
                text=True,
                cwd=tmp,
                timeout=600,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise DiffError(f"importing {', '.join(sources)} at {label} took more than 600 s") from None
        if proc.returncode != 0:
            lines = proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"]
            raise DiffError(f"at {label}: {lines[-1]}")
        payload = json.loads(proc.stdout)
        return [tool_from_json(t, f"{label}:{t['origin']['file']}") for t in payload["tools"]]
    finally:
        with contextlib.suppress(DiffError):
            git(["worktree", "remove", "--force", str(checkout)], cwd=root)
        shutil.rmtree(tmp, ignore_errors=True)
        with contextlib.suppress(DiffError):
            git(["worktree", "prune"], cwd=root)


def iter_tool_files(directory: Path) -> Iterable[Path]:
    """The ``*.json`` files directly inside ``directory`` (snapshot files), sorted."""
    return sorted(p for p in directory.iterdir() if p.is_file() and p.name.endswith(".json"))
