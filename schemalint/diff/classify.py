"""Classify the differences between two advertised schemas into diff checks (SDxxx).

deepdiff finds *where* two normalised schemas differ
(:func:`~schemalint.diff.checks._common.diff_locations`); :class:`SchemaClassifier` resolves
each location to the schema object and the keyword that changed and hands it to the check
module of that keyword (:data:`SCHEMA_CHECKS`, one module per keyword group in
:mod:`schemalint.diff.checks`), which decides what the difference means for a caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from schemalint.diff.checks import (
    sd102_properties,
    sd103_required,
    sd104_type,
    sd105_enum,
    sd106_additional_properties,
    sd107_constraints,
    sd109_subschemas,
    sd111_schema_changed,
    sd210_default,
    sd212_metadata,
    sd301_text,
)
from schemalint.diff.checks._common import (
    MISSING,
    SET_KEYWORDS,
    TEXT_KEYWORDS,
    Classifier,
    Site,
    canonical,
    is_noop,
    normalise,
    resolve,
    same_meaning,
    shape_key,
    small,
)
from schemalint.diff.checks.sd107_constraints import pattern_widens
from schemalint.diff.result import Change

__all__ = [
    "MISSING", "SCHEMA_CHECKS", "SET_KEYWORDS", "SchemaClassifier", "canonical", "classify_schema",
    "is_noop", "normalise", "pattern_widens", "same_meaning", "shape_key", "small",
]

SCHEMA_CHECKS: tuple[ModuleType, ...] = (
    sd102_properties,
    sd103_required,
    sd104_type,
    sd105_enum,
    sd107_constraints,
    sd106_additional_properties,
    sd301_text,
    sd210_default,
    sd109_subschemas,
    sd212_metadata,
    sd111_schema_changed,
)
"""The schema check modules, in the order their ``matches(keyword)`` is asked; a keyword no
module claims is a validation keyword compared by :mod:`~schemalint.diff.checks.sd107_constraints`."""


class SchemaClassifier(Classifier):
    """Classify the differences between two schemas of one tool (arguments: see
    :class:`~schemalint.diff.checks._common.Classifier`): each changed keyword goes to the
    first module of :data:`SCHEMA_CHECKS` that claims it."""

    def classify(self, tokens: tuple[Any, ...], keyword: str | None, sub: Any) -> None:
        """Classify the change of ``keyword`` (``sub``) in the schema at ``tokens``."""
        if self._unreached(tokens):
            return
        if sd109_subschemas.flattened_union(self, tokens, keyword):
            return
        old_s, new_s = resolve(self.old, tokens), resolve(self.new, tokens)
        if keyword in ("anyOf", "oneOf") and sd109_subschemas.union_swap(self, tokens, old_s, new_s):
            return
        if (
            keyword not in TEXT_KEYWORDS
            and keyword != "default"
            and sd109_subschemas.union_shift(self, tokens, old_s, new_s)
        ):
            return
        if keyword is None:
            sd111_schema_changed.replaced(self, tokens, old_s, new_s)
            return
        old_v = old_s.get(keyword, MISSING) if isinstance(old_s, Mapping) else MISSING
        new_v = new_s.get(keyword, MISSING) if isinstance(new_s, Mapping) else MISSING
        site = Site(self, tokens, keyword, sub, old_s, new_s, old_v, new_v)
        module = next((m for m in SCHEMA_CHECKS if m.matches(keyword)), sd107_constraints)
        module.check(site)


    def _unreached(self, tokens: tuple[Any, ...]) -> bool:
        """A change inside a root ``$defs`` entry that no ``$ref`` reaches on either side: one SD212 per
        entry (:mod:`schemalint.diff.unreached`); True when ``tokens`` lie in such an entry."""
        if self.old_prefix or self.new_prefix or len(tokens) < 2 or tokens[0] != "$defs":
            return False
        if not hasattr(self, "unreached"):
            from schemalint.diff.unreached import unreached_definitions

            self.unreached = (unreached_definitions(self.old), unreached_definitions(self.new))
        name = tokens[1]
        old_def, new_def = resolve(self.old, tokens[:2]), resolve(self.new, tokens[:2])
        if (old_def is not MISSING and name not in self.unreached[0]) or (
                new_def is not MISSING and name not in self.unreached[1]):
            return False
        if (tokens[:2], "unreached") not in self.shifted:
            self.shifted[(tokens[:2], "unreached")] = True
            self.emit("metadata-changed", tokens[:2], f"definition `{name}` changed, but no `$ref` reached "
                      "from the root refers to it: it accepts and refuses nothing",
                      side="new" if new_def is not MISSING else "old", before=old_def, after=new_def)
        return True


def classify_schema(old: Any, new: Any, *, old_dialect: str | None = None, new_dialect: str | None = None,
                    **kwargs: Any) -> list[Change]:
    """Classify every difference between schemas ``old`` and ``new``; see :class:`SchemaClassifier`.

    ``old_dialect``/``new_dialect``: the dialect each side is read in (a key of
    :data:`schemalint.schema.dialect.DIALECTS`). When given, both sides are compared in the 2020-12
    spelling (:func:`schemalint.diff.dialects.to_2020`: a draft-07 tuple ``items: [...]`` is a
    ``prefixItems``, its ``additionalItems`` the rest ``items``) and each change is reported at the
    tokens its side's text holds; ``None`` compares the schemas as written."""
    if old_dialect is None and new_dialect is None:
        return SchemaClassifier(old, new, **kwargs).run()
    from schemalint.diff.dialects import to_2020

    od, nd = old_dialect or "2020-12", new_dialect or "2020-12"
    a, b = to_2020(old, od), to_2020(new, nd)
    if same_meaning(a, b):
        return []
    return SchemaClassifier(a, b, old_text=old, new_text=new, old_dialect=od, new_dialect=nd, **kwargs).run()
