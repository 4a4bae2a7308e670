"""Defaults built from Python sets, in one order on every run.

A ``set``/``frozenset`` default is rendered by pydantic as a JSON array under a schema with
``"uniqueItems": true``. pydantic sorts it when its items compare (all strings, all numbers), but a
set of mixed types (``{1, "a"}``) is written in the set's iteration order, which for strings
depends on the process's hash seed (``PYTHONHASHSEED``): the same definition lists ``[1, 2, "a",
"b"]`` in one process and ``["a", 1, 2, "b"]`` in the next, so ``diff`` and ``snapshot --check``
would see a changed default on every run. The order is the process's, not the author's: a set has
none. Every schema read from a Python source has such defaults sorted here: ``null``, booleans,
numbers (by value), strings (by code point), then anything else (by its JSON text), which is
pydantic's own order for a set whose items compare (docs/pydantic-and-probes.md, "Set defaults").
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

from schemalint.model import Tool

_RAW_SCHEMA_KEYS = ("inputSchema", "outputSchema", "parameters", "input_schema")


def _rank(value: Any) -> tuple[int, Any]:
    if value is None:
        return (0, 0)
    if isinstance(value, bool):
        return (1, value)
    if isinstance(value, (int, float)):
        return (2, value)
    if isinstance(value, str):
        return (3, value)
    return (4, json.dumps(value, sort_keys=True, default=str))


def canonical_set_defaults(schema: Any, _depth: int = 0) -> Any:
    """``schema`` with the ``default`` of every ``"uniqueItems": true`` array sorted (see the
    module docstring), at any depth; the same object when nothing changed. Never raises."""
    if _depth > 200:
        return schema
    if isinstance(schema, list):
        items = [canonical_set_defaults(s, _depth + 1) for s in schema]
        return schema if all(a is b for a, b in zip(items, schema, strict=True)) else items
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] | None = None
    for key, value in schema.items():
        new = value if key in ("default", "const", "enum", "examples") else canonical_set_defaults(value, _depth + 1)
        if key == "default" and schema.get("uniqueItems") is True and isinstance(value, list):
            try:
                ordered = sorted(value, key=_rank)
            except TypeError:
                ordered = value
            if ordered != value:
                new = ordered
        if new is not value:
            if out is None:
                out = dict(schema)
            out[key] = new
    return schema if out is None else out


def canonical_tool(tool: Tool) -> Tool:
    """``tool`` with :func:`canonical_set_defaults` applied to its advertised schema, runtime
    renderings, output schema and the schemas of its raw object; the same object when unchanged."""
    changes: dict[str, Any] = {}
    advertised = canonical_set_defaults(tool.advertised)
    if advertised is not tool.advertised:
        changes["advertised"] = advertised
    output = canonical_set_defaults(tool.output_schema)
    if output is not tool.output_schema:
        changes["output_schema"] = output
    runtime = tool.runtime
    if runtime is not None:
        rin, rout = canonical_set_defaults(runtime.input), canonical_set_defaults(runtime.output)
        if rin is not runtime.input or rout is not runtime.output:
            changes["runtime"] = dataclasses.replace(runtime, input=rin, output=rout)
    raw = tool.raw
    if isinstance(raw, Mapping):
        fixed = {k: canonical_set_defaults(v) if k in _RAW_SCHEMA_KEYS else v for k, v in raw.items()}
        if any(fixed[k] is not raw[k] for k in raw):
            changes["raw"] = fixed
    return dataclasses.replace(tool, **changes) if changes else tool
