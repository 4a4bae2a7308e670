"""JSON Schema dialects: which metaschema a schema is written against, and validators for it.

A schema names its dialect with ``$schema`` at its root (JSON Schema Core 2020-12
section 8.1.1; draft-07 core section 7). schemalint knows draft-04, draft-06,
draft-07, 2019-09 and 2020-12; a schema without ``$schema`` is read in its format's default
dialect (:func:`default_dialect`): JSON Schema 2020-12 for MCP tools (the MCP default since the
2025-11-25 revision, SEP-1613: "When a schema does not include a ``$schema`` field, it defaults to
JSON Schema 2020-12"), draft-07 for every other format (the dialect most tool SDKs emit);
``--dialect`` overrides both. A ``$schema`` is compared with the meta-schemas' own ids
(:data:`META_SCHEMA_IDS`): a loose spelling of one (``http://json-schema.org/draft-07/schema``
without ``#``, ``https://`` for a draft that has an ``http://`` id) still selects that dialect, and
:attr:`DialectChoice.exact` says whether it was the id itself.

Metaschemas come from the ``jsonschema-specifications`` package (bundled, offline).
Two validators are offered per dialect, both built once and cached:

- :func:`fast_validator` (``jsonschema_rs``, Rust): used for every schema; a valid
  schema costs a fraction of a millisecond.
- :func:`python_validator` (``jsonschema`` + ``referencing``): slower, kept for
  callers that want ``jsonschema``'s error objects. Its registry holds only the
  bundled metaschemas and it has no retrieve hook, so nothing is ever fetched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from math import isfinite
from typing import Any

DEFAULT_DIALECT = "draft-07"
"""The dialect of a schema without ``$schema``, in every format but MCP's (:func:`default_dialect`)."""

MCP_DIALECT = "2020-12"
"""The dialect of an MCP tool's schema without ``$schema`` (MCP 2025-11-25 and 2026-07-28,
basic/index.mdx "JSON Schema Usage"; provider-facts row ``mcp.default-dialect``)."""


def default_dialect(fmt: str | None) -> str:
    """The dialect of a schema without ``$schema`` in a tool of format ``fmt`` (``Origin.format``):
    :data:`MCP_DIALECT` for MCP tools (:data:`schemalint.targets.MCP_FORMATS`), else
    :data:`DEFAULT_DIALECT`."""
    formats = _MCP_FORMATS
    if formats is None:
        formats = _mcp_formats()
    return MCP_DIALECT if fmt in formats else DEFAULT_DIALECT


_MCP_FORMATS: frozenset[str] | None = None
""":data:`schemalint.targets.MCP_FORMATS`, imported on the first :func:`default_dialect` (an import
statement inside it cost a module lookup per schema checked)."""


def _mcp_formats() -> frozenset[str]:
    global _MCP_FORMATS
    from schemalint.targets import MCP_FORMATS

    _MCP_FORMATS = MCP_FORMATS
    return MCP_FORMATS


META_SCHEMA_IDS: dict[str, str] = {
    "draft-04": "http://json-schema.org/draft-04/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}
"""Dialect name -> the ``$id`` (``id`` for draft-04) its meta-schema declares: the value a validator
looks a ``$schema`` up by. An empty fragment (a trailing ``#``) on the 2019-09 and 2020-12 ids is the
same URI and counts as exact; the drafts up to 07 declare their ids with the ``#``."""

DIALECTS: dict[str, str] = {
    "draft-04": "http://json-schema.org/draft-04/schema",
    "draft-06": "http://json-schema.org/draft-06/schema",
    "draft-07": "http://json-schema.org/draft-07/schema",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}
"""Dialect name -> canonical metaschema URI (without the trailing ``#``)."""

_ALIASES = {
    "4": "draft-04", "draft4": "draft-04", "draft-4": "draft-04", "draft-04": "draft-04",
    "6": "draft-06", "draft6": "draft-06", "draft-6": "draft-06", "draft-06": "draft-06",
    "7": "draft-07", "draft7": "draft-07", "draft-7": "draft-07", "draft-07": "draft-07",
    "2019-09": "2019-09", "draft2019-09": "2019-09", "draft-2019-09": "2019-09",
    "2020-12": "2020-12", "draft2020-12": "2020-12", "draft-2020-12": "2020-12",
}


def _uri_key(uri: str) -> str:
    """Compare metaschema URIs loosely: scheme, trailing ``#`` and ``.json`` do not matter."""
    key = uri.strip().rstrip("#").lower()
    for prefix in ("https://", "http://"):
        if key.startswith(prefix):
            key = key[len(prefix):]
    return key.removesuffix(".json").rstrip("/")


_BY_URI = {_uri_key(uri): name for name, uri in DIALECTS.items()}


def normalize_dialect(text: str) -> str | None:
    """The dialect named by ``text`` (``draft-07``, ``draft7``, ``7``, ``2020-12`` or a
    metaschema URI), or ``None`` when it names none of the known dialects."""
    key = text.strip().lower()
    if key in _ALIASES:
        return _ALIASES[key]
    return _BY_URI.get(_uri_key(text))


@dataclass(frozen=True)
class DialectChoice:
    """The dialect a schema is checked against and why.

    ``dialect``: a key of :data:`DIALECTS`. ``declared``: the root's ``$schema`` value
    when it is a string, else ``None``. ``unknown``: True when ``$schema`` names no
    known dialect (the default was used instead). ``exact``: see the attribute.
    """

    dialect: str
    declared: str | None = None
    unknown: bool = False
    exact: bool = True
    """False when ``declared`` selects a dialect by a loose spelling of its meta-schema id (no ``#``,
    another scheme, ``.json``): validators that look ids up exactly do not know it, and some fetch it."""


def dialect_of(schema: Any, override: str | None = None, default: str = DEFAULT_DIALECT) -> DialectChoice:
    """Choose the dialect of ``schema`` (any JSON value).

    ``override`` (``--dialect``) wins when it names a known dialect; otherwise the
    root's ``$schema`` decides, and ``default`` (a key of :data:`DIALECTS`; the tool format's
    :func:`default_dialect`) applies when it is absent. Never raises: an unknown ``$schema`` or
    override gives ``unknown=True`` and the default dialect.
    """
    declared = schema.get("$schema") if type(schema) is dict or isinstance(schema, Mapping) else None
    declared = declared if isinstance(declared, str) else None
    if declared is not None and type(declared) is not str:
        return _choose(declared, override, default)  # a subclass of str (YamlBinary ...): not kept
    key = (declared, override, default)
    found = _CHOICES.get(key)
    if found is None:
        found = _choose(declared, override, default)
        if len(_CHOICES) >= _CHOICES_KEPT:
            _CHOICES.clear()
        _CHOICES[key] = found
    return found


_CHOICES: dict[tuple[str | None, str | None, str], DialectChoice] = {}
""":func:`dialect_of`'s answers by (declared ``$schema``, override, default): a choice depends on these
strings alone and is frozen, so one instance serves every schema that declares the same."""
_CHOICES_KEPT = 1024


def _choose(declared: str | None, override: str | None, default: str) -> DialectChoice:
    """:func:`dialect_of` for the root's ``$schema`` string ``declared`` (``None``: absent or not a string)."""
    if override:
        chosen = normalize_dialect(override)
        if chosen is not None:
            return DialectChoice(chosen, declared)
    if declared is None:
        return DialectChoice(default)
    chosen = _BY_URI.get(_uri_key(declared))
    if chosen is None:
        return DialectChoice(default, declared, unknown=True)
    return DialectChoice(chosen, declared, exact=is_meta_schema_id(declared))


def is_meta_schema_id(uri: str) -> bool:
    """True when ``uri`` is a known meta-schema's own id (:data:`META_SCHEMA_IDS`; a trailing ``#``
    allowed on the 2019-09 and 2020-12 ids)."""
    if uri in _EXACT_IDS:
        return True
    return uri.endswith("#") and uri[:-1] in _EXACT_IDS and not uri[:-1].startswith("http://json-schema.org/")


_EXACT_IDS = frozenset(META_SCHEMA_IDS.values())


_SPEC_DIRS = {"draft-04": "draft4", "draft-06": "draft6", "draft-07": "draft7", "2019-09": "draft201909",
              "2020-12": "draft202012"}


@cache
def metaschema(dialect: str) -> Mapping[str, Any]:
    """The bundled metaschema document of ``dialect`` (a key of :data:`DIALECTS`).

    Read straight from the ``jsonschema_specifications`` package data when it is laid out
    as usual (importing that package builds a ``referencing`` registry of every bundled
    schema, which costs start-up time); else from its registry. Raises ``KeyError`` for an
    unknown dialect.
    """
    uri = DIALECTS[dialect]
    try:
        import importlib.util
        import json
        import os

        spec = importlib.util.find_spec("jsonschema_specifications")
        locations = list(spec.submodule_search_locations or []) if spec is not None else []
        path = os.path.join(locations[0], "schemas", _SPEC_DIRS[dialect], "metaschema.json")
        with open(path, encoding="utf-8") as fh:
            document = json.load(fh)
        if isinstance(document, dict) and str(document.get("$id", document.get("id", ""))).rstrip("#") == uri:
            return document
    except (OSError, ValueError, IndexError, ImportError):
        pass
    from jsonschema_specifications import REGISTRY

    return REGISTRY.contents(uri)


@cache
def fast_validator(dialect: str) -> Any:
    """A cached ``jsonschema_rs`` validator of ``dialect``'s metaschema.

    Its ``is_valid(schema)`` and ``iter_errors(schema)`` check a schema (as an
    instance) against the metaschema. Raises ``KeyError`` for an unknown dialect.
    Callers must bound the nesting depth of what they pass (a native stack overflow kills
    the process): SL001 skips schemas deeper than ``_index.MAX_DEPTH`` keywords.
    """
    import jsonschema_rs

    return jsonschema_rs.validator_for(dict(metaschema(dialect)))


@cache
def python_validator(dialect: str) -> Any:
    """A cached ``jsonschema`` validator of ``dialect``'s metaschema, offline.

    The ``referencing`` registry holds only the bundled metaschemas; a reference to
    anything else raises ``referencing.exceptions.Unresolvable`` instead of fetching.
    """
    import jsonschema
    from jsonschema_specifications import REGISTRY

    meta = metaschema(dialect)
    cls = jsonschema.validators.validator_for(meta)
    return cls(meta, registry=REGISTRY)


_NUMBER_KEYWORDS = frozenset({"maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"})
_COUNT_KEYWORDS = frozenset({"maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"})
_TEXT_KEYWORDS = frozenset({"$comment", "title", "description", "format", "contentMediaType", "contentEncoding"})
_SCHEMA_KEYWORDS = frozenset({"additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then",
                              "else", "not"})
_SCHEMA_MAPS = frozenset({"definitions", "properties"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf"})
_FREE_KEYWORDS = frozenset({"default", "const"})
_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
_FORMAT_CHECKED = frozenset({"$id", "$schema", "$ref", "pattern", "patternProperties"})
"""draft-07 keywords whose values the metaschema checks with a ``format`` (uri, regex ...)."""


_NEWER_KEYWORDS = frozenset({"$defs", "prefixItems", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
                             "$recursiveAnchor", "$vocabulary", "unevaluatedProperties", "unevaluatedItems",
                             "dependentRequired", "dependentSchemas", "minContains", "maxContains", "deprecated",
                             "writeOnly", "contentSchema"})
"""Keywords the 2019-09/2020-12 meta-schemas constrain and the draft-07 one does not name."""


def plainly_valid(schema: Any, dialect: str) -> bool:
    """True when ``schema`` is certainly valid against ``dialect``'s metaschema, decided in Python
    (:func:`plainly_valid_draft07`), for draft-07 and 2020-12: a schema that passes the draft-07 test
    and uses none of the keywords only the newer metaschemas constrain (``$defs``, ``prefixItems``,
    ``$anchor`` ...) is valid 2020-12 too, since every draft-07 keyword it checks has the same value
    type there and the array form of ``items`` is left undecided. False: not decided here."""
    if dialect == "draft-07":
        return plainly_valid_draft07(schema)
    if dialect == "2020-12":
        return plainly_valid_draft07(schema, _NEWER_KEYWORDS)
    return False


def plainly_valid_draft07(schema: Any, undecided: frozenset[str] = frozenset()) -> bool:  # noqa: C901  (one loop on the hot path, kept flat)
    """True when ``schema`` is certainly valid against the draft-07 metaschema, decided in Python
    without the native validator (whose import and set-up are most of the start-up of a ``check``
    of one small file): every object subschema's draft-07 keywords have values of the types the
    metaschema requires (``type`` one of the seven names or a non-empty list of distinct ones,
    ``required`` distinct strings, counts non-negative integers, numbers finite and not booleans, subschemas
    objects or booleans, ``enum``/``examples`` lists). Keywords the draft-07 metaschema does not name
    are unconstrained. False means "not decided here" (the native validator decides): any value of
    another type, ``dependencies``, ``items`` as a list, ``multipleOf``, and the keywords checked
    with a format (``$id``, ``$schema``, ``$ref``, ``pattern``, ``patternProperties``).
    Source: the draft-07 metaschema (json-schema.org/draft-07/schema). Never raises; bounded by
    the caller's depth check (SL001 indexes the schema first). ``undecided``: further keywords whose
    presence anywhere leaves the decision to the native validator (:func:`plainly_valid`)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if node is True or node is False:
            continue
        if type(node) is not dict:
            return False
        if undecided and not undecided.isdisjoint(node):
            return False
        for key, value in node.items():
            if key in _TEXT_KEYWORDS:
                if type(value) is not str:
                    return False
            elif key in _SCHEMA_MAPS:
                if type(value) is not dict:
                    return False
                stack.extend(value.values())
            elif key == "type":
                if type(value) is str:
                    if value not in _SIMPLE_TYPES:
                        return False
                elif (type(value) is not list or not value or any(type(v) is not str or v not in _SIMPLE_TYPES
                                                                  for v in value) or len(set(value)) != len(value)):
                    return False
            elif key == "required":
                if (type(value) is not list or any(type(v) is not str for v in value)
                        or len(set(value)) != len(value)):
                    return False
            elif key in _SCHEMA_KEYWORDS or key == "items":
                stack.append(value)
            elif key in _SCHEMA_LISTS:
                if type(value) is not list or not value:
                    return False
                stack.extend(value)
            elif key in _COUNT_KEYWORDS:
                if type(value) is not int or value < 0:
                    return False
            elif key in _NUMBER_KEYWORDS:
                # NaN and the infinities are no JSON numbers: the native validator reads them as null
                if type(value) is not int and (type(value) is not float or not isfinite(value)):
                    return False
            elif key in ("enum", "examples"):
                if type(value) is not list:
                    return False
            elif key in ("readOnly", "uniqueItems"):
                if type(value) is not bool:
                    return False
            elif key in _UNDECIDED:  # format-checked, or not worth deciding here
                return False
    return True


_DRAFT07_NAMED = frozenset({"$id", "$schema", "$ref", "$comment", "title", "description", "default", "readOnly",
                            "examples", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
                            "maxLength", "minLength", "pattern", "additionalItems", "items", "maxItems", "minItems",
                            "uniqueItems", "contains", "maxProperties", "minProperties", "required",
                            "additionalProperties", "definitions", "properties", "patternProperties", "dependencies",
                            "propertyNames", "const", "enum", "type", "format", "contentMediaType", "contentEncoding",
                            "if", "then", "else", "allOf", "anyOf", "oneOf", "not"})
"""Every keyword the draft-07 metaschema's ``properties`` names."""
_UNDECIDED = _DRAFT07_NAMED - _TEXT_KEYWORDS - _SCHEMA_MAPS - _SCHEMA_KEYWORDS - _SCHEMA_LISTS - _COUNT_KEYWORDS \
    - _NUMBER_KEYWORDS - _FREE_KEYWORDS - {"type", "required", "items", "enum", "examples", "readOnly", "uniqueItems"}
"""The draft-07 keywords :func:`plainly_valid_draft07` leaves to the native validator."""
