"""One lean walk per schema, shared by the shape, provider and description rules.

Rules run tool by tool (:func:`schemalint.engine.run_tool_rules`), so SL001, SL003,
SL004, the provider rules and SL201 ask for the same schema one after the other;
:func:`index_schema` walks it once and keeps the last few results (keyed by object
identity, holding a reference so an id is never reused while cached).

The walk covers the same keywords as :func:`schemalint.schema.walk.walk` (every
applicator, ``$defs``/``definitions``; ``$ref`` not followed) and visits the same
dict subschemas in the same order (depth-first, root first, in key order), but builds
no pointer strings: each visited subschema keeps a link to its parent, and pointers and
instance paths are computed only for the nodes a rule reports. Nodes with a given
keyword (:meth:`SchemaIndex.having`) are collected on first request. This keeps all
per-schema rules near the cost of one bare traversal, which matters on catalogs of
10,000+ tools (``benchmarks/run.py``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import schemalint.schema as vocabulary
from schemalint.model import RunContext, escape_token

MAX_NODES = 200_000
"""Walk at most this many subschemas of one schema (guards exponential fan-out)."""

MAX_DEPTH = 500
"""Stop the walk below this many nested keywords: deeper schemas are reported as too deep
(nothing real nests that far; the native metaschema validator would overflow its stack)."""

CONDITIONAL_KEYWORDS = vocabulary.CONDITIONAL
"""Keywords whose subschemas constrain an instance without declaring its shape."""

_MAPS = vocabulary.MAPS
_SINGLE = vocabulary.SINGLE
_LISTS = vocabulary.ARRAYS
_ANY = "*"
_NO_INSTANCE = vocabulary.NO_INSTANCE
_ANY_CHILD = vocabulary.ANY_MEMBER


def nesting_depth(value: Any, stop: int) -> int:
    """How deep ``value`` nests (objects and arrays; a scalar is 0), iteratively, so any depth is
    measured without recursion; counting stops once it passes ``stop``."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping):
            children: Any = node.values()
        elif isinstance(node, list | tuple):
            children = node
        else:
            continue
        if depth > deepest:
            deepest = depth
            if deepest > stop:
                return deepest
        stack.extend((c, depth + 1) for c in children)
    return deepest


class SchemaNode:
    """One object subschema: ``schema`` (a dict), its ``parent`` node, the ``keyword`` that led
    here from the parent (``""`` at the root), ``token`` (the map key or list index under that
    keyword, or ``None``), ``depth`` (keywords descended from the root) and ``conditional``
    (it lies in or under an ``if``/``then``/``else``/``not``/``dependentSchemas``/
    ``dependencies``/``propertyNames``/``contains`` subschema: it constrains, it does not declare)."""

    __slots__ = ("_instance_path", "_pointer", "conditional", "depth", "keyword", "parent", "schema", "token")
    _pointer: str

    def __init__(self, schema: dict[str, Any], parent: SchemaNode | None, keyword: str,
                 token: str | None, depth: int, conditional: bool = False) -> None:
        self.schema = schema
        self.parent = parent
        self.keyword = keyword
        self.token = token
        self.depth = depth
        self.conditional = conditional
        # _pointer and _instance_path are set on first use (an unset slot costs nothing on the hot path)

    @property
    def pointer(self) -> str:
        """JSON pointer (RFC 6901) of this subschema relative to the walked root (computed once)."""
        try:
            return self._pointer
        except AttributeError:
            pass
        chain: list[SchemaNode] = []
        node: SchemaNode | None = self
        known: str | None = None
        while node is not None:
            known = getattr(node, "_pointer", None)
            if known is not None:
                break
            chain.append(node)
            node = node.parent
        pointer = known or ""
        for item in reversed(chain):
            if item.parent is not None:
                pointer += "/" + escape_token(item.keyword)
                if item.token is not None:
                    pointer += "/" + escape_token(item.token)
            item._pointer = pointer
        return pointer

    @property
    def instance_path(self) -> str | None:
        """Pointer into the instance this subschema governs (``*`` = any index/other key), or
        ``None`` inside ``$defs``/``not``/``if``/``propertyNames`` (computed once)."""
        try:
            return self._instance_path
        except AttributeError:
            self._instance_path: str | None = self._find_instance_path()
            return self._instance_path

    def _find_instance_path(self) -> str | None:
        parts: list[str] = []
        node: SchemaNode | None = self
        while node is not None and node.parent is not None:
            kw = node.keyword
            if kw in _NO_INSTANCE:
                return None
            if kw == "properties":
                parts.append(escape_token(node.token or ""))
            elif kw in _ANY_CHILD or (kw == "items" and node.token is None):
                parts.append(_ANY)
            elif kw in ("items", "prefixItems"):
                parts.append(node.token or "0")
            node = node.parent
        return "".join("/" + p for p in reversed(parts))

    def __repr__(self) -> str:
        return f"SchemaNode({self.pointer!r})"


class SchemaIndex:
    """Every dict subschema of one schema, from one walk.

    ``nodes``: the subschemas in walk order (root first; ``$defs`` entries included, ``$ref``
    not followed). ``max_depth``: deepest keyword nesting seen. ``truncated``: the walk
    stopped at :data:`MAX_NODES` or :data:`MAX_DEPTH` (``too_deep`` tells which).
    ``loose_properties``: some property schema (a dict under a ``properties`` map, conditional
    ones and those beyond a truncation included) has none of ``type``, ``anyOf`` and ``$ref``;
    when false, SL310 untyped-parameter has nothing to report.
    """

    __slots__ = ("_having", "_keys", "_refs", "_required", "loose_properties", "max_depth", "nodes", "root",
                 "too_deep", "truncated")

    def __init__(self, root: Any = None) -> None:
        self.root = root
        self.nodes: list[SchemaNode] = []
        self.max_depth = 0
        self.truncated = False
        self.too_deep = False
        self.loose_properties = False
        self._having: dict[tuple[str, ...], list[SchemaNode]] = {}
        self._keys: frozenset[Any] | None = None
        self._refs: list[SchemaNode] | None = None
        self._required: list[SchemaNode] | None = None

    @property
    def keys(self) -> frozenset[Any]:
        """Every key of every walked subschema (computed once, in one C-level pass): a rule that
        looks only at subschemas with a keyword finds nothing when the keyword is not here."""
        keys = self._keys
        if keys is None:
            keys = self._keys = frozenset().union(*[n.schema for n in self.nodes])
        return keys

    def having(self, *keys: str) -> list[SchemaNode]:
        """Nodes whose schema has any of ``keys``, in walk order, each once (cached per ``keys``)."""
        found = self._having.get(keys)
        if found is None:
            if len(keys) == 1:
                key = keys[0]
                found = [n for n in self.nodes if key in n.schema]
            else:
                wanted = frozenset(keys)
                found = [n for n in self.nodes if not wanted.isdisjoint(n.schema)]
            self._having[keys] = found
        return found

    @property
    def refs(self) -> list[SchemaNode]:
        """Nodes with a string ``$ref`` (computed once)."""
        found = self._refs
        if found is None:
            found = self._refs = [n for n in self.having("$ref") if type(n.schema["$ref"]) is str]
        return found

    @property
    def required(self) -> list[SchemaNode]:
        """Nodes with a non-empty list ``required`` (computed once)."""
        found = self._required
        if found is None:
            found = self._required = [n for n in self.having("required")
                                      if n.schema["required"] and type(n.schema["required"]) is list]
        return found

    @property
    def ids(self) -> list[SchemaNode]:
        """Nodes with ``$id``/``id``/``$anchor``/``$dynamicAnchor``."""
        return self.having("$id", "id", "$anchor", "$dynamicAnchor")


_APPLICATORS = _MAPS | _SINGLE | _LISTS


def _build(schema: dict[str, Any]) -> SchemaIndex:
    # The hot loop of every check: locals instead of globals, leaves (no applicator keyword) cost
    # one set operation, and children are pushed in reverse (so popped in key order) without a
    # list of their own.
    index = SchemaIndex(schema)
    append = index.nodes.append
    node_class = SchemaNode
    applicators, maps, single, lists, conditional = _APPLICATORS, _MAPS, _SINGLE, _LISTS, CONDITIONAL_KEYWORDS
    stack = [node_class(schema, None, "", None, 0, False)]
    pop = stack.pop
    push = stack.append
    count = 0
    max_depth = 0
    loose = False
    while stack:
        node = pop()
        count += 1
        if count > MAX_NODES:
            index.truncated = True
            break
        depth = node.depth
        if depth > max_depth:
            max_depth = depth
            if depth > MAX_DEPTH:
                index.truncated = index.too_deep = True
                break
        append(node)
        sub = node.schema
        if applicators.isdisjoint(sub):
            continue
        depth += 1
        cond = node.conditional
        for key, value in reversed(sub.items() if type(sub) is dict else list(sub.items())):
            if key not in applicators:
                continue
            kind = type(value)
            if kind is dict:
                if key == "properties":
                    for name, child in reversed(value.items()):
                        if type(child) is dict:
                            push(node_class(child, node, key, name, depth, cond))
                            if "type" not in child and "anyOf" not in child and "$ref" not in child:
                                loose = True
                elif key in maps:
                    c = cond or key in conditional
                    for name, child in reversed(value.items()):
                        if type(child) is dict:
                            push(node_class(child, node, key, name, depth, c))
                elif key in single:
                    push(node_class(value, node, key, None, depth, cond or key in conditional))
            elif kind is list and key in lists:
                i = len(value)
                for child in reversed(value):
                    i -= 1
                    if type(child) is dict:
                        push(node_class(child, node, key, str(i), depth, cond))
    index.max_depth = max_depth
    index.loose_properties = loose
    return index


_CACHE_SIZE = 4
_UNSET = object()
_KEY = "schema.index.index_schema"


def _new_cache() -> list[Any]:
    """A run's index cache (:meth:`schemalint.model.RunContext.table`): the last schema indexed,
    its index, and the last few by identity. The first slot starts as a sentinel, not ``None``:
    with ``None`` a first schema that is ``None`` (a tool with no parameters) hit the empty slot
    and got ``None`` for an index (the SL309 'NoneType has no attribute nodes' crash)."""
    return [_UNSET, None, OrderedDict()]


def index_schema(schema: Any) -> SchemaIndex:
    """The :class:`SchemaIndex` of ``schema`` (any JSON value; non-dicts give an empty index).

    Cached in the current run (:attr:`schemalint.model.RunContext.current`) for the last few schemas by
    identity: the rules checking one tool share one walk.
    Never raises; a schema too large or too deep is cut off (``truncated``).
    """
    memo = RunContext.current.memo
    try:
        last = memo[_KEY]
    except KeyError:
        last = memo[_KEY] = _new_cache()
    if last[0] is schema:
        return last[1]
    cache = last[2]
    key = id(schema)
    hit = cache.get(key)
    if hit is not None and hit[0] is schema:
        last[0], last[1] = schema, hit[1]
        return hit[1]
    index = _build(schema) if isinstance(schema, dict) else SchemaIndex(schema)
    cache[key] = (schema, index)
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    last[0], last[1] = schema, index
    return index
