"""SD105 enum-value-removed and SD205 enum-value-added (and SD107/SD207 for an ``enum`` that
appears or disappears). Keyword: ``enum`` (draft-07 section 6.1.2), compared as a set.
"""

from __future__ import annotations

from schemalint.diff.checks._common import MISSING, Site, canonical, fmt


def matches(keyword: str) -> bool:
    """``enum`` only."""
    return keyword == "enum"


def check(site: Site) -> None:
    """One change per value removed or added; a new or dropped enum restricts or frees all values."""
    c, where, old_v, new_v = site.c, site.where, site.old_v, site.new_v
    ptr = (*site.tokens, "enum")
    if old_v is MISSING or not isinstance(old_v, list):
        c.emit("constraint-tightened", ptr, f"`{where}` now only accepts the values of a new enum {fmt(new_v)}",
               after=new_v)
        return
    if new_v is MISSING or not isinstance(new_v, list):
        c.emit("constraint-loosened", ptr, f"`{where}` no longer restricts values to an enum", side="old",
               before=old_v)
        return
    old_c = {canonical(x): x for x in old_v}
    new_c = {canonical(x): x for x in new_v}
    for k, v in old_c.items():
        if k not in new_c:
            c.emit("enum-value-removed", ptr, f"`{where}` no longer accepts {fmt(v)}", before=v,
                   hint="calls sending this value are refused now")
    for k, v in new_c.items():
        if k not in old_c:
            c.emit("enum-value-added", ptr, f"`{where}` now also accepts {fmt(v)}", after=v)
