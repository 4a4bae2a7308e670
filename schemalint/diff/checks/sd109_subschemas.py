"""SD109 union-branch-removed and SD211 union-branch-added, and the other keywords that hold
subschemas (``items``, ``not``, ``allOf``, ``patternProperties``, ``$defs`` ...).

A schema wrapped into ``anyOf``/``oneOf`` (``{"type": "string"}`` ->
``{"anyOf": [{"type": "string", "minLength": 1}, {"type": "null"}]}``) is compared with its
closest branch (here: ``minLength`` tightened) and the other branches are SD211
(:func:`union_shift`). A subschema keyword that appears is SD107, one that disappears
SD207, one that changes where the classifier cannot descend SD111; ``$defs`` entries added or removed
are SD212 (what refers to them is classified where the ``$ref`` is; a change inside an entry nothing
refers to too, :mod:`schemalint.diff.unreached`). A condition written beside an otherwise unchanged
schema (an ``allOf`` conjunct, an ``anyOf``/``oneOf`` of several branches) is SD107 added and SD207
removed (:func:`_conjunct`). A ``type`` list wrapped into
``anyOf`` is the union of one schema per type (``{"type": ["string", "number"]}`` ->
``{"anyOf": [{"type": "string"}, {"type": "number"}]}`` changes nothing).

An ``anyOf`` branch that is itself only an ``anyOf`` (``anyOf: [{anyOf: [A, B]}, null]``, the shape
zod gives a nullable union) admits what its branches admit, so where either side nests one, the
two unions are compared as the flat lists of their branches (:func:`flattened_union`): equal
branches match wherever they sit, and only the rest is reported, at its own pointer.

A ``oneOf`` rewritten as an ``anyOf`` of the same branches (or back) is no branch removed and
added (:func:`union_swap`): the branches are matched as one union's, and the keyword itself is a
change only when a value can match two branches, which ``anyOf`` accepts and ``oneOf`` refuses
(JSON Schema 2020-12 Core, sections 10.2.1.2-10.2.1.3): SD208 for ``oneOf`` -> ``anyOf``, SD108
for the other way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.diff.checks._common import (
    LISTED,
    MISSING,
    NAMED,
    SINGLE,
    TEXT_KEYWORDS,
    Classifier,
    Site,
    canonical,
    fmt,
    resolve,
    same_meaning,
    types_of,
)
from schemalint.diff.checks._subsume import admits
from schemalint.schema.unions import branches_disjoint

_REFUSED_HINT = "calls that matched only this branch are refused now"


def matches(keyword: str) -> bool:
    """Every keyword whose value is a subschema, a list of them or a map of them."""
    return keyword in SINGLE or keyword in LISTED or keyword in NAMED


def check(site: Site) -> None:
    """Classify a subschema keyword, or one entry (``sub``) of it."""
    c, tokens, keyword, sub, old_v, new_v, where = (
        site.c, site.tokens, site.keyword, site.sub, site.old_v, site.new_v, site.where
    )
    if keyword in ("$defs", "definitions"):
        name = f"{keyword}/{sub}" if sub is not None else keyword
        c.emit(
            "metadata-changed",
            (*tokens, keyword, *(() if sub is None else (sub,))),
            f"definition `{name}` of `{where}` was added, removed or replaced "
            "(what refers to it is classified where the $ref is)",
            side="old" if resolve(new_v, () if sub is None else (sub,)) is MISSING else "new",
        )
        return
    if sub is None:
        if old_v is MISSING:
            c.emit("constraint-tightened", site.pointer, f"`{where}` has a new `{keyword}`", after=new_v,
                   hint="calls valid before may be refused now")
        elif new_v is MISSING:
            c.emit("constraint-loosened", site.pointer, f"`{keyword}` of `{where}` was removed", side="old",
                   before=old_v)
        else:
            c.emit("schema-changed", site.pointer, f"`{keyword}` of `{where}` changed: {fmt(old_v)} -> {fmt(new_v)}",
                   before=old_v, after=new_v)
        return
    old_b, new_b = resolve(old_v, (sub,)), resolve(new_v, (sub,))
    ptr = (*tokens, keyword, sub)
    if old_b is not MISSING and new_b is not MISSING:
        c.classify(ptr, None, None)
    elif keyword == "prefixItems":
        _position(site, sub, old_b, new_b)
    elif keyword in ("anyOf", "oneOf"):
        if old_b is MISSING:
            c.emit("union-branch-added", ptr, f"`{where}` accepts a new `{keyword}` branch {fmt(new_b)}", after=new_b)
        else:
            c.emit("union-branch-removed", ptr, f"`{keyword}` branch {sub} of `{where}` was removed ({fmt(old_b)})",
                   side="old", before=old_b, hint=_REFUSED_HINT)
    elif old_b is MISSING:
        c.emit("constraint-tightened", ptr, f"`{where}` has a new `{keyword}` entry {fmt(new_b)}", after=new_b,
               hint="calls valid before may be refused now")
    else:
        c.emit("constraint-loosened", ptr, f"`{keyword}` entry {sub} of `{where}` was removed", side="old",
               before=old_b)


def _open(schema: Any) -> bool:
    return schema is MISSING or schema is True or (isinstance(schema, Mapping) and not schema)


def _position(site: Site, index: Any, old_b: Any, new_b: Any) -> None:
    """A tuple position that one side names and the other leaves to its rest schema (``items``
    beside ``prefixItems``; draft-07 ``additionalItems`` beside an array ``items``, compared in the
    2020-12 spelling): the positional schema is compared with the rest schema of the other side
    (absent: any value), as a caller sees it -- a position now named by a narrower schema than the
    rest that governed it refuses calls valid before (Core 2020-12 section 10.3.1.2)."""
    c, tokens, where = site.c, site.tokens, site.where
    added = old_b is MISSING
    rest_tokens = (*tokens, "items")
    rest = resolve(site.old_s if added else site.new_s, ("items",))
    ptr = (*tokens, "prefixItems", index)
    item = new_b if added else old_b
    if same_meaning(rest, item) or (_open(rest) and _open(item)):
        return
    if added:
        if rest is False:
            c.emit("constraint-loosened", ptr, f"`{where}` accepts an item at position {index} now (the tuple was "
                   f"closed there): {fmt(new_b)}", after=new_b)
        elif _open(rest):
            c.emit("constraint-tightened", ptr, f"`{where}` has a new positional item {index}: {fmt(new_b)}",
                   after=new_b, hint="calls valid before may be refused now")
        else:
            c.changes.extend(c.nested(rest, new_b, old_prefix=rest_tokens, new_prefix=ptr).run())
        return
    if rest is False:
        c.emit("constraint-tightened", rest_tokens, f"`{where}` no longer accepts an item at position {index} "
               f"(it was {fmt(old_b)}; the rest of the tuple is closed)", before=old_b, after=False,
               hint="calls valid before may be refused now")
    elif _open(rest):
        c.emit("constraint-loosened", ptr, f"positional item {index} of `{where}` was removed (any value is "
               "accepted there now)", side="old", before=old_b)
    else:
        c.changes.extend(c.nested(old_b, rest, old_prefix=ptr, new_prefix=rest_tokens).run())


def _swapped(old_s: Any, new_s: Any) -> tuple[str, str] | None:
    """``(old keyword, new keyword)`` when one side holds a ``oneOf`` and the other an ``anyOf``
    in its place (each list non-empty, neither side holding both), else ``None``."""
    if not isinstance(old_s, Mapping) or not isinstance(new_s, Mapping):
        return None
    for old_kw, new_kw in (("oneOf", "anyOf"), ("anyOf", "oneOf")):
        if (isinstance(old_s.get(old_kw), list) and old_s[old_kw] and new_kw not in old_s
                and isinstance(new_s.get(new_kw), list) and new_s[new_kw] and old_kw not in new_s):
            return old_kw, new_kw
    return None


def union_swap(c: Classifier, tokens: tuple[Any, ...], old_s: Any, new_s: Any) -> bool:
    """Classify a ``oneOf`` rewritten as ``anyOf`` (or back) at ``tokens``; True when that is the
    change (then both keywords are covered, once per schema position, remembered in ``c.swapped``).

    The branches are compared as two lists of one union (equal ones match wherever they sit). When
    a value can match two of the branches, ``oneOf`` -> ``anyOf`` accepts it now
    (constraint-loosened) and ``anyOf`` -> ``oneOf`` refuses it now (constraint-tightened); when the
    branches are disjoint (:func:`schemalint.schema.unions.branches_disjoint`) the keyword change
    means nothing and only branch changes are reported."""
    kinds = _swapped(old_s, new_s)
    if kinds is None:
        return False
    if tokens in c.swapped:
        return True
    c.swapped.add(tokens)
    old_kw, new_kw = kinds
    where = c.label(tokens)
    olds = [((*tokens, old_kw, i), b) for i, b in enumerate(old_s[old_kw])]
    news = [((*tokens, new_kw, i), b) for i, b in enumerate(new_s[new_kw])]
    _match(c, olds, news, where, (old_kw, new_kw))
    one_of = list(old_s[old_kw] if old_kw == "oneOf" else new_s[new_kw])
    if branches_disjoint(one_of):
        return True
    if old_kw == "oneOf":
        c.emit("constraint-loosened", (*tokens, "anyOf"),
               f"`{where}`: `oneOf` became `anyOf`, so a value that matches more than one branch is accepted now",
               before=old_s[old_kw], after=new_s[new_kw])
    else:
        c.emit("constraint-tightened", (*tokens, "oneOf"),
               f"`{where}`: `anyOf` became `oneOf`, so a value that matches more than one branch is refused now",
               before=old_s[old_kw], after=new_s[new_kw], hint="calls valid before may be refused now")
    return True


def union_shift(c: Classifier, tokens: tuple[Any, ...], old_s: Any, new_s: Any) -> bool:
    """Handle a schema wrapped into (or unwrapped from) ``anyOf``/``oneOf``; True when handled.

    Every non-text keyword of that schema is covered by this comparison, so it is done once
    per schema position (remembered in ``c.shifted``).
    """
    if tokens in c.shifted:
        return c.shifted[tokens]
    c.shifted[tokens] = False
    if not isinstance(old_s, Mapping) or not isinstance(new_s, Mapping) or _swapped(old_s, new_s):
        return False
    for kw in ("anyOf", "oneOf", "allOf"):
        for wrapped_side, plain, wrapped in (("new", old_s, new_s), ("old", new_s, old_s)):
            if isinstance(wrapped.get(kw), list) and kw not in plain and wrapped[kw]:
                c.shifted[tokens] = True
                if not _conjunct(c, tokens, kw, plain, wrapped, wrapped_side):
                    _wrap(c, tokens, kw, old_s, new_s, wrapped_side=wrapped_side)
                return True
    return False


def _bare(schema: Mapping[str, Any], drop: str) -> dict[str, Any]:
    """``schema`` without ``drop``, its text keywords and ``default`` (compared where they stand)."""
    return _strip_text({k: v for k, v in schema.items() if k not in (drop, "default")})


def _conjunct(c: Classifier, tokens: tuple[Any, ...], kw: str, plain: Mapping[str, Any],
              wrapped: Mapping[str, Any], wrapped_side: str) -> bool:
    """An ``anyOf``/``oneOf`` of several branches written beside a schema that is otherwise unchanged
    (``{"type": "object", ...}`` -> the same with ``"anyOf": [{"required": ["a"]}, {"required": ["b"]}]``)
    is one more condition an instance must meet (Core 2020-12 section 10.2: the keywords of a schema
    all apply): adding it is SD107, removing it SD207, never a branch added or removed. True when
    that is the change (reported here). A single branch, or ``allOf``, is compared in :func:`_wrap`."""
    branches = wrapped[kw]
    if kw == "allOf" or len(branches) < 2:
        return False
    plain_bare, beside = _bare(plain, kw), _bare(wrapped, kw)
    unchanged = same_meaning(plain_bare, beside)
    if not unchanged and not (beside and all(_condition(b) for b in branches)):
        return False
    where = c.label(tokens)
    if wrapped_side == "new":
        c.emit("constraint-tightened", (*tokens, kw), f"`{where}` must now also match one of {len(branches)} "
               f"`{kw}` branches (a new condition beside its schema)", after=branches,
               hint="calls valid before may be refused now")
    else:
        c.emit("constraint-loosened", (*tokens, kw), f"`{where}` no longer has to match one of {len(branches)} "
               f"`{kw}` branches (a condition beside its schema was removed)", side="old", before=branches)
    if not unchanged:  # the schema beside the union changed too: compared as any schema is
        old, new = (plain_bare, beside) if wrapped_side == "new" else (beside, plain_bare)
        sub = c.nested(old, new, old_prefix=tokens, new_prefix=tokens)
        c.changes.extend(sub.run())
    return True


_SHAPING = frozenset({"type", "properties", "patternProperties", "additionalProperties", "items", "prefixItems",
                      "$ref", "enum", "const", "anyOf", "oneOf", "allOf"})
"""Keywords that say what a value is, not only which values of it are allowed (:func:`_condition`)."""


def _condition(branch: Any) -> bool:
    """Whether the union branch ``branch`` only narrows the schema written beside its union
    (``{"required": ["body"]}``, ``{"minProperties": 1}``, ``{"not": ...}``) and defines no shape of
    its own (no ``type``, ``properties``, ``$ref``, ``enum``, ... of :data:`_SHAPING`): a union of
    such branches is a condition on that schema, never alternatives to it."""
    if not isinstance(branch, Mapping):
        return False
    own = _strip_text(branch)
    return bool(own) and not any(k in _SHAPING for k in own)


def _conjoined(beside: Mapping[str, Any], branch: Mapping[str, Any]) -> dict[str, Any]:
    """The schema a value meets when it matches both ``beside`` (the keywords written next to a
    union) and the union's ``branch`` (Core 2020-12 section 10.2: the keywords of a schema all
    apply): their ``required`` names together and their ``properties`` together; for any other
    keyword both write, the branch's (the nearer one, compared as it stands)."""
    merged = {**beside, **branch}
    required = [*beside.get("required", ()), *branch.get("required", ())] if isinstance(
        beside.get("required", []), list) and isinstance(branch.get("required", []), list) else None
    if required is not None and "required" in beside and "required" in branch:
        merged["required"] = list(dict.fromkeys(required))
    props_beside, props_branch = beside.get("properties"), branch.get("properties")
    if isinstance(props_beside, Mapping) and isinstance(props_branch, Mapping):
        merged["properties"] = {**props_beside, **props_branch}
    return merged


def _strip_text(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in TEXT_KEYWORDS}


def _closest(core: Any, branches: list[Any], nullable: bool = False) -> int:
    """Index of the branch most like ``core``: same meaning, else most shared types, else keys
    (``nullable``: a side is read as OpenAPI 3.0, :func:`~schemalint.diff.checks._common.types_of`)."""
    for i, b in enumerate(branches):
        if same_meaning(core, b):
            return i
    core_types = types_of(core, nullable)

    def score(item: tuple[int, Any]) -> tuple[int, int, int]:
        i, b = item
        if not isinstance(b, Mapping):
            return (-1, -1, -i)
        shared_types = len(core_types & types_of(b, nullable)) if "type" in b or "type" in core else 0
        shared = sum(
            1
            for k, v in b.items()
            if isinstance(core, Mapping)
            and canonical(core.get(k, MISSING) if k in core else None) == canonical(v)
        )
        return (shared_types, shared, -i)

    return max(enumerate(branches), key=score)[0]


def _wrap(
    c: Classifier, tokens: tuple[Any, ...], kw: str, old_s: Mapping[str, Any], new_s: Mapping[str, Any],
    wrapped_side: str,
) -> None:
    plain, wrapped = (old_s, new_s) if wrapped_side == "new" else (new_s, old_s)
    # the text keywords and `default` of both schemas are compared where they stand (SchemaClassifier)
    core = _strip_text({k: v for k, v in plain.items() if k != "default"})
    rest = _strip_text({k: v for k, v in wrapped.items() if k not in (kw, "default")})
    branches = [_strip_text(_conjoined(rest, b)) if isinstance(b, Mapping) else b for b in wrapped[kw]]
    types = core.get("type")
    if kw == "anyOf" and isinstance(types, list) and len(types) > 1:
        # {"type": ["string", "number"]} is {"anyOf": [{"type": "string"}, {"type": "number"}]}: one
        # schema per type, matched with the branches like two unions
        parts = [(tokens, {**core, "type": t}) for t in types]
        own = [((*tokens, kw, i), b) for i, b in enumerate(branches)]
        olds, news = (parts, own) if wrapped_side == "new" else (own, parts)
        _match(c, olds, news, c.label(tokens))
        return
    best = _closest(core, branches, c.old_nullable or c.new_nullable)
    sub_tokens = (*tokens, kw, best)
    own = wrapped[kw][best]
    # a keyword written beside the union, not in the branch, is reported where it stands
    lift = (c.at(wrapped_side, tokens), frozenset(k for k in rest if not (isinstance(own, Mapping) and k in own)))
    if wrapped_side == "new":
        sub = c.nested(core, branches[best], old_prefix=tokens, new_prefix=sub_tokens)
        sub.lift["new"] = lift
    else:
        sub = c.nested(branches[best], core, old_prefix=sub_tokens, new_prefix=tokens)
        sub.lift["old"] = lift
    if not same_meaning(sub.old, sub.new):
        c.changes.extend(sub.run())
    if isinstance(own, Mapping):  # text the branch holds itself is text the other side lacks there
        for text_kw in TEXT_KEYWORDS:
            if text_kw in own:
                c.classify(sub_tokens, text_kw, None)
    where = c.label(tokens)
    for i, branch in enumerate(wrapped[kw]):
        if i == best:
            continue
        if kw == "allOf":  # every allOf branch applies: each other one is a condition added or removed
            if wrapped_side == "new":
                c.emit("constraint-tightened", (*tokens, kw, i), f"`{where}` must now also match {fmt(branch)} "
                       "(a new `allOf` condition)", after=branch, hint="calls valid before may be refused now")
            else:
                c.emit("constraint-loosened", (*tokens, kw, i), f"`{where}` no longer has to match "
                       f"{fmt(branch)} (an `allOf` condition was removed)", side="old", before=branch)
        elif wrapped_side == "new":
            if kw == "anyOf" and any(k != i and admits(other, branches[i]) for k, other in enumerate(branches)):
                continue  # another branch admits all it admits: no value is added
            overlap = next((k for k, other in enumerate(branches) if k != i
                            and (admits(other, branches[i]) or admits(branches[i], other))), None) \
                if kw == "oneOf" else None
            if overlap is not None:
                c.emit("constraint-tightened", (*tokens, kw, i), f"`{where}` has a new `oneOf` branch {fmt(branch)} "
                       f"that overlaps branch {overlap} ({fmt(wrapped[kw][overlap])}): a value matching both is "
                       "refused now (`oneOf` admits a value matching exactly one branch)", after=branch,
                       hint="make the branches exclusive, or use `anyOf`")
                continue
            c.emit("union-branch-added", (*tokens, kw, i),
                   f"`{where}` now also accepts {fmt(branch)} (a new `{kw}` branch)", after=branch)
        elif admits(core, branches[i]):
            if kw == "oneOf":  # an anyOf branch the schema left admits changes nothing: no change
                c.emit("constraint-loosened", (*tokens, kw, i), _ONE_OF_OVERLAP.format(where=where, branch=fmt(branch)),
                       side="old", before=branch)
        else:
            c.emit("union-branch-removed", (*tokens, kw, i),
                   f"`{where}` no longer accepts {fmt(branch)} (its `{kw}` was reduced to one schema)",
                   side="old", before=branch, hint=_REFUSED_HINT)


_ONE_OF_OVERLAP = ("a `oneOf` branch of `{where}` was removed ({branch}) that the schema left also admits: a value "
                   "matching both was refused (`oneOf` admits a value matching exactly one branch) and is accepted now")
"""SD207 for a ``oneOf`` branch removed whose values what is left admits (:func:`admits`); the same
removal from an ``anyOf`` changes no accepted value and is no change (the tool is then same-meaning)."""


def _pure_union(branch: Any) -> bool:
    """``branch`` is ``{"anyOf": [...]}`` and nothing else (it admits what its branches admit; one
    with a description of its own is compared as it stands, so that a change of that text is seen)."""
    return isinstance(branch, Mapping) and len(branch) == 1 and isinstance(branch.get("anyOf"), list)


def _flat_branches(branches: list[Any], at: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], Any]]:
    """The branches of the ``anyOf`` list ``branches`` (at schema tokens ``at``), nested pure unions
    spliced in, each with its own tokens."""
    out: list[tuple[tuple[Any, ...], Any]] = []
    for i, b in enumerate(branches):
        if _pure_union(b):
            out.extend(_flat_branches(b["anyOf"], (*at, i, "anyOf")))
        else:
            out.append(((*at, i), b))
    return out


def _disjoint(a: Any, b: Any, nullable: bool = False) -> bool:
    """Both branches declare types and share none (a new type is a new branch, not a changed one)."""
    ta, tb = types_of(a, nullable), types_of(b, nullable)
    return bool(ta) and bool(tb) and not ta & tb


def flattened_union(c: Classifier, tokens: tuple[Any, ...], keyword: str | None) -> bool:
    """Compare the ``anyOf``/``oneOf`` enclosing a change (at ``tokens``, of ``keyword``) branch by
    branch, as a set, when either side nests a pure ``anyOf`` (spliced in), the two lists differ in
    length (a branch added or removed) or a branch moved (:func:`_aligned`): comparing by position
    would call every later branch changed;
    True when the change lies in such a union (it is then reported here, once per union position,
    remembered in ``c.flattened``)."""
    ends = [(i, t) for i, t in enumerate(tokens) if t in ("anyOf", "oneOf")]
    if keyword in ("anyOf", "oneOf"):
        ends.append((len(tokens), keyword))
    for end, kw in ends:
        at = tokens[:end]
        key = (*at, kw)
        if key not in c.flattened:
            c.flattened[key] = _compare_flat(c, at, kw)
        if c.flattened[key]:
            return True
    return False


def _compare_flat(c: Classifier, at: tuple[Any, ...], kw: str) -> bool:
    old_s, new_s = resolve(c.old, at), resolve(c.new, at)
    if not isinstance(old_s, Mapping) or not isinstance(new_s, Mapping):
        return False
    old_l, new_l = old_s.get(kw), new_s.get(kw)
    if not isinstance(old_l, list) or not isinstance(new_l, list):
        return False
    nested = kw == "anyOf" and any(_pure_union(b) for b in (*old_l, *new_l))
    if not nested and len(old_l) == len(new_l) and _aligned(old_l, new_l):
        return False
    if kw == "anyOf":
        olds, news = _flat_branches(old_l, (*at, kw)), _flat_branches(new_l, (*at, kw))
    else:
        olds, news = [((*at, kw, i), b) for i, b in enumerate(old_l)], [((*at, kw, i), b) for i, b in enumerate(new_l)]
    _match(c, olds, news, c.label(at), (kw, kw))
    return True


def _aligned(old_l: list[Any], new_l: list[Any]) -> bool:
    """Whether comparing the branches of two unions of one length position by position is right:
    no branch of one list equals (in meaning) a branch at another position of the other, so none
    was moved. A branch that did move (``[A, B]`` -> ``[B, A]``, or ``[A, B]`` -> ``[B', A]``) makes
    the lists be matched as sets; by position every branch after it would read as changed."""
    for i, old_b in enumerate(old_l):
        for j, new_b in enumerate(new_l):
            if i != j and same_meaning(old_b, new_b):
                return False
    return True


def _match(
    c: Classifier, olds: list[tuple[tuple[Any, ...], Any]], news: list[tuple[tuple[Any, ...], Any]], where: str,
    keywords: tuple[str, str] = ("anyOf", "anyOf"),
) -> None:
    """Report the difference between two sets of ``anyOf`` branches (each with its schema tokens):
    equal branches match wherever they sit, a changed one is compared with its closest old one, the
    rest is SD211 / SD109 (or SD207 for a removed branch that a branch left admits: :func:`admits`)."""
    news_all = list(news)
    for nt, nb in list(news):  # equal branches match wherever they sit
        hit = next((o for o in olds if same_meaning(o[1], nb)), None)
        if hit is not None:
            olds.remove(hit)
            news.remove((nt, nb))
    for nt, nb in news:
        nullable = c.old_nullable or c.new_nullable
        i = _closest(nb, [b for _, b in olds], nullable) if olds else -1
        if i < 0 or _disjoint(olds[i][1], nb, nullable):
            if keywords[1] == "anyOf" and any(t != nt and admits(other, nb) for t, other in news_all):
                continue  # another branch admits all it admits: no value is added
            overlap = next((k for k, (t, other) in enumerate(news_all) if t != nt
                            and (admits(other, nb) or admits(nb, other))), None) if keywords[1] == "oneOf" else None
            if overlap is not None:
                c.emit("constraint-tightened", nt, f"`{where}` has a new `oneOf` branch {fmt(nb)} that overlaps "
                       f"branch {overlap} ({fmt(news_all[overlap][1])}): a value matching both is refused now "
                       "(`oneOf` admits a value matching exactly one branch)", after=nb,
                       hint="make the branches exclusive, or use `anyOf`")
                continue
            c.emit("union-branch-added", nt, f"`{where}` now also accepts {fmt(nb)} (a new `{keywords[1]}` branch)",
                   after=nb)
            continue
        ot, ob = olds.pop(i)
        c.changes.extend(c.nested(ob, nb, old_prefix=ot, new_prefix=nt).run())
    kept = [nb for _, nb in news_all]
    for ot, ob in olds:
        if any(admits(nb, ob) for nb in kept):
            if keywords[0] == "oneOf":  # an anyOf branch another one admits changes nothing: no change
                c.emit("constraint-loosened", ot, _ONE_OF_OVERLAP.format(where=where, branch=fmt(ob)), side="old",
                       before=ob)
            continue
        c.emit("union-branch-removed", ot, f"`{where}` no longer accepts {fmt(ob)} "
               f"({'an' if keywords[0] == 'anyOf' else 'a'} `{keywords[0]}` branch was removed)",
               side="old", before=ob, hint=_REFUSED_HINT)
