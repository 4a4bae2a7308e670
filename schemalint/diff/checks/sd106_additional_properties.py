"""SD106 additional-properties-closed and SD206 additional-properties-opened (SD107/SD207 when
undeclared keys gain or lose a schema, SD111 otherwise). Keywords: ``additionalProperties``
(draft-07 section 6.5.6) and ``unevaluatedProperties`` (2020-12 Core section 11.3).
"""

from __future__ import annotations

from collections.abc import Mapping

from schemalint.diff.checks._common import Site, closedness, fmt


def matches(keyword: str) -> bool:
    """``additionalProperties`` and ``unevaluatedProperties``."""
    return keyword in ("additionalProperties", "unevaluatedProperties")


def check(site: Site) -> None:
    """Classify by openness: open (absent, true, {}), closed (false) or a schema."""
    before, after = closedness(site.old_v), closedness(site.new_v)
    where, keyword = site.where, site.keyword
    if after == "closed" and before != "closed":
        site.report(
            "additional-properties-closed",
            f"`{where}` now refuses keys it does not declare (`{keyword}`: {fmt(site.old_v)} -> false)",
            hint="a model that sends an undeclared key gets a refusal that names no key",
        )
    elif before == "closed" and after != "closed":
        site.report("additional-properties-opened", f"`{where}` now accepts keys it does not declare")
    elif before == "open" and after == "schema":
        site.report("constraint-tightened", f"undeclared keys of `{where}` must now match a schema")
    elif before == "schema" and after == "open":
        site.report("constraint-loosened", f"undeclared keys of `{where}` are no longer checked")
    elif before != after or not (isinstance(site.old_v, Mapping) and isinstance(site.new_v, Mapping)):
        site.report("schema-changed", f"`{keyword}` of `{where}` changed: {fmt(site.old_v)} -> {fmt(site.new_v)}")
