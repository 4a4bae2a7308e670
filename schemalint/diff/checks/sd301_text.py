"""SD301 description-changed, inside a schema: ``description``, ``title``, ``examples``,
``example`` (JSON Schema draft-07 section 10, annotation keywords). The tool's own
description and title are compared in :mod:`schemalint.commands.diff_compare`.
"""

from __future__ import annotations

from schemalint.diff.checks._common import TEXT_KEYWORDS, Site


def matches(keyword: str) -> bool:
    """The text keywords."""
    return keyword in TEXT_KEYWORDS


def check(site: Site) -> None:
    """One change with both texts."""
    what = "tool input" if not site.tokens else f"`{site.where}`"
    site.report("description-changed", f"the {site.keyword} of {what} changed",
                hint="the model reads this text: check it still matches the schema")
