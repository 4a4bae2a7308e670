"""What a rule declares about fixing its findings (``schemalint check --fix``, docs/fix.md).

A rule that has a mechanical answer sets :attr:`schemalint.rules.base.Rule.fix` to a :class:`Fix`
beside its other declarations: its safety (``"safe"``, ``"unsafe"``, or ``"mixed"`` when it
depends on the finding), the reason, and ``plan(diagnostic, document, fix_ctx)``, which returns
an :class:`Edit`: JSON Patch operations (RFC 6902 ``add``/``remove``/``replace``, :class:`Op`) on the
parsed document the diagnostic's pointer points into, or ``None`` when this finding has no
mechanical answer (the plan re-reads the document at the pointer and declines anything it does not
recognise). The engine knows no fix: :mod:`schemalint.fix` asks each rule for its plan and applies
the operations to the file's text without re-dumping it.

Safety means what it means in ruff: a *safe* edit keeps the set of calls the model may send and
the runtime accepts (a keyword the target ignores or strips removed, a type list rewritten as
the target's nullable form); an *unsafe* edit changes the contract (a bound removed that the
runtime must then enforce, an optional property made required and nullable).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemalint.model import MISSING, resolve, split_pointer, unescape_token
from schemalint.model import join_pointer as join
from schemalint.rules.lazy_re import lazy_re
from schemalint.schema import TYPE_ALIASES
from schemalint.schema.unions import branches_disjoint

if TYPE_CHECKING:
    from schemalint.model import Diagnostic

SAFE, UNSAFE, MIXED = "safe", "unsafe", "mixed"


@dataclass(frozen=True)
class Op:
    """One JSON Patch operation (RFC 6902 §4.1-4.3) on a parsed document: ``op`` is ``"add"``
    (``path`` names a key absent from an object, or ``-`` at the end of an array), ``"remove"``
    or ``"replace"`` (``path`` names an existing member or element); ``value`` for add/replace."""

    op: str
    path: str
    value: Any = None


@dataclass(frozen=True)
class Edit:
    """The fix of one diagnostic: a short ``title`` (shown as the editor's code action and in
    ``--diff`` summaries), the operations, and whether the edit is safe (see the module docstring)."""

    title: str
    ops: tuple[Op, ...]
    safe: bool


@dataclass(frozen=True)
class FixContext:
    """What a plan may know besides the diagnostic and the document: ``targets``, the provider
    profiles the finding's tool is checked against (empty when unknown, e.g. a buffer in an editor
    whose tools could not be found)."""

    targets: frozenset[str] = frozenset()
    null_in_nullable: bool = False
    """Whether the file's own readers take ``"nullable": true`` as "``null`` too": the tool was read
    as a Gemini declaration, whose ``parameters`` are Gemini's ``Schema`` (an OpenAPI 3.0 subset).
    Elsewhere the file is JSON Schema, where ``nullable`` is an unknown keyword and ``"type": T``
    refuses the ``null`` a type list or a ``{"type": "null"}`` branch let through."""


Plan = Callable[["Diagnostic", Any, FixContext], "Edit | None"]


@dataclass(frozen=True)
class Fix:
    """A rule's fix declaration: ``safety`` (:data:`SAFE`, :data:`UNSAFE` or :data:`MIXED`),
    ``reason`` (one sentence: why that safety; the rule's page says it at length) and ``plan``."""

    safety: str
    reason: str
    plan: Plan = field(compare=False)
    in_code: Mapping[str, str] = field(default_factory=dict, compare=False)
    """What to change instead when the tool is defined in code, which ``--fix`` never rewrites:
    ``{"python": ..., "typescript": ...}`` (a Pydantic model, a zod schema); ``--fix`` adds it to
    the hint of such a diagnostic."""
    unfixable: Callable[[Diagnostic], bool] | None = field(default=None, compare=False)
    """Whether a finding of the rule is one that no edit of the tool's definition fixes, such as a
    ``$schema`` a server library writes into every tool it lists (SL330): never counted as fixable.
    ``None``: every finding may be."""


def parent(pointer: str) -> tuple[str, str]:
    """``(parent pointer, last token unescaped)``; raises ``ValueError`` for the root pointer."""
    if not pointer:
        raise ValueError("the root has no parent")
    head, _, last = pointer.rpartition("/")
    return head, unescape_token(last)


ANNOTATIONS = frozenset({
    "title", "description", "examples", "example", "default", "$comment", "deprecated", "readOnly",
    "writeOnly", "$schema", "$id", "id", "contentMediaType", "contentEncoding", "markdownDescription",
    "x-examples", "strict",
})
"""Keywords that annotate and never constrain (JSON Schema 2020-12 Meta-Data vocabulary §9 and the
content annotations §8; ``$schema``/``$id`` identify): dropping one leaves every instance's validity
as it was, so its removal is a safe fix."""

STRUCTURAL = frozenset({
    "$ref", "$defs", "definitions", "$dynamicRef", "$recursiveRef", "$anchor", "$dynamicAnchor",
    "anyOf", "oneOf", "allOf", "properties", "items", "prefixItems", "type",
})
"""Keywords a fix never drops: removing one would leave a dangling reference or change what the
schema is (an object without its properties, a union without its branches); such findings need an
author's rewrite (inline the definition, flatten the union)."""


def _keyword_at(pointer: str, document: Any) -> tuple[str, str, dict[str, Any]] | None:
    """``(where, key, holder)`` for a diagnostic pointer ``.../<schema>/<keyword>``: the schema
    object's pointer, the keyword and the object, or ``None`` when the pointer names no keyword of
    an object in ``document``."""
    try:
        where, key = parent(pointer)
    except ValueError:
        return None
    holder = resolve(document, where)
    if not isinstance(holder, dict) or key not in holder:
        return None
    return where, key, holder


JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
"""The JSON Schema type names (Validation §6.1.1)."""


def nullable(schema: Any) -> Any:
    """``schema`` widened to also accept ``null`` the JSON Schema way (a ``type`` list or an ``anyOf``
    branch; ``enum`` gains ``null``), or :data:`MISSING` when no such form is known (no ``type``,
    ``anyOf`` or ``$ref``, or a ``type`` that is no JSON Schema type name). A schema that already
    accepts null is returned unchanged."""
    if not isinstance(schema, dict):
        return MISSING
    out = dict(schema)
    t = schema.get("type")
    if (isinstance(t, str) and t not in JSON_TYPES) or (isinstance(t, list) and not set(t) <= JSON_TYPES):
        return MISSING  # a type dialect (BFCL's "dict", "float"): SL001's finding, no nullable form to write
    if isinstance(t, str):
        if t == "null":
            return schema
        out["type"] = [t, "null"]
    elif isinstance(t, list) and all(isinstance(x, str) for x in t):
        if "null" in t:
            return schema
        out["type"] = [*t, "null"]
    elif t is None and isinstance(schema.get("anyOf"), list):
        branches = schema["anyOf"]
        if any(isinstance(b, dict) and b.get("type") == "null" for b in branches):
            return schema
        out["anyOf"] = [*branches, {"type": "null"}]
        return out
    elif t is None and isinstance(schema.get("$ref"), str) and len(schema) == 1:
        return {"anyOf": [schema, {"type": "null"}]}
    else:
        return MISSING
    enum = schema.get("enum")
    if isinstance(enum, list) and None not in enum:
        out["enum"] = [*enum, None]
    return out


class Taken:
    """JSON pointers already changed by the operations taken so far: :meth:`clashes` says whether a
    new pointer is one of them, under one, or above one (in pointer depth, not in their number)."""

    def __init__(self) -> None:
        self.paths: set[str] = set()
        self.above: set[str] = set()

    @staticmethod
    def _ancestors(pointer: str) -> list[str]:
        return [pointer[:i] for i in range(len(pointer)) if pointer[i] == "/"]

    def clashes(self, pointer: str) -> bool:
        """Whether ``pointer`` is, is under, or is above a taken pointer."""
        if pointer in self.paths or pointer in self.above:
            return True
        return any(a in self.paths for a in self._ancestors(pointer))

    def add(self, pointer: str) -> None:
        """Take ``pointer``."""
        self.paths.add(pointer)
        self.above.update(self._ancestors(pointer))


# -- the plans the rules declare (each rule's page says why its safety is what it is) --------------

NEVER_DROPPED = STRUCTURAL | {"enum", "required"}
""":data:`STRUCTURAL`, ``enum`` (the value set itself: dropping it is never the answer to a
target refusing its values) and ``required`` (a Gemini node requiring a name it does not declare,
SL313, is answered by declaring the property there; dropping the list would make every branch of
an either-or union accept anything)."""


KEYWORD_IN_CODE = {
    "python": "in the Pydantic model, drop the constraint from Field(...) (ge=, le=, pattern=, max_length=, ...) "
              "and check it in the tool, saying it in the field's description",
    "typescript": "in the zod schema, drop the .min()/.max()/.regex()/... call and check it in the tool, saying it "
                  "in .describe()",
}
"""What the keyword rules' fix (:func:`drop_keyword`) means in code."""


def drop_keyword(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """The plan of the "keyword the target refuses or ignores" rules (SL311, SL312, SL313, SL315,
    SL323, SL324): remove the keyword at the diagnostic's pointer (``.../<schema>/<keyword>``).
    Safe for an annotation (:data:`ANNOTATIONS`: no instance changes validity), unsafe for a
    validation keyword (what it forbade is then allowed by the schema, so a runtime that validates
    with its own code must enforce it), none for :data:`NEVER_DROPPED` or when the pointer names no
    keyword of a schema object. Two keywords are not dropped but moved: ``default`` into the
    description (:func:`_move_default`), ``oneOf`` to ``anyOf`` (:func:`one_of_as_any_of`)."""
    found = _keyword_at(diag.pointer, document)
    if found is None:
        return None
    where, key, holder = found
    if key == "oneOf":
        return one_of_as_any_of(diag.pointer, where, holder, fix_ctx)
    if key in NEVER_DROPPED:
        return None
    if key == "additionalProperties" and "gemini" in fix_ctx.targets and not holder.get("properties"):
        return None  # the map would become an OBJECT without properties, which Gemini refuses too (SL306)
    if key == "default":
        return _move_default(diag.pointer, where, holder)
    safe = key in ANNOTATIONS
    return Edit(f"remove `{key}`" + ("" if safe else " (the runtime must enforce it)"),
                (Op("remove", diag.pointer),), safe)


def one_of_as_any_of(pointer: str, where: str, holder: dict[str, Any], fix_ctx: FixContext | None = None,
                     ) -> Edit | None:
    """``oneOf`` (at ``pointer`` in the schema ``holder`` at ``where``) rewritten as ``anyOf`` with
    the same branches, as the OpenAI Agents SDK does for strict mode. ``anyOf`` accepts a value
    that matches two branches, which ``oneOf`` refuses: the rewrite is safe when no value can match
    two branches (:func:`disjoint`: the branches have different ``type``s, or one property that
    every branch requires holds a different ``const``/``enum`` value in each), unsafe otherwise (the
    runtime must refuse what matches two). None when the schema has an ``anyOf`` already or the
    branches are not a list, and for a Gemini target when the union would have no ``type`` its
    branches share: Gemini's ``parameters`` hold an ``anyOf`` only beside one ``type`` (SL314), so
    such a union has no portable form there (the hint says to send ``parametersJsonSchema``)."""
    branches = holder.get("oneOf")
    if "anyOf" in holder or not isinstance(branches, list) or not branches:
        return None
    if fix_ctx is not None and "gemini" in fix_ctx.targets and "type" not in holder:
        types = {b.get("type") if isinstance(b, dict) else None for b in branches} - {"null"}
        if len(types) != 1 or not isinstance(next(iter(types)), str):
            return None
    safe = branches_disjoint(branches)
    return Edit("rewrite `oneOf` as `anyOf`" + ("" if safe else " (a value matching two branches becomes valid)"),
                (Op("remove", pointer), Op("add", join(where, "anyOf"), branches)), safe)


def drop_constraint(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL324 (Ollama): :func:`drop_keyword`, whose ``oneOf`` rewrite (:func:`one_of_as_any_of`:
    safe when the branches are disjoint, unsafe otherwise) is what makes the union readable there:
    Ollama's ``ToolProperty`` struct keeps ``anyOf`` and drops ``oneOf``. Not at the root of the
    parameters (``instance_path`` ``""``): Ollama's ``ToolFunctionParameters`` keeps no union at all,
    so an ``anyOf`` there is dropped as well (no fix)."""
    if diag.pointer.endswith("/oneOf") and diag.instance_path in ("", None):
        return None
    return drop_keyword(diag, document, fix_ctx)


DEFAULT_TEXT_LIMIT = 80
"""The longest default (as JSON) :func:`_move_default` writes into a description."""


def _move_default(pointer: str, where: str, holder: dict[str, Any]) -> Edit:
    """Remove ``default`` (at ``pointer``, in the schema ``holder`` at ``where``) and state it in
    the schema's description (``Default: "asc".``), unless the description already states that
    value as the default. The set of valid calls is unchanged and the model still reads what the
    tool does when the value is left out or null, so the edit is safe. A default the description
    cannot hold (longer than :data:`DEFAULT_TEXT_LIMIT` as JSON, or a description that is not a
    string) is only removed, and that is unsafe: what the tool assumes is no longer said."""
    import json
    import re

    value = holder["default"]
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        shown = ""
    desc = holder.get("description", "")
    remove = Op("remove", pointer)
    if not isinstance(desc, str) or not shown or len(shown) > DEFAULT_TEXT_LIMIT:
        return Edit("remove `default` (the default is no longer stated)", (remove,), False)
    said = str(value) if not isinstance(value, bool) else shown
    if re.search(r"\bdefaults?\b[^.\n]{0,40}?" + re.escape(said), desc, re.I):
        return Edit("remove `default` (the description states it)", (remove,), True)
    body = desc.rstrip()
    text = f"Default: {shown}."
    text = f"{body}{' ' if body.endswith(('.', '!', '?')) else '. '}{text}" if body else text
    op = Op("replace" if "description" in holder else "add", join(where, "description"), text)
    return Edit("move `default` into the description", (remove, op), True)


IN_PLACE_APPLICATORS = frozenset(("allOf", "anyOf", "oneOf", "$ref", "if", "then", "else", "dependentSchemas",
                                  "dependencies", "not"))
"""Keywords whose subschemas apply to the same object (JSON Schema 2020-12 Core §10.2): properties
they declare are not "sibling properties" for ``additionalProperties`` (Core §10.3.2.3)."""


def close_object(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL307: ``"additionalProperties": false`` on the object at the pointer (added when missing:
    safe on an object that declares properties, as strict decoding only emits declared ones, unsafe
    on a free-form object, which becomes empty); an ``additionalProperties`` that is ``true`` or a
    schema replaced by ``false`` (unsafe: the map's keys can no longer be sent). No fix on an object
    with in-place applicators (:data:`IN_PLACE_APPLICATORS`): closing it would refuse what they declare."""
    if diag.pointer.endswith("/additionalProperties"):
        where, _ = parent(diag.pointer)
        holder = resolve(document, where)
        if not isinstance(holder, dict) or holder.get("additionalProperties", False) is False:
            return None
        return Edit("set `additionalProperties` to false (the map's keys can no longer be sent)",
                    (Op("replace", diag.pointer, False),), False)
    node = resolve(document, diag.pointer)
    if not isinstance(node, dict) or "additionalProperties" in node:
        return None
    if any(key in node for key in IN_PLACE_APPLICATORS):
        return None  # `additionalProperties` sees only the sibling `properties`: closing here would
        # refuse every key the branches declare (a valid call would fail); the author must restructure
    props = node.get("properties")
    declared = isinstance(props, dict) and bool(props)
    return Edit('add "additionalProperties": false' + ("" if declared else " (a free-form object becomes empty)"),
                (Op("add", join(diag.pointer, "additionalProperties"), False),), declared)


def nullable_ops(pointer: str, schema: Any) -> list[Op] | None:
    """The operations that make the schema at ``pointer`` also accept ``null`` the JSON Schema way
    (``type`` list, ``anyOf`` branch, ``$ref`` wrapped; ``enum`` gains ``null``), ``[]`` when it
    already does, ``None`` when no such form is known (:func:`nullable`)."""
    widened = nullable(schema)
    if widened is MISSING:
        return None
    if widened is schema:
        return []
    if isinstance(schema, dict) and "$ref" in schema and "anyOf" in widened and "anyOf" not in schema:
        return [Op("replace", pointer, widened)]
    ops = []
    for key in ("type", "enum", "anyOf"):
        if key in widened and widened.get(key) != schema.get(key):
            ops.append(Op("replace", join(pointer, key), widened[key]))
    return ops


_NULL = r"""[`'"]{0,2}(?-i:null|None|nil|NULL|Null)[`'"]{0,2}"""
_NULL_MEANS = lazy_re(
    r"(?:"
    rf"\b{_NULL}(?:\s+values?)?\s*(?:means|meaning|indicates|represents|denotes|signifies|stands\s+for|implies|"
    r"disables|clears|removes|resets|unsets|deletes|turns\s+off|is\s+treated\s+as|is\s+interpreted\s+as|=|->|\u2192)"
    rf"|\b(?:if|when|once)\s+(?:(?:it|this|the\s+\w+|this\s+value|the\s+value)\s+is\s+|(?:set|given|passed)\s+(?:to\s+|as\s+)?)?{_NULL}"
    rf"|\b(?:pass|set|use|send|give|provide|specify|supply|leave|enter)(?:\s+(?:it|this|this\s+value|the\s+(?:value|parameter|field|property)|to|as|a|an|explicit|explicitly|value|of)){{0,3}}\s+{_NULL}\s*(?:/\s*\w+\s*)?(?:to|for|if|when|so|in\s+order)\b"
    rf"|\b(?:a|the)\s+(?:value\s+of\s+)?{_NULL}\s+(?:value\s+)?(?:to|for)\b"
    rf"|\bor\s+{_NULL}\s+(?:to|for|if|when)\b"
    rf"|\b{_NULL}\s+(?:to|for)\s+(?:clear|remove|reset|unset|disable|delete|no\b|none\b|unlimited|all\b|any\b|infinite|never|end\b|indicate|represent|mean|signal)"
    r")", re.I)
"""A description that gives ``null`` a meaning ("null means no limit", "pass null to clear", "if
null, the current date is used", "or null for no certificate")."""

_NULL_IS_OMISSION = lazy_re(
    r"(?:"
    rf"\bdefault(?:s|ed)?(?:\s+(?:value|is|to|as|of|value\s+of|will\s+be|should\s+be))*\s*[:=]?\s*{_NULL}"
    rf"|\b{_NULL}\s*(?:/|or)\s*(?:omit|leave\s+(?:it\s+)?out|not\s+(?:set|given|provided))"
    rf"|\bomit(?:ted)?\s+(?:it\s+)?(?:/|or)\s+(?:pass\s+|set\s+(?:to\s+)?|send\s+)?{_NULL}"
    rf"|\b{_NULL}\s+(?:if|when)\s+(?:[\w-]+\s+){{0,4}}?(?:not\s+|un)(?:specified|provided|given|known|set|supplied)\b"
    rf"|\bleave\s+(?:it\s+|this\s+)?(?:as\s+|at\s+)?{_NULL}"
    rf"|\b(?:if|when)\s+(?:it\s+is\s+|this\s+is\s+|the\s+\w+\s+is\s+)?(?:not|un)\s*(?:specified|provided|given|supplied|set)\b[^.;]{{0,60}}?{_NULL}"
    rf"|\b{_NULL}[`'\"]?\s*[,:]?\s*(?:it\s+|this\s+)?(?:defaults?\s+to\b|(?:uses|means|selects|falls\s+back\s+to|"
    r"will\s+use|is\s+treated\s+as)\s+the\s+default\b|the\s+default\b)"
    r")", re.I)
"""A description that says ``null`` is the default or stands for the value not given: there ``null``
already means what leaving the property out means, which is what SL308's fix asks of it."""


def null_meaning(schema: Any) -> str | None:
    """The clause with which the ``description`` of ``schema`` gives ``null`` a meaning of its own
    ("null means no limit", "pass null to clear", "If None, all items are returned"), or ``None``:
    no such words, or the description says ``null`` is the default or stands for the value not given
    ("Default null", "null if not specified", "pass null or omit"), which is what SL308's fix makes
    ``null`` mean. ``null`` in any case, ``None`` and ``nil`` count; the English "none" does not."""
    text = schema.get("description") if isinstance(schema, dict) else None
    if not isinstance(text, str):
        return None
    found = _NULL_MEANS.search(text)
    if found is None or _NULL_IS_OMISSION.search(text):
        return None
    start = max(text.rfind(stop, 0, found.start()) for stop in ".;\n") + 1
    ends = [i for i in (text.find(stop, found.end()) for stop in ".;\n") if i >= 0]
    clause = text[start:min(ends, default=len(text))].strip()
    return clause if len(clause) <= 80 else clause[:77].rstrip() + "..."


def require_all(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL308: list every property in ``required`` and make each one that was optional nullable
    (unsafe: the model then sends ``null`` for what it used to leave out, and the runtime must
    accept it); none when a property's schema has no known nullable form, nor when an optional
    property's description gives ``null`` a meaning (:func:`null_meaning`): the runtime would have
    to read ``null`` both as that meaning and as "not given", so the fix would change what ``null``
    does."""
    pointer = diag.pointer
    node = resolve(document, pointer)
    if pointer.endswith("/required") and isinstance(node, list):
        pointer = parent(pointer)[0]
        node = resolve(document, pointer)
    if not isinstance(node, dict) or not isinstance(node.get("properties"), dict):
        return None
    required = node.get("required", [])
    if not isinstance(required, list):
        return None
    missing = [name for name in node["properties"] if name not in required]
    if not missing:
        return None
    if any(null_meaning(node["properties"][name]) for name in missing):
        return None
    ops: list[Op] = []
    for name in missing:
        widened = nullable_ops(join(pointer, "properties", name), node["properties"][name])
        if widened is None:
            return None
        ops.extend(widened)
    listed = [*required, *missing]
    ops.append(Op("replace" if "required" in node else "add", join(pointer, "required"), listed))
    return Edit(f"require {listing(missing)} and make {'it' if len(missing) == 1 else 'them'} nullable",
                tuple(ops), False)


def listing(names: list[str], most: int = 3) -> str:
    """``names`` for a title: all of them up to ``most``, else the first ``most`` and how many more
    (a code action's title stays one short line: ```a`, `b`, `c` and 21 more``)."""
    shown = ", ".join(f"`{n}`" for n in names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"



def add_items(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL309: give an array without ``items`` its items. ``{}`` (any element: the contract as it was,
    safe) where the tool's targets accept untyped items (OpenAI without strict mode); where they
    do not (OpenAI strict, Gemini), ``{"type": "string"}`` (unsafe: it narrows the elements to
    strings; the finding's hint says to name the real element type). Untyped ``items`` already
    present: no fix (the element type is not known)."""
    node = resolve(document, diag.pointer)
    if not isinstance(node, dict) or "items" in node or "prefixItems" in node:
        return None
    t = node.get("type")
    if not (t == "array" or t == "ARRAY" or (isinstance(t, list) and ("array" in t or "ARRAY" in t))):
        return None
    if fix_ctx.targets and fix_ctx.targets.isdisjoint({"openai-strict", "gemini"}):
        return Edit('add "items": {} (any element, as before)', (Op("add", join(diag.pointer, "items"), {}),), True)
    string = "STRING" if t == "ARRAY" else "string"
    return Edit(f'add "items": {{"type": "{string}"}} (assumes string elements)',
                (Op("add", join(diag.pointer, "items"), {"type": string}),), False)


def remove_required_entry(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL003: remove the ``required`` entry that names no property (unsafe: a call without that
    member becomes valid, so the runtime must no longer expect it). None when a description above
    the entry (the object's, an enclosing schema's or the tool's) names the key: the author meant a
    parameter that was never declared, so the fix is to declare it (its type is the author's), and
    removing the entry would leave a description asking for a key the schema no longer expects."""
    try:
        where, index = parent(diag.pointer)
    except ValueError:
        return None
    listed = resolve(document, where)
    if not isinstance(listed, list) or not where.endswith("/required") or not index.isdigit():
        return None
    if int(index) >= len(listed):
        return None
    name = listed[int(index)]
    if isinstance(name, str) and _named_above(document, where, name):
        return None
    return Edit(f"remove {name!r} from `required`", (Op("remove", diag.pointer),), False)


def _named_above(document: Any, pointer: str, name: str) -> bool:
    """Whether a ``description`` of a node on the path to ``pointer`` (the root, the tool, each
    enclosing schema) holds ``name`` as a word of its own."""
    if not name.strip():
        return False
    word = re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])")
    tokens = split_pointer(pointer)
    for depth in range(len(tokens) + 1):
        node = resolve(document, join("", *tokens[:depth]))
        text = node.get("description") if isinstance(node, dict) else None
        if isinstance(text, str) and word.search(text):
            return True
    return False


_GEMINI_NAMES = TYPE_ALIASES


def gemini_type(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL314: a ``type`` list of one type and ``null`` rewritten as Gemini's nullable form
    (``"type": T, "nullable": true``); a programming-language type name (``dict``, ``float``,
    ``int`` ...) renamed to the JSON Schema type it means (safe); an ``anyOf`` without ``type`` whose
    non-null branches share one type given that type (plus ``nullable`` when a branch is ``null``).
    An edit that writes ``nullable`` is safe only in a file read as Gemini's Schema
    (``fix_ctx.null_in_nullable``): in a JSON Schema file (an MCP tool, an OpenAI function)
    ``nullable`` means nothing, so the new ``"type": T`` refuses the ``null`` the file accepted, and
    the edit is unsafe. Lists of several types and other names: none; nor an
    ``object`` (a rename of ``dict``, or a union's shared type) on a schema without ``properties``,
    which Gemini refuses as well (SL306): that schema has no portable form."""
    null_reads_as_null = fix_ctx.null_in_nullable
    if diag.pointer.endswith("/type"):
        where, _ = parent(diag.pointer)
        holder = resolve(document, where)
        if not isinstance(holder, dict):
            return None
        t = holder.get("type")
        if isinstance(t, list):
            others = [x for x in t if x != "null"]
            if len(others) != 1 or not isinstance(others[0], str) or len(t) != 2:
                return None
            ops = [Op("replace", diag.pointer, others[0])]
            if holder.get("nullable") is not True:
                ops.append(Op("replace" if "nullable" in holder else "add", join(where, "nullable"), True))
            return Edit(f'write the type list as "type": "{others[0]}", "nullable": true', tuple(ops),
                        null_reads_as_null)
        if isinstance(t, str) and t.lower() in _GEMINI_NAMES:
            name = _GEMINI_NAMES[t.lower()]
            if name == "object" and not holder.get("properties"):
                return None  # an object without properties, which Gemini refuses too (SL306): no portable form
            return Edit(f'rename type "{t}" to "{name}"', (Op("replace", diag.pointer, name),), True)
        return None
    node = resolve(document, diag.pointer)
    if not isinstance(node, dict) or "type" in node or not isinstance(node.get("anyOf"), list):
        return None
    branches = node["anyOf"]
    types = set()
    has_null = False
    for b in branches:
        if not isinstance(b, dict) or not isinstance(b.get("type"), str):
            return None
        if b["type"] == "null":
            has_null = True
        else:
            types.add(b["type"])
    if len(types) != 1:
        return None
    shared = types.pop()
    if shared == "object" and not node.get("properties"):
        return None  # an OBJECT without properties beside the union, which Gemini refuses too (SL306)
    ops = [Op("add", join(diag.pointer, "type"), shared)]
    if has_null and "nullable" not in node:
        ops.append(Op("add", join(diag.pointer, "nullable"), True))
    return Edit(f'add "type": "{shared}" beside anyOf', tuple(ops), null_reads_as_null or not has_null)


def empty_properties(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL306 for OpenAI: ``"properties": {}`` on an object without properties (safe: an empty
    ``properties`` constrains nothing). None for a Gemini target, which refuses empty properties
    too (there a tool without arguments leaves ``parameters`` out: an author's change)."""
    if "gemini" in fix_ctx.targets:
        return None
    node = resolve(document, diag.pointer)
    if not isinstance(node, dict) or "properties" in node or branches_declare_properties(node):
        return None
    return Edit('add "properties": {}', (Op("add", join(diag.pointer, "properties"), {}),), True)


def branches_declare_properties(schema: Any, depth: int = 0) -> bool:
    """Whether the subschemas that apply to ``schema``'s instance in place (:data:`IN_PLACE_APPLICATORS`:
    ``anyOf``/``oneOf``/``allOf`` branches, ``if``/``then``/``else``, ``not``, ...) declare properties,
    or may (a ``$ref``, whose target a plan does not resolve; nesting past 32 levels). Such an object's
    properties are its branches': an empty ``properties`` written beside them would tell a reader (and
    OpenAI's converter) the object takes no argument, so SL306 writes none (and SL307 closes none)."""
    if depth > 32:
        return True
    for key in IN_PLACE_APPLICATORS:
        value = schema.get(key)
        for sub in value if isinstance(value, list) else [value]:
            if key == "$ref" and value is not None:
                return True
            if key in ("dependentSchemas", "dependencies") and isinstance(sub, dict):
                if any(isinstance(v, dict) for v in sub.values()):
                    return True
                continue
            if isinstance(sub, dict) and ("properties" in sub or "$ref" in sub
                                          or branches_declare_properties(sub, depth + 1)):
                return True
    return False


def drop_ref_siblings(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL316: remove the annotations beside a ``$ref`` (safe: annotations constrain nothing; the
    Anthropic SDK drops them anyway). A validating sibling (``minLength`` beside ``$ref``): none,
    the constraint belongs in the definition."""
    node = resolve(document, diag.pointer)
    if not isinstance(node, dict) or "$ref" not in node:
        where = parent(diag.pointer)[0] if diag.pointer else ""
        node = resolve(document, where)
        if not isinstance(node, dict) or "$ref" not in node:
            return None
        pointer = where
    else:
        pointer = diag.pointer
    siblings = [k for k in node if k != "$ref"]
    if not siblings or any(k not in ANNOTATIONS for k in siblings):
        return None
    return Edit("remove " + ", ".join(f"`{k}`" for k in siblings) + " beside `$ref`",
                tuple(Op("remove", join(pointer, k)) for k in siblings), True)


def exact_schema_id(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL330, safe in each case it fixes: a loosely spelled meta-schema id (``$schema`` at the
    pointer) rewritten as that dialect's exact id (the dialect the schema was already read as, so
    no keyword changes meaning; validators now find the meta-schema by its id instead of fetching
    it); a tuple closed with ``items: false`` beside ``prefixItems`` (pointer at ``items``) bounded
    with ``maxItems`` instead (in 2020-12 both say "no element past the prefix", and a draft-07
    reader no longer refuses every element); a declared draft-06, draft-07 or 2019-09 ``$schema``
    removed (MCP's default, 2020-12, then applies) when the schema uses no keyword whose meaning
    differs between the two (:func:`_reads_otherwise`), so every instance validates as before. An
    unknown id, draft-04, and a schema that reads otherwise in 2020-12: no fix (which dialect the
    schema is written in, or how to rewrite it, is the author's to say)."""
    from schemalint.schema.dialect import META_SCHEMA_IDS, dialect_of

    found = _keyword_at(diag.pointer, document)
    if found is None:
        return None
    where, key, holder = found
    if key == "$schema" and isinstance(holder["$schema"], str):
        choice = dialect_of(holder)
        if choice.unknown:
            return None
        if not choice.exact:
            exact = META_SCHEMA_IDS[choice.dialect]
            return Edit(f'write the exact id "{exact}"', (Op("replace", diag.pointer, exact),), True)
        if choice.dialect in ("draft-06", "draft-07", "2019-09") and not _reads_otherwise(holder):
            return Edit(f"remove the {choice.dialect} `$schema` (the schema means the same in 2020-12)",
                        (Op("remove", diag.pointer),), True)
        return None
    prefix = holder.get("prefixItems")
    if key == "items" and holder["items"] is False and isinstance(prefix, list):
        bound = holder.get("maxItems")
        ops = [Op("remove", diag.pointer)]
        if not (isinstance(bound, int) and not isinstance(bound, bool) and bound <= len(prefix)):
            ops.append(Op("replace" if "maxItems" in holder else "add", join(where, "maxItems"), len(prefix)))
        return Edit(f'replace `items: false` by "maxItems": {len(prefix)}', tuple(ops), True)
    return None


_DIALECT_KEYWORDS = frozenset(("additionalItems", "dependencies", "$recursiveRef", "$recursiveAnchor"))
"""Keywords of draft-06/07 or 2019-09 that 2020-12 dropped or renamed (Core 2020-12 release notes:
``items`` arrays became ``prefixItems``, ``additionalItems`` became ``items``, ``dependencies`` was
split, ``$recursiveRef`` became ``$dynamicRef``)."""


def _reads_otherwise(schema: Any, depth: int = 0) -> bool:
    """Whether ``schema`` may validate differently under 2020-12 than under draft-06/07 or 2019-09:
    an ``items`` array (a tuple), a keyword of :data:`_DIALECT_KEYWORDS`, a ``$ref`` with siblings
    (draft-07 ignores them, 2020-12 applies them), an ``$id`` with a fragment (an anchor in
    draft-07, ``$anchor`` in 2020-12), or nesting too deep to look through. A property named like
    one of these counts too: the answer errs on the side of no fix."""
    if depth > 64:
        return True
    if isinstance(schema, list):
        return any(_reads_otherwise(x, depth + 1) for x in schema)
    if not isinstance(schema, dict):
        return False
    if isinstance(schema.get("items"), list) or _DIALECT_KEYWORDS & schema.keys():
        return True
    if "$ref" in schema and set(schema) - {"$ref", "$schema"}:
        return True
    if isinstance(schema.get("$id"), str) and "#" in schema["$id"].rstrip("#"):
        return True
    return any(_reads_otherwise(v, depth + 1) for k, v in schema.items() if k not in ("enum", "const", "default",
                                                                                        "examples"))


def boolean_hint(diag: Diagnostic, document: Any, fix_ctx: FixContext) -> Edit | None:
    """SL333: an annotation hint written as the string ``"true"`` or ``"false"`` (any case) rewritten
    as that boolean (safe: hints constrain no call, and the string's meaning is not in doubt; a
    client that parses ``tools/list`` with the specification's schema no longer refuses the list).
    Any other value, and contradicting hints: no fix (which is true is the author's to say)."""
    value = resolve(document, diag.pointer)
    if not isinstance(value, str) or value.strip().lower() not in ("true", "false"):
        return None
    flag = value.strip().lower() == "true"
    return Edit(f"write {json_literal(flag)} instead of the string {value!r}", (Op("replace", diag.pointer, flag),),
                True)


def json_literal(value: Any) -> str:
    """``value`` as JSON text (``true``, ``10``, ``"asc"``)."""
    import json

    return json.dumps(value, ensure_ascii=False)
