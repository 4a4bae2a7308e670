"""SD210 default-changed: a ``default`` added, changed or removed (draft-07 section 10.2).

A default does not constrain calls, but a model that omits the key now gets another value.

A default moved between a schema and one branch of its ``anyOf``/``oneOf`` (a property made
nullable by wrapping it in a union, its default going into the first branch; or the reverse),
unchanged or changed on the way, is one change, reported at the side that holds it after the move,
not a removal and an addition.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.diff.checks._common import MISSING, Site, canonical, fmt, label, resolve

_UNIONS = ("anyOf", "oneOf")


def matches(keyword: str) -> bool:
    """``default`` only."""
    return keyword == "default"


def check(site: Site) -> None:
    """One change with both values, or one move (:func:`_moved`), whose other half is skipped."""
    moved = _moved(site)
    if moved == "":
        return  # the other half of a move reports it
    if moved is not None:
        site.report("default-changed", moved)
        return
    site.report("default-changed", f"default of `{site.where}` changed: {fmt(site.old_v)} -> {fmt(site.new_v)}")


def _default(schema: Any) -> Any:
    return schema.get("default", MISSING) if isinstance(schema, Mapping) else MISSING


def _moved(site: Site) -> str | None:
    """The message of a default moved between a schema and one of its union's branches (unchanged,
    or changed on the way) when ``site`` is the half that reports it (the side holding the default
    after the move), ``""`` when it is the other half, ``None`` when the change is no such move."""
    c = site.c
    old_root, new_root = c.roots
    for prefix in (c.new_prefix, c.old_prefix):  # the site's position in the whole schema, per side
        tokens = (*prefix, *site.tokens)
        if len(tokens) < 2 or tokens[-2] not in _UNIONS or not isinstance(tokens[-1], int):
            continue
        holder = tokens[:-2]  # the site is a branch's default; the schema with the union is `holder`
        old_h, new_h = resolve(old_root, holder), resolve(new_root, holder)
        branch = f"`{tokens[-2]}` branch {tokens[-1]}"
        if site.old_v is MISSING and _default(old_h) is not MISSING and _default(new_h) is MISSING:
            return f"default of `{label(holder)}` moved into its {branch}{_how(_default(old_h), site.new_v)}"
        if site.new_v is MISSING and _default(new_h) is not MISSING and _default(old_h) is MISSING:
            return ""
        return None
    tokens = site.tokens
    for union in _UNIONS:  # the site is a schema's own default: did a branch of its union take it?
        old_b, new_b = resolve(c.old, (*tokens, union)), resolve(c.new, (*tokens, union))
        if site.new_v is MISSING and isinstance(new_b, list):
            for i, branch in enumerate(new_b):
                old_branch = old_b[i] if isinstance(old_b, list) and i < len(old_b) else None
                if _default(branch) is not MISSING and _default(old_branch) is MISSING:
                    return ""
        if site.old_v is MISSING and isinstance(old_b, list):
            for i, branch in enumerate(old_b):
                new_branch = new_b[i] if isinstance(new_b, list) and i < len(new_b) else None
                if _default(branch) is not MISSING and _default(new_branch) is MISSING:
                    return f"default of `{site.where}` moved out of its `{union}` branch {i}" \
                           f"{_how(_default(branch), site.new_v)}"
    return None


def _how(before: Any, after: Any) -> str:
    """``, unchanged ("a")`` or `` and changed: "a" -> "b"``."""
    if canonical(before) == canonical(after):
        return f", unchanged ({fmt(after)})"
    return f" and changed: {fmt(before)} -> {fmt(after)}"
