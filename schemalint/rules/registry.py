"""The rule registry: every rule in catalog order, and the rules one check needs.

Each rule family keeps its own explicit tuple in its package (``shape``,
``contract``, ``description``, ``provider``); :data:`schemalint.rules.catalog.CATALOG`
lists the same rules statically (a test keeps the two equal) so that a check can select
rules and validate selectors without importing them, then import only the rule modules
that can report something (:func:`rules_for_run`). A test checks this list,
``rules/README.md`` and the rule pages agree.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, overload

from schemalint.rules.base import Rule
from schemalint.rules.catalog import CATALOG, RuleEntry

if TYPE_CHECKING:
    from schemalint.model import Tool
    from schemalint.rules.base import Context

_INSTANCES: dict[str, Rule] = {}


def rule_instance(entry: RuleEntry) -> Rule:
    """The one instance of the catalog ``entry``'s rule (imports its module on first use)."""
    rule = _INSTANCES.get(entry.code)
    if rule is None:
        rule = _INSTANCES[entry.code] = entry.load()()
    return rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """Instances of every registered rule, ordered by code (imports every rule module)."""
    return tuple(rule_instance(entry) for entry in CATALOG)


_BY_CODE: dict[str, RuleEntry] = {entry.code: entry for entry in CATALOG}


def rule_by_code(code: str) -> Rule:
    """The one instance of the rule ``code`` (exact code, e.g. ``"SL006"``; imports its module on
    first use). Raises ``KeyError`` for a code not in the catalog."""
    rule = _INSTANCES.get(code)
    return rule if rule is not None else rule_instance(_BY_CODE[code])


def find_rule(key: str) -> Rule | None:
    """The rule whose code or name is ``key`` (case-insensitive), else ``None``.

    Only that rule's module is imported."""
    key = key.strip().lower()
    for entry in CATALOG:
        if entry.code.lower() == key or entry.name == key:
            return rule_instance(entry)
    return None


def rules_for_run(enabled: Collection[str], tools: Sequence[Tool], ctx: Context) -> list[Rule]:
    """Instances of the rules whose codes are in ``enabled`` that can report something on ``tools``
    checked in ``ctx``, in catalog order; only their modules are imported.

    Kept: rules without targets, rules with a target among the profiles of some tool
    (:meth:`Context.targets_for`, which includes ``--target``) or among ``ctx.targets``, and the
    contract rules (``RuleEntry.runtime``) only when some tool has a runtime contract. The others
    would report nothing: rules with targets run per tool only for its profiles
    (:func:`schemalint.engine.run_tool_rules`) and their catalog hooks filter the same way.
    """
    return [rule_instance(e) for e in entries_for_run(enabled, tools, ctx)]


def entries_for_run(enabled: Collection[str], tools: Sequence[Tool], ctx: Context) -> list[RuleEntry]:
    """The catalog entries of :func:`rules_for_run`'s rules, importing none of their modules."""
    profiles: set[str] = set(ctx.targets)
    for found in {ctx.targets_for(tool) for tool in tools}:
        profiles.update(found)
    runtime = any(tool.runtime is not None for tool in tools)
    return [e for e in CATALOG if e.code in enabled and e.can_report(profiles, runtime)]


class AllRules(Sequence[Rule]):
    """Every registered rule (:func:`all_rules`), imported on first use: what
    :attr:`schemalint.api.CheckResult.rules` holds by default, so that a check whose reporter
    never looks at the rule metadata does not import every rule module."""

    @overload
    def __getitem__(self, index: int) -> Rule: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Rule]: ...

    def __getitem__(self, index: int | slice) -> Rule | Sequence[Rule]:
        return all_rules()[index]

    def __len__(self) -> int:
        return len(CATALOG)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, AllRules):
            return True
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(all_rules())

    def __repr__(self) -> str:
        return "AllRules()"
