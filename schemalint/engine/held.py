"""``check --jobs N`` over files, loaded by the workers that check them (the route of the CLI).

The in-memory parallel route (:mod:`schemalint.engine.parallel`) loads the whole catalog in the
parent, serially, before it forks; then every worker's reference counting copies the inherited
pages it touches. Here the parent forks ``N`` workers as soon as the files are known, and each
worker parses its own *share* of the files and **holds** it for the whole run:

1. **Gather**: each worker parses its share (consecutive files of about equal size; a file larger
   than a quarter of a share is parsed by every worker whose share overlaps it, each taking a
   range of its tools) and sends back what the catalog-wide parts of the rules need
   (:class:`~schemalint.engine.pipeline.Share`, as the streaming route's first pass), merged in
   catalog order by the parent. When some name is defined twice or looks like another, the
   workers then record those names' definitions from the tools they hold (the second gathering
   pass, without reading the files again).
2. **Check**: the parent chooses the rules from the merged facts and sends the facts and the rules'
   codes; each worker checks the documents it holds through the per-file pipeline
   (:class:`schemalint.engine.pipeline.FilePipeline`, as the streaming route does): the per-tool
   rules on its range of each document, then, in the worker that holds a document's last tools,
   its SL000 problems and the catalog rules with ``Context.catalog`` set to the document's tools
   and ``Context.facts`` to the gathered facts; the findings are selected, located and
   fingerprinted there. A file that a per-file summary of an active rule needs whole
   (:func:`~schemalint.engine.pipeline.whole_files`) is checked whole by that last worker.

The parent then sorts what the workers sent, in catalog order, as the streaming route does: the
result is the streaming route's, hence the in-memory route's, without ``CheckResult.catalog`` (the
tools never reach the parent). Catalogs above the streaming thresholds keep the streaming route,
whose memory is bounded by the largest file. Without ``fork`` the run takes another route.
"""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from schemalint.engine.pipeline import (
    Checked,
    FilePipeline,
    Gathered,
    Group,
    Share,
    file_size,
    iter_groups,
    merge_shares,
    property_names,
    streams_lines,
    whole_files,
)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from schemalint.config import Config
    from schemalint.engine.selection import RuleFilter
    from schemalint.rules.base import Context, Rule

SPLIT_SHARE = 2
"""A file of more than ``1 / SPLIT_SHARE`` of a share's bytes is cut between the shares that overlap
it (each takes a range of its tools; a worker parses it once for all its shares); a smaller one goes
whole to the share that holds its middle byte."""


SHARED_FILE_BYTES = 64 * 1024 * 1024
"""The largest file this route takes: a file is cut between workers that each parse it (and hold
their own copy), so above this size a check takes the in-memory route, whose workers share the
parent's one parsed copy (the memory goal for one huge document, docs/performance.md)."""


def suits(sizes: Sequence[int]) -> bool:
    """Whether files of these sizes (bytes) are checked by this route (see :data:`SHARED_FILE_BYTES`)."""
    return all(size <= SHARED_FILE_BYTES for size in sizes)


@dataclass(frozen=True)
class Piece:
    """The part of one file a worker takes: the tools ``[n * low // size, n * high // size)`` of
    the ``n`` the file holds (``size``: its bytes; ``low``/``high``: a byte range of it; ``size``
    ``0``: the whole file). ``last``: the piece holds the file's last tools (its SL000 problems and
    catalog rules are checked with it)."""

    path: str
    low: int
    high: int
    size: int
    last: bool

    def tools(self, count: int) -> range:
        """The indexes of this piece's tools among the file's ``count``."""
        if self.size <= 0:
            return range(count)
        return range(count * self.low // self.size, count * self.high // self.size)


def plan(paths: Sequence[str], jobs: int, sizes: Sequence[int] | None = None) -> list[list[Piece]]:
    """``paths`` cut into at most ``jobs`` consecutive shares of about equal size in bytes (``sizes``:
    the files' sizes, default read with ``os.stat``); no share is empty. See :data:`SPLIT_SHARE`."""
    sizes = [file_size(p) for p in paths] if sizes is None else list(sizes)
    total = sum(sizes)
    shares: list[list[Piece]] = [[] for _ in range(max(1, jobs))]
    if total <= 0:
        shares[0] = [Piece(p, 0, 0, 0, True) for p in paths]
        return [s for s in shares if s]
    width = total / len(shares)
    offset = 0
    for path, size in zip(paths, sizes, strict=True):
        first = min(len(shares) - 1, int(offset // width))
        last = min(len(shares) - 1, int(max(offset, offset + size - 1) // width))
        if size * SPLIT_SHARE <= width or first == last:
            shares[min(len(shares) - 1, int((offset + size / 2) // width))].append(Piece(path, 0, 0, 0, True))
        else:
            for k in range(first, last + 1):
                low = max(0, int(k * width) - offset)
                high = size if k == last else min(size, int((k + 1) * width) - offset)
                if high > low:
                    shares[k].append(Piece(path, low, high, size, high == size))
        offset += size
    return [s for s in shares if s]


BLOCKS_PER_JOB = 4
"""The files are cut into ``jobs * BLOCKS_PER_JOB`` consecutive blocks of about equal size, dealt to
the workers in turn (block ``b`` to worker ``b % jobs``): a region of the catalog that costs more to
check than its size says (long descriptions, a type dialect) is shared between the workers."""


@dataclass
class _Held:
    """A document a worker holds, the block it belongs to and the piece of it the worker takes."""

    block: int
    group: Group
    piece: Piece


_DEFINITIONS = "definitions"
_CHECK = "check"


def _worker(conn: Connection, others: list[Connection], blocks: list[tuple[int, list[Piece]]], named: set[str],
            ctx: Context, rule_filter: RuleFilter, cfg: Config, rules: Sequence[Rule] | None) -> None:
    """A worker's run (forked): load and gather its ``blocks`` (``(number, pieces)``), then answer
    the parent's requests. ``others``: the parent's ends of the earlier workers' pipes, inherited:
    closed here."""
    for other in others:
        other.close()
    try:
        conn.send(("ok", _serve(conn, blocks, named, ctx, rule_filter, cfg, rules)))
    except BaseException as exc:  # the parent falls back to another route
        with contextlib.suppress(OSError):
            conn.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _load(blocks: list[tuple[int, list[Piece]]], named: set[str], ctx: Context) -> tuple[list[_Held], list[Any]]:
    """The documents of ``blocks``, each parsed once (a document cut into pieces of several blocks is
    shared by them), and the first gathering pass of each block (:class:`~schemalint.engine.pipeline.Share`)."""
    import gc

    from schemalint.rules.facts import FactsBuilder

    held: list[_Held] = []
    shares = []
    # Parsed JSON holds no cycles, and everything loaded here is held to the end: the collector
    # is paused while loading (else each full pass rescans the documents held so far), then
    # the held objects are frozen so that the check pass's collections skip them.
    enabled = gc.isenabled()
    gc.disable()
    try:
        last: Group | None = None
        for number, pieces in blocks:
            share = Share(FactsBuilder(property_names))
            for piece in pieces:
                if last is None or last.path != piece.path or not piece.size:
                    last = next(iter_groups(piece.path, os.path.normpath(piece.path) in named, {}))
                held.append(_Held(number, last, piece))
                mine = piece.tools(len(last.tools))
                share.add(last, last.tools[mine.start:mine.stop], ctx, whole=piece.last)
            shares.append(share)
    finally:
        if enabled:
            gc.enable()
    gc.freeze()
    ctx.run.last_targets[0] = None
    return held, shares


def _serve(conn: Connection, blocks: list[tuple[int, list[Piece]]], named: set[str], ctx: Context,
           rule_filter: RuleFilter, cfg: Config,
           rules: Sequence[Rule] | None) -> list[tuple[int, Checked, dict[str, int]]]:
    from schemalint.model import running

    with running(ctx.run):
        held, shares = _load(blocks, named, ctx)
        conn.send(shares)
        request, payload = pickle.loads(conn.recv_bytes())
        if request == _DEFINITIONS:
            builder = payload
            found = []
            for number, _ in blocks:
                for h in held:
                    if h.block == number:
                        mine = h.piece.tools(len(h.group.tools))
                        builder.add_definitions(h.group.tools[mine.start:mine.stop])
                found.append(builder.take_definitions())
            conn.send(found)
            request, payload = pickle.loads(conn.recv_bytes())
        facts, chosen = payload
        ctx.facts = facts
        if rules is not None:
            active = [rules[i] for i in chosen]
        else:
            from schemalint.rules.registry import rule_by_code

            active = [r for r in map(rule_by_code, chosen) if r.applies(ctx)]
        pipeline = FilePipeline(active, ctx, rule_filter, cfg)
        whole = whole_files(active, (), facts)
        results = []
        for number, _ in blocks:
            before = dict(rule_filter.suppressed)
            out = Checked()
            for h in held:
                if h.block != number:
                    continue
                group, piece = h.group, h.piece
                mine = piece.tools(len(group.tools))
                if piece.size and (whole is None or group.path in whole):
                    if not piece.last:
                        continue  # a per-file summary needs every tool: checked whole with its last piece
                    mine = range(len(group.tools))
                pipeline.check(group, out, mine, piece.last)
                if group.unreported and piece.last:
                    out.skipped_files.add(group.path)
            counts = {k: v - before.get(k, 0) for k, v in rule_filter.suppressed.items() if v != before.get(k, 0)}
            results.append((number, out, counts))
        return results


class WorkerFailed(RuntimeError):
    """A worker of :func:`check_held` stopped or raised (the caller takes another route)."""


def check_held(paths: Sequence[str], named: set[str], ctx: Context, rule_filter: RuleFilter, cfg: Config,
               rules: Sequence[Rule] | None, jobs: int,
               choose: Callable[[Gathered], Sequence[Any]]) -> tuple[Gathered, Checked] | None:
    """The gathering and check passes of ``paths`` (files) in ``jobs`` forked workers that each load
    and hold a share of them (see the module docstring). ``choose(gathered)`` runs in the parent
    between the passes: it sets ``ctx.facts`` and returns the rules to run: some of ``rules``, or,
    when ``rules`` is ``None``, the codes of registry rules (then each worker imports them and keeps
    those whose :meth:`Rule.applies`, so that the parent imports no rule module). The suppression
    counts of the workers' rule filters are added to ``rule_filter``'s. ``None`` when this route
    cannot be taken (one share, no ``fork``, a worker that failed: nothing is left running); then
    the caller checks by another route."""
    import multiprocessing

    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    if any(streams_lines(p) for p in paths):
        return None  # read in batches by the streaming route
    blocks = plan(paths, jobs * BLOCKS_PER_JOB)
    workers = min(jobs, len(blocks))
    if workers < 2:
        return None
    dealt = [[(b, blocks[b]) for b in range(w, len(blocks), workers)] for w in range(workers)]
    context = multiprocessing.get_context("fork")
    conns: list[Connection] = []
    procs: list[Any] = []
    try:
        for mine in dealt:
            here, there = context.Pipe()
            proc = context.Process(target=_worker, daemon=True,
                                   args=(there, list(conns), mine, named, ctx, rule_filter, cfg, rules))
            proc.start()
            there.close()
            conns.append(here)
            procs.append(proc)
        gathered, results = _drive(conns, dealt, ctx, rules, len(paths), choose)
    except (OSError, EOFError, WorkerFailed, multiprocessing.ProcessError):
        return None
    finally:
        for conn in conns:
            conn.close()
        for proc in procs:
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join()
    return gathered, Checked.merged(results, rule_filter)


def _receive(conn: Connection) -> Any:
    message = conn.recv()
    if isinstance(message, tuple) and len(message) == 2 and message[0] == "error":
        raise WorkerFailed(message[1])
    return message


def _in_block_order(conns: list[Connection], dealt: list[list[tuple[int, list[Piece]]]]) -> list[Any]:
    """What every worker sends next (one item per block it holds), in the order of the blocks."""
    by_block: dict[int, Any] = {}
    for conn, mine in zip(conns, dealt, strict=True):
        items = _receive(conn)
        if len(items) != len(mine):
            raise WorkerFailed(f"{len(items)} answers for {len(mine)} blocks")
        for (number, _), item in zip(mine, items, strict=True):
            by_block[number] = item
    return [by_block[b] for b in sorted(by_block)]


def _send_all(conns: list[Connection], message: Any) -> None:
    """``message`` to every worker, pickled once."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    for conn in conns:
        conn.send_bytes(data)


def _drive(conns: list[Connection], dealt: list[list[tuple[int, list[Piece]]]], ctx: Context,
           rules: Sequence[Rule] | None, files: int,
           choose: Callable[[Gathered], Sequence[Any]]) -> tuple[Gathered, list[tuple[Checked, dict[str, int]]]]:
    """The parent's side of the two passes (see :func:`check_held`): the blocks' results in catalog order."""
    share = merge_shares(_in_block_order(conns, dealt))
    builder = share.builder
    if builder.wanted():
        _send_all(conns, (_DEFINITIONS, builder))
        for part in _in_block_order(conns, dealt):
            builder.merge_definitions(part)
    gathered = Gathered(builder.build(), files, share.count, dict(share.formats),
                        [*share.reps.values(), *([share.runtime] if share.runtime is not None else [])],
                        share.traffic, share.repeated, share.held)
    active = choose(gathered)
    if rules is not None:
        index = {id(r): i for i, r in enumerate(rules)}
        chosen: list[Any] = [index[id(r)] for r in active]
    else:
        chosen = list(active)
    _send_all(conns, (_CHECK, (ctx.facts, chosen)))
    answers: dict[int, tuple[Checked, dict[str, int]]] = {}
    for conn in conns:
        status, result = _receive(conn)
        if status != "ok":
            raise WorkerFailed(str(status))
        for number, out, counts in result:
            answers[number] = (out, counts)
    return gathered, [answers[b] for b in sorted(answers)]
