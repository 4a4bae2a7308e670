"""Object shapes per instance path: what one side of a contract says about each location of a call.

A *shape* summarises every subschema that governs one instance location (a JSON pointer
into the call's arguments, ``*`` for any array element or any other property) in one
union branch: its types, its properties and required keys, what it does with undeclared
keys (``additionalProperties``, ``patternProperties``), the defaults of its properties and
its value constraints (``minimum``, ``maxLength``, ``pattern``, ``enum`` ...).

How the schema is read (:func:`shapes_of`):

- The schema is walked with :func:`schemalint.schema.walk.walk` (``follow_refs=True``,
  ``include_definitions=False``), so a local ``$ref`` is read as if written in place and
  ``$defs`` entries count only where they are used.
- ``allOf`` members and ``$ref`` targets are merged into the shape of the schema that
  holds them: required sets and properties are united, types intersected, numeric bounds
  tightened, and ``additionalProperties: false`` wins.
- ``anyOf``/``oneOf`` members are kept apart: each member is its own shape, keyed by its
  *branch*, the chain of ``(keyword, index)`` steps from the root (``allOf`` steps are
  dropped, since they merge). A branch shape also carries everything its enclosing shape
  says (an instance must satisfy both), so ``{"properties": {...}, "anyOf": [{"required":
  ["a"]}, {"required": ["b"]}]}`` gives two alternatives, each with all the properties.
- Subschemas under ``if``/``then``/``else``, ``dependencies``/``dependentSchemas``,
  ``not`` and ``propertyNames`` are conditional or negative and are left out.

:class:`ShapeMap` holds the result; :meth:`ShapeMap.alternatives` gives the shapes an
instance at a path may take (one per union branch). :func:`match` pairs the alternatives
of two sides (advertised and runtime, input and output) at one path: by branch key when
both sides have the same branches, else by best property overlap. :func:`pairs` does it
for every path either side knows.

Used by the contract rules (SL1xx) and by ``schemalint show``. Never raises on broken
schemas: non-dict values yield shapes that say nothing (``true``) or accept nothing
(``false``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import schemalint.schema as vocabulary
from schemalint.model import escape_token, split_pointer
from schemalint.schema.walk import ANY_INDEX, walk

__all__ = [
    "ABSENT",
    "CONSTRAINT_KEYWORDS",
    "Branch",
    "Shape",
    "ShapeMap",
    "ShapePair",
    "child_path",
    "display_path",
    "match",
    "normalize_path",
    "pairs",
    "parent_and_key",
    "shapes_of",
]

Branch = tuple[tuple[str, int], ...]
"""Union branch key: ``(("anyOf", 1), ("oneOf", 0))`` -- the anyOf/oneOf members taken from the root."""


class _Absent:
    """Sentinel type for "keyword not present" (distinct from ``None``, a valid default)."""

    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __bool__(self) -> bool:
        return False


ABSENT: Any = _Absent()
"""Marks a keyword that is not present (``Shape.additional``, ``Shape.default``)."""

CONSTRAINT_KEYWORDS = (
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "enum",
    "const",
)
"""Value constraints recorded in :attr:`Shape.constraints` (JSON Schema validation vocabulary)."""

_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_SKIP_KEYWORDS = vocabulary.CONDITIONAL - {"contains"}  # contains stays: it describes items
_ADDITIONAL_RANK = {"absent": 0, "true": 1, "schema": 2, "false": 3}


@dataclass
class Shape:
    """What one side says about one instance location in one union branch (treat as read-only).

    ``instance_path``: JSON pointer into the call's arguments (``""`` is the whole call).
    ``branch``: the anyOf/oneOf members taken to get here (``()`` outside any union).
    ``pointer``: schema pointer (relative to the walked root) of the first subschema that
    contributes; ``pointers`` lists all of them (``$ref`` targets and ``allOf`` members too).
    ``types``: the JSON types admitted (``None``: not restricted); ``never``: the location
    admits nothing (a ``false`` schema, or contradictory types).
    ``properties``: declared property name -> schema pointer of its subschema.
    ``required``: required property names; ``required_pointer``: where ``required`` is written.
    ``additional``: ``additionalProperties`` (or ``unevaluatedProperties`` when that is
    absent): ``ABSENT``, ``True``, ``False`` or a schema dict; ``additional_pointer``: its pointer.
    ``pattern_properties``: pattern -> schema pointer.
    ``default``: the location's own ``default`` (``ABSENT`` when none).
    ``property_defaults``: property name -> its default, for the properties that have one.
    ``constraints``: keyword -> value for :data:`CONSTRAINT_KEYWORDS` (merged: the tightest
    bound wins, ``enum`` lists are intersected); ``constraint_pointers``: keyword -> pointer.
    ``property_schemas``: property name -> the raw property subschema (booleans included).
    ``recursion_cut``: a recursive ``$ref`` was not unrolled here, so the shape is incomplete
    and must not be compared (its keys are those of an enclosing level).
    ``never_reason``: why the location admits nothing when ``never`` (a ``false`` schema,
    contradictory types, bounds or ``enum``/``const`` values: :mod:`schemalint.schema.satisfiable`).
    """

    instance_path: str
    branch: Branch
    pointer: str
    pointers: list[str] = field(default_factory=list)
    types: frozenset[str] | None = None
    never: bool = False
    properties: dict[str, str] = field(default_factory=dict)
    property_schemas: dict[str, Any] = field(default_factory=dict)
    required: set[str] = field(default_factory=set)
    required_pointer: str | None = None
    additional: Any = ABSENT
    additional_pointer: str | None = None
    pattern_properties: dict[str, str] = field(default_factory=dict)
    default: Any = ABSENT
    property_defaults: dict[str, Any] = field(default_factory=dict)
    constraints: dict[str, Any] = field(default_factory=dict)
    constraint_pointers: dict[str, str] = field(default_factory=dict)
    recursion_cut: bool = False
    never_reason: str | None = None

    # -- questions rules ask -------------------------------------------------------------

    @property
    def is_object(self) -> bool:
        """True when the location may hold an object and this shape says something about it."""
        if self.never:
            return False
        if self.types is not None:
            return "object" in self.types
        return bool(
            self.properties or self.required or self.additional is not ABSENT or self.pattern_properties
        )

    @property
    def admits_object(self) -> bool:
        """True when an object may stand here (types unrestricted or include ``object``), so that
        comparing properties and required keys with another side makes sense. False where a
        recursive ``$ref`` was cut: that shape is incomplete."""
        return not self.never and not self.recursion_cut and (self.types is None or "object" in self.types)

    def has_default(self, key: str) -> bool:
        """True when property ``key`` declares a ``default``."""
        return key in self.property_defaults

    def admits_extra(self, key: str) -> bool:
        """Whether an object at this location may carry the undeclared key ``key``.

        A matching ``patternProperties`` entry or an ``additionalProperties`` that is absent,
        ``true`` or a schema admits it (a schema admits *some* values); ``false`` refuses it.
        A declared property is not "extra": the answer is True for it.
        """
        if key in self.properties:
            return self.property_schemas.get(key) is not False
        if self.pattern_for(key) is not None:
            return True
        return self.additional is not False

    def pattern_for(self, key: str) -> str | None:
        """The first ``patternProperties`` pattern that matches ``key``, else ``None``.

        Run by :func:`schemalint.schema.patterns.search` (ECMA-262, linear time); a pattern it
        cannot decide (lookaround, backreference) counts as matching, so nothing is reported
        about the key; an invalid pattern never matches."""
        from schemalint.schema.patterns import search

        for pattern in self.pattern_properties:
            if search(pattern, key) is not False:
                return pattern
        return None

    def refuses_extra(self) -> bool:
        """True when undeclared keys are refused (``additionalProperties: false``)."""
        return self.additional is False

    def summary(self) -> dict[str, Any]:
        """A JSON-ready dict of this shape (for ``schemalint show --format json``)."""
        extra: Any = self.additional
        if extra is ABSENT:
            extra = None
        elif isinstance(extra, Mapping):
            extra = "schema"
        return {
            "instance_path": self.instance_path,
            "branch": [[k, i] for k, i in self.branch],
            "pointer": self.pointer,
            "types": sorted(self.types) if self.types is not None else None,
            "properties": list(self.properties),
            "required": sorted(self.required),
            "additionalProperties": extra,
            "patternProperties": list(self.pattern_properties),
            "defaults": dict(self.property_defaults),
            "constraints": dict(self.constraints),
        }


@dataclass(frozen=True)
class ShapePair:
    """One matched pair at ``instance_path``: a shape of each side, or ``None`` where that side
    has no shape at this path (e.g. a property only one side declares)."""

    instance_path: str
    left: Shape | None
    right: Shape | None


# -- building ------------------------------------------------------------------------------


def _types_of(schema: Mapping[str, Any]) -> frozenset[str] | None:
    t = schema.get("type")
    types: set[str] | None = None
    if isinstance(t, str):
        types = {t}
    elif isinstance(t, list) and all(isinstance(x, str) for x in t) and t:
        types = set(t)
    if types is not None and schema.get("nullable") is True:  # OpenAPI 3.0 / Gemini
        types.add("null")
    return frozenset(types) if types is not None else None


def _intersect_types(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None:
        return b
    if b is None:
        return a
    out = set(a & b)
    if ("integer" in a and "number" in b) or ("number" in a and "integer" in b):
        out.add("integer")
    return frozenset(out)


def _additional_rank(value: Any) -> int:
    if value is ABSENT:
        return _ADDITIONAL_RANK["absent"]
    if value is True:
        return _ADDITIONAL_RANK["true"]
    if value is False:
        return _ADDITIONAL_RANK["false"]
    return _ADDITIONAL_RANK["schema"]


def _merge_constraint(shape: Shape, key: str, value: Any, pointer: str) -> None:
    if key not in shape.constraints:
        shape.constraints[key] = value
        shape.constraint_pointers[key] = pointer
        return
    old = shape.constraints[key]
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    old_numeric = isinstance(old, (int, float)) and not isinstance(old, bool)
    tighter = False
    if key in _LOWER and numeric and old_numeric:
        tighter = value > old
    elif key in _UPPER and numeric and old_numeric:
        tighter = value < old
    elif key == "enum" and isinstance(value, list) and isinstance(old, list):
        shape.constraints[key] = [v for v in old if v in value]
        return
    elif key == "uniqueItems":
        tighter = value is True
    if tighter:
        shape.constraints[key] = value
        shape.constraint_pointers[key] = pointer


def _absorb(shape: Shape, schema: Any, pointer: str) -> None:
    """Merge one subschema's keywords into ``shape`` (allOf / $ref semantics)."""
    shape.pointers.append(pointer)
    if schema is False:
        shape.never = True
        return
    if not isinstance(schema, Mapping):
        return
    types = _types_of(schema)
    if types is not None:
        shape.types = _intersect_types(shape.types, types)
        if not shape.types:
            shape.never = True
    props = schema.get("properties")
    if isinstance(props, Mapping):
        for name, sub in props.items():
            if name not in shape.properties:
                shape.properties[name] = f"{pointer}/properties/{escape_token(name)}"
                shape.property_schemas[name] = sub
    req = schema.get("required")
    if isinstance(req, list):
        names = [r for r in req if isinstance(r, str)]
        if names and shape.required_pointer is None:
            shape.required_pointer = f"{pointer}/required"
        shape.required.update(names)
    for kw in ("additionalProperties", "unevaluatedProperties"):
        if kw in schema:
            if kw == "unevaluatedProperties" and "additionalProperties" in schema:
                continue
            value = schema[kw]
            if _additional_rank(value) > _additional_rank(shape.additional):
                shape.additional = value
                shape.additional_pointer = f"{pointer}/{kw}"
    pats = schema.get("patternProperties")
    if isinstance(pats, Mapping):
        for pat in pats:
            shape.pattern_properties.setdefault(pat, f"{pointer}/patternProperties/{escape_token(pat)}")
    if "default" in schema and shape.default is ABSENT:
        shape.default = schema["default"]
    for kw in CONSTRAINT_KEYWORDS:
        if kw in schema:
            _merge_constraint(shape, kw, schema[kw], f"{pointer}/{kw}")


def _merge_into(target: Shape, piece: Shape) -> None:
    """Fold an enclosing piece into a branch shape (the instance must satisfy both)."""
    target.pointers.extend(p for p in piece.pointers if p not in target.pointers)
    target.types = _intersect_types(target.types, piece.types)
    target.never = target.never or piece.never or (target.types is not None and not target.types)
    for name, ptr in piece.properties.items():
        if name not in target.properties:
            target.properties[name] = ptr
            target.property_schemas[name] = piece.property_schemas.get(name)
    target.required |= piece.required
    target.recursion_cut = target.recursion_cut or piece.recursion_cut
    if target.required_pointer is None:
        target.required_pointer = piece.required_pointer
    if _additional_rank(piece.additional) > _additional_rank(target.additional):
        target.additional, target.additional_pointer = piece.additional, piece.additional_pointer
    for pat, ptr in piece.pattern_properties.items():
        target.pattern_properties.setdefault(pat, ptr)
    if target.default is ABSENT:
        target.default = piece.default
    for kw, value in piece.constraints.items():
        _merge_constraint(target, kw, value, piece.constraint_pointers[kw])


def _mark_empty(shape: Shape) -> None:
    """Set ``never`` (and ``never_reason``) when the merged types and value constraints of ``shape``
    admit no value, or a required property's schema is ``false``: such a location accepts nothing,
    which the contract rules compare as such (SL104) rather than skip."""
    if shape.never:
        shape.never_reason = shape.never_reason or "its schema is `false` or its types exclude each other"
        return
    if shape.types == {"object"}:  # with other types allowed, a non-object still passes
        for key in sorted(shape.required):
            if shape.property_schemas.get(key) is False:
                shape.never, shape.never_reason = True, f"the required property `{key}` is `false`"
                return
    if not shape.constraints and shape.types is None:
        return
    from schemalint.schema.satisfiable import why_empty

    schema: dict[str, Any] = dict(shape.constraints)
    if shape.types is not None:
        schema["type"] = sorted(shape.types)
    empty = why_empty(schema)
    if empty is not None:
        shape.never, shape.never_reason = True, empty.reason


def _copy(shape: Shape) -> Shape:
    return Shape(
        instance_path=shape.instance_path,
        branch=shape.branch,
        pointer=shape.pointer,
        pointers=list(shape.pointers),
        types=shape.types,
        never=shape.never,
        properties=dict(shape.properties),
        property_schemas=dict(shape.property_schemas),
        required=set(shape.required),
        required_pointer=shape.required_pointer,
        additional=shape.additional,
        additional_pointer=shape.additional_pointer,
        pattern_properties=dict(shape.pattern_properties),
        default=shape.default,
        constraints=dict(shape.constraints),
        constraint_pointers=dict(shape.constraint_pointers),
        recursion_cut=shape.recursion_cut,
        never_reason=shape.never_reason,
    )


def _is_prefix(short: Branch, long: Branch) -> bool:
    return len(short) <= len(long) and long[: len(short)] == short


class ShapeMap:
    """The shapes of one schema, by instance path.

    ``pieces``: ``(instance_path, branch) -> Shape`` as written (before enclosing pieces are
    folded into branches). ``alternatives(path)`` gives the effective shapes at ``path``.
    Build with :func:`shapes_of`.
    """

    def __init__(self, pieces: dict[tuple[str, Branch], Shape], schema: Any) -> None:
        self.schema = schema
        self.pieces = pieces
        self._alts: dict[str, list[Shape]] = {}
        by_path: dict[str, list[Shape]] = {}
        for (path, _branch), piece in pieces.items():
            by_path.setdefault(path, []).append(piece)
        self._pieces_by_path = by_path
        for path, plist in by_path.items():
            if len(plist) == 1:  # the common case: no union at or above this path
                self._alts[path] = plist
                continue
            # Linear in the branches' total length (a union of thousands of branches): a piece is
            # a leaf unless it is a proper prefix of another piece's branch; a leaf folds in the
            # pieces whose branch is one of its own proper prefixes, in walk order.
            order = {p.branch: i for i, p in enumerate(plist)}
            inner = {b[:k] for b in order for k in range(len(b))}
            alts: list[Shape] = []
            for leaf in plist:
                if leaf.branch in inner:
                    continue
                eff = _copy(leaf)
                enclosing = sorted(order[leaf.branch[:k]] for k in range(len(leaf.branch)) if leaf.branch[:k] in order)
                for i in enclosing:
                    _merge_into(eff, plist[i])
                alts.append(eff)
            self._alts[path] = alts
        for alts in self._alts.values():
            for shape in alts:
                _mark_empty(shape)
                for name in shape.properties:
                    default = self._default_at(child_path(shape.instance_path, name), shape.branch)
                    if default is not ABSENT:
                        shape.property_defaults[name] = default

    def _default_at(self, path: str, branch: Branch) -> Any:
        best: Shape | None = None
        for piece in self._pieces_by_path.get(path, ()):
            related = _is_prefix(piece.branch, branch) or _is_prefix(branch, piece.branch)
            shorter = best is None or len(piece.branch) < len(best.branch)
            if piece.default is not ABSENT and related and shorter:
                best = piece
        return best.default if best is not None else ABSENT

    def paths(self) -> list[str]:
        """Every instance path with at least one shape, in walk order (parents first)."""
        return list(self._alts)

    def alternatives(self, path: str) -> list[Shape]:
        """The effective shapes at ``path`` (one per union branch); ``[]`` when none.

        ``path`` may use concrete array indexes (``/topics/0/name``); they fall back to
        ``*`` when the schema has no tuple position for them.
        """
        if path in self._alts:
            return self._alts[path]
        norm = normalize_path(path)
        return self._alts.get(norm, [])

    def root(self) -> Shape | None:
        """The first alternative at the root (``""``), if any."""
        alts = self._alts.get("", [])
        return alts[0] if alts else None

    def requires(self, path: str) -> bool | None:
        """Whether the key at ``path`` is required by its parent.

        True when every alternative at the parent path requires it, False when some
        alternative leaves it optional, ``None`` when there is no parent shape.
        """
        split = parent_and_key(path)
        if split is None:
            return None
        parent, key = split
        alts = [a for a in self.alternatives(parent) if not a.never]
        if not alts:
            return None
        return all(key in a.required for a in alts)

    def union_types(self, path: str) -> frozenset[str] | None:
        """Types admitted at ``path`` over all alternatives (``None`` when some alternative is unrestricted
        or there is no shape)."""
        alts = [a for a in self.alternatives(path) if not a.never]
        if not alts:
            return None
        out: set[str] = set()
        for a in alts:
            if a.types is None:
                return None
            out |= a.types
        return frozenset(out)


def shapes_of(schema: Any, *, max_nodes: int = 50_000) -> ShapeMap:
    """Collect the shapes of ``schema`` (any JSON value) per instance path and union branch.

    ``max_nodes`` bounds the walk (``$ref`` fan-out). Never raises on malformed input; a
    non-dict root gives a single root shape (unrestricted for ``true``/``None``/garbage,
    accepting nothing for ``false``).
    """
    pieces: dict[tuple[str, Branch], Shape] = {}
    skipped_at_depth: list[bool] = []
    for node in walk(schema, follow_refs=True, include_definitions=False, max_nodes=max_nodes):
        del skipped_at_depth[node.depth :]
        parent_skipped = bool(skipped_at_depth) and skipped_at_depth[-1]
        ipath = node.instance_path
        skipped = parent_skipped or node.keyword in _SKIP_KEYWORDS or ipath is None
        skipped_at_depth.append(skipped)
        if skipped or ipath is None:
            continue
        branch: Branch = tuple(step for step in node.branch if step[0] != "allOf")
        key = (ipath, branch)
        shape = pieces.get(key)
        if shape is None:
            shape = pieces[key] = Shape(instance_path=ipath, branch=branch, pointer=node.pointer)
        _absorb(shape, node.schema, node.pointer)
        shape.recursion_cut = shape.recursion_cut or node.recursion_cut
    if not pieces:
        pieces[("", ())] = Shape(instance_path="", branch=(), pointer="")
    return ShapeMap(pieces, schema)


# -- matching -----------------------------------------------------------------------------


def _overlap(a: Shape, b: Shape) -> tuple[float, int, int]:
    pa, pb = set(a.properties), set(b.properties)
    union = pa | pb
    jaccard = len(pa & pb) / len(union) if union else 1.0
    types_ok = int(a.types is None or b.types is None or bool(_intersect_types(a.types, b.types)))
    return (jaccard + types_ok, types_ok, -abs(len(a.branch) - len(b.branch)))


def match(left: Sequence[Shape], right: Sequence[Shape], instance_path: str = "") -> list[ShapePair]:
    """Pair the alternatives of two sides at one instance path.

    When both sides have the same branch keys, shapes are paired by key. Otherwise the
    pairs with the best property overlap (Jaccard index of property names, then type
    compatibility) are taken greedily one to one, and each shape left over is paired
    with its best partner, so every shape appears in at least one pair. A side with no
    shape at all gives pairs with ``None`` on that side.
    """
    left, right = list(left), list(right)
    if not left or not right:
        return [ShapePair(instance_path, s, None) for s in left] + [
            ShapePair(instance_path, None, s) for s in right
        ]
    if sorted(s.branch for s in left) == sorted(s.branch for s in right) and len(left) == len(right):
        by_branch = {s.branch: s for s in right}
        return [ShapePair(instance_path, s, by_branch[s.branch]) for s in left]
    scored = sorted(
        ((_overlap(a, b), i, j) for i, a in enumerate(left) for j, b in enumerate(right)),
        key=lambda t: (t[0], -t[1], -t[2]),
        reverse=True,
    )
    used_l: set[int] = set()
    used_r: set[int] = set()
    out: list[tuple[int, int]] = []
    for _score, i, j in scored:
        if i not in used_l and j not in used_r:
            used_l.add(i)
            used_r.add(j)
            out.append((i, j))
    for _score, i, j in scored:
        if i not in used_l:
            used_l.add(i)
            out.append((i, j))
        if j not in used_r:
            used_r.add(j)
            out.append((i, j))
    out = sorted(set(out))
    return [ShapePair(instance_path, left[i], right[j]) for i, j in out]


def pairs(left: ShapeMap, right: ShapeMap) -> Iterator[ShapePair]:
    """Matched pairs at every instance path either side knows, parents before children."""
    seen: set[str] = set()
    for path in [*left.paths(), *right.paths()]:
        if path in seen:
            continue
        seen.add(path)
        yield from match(left.alternatives(path), right.alternatives(path), path)


# -- paths --------------------------------------------------------------------------------


def child_path(path: str, key: str) -> str:
    """The instance path of property ``key`` under ``path``."""
    return f"{path}/{escape_token(key)}"


def parent_and_key(path: str) -> tuple[str, str] | None:
    """Split ``/a/b`` into ``("/a", "b")``; ``None`` for the root or a malformed pointer."""
    try:
        tokens = split_pointer(path)
    except ValueError:
        return None
    if not tokens:
        return None
    return "".join("/" + escape_token(t) for t in tokens[:-1]), tokens[-1]


def normalize_path(path: str) -> str:
    """Replace concrete array indexes (all-digit tokens) with ``*``, the token shapes use."""
    try:
        tokens = split_pointer(path)
    except ValueError:
        return path
    return "".join("/" + (ANY_INDEX if t.isdigit() else escape_token(t)) for t in tokens)


def display_path(path: str) -> str:
    """A short human name for an instance path: ``/options/presentation`` -> ``options.presentation``,
    ``/topics/*/start`` -> ``topics[].start``, ``""`` -> ``(the call)``."""
    try:
        tokens = split_pointer(path)
    except ValueError:
        return path
    if not tokens:
        return "(the call)"
    out = ""
    for t in tokens:
        if t == ANY_INDEX or t.isdigit():
            out += "[]" if t == ANY_INDEX else f"[{t}]"
        else:
            out += ("." if out else "") + t
    return out
