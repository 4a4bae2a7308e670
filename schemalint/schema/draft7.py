"""Render a JSON schema in draft-07, the dialect most SDKs send to models.

Conversions (JSON Schema 2020-12 "Release notes" and draft 2019-09 migration notes;
``reference/provider-constraints.md`` section 6):

- ``$defs`` becomes ``definitions`` and every local ``$ref`` into it is rewritten;
- ``prefixItems`` becomes array-form ``items``; a schema-form ``items`` next to it
  becomes ``additionalItems``;
- ``dependentRequired`` and ``dependentSchemas`` merge into ``dependencies``;
- ``$schema`` is set to the draft-07 URI when present.

What draft-07 cannot say (``unevaluatedProperties``, ``unevaluatedItems``,
``$anchor``, ``$dynamicRef``, ``$dynamicAnchor``, ``minContains``, ``maxContains``,
``dependentRequired`` conflicts) is kept as is and listed in
:attr:`Rendered.unsupported` with its pointer, so a caller can warn about it. Every
keyword shown under another name or value than the one written is listed in
:attr:`Rendered.rewritten`, so a caller can say the rendering is not what the target sends.
The transformation is iterative: deeply nested schemas do not recurse.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import schemalint.schema as vocabulary
from schemalint.model import escape_token

DRAFT7_URI = "http://json-schema.org/draft-07/schema#"
NOT_IN_DRAFT7 = ("unevaluatedProperties", "unevaluatedItems", "$anchor", "$dynamicRef", "$dynamicAnchor",
                 "minContains", "maxContains", "$recursiveRef", "$recursiveAnchor")


@dataclass
class Rendered:
    """A draft-07 rendering: ``schema`` plus ``unsupported`` ``(pointer, keyword)`` pairs and
    ``rewritten`` ``(pointer, as written, as shown)`` triples, sorted: a keyword renamed
    (``$defs`` -> ``definitions``), a ``$ref`` value rewritten (``#/$defs/A`` ->
    ``#/definitions/A``) or a ``$schema`` URI replaced; the pointer is the written one."""

    schema: Any
    unsupported: list[tuple[str, str]] = field(default_factory=list)
    rewritten: list[tuple[str, str, str]] = field(default_factory=list)


def _rewrites(obj: Mapping[str, Any], pointer: str) -> list[tuple[str, str, str]]:
    """What :func:`_convert_object` shows differently in ``obj`` (one schema object, its
    children already converted): ``(pointer, as written, as shown)``."""
    out: list[tuple[str, str, str]] = []
    for key, value in obj.items():
        at = f"{pointer}/{escape_token(key)}"
        if key == "$defs":
            out.append((at, key, "definitions"))
        elif key == "$ref" and _rewrite_ref(value) != value:
            out.append((at, value, _rewrite_ref(value)))
        elif key == "$schema" and isinstance(value, str) and value != DRAFT7_URI:
            out.append((at, value, DRAFT7_URI))
        elif key == "prefixItems" and isinstance(value, list):
            out.append((at, key, "items"))
        elif key == "items" and isinstance(obj.get("prefixItems"), list):
            out.append((at, key, "additionalItems"))
        elif key in ("dependentRequired", "dependentSchemas") and isinstance(value, Mapping):
            out.append((at, key, "dependencies"))
    return out


def _rewrite_ref(ref: Any) -> Any:
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return "#/definitions/" + ref[len("#/$defs/"):]
    return ref


def _convert_object(obj: dict[str, Any], pointer: str, unsupported: list[tuple[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    prefix = obj.get("prefixItems")
    deps: dict[str, Any] = {}
    for key, value in obj.items():
        if key == "$defs":
            merged = dict(value) if isinstance(value, Mapping) else value
            if isinstance(obj.get("definitions"), Mapping) and isinstance(merged, dict):
                merged = {**obj["definitions"], **merged}
            out["definitions"] = merged
        elif key == "definitions" and "$defs" in obj:
            continue
        elif key == "$ref":
            out[key] = _rewrite_ref(value)
        elif key == "$schema" and isinstance(value, str):
            out[key] = DRAFT7_URI
        elif key == "prefixItems" and isinstance(value, list):
            out["items"] = value
            if "items" in obj:
                out["additionalItems"] = obj["items"]
        elif key == "items" and isinstance(prefix, list):
            continue
        elif key in ("dependentRequired", "dependentSchemas", "dependencies") and isinstance(value, Mapping):
            deps.update(value)
            out.setdefault("dependencies", deps)
        else:
            if key in NOT_IN_DRAFT7:
                unsupported.append((f"{pointer}/{escape_token(key)}", key))
            out[key] = value
    return out


_SUBSCHEMA_KEYWORDS = vocabulary.SUBSCHEMA_VALUED
_NAME_MAP_KEYWORDS = vocabulary.MAPS
# What a child of a value holds: a schema, a map of names to schemas, or plain data.
_SCHEMA, _MAP, _DATA = "schema", "map", "data"


def _child_mode(parent_mode: str, key: Any) -> str:
    if parent_mode == _SCHEMA:
        if key in _SUBSCHEMA_KEYWORDS:
            return _SCHEMA
        if key in _NAME_MAP_KEYWORDS:
            return _MAP
        return _DATA
    if parent_mode == _MAP:
        return _SCHEMA
    return _DATA


def to_draft7(schema: Any) -> Rendered:
    """Return ``schema`` rendered as draft-07 (a new value; the input is not modified).

    Only schema objects are converted: a property *named* ``$defs`` and data under
    ``enum``, ``const``, ``default`` or ``examples`` stay as written. Key order is kept.
    Non-dict values are returned unchanged. Never raises on malformed schemas.
    """
    rewritten: list[tuple[str, str, str]] = []

    def convert(obj: dict[str, Any], pointer: str, unsupported: list[tuple[str, str]]) -> dict[str, Any]:
        rewritten.extend(_rewrites(obj, pointer))
        return _convert_object(obj, pointer, unsupported)

    rendered = transform_objects(schema, convert)
    rendered.rewritten = sorted(rewritten)
    return rendered


def transform_objects(schema: Any,
                      convert: Callable[[dict[str, Any], str, list[tuple[str, str]]], dict[str, Any]]) -> Rendered:
    """A copy of ``schema`` with every schema object (not a property named like a keyword, not data
    under ``enum``/``const``/``default``/``examples``) passed through ``convert(copy, pointer,
    unsupported)``, bottom-up, iteratively (any depth; a cycle is cut to ``null``). ``convert`` may
    append ``(pointer, keyword)`` pairs to ``unsupported``; they come back sorted in
    :attr:`Rendered.unsupported`. Used by :func:`to_draft7` and by the diff's one-spelling view
    (:mod:`schemalint.diff.dialects`). Never raises on malformed schemas."""
    unsupported: list[tuple[str, str]] = []
    # Iterative post-order copy: (value, pointer, parent container, key in parent, mode, expanded).
    root_box: list[Any] = [None]
    stack: list[tuple[Any, str, Any, Any, str, bool]] = [(schema, "", root_box, 0, _SCHEMA, False)]
    built: dict[int, Any] = {}
    while stack:
        value, pointer, parent, key, mode, expanded = stack.pop()
        if isinstance(value, (Mapping, list)) and not expanded and id(value) in built:
            parent[key] = None  # a cyclic structure (possible in YAML): cut the cycle
            continue
        if isinstance(value, Mapping):
            if not expanded:
                copy: dict[str, Any] = {}
                built[id(value)] = copy
                stack.append((value, pointer, parent, key, mode, True))
                for k in reversed(list(value)):
                    stack.append((value[k], f"{pointer}/{escape_token(k)}", copy, k, _child_mode(mode, k), False))
                continue
            copy = built.pop(id(value))
            parent[key] = convert(copy, pointer, unsupported) if mode == _SCHEMA else copy
        elif isinstance(value, list):
            if not expanded:
                lst: list[Any] = [None] * len(value)
                built[id(value)] = lst
                stack.append((value, pointer, parent, key, mode, True))
                for i in reversed(range(len(value))):
                    # A list under a subschema keyword (allOf, items...) holds schemas.
                    stack.append((value[i], f"{pointer}/{i}", lst, i, mode, False))
                continue
            parent[key] = built.pop(id(value))
        else:
            parent[key] = value
    unsupported.sort()
    return Rendered(root_box[0], unsupported)


def draft7_gaps(schema: Any) -> list[tuple[str, str]]:
    """``(pointer, keyword)`` for each keyword in ``schema`` that draft-07 cannot express."""
    return to_draft7(schema).unsupported
