"""Rules of the provider family (SL3xx, see rules/README.md and docs/targets.md).

Each rule belongs to one or more target profiles (:mod:`schemalint.targets`) and runs per
tool for the profiles that tool is checked against.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemalint.rules.catalog import family_getattr

if TYPE_CHECKING:
    from schemalint.rules.base import Rule

RULES: tuple[type[Rule], ...]
"""The family's rule classes in catalog order, read from :data:`schemalint.rules.catalog.CATALOG`
on first access."""

__getattr__ = family_getattr(__name__)
