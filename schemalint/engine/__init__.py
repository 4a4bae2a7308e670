"""The check engine: one source's route through ``schemalint check``, top to bottom.

1. :func:`load` expands the sources, parses each file (:mod:`schemalint.loaders`) and finds its
   tools; a file that does not parse is an SL000 diagnostic.
2. :func:`check` builds the rule selection (:mod:`schemalint.engine.selection`), the run's state
   (:class:`~schemalint.model.RunContext`) and the rules' :class:`~schemalint.rules.base.Context`,
   and picks the rules that can report on the loaded tools.
3. :func:`run_rules` runs them: :func:`run_tool_rules` tool by tool, then
   :func:`run_catalog_rule` per catalog rule; with ``--jobs`` the per-tool half runs in forked
   workers (:mod:`schemalint.engine.parallel`), or, for the CLI's check of files (``catalog=False``),
   forked workers load, check and locate their own share of the files (:mod:`schemalint.engine.held`).
   A rule that raises is an SL999 diagnostic.
4. :func:`select_findings` applies selection, suppressions and severity overrides.
5. :func:`locate_diagnostics` fills in line and column (:mod:`schemalint.engine.locate`); the
   diagnostics are sorted and fingerprinted (:func:`schemalint.model.fingerprint`).
6. :func:`apply_baseline_to` hides the findings of a baseline (:mod:`schemalint.engine.baseline`)
   and :func:`add_notes` writes the summary's remarks.

:mod:`schemalint.api` is the public facade over :func:`load` and :func:`check`.
"""

from __future__ import annotations

import gc
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemalint import progress
from schemalint.engine.findings import locate_diagnostics, problem_diagnostic, select_findings, walk_problem  # noqa: F401  (re-exported)
from schemalint.engine.pipeline import Checked, FilePipeline, sort_found
from schemalint.engine.run_loop import paused_collector, run_rules, run_tool_rules  # noqa: F401  (re-exported)
from schemalint.loaders.files.documents import (
    FREEZE_TOOLS,
    Document,
    read_document,
    read_limit,
    reportable_problems,
)
from schemalint.loaders.files.evidence import held_note, select_tools
from schemalint.loaders.files.sources import (
    SourceError,
    expand_sources,
    is_module_source,
    is_python_source,
    is_typescript_source,
)
from schemalint.loaders.formats.json_tools import find_tools, load_document_tools  # noqa: F401  (re-exported)
from schemalint.model import RUN, CheckResult, Diagnostic, RunContext, Tool, running
from schemalint.traffic.detect import distinct_declarations, holds_traffic

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.engine.baseline import Baseline
    from schemalint.engine.selection import RuleFilter
    from schemalint.rules.base import Rule
    from schemalint.rules.facts import CatalogFacts

__all__ = ["CheckResult", "LoadResult", "SourceError", "check", "load", "run_rules"]

# ---------------------------------------------------------------------------- 1. load



@dataclass
class LoadResult:
    """Tools found in the sources, the documents they came from, and SL000 diagnostics."""

    tools: list[Tool] = field(default_factory=list)
    documents: dict[str, Document] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    notes: list[str] = field(default_factory=list)
    """Remarks for the summary (files skipped because they do not parse and hold no tools)."""



def load(
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    python_path: Sequence[str] = (),
    mcp_stdio: Sequence[str] = (),
    scan: bool = False,
    mcp_url: Sequence[str] = (),
    mcp_headers: Mapping[str, str] | None = None,
    mcp_cwd: str | None = None,
) -> LoadResult:
    """Load every tool from ``sources`` (files, directories, globs, ``module:attr``).

    ``mcp_stdio``: MCP server commands (``"python server.py --flag"``) to start as
    subprocesses (in ``mcp_cwd``, default: the working directory); their ``tools/list`` answers
    are loaded too, and so are those of the MCP servers at the ``mcp_url`` URLs (Streamable
    HTTP, ``mcp_headers`` sent with each request). A file that does not parse is an
    SL000 diagnostic when it is named as a source, or when it looks like a tool file
    (:func:`schemalint.loaders.files.documents.reportable_problems`); ``scan``: treat named files as
    found by a directory walk (the pre-commit hook), so that only the second case applies. The
    count of files skipped this way is a note.
    Raises :class:`SourceError` for a missing path, a Python source that cannot be
    imported or an MCP server that cannot be listed; unreadable files become SL000
    diagnostics in the result instead. The cyclic garbage collector is paused while files
    are parsed, and from :data:`FREEZE_TOOLS` tools on the loaded objects are frozen
    (``gc.freeze()``; reference counting still frees them).
    """
    result = LoadResult()
    skipped = 0
    file_sources = [s for s in sources if not is_module_source(s)]
    python_sources = [s for s in sources if is_python_source(s)]
    ts_sources = [s for s in sources if is_typescript_source(s)]
    pending = None
    pending_ts = None
    if python_sources:
        # Imported in a worker process (schemalint.bridge), started first so that the import runs
        # while the files are parsed here: what the module prints, hangs on or exits with cannot
        # reach this process's output; its validators are answered over a pipe.
        from schemalint.bridge.client import PendingSources

        pending = PendingSources(python_sources, python_path, None, None)
    if ts_sources:
        # The same for TypeScript/JavaScript modules, in a Node worker (docs/typescript.md).
        from schemalint.loaders.typescript.source import PendingTypeScript

        try:
            pending_ts = PendingTypeScript(ts_sources, exclude=exclude)
        except BaseException:
            if pending is not None:
                pending.worker.close()
            raise
    # Parsed JSON holds no reference cycles, but every dict it allocates counts towards the
    # cyclic collector's thresholds, whose full passes rescan everything loaded so far: on
    # 10k tools that was 3 of 4 seconds of loading. Pause it while parsing.
    gc_enabled = gc.isenabled()
    try:
        named = set() if scan else {
            os.path.normpath(s) for s in file_sources if os.path.lexists(s) and not os.path.isdir(s)
        }
        walk_problems: list[tuple[str, str]] = []
        paths = expand_sources(file_sources, exclude, walk_problems)
        result.diagnostics.extend(walk_problem(where, message) for where, message in walk_problems)
    except BaseException:
        if pending is not None:
            pending.worker.close()
        if pending_ts is not None:
            pending_ts.close()
        raise
    gc.disable()
    traffic: list[str] = []
    held: list[tuple[str, int, str]] = []
    repeated = 0
    if len(paths) > 1:
        progress.phase("reading files", len(paths))
    try:
        for path in paths:
            progress.advance()
            result.files += 1
            doc = read_document(path)
            result.documents[path] = doc
            problems = reportable_problems(doc, os.path.normpath(path) in named)
            skipped += bool(doc.problems) and not problems
            result.diagnostics.extend(problem_diagnostic(path, p) for p in problems)
            tools = load_document_tools(doc)
            is_traffic = bool(doc.values) and holds_traffic(doc.text, doc.values, path)
            tools, held_file = select_tools(path, os.path.normpath(path) in named, doc.values, tools, is_traffic)
            if held_file is not None:
                held.append(held_file)
            if is_traffic:
                traffic.append(path)
                tools, repeats = distinct_declarations(tools)
                repeated += repeats
            result.tools.extend(tools)
    finally:
        if gc_enabled:
            gc.enable()
    if len(result.tools) >= FREEZE_TOOLS:
        # Keep later full collections (rules, diff) from rescanning the loaded catalog; the
        # objects are still freed by reference counting when dropped.
        gc.freeze()
    if traffic:
        result.notes.append(traffic_note(traffic, repeated))
    if held:
        result.notes.append(held_note(held))
    if skipped:
        result.notes.append(f"{skipped} file(s) that do not parse and do not look like tool files were skipped "
                            "(name a file as a source to see why it does not parse)")
    if pending is not None:
        progress.phase(f"importing and probing {len(python_sources)} Python source(s)")
        python_tools, python_problems = pending.finish()
        result.files += len(python_sources)
        result.tools.extend(python_tools)
        result.diagnostics.extend(python_problems)
    if pending_ts is not None:
        progress.phase(f"importing and probing {len(pending_ts.sources)} TypeScript source(s) with Node")
        ts_tools, ts_problems = pending_ts.finish()
        result.files += len(pending_ts.sources)
        result.tools.extend(ts_tools)
        result.diagnostics.extend(ts_problems)
        result.notes.extend(pending_ts.notes)
    for command in mcp_stdio:
        from schemalint.loaders.python.mcp_server import load_stdio

        result.files += 1
        progress.phase(f"listing the tools of {command}")
        result.tools.extend(load_stdio(command, cwd=mcp_cwd))
    for url in mcp_url:
        from schemalint.loaders.python.mcp_http import load_url

        result.files += 1
        progress.phase("listing the tools of an MCP server over HTTP")
        result.tools.extend(load_url(url, headers=mcp_headers, problems=result.diagnostics))
    return result


def traffic_note(paths: Sequence[str], repeated: int = 0) -> str:
    """The summary's remark naming the files that hold recorded traffic (docs/traffic.md): their
    calls and results are not tool definitions (only the tools they declare were checked, each
    definition once: ``repeated`` declarations of a definition already read were left out)."""
    shown = ", ".join(paths[:5]) + (f" and {len(paths) - 5} more" if len(paths) > 5 else "")
    once = (f"; a tool declared again with the same definition in later requests was checked once "
            f"({repeated} repeated declaration(s) left out)") if repeated else ""
    return (f"{len(paths)} file(s) hold recorded tool traffic, whose calls and results are not tool definitions "
            f"(only the tools they declare were checked{once}; `schemalint replay` reads the traffic): {shown}")


# ---------------------------------------------------------------------------- 2. check: the route

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
    ignore: Sequence[str] = (),
    extend_select: Sequence[str] = (),
    config: Config | None = None,
    baseline: Baseline | str | os.PathLike[str] | None = None,
    rules: Sequence[Rule] | None = None,
    jobs: int | None = None,
    scan: bool = False,
    mcp_url: Sequence[str] = (),
    mcp_headers: Mapping[str, str] | None = None,
    mcp_cwd: str | None = None,
    stream: bool | None = None,
    facts: CatalogFacts | None = None,
    catalog: bool = True,
) -> CheckResult:
    """Lint ``sources``: load, run the selected rules, filter, locate and sort the diagnostics.

    ``targets``: provider profiles (``openai-strict``, ``gemini`` ...) added to those
    inferred from each tool's format; a value starting with ``=`` replaces them
    (:func:`schemalint.targets.parse_targets`). ``mcp_stdio``: MCP server commands to start
    and list over stdio (in ``mcp_cwd``); ``mcp_url``: MCP servers to list over Streamable HTTP,
    with ``mcp_headers`` (see :func:`load`). ``previous``: sources of an earlier revision
    (files, directories, snapshot dirs); their tools fill :attr:`Context.previous` by name
    (the first definition of a name wins). ``select``: rule codes/names/prefixes to run
    (``None``: the configured selection, else all); it replaces the configured ``select``
    and ``extend-select``, while ``ignore`` and ``extend_select`` add to the configured ones.
    ``config``: a :class:`~schemalint.config.Config` (severity overrides, rule options,
    per-file/per-tool ignores, root for relative paths); default: no configuration,
    root = working directory. ``baseline``: a :class:`~schemalint.engine.baseline.Baseline` or the
    path of a baseline file whose findings are hidden (stale entries are reported in
    ``CheckResult.stale``). ``rules``: the rule instances to choose from (default: the
    registry, :func:`schemalint.rules.registry.all_rules`, importing only the rules that can report
    something on the loaded tools, :func:`~schemalint.rules.registry.rules_for_run`). ``jobs``:
    processes for the per-tool rules (:mod:`schemalint.engine.parallel`; ``None``: :func:`default_jobs`, 1
    for small catalogs, one per usable CPU above 2,000 files, 2,000 tools or 50 MB); the result is the same
    for any value.
    ``scan``: see :func:`load` (files named are judged as if found by a directory walk).
    ``stream``: check file by file, holding no parsed document beyond the one being checked
    (:mod:`schemalint.engine.stream`; the result is the same, without ``catalog``); ``None``: for
    large catalogs of files (:func:`~schemalint.engine.stream.should_stream`), ``False``: never,
    ``True``: whenever the sources are all files. ``facts``: the catalog-wide facts of a whole
    registry scan this check is one shard of (:func:`schemalint.rules.facts.merge_summaries` of the
    shards' :func:`summarise`), used instead of those of ``sources`` alone, so that the shards'
    diagnostics together are those of one run; the sources must be files (the streaming route).
    ``catalog``: ``False`` when the caller does not read ``CheckResult.catalog`` (the CLI): a check
    of files in more than one job then lets its workers load the files they check
    (:mod:`schemalint.engine.held`; the same diagnostics, without ``catalog``).
    Raises :class:`SourceError` (missing path, failed import),
    :class:`~schemalint.config.ConfigError` (a selector naming no rule) and
    :class:`~schemalint.engine.baseline.BaselineError` (unreadable baseline file) and
    :class:`schemalint.targets.TargetError` (an unknown target).
    """
    from schemalint.config import Config
    from schemalint.engine.selection import build_filter
    from schemalint.rules.base import Context
    from schemalint.rules.registry import AllRules, rules_for_run
    from schemalint.targets import parse_targets

    started = time.perf_counter()
    cfg = config if config is not None else Config()
    rules = tuple(rules) if rules is not None else None  # None: the catalog, imported rule by rule
    rule_filter = build_filter(cfg, select=select, extend_select=extend_select, ignore=ignore, rules=rules)
    if isinstance(baseline, (str, os.PathLike)):
        from schemalint.engine.baseline import Baseline

        baseline = Baseline.read(baseline)
    spec = parse_targets(targets)
    if stream is not False and not mcp_stdio and not mcp_url and not any(is_module_source(s) for s in sources):
        walk_problems: list[tuple[str, str]] = []
        paths = expand_sources(sources, exclude, walk_problems)
        if stream or facts is not None or _may_stream(paths) or (not catalog and _held(paths, jobs)):
            return _check_streaming(sources, paths, [walk_problem(w, m) for w, m in walk_problems], cfg=cfg,
                                    rule_filter=rule_filter, baseline=baseline, spec=spec, dialect=dialect,
                                    previous=previous, exclude=exclude, python_path=python_path, rules=rules,
                                    jobs=jobs, scan=scan, started=started, facts=facts,
                                    held=not stream and facts is None and not catalog)
    if facts is not None:
        raise SourceError("a shard checked with the facts of a registry scan must be files: no Python module, "
                          "MCP server or stream=False")
    loaded = load(sources, exclude=exclude, python_path=python_path, mcp_stdio=mcp_stdio, scan=scan,
                  mcp_url=mcp_url, mcp_headers=mcp_headers, mcp_cwd=mcp_cwd)
    prev, prev_problems = _previous_tools(previous, exclude, python_path)
    run = RunContext()
    ctx = Context(targets=spec.targets, replace_targets=spec.replace, dialect=dialect, catalog=loaded.tools,
                  previous=prev, options=cfg.options, run=run)
    # the collector is paused from the rules to the memo's end (run_loop.paused_collector)
    with paused_collector():
        with running(run):
            active = (rules_for_run(rule_filter.enabled, loaded.tools, ctx) if rules is None
                      else [r for r in rules if rule_filter.rule_enabled(r.code)])
            # the in-memory route drives the per-file pipeline with one group: every loaded file
            pipeline = FilePipeline(active, ctx, rule_filter, cfg)
            raw = [*loaded.diagnostics, *prev_problems, *pipeline.check_loaded(
                loaded.tools, loaded.documents, _in_memory_jobs(loaded, jobs))]
        if any(is_module_source(s) for s in sources):
            from schemalint.bridge.client import stop_workers

            stop_workers(loaded.tools)  # idle from here; a later validate call restarts one
        settled = Checked()
        pipeline.settle(raw, loaded.tools, settled, documents=loaded.documents, sites=True)
        # The memo is freed here by reference counting, before the collector is enabled again: left to
        # the run's end, the objects referring to each other with the run were one heap of cycles
        # (180,000 objects on a catalog of 19,243 tools) that a full collection traced (0.4-0.5 s)
        # while the report was written, and resuming the collector with them alive traced them too.
        run.drop(RUN)
    diagnostics, fingerprints = sort_found(settled.found)
    suppressed = settled.suppressed

    result = CheckResult(
        diagnostics=diagnostics,
        files=loaded.files,
        tools=len(loaded.tools),
        elapsed=0.0,
        tools_by_format=dict(Counter(t.origin.format for t in loaded.tools)),
        fingerprints=fingerprints,
        rules=rules if rules is not None else AllRules(),
        suppressed=suppressed,
        unused_suppressions=[f"{s.label} ({', '.join(s.rules)}: {s.reason})"
                             for s in rule_filter.unused_suppressions()],
        catalog=loaded.tools,
        notes=list(loaded.notes),
    )
    if baseline is not None:
        apply_baseline_to(result, baseline, _baseline_scope(cfg, loaded))
    add_notes(result)
    add_nothing_found(result, sources, exclude, mcp_stdio, mcp_url)
    result.elapsed = time.perf_counter() - started
    return result


def summarise(sources: Sequence[str], *, exclude: Sequence[str] = (), scan: bool = False) -> dict[str, Any]:
    """The catalog summary of one shard of a registry scan (the files of ``sources``; ``exclude``
    and ``scan`` as for :func:`check`): what the catalog-wide rules need to know of its tools
    (:func:`schemalint.rules.facts.summary_of`), JSON-able. ``check(shard, facts=merge_summaries(all
    shards' summaries, in order))`` then gives each shard the diagnostics one run over every shard
    would give it. Raises :class:`SourceError` for a missing path or a source that is not files."""
    from schemalint.engine import stream as streaming

    if any(is_module_source(s) for s in sources):
        raise SourceError("a shard summary reads files only, not Python modules")
    paths = expand_sources(sources, exclude, [])
    named = set() if scan else {
        os.path.normpath(s) for s in sources if os.path.lexists(s) and not os.path.isdir(s)
    }
    return streaming.summarise(paths, named, {})


def _may_stream(paths: Sequence[str]) -> bool:
    """:func:`schemalint.engine.stream.should_stream`, without importing that module for a run on
    a few small files (start-up)."""
    if len(paths) <= 64:
        small = min(1_000_000, read_limit() + 1)  # above the read limit a JSON document is streamed
        try:
            if all(os.stat(p).st_size < small for p in paths):
                return False
        except OSError:
            pass
    from schemalint.engine.stream import should_stream

    return should_stream(paths)


def _held(paths: Sequence[str], jobs: int | None) -> bool:
    """Whether a check of the files ``paths`` that needs no ``CheckResult.catalog`` lets its workers
    load them (:mod:`schemalint.engine.held`): more than one job, no file too large to be parsed
    by several workers."""
    if _held_jobs(paths, jobs) <= 1:
        return False
    from schemalint.engine.held import suits

    return suits([_file_size(p) for p in paths])


def _file_size(path: str) -> int:
    """The size of the file ``path`` in bytes, ``0`` when it cannot be read (without importing the
    streaming module: start-up)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _held_jobs(paths: Sequence[str], jobs: int | None) -> int:
    """The jobs of a check of the files ``paths`` whose workers would load them
    (:mod:`schemalint.engine.held`): ``jobs``, or :func:`default_jobs` by the files' number and size."""
    if jobs is not None:
        return jobs
    return default_jobs(len(paths), sum(_file_size(p) for p in paths))


def _previous_tools(previous: Sequence[str], exclude: Sequence[str],
                    python_path: Sequence[str]) -> tuple[dict[str, Tool], list[Diagnostic]]:
    """``--previous``: the tools of the earlier revision by name (the first of a name wins), and the
    ``SL000`` diagnostics of what could not be read there (a FIFO, a device, a huge or broken file),
    reported like a source's instead of silently leaving the comparison out."""
    prev: dict[str, Tool] = {}
    if not previous:
        return prev, []
    loaded = load(previous, exclude=exclude, python_path=python_path)
    for t in loaded.tools:
        prev.setdefault(t.name, t)
    from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource

    return prev, [d for d in loaded.diagnostics if d.code == UnreadableSource.code]


def _check_streaming(sources: Sequence[str], paths: list[str], walk_diagnostics: list[Diagnostic], *, cfg: Config,
                     rule_filter: RuleFilter, baseline: Baseline | None, spec: Any, dialect: str | None,
                     previous: Sequence[str], exclude: Sequence[str], python_path: Sequence[str],
                     rules: Sequence[Rule] | None, jobs: int | None, scan: bool, started: float,
                     facts: CatalogFacts | None = None, held: bool = False) -> CheckResult:
    """:func:`check` by the streaming route (:mod:`schemalint.engine.stream`), same result; ``held``:
    when the catalog is below the streaming thresholds, by workers that load and hold their share of
    the files (:mod:`schemalint.engine.held`)."""
    from schemalint.engine import stream as streaming
    from schemalint.rules.base import Context
    from schemalint.rules.registry import AllRules, rules_for_run

    named = set() if scan else {
        os.path.normpath(s) for s in sources if os.path.lexists(s) and not os.path.isdir(s)
    }
    prev, prev_problems = _previous_tools(previous, exclude, python_path)
    walk_diagnostics = walk_diagnostics + prev_problems
    run = RunContext()
    ctx = Context(targets=spec.targets, replace_targets=spec.replace, dialect=dialect, catalog=(),
                  previous=prev, options=cfg.options, run=run)
    infos: dict[str, Any] = {}

    def choose(found: streaming.Gathered) -> list[Rule]:
        ctx.facts = found.facts if facts is None else facts
        chosen = (rules_for_run(rule_filter.enabled, found.representatives, ctx) if rules is None
                  else [r for r in rules if rule_filter.rule_enabled(r.code)])
        found.representatives.clear()
        return [r for r in chosen if r.applies(ctx)]

    with running(run):
        outcome = None
        if held and not streaming.should_stream(paths):
            from schemalint.engine.held import check_held

            def choose_codes(found: streaming.Gathered) -> list[str]:
                # the workers import the rules' modules (in parallel) and ask Rule.applies
                from schemalint.rules.registry import entries_for_run

                ctx.facts = found.facts
                return [e.code for e in entries_for_run(rule_filter.enabled, found.representatives, ctx)]

            workers = _held_jobs(paths, jobs)  # once per run
            progress.phase(f"checking {len(paths):,} files in {workers} workers")
            outcome = check_held(paths, named, ctx, rule_filter, cfg, rules, workers,
                                 choose if rules is not None else choose_codes)
        if outcome is not None:
            gathered, checked = outcome
        else:
            progress.phase(f"reading {len(paths):,} files")
            gathered = streaming.gather(paths, named, ctx, infos, jobs if jobs is not None else default_jobs(
                len(paths), sum(streaming.file_size(p) for p in paths)))
            active = choose(gathered)
            if jobs is None:
                jobs = default_jobs(len(paths), 0, gathered.tools)
            progress.phase(f"checking {gathered.tools:,} tools in {len(paths):,} files")
            in_jobs = streaming.check_parallel(paths, named, active, ctx, rule_filter, cfg, infos, jobs) \
                if jobs > 1 else None
            checked = in_jobs if in_jobs is not None else streaming.check_groups(
                [(p, 0, 1) for p in paths], named, active, ctx, rule_filter, cfg, infos)
    run.drop(RUN)  # freed by reference counting, not left to a full collection (see check)
    walk_kept, walk_suppressed = select_findings(walk_diagnostics, rule_filter)
    found = streaming.walk_problem_pairs(walk_kept, cfg) + checked.found
    diagnostics, fingerprints = streaming.sort_found(found)
    notes = [traffic_note(gathered.traffic, gathered.repeated)] if gathered.traffic else []
    if gathered.held:
        notes.append(held_note(gathered.held))
    if checked.skipped_files:
        notes.append(f"{len(checked.skipped_files)} file(s) that do not parse and do not look like tool files were "
                     "skipped (name a file as a source to see why it does not parse)")
    result = CheckResult(
        diagnostics=diagnostics,
        files=gathered.files,
        tools=gathered.tools,
        elapsed=0.0,
        tools_by_format=gathered.tools_by_format,
        fingerprints=fingerprints,
        rules=rules if rules is not None else AllRules(),
        suppressed=checked.suppressed + walk_suppressed,
        unused_suppressions=[f"{s.label} ({', '.join(s.rules)}: {s.reason})"
                             for s in rule_filter.unused_suppressions()],
        catalog=(),
        notes=notes,
    )
    if baseline is not None:
        checked_files = {cfg.relative(p) for p in paths}

        def in_scope(file: str) -> bool:
            return file in checked_files or (":" not in file and not (cfg.root / file).exists())

        apply_baseline_to(result, baseline, in_scope)
    add_notes(result)
    add_nothing_found(result, sources, exclude)
    result.elapsed = time.perf_counter() - started
    return result


def _in_memory_jobs(loaded: LoadResult, jobs: int | None) -> int:
    """The processes of the in-memory route's run of the rules: ``jobs``, else :func:`default_jobs`
    by the loaded files, text and tools (the progress line names the tools checked)."""
    if jobs is None:
        jobs = default_jobs(loaded.files, sum(len(doc.text) for doc in loaded.documents.values()),
                            len(loaded.tools))
    progress.phase(f"checking {len(loaded.tools):,} tools")
    return jobs


# ---------------------------------------------------------------------------- 3. run the rules

PARALLEL_FILES = 2000
"""Above this many files, ``--jobs`` defaults to the usable CPUs (:func:`default_jobs`)."""
PARALLEL_BYTES = 50_000_000
"""Above this much source text, ``--jobs`` defaults to the usable CPUs, and a check whose workers
would load the files themselves (:mod:`schemalint.engine.held`) takes that route. Below it the
parent loads and, above :data:`PARALLEL_TOOLS` tools, forks workers that inherit the catalog: on
one 21 MB catalog of 19,243 tools that took 0.62x the wall time and 0.56x the CPU of held workers,
each of which parses the whole file (8 MB was tried: docs/performance.md, issue 33)."""
PARALLEL_TOOLS = 2000
"""Above this many tools (known once they are loaded: the in-memory route of
:func:`schemalint.api.check`), ``--jobs`` defaults to the usable CPUs."""


def available_cpus() -> int:
    """CPUs this process may run on: its affinity mask where known, and no more than its control
    group's CPU quota (``cpu.max`` of cgroup v2: a container given two CPUs of a large host)."""
    try:
        cpus = max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cpus = max(1, os.cpu_count() or 1)
    return min(cpus, _cgroup_cpus() or cpus)


def _cgroup_cpus() -> int | None:
    """The CPU quota of this process's cgroup v2 (``quota period`` in ``/sys/fs/cgroup/cpu.max``),
    rounded up to whole CPUs; ``None`` when there is none or it cannot be read."""
    try:
        with open("/sys/fs/cgroup/cpu.max", encoding="ascii") as f:
            quota, period = f.read().split()[:2]
        if quota == "max":
            return None
        return max(1, -(-int(quota) // int(period)))
    except (OSError, ValueError):
        return None


def default_jobs(files: int, text_bytes: int, tools: int = 0) -> int:
    """``--jobs`` when not given: 1 for small catalogs (at most :data:`PARALLEL_FILES` files,
    :data:`PARALLEL_BYTES` of source text and :data:`PARALLEL_TOOLS` tools), where a second
    worker cannot pay for itself; above, one per CPU this process may use (:func:`available_cpus`).
    A second worker costs 13-18% more CPU time (its set-up, the memo it cannot share) and saves
    wall time whenever a CPU is free: 0.64-0.68x on 2 idle cores (docs/performance.md, issue 33).
    The machine's load average is not read: it lags, and counts the run just before this one (a
    CI job's previous step), which made an idle 2-core machine check with one worker. The output
    is the same for any value."""
    if files > PARALLEL_FILES or text_bytes > PARALLEL_BYTES or tools > PARALLEL_TOOLS:
        return available_cpus()
    return 1


def _baseline_scope(cfg: Config, loaded: LoadResult) -> Callable[[str], bool]:
    """Which baseline entries a run can call stale: those of the files (and ``module:attr``
    sources) it checked, and those of files that no longer exist (deleted since)."""
    checked = {cfg.relative(path) for path in loaded.documents}
    checked.update(cfg.relative(t.origin.file) for t in loaded.tools)

    def in_scope(file: str) -> bool:
        return file in checked or (":" not in file and not (cfg.root / file).exists())

    return in_scope




def apply_baseline_to(result: CheckResult, baseline: Baseline, in_scope: Callable[[str], bool]) -> None:
    """Hide from ``result`` the findings recorded in ``baseline``; record the stale entries
    (:func:`schemalint.engine.baseline.apply_baseline`)."""
    from schemalint.engine.baseline import apply_baseline

    outcome = apply_baseline(baseline, result.fingerprints, in_scope)
    hidden = set(outcome.hidden)
    result.diagnostics = [d for i, d in enumerate(result.diagnostics) if i not in hidden]
    result.fingerprints = [fp for i, fp in enumerate(result.fingerprints) if i not in hidden]
    result.baseline_path = baseline.path or "<baseline>"
    result.baselined = len(hidden)
    result.stale = outcome.stale


def add_notes(result: CheckResult) -> None:
    """The summary's remarks on unused suppressions and on the baseline applied."""
    for label in result.unused_suppressions:
        result.notes.append(f"suppression {label} matched no finding; remove it from the configuration")
    if result.baseline_path is not None:
        result.notes.append(f"baseline {result.baseline_path}: {result.baselined} known finding(s) hidden")
        n_stale = sum(e.count for e in result.stale)
        if n_stale:
            result.notes.append(
                f"baseline {result.baseline_path}: {n_stale} recorded finding(s) no longer occur; "
                f"shrink it with `schemalint check --write-baseline {result.baseline_path}`")
            for e in result.stale[:20]:
                fp = e.fingerprint
                result.notes.append(f"  stale: {fp.code} {fp.file} tool={fp.tool} at {fp.path or '/'}"
                                    + (f" x{e.count}" if e.count > 1 else ""))
            if len(result.stale) > 20:
                result.notes.append(f"  ... and {len(result.stale) - 20} more stale entries")


def add_nothing_found(result: CheckResult, sources: Sequence[str], exclude: Sequence[str],
                      mcp_stdio: Sequence[str] = (), mcp_url: Sequence[str] = ()) -> None:
    """The summary's remark when a check found no tool definition and reported nothing: the
    sources and MCP servers (commands; URLs without their userinfo) it read, and for a directory
    holding TypeScript or JavaScript modules the source to try instead
    (:func:`schemalint.loaders.files.sources.modules_hint`, ``exclude`` applied)."""
    if result.tools or result.diagnostics:
        return
    from schemalint.loaders.files.sources import modules_hint

    servers = list(mcp_stdio)
    if mcp_url:
        from schemalint.loaders.python.mcp_http import shown_url

        servers.extend(shown_url(u) for u in mcp_url)
    result.notes.append("no tool definitions found in " + ", ".join([*sources, *servers]))
    for source in sources:
        hint = modules_hint(source, exclude) if os.path.isdir(source) else None
        if hint:
            result.notes.append(hint)
