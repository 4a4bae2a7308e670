"""Visit every subschema of a JSON schema at every depth, without recursion.

Each visited subschema comes with the JSON pointer where its text sits (relative to
the root schema), the instance path it governs (a JSON pointer into the instance,
``*`` standing for any array index or any additional/pattern property), and the
union branch it belongs to. Local ``$ref`` (``#...``) is followed when asked, with a
cycle guard; remote references are never fetched.

Keywords covered (JSON Schema draft-07 and 2020-12, "Applicator" vocabulary):
``properties``, ``patternProperties``, ``additionalProperties``, ``items`` (schema
and array form), ``additionalItems``, ``prefixItems``, ``contains``,
``propertyNames``, ``anyOf``/``oneOf``/``allOf``, ``not``, ``if``/``then``/``else``,
``dependencies``/``dependentSchemas``, ``$defs``/``definitions``, ``unevaluatedProperties``/
``unevaluatedItems``.

Dialects (:mod:`schemalint.schema.dialect`; the caller passes the one the schema is read in, MCP
tools 2020-12, other formats draft-07, a declared ``$schema`` first). Both spellings of a tuple
are walked at their own pointers, with the instance path of the position they govern: 2020-12
``prefixItems/N`` (``/N``) with ``items`` for the rest (``*``), draft-07 array ``items/N``
(``/N``) with ``additionalItems`` for the rest (``*``). Where the dialect changes what a
reference means, :func:`walk` follows the dialect: a plain-name fragment ``$ref: "#name"``
resolves to the ``$anchor``/``$dynamicAnchor`` of that name in 2019-09 and 2020-12 and to the
``$id: "#name"`` in draft-06/07 (``id`` in draft-04; JSON Schema Core 2020-12 section 8.2.2,
draft-07 section 8.2.3); ``$dynamicRef`` (2020-12 section 8.2.3.2) is followed like ``$ref`` to its
same-document target (the initial resolution: a tool schema is one document, so no other dynamic
scope exists), and 2019-09 ``$recursiveRef: "#"`` to the root. Without a dialect, anchors of
either spelling resolve. Keywords of another dialect (``definitions`` in a 2020-12 schema,
``$defs`` in a draft-07 one) are still walked: a ``$ref`` by JSON pointer may target any
location, and SDKs mix the spellings (pydantic v2 writes ``$defs`` without ``$schema``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import schemalint.schema as vocabulary
from schemalint.model import escape_token, split_pointer

ANY_INDEX = "*"
"""Instance-path token for "any array element" or "any other property"."""


@dataclass(slots=True)
class Node:
    """One visited subschema.

    ``schema``: the subschema value (usually a dict; booleans and broken values too).
    ``pointer``: JSON pointer of the subschema relative to the walked root.
    ``instance_path``: pointer into the instance it governs, or ``None`` when it
    governs no instance location (a ``$defs`` entry, ``not``, ``if``, ``propertyNames``).
    ``branch``: the union branches taken to reach it, e.g. ``(("anyOf", 1),)``.
    ``keyword``: the keyword that led here (``""`` for the root).
    ``via_ref``: the ``$ref`` values followed to reach it (outermost first).
    ``depth``: number of keywords descended from the root.
    ``recursion_cut``: the subschema holds a local ``$ref`` that was not followed because it is
    already on the chain (a recursive schema); what lies below it is not walked again.
    """

    schema: Any
    pointer: str
    instance_path: str | None
    branch: tuple[tuple[str, int], ...] = ()
    keyword: str = ""
    via_ref: tuple[str, ...] = ()
    depth: int = 0
    recursion_cut: bool = False


_UNION = vocabulary.UNION
_DEF_KEYWORDS = vocabulary.DEFINITIONS
_ANY_CHILD = vocabulary.ANY_MEMBER & vocabulary.SINGLE
_SIMPLE_KEYWORDS = (vocabulary.WALKED - {"properties"}) | {"$ref", "$dynamicRef", "$recursiveRef"}
"""Keywords (besides ``properties``) whose values :func:`walk` may descend into."""


def _child(instance_path: str | None, token: str) -> str | None:
    if instance_path is None:
        return None
    return f"{instance_path}/{escape_token(token)}"


def resolve_local_ref(root: Any, ref: str) -> tuple[bool, Any, str]:
    """Resolve a same-document reference ``#/...`` against ``root``.

    Returns ``(found, value, pointer)``. Only fragment-only JSON-pointer references
    are resolved; anything else (remote, relative URI, ``$anchor`` name) returns
    ``(False, None, "")``. Nothing is ever fetched.
    """
    if not isinstance(ref, str) or not ref.startswith("#"):
        return False, None, ""
    frag = ref[1:]
    if "%" in frag:  # unquote() changes nothing else (and its import is a lookup per call)
        from urllib.parse import unquote

        frag = unquote(frag)
    try:
        tokens = split_pointer(frag)
    except ValueError:
        return False, None, ""
    node = root
    for tok in tokens:
        if (type(node) is dict or isinstance(node, Mapping)) and tok in node:
            node = node[tok]
        elif isinstance(node, list) and tok.isdigit() and int(tok) < len(node):
            node = node[int(tok)]
        else:
            return False, None, ""
    return True, node, frag


_NEW_ANCHORS = frozenset({"2019-09", "2020-12"})
_REF_KEYWORDS = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


def anchors_of(root: Any, dialect: str | None = None) -> dict[str, tuple[Any, str]]:
    """Plain-name fragments defined in ``root`` -> ``(subschema, pointer)``, as ``dialect`` defines
    them: ``$anchor``/``$dynamicAnchor`` in 2019-09 and 2020-12, ``$id: "#name"`` in draft-06/07 and
    ``id: "#name"`` in draft-04 (both kinds when ``dialect`` is ``None``). The first definition of a
    name wins. Never raises; walks ``root`` once (without following references)."""
    new = dialect is None or dialect in _NEW_ANCHORS
    old = dialect is None or dialect not in _NEW_ANCHORS
    found: dict[str, tuple[Any, str]] = {}
    id_keys = ("$id", "id") if dialect in (None, "draft-04") else ("$id",)
    for node in walk(root):
        schema = node.schema
        if not isinstance(schema, Mapping):
            continue
        if new:
            for key in ("$anchor", "$dynamicAnchor"):
                name = schema.get(key)
                if isinstance(name, str) and name:
                    found.setdefault(name, (schema, node.pointer))
        if old:
            for key in id_keys:
                name = schema.get(key)
                if isinstance(name, str) and name.startswith("#") and len(name) > 1:
                    found.setdefault(name[1:], (schema, node.pointer))
    return found


def resolve_ref(root: Any, ref: Any, dialect: str | None = None,
                anchors: Mapping[str, tuple[Any, str]] | None = None) -> tuple[bool, Any, str]:
    """Resolve a same-document reference ``ref`` against ``root`` in ``dialect``: a JSON-pointer
    fragment (:func:`resolve_local_ref`) or a plain-name fragment ``#name`` (:func:`anchors_of`;
    ``anchors`` may pass them pre-computed). Returns ``(found, value, pointer)``; never fetches,
    never raises."""
    found = resolve_local_ref(root, ref)
    if found[0] or not isinstance(ref, str) or not ref.startswith("#") or ref.startswith("#/") or len(ref) < 2:
        return found
    table = anchors_of(root, dialect) if anchors is None else anchors
    hit = table.get(ref[1:])
    if hit is None:
        return False, None, ""
    return True, hit[0], hit[1]


def walk(  # noqa: C901  (the shared walk: one loop on the hot path, kept flat)
    root: Any,
    *,
    follow_refs: bool = False,
    include_definitions: bool = True,
    max_nodes: int = 200_000,
    dialect: str | None = None,
) -> Iterator[Node]:
    """Yield every subschema of ``root``, the root first, depth-first in key order.

    ``follow_refs``: descend into the target of a local ``$ref`` as if it were written
    in place (its nodes keep the target's pointer and get the referencing instance
    path); a reference already on the current chain is not followed again.
    ``include_definitions``: also visit ``$defs``/``definitions`` entries in place (with
    ``instance_path=None``), so that every schema text is seen once.
    ``max_nodes``: stop after this many nodes (guards exponential ``$ref`` fan-out).
    ``dialect``: the dialect ``root`` is read in (a key of
    :data:`schemalint.schema.dialect.DIALECTS`, or ``None``): with ``follow_refs``, which anchors a
    ``#name`` reference may name, and whether ``$dynamicRef`` (2020-12) and ``$recursiveRef``
    (2019-09) are references (see the module docstring).

    Never raises on malformed schemas: non-dict values are yielded and not descended.
    """
    stack: list[Node] = [Node(root, "", "")]
    ref_keys = ("$ref", "$dynamicRef") if dialect in (None, "2020-12") else (
        ("$ref", "$recursiveRef") if dialect == "2019-09" else ("$ref",))
    anchors: dict[str, tuple[Any, str]] | None = None
    seen = 0
    pop = stack.pop
    while stack:
        node = pop()
        seen += 1
        if seen > max_nodes:
            return
        schema = node.schema
        is_map = type(schema) is dict or isinstance(schema, Mapping)
        if (
            follow_refs
            and is_map
            and node.via_ref
            and node.instance_path is not None
            and any(schema.get(k) in node.via_ref for k in ref_keys if isinstance(schema.get(k), str))
        ):
            node = Node(schema, node.pointer, node.instance_path, node.branch, node.keyword, node.via_ref,
                        node.depth, recursion_cut=True)
        yield node
        if not is_map:
            continue
        children: list[Node] = []
        out = children.append
        ptr, ipath, depth, branch, via_ref = node.pointer, node.instance_path, node.depth + 1, node.branch, node.via_ref
        for key, value in schema.items():
            if key == "properties":
                if type(value) is dict or isinstance(value, Mapping):
                    kptr = ptr + "/properties/"
                    ibase = None if ipath is None else ipath + "/"
                    for name, sub in value.items():
                        if type(name) is not str or "~" in name or "/" in name:
                            name = escape_token(name)
                        out(Node(sub, kptr + name, None if ibase is None else ibase + name, branch, key, via_ref,
                                 depth))
                continue
            if key in _SIMPLE_KEYWORDS:
                kptr = f"{ptr}/{key}"
                if key in _ANY_CHILD:
                    out(Node(value, kptr, _child(ipath, ANY_INDEX), branch, key, via_ref, depth))
                elif key == "items":
                    if isinstance(value, list):
                        for i, sub in enumerate(value):
                            out(Node(sub, f"{kptr}/{i}", _child(ipath, str(i)), branch, key, via_ref, depth))
                    else:
                        out(Node(value, kptr, _child(ipath, ANY_INDEX), branch, key, via_ref, depth))
                elif key == "prefixItems":
                    if isinstance(value, list):
                        for i, sub in enumerate(value):
                            out(Node(sub, f"{kptr}/{i}", _child(ipath, str(i)), branch, key, via_ref, depth))
                elif key in _UNION:
                    if isinstance(value, list):
                        for i, sub in enumerate(value):
                            out(Node(sub, f"{kptr}/{i}", ipath, (*branch, (key, i)), key, via_ref, depth))
                elif key in ("if", "then", "else"):
                    out(Node(value, kptr, ipath if key != "if" else None, branch, key, via_ref, depth))
                elif key in ("not", "propertyNames"):
                    out(Node(value, kptr, None, branch, key, via_ref, depth))
                elif key == "patternProperties":
                    if isinstance(value, Mapping):
                        for pattern, sub in value.items():
                            out(Node(sub, f"{kptr}/{escape_token(pattern)}", _child(ipath, ANY_INDEX), branch,
                                     key, via_ref, depth))
                elif key in ("dependencies", "dependentSchemas"):
                    if isinstance(value, Mapping):
                        for name, sub in value.items():
                            if isinstance(sub, (Mapping, bool)):
                                out(Node(sub, f"{kptr}/{escape_token(name)}", ipath, branch, key, via_ref, depth))
                elif key in _DEF_KEYWORDS:
                    if include_definitions and isinstance(value, Mapping):
                        for name, sub in value.items():
                            out(Node(sub, f"{kptr}/{escape_token(name)}", None, branch, key, via_ref, depth))
                elif key in ref_keys and follow_refs and ipath is not None:
                    if not isinstance(value, str) or value in via_ref:
                        continue
                    if key == "$recursiveRef":
                        found, target, target_ptr = value == "#", root, ""
                    elif value.startswith("#/") or value == "#" or not value.startswith("#"):
                        found, target, target_ptr = resolve_local_ref(root, value)
                    else:
                        if anchors is None:
                            anchors = anchors_of(root, dialect)
                        found, target, target_ptr = resolve_ref(root, value, dialect, anchors)
                    if found:
                        out(Node(target, target_ptr, ipath, branch, key, (*via_ref, value), depth))
        if children:
            children.reverse()
            stack.extend(children)


def iter_objects(root: Any, **kwargs: Any) -> Iterator[Node]:
    """Like :func:`walk` but only the nodes whose schema is a dict."""
    for node in walk(root, **kwargs):
        if isinstance(node.schema, Mapping):
            yield node
