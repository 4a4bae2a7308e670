"""Schemas no value can satisfy: which subschema admits no JSON instance, and why.

:func:`why_empty` answers for one subschema (a dict or a boolean schema) whether *no* JSON
value is valid against it, and if so names the keyword that makes it so. It reads the
subschema together with its conjuncts (``allOf`` members and local ``$ref`` targets, read in
place; the ``$ref`` siblings are ignored under a declared draft-04/06/07 ``$schema``, as those
drafts say) and computes an over-approximation of the values it admits:

- the JSON kinds left by ``type`` (``number`` = integers and fractions, ``integer`` = integers;
  OpenAPI ``nullable: true`` adds ``null``), intersected over the conjuncts and with the kinds
  the ``anyOf``/``oneOf`` branches admit;
- numbers removed when ``minimum``/``exclusiveMinimum`` exceed ``maximum``/``exclusiveMaximum``
  (draft-04 boolean ``exclusive*`` understood), integers when the range holds none;
- strings removed when ``minLength > maxLength``; arrays when ``minItems > maxItems``, when
  ``minItems >= 1`` with ``items: false`` (every item refused), or when ``minItems`` exceeds the
  positions of a closed tuple, read in the schema's dialect: 2020-12 ``prefixItems`` with
  ``items: false``, draft-04 to 2019-09 an array ``items`` with ``additionalItems: false`` (Core
  2020-12 section 10.3.1.1-2, draft-07 Validation section 6.4.1-2). A ``prefixItems`` is read as
  the tuple its author wrote unless the schema declares a draft-0x ``$schema`` (a draft-07
  validator ignores it, and an ``items: false`` beside it then refuses every item): pydantic v2
  writes ``prefixItems`` without ``$schema`` in every format; an array ``items`` is a tuple only
  in the dialects that have one (in 2020-12 it is invalid: SL001); objects when
  ``minProperties > maxProperties``, when
  more distinct names are required than ``maxProperties`` allows, or when a required property's
  subschema admits nothing (``false``, or any of these reasons below it);
- ``const`` and ``enum`` intersected (JSON equality: ``1`` equals ``1.0``, ``true`` is not ``1``)
  and filtered by the kinds, numeric bounds and lengths above;
- ``not: {}`` / ``not: true`` and a ``false`` conjunct admit nothing.

Every step only removes values that are certainly invalid, so a schema reported empty is empty;
a schema this module cannot judge (``multipleOf``, ``pattern``, ``if``/``then``, ``contains``,
``uniqueItems`` ...) is taken to admit values. The walk is bounded (:data:`BUDGET` subschemas
per question, cyclic ``$ref`` chains cut), never raises on broken schemas, and never fetches.

Sources: JSON Schema Validation 2020-12 §6.1-6.5 (draft-07 §6.1-6.5 say the same), Core
2020-12 §10.2.1 (``allOf``, ``anyOf``, ``oneOf``, ``not``) and §4.3.2 (boolean schemas); the
same check for OpenAPI in oasdiff (its "schema is unsatisfiable" check, 2026).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from schemalint.model import escape_token
from schemalint.schema.walk import resolve_local_ref

__all__ = ["BUDGET", "Empty", "accepts_nothing", "value_kind", "why_empty", "written_pointer"]

BUDGET = 2_000
"""Subschemas read for one question at most; beyond it the schema is taken to admit values."""

_MAX_DEPTH = 60
"""Nested subschemas followed for one question at most (deeper ones are taken to admit values)."""

_ALL = frozenset({"null", "boolean", "object", "array", "string", "integer", "fraction"})
_TYPE_KINDS: dict[str, frozenset[str]] = {
    "null": frozenset({"null"}),
    "boolean": frozenset({"boolean"}),
    "object": frozenset({"object"}),
    "array": frozenset({"array"}),
    "string": frozenset({"string"}),
    "integer": frozenset({"integer"}),
    "number": frozenset({"integer", "fraction"}),
}


@dataclass(frozen=True)
class Empty:
    """Why a subschema admits no value.

    ``pointer``: JSON pointer, relative to the subschema asked about, of the keyword or
    subschema that causes it (``/enum``, ``/maximum``, ``/allOf/1/type``, ``/properties/id``).
    ``reason``: one sentence saying why (no trailing period).
    ``inherited``: the cause is a *dict* subschema below (an ``allOf`` member, a required
    property's schema, every ``anyOf`` branch) that is empty on its own, so a report belongs
    there, not here.
    """

    pointer: str
    reason: str
    inherited: bool = False


def value_kind(value: Any) -> str:
    """The kind of a JSON value: ``null``, ``boolean``, ``object``, ``array``, ``string``,
    ``integer`` (a number with no fractional part, ``1.0`` included) or ``fraction``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if math.isfinite(value) and value.is_integer() else "fraction"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object"


def _key(value: Any) -> Any:
    """A hashable key with JSON equality (``1 == 1.0``, ``True != 1``)."""
    kind = value_kind(value)
    if kind in ("integer", "fraction"):
        return ("n", float(value) if kind == "fraction" else int(value))
    if kind == "array":
        return ("a", tuple(_key(v) for v in value))
    if kind == "object":
        try:
            return ("o", frozenset((k, _key(v)) for k, v in value.items()))
        except (AttributeError, TypeError):
            return ("x", id(value))
    return (kind, value)


def _show_kinds(kinds: frozenset[str]) -> str:
    names = set(kinds)
    if {"integer", "fraction"} <= names:
        names -= {"integer", "fraction"}
        names.add("number")
    elif "fraction" in names:
        names.discard("fraction")
        names.add("non-integer number")
    return " or ".join(sorted(names)) if names else "nothing"


def _type_kinds(schema: Mapping[str, Any]) -> frozenset[str] | None:
    t = schema.get("type")
    names = [t] if isinstance(t, str) else t if isinstance(t, list) and t else None
    if names is None:
        return None
    out: set[str] = set()
    for name in names:
        kinds = _TYPE_KINDS.get(name) if isinstance(name, str) else None
        if kinds is None:
            return None  # a type this module does not know: do not judge
        out |= kinds
    if schema.get("nullable") is True:
        out.add("null")
    return frozenset(out)


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def _count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


class _Facts:
    """What the conjuncts of one subschema say together, with where each fact was written."""

    def __init__(self) -> None:
        self.kinds = _ALL
        self.kinds_from: list[tuple[str, frozenset[str]]] = []
        self.lo: float | None = None
        self.lo_excl = False
        self.lo_at = ""
        self.hi: float | None = None
        self.hi_excl = False
        self.hi_at = ""
        self.len_lo: tuple[int, str] | None = None
        self.len_hi: tuple[int, str] | None = None
        self.items_lo: tuple[int, str] | None = None
        self.items_hi: tuple[int, str] | None = None
        self.items_false: str | None = None
        self.items_closed: tuple[int, str] | None = None
        self.props_lo: tuple[int, str] | None = None
        self.props_hi: tuple[int, str] | None = None
        self.required: dict[str, str] = {}
        self.properties: dict[str, list[tuple[Any, str]]] = {}
        self.values: list[Any] | None = None
        self.values_from: list[str] = []
        self.empty: Empty | None = None

    def lower(self, value: float, excl: bool, at: str) -> None:
        if self.lo is None or value > self.lo or (value == self.lo and excl and not self.lo_excl):
            self.lo, self.lo_excl, self.lo_at = value, excl, at

    def upper(self, value: float, excl: bool, at: str) -> None:
        if self.hi is None or value < self.hi or (value == self.hi and excl and not self.hi_excl):
            self.hi, self.hi_excl, self.hi_at = value, excl, at


class _Reader:
    def __init__(self, root: Any, budget: int, dialect: str | None = None) -> None:
        self.root = root
        self.budget = budget
        declared = root.get("$schema") if isinstance(root, Mapping) else None
        self.old_draft = isinstance(declared, str) and "/draft-0" in declared
        if dialect is None:
            dialect = "draft-07" if self.old_draft else "2020-12"
        self.old_tuples = dialect in ("draft-04", "draft-06", "draft-07", "2019-09")

    # -- one subschema -----------------------------------------------------------------

    def empty(self, schema: Any, refs: tuple[str, ...], depth: int) -> Empty | None:
        if schema is False:
            return Empty("", "the schema is `false`")
        if not isinstance(schema, Mapping) or depth > _MAX_DEPTH:
            return None
        self.budget -= 1
        if self.budget <= 0:
            return None
        facts = _Facts()
        self._gather(facts, schema, "", refs, depth)
        if facts.empty is not None:
            return facts.empty
        return self._decide(facts, refs, depth)

    def kinds(self, schema: Any, refs: tuple[str, ...], depth: int) -> frozenset[str]:
        """Over-approximation of the kinds ``schema`` admits (empty when it admits nothing)."""
        if schema is False:
            return frozenset()
        if not isinstance(schema, Mapping) or depth > _MAX_DEPTH or self.budget <= 0:
            return _ALL
        self.budget -= 1
        facts = _Facts()
        self._gather(facts, schema, "", refs, depth)
        if facts.empty is not None or self._decide(facts, refs, depth) is not None:
            return frozenset()
        return self._remaining(facts)[0]

    def _gather(self, facts: _Facts, schema: Mapping[str, Any], at: str, refs: tuple[str, ...],
                depth: int) -> None:
        """Add ``schema`` (at ``at``) and its conjuncts to ``facts``."""
        if facts.empty is not None or self.budget <= 0 or depth > _MAX_DEPTH:
            return
        self.budget -= 1
        ref = schema.get("$ref")
        if isinstance(ref, str):
            if ref in refs:
                return  # a cycle: what the first visit said stands
            found, target, _ = resolve_local_ref(self.root, ref)
            if found:
                if target is False:
                    facts.empty = Empty(f"{at}/$ref", f"`$ref` points to a `false` schema ({ref})")
                    return
                if isinstance(target, Mapping):
                    inner = self.empty(target, (*refs, ref), depth + 1)
                    if inner is not None:  # reported where the target is written
                        facts.empty = Empty(f"{at}/$ref", f"`$ref` points to a schema that admits no value ({ref}: "
                                            f"{inner.reason})", inherited=True)
                        return
                    self._gather(facts, target, f"{at}/$ref", (*refs, ref), depth + 1)
            if self.old_draft:
                return  # draft-07 and older: the siblings of `$ref` are ignored
        self._own(facts, schema, at, refs, depth)
        all_of = schema.get("allOf")
        if isinstance(all_of, list):
            for i, member in enumerate(all_of):
                where = f"{at}/allOf/{i}"
                if member is False:
                    facts.empty = Empty(where, "an `allOf` member is `false`")
                    return
                if isinstance(member, Mapping):
                    inner = self.empty(member, refs, depth + 1)
                    if inner is not None:
                        facts.empty = Empty(where + inner.pointer, inner.reason, inherited=True)
                        return
                    self._gather(facts, member, where, refs, depth + 1)

    def _own(self, facts: _Facts, schema: Mapping[str, Any], at: str, refs: tuple[str, ...], depth: int) -> None:
        if "not" in schema:
            negated = schema["not"]
            if negated is True or (isinstance(negated, Mapping) and not negated):
                facts.empty = Empty(f"{at}/not", "`not` of a schema that admits everything admits nothing")
                return
        kinds = _type_kinds(schema)
        if kinds is not None:
            facts.kinds = facts.kinds & kinds
            facts.kinds_from.append((f"{at}/type", kinds))
        for kw in ("anyOf", "oneOf"):
            branches = schema.get(kw)
            if isinstance(branches, list) and branches:
                union: frozenset[str] = frozenset()
                for branch in branches:
                    union = union | self.kinds(branch, refs, depth + 1)
                    if union == _ALL:
                        break
                if not union:
                    inherited = all(isinstance(b, Mapping) for b in branches)
                    facts.empty = Empty(f"{at}/{kw}", f"no `{kw}` branch admits a value", inherited=inherited)
                    return
                if union != _ALL:
                    facts.kinds = facts.kinds & union
                    facts.kinds_from.append((f"{at}/{kw}", union))
        self._bounds(facts, schema, at)
        self._values(facts, schema, at)
        self._object(facts, schema, at)

    def _bounds(self, facts: _Facts, schema: Mapping[str, Any], at: str) -> None:
        minimum, maximum = _num(schema.get("minimum")), _num(schema.get("maximum"))
        ex_min, ex_max = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
        if minimum is not None:
            facts.lower(minimum, ex_min is True, f"{at}/minimum")
        if maximum is not None:
            facts.upper(maximum, ex_max is True, f"{at}/maximum")
        low, high = _num(ex_min), _num(ex_max)
        if low is not None:
            facts.lower(low, True, f"{at}/exclusiveMinimum")
        if high is not None:
            facts.upper(high, True, f"{at}/exclusiveMaximum")
        for kw, slot, low in (("minLength", "len_lo", True), ("maxLength", "len_hi", False),
                              ("minItems", "items_lo", True), ("maxItems", "items_hi", False),
                              ("minProperties", "props_lo", True), ("maxProperties", "props_hi", False)):
            n = _count(schema.get(kw))
            if n is None:
                continue
            old = getattr(facts, slot)
            if old is None or (n > old[0] if low else n < old[0]):
                setattr(facts, slot, (n, f"{at}/{kw}"))
        items, prefix = schema.get("items"), schema.get("prefixItems")
        if isinstance(items, list):
            if self.old_tuples and schema.get("additionalItems") is False:
                self._closed(facts, len(items), f"{at}/additionalItems")
        elif isinstance(prefix, list) and not self.old_draft:
            if items is False:
                self._closed(facts, len(prefix), f"{at}/items")
        elif items is False:
            facts.items_false = f"{at}/items"

    @staticmethod
    def _closed(facts: _Facts, positions: int, at: str) -> None:
        if facts.items_closed is None or positions < facts.items_closed[0]:
            facts.items_closed = (positions, at)

    def _values(self, facts: _Facts, schema: Mapping[str, Any], at: str) -> None:
        for kw in ("const", "enum"):
            if kw not in schema:
                continue
            if kw == "const":
                given = [schema["const"]]
            elif isinstance(schema["enum"], list):
                given = list(schema["enum"])
            else:
                continue
            where = f"{at}/{kw}"
            if facts.values is None:
                facts.values = given
            else:
                keys = {_key(v) for v in given}
                kept = [v for v in facts.values if _key(v) in keys]
                if not kept:
                    before = " and ".join(f"`{p[1:] or '(root)'}`" for p in facts.values_from)
                    facts.empty = Empty(where, f"no value is allowed by both {before} and `{where[1:]}`")
                    return
                facts.values = kept
            facts.values_from.append(where)
            if not facts.values:
                facts.empty = Empty(where, "`enum` is empty")
                return

    def _object(self, facts: _Facts, schema: Mapping[str, Any], at: str) -> None:
        req = schema.get("required")
        if isinstance(req, list):
            for i, name in enumerate(req):
                if isinstance(name, str) and name not in facts.required:
                    facts.required[name] = f"{at}/required/{i}"
        props = schema.get("properties")
        if isinstance(props, Mapping):
            for name, sub in props.items():
                if isinstance(name, str):
                    facts.properties.setdefault(name, []).append(
                        (sub, f"{at}/properties/{escape_token(name)}"))

    # -- the verdict ---------------------------------------------------------------------

    def _remaining(self, facts: _Facts) -> tuple[frozenset[str], dict[str, tuple[str, str]]]:
        """The kinds left after the bounds, and why each removed kind went (kind -> (pointer, reason))."""
        kinds = set(facts.kinds)
        gone: dict[str, tuple[str, str]] = {}
        lo, hi = facts.lo, facts.hi
        if lo is not None and hi is not None and kinds & {"integer", "fraction"}:
            low_kw = "exclusiveMinimum" if facts.lo_excl else "minimum"
            high_kw = "exclusiveMaximum" if facts.hi_excl else "maximum"
            no_number = lo > hi or (lo == hi and (facts.lo_excl or facts.hi_excl))
            if no_number:
                why = (f"`{low_kw}` {_fmt(lo)} is above `{high_kw}` {_fmt(hi)}" if lo > hi
                       else f"`{low_kw}` {_fmt(lo)} and `{high_kw}` {_fmt(hi)} leave no number between them")
                for k in ("integer", "fraction"):
                    if k in kinds:
                        kinds.discard(k)
                        gone[k] = (facts.lo_at if facts.lo_at else facts.hi_at, why)
            else:
                first = math.floor(lo) + 1 if facts.lo_excl and float(lo).is_integer() else math.ceil(lo)
                last = math.ceil(hi) - 1 if facts.hi_excl and float(hi).is_integer() else math.floor(hi)
                if "integer" in kinds and first > last:
                    kinds.discard("integer")
                    gone["integer"] = (facts.lo_at, f"no integer lies between `{low_kw}` {_fmt(lo)} and "
                                                    f"`{high_kw}` {_fmt(hi)}")
                if "fraction" in kinds and lo == hi and float(lo).is_integer():
                    kinds.discard("fraction")
        for kind, low, high, what in (("string", facts.len_lo, facts.len_hi, "Length"),
                                      ("array", facts.items_lo, facts.items_hi, "Items"),
                                      ("object", facts.props_lo, facts.props_hi, "Properties")):
            if kind in kinds and low is not None and high is not None and low[0] > high[0]:
                kinds.discard(kind)
                gone[kind] = (low[1], f"`min{what}` {low[0]} is above `max{what}` {high[0]}")
        closed = facts.items_closed
        if "array" in kinds and closed is not None and facts.items_lo is not None and facts.items_lo[0] > closed[0]:
            kinds.discard("array")
            keyword = closed[1].rsplit("/", 1)[-1]
            gone["array"] = (closed[1], f"the tuple is closed after {closed[0]} item(s) (`{keyword}: false`) "
                                        f"but `minItems` is {facts.items_lo[0]}")
        if "array" in kinds and facts.items_false and facts.items_lo is not None and facts.items_lo[0] >= 1:
            kinds.discard("array")
            gone["array"] = (facts.items_false, f"`items: false` admits no item but `minItems` is {facts.items_lo[0]}")
        if "object" in kinds and facts.props_hi is not None and len(facts.required) > facts.props_hi[0]:
            kinds.discard("object")
            gone["object"] = (facts.props_hi[1], f"{len(facts.required)} properties are required but "
                                                 f"`maxProperties` is {facts.props_hi[0]}")
        return frozenset(kinds), gone

    def _decide(self, facts: _Facts, refs: tuple[str, ...], depth: int) -> Empty | None:
        kinds, gone = self._remaining(facts)
        dead = self._dead_required(facts, refs, depth) if "object" in kinds and facts.required else None
        if dead is not None:
            name, sub, where, inner = dead
            nested = isinstance(sub, Mapping)
            reason = f"the required property `{name}` admits no value" + (
                f": {inner.reason}" if nested else " (its schema is `false`)")
            if kinds == {"object"}:
                return Empty(where + inner.pointer if nested else where, reason, inherited=nested)
            kinds = kinds - {"object"}  # a value of another kind still passes
            gone["object"] = (where, reason)
        if facts.values is not None:
            return self._values_verdict(facts, kinds, gone)
        if kinds:
            return None
        if gone:
            # what removed the last kinds: prefer the declared kind's own reason
            for kind in ("integer", "fraction", "string", "array", "object"):
                if kind in gone:
                    return Empty(*gone[kind])
        where = facts.kinds_from[-1][0] if facts.kinds_from else ""
        shown = " and ".join(f"`{p[1:]}` ({_show_kinds(k)})" for p, k in facts.kinds_from)
        return Empty(where, f"{shown} admit no common value")

    def _dead_required(self, facts: _Facts, refs: tuple[str, ...],
                       depth: int) -> tuple[str, Any, str, Empty] | None:
        for name in facts.required:
            for sub, where in facts.properties.get(name, ()):
                inner = self.empty(sub, refs, depth + 1)
                if inner is not None:
                    return name, sub, where, inner
        return None

    def _values_verdict(self, facts: _Facts, kinds: frozenset[str], gone: dict[str, tuple[str, str]]) -> Empty | None:
        values = facts.values or []
        where = facts.values_from[-1]
        kw = where.rsplit("/", 1)[-1]
        fitting = [v for v in values if value_kind(v) in kinds and self._fits(facts, v)]
        if fitting:
            return None
        declared = bool(facts.kinds_from) and facts.kinds != _ALL
        if declared and not any(value_kind(v) in facts.kinds for v in values):
            shown = ", ".join(_short(v) for v in values[:3]) + (", ..." if len(values) > 3 else "")
            what = f"the `const` value {shown} is not" if kw == "const" else f"no `enum` value ({shown}) is"
            return Empty(where, f"{what} of type {_show_kinds(facts.kinds)}")
        if gone:
            reasons = "; ".join(sorted({r for _, r in gone.values()}))
            return Empty(where, f"no `{kw}` value satisfies the other constraints ({reasons})")
        return Empty(where, f"no `{kw}` value satisfies the bounds and lengths written beside it")

    def _fits(self, facts: _Facts, value: Any) -> bool:
        kind = value_kind(value)
        if kind in ("integer", "fraction"):
            x = float(value)
            if facts.lo is not None and (x < facts.lo or (facts.lo_excl and x == facts.lo)):
                return False
            return not (facts.hi is not None and (x > facts.hi or (facts.hi_excl and x == facts.hi)))
        if kind == "string":
            n = len(value)  # code points, as JSON Schema counts them
            if facts.len_lo is not None and n < facts.len_lo[0]:
                return False
            return not (facts.len_hi is not None and n > facts.len_hi[0])
        if kind == "array":
            if facts.items_lo is not None and len(value) < facts.items_lo[0]:
                return False
            return not (facts.items_hi is not None and len(value) > facts.items_hi[0])
        return True


def _short(value: Any) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e15 else repr(x)


def written_pointer(pointer: str) -> str:
    """``pointer`` cut at its first ``$ref`` step (``/items/$ref/enum`` -> ``/items/$ref``): a pointer
    :class:`Empty` builds through a reference names keywords of the target, not of the document."""
    head, sep, _ = pointer.partition("/$ref/")
    return head + "/$ref" if sep else pointer


def why_empty(schema: Any, root: Any = None, *, budget: int = BUDGET, dialect: str | None = None) -> Empty | None:
    """Why ``schema`` admits no JSON value, or ``None`` when it may admit some.

    ``schema``: a subschema (dict or boolean) of ``root`` (the document its local ``$ref``\\ s
    resolve against; ``schema`` itself when ``None``). ``dialect``: the dialect ``root`` is read in
    (a key of :data:`schemalint.schema.dialect.DIALECTS`; ``None``: draft-07 when ``root`` declares a
    draft-0x ``$schema``, else 2020-12), which decides how a tuple is spelled. Never raises on
    malformed schemas; the answer is ``None`` whenever the module cannot decide (see the module
    docstring).
    """
    reader = _Reader(schema if root is None else root, budget, dialect)
    return reader.empty(schema, (), 0)


def accepts_nothing(schema: Any, root: Any = None) -> bool:
    """True when :func:`why_empty` finds that ``schema`` admits no value."""
    return why_empty(schema, root) is not None
