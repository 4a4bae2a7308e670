"""One lean walk per schema, shared by the shape rules.

Rules run tool by tool (:func:`schemalint.rules.base.run_rules`), so SL001, SL003 and
SL004 ask for the same schema one after the other; :func:`index_schema` walks it once
and keeps the last few results (keyed by object identity, holding a reference so an id
is never reused while cached).

The walk covers the same keywords as :func:`schemalint.schema.walk.walk` (every
applicator, ``$defs``/``definitions``; ``$ref`` not followed) but builds no pointer
strings: each visited subschema keeps a link to its parent, and pointers and instance
paths are computed only for the few nodes a rule reports. This keeps the shape rules
near the cost of one bare traversal, which matters on catalogs of 10,000+ tools.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import escape_token

MAX_NODES = 200_000
"""Walk at most this many subschemas of one schema (guards exponential fan-out)."""

MAX_DEPTH = 500
"""Stop the walk below this many nested keywords: deeper schemas are reported as too deep
(nothing real nests that far; the native metaschema validator would overflow its stack)."""

_MAPS = ("properties", "patternProperties", "dependencies", "dependentSchemas", "$defs", "definitions")
_SINGLE = ("additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems",
           "contains", "if", "then", "else", "not", "propertyNames")
_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_ANY = "*"
_NO_INSTANCE = frozenset({"$defs", "definitions", "if", "not", "propertyNames"})
_ANY_CHILD = frozenset({"patternProperties", "additionalProperties", "unevaluatedProperties",
                        "additionalItems", "unevaluatedItems", "contains"})


class SchemaNode:
    """One object subschema: ``schema`` (a dict), its ``parent`` node, the ``keyword`` that led
    here from the parent (``""`` at the root), ``token`` (the map key or list index under that
    keyword, or ``None``) and ``depth`` (keywords descended from the root)."""

    __slots__ = ("depth", "keyword", "parent", "schema", "token")

    def __init__(self, schema: dict[str, Any], parent: SchemaNode | None, keyword: str,
                 token: str | None, depth: int) -> None:
        self.schema = schema
        self.parent = parent
        self.keyword = keyword
        self.token = token
        self.depth = depth

    @property
    def pointer(self) -> str:
        """JSON pointer of this subschema relative to the walked root."""
        parts: list[str] = []
        node: SchemaNode | None = self
        while node is not None and node.parent is not None:
            if node.token is not None:
                parts.append(escape_token(node.token))
            parts.append(escape_token(node.keyword))
            node = node.parent
        return "".join("/" + p for p in reversed(parts))

    @property
    def instance_path(self) -> str | None:
        """Pointer into the instance this subschema governs (``*`` = any index/other key), or
        ``None`` inside ``$defs``/``not``/``if``/``propertyNames``."""
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


@dataclass
class SchemaIndex:
    """What the shape rules need of one schema, from one walk.

    ``max_depth``: deepest keyword nesting seen. ``truncated``: the walk stopped at
    :data:`MAX_NODES` or :data:`MAX_DEPTH` (``too_deep`` tells which). ``refs``: nodes with a
    string ``$ref``. ``required``: nodes with a non-empty list ``required``. ``ids``: nodes
    with ``$id``/``id``/``$anchor``/``$dynamicAnchor``.
    """

    max_depth: int = 0
    truncated: bool = False
    too_deep: bool = False
    refs: list[SchemaNode] = field(default_factory=list)
    required: list[SchemaNode] = field(default_factory=list)
    ids: list[SchemaNode] = field(default_factory=list)


def _build(schema: dict[str, Any]) -> SchemaIndex:
    index = SchemaIndex()
    stack = [SchemaNode(schema, None, "", None, 0)]
    count = 0
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_NODES:
            index.truncated = True
            break
        depth = node.depth
        if depth > index.max_depth:
            index.max_depth = depth
            if depth > MAX_DEPTH:
                index.truncated = index.too_deep = True
                break
        sub = node.schema
        if "$ref" in sub and isinstance(sub["$ref"], str):
            index.refs.append(node)
        req = sub.get("required")
        if req and type(req) is list:
            index.required.append(node)
        if "$id" in sub or "id" in sub or "$anchor" in sub or "$dynamicAnchor" in sub:
            index.ids.append(node)
        depth += 1
        children: list[SchemaNode] = []
        for key, value in sub.items():
            if type(value) is dict:
                if key in _MAPS:
                    for name, child in value.items():
                        if type(child) is dict:
                            children.append(SchemaNode(child, node, key, name, depth))
                elif key in _SINGLE or key == "items":
                    children.append(SchemaNode(value, node, key, None, depth))
            elif type(value) is list and (key in _LISTS or key == "items"):
                for i, child in enumerate(value):
                    if type(child) is dict:
                        children.append(SchemaNode(child, node, key, str(i), depth))
        stack.extend(reversed(children))
    return index


_CACHE: OrderedDict[int, tuple[Any, SchemaIndex]] = OrderedDict()
_CACHE_SIZE = 4


def index_schema(schema: Any) -> SchemaIndex:
    """The :class:`SchemaIndex` of ``schema`` (any JSON value; non-dicts give an empty index)."""
    key = id(schema)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is schema:
        return hit[1]
    index = _build(schema) if isinstance(schema, dict) else SchemaIndex()
    _CACHE[key] = (schema, index)
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return index
