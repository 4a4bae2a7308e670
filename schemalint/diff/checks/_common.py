"""Shared parts of the schema checks: JSON Schema keyword groups, normalisation, paths, the emit step.

deepdiff finds *where* two normalised schemas differ (:func:`diff_locations`, :func:`refine`);
:func:`locate` splits a location into the schema object, the keyword and the sub-key;
each check module (``sd1xx_*.py``, ``sd2xx_*.py``, ``sd301_text.py``) decides what a change of
its keywords means and reports it through :meth:`Site.report` (or :meth:`Classifier.emit`),
the one place where a change is built. Keyword semantics: JSON Schema draft-07 / 2020-12
validation vocabulary.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import schemalint.schema as vocabulary
from schemalint.diff.result import ABSENT, Change
from schemalint.model import escape_token

MISSING: Any = ABSENT
"""Marker for a key that is absent on one side (a change's ``before``/``after`` then is it too)."""

SET_KEYWORDS = frozenset({"required", "enum", "type"})
"""Keywords whose list value is a set: order never changes validation."""

NAMED = vocabulary.MAPS - {"dependencies"}
"""Maps of subschemas compared entry by entry (``dependencies`` also holds name lists: compared whole)."""
LISTED = vocabulary.ARRAYS - {"items"}
"""Arrays of subschemas compared member by member (``items`` is compared as one subschema)."""
SINGLE = vocabulary.SINGLE
"""Keywords holding one subschema."""

LOWER_BOUNDS = frozenset(
    {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
)
UPPER_BOUNDS = frozenset(
    {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)
TEXT_KEYWORDS = frozenset({"description", "title", "examples", "example"})
METADATA_KEYWORDS = frozenset(
    {
        "deprecated",
        "$comment",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
        "$anchor",
        "propertyOrdering",
        "markdownDescription",
        "discriminator",
        "$defs",
        "definitions",
    }
)
ALL_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

OPENAPI_30 = "openapi-3.0"
"""The dialect the diff reads a Gemini ``parameters`` schema in: an OpenAPI 3.0 Schema object (the
Gemini ``Schema`` proto), where ``nullable: true`` admits ``null`` (OpenAPI 3.0.3, "Schema Object",
``nullable``). In JSON Schema (every other dialect) ``nullable`` is not a keyword: an unknown keyword
is an annotation (Core 2020-12 section 6.5; draft-07 core section 4.3.1), so it changes no call."""

_SMALL = 200  # largest rendered value copied into a change's before/after


EMPTY_NOOPS: dict[str, Any] = {
    "properties": {},
    "required": [],
    "patternProperties": {},
    "$defs": {},
    "definitions": {},
}
"""Keywords whose empty value validates exactly like their absence (JSON Schema validation)."""


def is_noop(key: Any, value: Any) -> bool:
    """True for ``"properties": {}``, ``"required": []`` and the like (no effect on validation)."""
    return key in EMPTY_NOOPS and value == EMPTY_NOOPS[key] and isinstance(value, type(EMPTY_NOOPS[key]))


_LEAVES = frozenset({str, int, float, bool, type(None)})


def normalise(value: Any) -> Any:
    """A copy of ``value`` where the list of every ``required``, ``enum`` and ``type`` key is a set.

    Sets are represented as dicts keyed by the canonical JSON of each entry, so that
    deepdiff reports an added ``required`` entry as one added key instead of a shifted
    list. Empty no-op keywords (:data:`EMPTY_NOOPS`) are dropped. Dict key order is
    irrelevant to deepdiff and to ``==``. (Strings, numbers, booleans and ``None`` are told by
    their exact type first, and dicts and lists too: the ``Mapping`` check, an abstract class's,
    is asked only of other types.)
    """
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is dict or (kind is not list and isinstance(value, Mapping)):
        out: dict[Any, Any] = {}
        for k, v in value.items():
            if is_noop(k, v):
                continue
            if k in SET_KEYWORDS and isinstance(v, list):
                out[k] = {canonical(x): True for x in v}
            else:
                out[k] = normalise(v)
        return out
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str)
"""The encoder ``json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)`` builds on
every call (it keeps no state between two ``encode`` calls), built once: the classification
asks for the canonical text of every ``required``/``enum``/``type`` entry."""


def canonical(value: Any) -> str:
    """Order-independent JSON text of ``value`` (sorted keys); ``1`` and ``true`` stay distinct:
    ``json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)``."""
    return _CANONICAL.encode(value)


def same_meaning(a: Any, b: Any) -> bool:
    """True when two schemas differ at most in key order and the order of set keywords."""
    return canonical(normalise(a)) == canonical(normalise(b))


_SCALARS = (str, int, float, bool, type(None))


def share_equal(old: Any, new: Any) -> tuple[Any, bool]:
    """``(new', equal)``: ``new`` with every subtree that equals ``old``'s at the same place
    replaced by ``old``'s object, and whether the two are equal as a whole.

    Equal means what deepdiff calls equal: same types all the way down (``1``, ``1.0`` and
    ``true`` differ), same keys (in any order), lists of the same length and equal items.
    deepdiff stops at ``t1 is t2``, so on the shared pairs it stops at once instead of
    walking two equal subtrees; everything it reports is unchanged, because equal subtrees
    produce no report and keys and list lengths (which decide how it walks) are kept.
    Lists of different lengths are left alone (deepdiff aligns them by content).
    ``old`` and ``new`` are not modified; parts of ``new`` are copied where needed.
    """
    if isinstance(old, dict) and isinstance(new, dict) and type(old) is type(new):
        out: dict[Any, Any] = {}
        equal = len(old) == len(new)
        for key, value in new.items():
            if key in old:
                value, same = share_equal(old[key], value)
                equal = equal and same
            else:
                equal = False
            out[key] = value
        return (old, True) if equal else (out, False)
    if isinstance(old, list) and isinstance(new, list) and type(old) is type(new):
        if len(old) != len(new):
            return new, False
        items: list[Any] = []
        equal = True
        for a, b in zip(old, new, strict=True):
            b, same = share_equal(a, b)
            equal = equal and same
            items.append(b)
        return (old, True) if equal else (items, False)
    if type(old) is type(new) and type(old) in _SCALARS and old == new:
        return old, True
    return new, False


def diff_locations(old: Any, new: Any) -> list[list[Any]]:
    """Paths (lists of keys and indexes) where the normalised ``old`` and ``new`` differ (deepdiff).

    Subtrees equal on both sides are shared first (:func:`share_equal`), so deepdiff walks
    only the branches that lead to a difference. Paths come grouped by deepdiff report type
    (sorted by name), each group in deepdiff's walk order.
    """
    from deepdiff import DeepDiff

    a = normalise(old)
    b, equal = share_equal(a, normalise(new))
    if equal:
        return []
    tree = DeepDiff(a, b, view="tree", verbose_level=0)
    paths: list[list[Any]] = []
    # deepdiff keeps its report types in a set, whose order changes with the string hash
    # seed: read them in a fixed order so that the changes come out in the same order every run.
    for report in sorted(tree):
        for level in tree[report]:
            paths.append(list(level.path(output_format="list")))
    return paths


def refine(old: Any, new: Any, path: list[Any]) -> Iterable[list[Any]]:
    """Split a coarse difference into the keys that differ.

    deepdiff reports two dicts with no common key as one replaced value; the classifier
    needs each keyword, so a path whose old and new values are both objects (or lists of
    equal length) is replaced by the paths of its differing members. Set keywords
    (``required``, ``enum``, ``type``) are never split.
    """
    a, b = resolve(old, path), resolve(new, path)
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in [*a, *(k for k in b if k not in a)]:
            if k in a and k in b:
                if canonical(normalise(a[k])) == canonical(normalise(b[k])):
                    continue
                if k in SET_KEYWORDS:
                    yield [*path, k]
                else:
                    yield from refine(old, new, [*path, k])
            else:
                yield [*path, k]
    elif (
        isinstance(a, list)
        and isinstance(b, list)
        and len(a) == len(b)
        and a
        and not (path and path[-1] in SET_KEYWORDS)
    ):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if canonical(normalise(x)) != canonical(normalise(y)):
                yield from refine(old, new, [*path, i])
    else:
        yield path


def locate(path: list[Any]) -> tuple[tuple[Any, ...], str | None, Any]:
    """Split a deepdiff path into ``(schema tokens, keyword, sub-key)``.

    ``schema tokens`` lead from the root schema to the schema object the change is in;
    ``keyword`` is the keyword of that schema that changed (``None`` when the whole schema
    at that position was added, removed or replaced); ``sub-key`` is the property name or
    branch index below a ``properties``/``anyOf``... keyword (``None`` for the keyword itself).
    """
    schema: list[Any] = []
    i = 0
    while i < len(path):
        token = path[i]
        if not isinstance(token, str):
            return tuple(schema), None, None
        nxt = path[i + 1] if i + 1 < len(path) else None
        if token in NAMED or token in LISTED:
            if i + 1 >= len(path):
                return tuple(schema), token, None
            if i + 2 >= len(path):
                return tuple(schema), token, nxt
            schema += [token, nxt]
            i += 2
            continue
        if token in SINGLE:
            if i + 1 >= len(path):
                return tuple(schema), token, None
            if isinstance(nxt, int):
                if i + 2 >= len(path):
                    return tuple(schema), token, nxt
                schema += [token, nxt]
                i += 2
                continue
            schema.append(token)
            i += 1
            continue
        return tuple(schema), token, None
    return tuple(schema), None, None


def resolve(root: Any, tokens: Iterable[Any]) -> Any:
    """The value at ``tokens`` below ``root``, or :data:`MISSING`."""
    value = root
    for token in tokens:
        in_map = isinstance(value, Mapping) and token in value
        in_list = isinstance(value, list) and isinstance(token, int) and 0 <= token < len(value)
        if in_map or in_list:
            value = value[token]
        else:
            return MISSING
    return value


def label(tokens: Iterable[Any]) -> str:
    """A readable name for a schema position: ``presentation.spec``, ``items[]``, ``(root)``."""
    parts: list[str] = []
    toks = list(tokens)
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in NAMED and i + 1 < len(toks):
            name = str(toks[i + 1])
            parts.append(name if t == "properties" else f"{t}[{name}]")
            i += 2
        elif t == "prefixItems" and i + 1 < len(toks):
            parts.append(f"[{toks[i + 1]}]")
            i += 2
        elif t in LISTED and i + 1 < len(toks):
            parts.append(f"({t} {toks[i + 1]})")
            i += 2
        elif t == "items":
            parts.append("[]")
            i += 1
        else:
            parts.append(str(t))
            i += 1
    text = ""
    for p in parts:
        text += p if (not text or p.startswith("[") or p.startswith("(")) else "." + p
    return text or "(root)"


def small(value: Any) -> Any:
    """``value`` when its JSON is short enough to show in a report, else ``None``; :data:`MISSING`
    (the side has no such key) stays :data:`MISSING`, which a report leaves out."""
    if value is MISSING:
        return MISSING
    try:
        return value if len(canonical(value)) <= _SMALL else None
    except (TypeError, ValueError):
        return None


def _type_name(name: str) -> str:
    lower = name.lower()
    if lower in ALL_TYPES:
        return lower
    return vocabulary.TYPE_ALIASES.get(lower, name)


def types_of(schema: Any, nullable: bool = False) -> frozenset[str]:
    """The JSON types ``schema`` accepts by its ``type`` keyword (all when absent), and by ``nullable:
    true`` when ``nullable`` (the schema is read as OpenAPI 3.0, :data:`OPENAPI_30`; in JSON Schema the
    keyword is an annotation and ``{"type": "string", "nullable": true}`` refuses ``null``). A
    type name is read case-insensitively (Gemini's ``STRING``) and a dataset's programming-language
    name as the JSON type it means (:data:`schemalint.schema.TYPE_ALIASES`: ``float`` is ``number``),
    as SL314's safe fix renames it."""
    if not isinstance(schema, Mapping):
        return ALL_TYPES
    t = schema.get("type", MISSING)
    if t is MISSING:
        types = set(ALL_TYPES)
    elif isinstance(t, str):
        types = {_type_name(t)}
    elif isinstance(t, list):
        types = {_type_name(x) for x in t if isinstance(x, str)}
    else:
        types = set()
    if "number" in types:
        types.add("integer")
    if nullable and schema.get("nullable") is True:
        types.add("null")
    return frozenset(types)


def closedness(value: Any) -> str:
    """``open`` (absent, true, {}), ``closed`` (false) or ``schema`` for additionalProperties."""
    if value is MISSING or value is True or value == {}:
        return "open"
    if value is False:
        return "closed"
    return "schema"


def fmt(value: Any) -> str:
    """``value`` as short JSON for a message (``absent`` for :data:`MISSING`)."""
    if value is MISSING:
        return "absent"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def required_names(schema: Any) -> set[str]:
    """The string entries of ``schema``'s ``required`` list (empty when there is none)."""
    return set(vocabulary.required_names(schema))


def declared_properties(schema: Any) -> Mapping[str, Any]:
    """``schema``'s ``properties`` object (empty when there is none)."""
    if not isinstance(schema, Mapping) or not isinstance(schema.get("properties"), Mapping):
        return {}
    return schema["properties"]


def shape_key(schema: Any) -> str:
    """Canonical text of a schema without its descriptions/titles: equal keys = same shape."""

    def strip(v: Any) -> Any:
        if isinstance(v, Mapping):
            return {k: strip(x) for k, x in v.items() if k not in TEXT_KEYWORDS}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return canonical(normalise(strip(schema)))


def rename_pairs(
    removed: list[str], added: list[str], old_of: Callable[[str], Any], new_of: Callable[[str], Any]
) -> dict[str, str]:
    """Pairs (removed name -> added name) whose schemas (``old_of(name)``/``new_of(name)``) have
    the same :func:`shape_key`; each added name is used at most once (properties and tools)."""
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for r in removed:
        key = shape_key(old_of(r))
        for a in added:
            if a not in taken and shape_key(new_of(a)) == key:
                pairs[r] = a
                taken.add(a)
                break
    return pairs


class Classifier:
    """Reports the classified differences between two schemas of one tool (the emit step, once).

    ``old``/``new``: the two schemas (any JSON values). ``tool``: the tool name for the
    changes. ``old_base``/``new_base``: JSON pointers of the schemas inside the rendered
    tool definitions (``/inputSchema``); ``old_file``/``new_file`` go into the changes.
    ``what``: ``"input"`` or ``"output"`` (output changes are wrapped in SD110).
    ``old_prefix``/``new_prefix``: schema tokens of these schemas inside the tool's (a branch
    compared with an unwrapped schema). ``old_text``/``new_text`` with ``old_dialect``/
    ``new_dialect``: when ``old``/``new`` are the one-spelling copies of the schemas the files hold
    (:func:`schemalint.diff.dialects.to_2020`), those originals and the dialects they are read in;
    a change is then reported at the original's tokens (:func:`schemalint.diff.dialects.text_tokens`).
    ``strict``: the tool is sent to a strict target (closing an object that declares properties is
    then SD213, not SD106). :meth:`classify` is the dispatcher
    (:class:`schemalint.diff.classify.SchemaClassifier`).
    """

    def __init__(
        self,
        old: Any,
        new: Any,
        *,
        tool: str,
        old_base: str,
        new_base: str,
        old_file: str | None = None,
        new_file: str | None = None,
        what: str = "input",
        old_prefix: tuple[Any, ...] = (),
        new_prefix: tuple[Any, ...] = (),
        old_text: Any = MISSING,
        new_text: Any = MISSING,
        old_dialect: str = "2020-12",
        new_dialect: str = "2020-12",
        strict: bool = False,
        old_lift: tuple[tuple[Any, ...], frozenset[Any]] | None = None,
        new_lift: tuple[tuple[Any, ...], frozenset[Any]] | None = None,
    ) -> None:
        self.old, self.new = old, new
        self.lift = {"old": old_lift, "new": new_lift}
        """Per side, ``(tokens, keys)`` when this side's schema is a union branch with the keywords
        written beside the union merged in (:func:`schemalint.diff.checks.sd109_subschemas.union_shift`):
        a change below one of ``keys`` (a keyword of the schema holding the union, not of the branch)
        is reported at ``tokens`` (that schema, relative to the root) instead of inside the branch, so
        that every pointer exists on the side it names."""
        self.strict = strict
        """The tool is sent to a strict target (:func:`schemalint.targets.strict_decoded`): the provider
        decodes the model's calls to the schema, so the model sends no key an object does not declare."""
        self.old_text, self.new_text = old_text, new_text
        self.old_dialect, self.new_dialect = old_dialect, new_dialect
        self.old_nullable, self.new_nullable = old_dialect == OPENAPI_30, new_dialect == OPENAPI_30
        """Whether each side reads ``nullable`` as a keyword (:data:`OPENAPI_30`), not as an annotation."""
        self.old_prefix, self.new_prefix = old_prefix, new_prefix
        self.shifted: dict[tuple[Any, ...], bool] = {}
        self.swapped: set[tuple[Any, ...]] = set()
        """Schema positions already compared as wrapped into (or unwrapped from) a union."""
        self.flattened: dict[tuple[Any, ...], bool] = {}
        """Schema positions whose ``anyOf`` was compared branch by branch with nested unions spliced in."""
        self.tool = tool
        self.old_base, self.new_base = old_base, new_base
        self.old_file, self.new_file = old_file, new_file
        self.what = what
        self.changes: list[Change] = []
        self.roots: tuple[Any, Any] = (old, new)
        """The tool's whole old and new schemas (for a :meth:`nested` classifier, its parent's), which
        ``old_prefix``/``new_prefix`` lead into."""

    def nested(
        self, old: Any, new: Any, *, old_prefix: tuple[Any, ...], new_prefix: tuple[Any, ...]
    ) -> Classifier:
        """A classifier of the sub-schemas ``old``/``new`` found at ``old_prefix``/``new_prefix``
        (relative to this classifier's schemas), reporting into the same tool and files."""
        sub = type(self)(
            old,
            new,
            tool=self.tool,
            old_base=self.old_base,
            new_base=self.new_base,
            old_file=self.old_file,
            new_file=self.new_file,
            what=self.what,
            old_prefix=self.at("old", old_prefix),
            new_prefix=self.at("new", new_prefix),
            old_text=self.old_text,
            new_text=self.new_text,
            old_dialect=self.old_dialect,
            new_dialect=self.new_dialect,
            strict=self.strict,
        )
        sub.roots = self.roots
        return sub

    def at(self, side: str, tokens: Iterable[Any]) -> tuple[Any, ...]:
        """Schema tokens, from the tool's root schema, of the position ``tokens`` of this classifier's
        ``side`` (``"old"``/``"new"``) schema: its prefix, then ``tokens`` (see :attr:`lift`)."""
        toks = tuple(tokens)
        lift = self.lift[side]
        if lift is not None and toks and toks[0] in lift[1]:
            return (*lift[0], *toks)
        return (*(self.old_prefix if side == "old" else self.new_prefix), *toks)

    def types(self, schema: Any, side: str) -> frozenset[str]:
        """:func:`types_of` ``schema`` of the ``side`` (``"old"``/``"new"``) schema, read in its dialect."""
        return types_of(schema, self.old_nullable if side == "old" else self.new_nullable)

    def label(self, tokens: Iterable[Any]) -> str:
        """Readable name of a schema position (see :func:`label`), prefix included."""
        return label(self.at("new", tokens))

    def emit(
        self,
        name: str,
        tokens: Iterable[Any],
        message: str,
        *,
        side: str = "new",
        hint: str | None = None,
        before: Any = MISSING,
        after: Any = MISSING,
    ) -> None:
        """Record one change of check ``name`` at schema position ``tokens`` of the ``side`` schema."""
        from schemalint.diff.checks import check
        from schemalint.diff.checks.sd110_output_schema import as_output

        chk = check(name)
        if self.what == "output":
            chk, message = as_output(chk, message)
        base = self.new_base if side == "new" else self.old_base
        at = self.at(side, tokens)
        text, dialect = (self.new_text, self.new_dialect) if side == "new" else (self.old_text, self.old_dialect)
        if text is not MISSING:
            from schemalint.diff.dialects import text_tokens

            at = text_tokens(text, at, dialect)
        self.changes.append(
            Change(
                check=chk,
                tool=self.tool,
                pointer=base + "".join("/" + escape_token(t) for t in at),
                message=message,
                hint=hint,
                file=self.new_file if side == "new" else self.old_file,
                before=small(before),
                after=small(after),
                side=side,
            )
        )

    def run(self) -> list[Change]:
        """Classify every difference; returns the changes (also kept in ``self.changes``)."""
        seen: set[tuple[Any, ...]] = set()
        paths = [fine for coarse in diff_locations(self.old, self.new) for fine in refine(self.old, self.new, coarse)]
        for path in paths:
            tokens, keyword, sub = locate(path)
            nullable = keyword == "nullable" and (self.old_nullable or self.new_nullable)
            if keyword in SET_KEYWORDS or keyword == "properties" or nullable:
                key: tuple[Any, ...] = (tokens, "type" if keyword == "nullable" else keyword)
            else:
                key = (tokens, keyword, sub)
            if key in seen:
                continue
            seen.add(key)
            self.classify(tokens, keyword, sub)
        # A comparison that covers a whole schema (a condition written beside it, compared with the
        # rest in a nested classifier) can reach a change the walk also reaches by its own location:
        # the same change at the same place is reported once.
        reported: set[tuple[Any, ...]] = set()
        unique: list[Change] = []
        for change in self.changes:
            key = (change.check.code, change.pointer, change.message, change.side, change.file)
            if key not in reported:
                reported.add(key)
                unique.append(change)
        self.changes[:] = unique
        return self.changes

    def classify(self, tokens: tuple[Any, ...], keyword: str | None, sub: Any) -> None:
        """Classify the change of ``keyword`` (``sub``) in the schema at ``tokens`` (the dispatcher)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Site:
    """One changed keyword: ``keyword`` (``sub``: property name or branch index below it) of the
    schemas ``old_s``/``new_s`` at ``tokens``, with its values ``old_v``/``new_v`` (:data:`MISSING`
    when absent). ``c`` is the classifier that reports the changes.
    """

    c: Classifier
    tokens: tuple[Any, ...]
    keyword: str
    sub: Any
    old_s: Any
    new_s: Any
    old_v: Any
    new_v: Any

    @property
    def where(self) -> str:
        """The readable name of the schema position (``options.presentation``, ``(root)``)."""
        return self.c.label(self.tokens)

    @property
    def pointer(self) -> tuple[Any, ...]:
        """Schema tokens of the keyword itself."""
        return (*self.tokens, self.keyword)

    @property
    def side(self) -> str:
        """``"old"`` when the keyword was removed (the pointer goes into the old schema), else ``"new"``."""
        return "old" if self.new_v is MISSING else "new"

    def report(self, name: str, message: str, *, hint: str | None = None) -> None:
        """The common case: check ``name`` at the keyword, on :attr:`side`, showing both values."""
        self.c.emit(name, self.pointer, message, side=self.side, hint=hint, before=self.old_v, after=self.new_v)
