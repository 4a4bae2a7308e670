"""SD212 metadata-changed: keywords that do not constrain calls (``deprecated``, ``$comment``,
``readOnly``, ``$id``, ``discriminator``, ``x-*`` extensions ...). Tool-level metadata
(``strict``, ``_meta``, ``icons``) is compared in :mod:`schemalint.commands.diff_compare`.
"""

from __future__ import annotations

from schemalint.diff.checks._common import METADATA_KEYWORDS, Site, fmt


def matches(keyword: str) -> bool:
    """The metadata keywords and every ``x-`` extension."""
    return keyword in METADATA_KEYWORDS or keyword.startswith("x-")


def check(site: Site) -> None:
    """One change with both values."""
    site.report("metadata-changed",
                f"`{site.keyword}` of `{site.where}` changed: {fmt(site.old_v)} -> {fmt(site.new_v)}")
