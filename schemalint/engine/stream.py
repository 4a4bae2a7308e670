"""The streaming check: memory bounded by the largest file, not by the number of tools.

:func:`schemalint.engine.check` takes this route for large catalogs of files (more than
:data:`STREAM_FILES` files or :data:`STREAM_BYTES` of source, or a JSON Lines file above
:data:`~schemalint.engine.pipeline.JSONL_STREAM_BYTES`, which is then read line by line); the result is the one the
in-memory route gives (same diagnostics, same order, same fingerprints), without
``CheckResult.catalog``.

1. **Gather** (:func:`gather`): every file is parsed, its tools found, and what the catalog-wide
   parts of the rules need is kept (:class:`~schemalint.rules.facts.FactsBuilder`: the tool names,
   one flag per file for the per-file summaries, the definitions of names defined twice or looking alike); the
   parsed document is dropped. A second gathering pass runs only when some name is defined twice
   or looks like another (it records those names' definitions: name, origin, property names).
2. **Check** (:func:`check_groups`): every file again, one *group* at a time (a whole document, or
   :data:`~schemalint.engine.pipeline.BATCH_LINES` lines of a streamed JSON Lines file, never
   splitting a line), each through the per-file pipeline (:class:`~schemalint.engine.pipeline.FilePipeline`):
   the per-tool rules, then every rule's catalog hook with ``Context.catalog`` set to the group's
   tools and ``Context.facts`` to the gathered facts (the catalog rules group by file and line, so
   their findings do not depend on the other groups); the findings are selected, located and
   fingerprinted while the text is at hand, and the group's tools and per-tool caches are dropped.
   With ``--jobs``, forked workers check the groups of their share of the files
   (:func:`check_parallel`) and send back only located diagnostics and fingerprints.

The diagnostics are then sorted as the in-memory route sorts them (a stable sort: findings that
tie keep the order they were produced in, the same within one file in both routes).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from schemalint.engine import pipeline
from schemalint.engine.pipeline import (
    Checked,
    FilePipeline,
    Gathered,
    Group,
    LinesInfo,
    Share,
    file_size,
    iter_groups,
    merge_shares,
    property_names,
    scan_lines,
    scan_streamed_document,
    sort_found,
    streams_document,
    streams_lines,
    whole_files,
)
from schemalint.model import Diagnostic, Fingerprint, RunContext, Tool, fingerprint

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.engine.selection import RuleFilter
    from schemalint.rules.base import Context, Rule
    from schemalint.rules.facts import FactsBuilder

__all__ = ["Checked", "Gathered", "Group", "check_groups", "check_parallel", "file_size", "gather", "iter_groups",
           "should_stream", "sort_found", "summarise", "walk_problem_pairs"]

STREAM_FILES = 5000
"""Above this many files, ``check`` streams."""
STREAM_BYTES = 200_000_000
"""Above this much source (the files' sizes summed), ``check`` streams."""
_STATE = "engine.stream.state"
"""Key of the pool's work in the run's memo, inherited by the forked workers with the current run."""

def should_stream(paths: Sequence[str]) -> bool:
    """Whether a check of ``paths`` (files) takes the streaming route (see the module docstring)."""
    if len(paths) > STREAM_FILES:
        return True
    from schemalint.loaders.files.documents import read_limit

    total = 0
    limit = read_limit()
    for path in paths:
        try:
            size = os.stat(path).st_size
        except OSError:
            continue
        if (size > pipeline.JSONL_STREAM_BYTES and streams_lines(path)) or (size > limit and streams_document(path)):
            return True
        total += size
    return total > STREAM_BYTES


# ---------------------------------------------------------------------------- 1. gather


Span = tuple[str, range | None]
"""``(path, batches)``: a file, or the batches of these numbers of a streamed JSON Lines file."""


def _gather_share(spans: Sequence[Span], named: set[str], ctx: Context, infos: dict[str, LinesInfo]) -> Share:
    from schemalint.rules.facts import FactsBuilder

    share = Share(FactsBuilder(property_names))
    for path, batches in spans:
        for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos, batches=batches)):
            share.add(group, group.tools, ctx)
            del group  # not held while the next one is parsed
    return share


def _gather_definitions(spans: Sequence[Span], named: set[str], builder: FactsBuilder,
                        infos: dict[str, LinesInfo]) -> None:
    for path, batches in spans:
        for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos, batches=batches)):
            builder.add_definitions(group.tools)
            del group


def gather(paths: Sequence[str], named: set[str], ctx: Context, infos: dict[str, LinesInfo],
           jobs: int = 1) -> Gathered:
    """The gathering pass over ``paths`` (see the module docstring); the collector is paused while
    parsing. With ``jobs`` above 1, forked workers gather consecutive shares of the files (a streamed
    JSON Lines file is cut into consecutive runs of batches), which are merged in catalog order: the
    same facts."""
    spans: list[Span] = [(path, None) for path in paths]
    share = None
    if jobs > 1:
        chunks = _share_out(paths, jobs * 4, infos)
        if len(chunks) > 1:
            share = _in_workers(ctx, _gather_work, (chunks, named, ctx, infos), len(chunks), jobs, merge_shares)
            if share is not None and share.builder.wanted():
                found = _in_workers(ctx, _definitions_work, (chunks, named, share.builder, infos), len(chunks), jobs,
                                    list)
                if found is None:
                    _gather_definitions(spans, named, share.builder, infos)
                else:
                    for part in found:
                        share.builder.merge_definitions(part)
    if share is None:
        share = _gather_share(spans, named, ctx, infos)
        if share.builder.wanted():
            _gather_definitions(spans, named, share.builder, infos)
    ctx.run.last_targets[0] = None
    return Gathered(share.builder.build(), len(paths), share.count, dict(share.formats),
                    [*share.reps.values(), *([share.runtime] if share.runtime is not None else [])],
                    share.traffic, share.repeated, share.held)


def summarise(paths: Sequence[str], named: set[str], infos: dict[str, LinesInfo]) -> dict[str, Any]:
    """The shard summary of ``paths`` (:func:`schemalint.rules.facts.summary_of`), one file at a time."""
    from schemalint.rules.facts import summary_of

    def tools() -> Iterator[Tool]:
        for path in paths:
            for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos)):
                yield from group.tools
                del group

    return summary_of(tools(), property_names)


def _share_out(paths: Sequence[str], parts: int, infos: dict[str, LinesInfo]) -> list[list[Span]]:
    """``paths`` cut into about ``parts`` consecutive shares of about equal size in bytes (a
    streamed JSON Lines file by its batches: its first read is done here, kept in ``infos``), each a
    list of spans; none is empty."""
    pieces: list[tuple[str, int | None, int]] = []
    for path in paths:
        info = None
        if streams_lines(path):
            info = infos.get(path)
            if info is None:
                info = infos[path] = scan_lines(path)
        elif streams_document(path) and path not in infos:  # its first read, inherited by the workers
            infos[path] = scan_streamed_document(path)
        if info is not None and info.problem is None and not info.blank and len(info.batches) > 1:
            pieces.extend((path, i, end - start) for i, (start, end, _) in enumerate(info.batches))
        else:
            pieces.append((path, None, file_size(path)))
    total = sum(w for _, _, w in pieces) or 1
    target = total / max(1, parts)
    chunks: list[list[Span]] = []
    current: list[tuple[str, int | None]] = []
    weight = 0
    for path, index, w in pieces:
        current.append((path, index))
        weight += w
        if weight >= target:
            chunks.append(_spans(current))
            current, weight = [], 0
    if current:
        chunks.append(_spans(current))
    return chunks


def _spans(pieces: Sequence[tuple[str, int | None]]) -> list[Span]:
    """Consecutive pieces of one file (batches) joined into one span each."""
    out: list[Span] = []
    for path, index in pieces:
        if index is None:
            out.append((path, None))
            continue
        if out and out[-1][0] == path and out[-1][1] is not None and out[-1][1].stop == index:
            out[-1] = (path, range(out[-1][1].start, index + 1))
        else:
            out.append((path, range(index, index + 1)))
    return out


_GATHER = "engine.stream.gather"
"""Key of the gathering pool's work in the run's memo (inherited by the forked workers)."""


def _in_workers(ctx: Context, work: Any, state: tuple[Any, ...], count: int, jobs: int, combine: Any) -> Any:
    """``combine([work(0), ..., work(count - 1)])``, each call in one of ``jobs`` forked workers that
    find ``state`` in the memo of the run (``ctx.run``, the current one); ``None`` when a pool cannot
    be used."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    memo = ctx.run.run_memo
    memo[_GATHER] = state
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, count)) as pool:
            return combine(pool.map(work, range(count), chunksize=1))
    except (OSError, RuntimeError, multiprocessing.ProcessError):
        return None
    finally:
        memo.pop(_GATHER, None)


def _gather_work(index: int) -> Share:
    from schemalint.model import running

    chunks, named, ctx, infos = RunContext.current.run_memo[_GATHER]
    with running(ctx.run):
        return _gather_share(chunks[index], named, ctx, infos)


def _definitions_work(index: int) -> Any:
    chunks, named, builder, infos = RunContext.current.run_memo[_GATHER]
    _gather_definitions(chunks[index], named, builder, infos)
    return builder.take_definitions()


def _paused(groups: Iterator[Group]) -> Iterator[Group]:
    """``groups``, each parsed with the cyclic garbage collector paused (parsed JSON has no cycles)."""
    enabled = gc.isenabled()
    while True:
        gc.disable()
        try:
            group = next(groups, None)
        finally:
            if enabled:
                gc.enable()
        if group is None:
            return
        yield group
        del group  # not held while the next one is parsed


# ---------------------------------------------------------------------------- 2. check


Unit = tuple[str, int, int]
"""``(path, part, parts)``: a file, or one of the parts a worker checks of a streamed JSON Lines file."""


def check_groups(units: Sequence[Unit], named: set[str], active: Sequence[Rule], ctx: Context,
                 rule_filter: RuleFilter, cfg: Config, infos: dict[str, LinesInfo]) -> Checked:
    """The check pass over ``units`` in this process (see the module docstring): each group through
    the per-file pipeline (:class:`~schemalint.engine.pipeline.FilePipeline`)."""
    out = Checked()
    pipeline = FilePipeline(active, ctx, rule_filter, cfg)
    for path, part, parts in units:
        skipped = False
        lines = streamed = False
        for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos, part, parts)):
            skipped = skipped or group.unreported
            lines = group.document is None and group.parts is None
            streamed = group.parts is not None
            pipeline.check(group, out)
            del group
        if skipped:
            out.skipped_files.add(path)
        if streamed:
            pipeline.finish_document_file(path, out, infos[path])
        elif lines:
            pipeline.finish_lines_file(path, out)
    return out


# ---------------------------------------------------------------------------- --jobs

def check_parallel(paths: Sequence[str], named: set[str], active: Sequence[Rule], ctx: Context,
                   rule_filter: RuleFilter, cfg: Config, infos: dict[str, LinesInfo], jobs: int) -> Checked | None:
    """:func:`check_groups` in ``jobs`` forked workers, each checking contiguous shares of the files,
    a streamed JSON Lines file being shared batch by batch between all of them (unless a per-file
    summary of an active rule needs it whole: :func:`~schemalint.engine.pipeline.whole_files`);
    ``None`` when a pool cannot be used (then the
    caller checks serially). The suppression counts of the workers' rule filters are added to the parent's."""
    import multiprocessing

    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    whole = whole_files(active, (), ctx.facts)
    units: list[Unit] = []
    for path in paths:
        # a streamed JSON document stays in one worker: its tools lists span its batches (SL005)
        if streams_lines(path) and whole is not None and path not in whole:
            units.extend((path, k, jobs) for k in range(jobs))
        else:
            units.append((path, 0, 1))
    if len(units) < 2:
        return None
    parts = min(len(units), jobs * 4)
    size = -(-len(units) // parts)
    chunks = [(i, min(len(units), i + size)) for i in range(0, len(units), size)]
    ctx.run.run_memo[_STATE] = (units, named, active, ctx, rule_filter, cfg, infos, chunks)
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(chunks))) as pool:
            results = pool.map(_work, range(len(chunks)), chunksize=1)
    except (OSError, RuntimeError, multiprocessing.ProcessError):
        return None
    finally:
        ctx.run.run_memo.pop(_STATE, None)
    return Checked.merged(results, rule_filter)


def _work(index: int) -> tuple[Checked, dict[str, int]]:
    from schemalint.model import running

    units, named, active, ctx, rule_filter, cfg, infos, chunks = RunContext.current.run_memo[_STATE]
    start, end = chunks[index]
    before = dict(rule_filter.suppressed)
    with running(ctx.run):
        checked = check_groups(units[start:end], named, active, ctx, rule_filter, cfg, infos)
    counts = {k: v - before.get(k, 0) for k, v in rule_filter.suppressed.items() if v != before.get(k, 0)}
    return checked, counts


def walk_problem_pairs(diagnostics: Sequence[Diagnostic], cfg: Config) -> list[tuple[Diagnostic, Fingerprint]]:
    """Fingerprinted diagnostics that belong to no group (the directory walk's SL000 warnings)."""
    return [(d, fingerprint(d, cfg.relative(d.file), {})) for d in diagnostics]

