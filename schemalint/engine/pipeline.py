"""The per-file pipeline every check route drives: read a file as groups of tools, screen its
text, run the rules on its tools, select, locate and fingerprint their findings.

A route (:func:`schemalint.engine.check` in memory, :mod:`schemalint.engine.held`,
:mod:`schemalint.engine.stream`) only decides where the files come from and where the results
go; what happens to one file is written here once:

- :func:`iter_groups` reads a file as one :class:`Group` (a whole document) or, for a large JSON
  Lines file, as groups of :data:`BATCH_LINES` lines (never splitting a line);
- :class:`Share` gathers what the catalog-wide parts of the rules need from a group's tools
  (:class:`~schemalint.rules.facts.FactsBuilder`), merged in catalog order (:func:`merge_shares`);
- :class:`FilePipeline` checks a group: the file screens the active rules declare
  (:attr:`~schemalint.rules.base.Rule.file_screen`, :func:`screen`), the per-tool rules, the
  catalog rules with ``Context.catalog`` set to the group's tools, then selection, location and
  fingerprints (:meth:`FilePipeline.settle`, which the in-memory route uses for its one group of
  every file) into a :class:`Checked`; the memo entries of the group's tools are dropped after it
  (:meth:`schemalint.model.RunContext.drop`: each entry declared its own lifetime where it was made).

Nothing here names a rule: a rule's declarations (``keywords``, ``file_screen``,
``catalog_from_tools`` with :meth:`~schemalint.rules.base.Rule.whole_files`) say what may be
skipped and what must stay together.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from schemalint.engine.declarations import file_screens, screen, whole_files  # noqa: F401  (the routes use them)
from schemalint.loaders.files.documents import (
    JSONL_SUFFIXES,
    Document,
    ParseProblem,
    looks_like_tool_file,
    read_document,
    reportable_problems,
)
from schemalint.model import FILE, TOOL, Diagnostic, Fingerprint, Tool, fingerprint

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.engine.selection import RuleFilter
    from schemalint.loaders.files.stream_json import Part, Scan
    from schemalint.rules.base import Context, Rule
    from schemalint.rules.facts import CatalogFacts, FactsBuilder

JSONL_STREAM_BYTES = 32 * 1024 * 1024
"""A JSON Lines file above this size is read line by line (and makes ``check`` stream); its size
is then not bounded by :data:`~schemalint.loaders.files.documents.MAX_FILE_BYTES`, only its lines."""
BATCH_LINES = 500
"""Lines of a streamed JSON Lines file checked together (one group): about 2 MB of text of the
benchmark's tools, 20 MB parsed."""


def _regular_file_above(path: str, suffixes: tuple[str, ...], limit: int) -> bool:
    """Whether ``path`` ends with one of ``suffixes`` and is a regular file of more than ``limit`` bytes."""
    if not path.lower().endswith(suffixes):
        return False
    import stat

    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size > limit


def streams_document(path: str) -> bool:
    """Whether ``path`` is a JSON document read part by part (a regular ``.json`` or ``.snap`` file
    above the in-memory read limit, :func:`~schemalint.loaders.files.documents.read_limit`:
    :mod:`~schemalint.loaders.files.stream_json`)."""
    from schemalint.loaders.files.documents import JSON_SUFFIXES, read_limit

    return _regular_file_above(path, JSON_SUFFIXES, read_limit())


def streams_lines(path: str) -> bool:
    """Whether ``path`` is a JSON Lines file read line by line (a regular file above
    :data:`JSONL_STREAM_BYTES`)."""
    return _regular_file_above(path, JSONL_SUFFIXES, JSONL_STREAM_BYTES)


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
    held: tuple[str, int, str] | None = None
    """``(path, count, folder)`` when the file's tool-shaped objects were held back for lack of
    evidence (:func:`schemalint.loaders.files.evidence.select_tools`); ``tools`` is then empty."""
    parts: dict[str, Part] | None = None
    """Of a streamed JSON document (:func:`streams_document`): the group's parts by JSON pointer,
    with their text (for locating); ``anchors``: where the pointers above the parts are."""
    anchors: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass
class LinesInfo:
    """What the first read of a streamed JSON Lines file found: a problem that makes the whole file
    unreadable (invalid UTF-8, not a regular file), whether it looks like a tool file, whether it is blank."""

    problem: ParseProblem | None
    looks: bool
    blank: bool
    batches: list[tuple[int, int, int]] = field(default_factory=list)
    """The file's groups of :data:`BATCH_LINES` lines (never splitting a line of the file), each as
    ``(start, end, first)``: byte offsets in the file and the number of its first line, so that a
    worker reads only its own batches."""
    document: Scan | None = None
    """Of a streamed JSON document (:func:`streams_document`) instead: its first read."""


def scan_streamed_document(path: str) -> LinesInfo:
    """The first read of the streamed JSON document ``path`` (:func:`streams_document`): its
    problem (unreadable, invalid, or a shape that cannot be streamed, worded with the read limit)."""
    from schemalint.loaders.files.documents import read_limit
    from schemalint.loaders.files.stream_json import scan_document
    from schemalint.loaders.formats.json_tools import streamed_root_problem

    scan = scan_document(path)
    if scan.problem is None and not scan.blank:
        reason = streamed_root_problem(scan.skeleton, path)
        if reason is not None:
            scan.problem = ParseProblem(f"cannot read file: above the {read_limit():,}-byte read limit, and it "
                                        f"cannot be streamed: {reason}; not read", 1, 1)
    by_name = looks_like_tool_file(path, "")
    return LinesInfo(scan.problem, scan.looks or by_name, scan.blank, document=scan)


def scan_lines(path: str) -> LinesInfo:
    """Read ``path`` once as bytes, line by line: validate its UTF-8 as a whole-file read would,
    judge it with :func:`looks_like_tool_file` (whose tests never span a line), and cut it into
    batches (:attr:`LinesInfo.batches`; a line is what ``str.splitlines`` gives, so one line of the
    file may hold several)."""
    from schemalint.loaders.files.documents import special_kind

    by_name = looks_like_tool_file(path, "")  # what a file that cannot be read or decoded is judged by
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        return LinesInfo(ParseProblem(f"cannot read file: {exc.strerror or exc}"), by_name, False)
    with os.fdopen(fd, "rb") as handle:
        kind = special_kind(os.fstat(fd).st_mode)
        if kind is not None:
            return LinesInfo(ParseProblem(f"cannot read file: {kind}, not a regular file: schemalint reads only "
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
                    return LinesInfo(ParseProblem(
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
                    return LinesInfo(ParseProblem(
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
            return LinesInfo(ParseProblem(f"cannot read file: {exc.strerror or exc}"), by_name, False)
    if in_batch or not batches:
        batches.append((batch_start, position, batch_first))
    return LinesInfo(None, looks, blank, batches)


def iter_groups(path: str, explicit: bool, infos: dict[str, LinesInfo], part: int = 0,
                parts: int = 1, batches: range | None = None) -> Iterator[Group]:
    """The groups of the file ``path`` (``explicit``: named as a source, see
    :func:`~schemalint.loaders.files.documents.reportable_problems`); ``infos`` caches the first
    read of each streamed JSON Lines file. ``part`` of ``parts``: of a streamed JSON Lines file,
    only every ``parts``-th batch from batch ``part`` on, so that workers can share one large file;
    ``batches``: only the batches of these numbers instead. The other batches are not read (the
    first read found where each batch starts). Other files have one part (batch ``0``)."""
    from schemalint.loaders.files.evidence import select_tools
    from schemalint.loaders.formats.json_tools import find_tools, load_document_tools

    def selected(index: int) -> bool:
        return index in batches if batches is not None else index % parts == part

    if streams_document(path):
        yield from _document_groups(path, explicit, infos, selected)
        return
    if not streams_lines(path):
        if selected(0):
            from schemalint.traffic.detect import distinct_declarations, holds_traffic

            doc = read_document(path)
            shown = reportable_problems(doc, explicit)
            tools = load_document_tools(doc)
            traffic = bool(doc.values) and holds_traffic(doc.text, doc.values, path)
            repeats = 0
            tools, held = select_tools(path, explicit, doc.values, tools, traffic)
            if traffic:
                tools, repeats = distinct_declarations(tools)
            yield Group(path, tools, shown, bool(doc.problems) and not shown, document=doc, traffic=traffic,
                        repeats=repeats, held=held)
        return
    info = infos.get(path)
    if info is None:
        info = infos[path] = scan_lines(path)
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
        values: list[tuple[int | None, Any]] = []
        for lineno, line in batch.items():
            if not line.strip():
                continue
            value, problem = parse_jsonl_line(line, lineno)
            if problem is not None:
                problems.append(problem)
            else:
                values.append((lineno, value))
                tools.extend(find_tools(value, path, lineno))
        tools, held = select_tools(path, explicit, values, tools)
        return Group(path, tools, problems if reported else [], bool(problems) and not reported,
                     lines=batch, first=first, index=index, held=held)

    with open(path, "rb") as handle:
        for index, (start, end, first_line) in enumerate(info.batches):
            if not selected(index):
                continue
            handle.seek(start)
            data = handle.read(end - start)
            if start == 0 and data.startswith(b"\xef\xbb\xbf"):
                data = data[3:]
            yield group(dict(enumerate(data.decode("utf-8").splitlines(), first_line)), index == 0, index)


def _document_groups(path: str, explicit: bool, infos: dict[str, LinesInfo],
                     selected: Callable[[int], bool]) -> Iterator[Group]:
    """The groups of a streamed JSON document: :data:`BATCH_LINES` array items each (the other
    top-level members join the group they come in), the parts read one by one
    (:func:`~schemalint.loaders.files.stream_json.iter_parts`)."""
    from schemalint.loaders.files.evidence import select_tools
    from schemalint.loaders.files.stream_json import Scan, iter_parts
    from schemalint.loaders.formats.json_tools import drop_response_echoes, part_tools

    info = infos.get(path)
    if info is None or info.document is None:
        info = infos[path] = scan_streamed_document(path)
    scan = info.document
    assert scan is not None
    if info.problem is not None or info.blank:
        if selected(0):
            whole = info.problem or ParseProblem("empty file: no tool definitions", 1, 1, severity="warning")
            report = explicit or info.looks
            yield Group(path, [], [whole] if report else [], not report, parts={})
        return
    index, items = 0, 0
    parts: dict[str, Part] = {}
    tools: list[Tool] = []
    again = Scan()
    # The evidence rule, judged on the document's top level (its members other than the large array).
    top = [(None, scan.skeleton)] if scan.skeleton is not None else []

    def group(found: list[Tool], first: bool, index: int, parts: dict[str, Part]) -> Group:
        kept, held = select_tools(path, explicit, top, drop_response_echoes(found))
        return Group(path, kept, first=first, index=index, parts=parts, anchors=scan.anchors, held=held)

    for item in iter_parts(path, again):
        if selected(index):
            parts[item.pointer] = item
            tools.extend(part_tools(scan.skeleton, item.key, item.index, item.value, path))
        if item.index is not None:
            items += 1
            if items == BATCH_LINES:
                if selected(index):
                    yield group(tools, index == 0, index, parts)
                index, items, parts, tools = index + 1, 0, {}, []
    if again.problem is not None:  # the file changed since its first read
        if selected(index):
            yield Group(path, [], [again.problem], first=index == 0, index=index, parts={}, anchors=scan.anchors)
        return
    if (parts or index == 0) and selected(index):
        yield group(tools, index == 0, index, parts)


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
    held: list[tuple[str, int, str]] = field(default_factory=list)
    """Data files whose tool-shaped objects were held back (:attr:`Group.held`), for the summary's note."""


def property_names(tool: Tool) -> frozenset[str]:
    """A definition's property names (:class:`~schemalint.rules.facts.FactsBuilder`'s ``properties``)."""
    from schemalint.rules.description.mentions import tool_property_names

    return tool_property_names(tool)


@dataclass
class Share:
    """The first gathering pass over some consecutive files (or batches of one file)."""

    builder: FactsBuilder
    formats: Counter[str] = field(default_factory=Counter)
    reps: dict[frozenset[str], Tool] = field(default_factory=dict)
    runtime: Tool | None = None
    count: int = 0
    traffic: list[str] = field(default_factory=list)
    repeated: int = 0
    held: list[tuple[str, int, str]] = field(default_factory=list)

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
        if group.held is not None and whole:
            self.held.append(group.held)

    def merge(self, later: Share) -> None:
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
        self.held.extend(later.held)


def file_size(path: str) -> int:
    """The size of the file ``path`` in bytes; ``0`` when it cannot be read (its SL000 comes later)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def merge_shares(shares: list[Share]) -> Share:
    first = shares[0]
    for later in shares[1:]:
        first.merge(later)
    return first


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


def _locate_groups(diagnostics: list[Diagnostic], path: str, group_of: Callable[[Diagnostic], Any],
                   positions: Callable[[Any, list[str]], list[tuple[int, int]]]) -> list[Diagnostic]:
    """``diagnostics`` with a line and column for each of ``path`` not yet located: grouped by
    ``group_of`` (the text a pointer is located in), each group's pointers placed by ``positions``
    (group, pointers -> their ``(line, column)``, in order)."""
    wanted = [i for i, d in enumerate(diagnostics) if d.column is None and d.file == path]
    if not wanted:
        return diagnostics
    out = list(diagnostics)
    groups: dict[Any, list[int]] = {}
    for i in wanted:
        groups.setdefault(group_of(out[i]), []).append(i)
    for group, idxs in groups.items():
        for i, (line, col) in zip(idxs, positions(group, [out[i].pointer for i in idxs]), strict=True):
            out[i] = replace(out[i], line=line, column=col)
    return out


def locate_lines(diagnostics: list[Diagnostic], path: str, lines: dict[int, str]) -> list[Diagnostic]:
    """Line and column of the diagnostics of a batch of JSON Lines (as
    :func:`schemalint.engine.locate_diagnostics` locates those of a whole JSON Lines file)."""
    from schemalint.engine.locate import locate

    def positions(lineno: int, pointers: list[str]) -> list[tuple[int, int]]:
        pos = locate(lines.get(lineno, ""), "json", pointers, first_line=lineno)
        return [pos.get(p, (lineno, 1)) for p in pointers]

    return _locate_groups(diagnostics, path, lambda d: d.line or 1, positions)


def locate_parts(diagnostics: list[Diagnostic], path: str, parts: Mapping[str, Part],
                 anchors: Mapping[str, tuple[int, int]]) -> list[Diagnostic]:
    """Line and column of the diagnostics of a group of a streamed JSON document, located in the
    text of the part their pointer is in (as :func:`schemalint.engine.locate_diagnostics` locates them
    in the whole text); a pointer above the parts lands on its longest prefix among ``anchors``."""
    from schemalint.engine.locate import locate

    def part_of(d: Diagnostic) -> str | None:
        tokens = d.pointer.split("/")
        if len(tokens) < 2:
            return None
        return next((b for b in ("/".join(tokens[:2]), "/".join(tokens[:3])) if b in parts), None)

    def anchored(pointer: str) -> tuple[int, int]:
        while pointer not in anchors and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        return anchors.get(pointer, (1, 1))

    def in_part(part: Part, line: int, col: int) -> tuple[int, int]:
        if (line, col) == (1, 1):
            return part.at
        if line == 1:
            return part.line, part.column + col - 1
        return line + part.line - 1, col

    def positions(base: str | None, pointers: list[str]) -> list[tuple[int, int]]:
        if base is None:
            return [anchored(p) for p in pointers]
        inner = [p[len(base):] for p in pointers]
        pos = locate(parts[base].text, "json", inner)
        return [in_part(parts[base], *pos.get(rest, (1, 1))) for rest in inner]

    return _locate_groups(diagnostics, path, part_of, positions)


def sort_found(found: list[tuple[Diagnostic, Fingerprint]]) -> tuple[list[Diagnostic], list[Fingerprint]]:
    """The diagnostics sorted by file, line, column, code, pointer and message (stable: findings
    that tie keep the order they were produced in), with their fingerprints: every route's order."""
    found.sort(key=lambda p: (p[0].file, p[0].line or 0, p[0].column or 0, p[0].code, p[0].pointer, p[0].message))
    return [d for d, _ in found], [fp for _, fp in found]


# ---------------------------------------------------------------------------- the pipeline

class FilePipeline:
    """The check of one group of tools (a file, or a batch of a JSON Lines file) by ``active`` rules
    in ``ctx`` (whose ``facts`` hold the catalog-wide facts when the catalog is checked group by
    group), selected by ``rule_filter``, fingerprinted relative to ``cfg``'s root. Every route's
    per-file work; the route drives it (:meth:`check`, :meth:`finish_lines_file`)."""

    def __init__(self, active: Sequence[Rule], ctx: Context, rule_filter: RuleFilter, cfg: Config) -> None:
        self.active = active
        self.ctx = ctx
        self.rule_filter = rule_filter
        self.cfg = cfg
        self.screens = file_screens(active)
        self.per_file = [r for r in active if r.catalog_from_tools]

    def check(self, group: Group, out: Checked, tools: range | None = None, last: bool = True) -> None:
        """Check ``group`` into ``out``: the per-tool rules on its tools (those of the range ``tools``
        only, when given: a document shared by several workers), then, when ``last`` (the group's
        last tools are checked here), its SL000 problems and the catalog rules on all its tools; the
        findings selected, located and fingerprinted; the group's memo entries dropped. The cyclic
        garbage collector is paused meanwhile, and enabled again after the group
        (:func:`~schemalint.engine.run_loop.paused_collector`), so that the cycles of a group are
        collected before the next."""
        from schemalint.engine.run_loop import paused_collector

        with paused_collector():
            self._check(group, out, tools, last)

    def _check(self, group: Group, out: Checked, tools: range | None, last: bool) -> None:
        from schemalint.engine.findings import problem_diagnostic
        from schemalint.engine.run_loop import run_catalog_rule, run_tool_rules

        ctx = self.ctx
        tools_all = group.tools
        ctx.catalog = tools_all
        if self.screens:
            text = group.document.text if group.document is not None else "\n".join(
                [p.text for p in group.parts.values()] if group.parts is not None else group.lines.values())
            ctx.cleared_files = screen(self.screens, {group.path: text})
        raw = [problem_diagnostic(group.path, p) for p in group.problems] if last else []
        mine = tools_all if tools is None else tools_all[tools.start:tools.stop]
        if mine:
            raw.extend(run_tool_rules(self.active, mine, ctx))
        if tools_all and last:
            for rule in self.active:
                # a batch of JSON Lines is not the whole file: its per-file summaries wait for the last batch
                if group.document is not None or not rule.catalog_from_tools:
                    raw.extend(run_catalog_rule(rule, tools_all, ctx))
        if raw:
            if group.document is not None:
                self.settle(raw, tools_all, out, documents={group.path: group.document})
            elif group.parts is not None:
                self.settle(raw, tools_all, out, parts=(group.path, group.parts, group.anchors))
            else:
                self.settle(raw, tools_all, out, lines=(group.path, group.lines))
        ctx.catalog = ()
        ctx.run.drop(TOOL if group.document is None else FILE)

    def check_loaded(self, tools: Sequence[Tool], documents: Mapping[str, Document], jobs: int) -> list[Diagnostic]:
        """The in-memory route's one group: every loaded file at once. The files' texts
        (``documents``, path -> :class:`~schemalint.loaders.files.documents.Document`) are screened
        together, the per-tool rules run on ``tools`` in ``jobs`` forked workers when more than one
        and a pool can be used (:func:`schemalint.engine.parallel.run_rules_parallel`, which locates
        what it can on the way), else serially, then the catalog rules on all of them
        (:func:`schemalint.engine.run_loop.run_rules`); returns the raw diagnostics in that order
        (the same for any ``jobs``), for :meth:`settle`."""
        from schemalint.engine.run_loop import run_rules

        ctx = self.ctx
        ctx.catalog = tools
        if self.screens:
            ctx.cleared_files = screen(self.screens, {p: doc.text for p, doc in documents.items()})
        if jobs > 1:
            from schemalint.engine.parallel import run_rules_parallel

            found = run_rules_parallel(self.active, tools, ctx, jobs, documents)
            if found is not None:
                return found
        return list(run_rules(self.active, tools, ctx))

    def settle(self, raw: list[Diagnostic], tools: Sequence[Tool], out: Checked, *,
               documents: Mapping[str, Document] | None = None,
               lines: tuple[str, dict[int, str]] | None = None, sites: bool = False,
               parts: tuple[str, Mapping[str, Part], Mapping[str, tuple[int, int]]] | None = None,
               ) -> list[Diagnostic]:
        """Select the ``raw`` diagnostics (``rule_filter``: selection, suppressions, severities),
        locate them in ``documents`` or in the ``lines`` ``(path, lines by number)`` of a JSON Lines
        batch (``sites``: also in the Python sources and servers ``tools`` came from,
        :func:`schemalint.engine.sites.locate_sources`), and fingerprint them (``tools``: the tools
        they may name) into ``out``; returns the located diagnostics."""
        from schemalint.engine.findings import locate_diagnostics, select_findings

        diagnostics, suppressed = select_findings(raw, self.rule_filter)
        out.suppressed += suppressed
        if documents is not None:
            diagnostics = locate_diagnostics(diagnostics, dict(documents))
        elif lines is not None:
            diagnostics = locate_lines(diagnostics, *lines)
        elif parts is not None:
            diagnostics = locate_parts(diagnostics, *parts)
        if sites:
            from schemalint.engine.sites import locate_sources

            diagnostics = locate_sources(diagnostics, tools, documents or {}, self.cfg)
        self.fingerprint(diagnostics, tools, out)
        return diagnostics

    def fingerprint(self, diagnostics: Sequence[Diagnostic], tools: Iterable[Tool], out: Checked) -> None:
        """Append ``diagnostics`` with their fingerprints to ``out.found`` (``tools``: those they may name)."""
        origins: dict[tuple[str, str], set[str]] = {}
        for t in tools:
            origins.setdefault((t.origin.file, t.name), set()).add(t.origin.pointer)
        relative = self.cfg.relative
        out.found.extend((d, fingerprint(d, relative(d.file), origins)) for d in diagnostics)

    def _file_summaries(self, out: Checked) -> list[Diagnostic] | None:
        """The selected findings of the per-file summaries (:attr:`per_file`'s catalog hooks) of the
        file just checked, its memo entries dropped and the suppressed counted in ``out``; ``None``
        when the hooks found nothing at all."""
        from schemalint.engine.findings import select_findings
        from schemalint.engine.run_loop import run_catalog_rule

        ctx = self.ctx
        ctx.catalog = ()
        raw = [d for rule in self.per_file for d in run_catalog_rule(rule, (), ctx)]
        ctx.run.drop(FILE)
        if not raw:
            return None
        diagnostics, suppressed = select_findings(raw, self.rule_filter)
        out.suppressed += suppressed
        return diagnostics

    def finish_document_file(self, path: str, out: Checked, info: LinesInfo) -> None:
        """:meth:`finish_lines_file` for a streamed JSON document (``info``: its first read): the
        findings of the per-file summaries are located in the parts they point into, read again."""
        from schemalint.loaders.files.stream_json import Scan, iter_parts
        from schemalint.loaders.formats.json_tools import part_tools

        if not self.per_file or info.document is None:
            self.ctx.run.drop(FILE)
            return
        diagnostics = self._file_summaries(out)
        if diagnostics is None:
            return
        wanted = {"/".join(d.pointer.split("/")[:n]) for d in diagnostics if d.file == path for n in (2, 3)}
        parts: dict[str, Part] = {}
        tools: list[Tool] = []
        for part in iter_parts(path, Scan()):
            if part.pointer in wanted:
                parts[part.pointer] = part
                tools.extend(part_tools(info.document.skeleton, part.key, part.index, part.value, path))
        self.fingerprint(locate_parts(diagnostics, path, parts, info.document.anchors), tools, out)

    def finish_lines_file(self, path: str, out: Checked) -> None:
        """The catalog hooks that summarise a whole file (:attr:`Rule.catalog_from_tools`) for a JSON
        Lines file read in batches, once its last batch is checked; their findings are located and
        fingerprinted from the lines they point at, read again."""
        from schemalint.loaders.files.documents import parse_jsonl_line
        from schemalint.loaders.formats.json_tools import find_tools

        if not self.per_file:
            return
        diagnostics = self._file_summaries(out)
        if diagnostics is None:
            return
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
        tools: list[Tool] = []
        for number, line in lines.items():
            value, problem = parse_jsonl_line(line, number)
            if problem is None:
                tools.extend(find_tools(value, path, number))
        self.fingerprint(locate_lines(diagnostics, path, lines), tools, out)
