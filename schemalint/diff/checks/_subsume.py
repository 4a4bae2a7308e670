"""Whether one schema admits every instance another admits: a sound, incomplete test.

A union reduced to one schema, or a branch dropped from a union, refuses nothing more when what
is left admits every value the dropped branch did. :func:`admits` answers yes only when that
follows keyword by keyword (JSON Schema 2020-12 Core section 10: each assertion keyword is
evaluated on its own, so a schema whose every assertion the narrower one also makes, as strictly,
admits all it admits); anything it cannot judge is no.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.diff.checks._common import canonical

NOT_ASSERTIONS = frozenset({
    "description", "title", "examples", "example", "default", "$comment", "deprecated", "readOnly",
    "writeOnly", "$schema", "$id", "$anchor", "$defs", "definitions",
})
"""Keywords that constrain no instance (annotations and identifiers; ``$defs`` only holds what a
``$ref`` names, and a ``$ref`` is compared as written)."""

ADJACENT = ("properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "items",
            "prefixItems", "additionalItems", "unevaluatedItems", "$ref", "allOf", "anyOf", "oneOf", "if",
            "then", "else", "dependentSchemas", "contains")
"""Keywords whose meaning depends on their siblings (``additionalProperties`` on ``properties``
and ``patternProperties``, ``unevaluated*`` on every applicator): a schema that holds one of the
sibling-dependent ones is compared with all of these alike."""

_SIBLING_DEPENDENT = frozenset({"additionalProperties", "unevaluatedProperties", "additionalItems",
                                "unevaluatedItems"})


def _types(schema: Mapping[str, Any]) -> set[str] | None:
    t = schema.get("type")
    if isinstance(t, str):
        return {t}
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return set(t)
    return None


def admits(wider: Any, narrower: Any) -> bool:
    """Whether every instance valid against ``narrower`` is valid against ``wider`` (both parsed
    schemas), as far as keyword-by-keyword comparison shows: ``wider``'s ``type`` holds every type
    of ``narrower``'s (``integer`` within ``number``), its ``required`` names only names
    ``narrower`` requires, its ``enum`` holds every value of ``narrower``'s, and each other
    assertion of ``wider`` is in ``narrower`` with the same value. ``False`` when unsure (a boolean
    schema other than ``true`` on the wider side, a sibling-dependent keyword whose siblings
    differ, a keyword ``narrower`` lacks). Never raises."""
    if wider is True or (isinstance(wider, Mapping) and not wider):
        return True
    if not isinstance(wider, Mapping) or not isinstance(narrower, Mapping):
        return False
    if any(k in _SIBLING_DEPENDENT for k in wider):
        for k in ADJACENT:
            if (k in wider) != (k in narrower) or (k in wider and canonical(wider[k]) != canonical(narrower[k])):
                return False
    for key, value in wider.items():
        if key in NOT_ASSERTIONS:
            continue
        if key == "type":
            mine, theirs = _types(wider), _types(narrower)
            if mine is None or theirs is None:
                return False
            if not all(t in mine or (t == "integer" and "number" in mine) for t in theirs):
                return False
        elif key == "required":
            needed = narrower.get("required")
            if not isinstance(value, list) or not isinstance(needed, list) or not set(map(str, value)) <= set(
                    map(str, needed)):
                return False
        elif key == "enum":
            allowed = narrower.get("enum")
            if not isinstance(value, list) or not isinstance(allowed, list):
                return False
            mine_values = {canonical(v) for v in value}
            if not all(canonical(v) in mine_values for v in allowed):
                return False
        elif key not in narrower or canonical(narrower[key]) != canonical(value):
            return False
    return True
