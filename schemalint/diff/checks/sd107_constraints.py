"""SD107 constraint-tightened and SD207 constraint-loosened: bounds, ``const``, ``pattern``,
``format``, ``uniqueItems`` and every other validation keyword without a check of its own.

Bounds (draft-07 sections 6.2-6.4): a lower bound that rises or an upper bound that falls
accepts fewer values. A changed ``pattern`` is SD107 unless :func:`pattern_widens` proves
that it accepts more. Any other changed value cannot be proven wider: SD107.
"""

from __future__ import annotations

import re
from typing import Any

from schemalint.diff.checks._common import LOWER_BOUNDS, MISSING, UPPER_BOUNDS, Site, fmt

_TIGHTER_HINT = "calls valid before may be refused now"


def matches(keyword: str) -> bool:
    """``const`` and the numeric/length/count bounds; also the fallback for unknown keywords."""
    return keyword == "const" or keyword in LOWER_BOUNDS or keyword in UPPER_BOUNDS


def check(site: Site) -> None:
    """Dispatch to the ``const``, bound or generic comparison."""
    if site.keyword == "const":
        _const(site)
    elif site.keyword in LOWER_BOUNDS or site.keyword in UPPER_BOUNDS:
        _bound(site)
    else:
        _constraint(site, site.old_v, site.new_v)


def _const(site: Site) -> None:
    where = site.where
    if site.new_v is MISSING:
        site.c.emit("constraint-loosened", site.pointer, f"`{where}` is no longer a constant", side="old",
                    before=site.old_v)
    else:
        site.c.emit("constraint-tightened", site.pointer,
                    f"`{where}` must now equal {fmt(site.new_v)} (was {fmt(site.old_v)})",
                    before=site.old_v, after=site.new_v)


def _bound(site: Site) -> None:
    old_v, new_v = site.old_v, site.new_v
    num = (int, float)
    lower = site.keyword in LOWER_BOUNDS
    if isinstance(old_v, bool) or isinstance(new_v, bool):  # draft-04 exclusiveMinimum: true
        tighter = new_v is True
    elif old_v is MISSING:
        tighter = True
    elif new_v is MISSING:
        tighter = False
    elif isinstance(old_v, num) and isinstance(new_v, num):
        tighter = new_v > old_v if lower else new_v < old_v
    else:
        _constraint(site, old_v, new_v)
        return
    site.report(
        "constraint-tightened" if tighter else "constraint-loosened",
        f"`{site.keyword}` of `{site.where}`: {fmt(old_v)} -> {fmt(new_v)}",
        hint=_TIGHTER_HINT if tighter else None,
    )


def _constraint(site: Site, old_v: Any, new_v: Any) -> None:
    c, keyword, where, ptr = site.c, site.keyword, site.where, site.pointer
    if keyword == "pattern" and isinstance(old_v, str) and isinstance(new_v, str) and pattern_widens(old_v, new_v):
        c.emit("constraint-loosened", ptr, f"`pattern` of `{where}` accepts more characters: "
               f"{fmt(old_v)} -> {fmt(new_v)}", before=old_v, after=new_v)
        return
    if keyword == "uniqueItems":
        old_v = MISSING if old_v is False else old_v
        new_v = MISSING if new_v is False else new_v
        if old_v is new_v:
            return
    if old_v is MISSING:
        c.emit("constraint-tightened", ptr, f"`{where}` has a new `{keyword}`: {fmt(new_v)}", after=new_v,
               hint=_TIGHTER_HINT)
    elif new_v is MISSING:
        c.emit("constraint-loosened", ptr, f"`{keyword}` of `{where}` was removed", side="old", before=old_v)
    else:
        c.emit("constraint-tightened", ptr, f"`{keyword}` of `{where}` changed: {fmt(old_v)} -> {fmt(new_v)}",
               before=old_v, after=new_v,
               hint="the new value cannot be proven to accept every value the old one did")


_CLASS = re.compile(r"\[(\^?)((?:\\.|[^\]\\])*)\]")
_CLASS_ITEM = re.compile(r"\\.-\\.|\\.-[^\\]|[^\\]-\\.|[^\\-]-[^\\]|\\.|.", re.S)


def pattern_widens(old: str, new: str) -> bool:
    """True when ``new`` is ``old`` with only characters or ranges added to character classes.

    A deliberately narrow proof: both patterns must be identical outside ``[...]`` classes,
    no class may be negated, and every item (``a``, ``\\-``, ``A-Z``) of each old class must
    appear in the matching new class. Anything else returns False (not proven).
    """
    if old == new:
        return False
    old_classes, new_classes = _CLASS.findall(old), _CLASS.findall(new)
    if len(old_classes) != len(new_classes) or _CLASS.sub("[]", old) != _CLASS.sub("[]", new):
        return False
    for (neg_a, a), (neg_b, b) in zip(old_classes, new_classes, strict=True):
        if neg_a or neg_b:
            return False
        if not set(_CLASS_ITEM.findall(a)) <= set(_CLASS_ITEM.findall(b)):
            return False
    return True
