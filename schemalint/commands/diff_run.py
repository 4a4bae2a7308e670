"""``schemalint diff`` as a request and its run: what the command is asked, the two sides chosen and
compared, and whether the run fails (docs/diff.md).

``schemalint diff`` parses its options into one :class:`DiffRequest` and hands it to
:func:`run_diff`, which resolves it against the configuration (the configured MCP servers as NEW
when only OLD is named; ``exclude``, ``python-path``, the selection of diff checks), compares,
and decides: a :class:`DiffRun` says what the command prints and whether it exits 1. An API
caller building the same request gets the same run. :func:`diff_tools` is the comparison
alone, with the sides named by keyword.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from schemalint.commands.reading import CommandRequest

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.diff.result import DiffResult


@dataclass(frozen=True)
class DiffRequest(CommandRequest):
    """Everything one diff is asked to do, as the options give it (sequences as tuples).

    ``paths``: without ``base``, OLD and NEW (each a file, a directory of tool files or snapshots,
    a glob, ``REV:PATH``, ``module:attr``); with ``base``, the sources to compare (empty: the
    configuration's ``sources``); with MCP servers, OLD alone. ``base``: a git revision compared
    with the working tree. ``fail_on``: ``breaking``, ``meaning``, ``bytes`` or ``never``
    (:data:`schemalint.diff.result.FAIL_LEVELS`). ``select``/``extend_select``/``ignore``: diff
    check selectors. ``mcp_stdio``/``mcp_url``/``mcp_headers``: the NEW side's MCP servers (none,
    and only OLD named: the configuration's). ``exclude``, ``python_path``: added to the
    configuration's. ``targets``: provider profiles the tools are sent to (``--target``; empty: the
    configuration's ``target``). ``config``: the :class:`~schemalint.config.Config` (``None``: none).
    """

    paths: tuple[str, ...] = ()
    base: str | None = None
    fail_on: str = "breaking"
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()


@dataclass
class DiffRun:
    """What :func:`run_diff` found: the classified ``result``, or (``None``) nothing to compare and
    the ``message`` that says why; ``fails``: a change at or above ``fail_on`` (exit 1)."""

    result: DiffResult | None
    fails: bool = False
    message: str | None = None


def run_diff(request: DiffRequest) -> DiffRun:
    """Run the diff ``request`` asks for. Raises :class:`~schemalint.engine.request.RequestError`
    (an unknown ``fail_on``, headers without a URL), :class:`~schemalint.diff.errors.DiffError`,
    :class:`~schemalint.config.ConfigError` and :class:`~schemalint.errors.SourceError` as
    :func:`diff_tools` does."""
    from schemalint.commands.reading import mcp_servers
    from schemalint.diff.result import FAIL_LEVELS
    from schemalint.engine.request import check_level

    check_level(request.fail_on, FAIL_LEVELS)
    cfg = request.cfg
    named = request.servers_named()
    # only OLD named and no server in the request: NEW is the configured servers
    configured = not named and request.base is None and len(request.paths) == 1
    servers = mcp_servers(request.mcp_stdio, request.mcp_url, request.mcp_headers, cfg, configured=configured)
    if request.base is not None and not request.paths and not named and (cfg.mcp_stdio or cfg.mcp_url):
        from schemalint.config import resolve_sources

        if not resolve_sources(cfg):  # only servers configured: the pre-commit hook must not block
            return DiffRun(None, message=(
                f"nothing to diff against {request.base}: `diff --base` compares files and Python modules "
                "(`sources`), and none are configured; the configured MCP servers are covered by "
                "`schemalint snapshot --check` (the schemalint-snapshot hook)"))
    result = diff_tools(request.paths, cfg=cfg, base=request.base, exclude=request.exclude,
                        python_path=request.python_path, select=request.select or None,
                        extend_select=request.extend_select, ignore=request.ignore, targets=request.targets,
                        **servers.load_kwargs())
    return DiffRun(result, fails=result.fails(request.fail_on))


def diff_tools(paths: Sequence[str], *, cfg: Config, base: str | None = None, mcp_stdio: Sequence[str] = (),
               exclude: Sequence[str] = (), python_path: Sequence[str] = (),
               select: Sequence[str] | None = None, extend_select: Sequence[str] = (),
               ignore: Sequence[str] = (), mcp_url: Sequence[str] = (),
               mcp_headers: Mapping[str, str] | None = None, mcp_cwd: str | None = None,
               targets: Sequence[str] = ()) -> DiffResult:
    """Choose the two sides of a diff and compare them (docs/diff.md).

    Without ``base``: ``paths`` is OLD and NEW (each a file, a directory of tool files or
    snapshots, or ``REV:PATH``). With ``base``: ``paths`` are the sources (default: ``sources``
    of ``cfg``), read at revision ``base`` and in the working tree. With ``mcp_stdio`` or ``mcp_url``:
    ``paths`` is OLD alone and NEW is what these MCP servers list (stdio commands run in ``mcp_cwd``;
    ``mcp_headers`` go with each HTTP request). ``exclude`` and the configuration's ``exclude``
    leave files out of every side read from files: OLD and NEW (paths and ``REV:PATH``) and both
    sides of ``base``. ``select``/``extend_select``/
    ``ignore`` and ``cfg`` choose the diff checks. ``targets``: the provider profiles the tools are
    sent to (``--target`` values; empty: ``target`` of ``cfg``), added to those each tool's format
    implies: a tool sent to a strict one reads an object closed as strict mode requires as SD213
    (compatible), not SD106. Raises
    :class:`~schemalint.diff.errors.DiffError` for the wrong number of paths, no sources or a
    side that cannot be read, :class:`~schemalint.config.ConfigError` for a bad selection,
    :class:`~schemalint.targets.TargetError` for an unknown profile,
    :class:`~schemalint.errors.SourceError` when an MCP server fails."""
    from schemalint.commands.diff_compare import compare_tools
    from schemalint.commands.diff_selection import diff_filter
    from schemalint.commands.diff_sources import ParsedFiles, load_base, load_side, load_worktree
    from schemalint.commands.reading import NO_SOURCES
    from schemalint.config import resolve_sources
    from schemalint.diff.errors import DiffError
    from schemalint.targets import parse_targets

    selection = diff_filter(cfg, select=list(select) if select else None, extend_select=list(extend_select),
                            ignore=list(ignore))
    spec = parse_targets(part for value in (targets or cfg.target) for part in value.split(","))
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
        from schemalint.loaders.python.mcp_http import shown_url

        new = load([], mcp_stdio=mcp_stdio, mcp_url=mcp_url, mcp_headers=mcp_headers, mcp_cwd=mcp_cwd).tools
        labels = [*(f"mcp-stdio {c!r}" for c in mcp_stdio), *(f"mcp-url {shown_url(u)!r}" for u in mcp_url)]
        old_label, new_label = args[0], " + ".join(labels)
    elif base is None:
        if len(args) != 2:
            raise DiffError("give OLD and NEW (files, directories or REV:PATH), or --base REV [SOURCES...]")
        old_label, new_label = args
        old = load_side(args[0], exclude=excl, python_path=roots, reuse=reuse)
        new = load_side(args[1], exclude=excl, python_path=roots, reuse=reuse)
    else:
        srcs = args or resolve_sources(cfg)
        if not srcs:  # the schemalint-diff hook's first run in a project without configuration
            raise DiffError(f"{NO_SOURCES}; name them after --base {base} (`schemalint diff --base {base} "
                            "tools/`), or list the files and modules whose tools to compare in `sources` "
                            "(the schemalint-diff pre-commit hook reads them from there)")
        from schemalint import progress

        progress.phase(f"reading the sources at {base}")
        old = load_base(base, srcs, exclude=excl, python_path=roots, notes=notes, reuse=reuse)
        progress.phase("reading the sources in the working tree")
        new = load_worktree(srcs, exclude=excl, python_path=roots, reuse=reuse)
        old_label, new_label = base, "working tree"
    del reuse  # the bytes of the first side's files
    from schemalint import progress

    progress.phase(f"comparing {len(old):,} and {len(new):,} tools")
    result = compare_tools(old, new, old_label=old_label, new_label=new_label, selection=selection, targets=spec)
    result.notes.extend(notes)
    if not old and not new:
        result.notes.append("no tool definitions found on either side")
    return result
