"""SD107 constraint-tightened and SD207 constraint-loosened: bounds, ``const``, ``pattern``,
``format``, ``uniqueItems`` and every other validation keyword without a check of its own.

Bounds (draft-07 sections 6.2-6.4): a lower bound that rises or an upper bound that falls
accepts fewer values. A changed ``pattern`` is SD107 unless :func:`pattern_widens` proves
that it accepts more. Any other changed value cannot be proven wider: SD107.
"""

from __future__ import annotations

import math
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


_NUMERIC_BOUNDS = {"minimum": ("minimum", "exclusiveMinimum"), "exclusiveMinimum": ("minimum", "exclusiveMinimum"),
                   "maximum": ("maximum", "exclusiveMaximum"), "exclusiveMaximum": ("maximum", "exclusiveMaximum")}
"""The inclusive and exclusive keyword of each numeric bound (draft-06 and later: both numbers)."""


def _effective(schema: Any, inclusive: str, exclusive: str, lower: bool) -> Any:
    """The bound ``schema``'s ``inclusive``/``exclusive`` keywords set together, as ``(value,
    is_exclusive)`` (for an integer-only schema, the inclusive whole-number bound: ``exclusiveMaximum:
    11`` is ``maximum: 10``); ``None`` without one; :data:`MISSING` when it cannot be judged (a boolean
    draft-04 flag, a value that is not a number)."""
    if not isinstance(schema, dict):
        return MISSING
    found = []
    for key, excl in ((inclusive, False), (exclusive, True)):
        value = schema.get(key, MISSING)
        if value is MISSING:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return MISSING
        found.append((value, excl))
    if not found:
        return None
    if schema.get("type") == "integer" and all(math.isfinite(v) for v, _ in found):
        if lower:
            found = [((math.floor(v) + 1) if e else math.ceil(v), False) for v, e in found]
        else:
            found = [((math.ceil(v) - 1) if e else math.floor(v), False) for v, e in found]
    if lower:  # the strictest: the largest value; at a tie, the exclusive one
        return max(found, key=lambda b: (b[0], b[1]))
    return min(found, key=lambda b: (b[0], not b[1]))


def _shown(bound: Any, lower: bool) -> str:
    if bound is None:
        return "none"
    op = (">" if bound[1] else ">=") if lower else ("<" if bound[1] else "<=")
    return f"{op} {fmt(bound[0])}"


def _numeric_bound(site: Site) -> bool:
    """Compare the numeric bound ``site`` belongs to as one bound (its inclusive and exclusive
    keywords together, whole numbers for an integer); True when that settled the site: the bound is
    the same (no change: ``exclusiveMaximum: 11`` and ``maximum: 10`` of an integer), or both keywords
    take part (reported once, at the first of them)."""
    inclusive, exclusive = _NUMERIC_BOUNDS[site.keyword]
    lower = site.keyword in LOWER_BOUNDS
    before = _effective(site.old_s, inclusive, exclusive, lower)
    after = _effective(site.new_s, inclusive, exclusive, lower)
    if before is MISSING or after is MISSING:
        return False
    if before == after:
        return True
    present = {k for side in (site.old_s, site.new_s) if isinstance(side, dict)
               for k in (inclusive, exclusive) if k in side}
    if len(present) < 2:
        return False  # one keyword alone: compared as any bound
    key = (site.tokens, "numeric-bound", inclusive)
    if key in site.c.shifted:
        return True
    site.c.shifted[key] = True
    if before is None or after is None:
        tighter = before is None
    else:
        tighter = (after > before) if lower else (after[0] < before[0] or (after[0] == before[0] and after[1]))
    site.report("constraint-tightened" if tighter else "constraint-loosened",
                f"{'lower' if lower else 'upper'} bound of `{site.where}`: {_shown(before, lower)} -> "
                f"{_shown(after, lower)}", hint=_TIGHTER_HINT if tighter else None)
    return True


def _bound(site: Site) -> None:
    if site.keyword in _NUMERIC_BOUNDS and _numeric_bound(site):
        return
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
