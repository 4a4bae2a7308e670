"""Rules of the description family (see rules/README.md). ``RULES`` lists them in catalog order."""

from __future__ import annotations

from schemalint.rules.base import Rule
from schemalint.rules.description.sl201_description_mentions_unknown_parameter import (
    DescriptionMentionsUnknownParameter,
)
from schemalint.rules.description.sl202_description_mentions_removed_parameter import (
    DescriptionMentionsRemovedParameter,
)

RULES: tuple[type[Rule], ...] = (DescriptionMentionsUnknownParameter, DescriptionMentionsRemovedParameter)
