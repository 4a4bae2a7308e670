"""SD103 required-added and SD203 required-dropped: a ``required`` entry added to or removed
from an existing schema (JSON Schema validation, ``required``: draft-07 section 6.5.3).

Entries of a property that is itself added or removed are left to
:mod:`~schemalint.diff.checks.sd102_properties` (reported there once).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.diff.checks._common import Site, declared_properties, required_names, types_of


def matches(keyword: str) -> bool:
    """``required`` only."""
    return keyword == "required"


def check(site: Site) -> None:
    """One change per name that became required or stopped being required."""
    c, tokens = site.c, site.tokens
    old_r, new_r = required_names(site.old_s), required_names(site.new_s)
    old_props, new_props = declared_properties(site.old_s), declared_properties(site.new_s)
    ptr = (*tokens, "required")
    for name in sorted(new_r - old_r):
        if name in new_props and name not in old_props:
            continue  # reported as a new required property
        hint = "give it a default and keep it optional, or announce the breaking change"
        if name in old_props and _accepts_null(new_props.get(name), c.new_nullable) \
                and not _accepts_null(old_props[name], c.old_nullable):
            hint = ("made required and nullable, strict mode's form of an optional property (SL308's unsafe fix): "
                    "the model now sends null where it left the key out, so the runtime must read null as "
                    "'not given' before this ships; a call that leaves it out is refused")
        c.emit(
            "required-added",
            ptr,
            f"`{c.label((*tokens, 'properties', name))}` is now required: calls without it are refused",
            hint=hint,
            before=sorted(old_r),
            after=sorted(new_r),
        )
    for name in sorted(old_r - new_r):
        if name in old_props and name not in new_props:
            continue  # reported as a removed property
        c.emit(
            "required-dropped",
            ptr,
            f"`{c.label((*tokens, 'properties', name))}` is no longer required",
            side="new" if isinstance(site.new_s, Mapping) else "old",
            before=sorted(old_r),
            after=sorted(new_r),
        )


def _accepts_null(schema: Any, nullable: bool) -> bool:
    """Whether ``schema`` admits ``null`` by its ``type`` (and ``nullable`` when ``nullable``: the side
    is read as OpenAPI 3.0) or a ``{"type": "null"}`` branch of its ``anyOf``/``oneOf`` (the forms
    SL308's fix writes)."""
    if not isinstance(schema, Mapping):
        return False
    if "type" in schema or (nullable and "nullable" in schema):
        return "null" in types_of(schema, nullable)
    branches = [b for k in ("anyOf", "oneOf") for b in (schema.get(k) or []) if isinstance(b, Mapping)]
    return any(b.get("type") == "null" for b in branches)
