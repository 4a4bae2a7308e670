"""SD104 type-narrowed, SD204 type-widened, SD108 type-changed (and SD212 for the same types
written differently). Keywords: ``type`` (draft-07 section 6.1.1; ``number`` includes
``integer``) and OpenAPI's ``nullable``, read as a keyword only in a side read as OpenAPI 3.0 (a Gemini
``parameters`` schema, :data:`~schemalint.diff.checks._common.OPENAPI_30`); in JSON Schema it is an
unknown keyword, an annotation, so its change is SD212 and it admits no ``null``.

The types compared are those the whole subschema lets through: a ``type`` beside an
``anyOf``/``oneOf`` is read together with the types of its branches (an instance must pass both),
so ``{"anyOf": [{"type": "string"}, {"type": "null"}]}`` that gains ``"type": "string", "nullable":
true`` (what a Gemini fix writes) accepts the same values as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.diff.checks._common import Site, fmt, types_of


def matches(keyword: str) -> bool:
    """``type`` and ``nullable`` (both decide the accepted JSON types)."""
    return keyword in ("type", "nullable")


def _shown(schema: Any, nullable: bool) -> dict[str, Any]:
    keys = ("type", "nullable") if nullable else ("type",)
    return {k: schema.get(k) for k in keys if isinstance(schema, Mapping) and k in schema}


def _accepted(schema: Any, nullable: bool) -> frozenset[str]:
    """The JSON types ``schema`` lets through by its ``type``/``nullable`` and the types of its
    ``anyOf``/``oneOf`` branches (each branch a subschema, else that keyword is not read); ``nullable``:
    the schema is read as OpenAPI 3.0."""
    types = types_of(schema, nullable)
    if isinstance(schema, Mapping):
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list) and branches and all(isinstance(b, Mapping) for b in branches):
                types &= frozenset().union(*(types_of(b, nullable) for b in branches))
    return types


def check(site: Site) -> None:
    """Compare the sets of accepted JSON types (a ``nullable`` neither side reads: SD212)."""
    c = site.c
    if site.keyword == "nullable" and not (c.old_nullable or c.new_nullable):
        site.report("metadata-changed", f"`nullable` of `{site.where}` changed: {fmt(site.old_v)} -> "
                    f"{fmt(site.new_v)} (not a JSON Schema keyword: an annotation, it accepts and refuses nothing)")
        return
    old_t, new_t = _accepted(site.old_s, c.old_nullable), _accepted(site.new_s, c.new_nullable)
    where = site.where
    shown_old, shown_new = _shown(site.old_s, c.old_nullable), _shown(site.new_s, c.new_nullable)
    side = "new" if isinstance(site.new_s, Mapping) and "type" in site.new_s else "old"

    def report(name: str, message: str, hint: str | None = None) -> None:
        site.c.emit(name, (*site.tokens, "type"), message, side=side, hint=hint, before=shown_old, after=shown_new)

    if old_t == new_t:
        report(
            "metadata-changed",
            f"type of `{where}` is written differently "
            f"({fmt(shown_old)} -> {fmt(shown_new)}) but accepts the same values",
        )
    elif new_t < old_t:
        report(
            "type-narrowed",
            f"`{where}` no longer accepts {', '.join(sorted(old_t - new_t))} "
            f"({fmt(shown_old)} -> {fmt(shown_new)})",
            "calls sending the dropped types are refused now",
        )
    elif new_t > old_t:
        report("type-widened", f"`{where}` now also accepts {', '.join(sorted(new_t - old_t))}")
    else:
        report(
            "type-changed",
            f"type of `{where}` changed from {fmt(shown_old)} to {fmt(shown_new)}",
            "calls with the old type are refused now",
        )
