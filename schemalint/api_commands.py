"""The Python API of the commands other than ``check``: ``probe``, ``diff`` and ``snapshot``.

The CLI parses options and calls these; they return result objects that the reporters of
:mod:`schemalint.report` render. Errors a user can fix are raised as
:class:`~schemalint.errors.SourceError` (a source cannot be read or imported) or
:class:`~schemalint.diff.errors.DiffError` (the sides of a diff, a snapshot directory); their
text is the one-line message the CLI prints after ``schemalint: error:``.

This module sits above :mod:`schemalint.api` (it loads tools with :func:`schemalint.api.load`),
so :mod:`schemalint.api` does not import it: import these names from here.
Heavy modules (the engine behind :func:`schemalint.api.load`, the prober, deepdiff, the git
loader) are imported inside the functions.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemalint.model import Diagnostic, Tool

if TYPE_CHECKING:
    from schemalint.commands.snapshot import Problem, WriteReport
    from schemalint.config import Config
    from schemalint.diff.result import Change, DiffResult
    from schemalint.probe import ProbeResult as PhaseResult
    from schemalint.probe import RunBudget


# --- probe -------------------------------------------------------------------------------------


@dataclass
class ProbeRow:
    """One tool of a probe run. ``omission`` is ``None`` when the tool has no callable validator
    (not probed); ``generated`` is ``None`` when no calls were generated (``max_examples=0`` or the
    omission probe hit its time limit)."""

    tool: str
    file: str
    omission: PhaseResult | None = None
    generated: PhaseResult | None = None
    generated_repeats_omission_findings: bool = False
    budget_stopped: bool = False
    """The run's probe budget stopped this tool's probes (:class:`schemalint.probe.RunBudget`)."""

    def to_json(self) -> dict[str, Any]:
        """The row of ``probe --format json``'s ``tools``."""
        if self.omission is None:
            return {"tool": self.tool, "file": self.file, "probed": False}
        return {
            "tool": self.tool, "file": self.file, "probed": True,
            "omission": _phase_json(self.omission),
            "generated": _phase_json(self.generated) if self.generated is not None else None,
            "generated_repeats_omission_findings": self.generated_repeats_omission_findings,
            "budget_stopped": self.budget_stopped,
        }


@dataclass
class ProbeResult:
    """Outcome of :func:`probe_tools`: one row per tool loaded, the diagnostics (the loaders'
    SL000, then SL107 per tool) and the seconds the probes took."""

    rows: list[ProbeRow] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    elapsed: float = 0.0
    budget: RunBudget | None = None
    """The run's probe budget and what it stopped (``None``: not probed through :func:`probe_tools`)."""

    @property
    def probed(self) -> int:
        """How many tools had a callable validator."""
        return sum(1 for r in self.rows if r.omission is not None)

    def to_json(self) -> dict[str, Any]:
        """The ``probe --format json`` document."""
        return {"version": 1, "tools": [r.to_json() for r in self.rows],
                "diagnostics": [d.to_json() for d in self.diagnostics],
                "summary": {"tools": len(self.rows), "probed": self.probed, "seconds": round(self.elapsed, 3),
                            **({"budget": {"seconds": self.budget.seconds, "tools_stopped": self.budget.cut,
                                           "calls_not_made": self.budget.not_made}} if self.budget else {})}}


def _phase_json(result: PhaseResult) -> dict[str, Any]:
    return {
        "calls": result.calls,
        "seconds": round(result.elapsed, 4),
        "timed_out": result.timed_out,
        "problems": list(result.problems),
        "refusals": [{
            "kind": r.kind,
            "instance_path": r.instance_path,
            "call": r.call,
            "status": r.outcome.status,
            "error_type": r.outcome.error_type,
            "message": r.message,
            "error_paths": r.error_paths,
        } for r in result.refusals],
    }


def probe_tools(sources: Sequence[str], *, python_path: Sequence[str] = (), time_limit: float = 2.0,
                max_examples: int = 50, mcp_stdio: Sequence[str] = (), mcp_url: Sequence[str] = (),
                mcp_headers: Mapping[str, str] | None = None, mcp_cwd: str | None = None,
                exclude: Sequence[str] = (), run_budget: float | None = None) -> ProbeResult:
    """Load ``sources`` and probe every tool whose runtime contract has a callable validator:
    the omission probes, then ``max_examples`` generated calls (fixed seed) unless the omission
    probes hit ``time_limit`` (seconds per tool and probe kind). Generated refusals whose errors
    the omission probes already found are dropped (the row says so). The tools of the MCP
    servers ``mcp_stdio``/``mcp_url`` (:func:`schemalint.api.load`) have no runtime contract: rows
    that are not probed. ``exclude``: fnmatch patterns of paths skipped in files, directories and
    globs, as in ``check``. ``run_budget``: seconds shared by the probes of all tools
    (:class:`schemalint.probe.RunBudget`, default :data:`~schemalint.probe.DEFAULT_RUN_BUDGET`): a tool
    gets what is left over the tools left, at most ``time_limit`` per probe kind; the tools it
    stopped are counted in :attr:`ProbeResult.budget`. Raises :class:`~schemalint.errors.SourceError` when a
    source cannot be loaded."""
    from schemalint.api import load
    from schemalint.probe import DEFAULT_RUN_BUDGET, RunBudget, generated_probe, omission_probe
    from schemalint.rules.contract.sl107_probe_refusal import ProbeRefusal

    loaded = load(sources, exclude=exclude, python_path=python_path, mcp_stdio=mcp_stdio, mcp_url=mcp_url,
                  mcp_headers=mcp_headers, mcp_cwd=mcp_cwd)
    rule = ProbeRefusal()
    started = time.perf_counter()
    probed = sum(1 for t in loaded.tools if t.runtime is not None and t.runtime.validate is not None)
    budget = RunBudget(DEFAULT_RUN_BUDGET if run_budget is None else run_budget, probed)
    result = ProbeResult(diagnostics=list(loaded.diagnostics), budget=budget)
    from schemalint import progress

    progress.phase("probing tools", len(loaded.tools))
    for tool in loaded.tools:
        progress.advance()
        validate = tool.runtime.validate if tool.runtime is not None else None
        row = ProbeRow(tool.name, tool.origin.file)
        result.rows.append(row)
        if validate is None:
            continue
        # the tool's share: half for the omission probes, what they leave for the generated calls
        share = budget.share(time_limit * (2 if max_examples else 1))
        start = time.monotonic()
        first = min(share / 2 if max_examples else share, time_limit)
        row.omission = omitted = omission_probe(tool.advertised, validate, time_limit=time_limit, budget=first)
        second = min(max(share - (time.monotonic() - start), 0.0), time_limit)
        if max_examples and not omitted.timed_out:
            row.generated = generated_probe(tool.advertised, validate, max_examples=max_examples,
                                            time_limit=time_limit, budget=second)
        row.budget_stopped = budget.spent(
            tool.name, time_limit, (omitted, first), (row.generated, second),
            skipped=max_examples if max_examples and omitted.timed_out and first < time_limit else 0)
        result.diagnostics.extend(rule.diagnostics(tool, omitted, time_limit))
        if row.generated is not None:
            known = {e for r in omitted.refusals for e in r.outcome.errors}
            new = [r for r in row.generated.refusals if not r.outcome.errors or not r.outcome.errors <= known]
            row.generated_repeats_omission_findings = len(new) < len(row.generated.refusals)
            row.generated.refusals[:] = new
            result.diagnostics.extend(rule.diagnostics(tool, row.generated, time_limit))
    result.elapsed = time.perf_counter() - started
    # Every diagnostic with its file and line, as check gives them: the pointer's line in a
    # tool file, the definition's line of a module or server source.
    from schemalint.engine import locate_diagnostics
    from schemalint.engine.sites import locate_sources

    located = locate_diagnostics(result.diagnostics, loaded.documents)
    result.diagnostics = locate_sources(located, loaded.tools, loaded.documents, None)
    return result


# --- diff --------------------------------------------------------------------------------------


def diff_tools(paths: Sequence[str], *, cfg: Config, base: str | None = None, mcp_stdio: Sequence[str] = (),
               exclude: Sequence[str] = (), python_path: Sequence[str] = (),
               select: Sequence[str] | None = None, extend_select: Sequence[str] = (),
               ignore: Sequence[str] = (), mcp_url: Sequence[str] = (),
               mcp_headers: Mapping[str, str] | None = None, mcp_cwd: str | None = None) -> DiffResult:
    """Choose the two sides of a diff and compare them (docs/diff.md).

    Without ``base``: ``paths`` is OLD and NEW (each a file, a directory of tool files or
    snapshots, or ``REV:PATH``). With ``base``: ``paths`` are the sources (default: ``sources``
    of ``cfg``), read at revision ``base`` and in the working tree. With ``mcp_stdio`` or ``mcp_url``:
    ``paths`` is OLD alone and NEW is what these MCP servers list (stdio commands run in ``mcp_cwd``;
    ``mcp_headers`` go with each HTTP request). ``exclude`` and the configuration's ``exclude``
    leave files out of every side read from files: OLD and NEW (paths and ``REV:PATH``) and both
    sides of ``base``. ``select``/``extend_select``/
    ``ignore`` and ``cfg`` choose the diff checks. Raises
    :class:`~schemalint.diff.errors.DiffError` for the wrong number of paths, no sources or a
    side that cannot be read, :class:`~schemalint.config.ConfigError` for a bad selection,
    :class:`~schemalint.errors.SourceError` when an MCP server fails."""
    from schemalint.commands.diff_compare import compare_tools
    from schemalint.commands.diff_selection import diff_filter
    from schemalint.commands.diff_sources import ParsedFiles, load_base, load_side, load_worktree
    from schemalint.config import resolve_sources
    from schemalint.diff.errors import DiffError

    selection = diff_filter(cfg, select=list(select) if select else None, extend_select=list(extend_select),
                            ignore=list(ignore))
    args = list(paths)
    notes: list[str] = []
    reuse = ParsedFiles()  # the second side parses only the files that differ from the first
    roots = cfg.import_roots(list(python_path))
    excl = [*cfg.exclude, *exclude]  # on every side that is read from files (docs/diff.md)
    if mcp_stdio or mcp_url:
        if base is not None or len(args) != 1:
            given = "--mcp-stdio" if mcp_stdio else "--mcp-url"
            raise DiffError(f"with {given} give only OLD (a file, directory or REV:PATH), not --base or NEW")
        old = load_side(args[0], exclude=excl, python_path=roots, reuse=reuse)
        from schemalint.api import load

        new = load([], mcp_stdio=mcp_stdio, mcp_url=mcp_url, mcp_headers=mcp_headers, mcp_cwd=mcp_cwd).tools
        labels = [*(f"mcp-stdio {c!r}" for c in mcp_stdio), *(f"mcp-url {_shown_url(u)!r}" for u in mcp_url)]
        old_label, new_label = args[0], " + ".join(labels)
    elif base is None:
        if len(args) != 2:
            raise DiffError("give OLD and NEW (files, directories or REV:PATH), or --base REV [SOURCES...]")
        old_label, new_label = args
        old = load_side(args[0], exclude=excl, python_path=roots, reuse=reuse)
        new = load_side(args[1], exclude=excl, python_path=roots, reuse=reuse)
    else:
        srcs = args or resolve_sources(cfg)
        if not srcs:
            raise DiffError(NO_SOURCES)
        from schemalint import progress

        progress.phase(f"reading the sources at {base}")
        old = load_base(base, srcs, exclude=excl, python_path=roots, notes=notes, reuse=reuse)
        progress.phase("reading the sources in the working tree")
        new = load_worktree(srcs, exclude=excl, python_path=roots, reuse=reuse)
        old_label, new_label = base, "working tree"
    del reuse  # the bytes of the first side's files
    from schemalint import progress

    progress.phase(f"comparing {len(old):,} and {len(new):,} tools")
    result = compare_tools(old, new, old_label=old_label, new_label=new_label, selection=selection)
    result.notes.extend(notes)
    if not old and not new:
        result.notes.append("no tool definitions found on either side")
    return result


NO_SOURCES = "no sources given and none configured in [tool.schemalint] `sources`"
"""The message of every command that finds no sources to read."""


# --- snapshot ----------------------------------------------------------------------------------


@dataclass
class SnapshotRun:
    """Outcome of :func:`snapshot`: the plan (one snapshot per tool) and either what was written
    (``report``) or, with ``check``, the problems found and the SD401 rug pulls among the stale
    snapshots (``pulls``: snapshot file name -> the SD401 change)."""

    directory: Path
    plan: dict[str, tuple[str, str]]
    """Snapshot file name -> (tool name, snapshot text) (:func:`schemalint.commands.snapshot.plan_snapshots`)."""
    report: WriteReport | None = None
    problems: list[Problem] = field(default_factory=list)
    pulls: dict[str, Change] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    """What the run left out and why (a source inside the snapshot directory, with ``check``)."""
    tools: list[Tool] = field(default_factory=list, repr=False, compare=False)
    """The tools snapshotted. Kept with the run, so that the ``schemalint`` program, which exits
    as soon as its output is flushed, does not free the parsed catalog object by object first
    (about a tenth of a second per 10,000 tools)."""


def snapshot_directory(cfg: Config, given: Path | None) -> Path:
    """``given``, else ``snapshot-dir`` of the configuration (relative to its root, returned relative
    to the working directory). Raises
    :class:`~schemalint.diff.errors.DiffError` when neither names one or the key is not a string."""
    from schemalint.diff.errors import DiffError

    if given is not None:
        return given
    configured = cfg.raw.get("snapshot-dir")
    if configured is not None and not isinstance(configured, str):
        raise DiffError(f"{cfg.path}: `snapshot-dir` must be a string, got {configured!r}")
    if not configured:
        raise DiffError("no snapshot directory: give --dir DIR or set `snapshot-dir` in [tool.schemalint]")
    # relative to the working directory, as every configured path is (Config.resolve_path), so the
    # messages name it as the user would (`../tool-snapshots/x.json` from a subdirectory)
    return Path(cfg.resolve_path(configured))


def snapshot(sources: Sequence[str], directory: Path, *, cfg: Config, check: bool = False,
             exclude: Sequence[str] = (), python_path: Sequence[str] = (), mcp_stdio: Sequence[str] = (),
             mcp_url: Sequence[str] = (), mcp_headers: Mapping[str, str] | None = None,
             mcp_cwd: str | None = None) -> SnapshotRun:
    """Write one snapshot per tool of ``sources`` into ``directory`` (or, with ``check``, write
    nothing and compare). Tools read from schemalint's own snapshots inside ``directory`` (a
    source such as ``.`` holding it) are left out. ``mcp_stdio``/``mcp_url``/``mcp_headers``/
    ``mcp_cwd``: MCP servers whose listed tools are snapshotted too (:func:`schemalint.api.load`).
    Raises :class:`~schemalint.diff.errors.DiffError` when ``directory`` is a file, holds a source
    or a tool file schemalint did not write, a tool cannot be snapshotted or an MCP server cannot
    be listed."""
    from schemalint.commands.diff_sources import load_worktree
    from schemalint.commands.snapshot import check_snapshots, plan_snapshots, write_snapshots
    from schemalint.diff.errors import DiffError

    if directory.exists() and not directory.is_dir():
        raise DiffError(f"{directory} exists and is not a directory; choose another --dir")
    notes: list[str] = []
    if check:  # writes nothing: a source inside the directory is its snapshots, not read twice
        sources, left_out = _sources_outside(sources, directory)
        notes += [f"{s}: left out: it is inside the snapshot directory {directory}, whose snapshots "
                  "are what is compared, not a source of tools" for s in left_out]
    else:
        _refuse_sources_inside(sources, directory)
        from schemalint.safe_write import leads_out_through_a_link

        out = leads_out_through_a_link(directory, cfg.project)
        if out is not None:
            raise DiffError(f"--dir {directory}: a symbolic link (or a path through one) leading out of the "
                            f"project {cfg.project} (to {out}); snapshot writes only inside the project's "
                            "directories")
    from schemalint import progress

    progress.phase("reading the sources")
    tools = load_worktree(list(sources), exclude=[*cfg.exclude, *exclude],
                          python_path=cfg.import_roots(list(python_path)))
    tools = _drop_own_snapshots(tools, directory)
    labels = list(sources)
    if mcp_stdio or mcp_url:
        tools.extend(_server_tools(mcp_stdio, mcp_url, mcp_headers, mcp_cwd))
        labels += [*(f"mcp-stdio {c!r}" for c in mcp_stdio), *(f"mcp-url {_shown_url(u)!r}" for u in mcp_url)]
    progress.phase(f"rendering {len(tools):,} snapshots")
    plan = plan_snapshots(tools, ", ".join(labels))
    progress.phase(f"{'comparing' if check else 'writing'} {len(plan):,} snapshots")
    if not check:
        return SnapshotRun(directory, plan, report=write_snapshots(plan, directory), notes=notes, tools=tools)
    problems = check_snapshots(plan, directory)
    stale = [(p.filename, p.tool) for p in problems if p.kind == "stale" and p.tool]
    pulls: dict[str, Change] = {}
    if stale:  # SD401 when selected (the diff checks are imported only then)
        from schemalint.commands.diff_selection import diff_filter
        from schemalint.diff.checks.sd401_rug_pull import stale_snapshot_pulls

        pulls = stale_snapshot_pulls(stale, directory, tools, diff_filter(cfg))
    return SnapshotRun(directory, plan, problems=problems, pulls=pulls, notes=notes, tools=tools)


def _server_tools(mcp_stdio: Sequence[str], mcp_url: Sequence[str], headers: Mapping[str, str] | None,
                  cwd: str | None) -> list[Tool]:
    """The tools the MCP servers list; :class:`~schemalint.diff.errors.DiffError` when one cannot be listed."""
    from schemalint.api import load
    from schemalint.diff.errors import DiffError
    from schemalint.errors import SourceError

    try:
        return load([], mcp_stdio=mcp_stdio, mcp_url=mcp_url, mcp_headers=headers, mcp_cwd=cwd).tools
    except SourceError as exc:
        raise DiffError(str(exc)) from None


def _shown_url(url: str) -> str:
    from schemalint.loaders.python.mcp_http import shown_url

    return shown_url(url)


def _sources_outside(sources: Sequence[str], directory: Path) -> tuple[list[str], list[str]]:
    """``sources`` split into those outside ``directory`` and the path sources that are
    ``directory`` or lie inside it (``module:attr`` sources and missing paths count as outside)."""
    from schemalint.loaders.files.sources import is_python_source
    from schemalint.safe_write import is_within, resolved

    target = resolved(directory)
    kept: list[str] = []
    inside: list[str] = []
    for source in sources:
        if is_python_source(source) or not os.path.lexists(source) or not is_within(resolved(source), target):
            kept.append(source)
        else:
            inside.append(source)
    return kept, inside


def _refuse_sources_inside(sources: Sequence[str], directory: Path) -> None:
    """:class:`DiffError` when a path source is ``directory`` or lies inside it (``snapshot tools
    --dir tools``): snapshots would overwrite or remove the source files. The suggested directory
    is never ``directory`` itself."""
    from schemalint.diff.errors import DiffError

    inside = _sources_outside(sources, directory)[1]
    if inside:
        other = "snapshots" if directory.name == "tool-snapshots" else "tool-snapshots"
        raise DiffError(f"--dir {directory} holds the source {inside[0]}; snapshots need a directory of "
                        f"their own (e.g. --dir {other}), or take {inside[0]} out of the sources")


def _drop_own_snapshots(tools: list[Tool], directory: Path) -> list[Tool]:
    """``tools`` without those read from schemalint's own snapshots in ``directory`` (a source
    such as ``.`` that holds the snapshot directory); :class:`DiffError` for a tool read from any
    other file inside ``directory``: it is not dropped, the directory is not the snapshots' own."""
    from schemalint.commands.snapshot import existing_snapshots, ownership
    from schemalint.diff.errors import DiffError
    from schemalint.safe_write import is_within, resolved

    target = resolved(directory)
    inside: dict[str, Path | None] = {}  # by file: resolving once per tool cost more than the rendering
    for file in sorted({t.origin.file for t in tools}):  # sorted: the error names the same file every run
        path = resolved(file)
        inside[file] = path if is_within(path, target) else None
    if not any(inside.values()):
        return tools
    own = ownership(directory, existing_snapshots(directory))
    for file, found in inside.items():
        if found is not None and not (found.parent == target and own.owns(found.name)):
            raise DiffError(f"{file}: a tool definition inside --dir {directory}, which is not a snapshot "
                            "schemalint wrote; snapshots need a directory of their own (move it out or "
                            "choose another --dir)")
    return [t for t in tools if inside[t.origin.file] is None]
