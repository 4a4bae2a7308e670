"""Rules of the tool-poisoning family (SL5xx, see rules/README.md): text a tool shows the model
that hides characters, instructions, requests for secrets or unrelated data, or instructions
about another tool. The shared text collection and pre-filters live in
:mod:`schemalint.rules.poisoning.texts`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemalint.rules.catalog import family_getattr

if TYPE_CHECKING:
    from schemalint.rules.base import Rule

RULES: tuple[type[Rule], ...]
"""The family's rule classes in catalog order, read from :data:`schemalint.rules.catalog.CATALOG`
on first access."""

__getattr__ = family_getattr(__name__)
