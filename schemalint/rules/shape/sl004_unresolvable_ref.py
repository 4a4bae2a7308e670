"""SL004 unresolvable-ref: a ``$ref`` that does not resolve inside the tool definition.

Every ``$ref`` in the advertised schema (and an MCP ``outputSchema``), at every depth and
in ``$defs``, must point at a subschema of the same document:

- ``#`` / ``#/json/pointer``: the pointer must exist;
- ``#name``: a ``$anchor`` (2019-09+) or ``$id: "#name"`` (draft-06/07) must define it;
- a URI equal to the root's or an embedded subschema's ``$id`` (plus a fragment) resolves
  against that subschema.

Anything else (``http://...``, ``other.json#/x``) is a *remote* reference. It is
reported, and never fetched: the model is shown the schema text only, providers resolve
only internal references (Anthropic strict: "external $ref" unsupported; MCP: no network
``$ref``), so the referenced shape is invisible to the model.

Source: rules/SL004-unresolvable-ref.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import urldefrag, urljoin

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.schema.dialect import default_dialect, dialect_of
from schemalint.schema.index import SchemaIndex, index_schema
from schemalint.schema.walk import resolve_local_ref


def _ids_and_anchors(root: Any, index: SchemaIndex) -> tuple[dict[str, Any], set[str]]:
    """``$id`` URIs (resolved against the root's ``$id``) -> subschema, and anchor names."""
    ids, anchors, _old, _new = _ids_and_anchor_kinds(root, index)
    return ids, anchors


def _ids_and_anchor_kinds(root: Any, index: SchemaIndex) -> tuple[dict[str, Any], set[str], set[str], set[str]]:
    """:func:`_ids_and_anchors` plus the anchor names defined the draft-06/07 way (``$id: "#name"``)
    and the 2019-09+ way (``$anchor``/``$dynamicAnchor``)."""
    ids: dict[str, Any] = {}
    anchors: set[str] = set()
    old: set[str] = set()
    new: set[str] = set()
    base = ""
    if isinstance(root, Mapping):
        rid = root.get("$id", root.get("id"))
        base = urldefrag(rid)[0] if isinstance(rid, str) else ""
    for node in index.ids:
        schema = node.schema
        for key in ("$id", "id"):
            value = schema.get(key)
            if not isinstance(value, str) or (key == "id" and "$id" in schema):
                continue
            if value.startswith("#") and len(value) > 1:
                anchors.add(value[1:])
                old.add(value[1:])
            else:
                ids[urldefrag(urljoin(base, value))[0]] = schema
        for key in ("$anchor", "$dynamicAnchor"):
            value = schema.get(key)
            if isinstance(value, str):
                anchors.add(value)
                new.add(value)
    if base:
        ids.setdefault(base, root)
    return ids, anchors, old, new


def _resolve_fragment(doc: Any, fragment: str, anchors: set[str]) -> bool:
    if fragment == "" or fragment.startswith("/"):
        return resolve_local_ref(doc, "#" + fragment)[0]
    return fragment in anchors


class UnresolvableRef(Rule):
    """A ``$ref`` points nowhere inside the tool definition, or outside it (never fetched).
    """

    keywords = frozenset({"$ref"})  # only references are checked (Rule.keywords)

    severity = Severity.ERROR

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        yield from self._check(tool, tool.advertised, tool.schema_pointer, ctx)
        if tool.output_schema is not None:
            yield from self._check(tool, tool.output_schema, tool.origin.pointer + "/outputSchema", ctx)

    def _check(self, tool: Tool, root: Any, base_pointer: str, ctx: Context) -> Iterator[Diagnostic]:
        if not isinstance(root, Mapping):
            return
        index = index_schema(root)
        refs = index.refs
        if not refs:
            return
        dialect = dialect_of(root, ctx.dialect, default_dialect(tool.origin.format)).dialect
        found: tuple[dict[str, Any], set[str]] | None = None  # ids and anchors, collected on first need
        rid = root.get("$id", root.get("id"))
        base = urldefrag(rid)[0] if isinstance(rid, str) else ""
        looped: set[str] = set()  # the refs of each loop reported, so that a loop is reported once
        for node in refs:
            ref: str = node.schema["$ref"]
            if ref.startswith("#"):
                fragment = ref[1:]
                if fragment == "" or fragment.startswith("/"):
                    if resolve_local_ref(root, ref)[0]:  # the common case: "#/$defs/Name"
                        loop = _reference_loop(root, node.schema)
                        if loop and ref in loop and not looped.intersection(loop):
                            looped.update(loop)
                            yield self.diag(
                                tool, None,
                                f"`$ref` {json.dumps(ref, ensure_ascii=False)} starts a loop of references that "
                                f"never reaches a schema ({' -> '.join([*loop, loop[0]])}); validators recurse "
                                "without end on it, and the model is shown no shape",
                                hint="give one of the definitions in the loop a schema of its own (e.g. "
                                     "\"type\": \"object\" with its properties) instead of only a `$ref`",
                                file_pointer=f"{base_pointer}{node.pointer}/$ref",
                            )
                        continue
                else:
                    if found is None:
                        found = _ids_and_anchors(root, index)
                    if fragment in found[1]:
                        mismatch = _anchor_mismatch(root, index, fragment, dialect)
                        if mismatch is None:
                            continue
                        yield self.diag(tool, None, f"`$ref` {json.dumps(ref, ensure_ascii=False)} {mismatch}",
                                        hint=_ANCHOR_HINT[dialect in _NEW_ANCHORS],
                                        file_pointer=f"{base_pointer}{node.pointer}/$ref")
                        continue
            where = f"{base_pointer}{node.pointer}/$ref"
            shown = json.dumps(ref, ensure_ascii=False)
            if ref.startswith("#"):
                yield self.diag(
                    tool, None,
                    f"`$ref` {shown} points at nothing in this schema; the model sees a reference it cannot "
                    "follow, and validators fail on it (\"Unresolvable JSON pointer\")",
                    hint=_local_hint(root, ref), file_pointer=where,
                )
                continue
            if found is None:
                found = _ids_and_anchors(root, index)
            ids, anchors = found
            target_uri, fragment = urldefrag(urljoin(base, ref))
            if target_uri in ids:
                if _resolve_fragment(ids[target_uri], fragment, anchors):
                    continue
                yield self.diag(
                    tool, None,
                    f"`$ref` {shown} names this schema's own `$id` but the fragment #{fragment} points at "
                    "nothing in it", hint=_local_hint(ids[target_uri], "#" + fragment), file_pointer=where,
                )
                continue
            yield self.diag(
                tool, None,
                f"`$ref` {shown} refers to another document; the model is shown only this schema text, "
                "providers do not resolve external references, and schemalint never fetches it",
                hint="inline the referenced schema under `$defs` and refer to it as \"#/$defs/<name>\"",
                severity=Severity.ERROR, file_pointer=where,
            )



# Keywords that only annotate: a subschema holding nothing else beside ``$ref`` is its target.
_ANNOTATIONS = frozenset(("$ref", "description", "title", "$comment", "examples", "default", "deprecated",
                          "readOnly", "writeOnly"))


def _reference_loop(root: Any, schema: Mapping[str, Any]) -> list[str] | None:
    """The references of the loop ``schema`` leads into when each step is a subschema holding only a
    local ``$ref`` (and annotations), so the chain never reaches a schema: ``["#/$defs/A",
    "#/$defs/B"]`` for A -> B -> A. ``None`` when the chain ends in a schema, or leaves through a
    reference that is not a local JSON pointer (reported by the rest of the rule, if at all)."""
    seen: list[str] = []
    node: Any = schema
    while isinstance(node, Mapping) and set(node) <= _ANNOTATIONS:
        ref = node.get("$ref")
        if not isinstance(ref, str) or not (ref == "#" or ref.startswith("#/")):
            return None
        if ref in seen:
            return seen[seen.index(ref):]
        seen.append(ref)
        found, node, _ = resolve_local_ref(root, ref)
        if not found:
            return None
    return None

_NEW_ANCHORS = frozenset(("2019-09", "2020-12"))
_ANCHOR_HINT = {True: 'name the target with "$anchor": "<name>" (2019-09+), or refer to it by its JSON pointer',
                False: 'name the target with "$id": "#<name>" (draft-06/07), or refer to it by its JSON pointer'}


def _anchor_mismatch(root: Any, index: SchemaIndex, name: str, dialect: str) -> str | None:
    """Why the plain-name fragment ``#name`` does not resolve in ``dialect`` although the schema defines
    it the other dialect's way, or ``None`` when it resolves. Source: JSON Schema Core 2020-12 §8.2.2
    (``$anchor``; "$id" MUST NOT contain a non-empty fragment) and draft-07 §8.2.3 (``$id: "#name"``)."""
    _ids, _anchors, old, new = _ids_and_anchor_kinds(root, index)
    if dialect in _NEW_ANCHORS and name not in new:
        return (f"names the anchor {name!r}, defined only as `$id: \"#{name}\"` (draft-06/07); the schema "
                f"is read as {dialect}, where `$id` may not carry a fragment and only `$anchor` defines one, "
                "so validators of that dialect cannot resolve it")
    if dialect not in _NEW_ANCHORS and name not in old:
        return (f"names the anchor {name!r}, defined only by `$anchor` (2019-09+); the schema is read as "
                f"{dialect}, which has no `$anchor`, so validators of that dialect cannot resolve it")
    return None


def _local_hint(root: Any, ref: str) -> str:
    """Suggest an existing definition when the reference looks like a typo or a moved one."""
    import difflib

    name = ref.rstrip("/").rsplit("/", 1)[-1]
    for container in ("$defs", "definitions"):
        defs = root.get(container) if isinstance(root, Mapping) else None
        if not isinstance(defs, Mapping):
            continue
        names = [k for k in defs if isinstance(k, str)]
        close = [k for k in names if k.lower() == name.lower()] or difflib.get_close_matches(name, names, 1)
        if close:
            target = f"#/{container}/{close[0]}"
            if target != ref:
                return f"did you mean \"{target}\"? point the reference at an existing definition"
    return "define the target under `$defs` or fix the JSON pointer after '#'"
