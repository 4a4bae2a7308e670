"""``schemalint snapshot`` as a request and its run: one snapshot file per tool written, or (``check``)
compared with what the tools show now, and what the command prints (docs/diff.md).

``schemalint snapshot`` parses its options into one :class:`SnapshotRequest` and hands it to
:func:`run_snapshot`, which resolves it against the configuration (``snapshot-dir``, ``sources``,
the configured MCP servers, ``exclude``, ``python-path``), snapshots or compares, and returns a
:class:`SnapshotRun`: the problems, the summary the command prints (:meth:`SnapshotRun.text`,
with the command to run when snapshots are stale), the notes and warnings, and whether it fails
(exit 1). An API caller building the same request gets the same run; :func:`snapshot` is the
work alone, with the directory and sources already chosen. The snapshot files themselves (plan,
write, compare) are :mod:`schemalint.commands.snapshot`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from schemalint.commands.reading import CommandRequest
from schemalint.model import Tool

if TYPE_CHECKING:
    from schemalint.commands.snapshot import Problem, WriteReport
    from schemalint.config import Config
    from schemalint.diff.result import Change


@dataclass(frozen=True)
class SnapshotRequest(CommandRequest):
    """Everything one snapshot run is asked to do, as the options give it (sequences as tuples).

    ``sources``: files, directories, globs, ``module:attr``, ``file.ts:EXPORT`` (none, and no
    server: the configuration's ``sources``, ``mcp-stdio`` and ``mcp-url``). ``directory``: the
    snapshot directory (``None``: ``snapshot-dir`` of the configuration). ``check``: write nothing,
    compare. ``exclude``, ``python_path``: added to the configuration's.
    ``mcp_stdio``/``mcp_url``/``mcp_headers``: MCP servers whose tools are snapshotted too.
    ``config``: the :class:`~schemalint.config.Config` (``None``: none).
    """

    sources: tuple[str, ...] = ()
    directory: Path | None = None
    check: bool = False
    exclude: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()


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
    warnings: list[str] = field(default_factory=list)
    """What the user should know about the files written (:func:`ignored_by_git`)."""
    rerun: str = ""
    """The command that brings stale snapshots up to date (:func:`run_snapshot`; shown with ``check``)."""

    @property
    def fails(self) -> bool:
        """A compared snapshot is stale, missing or orphaned (``snapshot --check`` exits 1)."""
        return self.report is None and bool(self.problems)

    def text(self) -> str:
        """What ``schemalint snapshot`` prints on standard output: with ``check``, each problem with
        its unified diff (and its SD401 rug pull), then the summary (and the command to run when
        something is stale); written, the counts and each kept snapshot."""
        directory = self.directory
        out: list[str] = []
        if self.report is None:
            for p in self.problems:
                if p.filename in self.pulls:
                    out.append(f"{directory / p.filename}: SD401 rug-pull: {self.pulls[p.filename].message}\n")
                what = {"missing": "missing", "stale": "stale", "orphaned": "orphaned (no such tool any more)"}[
                    p.kind]
                out.append(f"{directory / p.filename}: {what}\n{p.diff}")
                if not p.diff.endswith("\n"):
                    out.append("\n")
            if self.problems:
                out.append(f"\n{len(self.problems)} snapshot problem(s) in {directory} ({len(self.plan)} tools); run "
                           f"`{self.rerun}` and commit the result\n")
            else:
                out.append(f"{len(self.plan)} snapshot(s) up to date in {directory}\n")
            return "".join(out)
        report = self.report
        out.append(f"{directory}: {len(report.written)} written, {len(report.unchanged)} unchanged, "
                   f"{len(report.removed)} removed ({len(self.plan)} tools)\n")
        for filename in report.kept:
            out.append(f"{directory / filename}: kept: a snapshot of a tool that no longer exists, which "
                       "schemalint cannot prove it wrote (.schemalint-snapshots has no content hash for it, as "
                       "older versions wrote, or its bytes changed since); delete it if it is yours to delete\n")
        return "".join(out)


def run_snapshot(request: SnapshotRequest) -> SnapshotRun:
    """Run the snapshot ``request`` asks for: the directory and what to read resolved against the
    configuration, then :func:`snapshot`; the run's :attr:`~SnapshotRun.rerun` command names the
    sources and servers as the request gave them. Raises :class:`~schemalint.diff.errors.DiffError`
    (no snapshot directory, and as :func:`snapshot` does) and
    :class:`~schemalint.engine.request.RequestError` (nothing to read, headers without a URL)."""
    import shlex

    from schemalint.commands.reading import what_to_read

    cfg = request.cfg
    directory = snapshot_directory(cfg, request.directory)
    srcs, servers = what_to_read(request.sources, request.mcp_stdio, request.mcp_url, request.mcp_headers, cfg)
    run = snapshot(srcs, directory, cfg=cfg, check=request.check, exclude=request.exclude,
                   python_path=request.python_path, **servers.load_kwargs())
    given = " ".join([*(shlex.quote(s) for s in request.sources),
                      *(servers.options() if request.servers_named() else [])])
    run.rerun = f"schemalint snapshot {given + ' ' if given else ''}--dir {shlex.quote(str(directory))}"
    if run.report is not None:
        ignored = ignored_by_git([directory / f for f in sorted(run.plan)])
        if ignored is not None:
            run.warnings.append(ignored)
    return run


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
        from schemalint.loaders.python.mcp_http import shown_url

        tools.extend(_server_tools(mcp_stdio, mcp_url, mcp_headers, mcp_cwd))
        labels += [*(f"mcp-stdio {c!r}" for c in mcp_stdio), *(f"mcp-url {shown_url(u)!r}" for u in mcp_url)]
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
def ignored_by_git(paths: list[Path]) -> str | None:
    """When ``paths`` lie in a git work tree and git ignores some of them: how many and the
    pattern that ignores the first (``git check-ignore -v --stdin``, one call); else ``None``
    (no git, not a work tree, nothing ignored)."""
    import subprocess

    if not paths:
        return None
    cwd = paths[0].parent
    try:
        from schemalint.loaders.git.commands import git_env

        done = subprocess.run(["git", "check-ignore", "-v", "--stdin"], cwd=cwd, capture_output=True, text=True,
                              input="".join(f"{p.resolve()}\n" for p in paths), timeout=30, check=False,
                              env=git_env())
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:  # 1: nothing ignored; 128: not a work tree
        return None
    lines = [line for line in done.stdout.splitlines() if "\t" in line]
    if not lines:
        return None
    import re

    m = re.match(r"(.*):(\d+):(.*)\t", lines[0])  # "<source>:<line>:<pattern>\t<path>"
    rule = f"{m.group(1)}:{m.group(2)}: {m.group(3)}" if m else lines[0].partition("\t")[0]
    return (f"{len(lines)} of the {len(paths)} snapshot(s) in {paths[0].parent} are ignored by git ({rule}); "
            "`git add` skips them silently: change that rule or add them with `git add -f`")
