"""SD111 schema-changed: a change the classifier cannot prove compatible.

A schema replaced by one of another kind (an object by a boolean or ``null``), and a
changed ``$ref`` (the referenced schemas are compared where they are defined, never
fetched). Review these by hand.
"""

from __future__ import annotations

from typing import Any

from schemalint.diff.checks._common import Classifier, Site, fmt


def matches(keyword: str) -> bool:
    """``$ref`` only (a replaced schema has no keyword: see :func:`replaced`)."""
    return keyword == "$ref"


def check(site: Site) -> None:
    """A changed ``$ref``."""
    site.report(
        "schema-changed",
        f"`$ref` of `{site.where}` changed: {fmt(site.old_v)} -> {fmt(site.new_v)}",
        hint="compare the two referenced schemas by hand",
    )


def replaced(c: Classifier, tokens: tuple[Any, ...], old_s: Any, new_s: Any) -> None:
    """The whole schema at ``tokens`` was replaced by something that cannot be compared."""
    c.emit(
        "schema-changed",
        tokens,
        f"the schema of `{c.label(tokens)}` was replaced ({fmt(old_s)} -> {fmt(new_s)}); "
        "the change cannot be classified",
        before=old_s,
        after=new_s,
        hint="review it by hand: calls valid before may be refused now",
    )
