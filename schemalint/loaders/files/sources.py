"""Expand command-line sources (files, directories, globs) into the files to read.

Raises :class:`SourceError` for a source that matches nothing, so the CLI can exit 2.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from schemalint.errors import SourceError as SourceError  # its home: the ground floor
from schemalint.loaders.files.documents import TOOL_FILE_SUFFIXES, special_kind

SKIPPED_DIRS = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
                          ".ruff_cache", ".pytest_cache", ".tox", ".hypothesis"})


TYPESCRIPT_SUFFIXES = (".ts", ".mts", ".cts", ".js", ".mjs", ".cjs")
"""Module files read by the Node worker (docs/typescript.md), with or without ``:attr``."""


def _python_like(source: str) -> bool:
    if ":" not in source or os.path.exists(source):
        return False
    module, _, attr = source.partition(":")
    return bool(module) and all(part.isidentifier() for part in module.split(".")) and (
        attr == "" or all(part.isidentifier() for part in attr.split("."))
    )


def _js_attr(attr: str) -> bool:
    return all(part and (part[0].isalpha() or part[0] in "_$") and all(c.isalnum() or c in "_$" for c in part)
               for part in attr.split("."))


def split_typescript_source(source: str) -> tuple[str, str] | None:
    """``(path, attr)`` for a TypeScript/JavaScript module source (``path/to/tools.ts:ATTR``;
    ``attr`` is ``""`` when none is given: every export), else ``None``.

    The path ends with one of :data:`TYPESCRIPT_SUFFIXES`. ``name.ts:attr`` where no file
    ``name.ts`` exists and ``name.ts`` is also a dotted Python module name stays a Python
    source (it was one before TypeScript sources existed).
    """
    path, sep, attr = source.rpartition(":")
    if not (sep and path.lower().endswith(TYPESCRIPT_SUFFIXES) and (attr == "" or _js_attr(attr))):
        path, attr = source, ""
    if not path.lower().endswith(TYPESCRIPT_SUFFIXES):
        return None
    if not os.path.isfile(path) and _python_like(source):
        return None
    return path, attr


def is_typescript_source(source: str) -> bool:
    """True for a TypeScript/JavaScript module source (:func:`split_typescript_source`)."""
    return split_typescript_source(source) is not None


def is_python_source(source: str) -> bool:
    """True for ``module:attr`` (or ``module``-only with ``:``) Python sources, not paths
    and not TypeScript modules (:func:`is_typescript_source`)."""
    return _python_like(source) and not is_typescript_source(source)


def is_module_source(source: str) -> bool:
    """True for a source imported by a worker process: Python ``module:attr`` or a TypeScript module."""
    return _python_like(source) or is_typescript_source(source)


def modules_hint(directory: str, exclude: Sequence[str] = (), limit: int = 10_000) -> str | None:
    """A note for a directory whose walk found no tool definitions but which holds modules that
    define tools: TypeScript/JavaScript modules (:func:`typescript_hint`), Python modules that create a
    server, an agent or models at module level
    (:func:`schemalint.loaders.files.python_hints.directory_hint`); both when it holds both.
    ``None`` when it holds neither."""
    from schemalint.loaders.files.python_hints import directory_hint

    hints = [h for h in (typescript_hint(directory, exclude, limit),
                         directory_hint(directory, lambda p: _excluded(p, exclude), limit)) if h]
    return "; ".join(hints) or None


def typescript_hint(directory: str, exclude: Sequence[str] = (), limit: int = 10_000) -> str | None:
    """A note for a directory whose walk found no tool definitions but which holds TypeScript or
    JavaScript modules (:data:`TYPESCRIPT_SUFFIXES`, declaration files ``.d.ts`` left out, walked
    as :func:`expand_sources` walks, ``exclude`` applied; at most ``limit`` files looked at):
    modules are imported only when named, so the note names a glob and a ``file:EXPORT``
    source to try. ``None`` when it holds none."""
    found: list[str] = []
    looked = 0
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for filename in sorted(filenames):
            looked += 1
            low = filename.lower()
            if low.endswith(TYPESCRIPT_SUFFIXES) and not low.endswith((".d.ts", ".d.mts", ".d.cts")):
                path = os.path.join(dirpath, filename)
                if not _excluded(path, exclude):
                    found.append(path)
        if looked >= limit:
            break
    if not found:
        return None
    likely = [p for p in found if not _in_tests(p)] or found
    suffixes: dict[str, int] = {}
    for path in likely:
        suffix = os.path.splitext(path)[1]
        suffixes[suffix] = suffixes.get(suffix, 0) + 1
    suffix = max(suffixes, key=lambda k: (suffixes[k], k == ".ts"))
    stems = ("server", "index", "tools", "agent", "main")
    defining = _defining_tools(likely)
    example = min((p for p in likely if p.endswith(suffix)),
                  key=lambda p: (p not in defining, Path(p).stem not in stems,
                                 stems.index(Path(p).stem) if Path(p).stem in stems else 0, p.count(os.sep), p))
    root = directory.rstrip("/" + os.sep) or directory
    pattern = f"{root}/**/*{suffix}".replace(os.sep, "/")
    named = example.replace(os.sep, "/")
    tests = sorted({_test_exclusion(p, suffix) for p in found if p.endswith(suffix) and _in_tests(p)}) \
        if len(likely) < len(found) else []
    excludes = "".join(f" --exclude '{x}'" for x in tests[:4])
    why = " (a test module imported outside its runner can fail and stop the run)" if excludes else ""
    return (f"{directory} holds {len(found)} TypeScript/JavaScript module(s), which are read only when named (a module "
            f"is never imported implicitly): e.g. schemalint check '{pattern}'{excludes}{why}, or {named} (every "
            f"export; {named}:EXPORT for one)")


def _test_exclusion(path: str, suffix: str) -> str:
    """The ``--exclude`` pattern that leaves out the test module ``path`` (:func:`_in_tests`) and
    its like: ``*.test.ts`` for a name that says so, else the name of its test folder."""
    parts = path.replace(os.sep, "/").split("/")
    name = parts[-1].lower()
    for word in ("test", "spec", "config"):
        if f".{word}." in name:
            return f"*.{word}{suffix}"
    return next((p for p in parts[:-1] if p.lower() in _TEST_DIRS), parts[-1])


_TOOL_CALLS = re.compile(
    r"registerTool\(|\.tool\(|(?<![\w$])tool\(\{|\bnew\s+(?:McpServer|FastMCP)\(|createTool\(|dynamicTool\(|"
    r"\.addTool\(|parameters: z\.|inputSchema: z\.")
"""Calls of a tool-defining API. Matched as words: ``initializeMcpServer(`` (exa-mcp-server's handler
that registers nothing itself) is not ``new McpServer(``."""


def _defining_tools(paths: Sequence[str], limit: int = 400) -> set[str]:
    """Those of ``paths`` (the first ``limit``) whose text calls a tool-defining API of a framework
    (an MCP server's ``registerTool``/``tool``, the AI SDK's ``tool({...})``, ``new McpServer``,
    FastMCP's ``addTool``): the note's example is one of them when it can be (a monorepo's CLI
    ``index.ts`` defines none)."""
    found = set()
    for path in paths[:limit]:
        try:
            with open(path, "rb") as handle:
                text = handle.read(256 * 1024).decode("utf-8", "replace")
        except OSError:
            continue
        if _TOOL_CALLS.search(text):
            found.add(path)
    return found


_TEST_DIRS = frozenset({"test", "tests", "__tests__", "e2e", "spec", "specs", "fixtures", "testserver", "mocks",
                        "evals", "eval"})


def _in_tests(path: str) -> bool:
    """``path`` is a test's module or a tool's configuration (under a test, fixture or evaluation
    folder, ``*.test.ts``, ``*.spec.ts``, ``*.config.ts``): the note's example is taken from elsewhere
    when it can be (playwright-mcp's was tests/testserver/index.ts, then playwright.config.ts;
    miurla/morphic's an evaluation harness, evals/tasks/adaptive-answer.ts)."""
    parts = path.replace(os.sep, "/").split("/")
    name = parts[-1].lower()
    return any(p.lower() in _TEST_DIRS for p in parts[:-1]) or any(
        f".{w}." in name for w in ("test", "spec", "config"))


_EXCLUSIONS: dict[tuple[str, ...], tuple[re.Pattern[str], re.Pattern[str]] | None] = {}


def _exclusion(patterns: Sequence[str]) -> tuple[re.Pattern[str], re.Pattern[str]] | None:
    """The ``exclude`` patterns compiled once: a regular expression that matches a path (``/``
    separated) ``pat``, ``*/pat``, ``pat/*`` or ``*/pat/*`` matches, and one that matches a path
    component ``pat`` matches, for each pattern ``pat`` (its trailing ``/`` removed), as
    :func:`fnmatch.fnmatch` matches them (``os.path.normcase`` applied to both sides); ``None``
    for no pattern. Kept per tuple of patterns: a walk asks about every file it finds."""
    key = tuple(patterns)
    try:
        return _EXCLUSIONS[key]
    except KeyError:
        pass
    compiled = None
    if key:
        whole: list[str] = []
        parts: list[str] = []
        for pattern in key:
            pat = pattern.rstrip("/")
            forms = (pat, f"*/{pat}", f"{pat}/*", f"*/{pat}/*")
            whole.extend(fnmatch.translate(os.path.normcase(form)) for form in forms)
            parts.append(fnmatch.translate(os.path.normcase(pat)))
        compiled = (re.compile("|".join(f"(?:{r})" for r in whole)), re.compile("|".join(f"(?:{r})" for r in parts)))
    if len(_EXCLUSIONS) < 64:
        _EXCLUSIONS[key] = compiled
    return compiled


def _excluded(path: str, patterns: Sequence[str]) -> bool:
    """Whether ``path`` matches one of the ``exclude`` fnmatch ``patterns``, against the whole path
    (as ``pat``, ``*/pat``, ``pat/*`` or ``*/pat/*``) or against one of its components."""
    compiled = _exclusion(patterns)
    if compiled is None:
        return False
    whole, part = compiled
    norm = path.replace(os.sep, "/")
    if whole.match(os.path.normcase(norm)) is not None:
        return True
    return any(part.match(os.path.normcase(p)) is not None for p in norm.split("/"))


def _walk_dir(root: str, problems: list[tuple[str, str]] | None = None,
              suffixes: tuple[str, ...] = TOOL_FILE_SUFFIXES) -> Iterable[str]:
    """Tool files under ``root``, in a stable order.

    Appends ``(path, message)`` to ``problems`` (when given; the caller reports it as a warning)
    for a directory that cannot be read, and for a file that is (or links to) a FIFO, device or
    socket, which is not taken: reading it would block or never end.
    """
    def unreadable(exc: OSError) -> None:
        if problems is not None:
            where = exc.filename if isinstance(exc.filename, str) else root
            problems.append((where, f"cannot read this directory ({exc.strerror or type(exc).__name__}); "
                             "its files were not checked"))

    for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS)
        for filename in sorted(filenames):
            if filename.lower().endswith(suffixes):
                path = os.path.join(dirpath, filename)
                try:
                    kind = special_kind(os.stat(path).st_mode)
                except OSError:
                    kind = None  # a broken link: reading it reports the error
                if kind is None:
                    yield path
                elif problems is not None:
                    problems.append((path, f"{kind}, not a regular file: skipped by the directory walk or glob "
                                     "(reading it could block or never end)"))


def expand_sources(sources: Sequence[str], exclude: Sequence[str] = (),
                   problems: list[tuple[str, str]] | None = None,
                   extra_suffixes: tuple[str, ...] = ()) -> list[str]:
    """Return the tool files named by ``sources``, de-duplicated, in a stable order.

    ``extra_suffixes``: more suffixes a directory walk takes (``replay`` adds ``.har``).

    A file is taken whatever its suffix; a directory contributes its ``.json``,
    ``.snap``, ``.jsonl``, ``.ndjson``, ``.yaml`` and ``.yml`` files (recursively,
    skipping ``.git``, ``node_modules`` and virtual environments); a glob pattern
    (``*``, ``?``, ``[``, ``**``) contributes what it matches. ``exclude`` holds
    fnmatch patterns matched against the path and each of its components. A special file
    (FIFO, device, socket, or a link to one) found by a directory walk or a glob is left out
    and appended to ``problems`` as ``(path, message)``; one named explicitly is returned, and
    reading it reports the error (:func:`schemalint.loaders.files.documents.read_source_bytes`).
    Raises :class:`SourceError` when a source does not exist or a glob matches nothing.
    A directory of the walk that cannot be read appends ``(directory, message)`` to ``problems``
    (when given; the caller reports it) and the walk goes on.
    """
    files: list[str] = []
    seen: set[str] = set()

    def add(path: str) -> None:
        key = os.path.normpath(path)
        if key not in seen and not _excluded(path, exclude):
            seen.add(key)
            files.append(path)

    for source in sources:
        if os.path.isdir(source):
            for path in _walk_dir(source, problems, TOOL_FILE_SUFFIXES + extra_suffixes):
                add(path)
        elif os.path.exists(source):
            if source.lower().endswith((".py", ".pyw")) and os.path.isfile(source):
                from schemalint.loaders.files.python_hints import python_file_message

                raise SourceError(python_file_message(source))  # never parsed as JSON
            add(source)
        elif any(ch in source for ch in "*?["):
            matches = sorted(safe_glob(source))
            if not matches:
                raise SourceError(f"{source}: the pattern matches no file")
            for match in matches:
                if os.path.isdir(match):
                    for path in _walk_dir(match, problems, TOOL_FILE_SUFFIXES + extra_suffixes):
                        add(path)
                elif Path(match).is_file():
                    add(match)
                elif problems is not None and os.path.exists(match):
                    kind = special_kind(os.stat(match).st_mode) or "not a regular file"
                    problems.append((match, f"{kind}, not a regular file: skipped by the directory walk or glob "
                                     "(reading it could block or never end)"))
        else:
            raise SourceError(missing_source_message(source))
    return files


def safe_glob(pattern: str) -> list[str]:
    """The paths ``pattern`` matches, like ``glob.glob(pattern, recursive=True)`` (``**`` is any
    number of folders, names starting with ``.`` match only a pattern that starts with ``.``), but a
    ``**`` enters each directory once, by its device and inode, so a symbolic link back to a folder
    above it (a loop) is not followed round and round (``glob`` would follow it until the path grew
    too long: exponentially many paths with two such links). Never raises for unreadable folders."""
    if "**" not in pattern:
        return glob.glob(pattern, recursive=True)
    drive, rest = os.path.splitdrive(pattern)
    absolute = rest.startswith(os.sep)
    parts = [p for p in rest.split(os.sep) if p]
    current = [drive + os.sep if absolute else (drive or "")]
    visited: set[tuple[int, int]] = set()
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        found: list[str] = []
        if part == "**":
            for base in current:
                found.extend(_folders_below(base, visited))
            if last:  # a trailing ** matches files too
                found.extend(p for base in found[:] for p in _names(base, "*") if not os.path.isdir(p))
        elif glob.has_magic(part):
            for base in current:
                found.extend(_names(base, part))
        else:
            found = [os.path.join(base, part) for base in current
                     if os.path.lexists(os.path.join(base, part))]
        current = list(dict.fromkeys(found))
        if not last:
            current = [c for c in current if os.path.isdir(c)]
    return [c for c in current if c]


def _names(base: str, part: str) -> list[str]:
    """Entries of folder ``base`` (``""``: the working directory) whose name matches ``part``."""
    import fnmatch

    try:
        names = os.listdir(base or ".")
    except OSError:
        return []
    return [os.path.join(base, n) for n in sorted(names)
            if fnmatch.fnmatchcase(n, part) and (not n.startswith(".") or part.startswith("."))]


def _folders_below(base: str, visited: set[tuple[int, int]]) -> list[str]:
    """``base`` and every folder below it (not hidden ones), each real folder once. Folders reached
    through a symbolic link are entered last, so a folder that is also reachable without a link
    (an npm workspace's ``node_modules/pkg -> ../pkg``) is found under its own path."""
    out: list[str] = []
    stack = [base]
    linked: list[str] = []
    while stack or linked:
        folder = stack.pop() if stack else linked.pop(0)
        try:
            st = os.stat(folder or ".")
        except OSError:
            continue
        key = (st.st_dev, st.st_ino)
        if key in visited:
            continue
        visited.add(key)
        out.append(folder)
        try:
            names = sorted(os.listdir(folder or "."), reverse=True)
        except OSError:
            continue
        for n in names:
            path = os.path.join(folder, n)
            if not n.startswith(".") and os.path.isdir(path):
                (linked if os.path.islink(path) else stack).append(path)
    return out


_PY_FILE_ATTR = re.compile(r"^(?P<path>.+\.pyw?):(?P<attr>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$")


def python_file_attr(source: str) -> bool:
    """Whether ``source`` is an existing Python file's path with an attribute
    (``examples/mcp_server/server.py:mcp``), which is not how a Python source is written."""
    m = _PY_FILE_ATTR.match(source)
    return m is not None and Path(m.group("path")).is_file()


def missing_source_message(source: str) -> str:
    """The error for a source that names nothing to read: ``"SOURCE: no such file or directory"``,
    or, for a Python file path with an attribute (``examples/mcp_server/server.py:mcp``), how a
    Python source is written instead (``module:attr``, e.g. ``server:mcp`` with
    ``--python-path examples/mcp_server``). Never raises."""
    if source.startswith("-"):
        return (f"{source}: no such file or directory (every word after `--` is a source, never an option; "
                "a pre-commit hook's `args:` come after the hook's `--`: set options in [tool.schemalint])")
    m = _PY_FILE_ATTR.match(source)
    if m is None:
        return f"{source}: no such file or directory"
    path, attr = Path(m.group("path")), m.group("attr")
    module = path.name.rsplit(".", 1)[0]
    folder = path.parent.as_posix()
    how = (f"a Python source is written module:attr, not as a file path: `{module}:{attr}` with "
           f"`--python-path {folder}`" if folder not in ("", ".") else
           f"a Python source is written module:attr, not as a file path: `{module}:{attr}`")
    if not path.is_file():
        return f"{source}: no such file or directory ({how})"
    return f"{source}: {how}"
