"""The rule registry: every rule in catalog order.

Each rule family keeps its own explicit tuple in its package (``shape``,
``contract``, ``description``, ``provider``); this module concatenates them so the
catalog order is code order. A test checks this list, ``rules/README.md`` and the
rule pages agree.
"""

from __future__ import annotations

from functools import lru_cache

from schemalint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """Instances of every registered rule, ordered by code."""
    from schemalint.rules import contract, description, provider, shape

    rules: list[Rule] = []
    for family in (shape, contract, description, provider):
        rules.extend(cls() for cls in family.RULES)
    return tuple(sorted(rules, key=lambda r: r.code))


def find_rule(key: str) -> Rule | None:
    """The rule whose code or name is ``key`` (case-insensitive), else ``None``."""
    key = key.strip().lower()
    for rule in all_rules():
        if rule.code.lower() == key or rule.name == key:
            return rule
    return None
