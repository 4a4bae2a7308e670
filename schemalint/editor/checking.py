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


@dataclass(frozen=True)
class QuickFix:
    """One diagnostic's fix as edits of the buffer it was checked on: ``title``, ``safe`` (ruff's
    meaning, docs/fix.md), and ``edits``: ``(start, end, new_text)`` in code-point offsets of
    that buffer (:func:`schemalint.fix.edits_for`)."""

    title: str
    safe: bool
    edits: tuple[tuple[int, int, str], ...]


@dataclass
class Checked:
    """What an editor needs of a :class:`~schemalint.model.CheckResult`, small enough to send
    from the checking process (a result of module sources holds the runtime's live validators,
    which cannot cross a process boundary). For a buffer, ``fixes`` maps the index of a
    diagnostic in ``diagnostics`` to its :class:`QuickFix`, and ``fix_all`` is the one edit
    ``(start, end, new_text)`` that applies every safe fix of one ``--fix`` round (``None``
    when there is none)."""

    tools: int
    files: int
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    fixes: dict[int, QuickFix] = field(default_factory=dict)
    fix_all: tuple[int, int, str] | None = None

    @classmethod
    def of(cls, result: CheckResult) -> Checked:
        return cls(result.tools, result.files, list(result.diagnostics), list(result.notes))


FIX_KINDS = {".json": "json", ".snap": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml", ".yml": "yaml"}
"""The text kind :mod:`schemalint.fix` edits, by a tool file's suffix."""


def buffer_fixes(checked: Checked, path: str, text: str, cfg: Config) -> Checked:
    """``checked`` with the fixes of its diagnostics on ``text`` (the buffer of ``path``), as
    ``schemalint check --fix`` would plan them with ``cfg``'s targets: one :class:`QuickFix`
    per fixable diagnostic, each planned alone on the buffer, and the safe fixes of one round
    together as ``fix_all``. A buffer whose fixes cannot be planned keeps none (never raises)."""
    kind = FIX_KINDS.get(os.path.splitext(path)[1].lower())
    if kind is None or not checked.diagnostics:
        return checked
    from schemalint.fix import edits_for
    from schemalint.fix.plan import minimal_edit, plan_text
    from schemalint.targets import parse_targets

    try:
        targets = parse_targets(part for value in cfg.target for part in value.split(",")) if cfg.target else None
    except Exception:
        targets = None
    index = {id(d): i for i, d in enumerate(checked.diagnostics)}
    for action in edits_for(checked.diagnostics, text, kind, path=path, targets=targets):
        at = index.get(id(action.diagnostic))
        if at is not None and action.edits:
            checked.fixes[at] = QuickFix(action.title, action.safe,
                                         tuple((e.start, e.end, e.new_text) for e in action.edits))
    if any(f.safe for f in checked.fixes.values()):
        planned = plan_text(checked.diagnostics, path, text, kind, targets=targets, unsafe=False)
        if planned.problem is None and planned.text != text:
            edit = minimal_edit(text, planned.text)
            checked.fix_all = (edit.start, edit.end, edit.new_text)
    return checked


def checked_buffer(path: str, text: str, cfg: Config) -> Checked:
    """:func:`check_buffer`, as a :class:`Checked` with the buffer's fixes (the language
    server's job)."""
    return buffer_fixes(Checked.of(check_buffer(path, text, cfg)), path, text, cfg)


def checked_paths(paths: Sequence[str], cfg: Config) -> Checked:
    """:func:`check_paths`, as a :class:`Checked` (the language server's job)."""
    return Checked.of(check_paths(paths, cfg))
