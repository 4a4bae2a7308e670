"""The two sides of a diff: files, directories, ``REV:PATH`` and configured sources at a revision.

What is read from git is read by :mod:`schemalint.loaders.git` (nothing in the working
tree, the index or ``HEAD`` is changed; Python ``module:attr`` sources at a revision are
imported from a temporary ``git worktree``). This module chooses and reads the two sides and
shares parsed files between them. Every failure raises :class:`~schemalint.diff.errors.DiffError`
(exit code 2) with a message naming the revision and path.
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import gc
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from schemalint.diff.errors import DiffError
from schemalint.loaders.files.documents import (
    FREEZE_TOOLS,
    TOOL_FILE_SUFFIXES,
    Document,
    kind_for,
    looks_like_tool_file,
    parse_text,
    read_document,
    read_source_bytes,
)
from schemalint.loaders.files.evidence import Held
from schemalint.loaders.files.sources import (
    SKIPPED_DIRS,
    SourceError,
    _excluded,
    is_module_source,
    is_python_source,
    is_typescript_source,
    missing_source_message,
    python_file_attr,
    safe_glob,
    split_typescript_source,
)
from schemalint.loaders.git.commands import GitError, cat_files, git, git_root, tree_files, verify_revision
from schemalint.loaders.git.worktree import load_python_at_revision
from schemalint.model import Origin, Tool

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _git_errors_as_diff_errors(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """``func`` with every :class:`GitError` raised as :class:`DiffError` (same message)."""

    @functools.wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return func(*args, **kwargs)
        except GitError as exc:
            raise DiffError(str(exc)) from None

    return wrapper

def _decode(name: str, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DiffError(f"{name}: invalid UTF-8 at byte {exc.start}; cannot diff it") from None


Values = list[tuple[int | None, Any]]
"""The parsed top-level values of a file with their JSON Lines line numbers (``Document.values``)."""


class ParsedFiles:
    """The parsed files of one side of a diff, so that the other side need not parse its copies.

    Two revisions share most files byte for byte, and equal bytes parse to equal values. A
    file is known by ``key``, its place in its side (its path relative to the directory
    compared, or its absolute path for ``--base``); the second side takes the values of the
    file at the same place, when its bytes and document kind are the same, instead of
    parsing them again. The tools found in them are then the same objects on both sides,
    which :func:`schemalint.diff.render.same_rendering` recognises without rendering. The
    bytes of every file parsed are kept until this object is dropped (``remember=False``:
    nothing is kept, for a load that has no other side). The tools of such a file are not
    searched for again either (:meth:`tools`).
    """

    def __init__(self, *, remember: bool = True) -> None:
        self._by_key: dict[str, tuple[str, bytes, Values]] = {}
        self._tools_by_key: dict[str, tuple[Values, list[Tool]]] = {}
        self._remember = remember
        self._unchecked: dict[int, tuple[Values, Document]] = {}
        """Values read by the loader's own reader (``slow()``), which may hold what JSON cannot (NaN,
        YAML ``!!binary``...), by ``id``, with their document, until :meth:`tools` checks their tools."""

    def tools(self, name: str, values: Values, key: str) -> list[Tool]:
        """``tools_of_values(values, name)``: when the tools of these very ``values`` (the file
        at ``key`` of the other side, byte for byte) were found already, the same tools with
        ``name`` as their file (a tool depends only on the values, its place in them and the
        file name it is given); else found in ``values`` (and remembered)."""
        seen = self._tools_by_key.get(key)
        if seen is not None and seen[0] is values:
            return [_in_file(tool, name) for tool in seen[1]]
        tools = tools_of_values(values, name)
        unchecked = self._unchecked.pop(id(values), None)
        if unchecked is not None and unchecked[0] is values:
            refuse_non_json(tools, unchecked[1])
        if self._remember:
            self._tools_by_key.setdefault(key, (values, tools))
        return tools

    def values(self, name: str, data: bytes, key: str, slow: Callable[[], Document],
               *, explicit: bool = True) -> Values:
        """The parsed values of ``data`` (the file ``name``, at ``key``).

        JSON is parsed with orjson straight from the bytes; anything else, and JSON orjson
        refuses (invalid UTF-8 or JSON, NaN, huge integers, deep nesting), goes through
        ``slow()``, the loader's own reading of the file, whose tools :meth:`tools` then checks for
        values JSON cannot hold (:func:`refuse_non_json`). Raises :class:`DiffError` for a
        file that cannot be parsed, unless it was found by a walk (``explicit=False``), does not
        look like a tool file and held no tools on the other side of the diff: then it has no
        values (see :func:`parsed_values`).
        """
        kind = kind_for(name)
        seen = self._by_key.get(key)
        if seen is not None and seen[0] == kind and seen[1] == data:
            return seen[2]
        values: Values | None = None
        if kind == "json" and not data.startswith(b"\xef\xbb\xbf"):
            import orjson

            from schemalint.loaders.files.documents import misread_huge_integer

            try:
                parsed = orjson.loads(data)
                values = None if misread_huge_integer(data, parsed) else [(None, parsed)]
            except orjson.JSONDecodeError:
                values = None
        if values is None:
            # A file whose tools the other side read is not dropped silently when it breaks.
            held_tools = seen is not None and bool(tools_of_values(seen[2], name))
            doc = slow()
            values = parsed_values(doc, explicit or held_tools)
            if values:
                self._unchecked[id(values)] = (values, doc)
        if self._remember:
            self._by_key.setdefault(key, (kind, data, values))
        return values


@contextlib.contextmanager
def _parsing(tools: list[Tool]) -> Iterator[None]:
    """As :func:`schemalint.api.load`: parsed JSON holds no reference cycles, so the cyclic
    collector is paused while files are parsed, and from ``FREEZE_TOOLS`` tools on the loaded
    objects are frozen afterwards (its later passes skip them)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
    if len(tools) >= FREEZE_TOOLS:
        gc.freeze()


def check_document(doc: Document) -> None:
    """Raise :class:`DiffError` when ``doc`` could not be parsed (an error, not a warning)."""
    errors = [p for p in doc.problems if p.severity == "error"]
    if errors:
        p = errors[0]
        where = f":{p.line}:{p.column}" if p.line else ""
        raise DiffError(f"{doc.path}{where}: {p.message}; cannot diff an unreadable file")


def refuse_non_json(tools: Sequence[Tool], doc: Document) -> None:
    """Raise :class:`DiffError` when the definition of one of ``tools`` (found in ``doc``) holds a
    value JSON cannot hold: NaN, an infinity, YAML ``!!binary`` data or a ``!!set``
    (:func:`~schemalint.schema.nonjson.non_json_values`). A snapshot must be JSON, and a diff
    compares what a snapshot holds, so neither command reads such a tool; the message names the
    file, line and column, the JSON pointer, the tool and the value (``check`` reports the same
    value as SL001). Only the first such value is named."""
    import orjson

    from schemalint.diff.render import shown_definition
    from schemalint.schema.nonjson import may_hold_non_json, non_json_values, why_not_json

    for tool in tools:
        shown = shown_definition(tool)
        try:
            encoded: bytes | None = orjson.dumps(shown, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
        except (TypeError, orjson.JSONEncodeError):
            encoded = None
        found = non_json_values(shown, 1) if may_hold_non_json(encoded) else []
        if not found:
            continue
        inner, what = found[0]
        pointer = tool.origin.pointer + inner if isinstance(tool.raw, Mapping) else tool.origin.pointer
        raise DiffError(f"{_located(doc, tool, pointer)}: {what} at {pointer or '/'} (tool {tool.name!r}) is not a "
                        f"JSON value: {why_not_json(what)}, so schemalint neither "
                        "snapshots nor compares it (in a schema, `schemalint check` reports it as SL001 "
                        "invalid-schema); write a JSON value there")


def _located(doc: Document, tool: Tool, pointer: str) -> str:
    """``file:line:column`` of ``pointer`` in ``doc`` (``file`` alone when it cannot be found)."""
    from schemalint.engine.locate import locate

    text, first = doc.text, None
    if doc.kind == "jsonl" and tool.origin.line:
        lines = doc.text.splitlines()
        if tool.origin.line <= len(lines):
            text, first = lines[tool.origin.line - 1], tool.origin.line
    try:
        position = locate(text, "yaml" if doc.kind == "yaml" else "json", [pointer], first_line=first).get(pointer)
    except (ValueError, RecursionError):
        position = None
    return f"{tool.origin.file}:{position[0]}:{position[1]}" if position else tool.origin.file


def skip_note(name: str, message: str) -> None:
    """Print on stderr that the file ``name`` was skipped, with why it does not parse."""
    print(f"schemalint: note: {name}: skipped, it does not parse ({message}) and does not look like a "
          "tool file (name it as a source to make this an error)", file=sys.stderr)


def parsed_values(doc: Document, explicit: bool) -> Values:
    """The values of ``doc``; check's policy for a file that could not be parsed.

    A file named explicitly, or one that looks like a tool file
    (:func:`~schemalint.loaders.files.documents.looks_like_tool_file`), raises
    :class:`DiffError`; any other (found by a directory walk: ``tsconfig.json`` with comments,
    CloudFormation YAML with ``!Ref``) is skipped with a note on stderr and has no values, as
    ``check`` skips it (:func:`~schemalint.loaders.files.documents.reportable_problems`).
    """
    errors = [p for p in doc.problems if p.severity == "error"]
    if errors and not explicit and not looks_like_tool_file(doc.path, doc.text):
        skip_note(doc.path, errors[0].message)
        return []
    check_document(doc)
    return doc.values


def select_data_tools(path: str, explicit: bool, values: Values, tools: list[Tool], data: bytes | str,
                      held: list[Held]) -> list[Tool]:
    """The tools of the data file ``path`` that a diff or a snapshot reads: ``check``'s evidence rule
    for a data file of a web front end (:func:`schemalint.loaders.files.evidence.select_tools`, the
    one function every command applies); a file whose tool-shaped objects are held back is appended
    to ``held`` (for :func:`held_notice`). ``data``: the file's bytes or text, read for recorded
    traffic only when the file would be held back."""
    from schemalint.loaders.files.evidence import select_tools

    def traffic() -> bool:
        from schemalint.traffic.detect import holds_traffic

        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        return bool(values) and holds_traffic(text, values, path)

    kept, one = select_tools(path, explicit, values, tools, traffic)
    if one is not None:
        held.append(one)
    return kept


def held_notice(held: Sequence[Held], notes: list[str] | None = None) -> None:
    """Say that data files were held back (:func:`~schemalint.loaders.files.evidence.held_note`): in
    ``notes`` when given, else as a note on stderr."""
    if not held:
        return
    from schemalint.loaders.files.evidence import held_note

    if notes is not None:
        notes.append(held_note(held))
    else:
        print(f"schemalint: note: {held_note(held)}", file=sys.stderr)


def _in_file(tool: Tool, file: str) -> Tool:
    """``tool`` with ``file`` as its origin's file, everything else shared (``dataclasses.replace``
    without running the frozen classes' ``__init__``, whose checked assignments cost more than
    finding the tool again)."""
    origin = object.__new__(Origin)
    origin.__dict__.update(tool.origin.__dict__)
    origin.__dict__["file"] = file
    moved = object.__new__(Tool)
    moved.__dict__.update(tool.__dict__)
    moved.__dict__["origin"] = origin
    return moved


def tools_of_values(values: Values, name: str) -> list[Tool]:
    """Every tool found by shape in the parsed values of the file ``name``."""
    from schemalint.loaders.formats.json_tools import find_tools

    tools: list[Tool] = []
    for line, value in values:
        tools.extend(find_tools(value, name, line))
    return tools


def _tool_file(path: str) -> bool:
    parts = path.split("/")
    return path.lower().endswith(TOOL_FILE_SUFFIXES) and not any(p in SKIPPED_DIRS for p in parts[:-1])


def _blob_tools(files: ParsedFiles, name: str, data: bytes, key: str, *, explicit: bool = True,
                path: str | None = None, held: list[Held] | None = None) -> list[Tool]:
    """Tools of the git blob ``data`` shown as ``name`` (``REV:PATH``); ``explicit``: see
    :func:`parsed_values` (a blob that is not UTF-8 is judged by its name only). ``path``: the
    blob's path relative to the working directory, judged by the evidence rule for data files of a
    web front end (:func:`select_data_tools`, held files appended to ``held``); ``None``: not judged."""
    try:
        text = _decode(name, data)
    except DiffError as exc:
        if explicit or looks_like_tool_file(name, ""):
            raise
        skip_note(name, str(exc).removeprefix(f"{name}: ").removesuffix("; cannot diff it"))
        return []
    values = files.values(name, data, key, lambda: parse_text(name, text), explicit=explicit)
    tools = files.tools(name, values, key)
    if path is None or held is None:
        return tools
    return select_data_tools(path, explicit, values, tools, text, held)


@_git_errors_as_diff_errors
def load_rev_path(
    rev: str, path: str, cwd: str | Path | None = None, *, exclude: Sequence[str] = (),
    reuse: ParsedFiles | None = None,
) -> list[Tool]:
    """Tools of ``path`` (a file or a directory) at revision ``rev``, read with git.

    ``path`` follows git's rules: relative to the repository root, or to the working
    directory when it starts with ``./``. ``exclude``: fnmatch patterns, matched as a walk of
    the directory ``path`` in the working tree would match them (against ``path/<file>`` and
    each of its parts). ``reuse``: see :func:`load_side`. Raises :class:`DiffError` when the
    directory is not in a repository, the revision does not exist, or the path does not exist at it.
    """
    files = reuse if reuse is not None else ParsedFiles(remember=False)
    where = Path(cwd or os.getcwd())
    git_root(where)
    verify_revision(rev, where)
    spec = f"{rev}:{path}"
    try:
        kind = git(["cat-file", "-t", spec], cwd=where).decode().strip()
    except GitError:
        raise DiffError(f"{path!r} does not exist at revision {rev!r}") from None
    if kind == "blob":
        if _excluded(path, exclude):
            return []
        return _blob_tools(files, spec, cat_files([spec], where)[0], ".")
    if kind != "tree":
        raise DiffError(f"{spec} is a {kind}, not a file or directory")
    names = tree_files(spec, where)
    base = path.rstrip("/")
    names = sorted(n for n in names if _tool_file(n) and not _excluded(f"{base}/{n}" if base else n, exclude))
    specs = [f"{rev}:{base}/{n}" if base else f"{rev}:{n}" for n in names]
    tools: list[Tool] = []
    held: list[Held] = []
    with _parsing(tools):
        for name, s, data in zip(names, specs, cat_files(specs, where), strict=True):
            judged = f"{base}/{name}" if base else name
            tools.extend(_blob_tools(files, s, data, name, explicit=False, path=judged, held=held))
    held_notice([(f"{rev}:{p}", n, f) for p, n, f in held])
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
    except GitError:
        return False
    return True


def _matches_a_file(pattern: str) -> bool:
    """Whether ``pattern`` is a glob (``*``, ``?``, ``[``; ``**`` too) matching at least one file."""

    return any(ch in pattern for ch in "*?[") and any(os.path.isfile(m) for m in safe_glob(pattern))


def load_side(
    spec: str, *, exclude: Sequence[str] = (), python_path: Sequence[str] = (), reuse: ParsedFiles | None = None
) -> list[Tool]:
    """Tools of one side of ``schemalint diff OLD NEW``: a file, a directory, ``REV:PATH`` or ``module:attr``.

    An existing path always wins; ``X:Y`` is read as ``REV:PATH`` by :func:`_is_rev_path`.
    ``exclude``: fnmatch patterns of the files left out, as ``check`` applies them to a path (and
    :func:`load_rev_path` to ``REV:PATH``).
    ``reuse``: pass the same :class:`ParsedFiles` for both sides, so that the second side
    takes each file identical to the file at the same place in the first side (path relative
    to the directory, or the file itself) from it instead of parsing it again.
    Raises :class:`DiffError`.
    """
    if os.path.exists(spec):
        return load_worktree([spec], exclude=exclude, python_path=python_path, reuse=reuse, key_root=spec)
    split = split_typescript_source(spec)
    if split is not None and (os.path.isfile(split[0]) or _matches_a_file(split[0])):
        return load_worktree([spec], exclude=exclude)  # one module, or a glob of modules (each with the same :ATTR)
    if split is not None and ":" not in split[0] and any(ch in split[0] for ch in "*?["):
        raise DiffError(f"{spec}: the pattern matches no file")
    if python_file_attr(spec):  # examples/server.py:mcp, where a Python source is module:attr
        raise DiffError(missing_source_message(spec))
    if ":" in spec:
        if _is_rev_path(spec):
            rev, _, path = spec.partition(":")
            if is_typescript_source(path):
                return load_module_rev(rev, path)
            return load_rev_path(rev, path, exclude=exclude, reuse=reuse)
        try:
            return load_worktree([spec], python_path=python_path)
        except DiffError as exc:
            rev, _, path = spec.partition(":")
            if os.path.exists(path):  # most likely REV:PATH with a mistyped revision
                raise DiffError(f"{spec}: {rev!r} is not a revision of the git repository here (and read as "
                                f"module:attr: {exc})") from None
            raise
    raise DiffError(f"{spec}: no such file or directory (and not REV:PATH)")


def load_worktree(
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    python_path: Sequence[str] = (),
    reuse: ParsedFiles | None = None,
    key_root: str | None = None,
) -> list[Tool]:
    """Tools of ``sources`` in the working tree; unreadable files raise :class:`DiffError`.

    ``reuse``: files parsed for the other side of the diff (see :class:`ParsedFiles`); each file
    is known there by its path relative to ``key_root`` (absolute path without ``key_root``).
    """
    from schemalint.loaders.files.sources import expand_sources

    file_sources = [s for s in sources if not is_module_source(s)]
    files = reuse if reuse is not None else ParsedFiles(remember=False)
    tools: list[Tool] = []
    walk_problems: list[tuple[str, str]] = []
    try:
        paths = expand_sources(file_sources, exclude, walk_problems)
    except SourceError as exc:
        raise DiffError(str(exc)) from None
    for path, message in walk_problems:
        print(f"schemalint: warning: {path}: {message}", file=sys.stderr)
    named = {os.path.normpath(s) for s in file_sources if os.path.lexists(s) and not os.path.isdir(s)}
    held: list[Held] = []
    with _parsing(tools):
        for path in paths:
            explicit = os.path.normpath(path) in named
            try:
                data = read_source_bytes(path)
            except OSError:
                # DiffError naming the file, or a note when it is skipped
                doc = read_document(path)
                values = parsed_values(doc, explicit)
                tools.extend(select_data_tools(path, explicit, values, tools_of_values(values, path), doc.text, held))
                continue
            if reuse is None:
                key = ""
            elif key_root is None:
                key = os.path.realpath(path)
            else:
                key = os.path.relpath(path, key_root).replace(os.sep, "/")
            values = files.values(path, data, key, lambda p=path: read_document(p),  # type: ignore[misc]
                                  explicit=explicit)
            tools.extend(select_data_tools(path, explicit, values, files.tools(path, values, key), data, held))
    held_notice(held)
    for source in sources:
        if is_python_source(source):
            tools.extend(load_python_tools(source, python_path))
        elif is_typescript_source(source):
            tools.extend(load_typescript_tools(source, exclude))
    return tools


def load_typescript_tools(source: str, exclude: Sequence[str] = ()) -> list[Tool]:
    """Tools of a TypeScript/JavaScript module source (a glob: the modules it matches, less those
    ``exclude`` names), imported by a Node worker
    (:func:`schemalint.loaders.typescript.source.load_typescript_sources`). Raises :class:`DiffError`."""
    from schemalint.loaders.typescript.source import load_typescript_sources

    notes: list[str] = []
    try:
        tools = load_typescript_sources([source], exclude=exclude, notes=notes)[0]
    except SourceError as exc:
        raise DiffError(str(exc)) from None
    for note in notes:
        print(f"schemalint: note: {note}", file=sys.stderr)
    return tools


@_git_errors_as_diff_errors
def load_module_rev(rev: str, source: str) -> list[Tool]:
    """Tools of the TypeScript module ``source`` (``path.ts[:ATTR]``, relative to the working
    directory) as it was at revision ``rev``, imported from a temporary worktree whose
    ``node_modules`` are the working tree's. Raises :class:`DiffError`."""
    cwd = Path.cwd()
    root = git_root(cwd)
    commit = verify_revision(rev, cwd)
    prefix = git(["rev-parse", "--show-prefix"], cwd=cwd).decode().strip()
    return load_python_at_revision(commit, [source], root=root, prefix=prefix, python_path=(), label=rev)


def load_python_tools(source: str, python_path: Sequence[str] = ()) -> list[Tool]:
    """Tools of a ``module:attr`` Python source, imported in a worker process
    (:func:`schemalint.bridge.client.load_python_sources`, with its time limit).

    Raises :class:`DiffError` when the import fails.
    """
    from schemalint.bridge.client import load_python_sources

    try:
        return load_python_sources([source], python_path)[0]
    except SourceError as exc:
        raise DiffError(str(exc)) from None


def _unborn(cwd: Path) -> bool:
    """True in a repository whose current branch has no commit yet (before the first commit)."""
    try:
        git(["rev-parse", "--verify", "--quiet", "HEAD"], cwd=cwd)
    except Exception:
        try:
            git(["symbolic-ref", "--quiet", "HEAD"], cwd=cwd)  # a branch name, but no commit on it
        except Exception:
            return False
        return True
    return False


@_git_errors_as_diff_errors
def load_base(
    rev: str,
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    python_path: Sequence[str] = (),
    notes: list[str] | None = None,
    reuse: ParsedFiles | None = None,
) -> list[Tool]:
    """Tools of the configured ``sources`` as they were at revision ``rev``.

    ``reuse``: pass the same :class:`ParsedFiles` to :func:`load_worktree` (without
    ``key_root``) for the working-tree side, which then parses only the files that changed.

    File sources (files, directories, globs, relative to the working directory) are read
    with ``git ls-tree``/``git cat-file``; a source absent at ``rev`` contributes no tools
    (its tools count as added) and a note is appended to ``notes``. Python sources are
    imported from a temporary ``git worktree`` in a subprocess (see
    :func:`~schemalint.loaders.git.worktree.load_python_at_revision`). ``HEAD`` before the first
    commit is an empty side (with a note), so the ``schemalint-diff`` pre-commit hook does not
    block the first commit. Raises :class:`DiffError`.
    """
    cwd = Path.cwd()
    root = git_root(cwd)
    from schemalint.loaders.git.worktree import prune_leftovers

    prune_leftovers(root)  # what killed earlier runs left, whichever sources this run compares
    if rev == "HEAD" and _unborn(cwd):
        if notes is not None:
            notes.append("HEAD: no commit yet (the first commit): every tool counts as added")
        return []
    commit = verify_revision(rev, cwd)
    prefix = git(["rev-parse", "--show-prefix"], cwd=cwd).decode().strip()
    listing = tree_files(commit, root, full_tree=True)
    files_at_rev = set(listing)
    wanted: list[str] = []
    named: set[str] = set()  # files named as sources (not found by a walk or a glob)
    for source in sources:
        if is_module_source(source):
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
            named.add(rel)
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
    files = reuse if reuse is not None else ParsedFiles(remember=False)
    held: list[Held] = []
    with _parsing(tools):
        for name, data in zip(wanted, cat_files(specs, root), strict=True):
            path = os.path.relpath(root / name, cwd)
            key = os.path.realpath(root / name) if reuse is not None else ""
            tools.extend(_blob_tools(files, f"{rev}:{path}", data, key, explicit=name in named, path=path, held=held))
    held_notice([(f"{rev}:{p}", n, f) for p, n, f in held], notes)
    python_sources = [s for s in sources if is_module_source(s)]
    if python_sources:
        tools.extend(
            load_python_at_revision(
                commit, python_sources, root=root, prefix=prefix, python_path=python_path, label=rev,
                exclude=exclude,
            )
        )
    return tools

