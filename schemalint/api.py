"""The public Python API: load sources, run the rules, locate diagnostics.

The CLI is a thin layer over :func:`load` and :func:`check`, which are in turn thin facades over
the check engine (:mod:`schemalint.engine`, where the route reads top to bottom).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from schemalint.engine import (
    FREEZE_TOOLS,
    LoadResult,
    files_without_invisibles,
    load_document_tools,
    locate_diagnostics,
    problem_diagnostic,
)
from schemalint.loaders.sources import SourceError
from schemalint.model import CheckResult

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.engine.baseline import Baseline
    from schemalint.rules.base import Rule

__all__ = ["FREEZE_TOOLS", "CheckResult", "LoadResult", "SourceError", "check", "files_without_invisibles",
           "load", "load_document_tools", "locate_diagnostics", "problem_diagnostic"]


def load(
    sources: Sequence[str],
    *,
    exclude: Sequence[str] = (),
    python_path: Sequence[str] = (),
    mcp_stdio: Sequence[str] = (),
    scan: bool = False,
) -> LoadResult:
    """Load every tool from ``sources`` (files, directories, globs, ``module:attr``).

    ``mcp_stdio``: MCP server commands (``"python server.py --flag"``) to start as
    subprocesses; their ``tools/list`` answers are loaded too. A file that does not parse is an
    SL000 diagnostic when it is named as a source, or when it looks like a tool file
    (:func:`schemalint.loaders.documents.reportable_problems`); ``scan``: treat named files as
    found by a directory walk (the pre-commit hook), so that only the second case applies. The
    count of files skipped this way is a note.
    Raises :class:`SourceError` for a missing path, a Python source that cannot be
    imported or an MCP server that cannot be listed; unreadable files become SL000
    diagnostics in the result instead. The cyclic garbage collector is paused while files
    are parsed, and from :data:`FREEZE_TOOLS` tools on the loaded objects are frozen
    (``gc.freeze()``; reference counting still frees them).
    """
    from schemalint.engine import load as run_load

    return run_load(sources, exclude=exclude, python_path=python_path, mcp_stdio=mcp_stdio, scan=scan)


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
) -> CheckResult:
    """Lint ``sources``: load, run the selected rules, filter, locate and sort the diagnostics.

    ``targets``: provider profiles (``openai-strict``, ``gemini`` ...) added to those
    inferred from each tool's format; a value starting with ``=`` replaces them
    (:func:`schemalint.targets.parse_targets`). ``mcp_stdio``: MCP server commands to start
    and list over stdio (see :func:`load`). ``previous``: sources of an earlier revision
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
    processes for the per-tool rules (:mod:`schemalint.engine.parallel`; ``None``: 1 for small catalogs,
    every CPU above 2,000 files, 2,000 tools or 50 MB); the result is the same for any value.
    ``scan``: see :func:`load` (files named are judged as if found by a directory walk).
    Raises :class:`SourceError` (missing path, failed import),
    :class:`~schemalint.config.ConfigError` (a selector naming no rule) and
    :class:`~schemalint.engine.baseline.BaselineError` (unreadable baseline file) and
    :class:`schemalint.targets.TargetError` (an unknown target).
    """
    from schemalint.engine import check as run_check

    return run_check(sources, exclude=exclude, targets=targets, dialect=dialect, python_path=python_path,
                     select=select, mcp_stdio=mcp_stdio, previous=previous, ignore=ignore,
                     extend_select=extend_select, config=config, baseline=baseline, rules=rules, jobs=jobs,
                     scan=scan)
