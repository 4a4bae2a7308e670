"""What the editor surfaces check: one tool file's buffer, or the configured module sources.

Both the language server (:mod:`schemalint.editor.lsp`) and the MCP server for coding agents
(:mod:`schemalint.editor.agent`) call :func:`check_paths`; the language server adds
:func:`check_buffer` for text that is not saved yet. Each runs the same check as
``schemalint check PATH`` with the configuration of the workspace folder, so an editor shows
what CI will report.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.model import CheckResult, Diagnostic

TOOL_FILE_SUFFIXES = (".json", ".snap", ".jsonl", ".ndjson", ".yaml", ".yml")
"""Files the language server checks as they are edited (the file syntaxes of
:mod:`schemalint.loaders.files.documents`)."""

SOURCE_SUFFIXES = (".py", ".ts", ".mts", ".cts", ".js", ".mjs", ".cjs")
"""Files whose save re-checks the configured Python and TypeScript module sources."""


def workspace_config(folder: str | os.PathLike[str]) -> Config:
    """The configuration the CLI would use when run in ``folder`` (found as the CLI finds it).

    Raises :class:`schemalint.config.ConfigError` for an invalid configuration file.
    """
    from schemalint.config import load_config

    return load_config(start=Path(folder))


def check_paths(paths: Sequence[str], cfg: Config, *, targets: Sequence[str] = (),
                select: Sequence[str] | None = None) -> CheckResult:
    """``schemalint check PATHS`` with ``cfg``: its excludes, targets, dialect, import roots,
    selection, severities and suppressions; one job (the callers serve one request at a time).

    ``targets``: provider targets (default: the configured ``target``); ``select``: rule
    selectors replacing the configured selection. Raises
    :class:`schemalint.errors.SourceError` for a missing path or a module that
    cannot be imported, :class:`schemalint.config.ConfigError` for an unknown selector.
    """
    from schemalint.api import check

    return check(
        list(paths),
        exclude=cfg.exclude,
        targets=list(targets) or cfg.target,
        dialect=cfg.dialect,
        python_path=cfg.import_roots(None),
        select=list(select) if select else None,
        config=cfg,
        jobs=1,
        catalog=False,
    )


def check_buffer(path: str, text: str, cfg: Config) -> CheckResult:
    """Check the editor buffer ``text`` of the tool file ``path`` (absolute; it must exist on disk,
    where its saved version may differ) as ``schemalint check PATH`` would check it once saved.
    Nothing is written: the buffer is laid over the path for the length of the check
    (:mod:`schemalint.loaders.files.overlay`). Raises what :func:`check_paths` raises."""
    from schemalint.loaders.files.overlay import overlaid

    with overlaid({path: text}):
        return check_paths([path], cfg)


def module_sources(cfg: Config) -> list[str]:
    """The configured ``module:attr`` Python sources and TypeScript module sources (what a save of
    a ``.py`` or ``.ts`` file re-checks): the configuration names them, so importing them is what
    the user asked for (docs/security.md)."""
    from schemalint.loaders.files.sources import is_module_source

    return [s for s in cfg.sources if is_module_source(s)]


@dataclass
class Checked:
    """What an editor needs of a :class:`~schemalint.model.CheckResult`, small enough to send
    from the checking process (a result of module sources holds the runtime's live validators,
    which cannot cross a process boundary)."""

    tools: int
    files: int
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, result: CheckResult) -> Checked:
        return cls(result.tools, result.files, list(result.diagnostics), list(result.notes))


def checked_buffer(path: str, text: str, cfg: Config) -> Checked:
    """:func:`check_buffer`, as a :class:`Checked` (the language server's job)."""
    return Checked.of(check_buffer(path, text, cfg))


def checked_paths(paths: Sequence[str], cfg: Config) -> Checked:
    """:func:`check_paths`, as a :class:`Checked` (the language server's job)."""
    return Checked.of(check_paths(paths, cfg))
