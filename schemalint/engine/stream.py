"""The streaming check: memory bounded by the largest file, not by the number of tools.

:func:`schemalint.engine.check` takes this route for large catalogs of files (more than
:data:`STREAM_FILES` files or :data:`STREAM_BYTES` of source, or a JSON Lines file above
:data:`JSONL_STREAM_BYTES`, which is then read line by line); the result is the one the
in-memory route gives (same diagnostics, same order, same fingerprints), without
``CheckResult.catalog``.

1. **Gather** (:func:`gather`): every file is parsed, its tools found, and what the catalog-wide
   parts of the rules need is kept (:class:`~schemalint.rules.facts.FactsBuilder`: the tool names,
   one flag per file for SL001, the definitions of names defined twice or looking alike); the
   parsed document is dropped. A second gathering pass runs only when some name is defined twice
   or looks like another (it records those names' definitions: name, origin, property names).
2. **Check** (:func:`check_groups`): every file again, one *group* at a time (a whole document, or
   :data:`BATCH_LINES` lines of a streamed JSON Lines file, never splitting a line): the per-tool
   rules, then every rule's catalog hook with ``Context.catalog`` set to the group's tools and
   ``Context.facts`` to the gathered facts (the catalog rules group by file and line, so their
   findings do not depend on the other groups); the findings are selected, located and
   fingerprinted while the text is at hand, and the group's tools and per-tool caches are dropped.
   With ``--jobs``, forked workers check the groups of their share of the files
   (:func:`check_parallel`) and send back only located diagnostics and fingerprints.

The diagnostics are then sorted as the in-memory route sorts them (a stable sort: findings that
tie keep the order they were produced in, the same within one file in both routes).
"""

from __future__ import annotations

import gc
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from schemalint.loaders.files.documents import (
    JSONL_SUFFIXES,
    Document,
    ParseProblem,
    looks_like_tool_file,
    read_document,
    reportable_problems,
)
from schemalint.model import Diagnostic, Fingerprint, RunContext, Tool, fingerprint

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.engine.selection import RuleFilter
    from schemalint.rules.base import Context, Rule
    from schemalint.rules.facts import CatalogFacts, FactsBuilder

STREAM_FILES = 5000
"""Above this many files, ``check`` streams."""
STREAM_BYTES = 200_000_000
"""Above this much source (the files' sizes summed), ``check`` streams."""
JSONL_STREAM_BYTES = 32 * 1024 * 1024
"""A JSON Lines file above this size is read line by line (and makes ``check`` stream); its size
is then not bounded by :data:`~schemalint.loaders.files.documents.MAX_FILE_BYTES`, only its lines."""
BATCH_LINES = 500
"""Lines of a streamed JSON Lines file checked together (one group): about 2 MB of text of the
benchmark's tools, 20 MB parsed."""

_STATE = "engine.stream.state"
"""Key of the pool's work in the run's memo, inherited by the forked workers with the current run."""

_RUN_WIDE = frozenset({"targets-union", "poisoning-name-words", "description.mentions.by_text", _STATE})
"""Memo entries (:attr:`RunContext.memo`) kept from one group to the next: they depend on the
run's options and on texts, not on a tool's identity. Every other entry (caches keyed by
``id(tool)``) is dropped with the group's tools."""

_FILE_STATE = frozenset({"SL001-dialect-files"})
"""Memo entries of the per-file summaries (:attr:`Rule.catalog_from_tools`), kept from one batch
of a JSON Lines file to the next until the file's last batch is checked."""


def should_stream(paths: Sequence[str]) -> bool:
    """Whether a check of ``paths`` (files) takes the streaming route (see the module docstring)."""
    if len(paths) > STREAM_FILES:
        return True
    total = 0
    for path in paths:
        try:
            size = os.stat(path).st_size
        except OSError:
            continue
        if size > JSONL_STREAM_BYTES and _streams_lines(path):
            return True
        total += size
    return total > STREAM_BYTES


def _streams_lines(path: str) -> bool:
    if not path.lower().endswith(JSONL_SUFFIXES):
        return False
    try:
        import stat

        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size > JSONL_STREAM_BYTES


@dataclass
class Group:
    """Tools checked together: those of one document, or of :data:`BATCH_LINES` lines of one
    streamed JSON Lines file. ``problems``: the SL000 problems to report; ``unreported``: the file has
    problems that are not reported (counted once per file in the summary's note); ``document``: the
    parsed file, or ``lines``: the batch's lines by number (for locating)."""

    path: str
    tools: list[Tool]
    problems: list[ParseProblem] = field(default_factory=list)
    unreported: bool = False
    document: Document | None = None
    lines: dict[int, str] = field(default_factory=dict)
    first: bool = True
    """The first group of its file."""
    index: int = 0
    """Its number among the batches of its file (``0``: a whole document)."""
    traffic: bool = False
    """The file holds recorded traffic; ``repeats``: repeated tool declarations left out of ``tools``."""
    repeats: int = 0


@dataclass
class _LinesInfo:
    """What the first read of a streamed JSON Lines file found: a problem that makes the whole file
    unreadable (invalid UTF-8, not a regular file), whether it looks like a tool file, whether it is blank."""

    problem: ParseProblem | None
    looks: bool
    blank: bool
    batches: list[tuple[int, int, int]] = field(default_factory=list)
    """The file's groups of :data:`BATCH_LINES` lines (never splitting a line of the file), each as
    ``(start, end, first)``: byte offsets in the file and the number of its first line, so that a
    worker reads only its own batches."""


def _scan_lines(path: str) -> _LinesInfo:
    """Read ``path`` once as bytes, line by line: validate its UTF-8 as a whole-file read would,
    judge it with :func:`looks_like_tool_file` (whose tests never span a line), and cut it into
    batches (:attr:`_LinesInfo.batches`; a line is what ``str.splitlines`` gives, so one line of the
    file may hold several)."""
    from schemalint.loaders.files.documents import special_kind

    by_name = looks_like_tool_file(path, "")  # what a file that cannot be read or decoded is judged by
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return _LinesInfo(ParseProblem(f"cannot read file: {exc.strerror or exc}"), by_name, False)
    with os.fdopen(fd, "rb") as handle:
        kind = special_kind(os.fstat(fd).st_mode)
        if kind is not None:
            return _LinesInfo(ParseProblem(f"cannot read file: {kind}, not a regular file: schemalint reads only "
                                           "regular files"), by_name, False)
        looks = by_name
        blank = True
        offset = 0
        lineno = 0
        position = 0  # in the file (offset: in the text, after a byte order mark)
        batches: list[tuple[int, int, int]] = []
        batch_start, batch_first, in_batch = 0, 1, 0
        from schemalint.loaders.files.documents import MAX_FILE_BYTES

        try:
            for raw in iter(lambda: handle.readline(MAX_FILE_BYTES + 1), b""):
                if len(raw) > MAX_FILE_BYTES:
                    return _LinesInfo(ParseProblem(
                        f"cannot read file: line {lineno + 1} is above the {MAX_FILE_BYTES:,}-byte size bound of a "
                        "line: not read"), by_name, False)
                size = len(raw)
                if lineno == 0 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                lineno += 1
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    prefix = raw[: exc.start].decode("utf-8", errors="replace")
                    return _LinesInfo(ParseProblem(
                        f"invalid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {offset + exc.start}); "
                        "the file was not read", lineno, len(prefix) + 1), by_name, False)
                offset += len(raw)
                position += size
                if blank and text.strip():
                    blank = False
                if not looks and looks_like_tool_file(path, text):
                    looks = True
                in_batch += len(text.splitlines())
                if in_batch >= BATCH_LINES:
                    batches.append((batch_start, position, batch_first))
                    batch_start, batch_first, in_batch = position, batch_first + in_batch, 0
        except OSError as exc:
            return _LinesInfo(ParseProblem(f"cannot read file: {exc.strerror or exc}"), by_name, False)
    if in_batch or not batches:
        batches.append((batch_start, position, batch_first))
    return _LinesInfo(None, looks, blank, batches)


def iter_groups(path: str, explicit: bool, infos: dict[str, _LinesInfo], part: int = 0,
                parts: int = 1, batches: range | None = None) -> Iterator[Group]:
    """The groups of the file ``path`` (``explicit``: named as a source, see
    :func:`~schemalint.loaders.files.documents.reportable_problems`); ``infos`` caches the first
    read of each streamed JSON Lines file. ``part`` of ``parts``: of a streamed JSON Lines file,
    only every ``parts``-th batch from batch ``part`` on, so that workers can share one large file;
    ``batches``: only the batches of these numbers instead. The other batches are not read (the
    first read found where each batch starts). Other files have one part (batch ``0``)."""
    from schemalint.loaders.formats.json_tools import find_tools, load_document_tools

    def selected(index: int) -> bool:
        return index in batches if batches is not None else index % parts == part

    if not _streams_lines(path):
        if selected(0):
            from schemalint.traffic.detect import distinct_declarations, holds_traffic

            doc = read_document(path)
            shown = reportable_problems(doc, explicit)
            tools = load_document_tools(doc)
            traffic = bool(doc.values) and holds_traffic(doc.text, doc.values, path)
            repeats = 0
            if traffic:
                tools, repeats = distinct_declarations(tools)
            yield Group(path, tools, shown, bool(doc.problems) and not shown, document=doc, traffic=traffic,
                        repeats=repeats)
        return
    info = infos.get(path)
    if info is None:
        info = infos[path] = _scan_lines(path)
    if info.problem is not None or info.blank:
        if selected(0):
            whole = info.problem or ParseProblem("empty file: no tool definitions", 1, 1, severity="warning")
            report = explicit or info.looks
            yield Group(path, [], [whole] if report else [], not report)
        return
    from schemalint.loaders.files.documents import parse_jsonl_line

    reported = explicit or info.looks

    def group(batch: dict[int, str], first: bool, index: int) -> Group:
        tools: list[Tool] = []
        problems: list[ParseProblem] = []
        for lineno, line in batch.items():
            if not line.strip():
                continue
            value, problem = parse_jsonl_line(line, lineno)
            if problem is not None:
                problems.append(problem)
            else:
                tools.extend(find_tools(value, path, lineno))
        return Group(path, tools, problems if reported else [], bool(problems) and not reported, lines=batch,
                     first=first, index=index)

    with open(path, "rb") as handle:
        for index, (start, end, first_line) in enumerate(info.batches):
            if not selected(index):
                continue
            handle.seek(start)
            data = handle.read(end - start)
            if start == 0 and data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            yield group(dict(enumerate(data.decode("utf-8").splitlines(), first_line)), index == 0, index)


# ---------------------------------------------------------------------------- 1. gather


@dataclass
class Gathered:
    """What the gathering pass found: counts for the summary, the facts, and one tool per distinct
    set of profiles (with one that has a runtime contract, if any) for choosing the rules."""

    facts: CatalogFacts
    files: int = 0
    tools: int = 0
    tools_by_format: dict[str, int] = field(default_factory=dict)
    representatives: list[Tool] = field(default_factory=list)
    traffic: list[str] = field(default_factory=list)
    """Files that hold recorded traffic (named in the summary's note, as on the in-memory route)."""
    repeated: int = 0
    """Repeated tool declarations in those files, left out (checked once)."""


def _properties(tool: Tool) -> frozenset[str]:
    """A definition's property names (:class:`~schemalint.rules.facts.FactsBuilder`'s ``properties``)."""
    from schemalint.rules.description.mentions import tool_property_names

    return tool_property_names(tool)


Span = tuple[str, range | None]
"""``(path, batches)``: a file, or the batches of these numbers of a streamed JSON Lines file."""


@dataclass
class _Share:
    """The first gathering pass over some consecutive files (or batches of one file)."""

    builder: FactsBuilder
    formats: Counter[str] = field(default_factory=Counter)
    reps: dict[frozenset[str], Tool] = field(default_factory=dict)
    runtime: Tool | None = None
    count: int = 0
    traffic: list[str] = field(default_factory=list)
    repeated: int = 0

    def add(self, group: Group, tools: Sequence[Tool], ctx: Context, whole: bool = True) -> None:
        """Gather ``tools`` (those of ``group``, or a range of them); ``whole``: the file's traffic
        is counted here (once per file, by the share that holds the file's last tools)."""
        builder, formats, reps = self.builder, self.formats, self.reps
        for tool in tools:
            builder.add(tool)
            formats[tool.origin.format] += 1
            profiles = ctx.targets_for(tool)
            if profiles not in reps:
                reps[profiles] = tool
            if self.runtime is None and tool.runtime is not None:
                self.runtime = tool
        self.count += len(tools)
        if group.traffic and whole:
            self.traffic.append(group.path)
            self.repeated += group.repeats

    def merge(self, later: _Share) -> None:
        """Add ``later``, the share that follows this one in catalog order."""
        self.builder.merge(later.builder)
        self.formats.update(later.formats)
        for profiles, tool in later.reps.items():
            self.reps.setdefault(profiles, tool)
        if self.runtime is None:
            self.runtime = later.runtime
        self.count += later.count
        self.traffic.extend(later.traffic)
        self.repeated += later.repeated


def _gather_share(spans: Sequence[Span], named: set[str], ctx: Context, infos: dict[str, _LinesInfo]) -> _Share:
    from schemalint.rules.facts import FactsBuilder

    share = _Share(FactsBuilder(_properties))
    for path, batches in spans:
        for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos, batches=batches)):
            share.add(group, group.tools, ctx)
            del group  # not held while the next one is parsed
    return share


def _gather_definitions(spans: Sequence[Span], named: set[str], builder: FactsBuilder,
                        infos: dict[str, _LinesInfo]) -> None:
    for path, batches in spans:
        for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos, batches=batches)):
            builder.add_definitions(group.tools)
            del group


def gather(paths: Sequence[str], named: set[str], ctx: Context, infos: dict[str, _LinesInfo],
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
            share = _in_workers(ctx, _gather_work, (chunks, named, ctx, infos), len(chunks), jobs, _merge_shares)
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
                    share.traffic, share.repeated)


def summarise(paths: Sequence[str], named: set[str], infos: dict[str, _LinesInfo]) -> dict[str, Any]:
    """The shard summary of ``paths`` (:func:`schemalint.rules.facts.summary_of`), one file at a time."""
    from schemalint.rules.facts import summary_of

    def tools() -> Iterator[Tool]:
        for path in paths:
            for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos)):
                yield from group.tools
                del group

    return summary_of(tools(), _properties)


def file_size(path: str) -> int:
    """The size of the file ``path`` in bytes; ``0`` when it cannot be read (its SL000 comes later)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _share_out(paths: Sequence[str], parts: int, infos: dict[str, _LinesInfo]) -> list[list[Span]]:
    """``paths`` cut into about ``parts`` consecutive shares of about equal size in bytes (a
    streamed JSON Lines file by its batches: its first read is done here, kept in ``infos``), each a
    list of spans; none is empty."""
    pieces: list[tuple[str, int | None, int]] = []
    for path in paths:
        info = None
        if _streams_lines(path):
            info = infos.get(path)
            if info is None:
                info = infos[path] = _scan_lines(path)
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


def _merge_shares(shares: list[_Share]) -> _Share:
    first = shares[0]
    for later in shares[1:]:
        first.merge(later)
    return first


_GATHER = "engine.stream.gather"
"""Key of the gathering pool's work in the run's memo (inherited by the forked workers)."""


def _in_workers(ctx: Context, work: Any, state: tuple[Any, ...], count: int, jobs: int, combine: Any) -> Any:
    """``combine([work(0), ..., work(count - 1)])``, each call in one of ``jobs`` forked workers that
    find ``state`` in the memo of the run (``ctx.run``, the current one); ``None`` when a pool cannot
    be used."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    memo = ctx.run.memo
    memo[_GATHER] = state
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, count)) as pool:
            return combine(pool.map(work, range(count), chunksize=1))
    except (OSError, RuntimeError, multiprocessing.ProcessError):
        return None
    finally:
        memo.pop(_GATHER, None)


def _gather_work(index: int) -> _Share:
    from schemalint.model import running

    chunks, named, ctx, infos = RunContext.current.memo[_GATHER]
    with running(ctx.run):
        return _gather_share(chunks[index], named, ctx, infos)


def _definitions_work(index: int) -> Any:
    chunks, named, builder, infos = RunContext.current.memo[_GATHER]
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


@dataclass
class Checked:
    """Located diagnostics with their fingerprints, in production order, and the counts the
    summary needs from the check pass."""

    found: list[tuple[Diagnostic, Fingerprint]] = field(default_factory=list)
    suppressed: int = 0
    skipped_files: set[str] = field(default_factory=set)
    """Files whose problems are not reported (the summary's note counts them)."""

    @classmethod
    def merged(cls, results: Iterable[tuple[Checked, dict[str, int]]], rule_filter: RuleFilter) -> Checked:
        """One ``Checked`` of the workers' ``(checked, suppression counts)`` pairs, in the order
        given; the counts are added to ``rule_filter.suppressed``."""
        out = cls()
        for checked, counts in results:
            out.found.extend(checked.found)
            out.suppressed += checked.suppressed
            out.skipped_files |= checked.skipped_files
            for label, n in counts.items():
                rule_filter.suppressed[label] = rule_filter.suppressed.get(label, 0) + n
        return out


Unit = tuple[str, int, int]
"""``(path, part, parts)``: a file, or one of the parts a worker checks of a streamed JSON Lines file."""


def check_groups(units: Sequence[Unit], named: set[str], active: Sequence[Rule], ctx: Context,
                 rule_filter: RuleFilter, cfg: Config, infos: dict[str, _LinesInfo]) -> Checked:
    """The check pass over ``units`` in this process (see the module docstring)."""
    out = Checked()
    wants_invisibles = any(r.code == "SL501" for r in active)
    wants_surrogates = any(r.code == "SL001" for r in active)
    per_file = [r for r in active if r.catalog_from_tools]
    for path, part, parts in units:
        skipped = False
        lines = False
        for group in _paused(iter_groups(path, os.path.normpath(path) in named, infos, part, parts)):
            skipped = skipped or group.unreported
            lines = group.document is None
            _check_group(group, active, ctx, rule_filter, cfg, wants_invisibles, out,
                         wants_surrogates=wants_surrogates)
            del group
        if skipped:
            out.skipped_files.add(path)
        if lines and per_file:
            _finish_lines_file(path, per_file, ctx, rule_filter, cfg, out)
    return out


def _finish_lines_file(path: str, rules: Sequence[Rule], ctx: Context, rule_filter: RuleFilter, cfg: Config,
                       out: Checked) -> None:
    """The catalog hooks that summarise a whole file (:attr:`Rule.catalog_from_tools`: SL001's
    type-dialect summary) for a JSON Lines file read in batches, once its last batch is checked;
    their findings are located and fingerprinted from the lines they point at, read again."""
    from schemalint.engine.findings import select_findings
    from schemalint.engine.run_loop import run_catalog_rule
    from schemalint.loaders.files.documents import parse_jsonl_line
    from schemalint.loaders.formats.json_tools import find_tools

    ctx.catalog = ()
    raw = [d for rule in rules for d in run_catalog_rule(rule, (), ctx)]
    _drop_tool_caches(ctx.run)
    if not raw:
        return
    diagnostics, suppressed = select_findings(raw, rule_filter)
    out.suppressed += suppressed
    wanted = {d.line for d in diagnostics if d.file == path and d.line}
    lines: dict[int, str] = {}
    lineno = 0
    with open(path, "rb") as handle:
        for data in handle:
            if lineno == 0 and data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            for line in data.decode("utf-8").splitlines():
                lineno += 1
                if lineno in wanted:
                    lines[lineno] = line
    origins: dict[tuple[str, str], set[str]] = {}
    for number, line in lines.items():
        value, problem = parse_jsonl_line(line, number)
        if problem is None:
            for t in find_tools(value, path, number):
                origins.setdefault((t.origin.file, t.name), set()).add(t.origin.pointer)
    located = _locate_lines(diagnostics, path, lines)
    out.found.extend((d, fingerprint(d, cfg.relative(d.file), origins)) for d in located)


def _check_group(group: Group, active: Sequence[Rule], ctx: Context, rule_filter: RuleFilter, cfg: Config,
                 wants_invisibles: bool, out: Checked, tools: range | None = None, last: bool = True,
                 wants_surrogates: bool = False) -> None:
    """Check ``group`` into ``out``: the per-tool rules on its tools (those of the range ``tools``
    only, when given: a document shared by several workers), then, when ``last`` (the group's last
    tools are checked here), its SL000 problems and the catalog rules on all its tools.
    ``wants_invisibles``/``wants_surrogates``: a rule asks which files are free of invisible
    characters / lone surrogates (:attr:`Context.invisible_free_files`, ``surrogate_free_files``)."""
    from schemalint.engine.findings import locate_diagnostics, problem_diagnostic, select_findings
    from schemalint.engine.run_loop import run_catalog_rule, run_tool_rules

    tools_all = group.tools
    ctx.catalog = tools_all
    if wants_invisibles:
        from schemalint.rules.poisoning.chars import may_hold_invisibles

        text = group.document.text if group.document is not None else "\n".join(group.lines.values())
        ctx.invisible_free_files = frozenset() if may_hold_invisibles(text) else frozenset({group.path})
    if wants_surrogates:
        from schemalint.loaders.files.documents import may_hold_lone_surrogates

        text = group.document.text if group.document is not None else "\n".join(group.lines.values())
        ctx.surrogate_free_files = frozenset() if may_hold_lone_surrogates(text) else frozenset({group.path})
    raw = [problem_diagnostic(group.path, p) for p in group.problems] if last else []
    mine = tools_all if tools is None else tools_all[tools.start:tools.stop]
    if mine:
        raw.extend(run_tool_rules(active, mine, ctx))
    if tools_all and last:
        for rule in active:
            # a batch of JSON Lines is not the whole file: its per-file summaries wait for the last batch
            if group.document is not None or not rule.catalog_from_tools:
                raw.extend(run_catalog_rule(rule, tools_all, ctx))
    if raw:
        diagnostics, suppressed = select_findings(raw, rule_filter)
        out.suppressed += suppressed
        if group.document is not None:
            diagnostics = locate_diagnostics(diagnostics, {group.path: group.document})
        else:
            diagnostics = _locate_lines(diagnostics, group.path, group.lines)
        origins: dict[tuple[str, str], set[str]] = {}
        for t in tools_all:
            origins.setdefault((t.origin.file, t.name), set()).add(t.origin.pointer)
        out.found.extend((d, fingerprint(d, cfg.relative(d.file), origins)) for d in diagnostics)
    ctx.catalog = ()
    _drop_tool_caches(ctx.run, keep_file_state=group.document is None)


def _locate_lines(diagnostics: list[Diagnostic], path: str, lines: dict[int, str]) -> list[Diagnostic]:
    """Line and column of the diagnostics of a batch of JSON Lines (as
    :func:`schemalint.engine.locate_diagnostics` locates those of a whole JSON Lines file)."""
    wanted = [i for i, d in enumerate(diagnostics) if d.column is None and d.file == path]
    if not wanted:
        return diagnostics
    from schemalint.engine.locate import locate

    out = list(diagnostics)
    by_line: dict[int, list[int]] = {}
    for i in wanted:
        by_line.setdefault(out[i].line or 1, []).append(i)
    for lineno, idxs in by_line.items():
        pos = locate(lines.get(lineno, ""), "json", [out[i].pointer for i in idxs], first_line=lineno)
        for i in idxs:
            line, col = pos.get(out[i].pointer, (lineno, 1))
            out[i] = replace(out[i], line=line, column=col)
    return out


def _drop_tool_caches(run: RunContext, keep_file_state: bool = False) -> None:
    """Drop the memo entries tied to the tools just checked (see :data:`_RUN_WIDE`); with
    ``keep_file_state`` (a batch of a JSON Lines file that goes on), also keep what the per-file
    summaries gather (:data:`_FILE_STATE`)."""
    memo = run.memo
    keep = _RUN_WIDE | _FILE_STATE if keep_file_state else _RUN_WIDE
    kept = {k: v for k, v in memo.items() if (k[0] if isinstance(k, tuple) else k) in keep}
    memo.clear()
    memo.update(kept)
    run.last_targets[0] = None


# ---------------------------------------------------------------------------- --jobs

def check_parallel(paths: Sequence[str], named: set[str], active: Sequence[Rule], ctx: Context,
                   rule_filter: RuleFilter, cfg: Config, infos: dict[str, _LinesInfo], jobs: int) -> Checked | None:
    """:func:`check_groups` in ``jobs`` forked workers, each checking contiguous shares of the files,
    a streamed JSON Lines file being shared batch by batch between all of them (unless SL001 summarises
    it as a whole: a file written in a type dialect); ``None`` when a pool cannot be used (then the
    caller checks serially). The suppression counts of the workers' rule filters are added to the parent's."""
    import multiprocessing

    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    dialect_files = ctx.facts.dialect_files if ctx.facts is not None else {}
    units: list[Unit] = []
    for path in paths:
        if _streams_lines(path) and path not in dialect_files:
            units.extend((path, k, jobs) for k in range(jobs))
        else:
            units.append((path, 0, 1))
    if len(units) < 2:
        return None
    parts = min(len(units), jobs * 4)
    size = -(-len(units) // parts)
    chunks = [(i, min(len(units), i + size)) for i in range(0, len(units), size)]
    ctx.run.memo[_STATE] = (units, named, active, ctx, rule_filter, cfg, infos, chunks)
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(chunks))) as pool:
            results = pool.map(_work, range(len(chunks)), chunksize=1)
    except (OSError, RuntimeError, multiprocessing.ProcessError):
        return None
    finally:
        ctx.run.memo.pop(_STATE, None)
    return Checked.merged(results, rule_filter)


def _work(index: int) -> tuple[Checked, dict[str, int]]:
    from schemalint.model import running

    units, named, active, ctx, rule_filter, cfg, infos, chunks = RunContext.current.memo[_STATE]
    start, end = chunks[index]
    before = dict(rule_filter.suppressed)
    with running(ctx.run):
        checked = check_groups(units[start:end], named, active, ctx, rule_filter, cfg, infos)
    counts = {k: v - before.get(k, 0) for k, v in rule_filter.suppressed.items() if v != before.get(k, 0)}
    return checked, counts


def sort_found(found: list[tuple[Diagnostic, Fingerprint]]) -> tuple[list[Diagnostic], list[Fingerprint]]:
    """The diagnostics sorted as the in-memory route sorts them (stable), with their fingerprints."""
    found.sort(key=lambda p: (p[0].file, p[0].line or 0, p[0].column or 0, p[0].code, p[0].pointer, p[0].message))
    return [d for d, _ in found], [fp for _, fp in found]


def walk_problem_pairs(diagnostics: Sequence[Diagnostic], cfg: Config) -> list[tuple[Diagnostic, Fingerprint]]:
    """Fingerprinted diagnostics that belong to no group (the directory walk's SL000 warnings)."""
    return [(d, fingerprint(d, cfg.relative(d.file), {})) for d in diagnostics]

