"""Facts about the branches of a union (``anyOf``/``oneOf``) that the fixes and the diff share.

A ``oneOf`` and an ``anyOf`` of the same branches accept the same values exactly when no value can
match two branches (JSON Schema 2020-12 Core, sections 10.2.1.2 and 10.2.1.3): then rewriting one
as the other changes nothing a caller may send.
"""

from __future__ import annotations

from typing import Any


def _branch_type(branch: Any) -> str | None:
    t = branch.get("type") if isinstance(branch, dict) else None
    return t if isinstance(t, str) else None


def _tags(branch: Any, name: str) -> frozenset[Any] | None:
    """The values branch ``branch`` allows for the required property ``name`` (its ``const`` or
    ``enum``), or ``None`` when it does not pin them."""
    if not isinstance(branch, dict) or name not in (branch.get("required") or ()):
        return None
    prop = (branch.get("properties") or {}).get(name) if isinstance(branch.get("properties"), dict) else None
    if not isinstance(prop, dict):
        return None
    if "const" in prop:
        values = [prop["const"]]
    elif isinstance(prop.get("enum"), list):
        values = prop["enum"]
    else:
        return None
    try:
        return frozenset(values)
    except TypeError:
        return None


def branches_disjoint(branches: list[Any]) -> bool:
    """Whether no JSON value can match two of ``branches``: each has a different ``type`` (one
    name; ``integer`` and ``number`` overlap), or a property required by every branch has
    pairwise disjoint ``const``/``enum`` values across them (a discriminator)."""
    types = [_branch_type(b) for b in branches]
    if all(types) and len(set(types)) == len(types) and not {"integer", "number"} <= set(types):
        return True
    first = branches[0]
    if not isinstance(first, dict) or not isinstance(first.get("required"), list):
        return False
    for name in first["required"]:
        if not isinstance(name, str):
            continue
        tags = [_tags(b, name) for b in branches]
        if any(t is None for t in tags):
            continue
        seen: set[Any] = set()
        for t in tags:
            if t is None or t & seen:
                break
            seen |= t
        else:
            return True
    return False
