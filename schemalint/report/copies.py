"""One report entry per finding, however many copies of its tool a file repeats.

Datasets repeat a tool: a BFCL or ACEBench file lists the same function in every question that
offers it (``requests.get`` 136 times in one file), so a check found the same fault once per copy
and the report said it 136 times. :func:`fold_copies` keeps the first of the findings that are the
same but for the copy they are in and records the others' places in its
:attr:`~schemalint.model.Diagnostic.copies`; every check reporter (text, JSON, JSON Lines, SARIF,
GitHub annotations) renders the folded result, so they count and list the same entries.

Two findings are copies when they are in the same file, of the same rule, severity, tool name,
message, hint, instance path and kind, at the same pointer *relative to their tool* (the pointer
past :attr:`~schemalint.model.Diagnostic.site`, the tool object's pointer), and in different
tools (another site or another line: a JSON Lines file repeats the same pointer on each line).
Findings about no one tool's definition (``site`` ``None``: recorded calls, catalog findings) are
never folded. Nothing is dropped: the exit code, the baseline and ``--fix`` see every finding.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.model import Diagnostic


def copy_key(d: Diagnostic) -> tuple[Any, ...] | None:
    """What two copies of one finding share: everything but the copy's place in the file;
    ``None`` for a finding that is not about one tool's definition (no ``site``, or a pointer
    outside it: a recorded call, a catalog finding), which is never folded."""
    site = d.site
    if site is None or not (d.pointer == site or d.pointer.startswith(site + "/") or not site):
        return None
    return (d.file, d.code, d.severity, d.tool, d.message, d.hint, d.instance_path, d.path, d.kind,
            d.pointer[len(site):])


def fold_copies(result: Any) -> Any:
    """``result`` (a :class:`~schemalint.model.CheckResult`) with each finding repeated in copies
    of its tool reported once: the first in report order, its :attr:`~schemalint.model.Diagnostic.copies`
    the others' ``(pointer, line, column)``, in report order. The fingerprints stay aligned with
    the diagnostics. ``result`` itself when nothing repeats (the usual case)."""
    diagnostics = result.diagnostics
    first: dict[tuple[Any, ...], int] = {}
    placed: dict[int, list[Diagnostic]] = {}
    kept: list[int] = []
    for i, d in enumerate(diagnostics):
        key = copy_key(d)
        at = None if key is None else first.get(key)
        if key is None:
            kept.append(i)
            continue
        if at is None:
            first[key] = i
            kept.append(i)
            continue
        head = diagnostics[at]
        if (d.site, d.line) == (head.site, head.line):  # the same tool: not a copy
            kept.append(i)
            continue
        placed.setdefault(at, []).append(d)
    if not placed:
        return result
    folded = []
    for i in kept:
        d = diagnostics[i]
        others = placed.get(i)
        if others:
            d = dataclasses.replace(d, copies=d.copies + tuple((o.pointer, o.line, o.column) for o in others))
        folded.append(d)
    fingerprints = [result.fingerprints[i] for i in kept] if len(result.fingerprints) == len(diagnostics) \
        else result.fingerprints
    return dataclasses.replace(result, diagnostics=folded, fingerprints=fingerprints)


def copies_count(diagnostics: Any) -> int:
    """How many findings the folded ``diagnostics`` hold in their copies."""
    return sum(len(d.copies) for d in diagnostics)


def severity_counts(diagnostics: Any) -> str:
    """``212 error, 2520 warning, 688 info``: the entries of ``diagnostics`` per severity, most
    severe first (a severity none has is left out); ``""`` when there are none."""
    by_sev: dict[str, int] = {}
    for d in diagnostics:
        by_sev[d.severity.value] = by_sev.get(d.severity.value, 0) + 1
    order = {"error": 0, "warning": 1, "info": 2}
    return ", ".join(f"{n} {s}" for s, n in sorted(by_sev.items(), key=lambda kv: (order.get(kv[0], 3), kv[0])))


def copies_line(d: Diagnostic, limit: int = 8) -> str:
    """``also in N other copies of this tool: line 12, line 40, ...`` (the first ``limit`` places;
    a place without a line is named by its pointer); ``""`` when ``d`` has no copies."""
    if not d.copies:
        return ""
    places = [f"line {line}" if line else pointer for pointer, line, _ in d.copies[:limit]]
    more = f" and {len(d.copies) - limit} more" if len(d.copies) > limit else ""
    n = len(d.copies)
    return f"also in {n} other cop{'y' if n == 1 else 'ies'} of this tool: {', '.join(places)}{more}"
