"""SD106 additional-properties-closed and SD206 additional-properties-opened (SD107/SD207 when
undeclared keys gain or lose a schema, SD111 otherwise); SD213 closed-for-strict when the closing is
the one a strict target requires of an object that declares its keys. Keywords: ``additionalProperties``
(draft-07 section 6.5.6) and ``unevaluatedProperties`` (2020-12 Core section 11.3).
"""

from __future__ import annotations

from collections.abc import Mapping

from schemalint.diff.checks._common import Site, closedness, fmt


def matches(keyword: str) -> bool:
    """``additionalProperties`` and ``unevaluatedProperties``."""
    return keyword in ("additionalProperties", "unevaluatedProperties")


IN_PLACE = frozenset(("allOf", "anyOf", "oneOf", "$ref", "if", "then", "else", "dependentSchemas", "dependencies",
                      "not", "unevaluatedProperties"))
"""Keywords whose subschemas declare keys of the same object (Core 2020-12 section 10.2), which
``additionalProperties: false`` does not see: closing such an object refuses what they declare."""


def closed_for_strict(site: Site) -> bool:
    """Whether the change closes, for a strict target, an object that declares its keys: the tool is
    strict-decoded (the classifier's ``strict``), ``additionalProperties``
    went from open (absent, ``true``, ``{}``) to ``false``, and the object declares non-empty
    ``properties`` and no in-place applicator (:data:`IN_PLACE`). Strict decoding sends only declared
    keys, and the provider refuses an open object in strict mode, so no call the model can send is
    refused: the change ``check --fix`` makes for such a target (SL307, a safe fix)."""
    new_s = site.new_s
    return (site.c.strict and site.keyword == "additionalProperties" and closedness(site.old_v) == "open"
            and site.new_v is False and isinstance(new_s, Mapping) and isinstance(new_s.get("properties"), Mapping)
            and bool(new_s["properties"]) and not IN_PLACE & new_s.keys())


def check(site: Site) -> None:
    """Classify by openness: open (absent, true, {}), closed (false) or a schema."""
    before, after = closedness(site.old_v), closedness(site.new_v)
    where, keyword = site.where, site.keyword
    if closed_for_strict(site):
        site.report(
            "closed-for-strict",
            f"`{where}` now refuses keys it does not declare (`{keyword}`: {fmt(site.old_v)} -> false), as strict "
            "mode requires; strict decoding sends only declared keys",
            hint="a caller outside strict decoding that sends an undeclared key is now refused",
        )
    elif after == "closed" and before != "closed":
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
