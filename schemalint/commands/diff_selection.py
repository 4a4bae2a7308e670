"""Which diff checks a run reports, at which severity: the SL selection machinery, for SD codes.

``select``/``extend-select``/``ignore``, ``[tool.schemalint.severity]`` and the
``per-file-ignores``/``per-tool-ignores`` suppressions of the configuration apply to the diff
checks exactly as to the check rules (:func:`schemalint.engine.selection.build_filter`, ruff's rules:
the most specific selector wins, ``ignore`` wins ties, the command line's ``--select``
replaces the configured selection). A configured ``select`` that names no SD check leaves
them all selected (:func:`schemalint.engine.selection.family_select`); SD401 is off until named.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from schemalint.diff.checks import BY_CODE

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.diff.result import DiffResult
    from schemalint.engine.selection import RuleFilter


def diff_filter(
    config: Config | None = None,
    *,
    select: Sequence[str] | None = None,
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
) -> RuleFilter:
    """The selection of SD checks for ``config`` (default: no configuration) and command-line overrides.

    Raises :class:`schemalint.config.ConfigError` for a command-line selector that names no SD
    check (with a did-you-mean).
    """
    from schemalint.config import Config
    from schemalint.engine.selection import build_filter

    return build_filter(
        config or Config(),
        select=select,
        extend_select=extend_select,
        ignore=ignore,
        rules=tuple(BY_CODE.values()),  # type: ignore[arg-type]  # a DiffCheck has code and name
    )


def apply_selection(result: DiffResult, rule_filter: RuleFilter) -> None:
    """Drop the changes ``rule_filter`` does not select or suppresses, re-grade the others in place.

    Each tool counts what was left out (:attr:`~schemalint.diff.result.ToolDiff.ignored`); when
    anything was, a note says how much.
    """
    left_out = 0
    for tool in result.tools:
        kept = []
        for change in tool.changes:
            if not rule_filter.rule_enabled(change.code):
                tool.ignored += 1
                continue
            suppression = rule_filter.suppression_for(change)
            if suppression is not None:
                rule_filter.suppressed[suppression.label] = rule_filter.suppressed.get(suppression.label, 0) + 1
                tool.ignored += 1
                continue
            severity = rule_filter.severity_for(change)
            if severity is not change.severity:
                check = dataclasses.replace(change.check, severity_override=severity)
                change = dataclasses.replace(change, check=check)
            kept.append(change)
        tool.changes = kept
        left_out += tool.ignored
    if left_out:
        result.notes.append(
            f"{left_out} change(s) left out by the selection (select/ignore, per-file-ignores, per-tool-ignores)"
        )
