"""The public Python API: load sources, run the rules, locate diagnostics.

The CLI is a thin layer over :func:`load` and :func:`check`.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from schemalint.loaders.documents import Document, ParseProblem, read_document
from schemalint.loaders.json_tools import find_tools
from schemalint.loaders.sources import SourceError, expand_sources, is_python_source
from schemalint.model import Diagnostic, Severity, Tool

__all__ = ["CheckResult", "LoadResult", "SourceError", "check", "load"]


@dataclass
class LoadResult:
    """Tools found in the sources, the documents they came from, and SL000 diagnostics."""

    tools: list[Tool] = field(default_factory=list)
    documents: dict[str, Document] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0


@dataclass
class CheckResult:
    """Outcome of :func:`check`: diagnostics (located, sorted) plus counts for the summary."""

    diagnostics: list[Diagnostic]
    files: int
    tools: int
    elapsed: float
    tools_by_format: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def counts_by_code(self) -> dict[str, int]:
        """Number of diagnostics per rule code, sorted by code."""
        return dict(sorted(Counter(d.code for d in self.diagnostics).items()))

    def worst(self) -> Severity | None:
        """The highest severity present, or ``None`` without diagnostics."""
        return max((d.severity for d in self.diagnostics), key=lambda s: s.rank, default=None)


def problem_diagnostic(path: str, problem: ParseProblem) -> Diagnostic:
    """The ``SL000 unreadable-source`` diagnostic for a file that could not be read."""
    from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource

    return Diagnostic(
        code=UnreadableSource.code,
        name=UnreadableSource.name,
        severity=Severity.parse(problem.severity),
        tool=None,
        file=path,
        pointer="",
        message=problem.message,
        line=problem.line,
        column=problem.column,
    )


def load_document_tools(doc: Document) -> list[Tool]:
    """Every tool definition found by shape in a parsed document."""
    tools: list[Tool] = []
    for line, value in doc.values:
        tools.extend(find_tools(value, doc.path, line))
    return tools


def load(
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    python_path: Sequence[str] = (),
    mcp_stdio: Sequence[str] = (),
) -> LoadResult:
    """Load every tool from ``sources`` (files, directories, globs, ``module:attr``).

    ``mcp_stdio``: MCP server commands (``"python server.py --flag"``) to start as
    subprocesses; their ``tools/list`` answers are loaded too.
    Raises :class:`SourceError` for a missing path, a Python source that cannot be
    imported or an MCP server that cannot be listed; unreadable files become SL000
    diagnostics in the result instead.
    """
    result = LoadResult()
    file_sources = [s for s in sources if not is_python_source(s)]
    python_sources = [s for s in sources if is_python_source(s)]
    for path in expand_sources(file_sources, exclude):
        result.files += 1
        doc = read_document(path)
        result.documents[path] = doc
        result.diagnostics.extend(problem_diagnostic(path, p) for p in doc.problems)
        result.tools.extend(load_document_tools(doc))
    for source in python_sources:
        from schemalint.loaders.python_source import load_python_source

        result.files += 1
        result.tools.extend(load_python_source(source, python_path, problems=result.diagnostics))
    for command in mcp_stdio:
        from schemalint.loaders.mcp_server import load_stdio

        result.files += 1
        result.tools.extend(load_stdio(command))
    return result


def locate_diagnostics(diagnostics: list[Diagnostic], documents: dict[str, Document]) -> list[Diagnostic]:
    """Fill in ``line``/``column`` from each diagnostic's file pointer (one scan per file)."""
    from schemalint.locate import locate

    by_file: dict[str, list[int]] = {}
    for i, d in enumerate(diagnostics):
        if d.column is None and d.file in documents:
            by_file.setdefault(d.file, []).append(i)
    out = list(diagnostics)
    for path, indexes in by_file.items():
        doc = documents[path]
        if doc.kind == "jsonl":
            lines = doc.text.splitlines()
            by_line: dict[int, list[int]] = {}
            for i in indexes:
                by_line.setdefault(out[i].line or 1, []).append(i)
            for lineno, idxs in by_line.items():
                text = lines[lineno - 1] if 0 < lineno <= len(lines) else ""
                pos = locate(text, "json", [out[i].pointer for i in idxs], first_line=lineno)
                for i in idxs:
                    line, col = pos.get(out[i].pointer, (lineno, 1))
                    out[i] = replace(out[i], line=line, column=col)
        else:
            pos = locate(doc.text, doc.kind, [out[i].pointer for i in indexes])
            for i in indexes:
                line, col = pos.get(out[i].pointer, (1, 1))
                out[i] = replace(out[i], line=line, column=col)
    return out


def check(
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    targets: Sequence[str] = (),
    dialect: str | None = None,
    python_path: Sequence[str] = (),
    select: Sequence[str] | None = None,
    mcp_stdio: Sequence[str] = (),
    previous: Sequence[str] = (),
) -> CheckResult:
    """Lint ``sources``: load, run every applicable rule, locate and sort the diagnostics.

    ``targets``: provider profiles (``openai-strict``, ``gemini`` ...) added to those
    inferred from each tool's format; a value starting with ``=`` replaces them
    (:func:`schemalint.targets.parse_targets`). ``select``: rule codes/names/prefixes to
    keep (``None`` keeps all). ``mcp_stdio``: MCP server commands to start and list over
    stdio (see :func:`load`). Raises :class:`SourceError` (exit 2 in the CLI) and
    :class:`schemalint.targets.TargetError` for an unknown target. ``previous``: sources of an
    earlier revision (files, directories, snapshot dirs); their tools fill
    :attr:`Context.previous` by name (the first definition of a name wins).
    """
    from schemalint.rules.base import Context, run_rules
    from schemalint.rules.registry import all_rules
    from schemalint.targets import parse_targets

    started = time.perf_counter()
    spec = parse_targets(targets)
    loaded = load(sources, exclude=exclude, python_path=python_path, mcp_stdio=mcp_stdio)
    prev: dict[str, Tool] = {}
    if previous:
        for t in load(previous, exclude=exclude, python_path=python_path).tools:
            prev.setdefault(t.name, t)
    ctx = Context(targets=spec.targets, replace_targets=spec.replace, dialect=dialect, catalog=loaded.tools,
                  previous=prev)
    diagnostics = list(loaded.diagnostics)
    diagnostics.extend(run_rules(all_rules(), loaded.tools, ctx))
    if select is not None:
        keep = tuple(s.lower() for s in select)
        diagnostics = [d for d in diagnostics if d.code.lower().startswith(keep) or d.name in keep]
    diagnostics = locate_diagnostics(diagnostics, loaded.documents)
    diagnostics.sort(key=lambda d: (d.file, d.line or 0, d.column or 0, d.code))
    return CheckResult(
        diagnostics=diagnostics,
        files=loaded.files,
        tools=len(loaded.tools),
        elapsed=time.perf_counter() - started,
        tools_by_format=dict(Counter(t.origin.format for t in loaded.tools)),
    )
