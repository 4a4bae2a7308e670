"""Shape rules (SL0xx): is each tool definition well formed? ``RULES`` in catalog order."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.rules.base import Rule

RULES: tuple[type[Rule], ...]
"""The rule classes in catalog order, imported on first access (module ``__getattr__``) so that
importing one rule module does not import the whole family; :mod:`schemalint.rules.catalog`
lists them statically too (a test keeps both equal)."""


def _rules() -> tuple[type[Rule], ...]:
    from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource
    from schemalint.rules.shape.sl001_invalid_schema import InvalidSchema
    from schemalint.rules.shape.sl002_root_not_object import RootNotObject
    from schemalint.rules.shape.sl003_required_not_in_properties import RequiredNotInProperties
    from schemalint.rules.shape.sl004_unresolvable_ref import UnresolvableRef
    from schemalint.rules.shape.sl005_duplicate_tool_name import DuplicateToolName
    from schemalint.rules.shape.sl006_invalid_tool_name import InvalidToolName
    from schemalint.rules.shape.sl007_missing_description import MissingDescription

    return (
        UnreadableSource,
        InvalidSchema,
        RootNotObject,
        RequiredNotInProperties,
        UnresolvableRef,
        DuplicateToolName,
        InvalidToolName,
        MissingDescription,
    )


def __getattr__(name: str) -> object:
    if name == "RULES":
        rules = _rules()
        globals()["RULES"] = rules
        return rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
