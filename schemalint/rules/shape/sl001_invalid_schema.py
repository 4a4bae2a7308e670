"""SL001 invalid-schema: the advertised schema fails its dialect's metaschema.

Every advertised input schema (and an MCP ``outputSchema``) is validated against the
metaschema of its dialect (:mod:`schemalint.schema.dialect`): ``$schema`` decides; when absent,
JSON Schema 2020-12 for MCP tools (MCP 2025-11-25 SEP-1613) and draft-07 for other formats;
``--dialect`` overrides. A ``$schema`` naming no known dialect is a warning here, except for
tools checked as MCP, where SL330 reports it (an error there). Each metaschema error becomes one
diagnostic at the schema pointer of the offending keyword (``/properties/x/type``).

Non-standard type names (``dict``, ``float``, ``any``, ``tuple``, ``String``,
``HashMap`` ... the BFCL/ACEBench/Gorilla dialect, and Python/Java habits) get a
message naming the JSON Schema type to use instead. A value where a schema must be
(``"properties": {"type": "object"}``) is reported as "not a schema".

Performance: the Rust ``jsonschema_rs`` validator of the metaschema (built once per
dialect) decides validity first; only failing schemas are keyed in the run's verdict table and
asked for their located errors.

Source: rules/SL001-invalid-schema.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import schemalint.schema as vocabulary
from schemalint.loaders.files.documents import may_hold_lone_surrogates
from schemalint.model import FILE, RUN, Diagnostic, Severity, Tool, escape_token, split_pointer
from schemalint.rules.base import Context, FileScreen, Rule
from schemalint.rules.shape._common import NONSTANDARD_TYPES, STANDARD_TYPES
from schemalint.schema.dialect import default_dialect, dialect_of, fast_validator, plainly_valid
from schemalint.schema.index import MAX_DEPTH, index_schema, nesting_depth
from schemalint.schema.nonjson import describe, has_null_value, may_hold_non_json, non_json_values

if TYPE_CHECKING:
    from schemalint.rules.facts import CatalogFacts

SURROGATES = FileScreen("lone surrogates", may_hold_lone_surrogates)
"""The file screen of the lone-surrogate test: a file it clears holds no lone surrogate nor an
escape of one in any string (:func:`~schemalint.loaders.files.documents.may_hold_lone_surrogates`)."""

_GEMINI_FORMATS = ("gemini",)
_DIALECT_FILES = "SL001-dialect-files"
"""The key, in the run's per-file memo, of :meth:`InvalidSchema._dialect_files`."""

VALUE_DEPTH_LIMIT = 200
"""Deepest nesting (objects and arrays, counted from the schema's root) whose metaschema errors
are read: the native validator stops converting values at about 255 levels."""


def _value_at(root: Any, tokens: list[Any]) -> tuple[bool, Any]:
    node = root
    for tok in tokens:
        if (isinstance(node, Mapping) and tok in node) or \
                (isinstance(node, list) and isinstance(tok, int) and 0 <= tok < len(node)):
            node = node[tok]
        else:
            return False, None
    return True, node


def _describe(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return (f"{json.dumps(value)}, which is not a JSON number (an encoder writes it as null, or as text "
                "strict JSON parsers refuse)")
    kind = {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            int: "a number", float: "a number", type(None): "null"}.get(type(value), type(value).__name__)
    if isinstance(value, (str, int, float, bool)) or value is None:
        text = json.dumps(value, ensure_ascii=False)
        return f"{kind} {text[:60]}" if kind != "null" else "null"
    return kind


_MAP_KEYWORDS = vocabulary.MAPS
_LIST_KEYWORDS = vocabulary.ARRAYS
_SCHEMA_KEYWORDS = vocabulary.SINGLE


def token_role(tokens: list[Any]) -> tuple[str, str]:
    """What the last token of a schema pointer names, reading the pointer from the root.

    Returns ``("keyword", kw)`` for a keyword of a (sub)schema, ``("entry", map_kw)`` for an
    entry of a schema map such as ``properties``, ``("index", list_kw)`` for a schema in a list
    such as ``anyOf``, ``("data", "")`` inside a keyword's plain value (``enum``, ``default``).
    """
    role: tuple[str, str] = ("keyword", "")
    expect = "schema"  # what the next token names: a keyword of a schema, a map entry, a list index
    parent = ""
    for tok in tokens:
        if expect == "index-or-schema":
            if isinstance(tok, int) or (isinstance(tok, str) and tok.isdigit()):
                role, expect = ("index", parent), "schema"
                continue
            expect = "schema"  # `items` written as one schema: this token is one of its keywords
        if expect == "schema":
            role = ("keyword", str(tok))
            if tok in _MAP_KEYWORDS:
                expect, parent = "entry", str(tok)
            elif tok in _LIST_KEYWORDS:
                expect, parent = "index-or-schema", str(tok)
            elif tok not in _SCHEMA_KEYWORDS:
                expect = "data"
        elif expect == "entry":
            role, expect = ("entry", parent), "schema"
        else:
            role = ("data", "")
    return role


def _is_type_keyword(tokens: list[Any]) -> bool:
    """True when the pointer ends at a schema's ``type`` keyword (not a property named ``type``)."""
    return token_role(tokens) == ("keyword", "type")


def type_hint(name: str) -> str:
    """A hint for the non-standard type ``name``, naming the JSON Schema type to use."""
    target = NONSTANDARD_TYPES.get(name.lower(), "")
    if name.lower() in STANDARD_TYPES:
        return f'type names are lower case in JSON Schema: use "{name.lower()}"'
    if target:
        return f'use "type": "{target}" (JSON Schema has no "{name}")'
    if name == "":
        return ('name the type ("string", "number", "integer", "boolean", "object", "array" or "null"), '
                "or omit `type` to accept any value")
    if target is None:
        return 'omit `type` to accept any value, or list the allowed types, e.g. ["string", "number"]'
    return 'use one of "string", "number", "integer", "boolean", "object", "array", "null"'


class InvalidSchema(Rule):
    """The advertised schema (or MCP ``outputSchema``) is not a valid JSON Schema of its dialect.
    """

    severity = Severity.ERROR
    per_definition = True  # but not in a type-dialect file (shares_definition)
    catalog_from_tools = True  # check_catalog summarises, per file, what check_tool gathered
    file_screen = SURROGATES

    def whole_files(self, tools: Sequence[Tool], facts: CatalogFacts | None) -> Collection[str]:
        """The files the type-dialect summary covers (:func:`schemalint.rules.facts.dialect_files`)."""
        if facts is not None:
            return facts.dialect_files
        from schemalint.rules.facts import dialect_files

        return dialect_files(tools)

    def _dialect_files(self, ctx: Context) -> dict[str, _DialectFile]:
        """Files of ``ctx.catalog`` whose every schema's root is ``"type": "dict"`` (or another
        non-standard spelling of object), with at least two such tools: a dialect, not a slip.
        Kept in the run's memo (``ctx.memo``) until :meth:`check_catalog` reports them."""
        files: dict[str, _DialectFile] | None = ctx.run.file_memo.get(_DIALECT_FILES)  # asked twice per tool
        if files is None:
            files = ctx.memo(_DIALECT_FILES, lambda: self._find_dialect_files(ctx), FILE)
        return files

    @staticmethod
    def _find_dialect_files(ctx: Context) -> dict[str, _DialectFile]:
        if ctx.facts is not None:  # a streaming check: ctx.catalog is one group, the facts know the files
            counts = ctx.facts.dialect_files
            return {f: _DialectFile(counts[f]) for f in dict.fromkeys(t.origin.file for t in ctx.catalog)
                    if f in counts}
        per_file: dict[str, list[bool]] = {}
        for t in ctx.catalog:
            if isinstance(t.advertised, Mapping):
                root_type = t.advertised.get("type")
                per_file.setdefault(t.origin.file, []).append(
                    isinstance(root_type, str) and root_type not in STANDARD_TYPES
                    and NONSTANDARD_TYPES.get(root_type.lower()) == "object")
        return {f: _DialectFile(len(flags)) for f, flags in per_file.items() if len(flags) >= 2 and all(flags)}

    def shares_definition(self, tool: Tool, ctx: Context) -> bool:
        """Not for a tool of a file written in a type dialect: its findings go to the file's summary."""
        return tool.origin.file not in self._dialect_files(ctx)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        yield from self._check(tool, tool.advertised, ctx, tool.schema_pointer)
        if tool.output_schema is not None:
            yield from self._check(tool, tool.output_schema, ctx, tool.origin.pointer + "/outputSchema")

    def _check(self, tool: Tool, schema: Any, ctx: Context, base: str) -> Iterator[Diagnostic]:
        # A root that is not an object at all is SL002's finding.
        if not isinstance(schema, Mapping):
            return
        choice = dialect_of(schema, ctx.dialect, default_dialect(tool.origin.format))
        if choice.unknown and "mcp" not in ctx.targets_for(tool):  # an MCP tool's: SL330
            yield self.diag(
                tool, None,
                f"`$schema` is {choice.declared!r}, which names no JSON Schema dialect schemalint knows; "
                f"the schema was checked as {choice.dialect}",
                hint="use a json-schema.org metaschema URI, e.g. http://json-schema.org/draft-07/schema#, "
                     "or pass --dialect",
                severity=Severity.WARNING, file_pointer=base + "/$schema",
            )
        index = index_schema(schema)
        if index.truncated:
            yield self.diag(
                tool, None,
                "the schema is " + (f"nested more than {MAX_DEPTH} keywords deep" if index.too_deep else
                                    "too large to walk") + "; it was not checked against its metaschema",
                hint="flatten the schema (use $defs and $ref for repeated parts)",
                severity=Severity.WARNING, file_pointer=base,
            )
            return
        # a schema read from a file without a surrogate or an escape of one holds none (the engine
        # scans each file's text once: SURROGATES, Context.cleared)
        surrogate = None if ctx.cleared(SURROGATES, tool.origin.file) else _lone_surrogate(schema)
        encoded = _encoded(schema)
        non_json = _non_json(schema, encoded)
        for pointer, what in non_json:
            yield self._non_json(tool, pointer, what, base)
        if surrogate is None and not non_json and "jsonschema_rs" not in sys.modules \
                and plainly_valid(schema, choice.dialect):
            # certainly valid, and the native validator is not loaded yet: a check of a few plain
            # schemas never imports and sets it up (start-up); once loaded it is the faster judge
            return
        validator = fast_validator(choice.dialect)
        if surrogate is not None:
            # jsonschema-rs takes UTF-8 only; the provider's JSON parser may refuse the text too.
            yield self.diag(
                tool, None,
                "the schema holds a lone surrogate (a \\uD800-\\uDFFF escape without its pair), which is "
                "not valid Unicode: strict JSON parsers reject it (RFC 8259 section 8.2); the schema was "
                "checked with it replaced by U+FFFD",
                hint="remove the escape or write the character it was meant to be",
                file_pointer=base + surrogate,
            )
            schema = json.loads(_SURROGATE.sub("\ufffd", json.dumps(schema, ensure_ascii=False, default=str)))
        checked = False  # whether validator.is_valid(schema) already answered False
        if surrogate is None:
            # most schemas are valid: one native call settles them, before the key of the verdict
            # table (an orjson encoding and a search of it) is built; only invalid ones are keyed
            try:
                if validator.is_valid(schema):
                    return
                checked = True
            except (ValueError, TypeError, OverflowError):
                pass  # _validated converts the schema (YAML keys, dates) or reports its depth
        key = _verdict_key(encoded, tool, choice.dialect) if surrogate is None else None
        verdicts: list[Any] = ctx.run.table("SL001-verdicts", _new_verdicts, RUN)
        result: tuple[Any, ...] | None = verdicts[1].get(key) if key is not None else None
        if result is None:
            result = _validated(validator, schema, checked)
            if result is None:
                # a keyword's value (`type`, `enum`, `default`...) nests deeper than the native
                # validator converts ("Recursion limit reached"); the walk above counts subschemas only
                yield self.diag(
                    tool, None,
                    f"the schema holds a value nested more than {VALUE_DEPTH_LIMIT} levels deep; it was not "
                    "checked against its metaschema",
                    hint="flatten the value (no provider accepts a schema nested this deep)",
                    severity=Severity.WARNING, file_pointer=base,
                )
                return
            if key is not None:
                if result[1] is None:
                    result = _VALID  # a valid schema's verdict holds no schema
                verdicts[0] += len(key[0])
                if verdicts[0] > _VERDICTS_BYTES:
                    verdicts[0], verdicts[1] = len(key[0]), {}
                verdicts[1][key] = result
        schema, errors = result[0], result[1]
        if errors is None:
            return
        if len(result) > 2:
            reading = result[2]
        else:
            reading = _reading(schema, errors, tool.origin.format in _GEMINI_FORMATS,
                               {pointer for pointer, _ in non_json})  # reported above, naming the value
            if key is not None and verdicts[1].get(key) is result:
                # a keyed schema holds no null value, so no value JSON cannot hold (non_json is
                # empty): its reading is the same for every tool with that key
                verdicts[1][key] = (schema, errors, reading)
        bad_types: list[tuple[str, list[str]]] = []
        for tokens, pointer, names, err in reading:
            if names is not None:
                bad_types.append((pointer, names))
                continue
            yield self._explain(tool, schema, tokens, pointer, err, base, choice.dialect)
        if bad_types:
            dialect_file = self._dialect_files(ctx).get(tool.origin.file) if base == tool.schema_pointer \
                else None
            if dialect_file is None:
                yield self._type_diag(tool, bad_types, base)
            else:  # summarised once per file by check_catalog
                dialect_file.add(tool, base + bad_types[0][0], {n for _, names in bad_types for n in names})

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterator[Diagnostic]:
        """One diagnostic per file written wholly in a non-standard type dialect (BFCL style)."""
        files: dict[str, _DialectFile] | None = ctx.run.file_memo.pop(_DIALECT_FILES, None)
        if files is None:
            return
        for file, info in files.items():
            if info.first is None:
                continue
            tool, where = info.first
            counts = ", ".join(f"{json.dumps(n, ensure_ascii=False)} in {c}"
                               for n, c in info.names.most_common(8))
            yield self.diag(
                tool, None,
                f"all {info.tools} tool schemas of this file are written in a non-standard type dialect "
                f"(the BFCL/ACEBench style, not JSON Schema): {counts} tool(s); {info.affected} tools are "
                f"affected, the first is {tool.name!r}. A provider that validates schemas refuses each of "
                "them, and a model shown them has to guess what the types mean",
                hint="; ".join(f"{json.dumps(n, ensure_ascii=False)}: {type_hint(n)}"
                               for n, _ in info.names.most_common(6))
                + f" (convert {file} before sending its tools to a provider)",
                file_pointer=where,
            )

    def _type_diag(self, tool: Tool, bad_types: list[tuple[str, list[str]]], base: str) -> Diagnostic:
        """One diagnostic for every non-standard type name in one schema, at the first one."""
        first_ptr, first_names = bad_types[0]
        by_name: dict[str, list[str]] = {}
        for ptr, names in bad_types:
            for n in names:
                by_name.setdefault(n, []).append(ptr or "/")
        shown = json.dumps(first_names[0], ensure_ascii=False)
        msg = (f"`type` is {shown}, which is not a JSON Schema type; a provider validating the schema "
               "rejects the tool, and a model reading it has to guess what to send")
        if len(bad_types) > 1 or len(by_name) > 1:
            parts = []
            for n, ptrs in by_name.items():
                more = f" and {len(ptrs) - 3} more" if len(ptrs) > 3 else ""
                parts.append(f"{json.dumps(n, ensure_ascii=False)} at {', '.join(ptrs[:3])}{more}")
            msg += f". Non-standard types in this schema: {'; '.join(parts)}"
        hint = "; ".join(f"{json.dumps(n, ensure_ascii=False)}: {type_hint(n)}" for n in list(by_name)[:6])
        return self.diag(tool, None, msg, hint=hint, file_pointer=base + first_ptr)

    def _non_json(self, tool: Tool, pointer: str, what: str, base: str) -> Diagnostic:
        """The diagnostic for a value JSON cannot hold (:func:`~schemalint.schema.nonjson.non_json_values`)
        at ``pointer`` (relative to the schema at ``base``)."""
        tokens = split_pointer(pointer)
        key = tokens[-1] if tokens else "/"
        if len(tokens) >= 2 and tokens[-1].isdigit():
            key = f"{tokens[-2]}[{tokens[-1]}]"  # an entry of a keyword's array, e.g. enum[1]
        if what.startswith("a key that is "):
            msg = f"`{key}` has {what}, which is not a JSON value: JSON object keys are strings"
            hint = "write the key as a string"
        elif what.startswith("binary data"):
            msg = (f"`{key}` is {what}, which is not a JSON value: JSON has no binary type, so a JSON "
                   "encoder refuses it (Python's json: 'Object of type bytes is not JSON serializable')")
            hint = "write the value as a string (e.g. the base64 text without the !!binary tag)"
        elif what.startswith("a set"):
            msg = f"`{key}` is {what}, which is not a JSON value: JSON has no sets"
            hint = "write the value as a list"
        else:
            msg = (f"`{key}` is {what}, which is not a JSON value: JSON has no NaN or infinities (RFC 8259 "
                   "section 6), so a strict JSON parser refuses the schema, and an encoder writes null or a "
                   "token no JSON parser reads"
                   + ("; a number beyond a 64-bit float's range, such as 1e400, is read as an infinity"
                      if what.endswith("Infinity") else ""))
            hint = "write a finite number, or leave the keyword out (YAML's .nan and .inf are not JSON numbers)"
        return self.diag(tool, None, msg, hint=hint, file_pointer=base + pointer)

    def _explain(self, tool: Tool, schema: Any, tokens: list[Any], pointer: str, err: Any, base: str,
                 dialect: str) -> Diagnostic:
        found, value = _value_at(schema, tokens)
        kind = getattr(err.kind, "name", "")
        where = base + pointer
        key = str(tokens[-1]) if tokens else ""
        if isinstance(tokens[-1] if tokens else None, int) and len(tokens) >= 2:
            key = f"{tokens[-2]}[{tokens[-1]}]"  # an entry of a keyword's array, e.g. required[0]
        if kind == "type" and found and not isinstance(value, (Mapping, bool)) and \
                set(getattr(err.kind, "types", ())) >= {"object", "boolean"}:
            if key == "items" and isinstance(value, list) and dialect == "2020-12":
                why = ("its `$schema`" if isinstance(schema, Mapping) and "$schema" in schema
                       else f"it has no `$schema`, and {dialect} is the default of {tool.origin.format} tools")
                msg = (f"`{pointer}` is an array of schemas: the tuple form of draft-04 to 2019-09 (what zod writes "
                       f"for a tuple when rendering draft-07); this schema is read as {dialect} ({why}), where "
                       "`items` must be one schema and a tuple is `prefixItems`, so a validator of that dialect "
                       "rejects the tool")
                hint = ("write `prefixItems` (with `items: false` to close the tuple), e.g. render with zod 4's "
                        "default target (2020-12), or declare `$schema` draft-07 if that is what is served")
            elif token_role(tokens) == ("entry", "properties"):
                msg = (f"the entry `{key}` under `properties` is {_describe(value)}, not a schema; every "
                       "value under `properties` must be a schema, so providers reject the whole tool")
                hint = (f"if \"{key}\": {json.dumps(value, ensure_ascii=False)} was meant for the enclosing "
                        "schema, move it up one level; otherwise write the property's schema, e.g. "
                        '{"type": "string"}')
            else:
                msg = (f"`{pointer or '/'}` is {_describe(value)} where a schema (an object or true/false) "
                       "must be")
                hint = 'write a schema object, e.g. {"type": "string"}, or true to accept anything'
            return self.diag(tool, None, msg, hint=hint, file_pointer=where)
        if key == "required" and isinstance(value, bool):
            return self.diag(
                tool, None,
                f"`required` is {json.dumps(value)} inside a property schema (the draft-03 style); in "
                f"{dialect} `required` is an array of property names on the enclosing object, so this "
                "property is not required at all",
                hint="remove it here and list the property's name in the parent object's `required` array",
                file_pointer=where,
            )
        if kind == "type":
            wanted = " or ".join(getattr(err.kind, "types", ())) or "another type"
            msg = f"`{key or '/'}` must be {_article(wanted)}, but it is {_describe(value)}"
        else:
            msg = f"`{key or '/'}` is invalid: {err.message}"
        return self.diag(
            tool, None, f"{msg} (fails the {dialect} metaschema at {pointer or '/'})",
            hint=f"see the definition of `{key.split('[')[0] or 'the schema'}` in JSON Schema {dialect}",
            file_pointer=where,
        )


class _DialectFile:
    """Non-standard type names found in one dialect file: tools affected, names, first place."""

    __slots__ = ("affected", "first", "names", "tools")

    def __init__(self, tools: int) -> None:
        self.tools = tools
        self.affected = 0
        self.first: tuple[Tool, str] | None = None
        self.names: Counter[str] = Counter()

    def add(self, tool: Tool, where: str, names: set[str]) -> None:
        self.affected += 1
        self.names.update(sorted(names))  # sorted: ties in most_common() keep a fixed order
        if self.first is None:
            self.first = (tool, where)


_SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate code point: in a decoded ``str`` always a lone one (a pair decodes to one character)."""


def _lone_surrogate(schema: Any) -> str | None:
    """The JSON pointer (relative to ``schema``) of the first key or string value holding a lone
    surrogate, or ``None``; iterative, so a deep schema cannot overflow the stack. A schema orjson
    can encode holds none (it refuses a string with a surrogate): one C call instead of a walk
    over every string, which was the largest own-time function of ``check`` on 10,000 tools."""
    import orjson

    try:
        orjson.dumps(schema, option=orjson.OPT_NON_STR_KEYS)
        return None
    except (TypeError, orjson.JSONEncodeError):
        pass  # a surrogate, or a value orjson does not encode (a YAML date, a huge integer): walk
    stack: list[tuple[str, Any]] = [("", schema)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node):
                return pointer
        elif isinstance(node, Mapping):
            for key, value in reversed(list(node.items())):
                where = pointer + "/" + escape_token(str(key))
                if isinstance(key, str) and _SURROGATE.search(key):
                    return where
                stack.append((where, value))
        elif isinstance(node, list):
            stack.extend((f"{pointer}/{i}", v) for i, v in reversed(list(enumerate(node))))
    return None


_VALID: tuple[Any, None] = (None, None)
_VERDICTS_BYTES = 8 * 1024 * 1024
"""Bytes of encoded schemas whose verdicts a run keeps (then it starts over): an invalid schema's
verdict holds the schema and its errors."""


def _new_verdicts() -> list[Any]:
    """The run's verdict table: [bytes of the keys kept, {:func:`_verdict_key`: (schema checked,
    errors or None, and once read, :func:`_reading`)}]."""
    return [0, {}]


_PARSED_SUFFIXES = (".json", ".snap", ".jsonl", ".ndjson", ".yaml", ".yml")


def _encoded(schema: Any) -> bytes | None:
    """``schema`` encoded by orjson in key order, or ``None`` when orjson does not encode it as it
    stands (bytes, sets, dates, subclasses, non-string keys, integers beyond 64 bits, deep nesting)."""
    import orjson

    try:
        return orjson.dumps(schema, option=orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
                            | orjson.OPT_PASSTHROUGH_DATETIME)
    except Exception:  # orjson.JSONEncodeError (a TypeError)
        return None


def _verdict_key(encoded: bytes | None, tool: Tool, dialect: str) -> tuple[bytes, str, bool] | None:
    """A key equal for two schemas the metaschema check judges alike: the schema's :func:`_encoded`
    bytes, its dialect and whether the tool is Gemini's; ``None`` (judged on its own) for a schema
    not read from a JSON or YAML file (a Python source may hold tuples), one orjson does not encode as
    it stands, and one with a ``null`` value (orjson writes NaN and infinities as ``null`` too)."""
    if encoded is None or not tool.origin.file.lower().endswith(_PARSED_SUFFIXES):
        return None
    if has_null_value(encoded):
        return None
    return encoded, dialect, tool.origin.format in _GEMINI_FORMATS


def _validated(validator: Any, schema: Any, checked: bool = False) -> tuple[Any, list[Any] | None] | None:
    """(the schema checked, its leaf errors, or ``None`` when it is valid) by ``validator``; the schema
    checked is the JSON a provider would receive when the native validator cannot take ``schema``
    as it stands (YAML's non-string keys or dates). ``None`` when a value nests deeper than the
    native validator converts. ``checked``: ``validator.is_valid(schema)`` already answered
    ``False``, so the errors are listed without asking it again."""
    try:
        if not checked and validator.is_valid(schema):
            return schema, None
        return schema, _leaf_errors(validator.iter_errors(schema))
    except (ValueError, TypeError, OverflowError):
        if nesting_depth(schema, VALUE_DEPTH_LIMIT) > VALUE_DEPTH_LIMIT:
            return None
        # e.g. YAML gave non-string keys or dates: check the JSON the provider would receive.
        schema = json.loads(json.dumps(schema, default=_json_default))
        if validator.is_valid(schema):
            return schema, None
        return schema, _leaf_errors(validator.iter_errors(schema))


def _reading(schema: Any, errors: list[Any], gemini: bool, seen: set[str],
             ) -> list[tuple[list[Any], str, list[str] | None, Any]]:
    """What :meth:`InvalidSchema._check` reports of a schema's metaschema ``errors`` (:func:`_leaf_errors`),
    in order: ``(tokens of the error's pointer, that pointer, the non-standard type names there or
    None, the error)``; ``names`` is given for an error at a ``type`` keyword that names non-standard
    types (:func:`_nonstandard_types`), and such an error whose names are all fine for the format is left
    out, as is a second error at one pointer and one at a pointer in ``seen`` (already reported). The
    same for two schemas of one :func:`_verdict_key` whose ``seen`` is empty, so it is kept with
    their verdict."""
    seen = set(seen)
    out: list[tuple[list[Any], str, list[str] | None, Any]] = []
    for err in errors:
        tokens = list(err.instance_path)
        pointer = "".join("/" + escape_token(t) for t in tokens)
        if pointer in seen:
            continue
        seen.add(pointer)
        names = _nonstandard_types(schema, tokens, gemini)
        if names is not None:
            if names:
                out.append((tokens, pointer, names, err))
            continue
        out.append((tokens, pointer, None, err))
    return out


def _non_json(schema: Any, encoded: bytes | None) -> list[tuple[str, str]]:
    """:func:`~schemalint.schema.nonjson.non_json_values` of ``schema``, whose :func:`_encoded` is
    ``encoded``: a schema orjson encoded without a bare ``null`` holds none (:func:`may_hold_non_json`);
    one it encoded holds only plain JSON types (orjson refuses bytes, sets, subclasses, non-string
    keys), so only a NaN or an infinity can be there, and ``json.dumps`` with ``allow_nan=False``
    (in C) proves there is none before the walk in Python."""
    if not may_hold_non_json(encoded):
        return []
    if encoded is not None:
        try:
            json.dumps(schema, allow_nan=False)
            return []
        except Exception:  # ValueError: a NaN or an infinity (or anything else: walk)
            pass
    return non_json_values(schema)


def _json_default(value: Any) -> str:
    """What :func:`_validated` checks in place of a value ``json`` cannot encode: its text, or for
    bytes and sets (reported on their own) their description, never Python's ``b'...'``."""
    return describe(value) or str(value)


def _leaf_errors(errors: Any) -> list[Any]:
    """Replace an ``anyOf``/``oneOf`` error by the errors of its most relevant branch when that
    branch failed deeper inside the schema (``items: {"type": "String"}`` fails the metaschema's
    ``items: anyOf [schema, schema array]``; the useful error is the one at ``items/type``)."""
    out: list[Any] = []
    stack = list(errors)[::-1]
    while stack:
        err = stack.pop()
        context = getattr(err.kind, "context", None) if getattr(err.kind, "name", "") in ("anyOf", "oneOf") \
            else None
        if context:
            depth = len(list(err.instance_path))
            best: list[Any] = []
            deepest = -1
            for b in context:
                if b:
                    branch = list(b)
                    reach = max([len(list(e.instance_path)) for e in branch])
                    if reach > deepest:  # the first of the deepest, as max() chooses
                        best, deepest = branch, reach
            if best and deepest > depth:
                stack.extend(best[::-1])
                continue
        out.append(err)
    return out


def _nonstandard_types(schema: Any, tokens: list[Any], gemini: bool) -> list[str] | None:
    """For an error at a ``type`` keyword: the offending type names (``[]`` when only Gemini's
    upper-case spelling, which is fine for that format). ``None`` for any other error."""
    if not _is_type_keyword(tokens):
        return None
    found, value = _value_at(schema, tokens)
    if not found or not isinstance(value, (str, list)):
        return None
    names = [value] if isinstance(value, str) else value
    bad = [n for n in names if not isinstance(n, str) or n not in STANDARD_TYPES]
    if gemini:  # Gemini `parameters` is OpenAPI: upper-case enum names are its spelling
        bad = [n for n in bad if not (isinstance(n, str) and n.lower() in STANDARD_TYPES)]
    if any(not isinstance(n, str) for n in bad):
        return None  # e.g. a number inside a type list: the generic message says it
    if not bad and isinstance(value, list) and len(set(value)) != len(value):
        return None  # duplicate names: the generic message (uniqueItems) says it
    return bad


def _article(types: str) -> str:
    return ("an " if types[:1] in "aeiou" else "a ") + types
