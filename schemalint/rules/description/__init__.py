"""Rules of the description family (see rules/README.md). ``RULES`` lists them in catalog order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.rules.base import Rule

RULES: tuple[type[Rule], ...]
"""The rule classes in catalog order, imported on first access (module ``__getattr__``) so that
importing one rule module does not import the whole family; :mod:`schemalint.rules.catalog`
lists them statically too (a test keeps both equal)."""


def _rules() -> tuple[type[Rule], ...]:
    from schemalint.rules.description.sl201_description_mentions_unknown_parameter import (
        DescriptionMentionsUnknownParameter,
    )
    from schemalint.rules.description.sl202_description_mentions_removed_parameter import (
        DescriptionMentionsRemovedParameter,
    )

    return (DescriptionMentionsUnknownParameter, DescriptionMentionsRemovedParameter)


def __getattr__(name: str) -> object:
    if name == "RULES":
        rules = _rules()
        globals()["RULES"] = rules
        return rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
