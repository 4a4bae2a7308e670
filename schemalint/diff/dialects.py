"""One spelling per meaning before two schemas are compared: the diff reads each side in its dialect.

A keyword means different things in different JSON Schema dialects, and a tool may change dialect
between two revisions (an MCP server moving from zod-to-json-schema's draft-07 to zod 4's 2020-12
rendering, a Python SDK moving to pydantic v2). The diff therefore compares the two sides in one
spelling, the 2020-12 one, each side converted from the dialect it is read in
(:func:`schemalint.schema.dialect.dialect_of`: the declared ``$schema``, else the format's default,
2020-12 for MCP tools and draft-07 for the others):

- a tuple: draft-04 to 2019-09 write it as an array ``items`` with ``additionalItems`` for the rest,
  2020-12 as ``prefixItems`` with ``items`` for the rest (Core 2020-12 section 10.3.1.1-2; draft-07
  Validation section 6.4.1-2). An old-dialect array ``items`` becomes ``prefixItems`` and its
  ``additionalItems`` becomes ``items``; an ``additionalItems`` beside a schema-form ``items`` is
  dropped (it has no effect there, draft-07 section 6.4.2), so changing it changes nothing;
- ``dependencies`` (up to draft-07) splits into ``dependentRequired`` (name lists) and
  ``dependentSchemas`` (schemas), the 2019-09 keywords (Validation 2020-12 section 6.5.4, Core
  section 10.2.2.4);
- ``definitions`` becomes ``$defs``, and the ``$ref``\\ s into it follow (both are only locations a
  JSON-pointer reference names, in any dialect).

A ``prefixItems`` in a draft-07 schema, which draft-07 validators ignore, is kept as the tuple its
author wrote (pydantic v2 writes it without ``$schema``, and providers read it): the diff then
compares what the author meant. What changed is reported at the keyword the file holds:
:func:`text_tokens` maps a position in the converted schema back to the tokens of the original,
so a change of ``prefixItems/1`` of a draft-07 side is reported at ``items/1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.schema.draft7 import transform_objects

_OLD_TUPLES = frozenset({"draft-04", "draft-06", "draft-07", "2019-09"})
"""Dialects where an array ``items`` is a tuple and ``additionalItems`` its rest."""
_OLD_DEPENDENCIES = frozenset({"draft-04", "draft-06", "draft-07"})
"""Dialects where ``dependencies`` is a keyword (2019-09 split it in two)."""


def _defs_renamed(root: Any) -> bool:
    return isinstance(root, Mapping) and "definitions" in root and "$defs" not in root


def to_2020(schema: Any, dialect: str) -> Any:
    """A copy of ``schema`` (read in ``dialect``) in the 2020-12 spelling (see the module docstring).
    The input is not modified; non-dict values come back unchanged. Never raises."""
    if not isinstance(schema, Mapping):
        return schema
    renamed = _defs_renamed(schema)

    def convert(obj: dict[str, Any], _pointer: str, _unsupported: list[tuple[str, str]]) -> dict[str, Any]:
        out = dict(obj)
        items = out.get("items")
        if dialect in _OLD_TUPLES:
            if isinstance(items, list) and "prefixItems" not in out:
                out["prefixItems"] = out.pop("items")
                if "additionalItems" in out:
                    out["items"] = out.pop("additionalItems")
            elif "additionalItems" in out and not isinstance(items, list):
                out.pop("additionalItems")
        if dialect in _OLD_DEPENDENCIES and isinstance(out.get("dependencies"), Mapping) \
                and "dependentRequired" not in out and "dependentSchemas" not in out:
            names = {k: v for k, v in out["dependencies"].items() if isinstance(v, list)}
            schemas = {k: v for k, v in out["dependencies"].items() if not isinstance(v, list)}
            del out["dependencies"]
            if names:
                out["dependentRequired"] = names
            if schemas:
                out["dependentSchemas"] = schemas
        if renamed:
            ref = out.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/definitions/"):
                out["$ref"] = "#/$defs/" + ref[len("#/definitions/"):]
        return out

    converted = transform_objects(schema, convert).schema
    if renamed and isinstance(converted, dict):
        converted = {("$defs" if k == "definitions" else k): v for k, v in converted.items()}
    return converted


def text_tokens(original: Any, tokens: tuple[Any, ...], dialect: str) -> tuple[Any, ...]:
    """The tokens of ``original`` (read in ``dialect``) at the position ``tokens`` names in its
    :func:`to_2020` copy: ``prefixItems`` back to an array ``items``, ``items`` back to
    ``additionalItems``, ``$defs`` back to ``definitions``, ``dependent*`` back to ``dependencies``.
    Tokens below a position the original lacks are kept as they are."""
    out: list[Any] = []
    value: Any = original
    for depth, token in enumerate(tokens):
        t = token
        if isinstance(value, Mapping) and isinstance(t, str):
            items = value.get("items")
            old_tuple = dialect in _OLD_TUPLES and isinstance(items, list) and "prefixItems" not in value
            if t == "prefixItems" and old_tuple:
                t = "items"
            elif t == "items" and old_tuple and "additionalItems" in value:
                t = "additionalItems"
            elif t == "$defs" and depth == 0 and _defs_renamed(value):
                t = "definitions"
            elif t in ("dependentRequired", "dependentSchemas") and t not in value and "dependencies" in value:
                t = "dependencies"
        out.append(t)
        in_list = isinstance(value, list) and isinstance(t, int) and 0 <= t < len(value)
        value = value[t] if (isinstance(value, Mapping) and t in value) or in_list else None
    return tuple(out)
