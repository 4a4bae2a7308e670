"""Run the per-tool rules in a pool of forked processes (``schemalint check --jobs N``).

The parent loads every tool (the catalog rules and the locator need them all), then
forks ``N`` workers that inherit the loaded tools without copying or pickling them;
each worker runs ``check_tool`` of every rule on a contiguous range of the tools and sends
back only the diagnostics. A range may cut a file between two tools (so one large document is
shared between the workers too), except a file whose summary a per-file catalog hook gathers
tool by tool (:attr:`Rule.catalog_from_tools`, :meth:`Rule.whole_files`), which stays
whole. Results are put back in catalog order, so the output is identical to a serial run.
Catalog rules run in the parent, except those whose ``check_catalog`` only reports what ``check_tool`` gathered per file
(:attr:`Rule.catalog_from_tools`), which run in the worker that saw those files; the
parent runs its catalog rules while the workers run.
When ``--jobs`` is not given, :func:`schemalint.engine.default_jobs` decides.
Without the ``fork`` start method (Windows, macOS default) the run stays serial.
Before forking, the parent's objects are frozen (``gc.freeze()``) so that the workers'
garbage collector does not touch, and so copy, the inherited pages.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

from schemalint.model import Diagnostic, Tool, current_run, running

CHUNKS_PER_JOB = 4

_STATE = "engine.parallel.state"
"""Key of the pool's work in the run's memo (:class:`~schemalint.model.RunContext`): ``(rules,
tools, ctx, chunks)``, inherited by the forked workers with the current run."""


def file_chunks(tools: Sequence[Tool], parts: int, splittable: Container[str] = ()) -> list[tuple[int, int]]:
    """Split ``range(len(tools))`` into at most ``parts`` contiguous ``(start, end)`` ranges of
    about equal size that never split the tools of one file (``tool.origin.file``) unless the file
    is in ``splittable`` (then a range may end between any two of its tools)."""
    n = len(tools)
    if n == 0:
        return []
    target = max(1, -(-n // max(1, parts)))
    chunks: list[tuple[int, int]] = []
    start = 0
    while start < n:
        end = min(n, start + target)
        # extend to the end of the file the boundary falls in
        while (end < n and tools[end].origin.file == tools[end - 1].origin.file
               and tools[end].origin.file not in splittable):
            end += 1
        chunks.append((start, end))
        start = end
    return chunks


def splittable_files(active: Sequence[Any], tools: Sequence[Tool]) -> set[str]:
    """The files of ``tools`` whose tools may be checked by different workers: all of them, except
    those a per-file catalog hook of ``active`` (:attr:`Rule.catalog_from_tools`) summarises from
    what ``check_tool`` gathered (:func:`schemalint.engine.pipeline.whole_files`)."""
    from schemalint.engine.declarations import whole_files

    whole = whole_files(active, tools)
    if whole is None:
        return set()
    return set(dict.fromkeys(t.origin.file for t in tools)) - set(whole)


def _whole_files(tools: Sequence[Tool], start: int, end: int) -> dict[str, Any]:
    """The files all of whose tools are in ``tools[start:end]`` (a range may cut the first and last)."""
    files = dict.fromkeys(t.origin.file for t in tools[start:end])
    if start > 0 and start < end and tools[start - 1].origin.file == tools[start].origin.file:
        files.pop(tools[start].origin.file, None)
    if 0 < end < len(tools) and tools[end].origin.file == tools[end - 1].origin.file:
        files.pop(tools[end].origin.file, None)
    return files


def _locate_some(found: list[Diagnostic], documents: Mapping[str, Any] | None,
                 files: Container[str]) -> list[Diagnostic]:
    """``found`` with line and column filled in for those in ``files`` that are read as documents
    (:func:`schemalint.engine.findings.locate_diagnostics`); the others are left to the caller."""
    if not documents or not found:
        return found
    from schemalint.engine.findings import locate_diagnostics

    wanted = {d.file for d in found if d.file in files and d.file in documents}
    return locate_diagnostics(found, {f: documents[f] for f in wanted})


def _cut_files(tools: Sequence[Tool], chunks: Sequence[tuple[int, int]]) -> set[str]:
    """The files whose tools ``chunks`` (:func:`file_chunks`) share between several workers: none of
    them locates the file's findings, and its text is scanned once, by the caller, for them all."""
    return {tools[end].origin.file for _, end in chunks
            if 0 < end < len(tools) and tools[end].origin.file == tools[end - 1].origin.file}


def _work(index: int) -> tuple[list[Diagnostic], dict[int, list[Diagnostic]]]:
    from schemalint.engine.run_loop import run_catalog_rule, run_tool_rules

    active, tools, ctx, chunks, documents = current_run().run_memo[_STATE]
    start, end = chunks[index]
    part = tools[start:end]
    whole = _whole_files(tools, start, end)
    found = _locate_some(list(run_tool_rules(active, part, ctx)), documents, whole)
    per_file = {i: _locate_some(list(run_catalog_rule(rule, part, ctx)), documents, whole)
                for i, rule in enumerate(active) if rule.catalog_from_tools}
    return found, per_file


def run_rules_parallel(rules: Sequence[Any], tools: Sequence[Tool], ctx: Any, jobs: int,
                       documents: Mapping[str, Any] | None = None) -> list[Diagnostic] | None:
    """Diagnostics of ``rules`` (:class:`~schemalint.rules.base.Rule`) on ``tools`` in the same
    order as :func:`~schemalint.engine.run_rules`, computed by ``jobs`` forked workers.
    ``documents`` (path -> :class:`~schemalint.loaders.files.documents.Document`, the loaded
    files): the workers, and the parent while it waits for them, locate the diagnostics of the files
    they saw whole (:func:`schemalint.engine.findings.locate_diagnostics`, which skips a diagnostic
    that has a column, so that the caller's locating pass does only the rest).

    Returns ``None`` when a pool cannot be used (one job, too few files, no ``fork``, or the
    pool failed to start); the caller then runs the rules serially. Never raises for a rule
    error (those become warning diagnostics, as in a serial run).
    """
    import multiprocessing

    from schemalint.engine.run_loop import run_catalog_rule

    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    active = [r for r in rules if r.applies(ctx)]
    chunks = file_chunks(tools, jobs * CHUNKS_PER_JOB, splittable_files(active, tools))
    if len(chunks) < 2:
        return None
    import gc

    ctx.run.run_memo[_STATE] = (active, tools, ctx, chunks, documents)
    gc.freeze()  # keep the workers' garbage collector from touching (and copying) the inherited objects
    in_parent: dict[int, list[Diagnostic]] = {}
    try:
        with running(ctx.run), multiprocessing.get_context("fork").Pool(min(jobs, len(chunks))) as pool:
            pending = pool.map_async(_work, range(len(chunks)), chunksize=1)
            # the catalog rules that need no per-tool pass run here while the workers work
            for i, rule in enumerate(active):
                if not rule.catalog_from_tools:
                    in_parent[i] = list(run_catalog_rule(rule, tools, ctx))
            if documents:
                # a file cut between workers is located once, with all its findings, by the caller
                located = iter(_locate_some([d for i in sorted(in_parent) for d in in_parent[i]], documents,
                                            documents.keys() - _cut_files(tools, chunks)))
                in_parent = {i: [next(located) for _ in in_parent[i]] for i in sorted(in_parent)}
            results = pending.get()
    except (OSError, RuntimeError, multiprocessing.ProcessError):
        return None
    finally:
        del ctx.run.run_memo[_STATE]
    out: list[Diagnostic] = []
    for found, _ in results:
        out.extend(found)
    for i, rule in enumerate(active):
        if rule.catalog_from_tools:
            for _, per_file in results:
                out.extend(per_file.get(i, ()))
        else:
            out.extend(in_parent[i])
    return out
