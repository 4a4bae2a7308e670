"""SL008 unsatisfiable-schema: a subschema that no JSON value can satisfy.

Every dict subschema of the input schema (and of an MCP ``outputSchema``) is asked
:func:`schemalint.schema.satisfiable.why_empty`; a subschema that admits nothing *on its own
account* is reported at its pointer, with the keyword that makes it so. Its parents (a required
property's object, an ``allOf`` that holds it, a ``$ref`` to it) are not reported again. Subschemas
under ``if``/``then``/``else``/``not``/``dependentSchemas``/``propertyNames``/``contains`` are
skipped: ``then: false`` and ``not`` of an impossible schema are how a schema forbids something.
An optional property whose schema is ``false`` is likewise a way to forbid the key, so only a
*required* ``false`` property is reported.

Severity: an error when the whole schema admits nothing (no call can ever pass; for an output
schema, no result can ever conform), a warning when only a part does (an optional property the
model can never send, a union branch that never matches, an unused ``$defs`` entry).

zod 4 renders ``z.string().pipe(z.number())`` and intersections of disjoint types as an ``allOf``
no value satisfies.

Source: rules/SL008-unsatisfiable-schema.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.schema.dialect import default_dialect, dialect_of
from schemalint.schema.index import SchemaNode, index_schema
from schemalint.schema.satisfiable import value_kind, why_empty, written_pointer
from schemalint.schema.walk import resolve_local_ref

_LOCAL_CAUSES = frozenset({
    "allOf", "anyOf", "oneOf", "not", "enum", "const", "$ref", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties",
})
"""Keywords one of which a subschema must hold to be empty on its own account (besides a required
``false`` property)."""


_CANDIDATE_KEYS = tuple(sorted(_LOCAL_CAUSES | {"required"}))
"""A subschema :func:`_may_be_empty` keeps holds one of these."""


def _may_be_empty(schema: dict[str, Any]) -> bool:
    if not _LOCAL_CAUSES.isdisjoint(schema):
        return True
    props, req = schema.get("properties"), schema.get("required")
    return isinstance(props, dict) and isinstance(req, list) and any(props.get(n) is False
                                                                      for n in req if isinstance(n, str))


_PLAIN_KEYS = frozenset({"type", "description", "title", "default", "examples", "format", "pattern", "enum",
                         "minimum", "maximum", "minLength", "maxLength", "anyOf", "oneOf"})
"""Keys of the subschemas :func:`_plainly_satisfiable` decides (the others go to ``why_empty``)."""
_BRANCH_KEYS = frozenset({"type", "description", "title"})
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "format", "pattern"})
"""Keys :func:`~schemalint.schema.satisfiable.why_empty` does not judge."""
_TYPE_KINDS: dict[str, frozenset[str]] = {
    "null": frozenset({"null"}), "boolean": frozenset({"boolean"}), "object": frozenset({"object"}),
    "array": frozenset({"array"}), "string": frozenset({"string"}), "integer": frozenset({"integer"}),
    "number": frozenset({"integer", "fraction"}),
}


def _plain_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def _plainly_satisfiable(schema: dict[str, Any]) -> bool:
    """True for the common subschemas that plainly admit a value, without asking ``why_empty`` (the
    synthetic benchmark's enums, ranges, lengths and ``anyOf`` of types): only keys of
    :data:`_PLAIN_KEYS`, one known ``type`` name, numeric bounds that leave a number of that type,
    length bounds that leave a string, an ``enum`` with a value of the type (and no bounds), or one
    ``anyOf``/``oneOf`` with a branch of a known ``type`` alone (and no type or bounds beside it). Exact:
    ``why_empty`` is ``None`` for each of them; anything else answers ``False`` (ask it)."""
    if not _PLAIN_KEYS.issuperset(schema):
        return False
    if "anyOf" in schema:
        return _plain_union(schema, "anyOf")
    if "oneOf" in schema:
        return _plain_union(schema, "oneOf")
    t = schema.get("type")
    kinds: frozenset[str] | None
    if t is None:
        kinds = _ALL_KINDS
    elif type(t) is str:
        kinds = _TYPE_KINDS.get(t)
        if kinds is None:
            return False
    else:
        return False
    if _BOUNDS.isdisjoint(schema):  # the common case: a type, maybe an enum, annotations
        if "enum" in schema:
            values = schema["enum"]
            return type(values) is list and any(value_kind(v) in kinds for v in values)
        return True  # every kind set of _TYPE_KINDS and _ALL_KINDS is non-empty
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if (lo is not None and not _plain_number(lo)) or (hi is not None and not _plain_number(hi)):
        return False
    if lo is not None and hi is not None:
        if lo > hi:
            kinds = kinds - _NUMBER_KINDS
        else:
            if math.ceil(lo) > math.floor(hi):
                kinds = kinds - _INTEGER_KIND
            if lo == hi and float(lo).is_integer():
                kinds = kinds - _FRACTION_KIND
    least, most = schema.get("minLength"), schema.get("maxLength")
    if (least is not None and (type(least) is not int or least < 0)) or (
            most is not None and (type(most) is not int or most < 0)):
        return False
    if least is not None and most is not None and least > most:
        kinds = kinds - _STRING_KIND
    if "enum" in schema:
        return False  # an enum beside bounds is for why_empty
    return bool(kinds)


def _plain_union(schema: dict[str, Any], kw: str) -> bool:
    """:func:`_plainly_satisfiable` of a subschema with ``kw`` (``anyOf`` or ``oneOf``): annotations
    beside it, and a branch of one known ``type`` name and annotations."""
    branches = schema[kw]
    return (_ANNOTATIONS.issuperset(k for k in schema if k != kw) and type(branches) is list
            and any(type(b) is dict and _BRANCH_KEYS.issuperset(b) and type(b.get("type")) is str
                    and b["type"] in _TYPE_KINDS for b in branches))


_BOUNDS = frozenset({"minimum", "maximum", "minLength", "maxLength"})
_NUMBER_KINDS = frozenset({"integer", "fraction"})
_INTEGER_KIND = frozenset({"integer"})
_FRACTION_KIND = frozenset({"fraction"})
_STRING_KIND = frozenset({"string"})
_ALL_KINDS = frozenset({"null", "boolean", "object", "array", "string", "integer", "fraction"})


class UnsatisfiableSchema(Rule):
    """A subschema admits no JSON value: contradictory types (``allOf`` of ``string`` and
    ``number``), ``enum``/``const`` values outside ``type`` or outside each other, ``minimum`` above
    ``maximum`` (and the exclusive forms, integers included), ``minLength`` above ``maxLength``,
    ``minItems`` above ``maxItems``, ``minItems`` beyond a closed tuple (2020-12 ``prefixItems`` with
    ``items: false``; draft-07 array ``items`` with ``additionalItems: false``, read in the tool's
    dialect), a required property whose schema is ``false``, ``not: {}``.
    """

    keywords = _LOCAL_CAUSES | {"required"}
    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one diagnostic per subschema that is empty on its own account."""
        yield from self._check(tool, tool.advertised, None, "call", ctx)
        if tool.output_schema is not None:
            yield from self._check(tool, tool.output_schema, tool.origin.pointer + "/outputSchema", "result", ctx)

    def _check(self, tool: Tool, root: Any, file_base: str | None, what: str, ctx: Context) -> Iterator[Diagnostic]:
        if not isinstance(root, dict):
            return
        dialect: str | None = None
        for node in index_schema(root).having(*_CANDIDATE_KEYS):  # the others are not _may_be_empty
            if node.conditional:
                continue
            schema = node.schema
            # _may_be_empty, then _plainly_satisfiable, in fewer steps: a subschema without a local
            # cause is kept only for a required `false` property (and is then never plain: it has
            # `required`, not a key of _PLAIN_KEYS)
            if _LOCAL_CAUSES.isdisjoint(schema):
                if not _may_be_empty(schema):
                    continue
            elif _plainly_satisfiable(schema):
                continue
            if _undefined_branch(node) or _only_refers(schema, root):
                continue
            if dialect is None:
                dialect = dialect_of(root, ctx.dialect, default_dialect(tool.origin.format)).dialect
            empty = why_empty(node.schema, root, dialect=dialect)
            if empty is None or empty.inherited:
                continue
            whole = _essential(node)
            pointer = node.pointer + written_pointer(empty.pointer) if empty.pointer.startswith(
                "/properties/") and empty.pointer.count("/") == 2 else node.pointer
            where = f"`{pointer}`" if pointer else "the schema root"
            side = "input schema" if what == "call" else "`outputSchema`"
            if whole:
                effect = (f"so no {what} can ever satisfy the {side}"
                          + ("; every call the model makes is refused by a validating client or runtime"
                             if what == "call" else "; a client that validates results refuses every one"))
            else:
                effect = ("a value there can never be valid" + (
                    " (an optional part: the tool still has calls that pass)" if what == "call" else ""))
            yield self.diag(
                tool, pointer if file_base is None else None,
                f"the subschema at {where} admits no value: {empty.reason}; {effect}",
                instance_path=node.instance_path,
                severity=None if whole else Severity.WARNING,
                hint=_hint(empty.pointer),
                file_pointer=None if file_base is None else file_base + pointer,
            )


_REF_AND_ANNOTATIONS = _ANNOTATIONS | {"$ref"}


def _only_refers(schema: dict[str, Any], root: Any) -> bool:
    """True for a subschema of ``$ref`` and annotations only whose target (in ``root``) is not
    ``false``: ``why_empty`` finds it empty only through its target, an ``inherited`` answer
    (reported where the target is written, if at all), so it is not asked. A ``$ref`` to ``false``
    is empty on the subschema's own account and is asked."""
    if "$ref" not in schema or not _REF_AND_ANNOTATIONS.issuperset(schema):
        return False
    found, target, _ = resolve_local_ref(root, schema["$ref"])
    return not (found and target is False)


def _undefined_branch(node: SchemaNode) -> bool:
    """True for an ``anyOf``/``oneOf`` branch ``{"not": {}}``: zod's rendering of ``undefined`` in an
    optional union (zod-to-json-schema), a branch written to match nothing on purpose."""
    schema = node.schema
    return (node.keyword in ("anyOf", "oneOf") and schema.get("not") in ({}, True)
            and set(schema) <= {"not", "description", "title"})


def _essential(node: SchemaNode) -> bool:
    """True when every instance of the root must satisfy ``node``: the chain from the root runs
    only through ``allOf`` members, required properties and items an array must hold
    (``minItems``), so an empty ``node`` leaves the whole schema empty."""
    current: SchemaNode | None = node
    while current is not None and current.parent is not None:
        parent = current.parent.schema
        kw, token = current.keyword, current.token
        if kw == "properties":
            required = parent.get("required")
            if not (isinstance(required, list) and token in required):
                return False
        elif kw in ("items", "prefixItems"):
            least = parent.get("minItems")
            index = int(token) if token is not None and token.isdigit() else 0
            if isinstance(least, bool) or not isinstance(least, (int, float)) or least <= index:
                return False
        elif kw != "allOf":
            return False
        current = current.parent
    return True


def _hint(cause: str) -> str:
    last = cause.rsplit("/", 1)[-1]
    if last in ("enum", "const"):
        return "make the `enum`/`const` values match `type` (and each other), or widen `type`"
    if last in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return "swap or correct the numeric bounds so that the range holds a value"
    if last in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
        return "correct the length bounds (the lower bound must not exceed the upper one)"
    if "/allOf/" in cause or last in ("type", "anyOf", "oneOf", "$ref"):
        return ("keep one type: a transform between types (zod `.pipe`, a preprocess step) belongs in the "
                "runtime, and the advertised schema should show the type the model sends")
    if "/properties/" in cause:
        return "give the property a schema, or drop it from `required`"
    return "remove the contradiction"
