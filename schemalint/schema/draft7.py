"""Render a JSON schema written in draft 2019-09/2020-12 style as draft-07.

Pydantic (and zod's default target) emit ``$defs`` and, for tuples, ``prefixItems``;
an SDK that advertises draft-07 must say the same thing with draft-07 keywords
(JSON Schema draft-07, "Validation" sections 6.4.1-6.4.2, 6.5.7 and 9;
2020-12 "Core" 8.2.4 and "Applicator" 10.3.1.1). :func:`to_draft7` converts:

- ``$defs`` -> ``definitions`` (and every ``$ref`` into ``#/$defs/...`` rewritten);
- ``prefixItems`` (+ ``items``) -> array-form ``items`` + ``additionalItems``;
- ``dependentRequired`` / ``dependentSchemas`` -> ``dependencies``.

What draft-07 cannot say (``unevaluatedProperties``, ``unevaluatedItems``,
``$dynamicRef`` ...) is kept as-is and listed by :func:`draft7_gaps`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.model import escape_token

NOT_IN_DRAFT7 = ("unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$dynamicAnchor",
                 "$recursiveRef", "$recursiveAnchor", "minContains", "maxContains")


def _rewrite_ref(ref: Any) -> Any:
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return "#/definitions/" + ref[len("#/$defs/"):]
    return ref


def to_draft7(schema: Any) -> Any:
    """Return a draft-07 rendering of ``schema`` (a new value; the input is not changed).

    Key order is kept (a renamed key takes the old key's place). Non-dict values are
    returned unchanged. Never raises for odd input: what it does not understand is copied.
    """
    if isinstance(schema, list):
        return [to_draft7(v) for v in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    prefix = schema.get("prefixItems")
    for key, value in schema.items():
        if key == "$defs" and isinstance(value, Mapping):
            merged = {k: to_draft7(v) for k, v in value.items()}
            existing = out.get("definitions")
            out["definitions"] = {**existing, **merged} if isinstance(existing, dict) else merged
        elif key == "definitions" and isinstance(value, Mapping):
            converted = {k: to_draft7(v) for k, v in value.items()}
            existing = out.get("definitions")
            out["definitions"] = {**converted, **existing} if isinstance(existing, dict) else converted
        elif key == "$ref":
            out[key] = _rewrite_ref(value)
        elif key == "prefixItems" and isinstance(prefix, list):
            out["items"] = [to_draft7(v) for v in prefix]
            rest = schema.get("items")
            if rest is not None:
                out["additionalItems"] = to_draft7(rest)
        elif key == "items" and isinstance(prefix, list):
            continue  # folded into additionalItems above
        elif key in ("dependentRequired", "dependentSchemas") and isinstance(value, Mapping):
            deps = out.setdefault("dependencies", {})
            if isinstance(deps, dict):
                for name, dep in value.items():
                    deps[name] = list(dep) if key == "dependentRequired" else to_draft7(dep)
        elif key in ("properties", "patternProperties", "dependencies") and isinstance(value, Mapping):
            out[key] = {k: to_draft7(v) for k, v in value.items()}
        elif key in ("enum", "const", "default", "examples", "required"):
            out[key] = value
        else:
            out[key] = to_draft7(value)
    if out.get("$schema") in ("https://json-schema.org/draft/2020-12/schema",
                              "https://json-schema.org/draft/2019-09/schema"):
        out["$schema"] = "http://json-schema.org/draft-07/schema#"
    return out


def draft7_gaps(schema: Any, pointer: str = "") -> list[tuple[str, str]]:
    """``(pointer, keyword)`` for every keyword draft-07 cannot express, at any depth."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[Any, str]] = [(schema, pointer)]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.items():
                if key in NOT_IN_DRAFT7:
                    found.append((f"{ptr}/{escape_token(key)}", key))
                if key not in ("enum", "const", "default", "examples"):
                    stack.append((value, f"{ptr}/{escape_token(key)}"))
        elif isinstance(node, list):
            stack.extend((v, f"{ptr}/{i}") for i, v in enumerate(node))
    return sorted(found)
