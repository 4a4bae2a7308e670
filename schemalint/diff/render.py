"""Canonical rendering of what a model is shown for one tool (snapshots and byte compare).

Decisions (docs/diff.md, "Rendering"):

* The rendered value is the tool definition exactly as found in the source
  (:attr:`Tool.raw`): name, description, the advertised input schema, and for MCP the
  ``annotations``/``title``/``outputSchema``. The description and annotations are part of
  the prompt, so a snapshot of the schema alone would miss an edited description. Keys that
  only a contract manifest has and the model never sees (``runtime``,
  ``refused_when_omitted``) are left out, and so is a top-level ``x-schemalint`` (schemalint's
  own notes on a Python source, :data:`SCHEMALINT_KEY`). A tool without ``raw`` is rendered as
  ``{"name", "description", "parameters"}``.
* Key order is the order of the source (it is part of what the model sees).
* ``json.dumps(indent=2, ensure_ascii=False)`` plus a trailing newline, UTF-8. Non-ASCII
  text stays readable in review; a string that cannot be encoded as UTF-8 (a lone
  surrogate) makes that one tool fall back to ``ensure_ascii=True``.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Mapping
from typing import Any

from schemalint.model import Tool
from schemalint.schema.index import nesting_depth as nesting_depth  # re-exported for callers

MANIFEST_ONLY_KEYS = frozenset({"runtime", "refused_when_omitted"})
"""Manifest keys that describe the runtime and are never shown to the model."""

SCHEMALINT_KEY = "x-schemalint"
"""schemalint's own notes on a Python source (kind, load notes; older versions also wrote
``defined_at``, a line number): never rendered or compared, so a snapshot does not move with
line numbers, and a snapshot written with the key still reads as the same tool
(:func:`same_snapshot_text`)."""

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.\-]*$")


def shown_definition(tool: Tool) -> Any:
    """The tool definition as the model is shown it (source key order kept).

    Returns a JSON-ready value; never raises.
    """
    raw = tool.raw
    if isinstance(raw, Mapping):
        if tool.origin.format == "manifest":
            return {k: v for k, v in raw.items() if k not in MANIFEST_ONLY_KEYS and k != SCHEMALINT_KEY}
        if SCHEMALINT_KEY in raw:
            return {k: v for k, v in raw.items() if k != SCHEMALINT_KEY}
        return dict(raw)
    out: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        out["description"] = tool.description
    out["parameters"] = tool.advertised
    return out


def _shown_to_read(tool: Tool) -> Any:
    """:func:`shown_definition`, without copying a plain ``dict`` that is shown as it is: for the
    encoders, which only read it (a copy per tool cost more than the comparison it serves)."""
    raw = tool.raw
    if type(raw) is dict and tool.origin.format != "manifest" and SCHEMALINT_KEY not in raw:
        return raw
    return shown_definition(tool)


SCHEMA_KEYS = ("inputSchema", "parameters", "input_schema", "parametersJsonSchema", "params_json_schema")
"""Keys a rendered definition holds its input schema under, tried in this order when the loader
did not record where (:func:`rendered_schema_path`)."""


def rendered_schema_path(tool: Tool) -> str | None:
    """JSON pointer of the input schema inside :func:`shown_definition` (``"/inputSchema"``,
    ``"/function/parameters"``, ``"/parameters"`` for a tool without ``raw``), or ``None`` when the
    rendering holds none. Never raises.

    Every diff pointer is relative to the rendered definition, whatever the source: a loader
    that reads a live MCP server, a Python object or a TypeScript module records no
    ``schema_path`` (its tool has no file), yet its rendering holds the schema under the same key
    as a snapshot of it, so both sides of a diff compare the same shape.
    """
    raw = tool.raw
    if not isinstance(raw, Mapping):
        return "/parameters"
    if tool.schema_path:
        return tool.schema_path
    advertised = tool.advertised
    if advertised is raw:
        return ""
    shown = shown_definition(tool)
    scopes: list[tuple[str, Mapping[str, Any]]] = [("", shown)]
    for key in ("function",):  # a wrapped definition ({"type": "function", "function": {...}})
        inner = shown.get(key)
        if isinstance(inner, Mapping):
            scopes.append((f"/{key}", inner))
    if isinstance(advertised, Mapping | list):
        for at, scope in scopes:
            for key, value in scope.items():
                if value is advertised:
                    return f"{at}/{_escape(key)}"
    for at, scope in scopes:
        for key in SCHEMA_KEYS:
            if key in scope and scope[key] == advertised:
                return f"{at}/{key}"
    return tool.schema_path


def rendered_fields_at(tool: Tool) -> str:
    """Pointer, inside :func:`shown_definition`, of the object holding the tool's own fields
    (name, description, schema): the parent of :func:`rendered_schema_path` when the schema is
    found, else :attr:`Tool.fields_at`."""
    path = rendered_schema_path(tool)
    if path:
        return path.rsplit("/", 1)[0]
    return tool.fields_at


def rendered_fields(tool: Tool) -> Mapping[str, Any]:
    """The object at :func:`rendered_fields_at` in :func:`shown_definition` (``{}`` when absent)."""
    node: Any = shown_definition(tool)
    at = rendered_fields_at(tool)
    for token in at.split("/")[1:] if at else ():
        node = node.get(token.replace("~1", "/").replace("~0", "~")) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def render_value(value: Any) -> str:
    """``value`` as canonical JSON text: indent 2, source key order, trailing newline.

    Falls back to ``ensure_ascii=True`` when the text cannot be encoded as UTF-8. The text
    is that of ``json.dumps(indent=2, ensure_ascii=False, default=str)``, written by orjson
    when it would write the same bytes (:func:`_render_fast`).
    """
    fast = _render_fast(value)
    if fast is not None:
        return fast
    return _render_json(value)


def _render_json(value: Any) -> str:
    """The documented rendering of ``value`` written by the standard library (the slow path)."""
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, indent=2, ensure_ascii=True, default=str) + "\n"
    return text


_PLAIN = frozenset({dict, list, str, int, bool, type(None)})


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only dicts, lists, strings, integers, booleans and ``None``
    (exact types, no subclasses; the values of dicts and the items of lists, not the keys).

    Walked one level at a time with :func:`gc.get_referents`, which lists what the dicts and
    lists of a level hold (their items; a dict's keys too when they are not all strings) and
    nothing for a string or a number: the nodes of a level are typed and collected in C.
    Called only on what orjson could encode, so on nothing nested deeper than 254 levels.
    """
    level = [value]
    while level:
        if not _PLAIN.issuperset(map(type, level)):
            return False
        level = gc.get_referents(*level)
    return True


def _render_fast(value: Any) -> str | None:
    """The rendering of ``value`` written by orjson, or ``None`` when it might differ from
    ``json.dumps(indent=2, ensure_ascii=False, default=str)``.

    orjson's ``OPT_INDENT_2`` lays out objects and arrays (empty ones too) and escapes
    strings as the standard library does with ``ensure_ascii=False``; it refuses what it
    cannot write the same way (non-string keys, integers beyond 64 bits, lone surrogates,
    types the standard library passes to ``default``). Values of other types (floats, whose
    exponent orjson spells differently; NaN, which it writes as null; enums; subclasses) are
    accepted only when the compact texts of both encoders are equal, token for token.
    """
    import orjson

    try:
        out = orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        if not _plain(value):
            compact = json.dumps(value, ensure_ascii=False, default=str, separators=(",", ":"))
            if orjson.dumps(value) != compact.encode("utf-8"):
                return None
    except (TypeError, ValueError, UnicodeEncodeError):  # orjson.JSONEncodeError is a TypeError
        return None
    return out.decode("utf-8")


MAX_RENDER_DEPTH = 1_000
"""Deepest definition rendered: the indented text grows with the square of the depth (20,000
nested properties would be gigabytes), so deeper ones raise :class:`TooDeep`."""


class TooDeep(ValueError):
    """A definition nested deeper than :data:`MAX_RENDER_DEPTH` (its snapshot is refused)."""


class NotJson(ValueError):
    """A definition holding a value JSON cannot hold (NaN, an infinity, bytes, a set:
    :func:`~schemalint.schema.nonjson.non_json_values`): its snapshot is refused."""


def too_deep(tool: Tool) -> bool:
    """Whether the definition of ``tool`` nests deeper than :data:`MAX_RENDER_DEPTH`. What orjson
    can encode nests at most 254 levels: the depth is walked only when it cannot."""
    import orjson

    value = _shown_to_read(tool)
    try:
        orjson.dumps(value)
    except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError: too deep, or not JSON
        return nesting_depth(value, MAX_RENDER_DEPTH) > MAX_RENDER_DEPTH
    return False


def render(tool: Tool) -> str:
    """The canonical rendering of ``tool`` (the bytes a snapshot file holds, decoded).

    Raises :class:`TooDeep` for a definition nested deeper than :data:`MAX_RENDER_DEPTH` and
    :class:`NotJson` for one holding a value JSON cannot hold (never written as ``NaN``,
    ``Infinity`` or Python text).
    """
    value = _shown_to_read(tool)
    try:
        fast = _render_fast(value)
    except RecursionError:  # the standard library's compact encoding, called with little stack left
        fast = None
    if fast is not None:  # written by orjson, which refuses to nest deeper than 254 levels
        return fast
    # orjson refuses bytes and sets, and its null for NaN differs from the standard library's NaN:
    # what JSON cannot hold never takes the fast path
    from schemalint.schema.nonjson import non_json_values, why_not_json

    found = non_json_values(value, 1)
    if found:
        pointer, what = found[0]
        raise NotJson(f"tool {tool.name!r} ({tool.origin.file}): {what} at {tool.origin.pointer + pointer or '/'} "
                      f"is not a JSON value ({why_not_json(what)}), so it is not "
                      "snapshotted; `schemalint check` reports it as SL001 invalid-schema")
    depth = nesting_depth(value, MAX_RENDER_DEPTH)
    if depth > MAX_RENDER_DEPTH:
        raise TooDeep(f"tool {tool.name!r} ({tool.origin.file}): its definition nests more than "
                      f"{MAX_RENDER_DEPTH:,} levels deep; its indented rendering would grow with the square "
                      "of the depth, so it is not snapshotted")
    try:
        return _render_json(value)
    except RecursionError:  # a schema nested thousands deep: the encoders recurse per level
        return _deep(lambda: _render_json(value))


def _deep(fn: Any) -> Any:
    """``fn()`` on the big stack the loaders parse deep documents on (they read what nests up to
    :data:`~schemalint.loaders.files.documents.MAX_NESTING` levels, so rendering it must not fail)."""
    from schemalint.loaders.files.documents import _with_big_stack

    return _with_big_stack(fn)


def same_rendering(old: Tool, new: Tool) -> bool:
    """True when ``render(old) == render(new)``, decided with the C JSON encoder.

    :func:`render_value` uses indentation, which only the pure-Python encoder does (slow on
    thousands of tools); the compact encoding made by the same ``json`` rules (same floats,
    NaN, key conversion, ``default=str``) differs from it only in whitespace outside strings,
    so two compact texts are equal exactly when the renderings are. Two tools found in the
    same parsed definition (:class:`~schemalint.commands.diff_sources.ParsedFiles`) are equal at once.
    """
    if old.raw is new.raw and isinstance(old.raw, Mapping) and old.origin.format == new.origin.format:
        return True  # one parsed definition (a file identical on both sides, parsed once)
    try:
        return _same_rendering(old, new)
    except RecursionError:
        return bool(_deep(lambda: _same_rendering(old, new)))


def _same_rendering(old: Tool, new: Tool) -> bool:
    a, b = _shown_to_read(old), _shown_to_read(new)
    import orjson

    try:
        fast_a, fast_b = orjson.dumps(a), orjson.dumps(b)
    except (TypeError, orjson.JSONEncodeError):  # non-JSON types, non-str keys, huge ints
        pass
    else:
        # orjson spells floats its own way but one-to-one, so different texts mean different
        # renderings; equal texts do too unless a NaN/Infinity (which orjson writes as null) hides.
        # A null value follows ":", "," or "[" in compact JSON (or is the whole text); a string
        # holding such text only costs the slower comparison.
        if fast_a != fast_b:
            return False
        if not (b":null" in fast_a or b",null" in fast_a or b"[null" in fast_a or fast_a.startswith(b"null")):
            return True
    return bool(
        json.dumps(a, ensure_ascii=False, default=str, separators=(",", ":"))
        == json.dumps(b, ensure_ascii=False, default=str, separators=(",", ":"))
    )


def same_snapshot_text(old: str, new: str) -> bool:
    """Whether the snapshot text ``old`` is the rendering ``new`` once a top-level
    :data:`SCHEMALINT_KEY` that an older schemalint wrote (with a ``defined_at`` line number)
    is left out: such a snapshot is up to date, not stale. Never raises."""
    if old == new:
        return True
    if f'"{SCHEMALINT_KEY}"' not in old:
        return False
    try:
        value = json.loads(old)
    except ValueError:
        return False
    if not isinstance(value, dict) or SCHEMALINT_KEY not in value:
        return False
    value.pop(SCHEMALINT_KEY)
    try:
        return render_value(value) == new
    except (ValueError, TypeError, RecursionError):
        return False


def snapshot_filename(name: str) -> str:
    """File name of the snapshot of tool ``name``: ``<name>.json``.

    Names made of letters, digits, ``_``, ``-`` and ``.`` (not starting with ``.`` or
    ``-``) are used as they are; any other character is percent-encoded (``/`` ->
    ``%2F``), and an empty name becomes ``%00.json``, so every tool name maps to one
    distinct, safe file name.
    """
    if _SAFE_NAME.match(name):
        return name + ".json"
    if not name:
        return "%00.json"
    out = []
    for i, ch in enumerate(name):
        if ch.isascii() and (ch.isalnum() or ch == "_" or (ch in ".-" and i > 0)):
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
    return "".join(out) + ".json"
