"""The findings of a check route: SL000 diagnostics of unreadable files, selection (select,
ignore, suppressions, severities) and location (line and column), shared by the in-memory route
(:func:`schemalint.engine.check`) and the streaming one (:mod:`schemalint.engine.stream`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from schemalint.loaders.files.documents import Document, ParseProblem
from schemalint.model import Diagnostic, Severity
from schemalint.rules.base import INTERNAL_ERROR

if TYPE_CHECKING:
    from schemalint.engine.selection import RuleFilter


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


def walk_problem(where: str, message: str) -> Diagnostic:
    """The ``SL000 unreadable-source`` warning at ``where`` for what a directory walk or glob left
    out: a directory it could not read, or a special file (FIFO, device, socket) it did not open."""
    from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource

    return Diagnostic(code=UnreadableSource.code, name=UnreadableSource.name, severity=Severity.WARNING, tool=None,
                      file=where, pointer="", line=1, column=1, message=message,
                      hint="give schemalint read access to it, or exclude it with --exclude")


def select_findings(raw: Sequence[Diagnostic], rule_filter: RuleFilter) -> tuple[list[Diagnostic], int]:
    """``raw`` without the findings of unselected rules and those a suppression hides (counted on
    ``rule_filter.suppressed``), re-graded by the configured severities; returns the kept
    diagnostics and the number suppressed. An SL999 crash is never selected, ignored or re-graded away."""
    diagnostics: list[Diagnostic] = []
    suppressed = 0
    for d in raw:
        if d.code == INTERNAL_ERROR:
            diagnostics.append(d)
            continue
        if not rule_filter.rule_enabled(d.code):
            continue
        sup = rule_filter.suppression_for(d)
        if sup is not None:
            suppressed += 1
            rule_filter.suppressed[sup.label] = rule_filter.suppressed.get(sup.label, 0) + 1
            continue
        sev = rule_filter.severity_for(d)
        diagnostics.append(d if sev == d.severity else replace(d, severity=sev))
    return diagnostics, suppressed


def locate_diagnostics(diagnostics: list[Diagnostic], documents: dict[str, Document]) -> list[Diagnostic]:
    """Fill in ``line``/``column`` from each diagnostic's file pointer (one scan per file)."""
    by_file: dict[str, list[int]] = {}
    for i, d in enumerate(diagnostics):
        if d.column is None and d.file in documents:
            by_file.setdefault(d.file, []).append(i)
    out = list(diagnostics)
    if not by_file:
        return out
    from schemalint.engine.locate import locate  # only when there is something to locate (start-up)

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
                    out[i] = _at(out[i], line, col)
        else:
            pos = locate(doc.text, doc.kind, [out[i].pointer for i in indexes])
            for i in indexes:
                line, col = pos.get(out[i].pointer, (1, 1))
                out[i] = _at(out[i], line, col)
    return out


def _at(d: Diagnostic, line: int, column: int) -> Diagnostic:
    """``d`` at ``line`` and ``column``: ``dataclasses.replace(d, line=line, column=column)``, built
    directly (a catalog may have a hundred thousand findings to locate, and ``replace`` costs
    several times the constructor)."""
    return Diagnostic(d.code, d.name, d.severity, d.tool, d.file, d.pointer, d.message, d.instance_path, d.hint,
                      line, column, d.path, d.kind, d.site, d.copies)
