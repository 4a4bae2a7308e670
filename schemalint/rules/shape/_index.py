"""One walk per schema, shared by the shape rules.

Rules run tool by tool (:func:`schemalint.rules.base.run_rules`), so SL001, SL003 and
SL004 ask for the same schema one after the other; :func:`index_schema` walks it once
and keeps the last few results (keyed by object identity, holding a reference so an id
is never reused while cached).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from schemalint.schema.walk import Node, walk

MAX_NODES = 200_000
"""Walk at most this many subschemas of one schema (guards exponential fan-out)."""

MAX_DEPTH = 500
"""Stop the walk below this many nested keywords: deeper schemas are reported as too deep
(nothing real nests that far, and pointers grow with depth, so walking on costs O(depth²))."""


@dataclass
class SchemaIndex:
    """Every object subschema of one schema, found in one walk (``$defs`` included, refs not followed).

    ``nodes``: schema pointer -> node (dict subschemas only). ``max_depth``: deepest
    keyword nesting seen. ``truncated``: the walk stopped at :data:`MAX_NODES` or
    :data:`MAX_DEPTH` (then ``too_deep`` is set too).
    ``refs``: nodes holding a string ``$ref``. ``required``: nodes with a non-empty list ``required``.
    """

    nodes: dict[str, Node] = field(default_factory=dict)
    max_depth: int = 0
    truncated: bool = False
    too_deep: bool = False
    refs: list[Node] = field(default_factory=list)
    required: list[Node] = field(default_factory=list)


_CACHE: OrderedDict[int, tuple[Any, SchemaIndex]] = OrderedDict()
_CACHE_SIZE = 4


def index_schema(schema: Any) -> SchemaIndex:
    """The :class:`SchemaIndex` of ``schema`` (any JSON value; non-dicts give an empty index)."""
    key = id(schema)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is schema:
        return hit[1]
    index = SchemaIndex()
    if isinstance(schema, Mapping):
        count = 0
        for node in walk(schema, max_nodes=MAX_NODES):
            count += 1
            if node.depth > index.max_depth:
                index.max_depth = node.depth
                if node.depth > MAX_DEPTH:
                    index.too_deep = index.truncated = True
                    break
            sub = node.schema
            if not isinstance(sub, Mapping):
                continue
            index.nodes[node.pointer] = node
            if isinstance(sub.get("$ref"), str):
                index.refs.append(node)
            req = sub.get("required")
            if isinstance(req, list) and req:
                index.required.append(node)
        index.truncated = index.truncated or count >= MAX_NODES
    _CACHE[key] = (schema, index)
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return index
