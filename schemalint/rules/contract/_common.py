"""Helpers shared by the contract rules (SL1xx): the shapes of each side of a tool's contract.

Each side is read once per tool (a small identity-keyed cache), because eight rules ask
for the same shapes. The sides:

- ``advertised``: :attr:`Tool.advertised`, what the model is shown;
- ``runtime_input``: :attr:`Contract.input`, the validator in input (validation) mode;
- ``runtime_output``: :attr:`Contract.output`, output (serialization) mode;
- ``refused``: :attr:`Contract.refused_when_omitted`, instance paths whose omission the
  runtime was seen to refuse (probes, exporters).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from schemalint.model import RunContext, Tool
from schemalint.schema.shapes import (
    Shape,
    ShapeMap,
    ShapePair,
    child_path,
    display_path,
    normalize_path,
    pairs,
    shapes_of,
)

_CACHE_SIZE = 64


def shapes(schema: Any) -> ShapeMap:
    """:func:`shapes_of` with a small cache in the current run keyed by the schema object's identity."""
    cache: OrderedDict[int, tuple[Any, ShapeMap]] = RunContext.current.table("contract._common.shapes", OrderedDict)
    key = id(schema)
    hit = cache.get(key)
    if hit is not None and hit[0] is schema:
        cache.move_to_end(key)
        return hit[1]
    result = shapes_of(schema)
    cache[key] = (schema, result)
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    return result


@dataclass
class Sides:
    """The shapes of every side a tool's contract has (``None`` where a side is unknown)."""

    advertised: ShapeMap
    runtime_input: ShapeMap | None
    runtime_output: ShapeMap | None
    refused: frozenset[str]
    _input_pairs: list[ShapePair] | None = None

    def refused_at(self, path: str) -> bool:
        """True when the runtime was seen to refuse a call omitting ``path`` (indexes normalised)."""
        return path in self.refused or normalize_path(path) in self.refused

    def input_pairs(self) -> Iterator[ShapePair]:
        """Matched (advertised, runtime input) pairs at every path; nothing without a runtime input."""
        if self.runtime_input is None:
            return iter(())
        if self._input_pairs is None:
            self._input_pairs = list(pairs(self.advertised, self.runtime_input))
        return iter(self._input_pairs)

    def object_pairs(self) -> Iterator[tuple[str, Shape, Shape]]:
        """``(instance_path, advertised, runtime input)`` where both sides have a shape that may be
        an object: the pairs whose keys, required sets and extra-key policies can be compared."""
        for pair in self.input_pairs():
            adv, rt = pair.left, pair.right
            if adv is not None and rt is not None and comparable_objects(adv, rt):
                yield pair.instance_path, adv, rt


def sides(tool: Tool) -> Sides | None:
    """The sides of ``tool``'s contract, or ``None`` when the tool has no runtime contract.

    Cached in the current run by the tool object's identity (the last few tools), so the contract
    rules that run one after the other on a tool share one analysis.
    """
    rt = tool.runtime
    if rt is None:
        return None
    cache: OrderedDict[int, tuple[Tool, Sides]] = RunContext.current.table("contract._common.sides", OrderedDict)
    hit = cache.get(id(tool))
    if hit is not None and hit[0] is tool:
        return hit[1]
    result = Sides(
        advertised=shapes(tool.advertised),
        runtime_input=shapes(rt.input) if rt.input is not None else None,
        runtime_output=shapes(rt.output) if rt.output is not None else None,
        refused=frozenset(normalize_path(p) for p in rt.refused_when_omitted),
    )
    cache[id(tool)] = (tool, result)
    if len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)
    return result


def object_pairs(tool: Tool) -> Iterator[tuple[Sides, str, Shape, Shape]]:
    """``(sides, instance_path, advertised, runtime input)`` for every object location of
    ``tool``'s contract (:meth:`Sides.object_pairs`); nothing when the tool has no runtime contract."""
    s = sides(tool)
    if s is None:
        return
    for ipath, adv, rt in s.object_pairs():
        yield s, ipath, adv, rt


def incompatible(a: Shape, b: Shape) -> bool:
    """True when the two shapes admit no common JSON type (SL104 reports those; others skip them)."""
    if a.types is None or b.types is None:
        return False
    ta, tb = set(a.types), set(b.types)
    if ("integer" in ta and "number" in tb) or ("number" in ta and "integer" in tb):
        return False
    return not (ta & tb)


def comparable_objects(a: Shape, b: Shape) -> bool:
    """True when both shapes may be objects: only then are their properties, required keys and
    extra-key policies compared (a ``null`` branch of a nullable object is not)."""
    return a.admits_object and b.admits_object


def key_pointer(shape: Shape, key: str) -> str:
    """Best schema pointer for a finding about ``key`` of the object at ``shape``: the property's
    subschema when declared, else the ``required`` array, else the object's schema."""
    if key in shape.properties:
        return shape.properties[key]
    return shape.required_pointer or shape.pointer


def name(path: str) -> str:
    """Backticked display name of an instance path (``options.presentation``)."""
    return f"`{display_path(path)}`"


def key_name(parent: str, key: str) -> str:
    """Backticked display name of property ``key`` under ``parent``."""
    return name(child_path(parent, key))


def declared_order(shape: Shape) -> Callable[[str], tuple[int, str]]:
    """Sort key for keys of ``shape``: declaration order, undeclared keys last (alphabetical)."""
    props = list(shape.properties)
    return lambda k: (props.index(k) if k in props else len(props), k)
