"""JSON Schema utilities: walking, object shapes, dialects, draft-07 rendering -- and the
vocabulary: the JSON Schema keywords that hold subschemas, one table read by every walker and rule.

The table lives in the package itself (not a module of its own) so that reading it costs no
extra import at start-up; modules read it as ``import schemalint.schema as vocabulary``.

:data:`SUBSCHEMA_KEYWORDS` says, per keyword, what shape its value takes (one subschema, an
array of subschemas, a map of names to subschemas), which instance its subschemas apply to,
and in which drafts the keyword exists. The walkers (:mod:`schemalint.schema.walk`,
:mod:`schemalint.schema.index`), the draft-07 renderer (:mod:`schemalint.schema.draft7`),
the schema rules and the diff checks read the groups below, which are derived from it.

Sources: JSON Schema Core and Validation, draft-04 to 2020-12 (``items`` with an array value
and ``additionalItems``/``dependencies``/``definitions`` up to draft 2019-09/draft-07;
``prefixItems`` from 2020-12; ``$defs``, ``dependentSchemas``, ``unevaluated*`` and
``contentSchema`` from 2019-09).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

ONE, ARRAY, MAP = "one", "array", "map"
"""Value kinds: one subschema, an array of subschemas, an object mapping names to subschemas."""


class Keyword(NamedTuple):
    """One row of :data:`SUBSCHEMA_KEYWORDS`.

    ``kinds``: the value kinds the keyword takes (``items`` is one subschema, or an array of
    them up to draft 2019-09). ``instance``: what its subschemas apply to -- ``"same"`` (the
    instance itself), ``"named"`` (the member with the entry's name), ``"any"`` (any member
    not otherwise named: additional/pattern/unevaluated/contained), ``"item"`` (an array item
    by position), ``"keys"`` (the property names), ``"none"`` (nothing: definitions, decoded
    content). ``conditional``: the subschema constrains the instance without declaring its
    shape (it is tested or applies only sometimes). ``tested``: the instance need not
    satisfy it (``if``, ``not``). ``walked``: the schema walkers descend into it. ``drafts``:
    where the keyword is defined (documentation)."""

    kinds: tuple[str, ...]
    instance: str
    conditional: bool = False
    tested: bool = False
    walked: bool = True
    drafts: str = "all"


SUBSCHEMA_KEYWORDS: dict[str, Keyword] = {
    "properties": Keyword((MAP,), "named"),
    "patternProperties": Keyword((MAP,), "any"),
    "additionalProperties": Keyword((ONE,), "any"),
    "unevaluatedProperties": Keyword((ONE,), "any", drafts="2019-09+"),
    "items": Keyword((ONE, ARRAY), "item", drafts="all (array form up to 2019-09)"),
    "prefixItems": Keyword((ARRAY,), "item", drafts="2020-12"),
    "additionalItems": Keyword((ONE,), "any", drafts="up to 2019-09"),
    "unevaluatedItems": Keyword((ONE,), "any", drafts="2019-09+"),
    "contains": Keyword((ONE,), "any", conditional=True, drafts="06+"),
    "propertyNames": Keyword((ONE,), "keys", conditional=True, drafts="06+"),
    "allOf": Keyword((ARRAY,), "same"),
    "anyOf": Keyword((ARRAY,), "same"),
    "oneOf": Keyword((ARRAY,), "same"),
    "not": Keyword((ONE,), "same", conditional=True, tested=True),
    "if": Keyword((ONE,), "same", conditional=True, tested=True, drafts="07+"),
    "then": Keyword((ONE,), "same", conditional=True, drafts="07+"),
    "else": Keyword((ONE,), "same", conditional=True, drafts="07+"),
    "dependentSchemas": Keyword((MAP,), "same", conditional=True, drafts="2019-09+"),
    "dependencies": Keyword((MAP,), "same", conditional=True, drafts="up to 07 (values: schema or names)"),
    "$defs": Keyword((MAP,), "none", drafts="2019-09+"),
    "definitions": Keyword((MAP,), "none", drafts="up to 07"),
    "contentSchema": Keyword((ONE,), "none", walked=False, drafts="2019-09+"),
}
"""Every keyword whose value holds subschemas, with its row (:class:`Keyword`)."""

_ROWS = SUBSCHEMA_KEYWORDS

SINGLE = frozenset(k for k, r in _ROWS.items() if ONE in r.kinds and r.walked)
"""Walked keywords whose value may be one subschema."""
ARRAYS = frozenset(k for k, r in _ROWS.items() if ARRAY in r.kinds and r.walked)
"""Walked keywords whose value may be an array of subschemas."""
MAPS = frozenset(k for k, r in _ROWS.items() if MAP in r.kinds and r.walked)
"""Walked keywords whose value maps names to subschemas."""
WALKED = SINGLE | ARRAYS | MAPS
"""Every keyword the schema walkers descend into."""
SUBSCHEMA_VALUED = frozenset(k for k, r in _ROWS.items() if ONE in r.kinds or ARRAY in r.kinds)
"""Keywords whose value is a subschema or an array of them, walked or not (``contentSchema``)."""
CONDITIONAL = frozenset(k for k, r in _ROWS.items() if r.conditional)
"""Keywords whose subschemas constrain an instance without declaring its shape."""
SAME_INSTANCE = frozenset(k for k, r in _ROWS.items() if r.instance == "same")
"""Keywords whose subschemas apply to the same instance as their parent."""
ANY_MEMBER = frozenset(k for k, r in _ROWS.items() if r.instance == "any")
"""Keywords whose subschemas apply to any member not otherwise named (instance path ``*``)."""
NO_INSTANCE = frozenset(k for k, r in _ROWS.items() if r.walked and (r.instance in ("none", "keys") or r.tested))
"""Walked keywords under which a subschema governs no instance path of its own."""
UNION = ("anyOf", "oneOf", "allOf")

TYPE_ALIASES: dict[str, str] = {
    "dict": "object", "float": "number", "double": "number", "int": "integer", "long": "integer",
    "bool": "boolean", "list": "array", "tuple": "array", "str": "string",
}
"""Programming-language type names that tool datasets (BFCL, ACEBench, Gorilla) write for ``type``
(lower-cased) -> the JSON Schema type they mean: what SL314's safe fix renames them to, and what
``schemalint diff`` reads them as, so the rename is no type change."""
"""The composition keywords, in the order the walkers and rules consider them."""
DEFINITIONS = ("$defs", "definitions")
"""Where reusable subschemas are defined (2019-09+ and up to draft-07)."""


# ---------------------------------------------------------------- keyword values, read defensively
# A schema is data from the user: `required` may hold an object, `type` a nested array, `properties`
# a string. Rules read these keywords through the accessors below, which give what the keyword
# means when it is well formed and nothing when it is not (SL001 reports the malformed value).


def required_names(schema: object) -> list[str]:
    """The string entries of ``schema``'s ``required`` array, in order, each once (``[]`` when
    ``schema`` is not a dict, has no ``required``, or ``required`` is not an array). Entries that
    are not strings (an object, an array: unhashable) are skipped, never hashed."""
    if not isinstance(schema, Mapping):
        return []
    req = schema.get("required")
    if not isinstance(req, list):
        return []
    return list(dict.fromkeys(r for r in req if isinstance(r, str)))


def type_names(schema: object) -> tuple[str, ...]:
    """``schema``'s ``type`` as a tuple of its string names (``()`` when absent or malformed:
    a number, an object, an array holding non-strings keeps only its strings)."""
    if not isinstance(schema, Mapping):
        return ()
    t = schema.get("type")
    if isinstance(t, str):
        return (t,)
    if isinstance(t, list):
        return tuple(x for x in t if isinstance(x, str))
    return ()
