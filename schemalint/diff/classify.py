"""Classify the differences between two advertised schemas into diff checks (SDxxx).

deepdiff finds *where* two normalised schemas differ (:func:`diff_locations`); this module
decides *what* each difference means for a caller (:func:`classify_schema`). Every
location is resolved to the schema object it belongs to and the keyword that changed,
then the old and new values of that keyword are compared with JSON Schema semantics
(draft-07 / 2020-12 validation vocabulary): a lower bound that rises or a new ``enum``
accepts fewer values (breaking), a new optional property accepts more calls
(compatible), a new description changes only the prompt.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from schemalint.diff.checks import DiffCheck, check
from schemalint.diff.result import Change
from schemalint.model import escape_token

MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<missing>"})()
"""Marker for a key that is absent on one side."""

SET_KEYWORDS = frozenset({"required", "enum", "type"})
"""Keywords whose list value is a set: order never changes validation."""

NAMED = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
LISTED = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
SINGLE = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "additionalItems",
        "unevaluatedProperties",
        "unevaluatedItems",
    }
)

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


def normalise(value: Any) -> Any:
    """A copy of ``value`` where the list of every ``required``, ``enum`` and ``type`` key is a set.

    Sets are represented as dicts keyed by the canonical JSON of each entry, so that
    deepdiff reports an added ``required`` entry as one added key instead of a shifted
    list. Empty no-op keywords (:data:`EMPTY_NOOPS`) are dropped. Dict key order is
    irrelevant to deepdiff and to ``==``.
    """
    if isinstance(value, Mapping):
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


def canonical(value: Any) -> str:
    """Order-independent JSON text of ``value`` (sorted keys); ``1`` and ``true`` stay distinct."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


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
    """``value`` when its JSON is short enough to show in a report, else ``None``."""
    if value is MISSING:
        return None
    try:
        return value if len(canonical(value)) <= _SMALL else None
    except (TypeError, ValueError):
        return None


def _types(schema: Any) -> frozenset[str]:
    """The JSON types ``schema`` accepts by its ``type``/``nullable`` keywords (all when absent)."""
    if not isinstance(schema, Mapping):
        return ALL_TYPES
    t = schema.get("type", MISSING)
    if t is MISSING:
        types = set(ALL_TYPES)
    elif isinstance(t, str):
        types = {t}
    elif isinstance(t, list):
        types = {x for x in t if isinstance(x, str)}
    else:
        types = set()
    if "number" in types:
        types.add("integer")
    if schema.get("nullable") is True:
        types.add("null")
    return frozenset(types)


def _closedness(value: Any) -> str:
    """``open`` (absent, true, {}), ``closed`` (false) or ``schema`` for additionalProperties."""
    if value is MISSING or value is True or value == {}:
        return "open"
    if value is False:
        return "closed"
    return "schema"


def _fmt(value: Any) -> str:
    if value is MISSING:
        return "absent"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


class SchemaClassifier:
    """Classify the differences between two schemas of one tool.

    ``old``/``new``: the two schemas (any JSON values). ``tool``: the tool name for the
    changes. ``old_base``/``new_base``: JSON pointers of the schemas inside the rendered
    tool definitions (``/inputSchema``); ``old_file``/``new_file`` go into the changes.
    ``what``: ``"input"`` or ``"output"`` (output changes are wrapped in SD110).
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
    ) -> None:
        self.old, self.new = old, new
        self.old_prefix, self.new_prefix = old_prefix, new_prefix
        self._shifted: dict[tuple[Any, ...], bool] = {}
        self.tool = tool
        self.old_base, self.new_base = old_base, new_base
        self.old_file, self.new_file = old_file, new_file
        self.what = what
        self.changes: list[Change] = []

    # -- helpers ---------------------------------------------------------------------
    def _pointer(self, tokens: Iterable[Any], side: str) -> str:
        base = self.new_base if side == "new" else self.old_base
        prefix = self.new_prefix if side == "new" else self.old_prefix
        return base + "".join("/" + escape_token(t) for t in (*prefix, *tokens))

    def label(self, tokens: Iterable[Any]) -> str:
        """Readable name of a schema position (see :func:`label`), prefix included."""
        return label((*self.new_prefix, *tokens))

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
        """Record one change of check ``name`` at schema position ``tokens``."""
        chk: DiffCheck = check(name)
        if self.what == "output" and chk.kind in ("breaking", "compatible"):
            message = f"output schema: {message} ({chk.name})"
            chk = check("output-schema-changed")
        self.changes.append(
            Change(
                check=chk,
                tool=self.tool,
                pointer=self._pointer(tokens, side),
                message=message,
                hint=hint,
                file=self.new_file if side == "new" else self.old_file,
                before=small(before),
                after=small(after),
            )
        )

    # -- entry point -----------------------------------------------------------------
    def run(self) -> list[Change]:
        """Classify every difference; returns the changes (also kept in ``self.changes``)."""
        seen: set[tuple[Any, ...]] = set()
        paths = [
            fine
            for coarse in diff_locations(self.old, self.new)
            for fine in refine(self.old, self.new, coarse)
        ]
        for path in paths:
            tokens, keyword, sub = locate(path)
            if keyword in SET_KEYWORDS or keyword in ("properties", "nullable"):
                key: tuple[Any, ...] = (tokens, "type" if keyword == "nullable" else keyword)
            else:
                key = (tokens, keyword, sub)
            if key in seen:
                continue
            seen.add(key)
            self.classify(tokens, keyword, sub)
        return self.changes

    def classify(self, tokens: tuple[Any, ...], keyword: str | None, sub: Any) -> None:
        """Classify the change of ``keyword`` (``sub``) in the schema at ``tokens``."""
        old_s, new_s = resolve(self.old, tokens), resolve(self.new, tokens)
        where = self.label(tokens)
        if keyword not in TEXT_KEYWORDS and keyword != "default" and self._union_shift(tokens, old_s, new_s):
            return
        if keyword is None:
            self.emit(
                "schema-changed",
                tokens,
                f"the schema of `{where}` was replaced "
                f"({_fmt(old_s)} -> {_fmt(new_s)}); the change cannot be classified",
                before=old_s,
                after=new_s,
                hint="review it by hand: calls valid before may be refused now",
            )
            return
        old_v = old_s.get(keyword, MISSING) if isinstance(old_s, Mapping) else MISSING
        new_v = new_s.get(keyword, MISSING) if isinstance(new_s, Mapping) else MISSING
        handler = _HANDLERS.get(keyword)
        if handler is not None:
            handler(self, tokens, keyword, sub, old_s, new_s, old_v, new_v)
        elif keyword in LOWER_BOUNDS or keyword in UPPER_BOUNDS:
            self._bound(tokens, keyword, old_v, new_v)
        elif keyword in TEXT_KEYWORDS:
            what = "tool input" if not tokens else f"`{where}`"
            self.emit(
                "description-changed",
                (*tokens, keyword),
                f"the {keyword} of {what} changed",
                side="old" if new_v is MISSING else "new",
                before=old_v,
                after=new_v,
                hint="the model reads this text: check it still matches the schema",
            )
        elif keyword == "default":
            self.emit(
                "default-changed",
                (*tokens, keyword),
                f"default of `{where}` changed: {_fmt(old_v)} -> {_fmt(new_v)}",
                side="old" if new_v is MISSING else "new",
                before=old_v,
                after=new_v,
            )
        elif keyword in METADATA_KEYWORDS or keyword.startswith("x-") or keyword in SINGLE | LISTED | NAMED:
            if keyword in SINGLE | LISTED | NAMED:
                self._subschema_keyword(tokens, keyword, sub, old_v, new_v)
            else:
                self.emit(
                    "metadata-changed",
                    (*tokens, keyword),
                    f"`{keyword}` of `{where}` changed: {_fmt(old_v)} -> {_fmt(new_v)}",
                    side="old" if new_v is MISSING else "new",
                    before=old_v,
                    after=new_v,
                )
        elif keyword == "$ref":
            self.emit(
                "schema-changed",
                (*tokens, keyword),
                f"`$ref` of `{where}` changed: {_fmt(old_v)} -> {_fmt(new_v)}",
                before=old_v,
                after=new_v,
                side="old" if new_v is MISSING else "new",
                hint="compare the two referenced schemas by hand",
            )
        else:
            self._constraint(tokens, keyword, old_v, new_v)

    def _union_shift(self, tokens: tuple[Any, ...], old_s: Any, new_s: Any) -> bool:
        """Handle a schema wrapped into (or unwrapped from) ``anyOf``/``oneOf``; True when handled.

        ``{"type": "string"}`` -> ``{"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}``
        is classified as the old schema compared with its closest branch (``minLength``
        tightened) plus the other branches added (``null`` accepted). Every non-text keyword
        of that schema is covered by this comparison, so it is done once per schema.
        """
        if tokens in self._shifted:
            return self._shifted[tokens]
        self._shifted[tokens] = False
        if not isinstance(old_s, Mapping) or not isinstance(new_s, Mapping):
            return False
        for kw in ("anyOf", "oneOf"):
            if isinstance(new_s.get(kw), list) and kw not in old_s and new_s[kw]:
                self._shifted[tokens] = True
                self._wrap(tokens, kw, old_s, new_s, wrapped_side="new")
                return True
            if isinstance(old_s.get(kw), list) and kw not in new_s and old_s[kw]:
                self._shifted[tokens] = True
                self._wrap(tokens, kw, old_s, new_s, wrapped_side="old")
                return True
        return False

    def _wrap(
        self,
        tokens: tuple[Any, ...],
        kw: str,
        old_s: Mapping[str, Any],
        new_s: Mapping[str, Any],
        wrapped_side: str,
    ) -> None:
        plain, wrapped = (old_s, new_s) if wrapped_side == "new" else (new_s, old_s)
        core = _strip_text({k: v for k, v in plain.items()})
        rest = _strip_text({k: v for k, v in wrapped.items() if k != kw})
        branches = [_strip_text({**rest, **b}) if isinstance(b, Mapping) else b for b in wrapped[kw]]
        best = _closest(core, branches)
        sub_tokens = (*tokens, kw, best)
        if wrapped_side == "new":
            sub = SchemaClassifier(
                core,
                branches[best],
                tool=self.tool,
                old_base=self.old_base,
                new_base=self.new_base,
                old_file=self.old_file,
                new_file=self.new_file,
                what=self.what,
                old_prefix=(*self.old_prefix, *tokens),
                new_prefix=(*self.new_prefix, *sub_tokens),
            )
        else:
            sub = SchemaClassifier(
                branches[best],
                core,
                tool=self.tool,
                old_base=self.old_base,
                new_base=self.new_base,
                old_file=self.old_file,
                new_file=self.new_file,
                what=self.what,
                old_prefix=(*self.old_prefix, *sub_tokens),
                new_prefix=(*self.new_prefix, *tokens),
            )
        if not same_meaning(sub.old, sub.new):
            self.changes.extend(sub.run())
        where = self.label(tokens)
        for i, branch in enumerate(wrapped[kw]):
            if i == best:
                continue
            if wrapped_side == "new":
                self.emit(
                    "union-branch-added",
                    (*tokens, kw, i),
                    f"`{where}` now also accepts {_fmt(branch)} (a new `{kw}` branch)",
                    after=branch,
                )
            else:
                self.emit(
                    "union-branch-removed",
                    (*tokens, kw, i),
                    f"`{where}` no longer accepts {_fmt(branch)} (its `{kw}` was reduced to one schema)",
                    side="old",
                    before=branch,
                    hint="calls that matched only this branch are refused now",
                )

    # -- keyword handlers --------------------------------------------------------------
    def _properties(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        old_p = old_v if isinstance(old_v, Mapping) else {}
        new_p = new_v if isinstance(new_v, Mapping) else {}
        new_req = _required(new_s)
        removed = [k for k in old_p if k not in new_p]
        added = [k for k in new_p if k not in old_p]
        renames = _rename_pairs(removed, added, old_p, new_p)
        for name in removed:
            hint = (
                f"looks renamed to `{renames[name]}` (same schema); a model that sends `{name}` "
                "is refused or ignored"
                if name in renames
                else "a model (or a saved call) that still sends it is refused or silently ignored; "
                "keep it deprecated for a release"
            )
            self.emit(
                "property-removed",
                (*tokens, keyword, name),
                f"property `{self.label((*tokens, keyword, name))}` was removed",
                side="old",
                hint=hint,
                before=old_p[name],
            )
        back = {v: k for k, v in renames.items()}
        for name in added:
            rename = f"looks like a rename of `{back[name]}` (same schema)" if name in back else None
            if name in new_req:
                self.emit(
                    "required-added",
                    (*tokens, keyword, name),
                    f"new property `{self.label((*tokens, keyword, name))}` is required: calls without it "
                    "are refused",
                    hint=rename or "make it optional with a default, or announce the breaking change",
                    after=new_p[name],
                )
            else:
                self.emit(
                    "property-added",
                    (*tokens, keyword, name),
                    f"new optional property `{self.label((*tokens, keyword, name))}`",
                    hint=rename,
                    after=new_p[name],
                )
        for name in old_p:
            if name in new_p and isinstance(old_p[name], Mapping) != isinstance(new_p[name], Mapping):
                self.classify((*tokens, keyword, name), None, None)

    def _required(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        old_r, new_r = _required(old_s), _required(new_s)
        old_props = _props(old_s)
        new_props = _props(new_s)
        for name in sorted(new_r - old_r):
            if name in new_props and name not in old_props:
                continue  # reported as a new required property
            self.emit(
                "required-added",
                (*tokens, "required"),
                f"`{self.label((*tokens, 'properties', name))}` is now required: "
                "calls without it are refused",
                hint="give it a default and keep it optional, or announce the breaking change",
                before=sorted(old_r),
                after=sorted(new_r),
            )
        for name in sorted(old_r - new_r):
            if name in old_props and name not in new_props:
                continue  # reported as a removed property
            self.emit(
                "required-dropped",
                (*tokens, "required"),
                f"`{self.label((*tokens, 'properties', name))}` is no longer required",
                side="new" if isinstance(new_s, Mapping) else "old",
                before=sorted(old_r),
                after=sorted(new_r),
            )

    def _type(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        old_t, new_t = _types(old_s), _types(new_s)
        where = self.label(tokens)
        shown_old = {
            k: old_s.get(k) for k in ("type", "nullable") if isinstance(old_s, Mapping) and k in old_s
        }
        shown_new = {
            k: new_s.get(k) for k in ("type", "nullable") if isinstance(new_s, Mapping) and k in new_s
        }
        ptr = (*tokens, "type")
        side = "new" if isinstance(new_s, Mapping) and "type" in new_s else "old"
        if old_t == new_t:
            self.emit(
                "metadata-changed",
                ptr,
                f"type of `{where}` is written differently "
                f"({_fmt(shown_old)} -> {_fmt(shown_new)}) but accepts the same values",
                side=side,
                before=shown_old,
                after=shown_new,
            )
        elif new_t < old_t:
            self.emit(
                "type-narrowed",
                ptr,
                f"`{where}` no longer accepts {', '.join(sorted(old_t - new_t))} "
                f"({_fmt(shown_old)} -> {_fmt(shown_new)})",
                side=side,
                before=shown_old,
                after=shown_new,
                hint="calls sending the dropped types are refused now",
            )
        elif new_t > old_t:
            self.emit(
                "type-widened",
                ptr,
                f"`{where}` now also accepts {', '.join(sorted(new_t - old_t))}",
                side=side,
                before=shown_old,
                after=shown_new,
            )
        else:
            self.emit(
                "type-changed",
                ptr,
                f"type of `{where}` changed from {_fmt(shown_old)} to {_fmt(shown_new)}",
                side=side,
                before=shown_old,
                after=shown_new,
                hint="calls with the old type are refused now",
            )

    def _enum(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        where = self.label(tokens)
        ptr = (*tokens, "enum")
        if old_v is MISSING or not isinstance(old_v, list):
            self.emit(
                "constraint-tightened",
                ptr,
                f"`{where}` now only accepts the values of a new enum {_fmt(new_v)}",
                after=new_v,
            )
            return
        if new_v is MISSING or not isinstance(new_v, list):
            self.emit(
                "constraint-loosened",
                ptr,
                f"`{where}` no longer restricts values to an enum",
                side="old",
                before=old_v,
            )
            return
        old_c = {canonical(x): x for x in old_v}
        new_c = {canonical(x): x for x in new_v}
        for k, v in old_c.items():
            if k not in new_c:
                self.emit(
                    "enum-value-removed",
                    ptr,
                    f"`{where}` no longer accepts {_fmt(v)}",
                    before=v,
                    hint="calls sending this value are refused now",
                )
        for k, v in new_c.items():
            if k not in old_c:
                self.emit("enum-value-added", ptr, f"`{where}` now also accepts {_fmt(v)}", after=v)

    def _const(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        if new_v is MISSING:
            self.emit(
                "constraint-loosened",
                (*tokens, keyword),
                f"`{self.label(tokens)}` is no longer a constant",
                side="old",
                before=old_v,
            )
        else:
            self.emit(
                "constraint-tightened",
                (*tokens, keyword),
                f"`{self.label(tokens)}` must now equal {_fmt(new_v)} (was {_fmt(old_v)})",
                before=old_v,
                after=new_v,
            )

    def _nullable(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        self._type(tokens, keyword, sub, old_s, new_s, old_v, new_v)

    def _additional(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_s: Any, new_s: Any, old_v: Any, new_v: Any
    ) -> None:
        before, after = _closedness(old_v), _closedness(new_v)
        where = self.label(tokens)
        ptr = (*tokens, keyword)
        side = "old" if new_v is MISSING else "new"
        if after == "closed" and before != "closed":
            self.emit(
                "additional-properties-closed",
                ptr,
                f"`{where}` now refuses keys it does not declare (`{keyword}`: {_fmt(old_v)} -> false)",
                side=side,
                before=old_v,
                after=new_v,
                hint="a model that sends an undeclared key gets a refusal that names no key",
            )
        elif before == "closed" and after != "closed":
            self.emit(
                "additional-properties-opened",
                ptr,
                f"`{where}` now accepts keys it does not declare",
                side=side,
                before=old_v,
                after=new_v,
            )
        elif before == "open" and after == "schema":
            self.emit(
                "constraint-tightened",
                ptr,
                f"undeclared keys of `{where}` must now match a schema",
                side=side,
                before=old_v,
                after=new_v,
            )
        elif before == "schema" and after == "open":
            self.emit(
                "constraint-loosened",
                ptr,
                f"undeclared keys of `{where}` are no longer checked",
                side=side,
                before=old_v,
                after=new_v,
            )
        elif before != after or not (isinstance(old_v, Mapping) and isinstance(new_v, Mapping)):
            self.emit(
                "schema-changed",
                ptr,
                f"`{keyword}` of `{where}` changed: {_fmt(old_v)} -> {_fmt(new_v)}",
                side=side,
                before=old_v,
                after=new_v,
            )

    def _bound(self, tokens: tuple[Any, ...], keyword: str, old_v: Any, new_v: Any) -> None:
        where = self.label(tokens)
        ptr = (*tokens, keyword)
        side = "old" if new_v is MISSING else "new"
        num = (int, float)
        lower = keyword in LOWER_BOUNDS
        if isinstance(old_v, bool) or isinstance(new_v, bool):  # draft-04 exclusiveMinimum: true
            tighter = new_v is True
        elif old_v is MISSING:
            tighter = True
        elif new_v is MISSING:
            tighter = False
        elif isinstance(old_v, num) and isinstance(new_v, num):
            tighter = new_v > old_v if lower else new_v < old_v
        else:
            self._constraint(tokens, keyword, old_v, new_v)
            return
        name = "constraint-tightened" if tighter else "constraint-loosened"
        self.emit(
            name,
            ptr,
            f"`{keyword}` of `{where}`: {_fmt(old_v)} -> {_fmt(new_v)}",
            side=side,
            before=old_v,
            after=new_v,
            hint="calls valid before may be refused now" if tighter else None,
        )

    def _constraint(self, tokens: tuple[Any, ...], keyword: str, old_v: Any, new_v: Any) -> None:
        where = self.label(tokens)
        ptr = (*tokens, keyword)
        if (
            keyword == "pattern"
            and isinstance(old_v, str)
            and isinstance(new_v, str)
            and pattern_widens(old_v, new_v)
        ):
            self.emit(
                "constraint-loosened",
                ptr,
                f"`pattern` of `{where}` accepts more characters: {_fmt(old_v)} -> {_fmt(new_v)}",
                before=old_v,
                after=new_v,
            )
            return
        if keyword == "uniqueItems":
            old_v = MISSING if old_v is False else old_v
            new_v = MISSING if new_v is False else new_v
            if old_v is new_v:
                return
        if old_v is MISSING:
            self.emit(
                "constraint-tightened",
                ptr,
                f"`{where}` has a new `{keyword}`: {_fmt(new_v)}",
                after=new_v,
                hint="calls valid before may be refused now",
            )
        elif new_v is MISSING:
            self.emit(
                "constraint-loosened", ptr, f"`{keyword}` of `{where}` was removed", side="old", before=old_v
            )
        else:
            self.emit(
                "constraint-tightened",
                ptr,
                f"`{keyword}` of `{where}` changed: {_fmt(old_v)} -> {_fmt(new_v)}",
                before=old_v,
                after=new_v,
                hint="the new value cannot be proven to accept every value the old one did",
            )

    def _subschema_keyword(
        self, tokens: tuple[Any, ...], keyword: str, sub: Any, old_v: Any, new_v: Any
    ) -> None:
        where = self.label(tokens)
        if keyword in ("$defs", "definitions"):
            name = f"{keyword}/{sub}" if sub is not None else keyword
            self.emit(
                "metadata-changed",
                (*tokens, keyword, *(() if sub is None else (sub,))),
                f"definition `{name}` of `{where}` was added, removed or replaced "
                "(what refers to it is classified where the $ref is)",
                side="old" if resolve(new_v, () if sub is None else (sub,)) is MISSING else "new",
            )
            return
        if sub is None:
            if old_v is MISSING:
                self.emit(
                    "constraint-tightened",
                    (*tokens, keyword),
                    f"`{where}` has a new `{keyword}`",
                    after=new_v,
                    hint="calls valid before may be refused now",
                )
            elif new_v is MISSING:
                self.emit(
                    "constraint-loosened",
                    (*tokens, keyword),
                    f"`{keyword}` of `{where}` was removed",
                    side="old",
                    before=old_v,
                )
            else:
                self.emit(
                    "schema-changed",
                    (*tokens, keyword),
                    f"`{keyword}` of `{where}` changed: {_fmt(old_v)} -> {_fmt(new_v)}",
                    before=old_v,
                    after=new_v,
                )
            return
        old_b, new_b = resolve(old_v, (sub,)), resolve(new_v, (sub,))
        ptr = (*tokens, keyword, sub)
        if old_b is not MISSING and new_b is not MISSING:
            self.classify(ptr, None, None)
        elif keyword in ("anyOf", "oneOf"):
            if old_b is MISSING:
                self.emit(
                    "union-branch-added",
                    ptr,
                    f"`{where}` accepts a new `{keyword}` branch {_fmt(new_b)}",
                    after=new_b,
                )
            else:
                self.emit(
                    "union-branch-removed",
                    ptr,
                    f"`{keyword}` branch {sub} of `{where}` was removed ({_fmt(old_b)})",
                    side="old",
                    before=old_b,
                    hint="calls that matched only this branch are refused now",
                )
        elif old_b is MISSING:
            self.emit(
                "constraint-tightened",
                ptr,
                f"`{where}` has a new `{keyword}` entry {_fmt(new_b)}",
                after=new_b,
                hint="calls valid before may be refused now",
            )
        else:
            self.emit(
                "constraint-loosened",
                ptr,
                f"`{keyword}` entry {sub} of `{where}` was removed",
                side="old",
                before=old_b,
            )


_CLASS = re.compile(r"\[(\^?)((?:\\.|[^\]\\])*)\]")
_CLASS_ITEM = re.compile(r"\\.-\\.|\\.-[^\\]|[^\\]-\\.|[^\\-]-[^\\]|\\.|.", re.S)


def pattern_widens(old: str, new: str) -> bool:
    """True when ``new`` is ``old`` with only characters or ranges added to character classes.

    A deliberately narrow proof: both patterns must be identical outside ``[...]`` classes,
    no class may be negated, and every item (``a``, ``\\-``, ``A-Z``) of each old class must
    appear in the matching new class. Anything else returns False (not proven).
    """
    if old == new:
        return False
    old_classes, new_classes = _CLASS.findall(old), _CLASS.findall(new)
    if len(old_classes) != len(new_classes) or _CLASS.sub("[]", old) != _CLASS.sub("[]", new):
        return False
    for (neg_a, a), (neg_b, b) in zip(old_classes, new_classes, strict=True):
        if neg_a or neg_b:
            return False
        if not set(_CLASS_ITEM.findall(a)) <= set(_CLASS_ITEM.findall(b)):
            return False
    return True


def _strip_text(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in TEXT_KEYWORDS}


def _closest(core: Any, branches: list[Any]) -> int:
    """Index of the branch most like ``core``: same meaning, else most shared types, else keys."""
    for i, b in enumerate(branches):
        if same_meaning(core, b):
            return i
    core_types = _types(core)

    def score(item: tuple[int, Any]) -> tuple[int, int, int]:
        i, b = item
        if not isinstance(b, Mapping):
            return (-1, -1, -i)
        shared_types = len(core_types & _types(b)) if "type" in b or "type" in core else 0
        shared = sum(
            1
            for k, v in b.items()
            if isinstance(core, Mapping)
            and canonical(core.get(k, MISSING) if k in core else None) == canonical(v)
        )
        return (shared_types, shared, -i)

    return max(enumerate(branches), key=score)[0]


def _required(schema: Any) -> set[str]:
    if not isinstance(schema, Mapping) or not isinstance(schema.get("required"), list):
        return set()
    return {r for r in schema["required"] if isinstance(r, str)}


def _props(schema: Any) -> Mapping[str, Any]:
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


def _rename_pairs(
    removed: list[str], added: list[str], old_p: Mapping[str, Any], new_p: Mapping[str, Any]
) -> dict[str, str]:
    """Pairs (removed -> added) whose schemas have the same shape; each name used at most once."""
    pairs: dict[str, str] = {}
    taken: set[str] = set()
    for r in removed:
        key = shape_key(old_p[r])
        for a in added:
            if a not in taken and shape_key(new_p[a]) == key:
                pairs[r] = a
                taken.add(a)
                break
    return pairs


Handler = Callable[[SchemaClassifier, tuple[Any, ...], str, Any, Any, Any, Any, Any], None]
_HANDLERS: dict[str, Handler] = {
    "properties": SchemaClassifier._properties,
    "required": SchemaClassifier._required,
    "type": SchemaClassifier._type,
    "nullable": SchemaClassifier._nullable,
    "enum": SchemaClassifier._enum,
    "const": SchemaClassifier._const,
    "additionalProperties": SchemaClassifier._additional,
    "unevaluatedProperties": SchemaClassifier._additional,
}


def classify_schema(old: Any, new: Any, **kwargs: Any) -> list[Change]:
    """Classify every difference between schemas ``old`` and ``new``; see :class:`SchemaClassifier`."""
    return SchemaClassifier(old, new, **kwargs).run()
