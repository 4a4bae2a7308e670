"""SD210 default-changed: a ``default`` added, changed or removed (draft-07 section 10.2).

A default does not constrain calls, but a model that omits the key now gets another value.
"""

from __future__ import annotations

from schemalint.diff.checks._common import Site, fmt


def matches(keyword: str) -> bool:
    """``default`` only."""
    return keyword == "default"


def check(site: Site) -> None:
    """One change with both values."""
    site.report("default-changed", f"default of `{site.where}` changed: {fmt(site.old_v)} -> {fmt(site.new_v)}")
