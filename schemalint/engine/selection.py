"""Rule selection at run time: which rules run, at which severity, and which findings the
configured suppressions hide.

Built from a :class:`~schemalint.config.Config` (read and validated by :mod:`schemalint.config`)
plus command-line overrides, by :func:`build_filter`. Selection follows ruff: for every rule,
the most specific matching selector wins (a rule name or full code beats a longer prefix beats a
shorter one; ``ALL`` is the least specific); at equal specificity ``ignore`` beats ``select``.
Serves ``check`` (:mod:`schemalint.engine`) and ``diff`` (:mod:`schemalint.commands.diff_selection`).
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from schemalint.config import ALL_SELECTOR, Config, ConfigError, Suppression, selector_specificity, validate_selector
from schemalint.model import Severity

if TYPE_CHECKING:
    from schemalint.config import AnyRule


class Selectable(Protocol):
    """What selection, re-grading and suppression read from a reported item: a check diagnostic
    (:class:`~schemalint.model.Diagnostic`) or a diff change (:class:`~schemalint.diff.result.Change`)."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def file(self) -> str | None: ...
    @property
    def tool(self) -> str | None: ...



@dataclass
class RuleFilter:
    """Applies rule selection, severity overrides and suppressions to diagnostics.

    Built by :func:`build_filter` from a :class:`Config` plus command-line overrides.
    ``enabled`` holds the codes of the selected rules. ``suppressed`` counts, per
    suppression label, the diagnostics it hid (to report unused suppressions).
    """

    enabled: frozenset[str]
    severity: dict[str, Severity]
    suppressions: list[Suppression]
    config: Config
    rules: Sequence[AnyRule]
    suppressed: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_code = {r.code: r for r in self.rules}

    def rule_enabled(self, code: str) -> bool:
        """True when the rule with ``code`` is selected (unknown codes are kept)."""
        return code in self.enabled or code not in self._by_code

    def _rule(self, code: str) -> AnyRule | None:
        return self._by_code.get(code)

    def severity_for(self, d: Selectable) -> Severity:
        """The configured severity for ``d`` (longest matching selector), else its own."""
        rule = self._rule(d.code)
        if rule is None or not self.severity:
            return d.severity
        best: tuple[int, Severity] | None = None
        for sel, sev in self.severity.items():
            spec = selector_specificity(sel, rule)
            if spec is not None and (best is None or spec > best[0]):
                best = (spec, sev)
        return best[1] if best else d.severity

    def suppression_for(self, d: Selectable) -> Suppression | None:
        """The first suppression that hides ``d``, else ``None``."""
        rule = self._rule(d.code)
        if rule is None:
            return None
        rel = self.config.relative(d.file or "")
        for s in self.suppressions:
            if not any(selector_specificity(sel, rule) is not None for sel in s.rules):
                continue
            if s.files and not any(path_matches(rel, pat) for pat in s.files):
                continue
            if s.tools and not (d.tool is not None and any(fnmatch.fnmatchcase(d.tool, t) for t in s.tools)):
                continue
            return s
        return None

    def unused_suppressions(self) -> list[Suppression]:
        """Suppressions that hid nothing in this run (candidates for removal); a suppression that
        names none of this run's rules (a diff check's during ``check``) is not counted."""
        return [s for s in self.suppressions if not self.suppressed.get(s.label)
                and any(selector_specificity(sel, r) is not None for sel in s.rules for r in self.rules)]


def path_matches(rel: str, pattern: str) -> bool:
    """True when the root-relative path ``rel`` matches the glob ``pattern`` or lies under it."""
    pat = pattern.replace(os.sep, "/").removeprefix("./")
    return fnmatch.fnmatch(rel, pat) or rel.startswith(pat.rstrip("/") + "/")


DEFAULT_OFF_PREFIX = 2
"""Specificity a selector must exceed to select a ``default_off`` rule (``SD`` and ``ALL`` do not)."""


def family_select(select: Sequence[str] | None, rules: Sequence[AnyRule]) -> Sequence[str] | None:
    """``select`` for one family of rules (the check rules, or the diff checks).

    One ``select`` governs both families, but a ``select`` that names no rule of ``rules``
    (``select = ["SD1"]`` seen by ``check``, ``select = ["SL1"]`` seen by ``diff``) leaves that
    family's selection at its default (``None``) instead of turning every rule of it off."""
    if not select:
        return select
    if any(selector_specificity(sel, r) is not None for sel in select for r in rules):
        return select
    return None


def enabled_codes(rules: Sequence[AnyRule], select: Sequence[str] | None, extend_select: Sequence[str],
                  ignore: Sequence[str]) -> frozenset[str]:
    """Codes of the rules selected by ``select`` (``None``: all), ``extend_select`` and ``ignore``.

    For each rule the most specific matching selector decides; ``ignore`` wins ties. A rule
    with ``default_off`` set (SD401) is selected only by a selector more specific than its
    family's two-letter prefix: its code, its name, or a prefix such as ``SD4``.
    """
    selects = [ALL_SELECTOR] if select is None else list(select)
    selects += list(extend_select)
    out = set()
    for rule in rules:
        best_sel = max((s for s in (selector_specificity(x, rule) for x in selects) if s is not None),
                       default=None)
        best_ign = max((s for s in (selector_specificity(x, rule) for x in ignore) if s is not None),
                       default=None)
        if best_sel is None or (getattr(rule, "default_off", False) and best_sel <= DEFAULT_OFF_PREFIX):
            continue
        if best_ign is not None and best_ign >= best_sel:
            continue
        out.add(rule.code)
    return frozenset(out)


def _every_rule() -> list[AnyRule]:
    """The SL catalog and the SD diff checks: ``--ignore`` accepts a selector of either family in
    both ``check`` and ``diff`` (one ``--ignore SD208,SL007`` serves both steps of a CI job; it
    acts only on the rules of the command that runs). ``--select``/``--extend-select`` of the
    other family stay refused: they would silently select nothing."""
    from schemalint.diff.checks import BY_CODE
    from schemalint.rules.catalog import CATALOG

    return [*CATALOG, *BY_CODE.values()]  # type: ignore[list-item]  # a DiffCheck has code and name


def build_filter(config: Config, *, select: Sequence[str] | None = None,
                 extend_select: Sequence[str] = (), ignore: Sequence[str] = (),
                 rules: Sequence[AnyRule] | None = None) -> RuleFilter:
    """The :class:`RuleFilter` for ``config`` with command-line overrides.

    Two layers, as in ruff: the configuration's ``select``/``extend-select``/``ignore``
    give a set of rules; then the command line's ``select`` (when not ``None``) replaces
    that set with its own selection (configured ``ignore`` no longer applies), while
    without it the command line's ``extend_select`` adds rules and ``ignore`` removes
    them (the more specific of the two wins). Raises
    :class:`ConfigError` for a selector that names no rule (for ``ignore``: no rule of either
    family, SL rules or SD diff checks). ``rules`` defaults to the static
    catalog (:data:`schemalint.rules.catalog.CATALOG`): no rule module is imported.
    """
    if rules is None:
        from schemalint.rules.catalog import CATALOG

        rules = CATALOG
    for key, sels in (("--select", select or ()), ("--extend-select", extend_select), ("--ignore", ignore)):
        for one in sels:
            problem = validate_selector(one, rules)
            if problem and (key != "--ignore" or validate_selector(one, _every_rule()) is not None):
                raise ConfigError(f"{key}: {problem}")
    if select is not None:
        enabled = enabled_codes(rules, list(select), list(extend_select), list(ignore))
    else:
        enabled = enabled_codes(rules, family_select(config.select, rules), config.extend_select, config.ignore)
        if extend_select or ignore:
            layer = enabled_codes(rules, [], extend_select, ignore)
            vetoed = frozenset(r.code for r in rules) - enabled_codes(rules, None, extend_select, ignore)
            enabled = (enabled | layer) - vetoed
    return RuleFilter(enabled=enabled, severity=dict(config.severity), suppressions=list(config.suppressions),
                      config=config, rules=rules)
