"""Message shapes of the runtime bridge (see docs/runtime-bridge.md).

A *worker* is a child process that imports untrusted tool code (a Python ``module:attr``
today, a Node module later) and answers requests, one JSON object per line, on its own
stdin/stdout; whatever the imported code prints goes elsewhere. schemalint generates
every candidate call; the worker only says whether the runtime accepts it.

This module holds the pure conversions both ends share: tools to and from their wire form
(the contract-manifest entry of docs/contract-analysis.md plus ``handle``, ``origin``, ``schema_path``,
``output_schema`` and ``raw``), probe outcomes, diagnostics, and :func:`jsonable`, which
makes any Python value JSON (deterministically) and records what it had to change.
Nothing here imports a framework.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from schemalint.model import Contract, Diagnostic, Origin, Severity, Tool, escape_token

PROTOCOL_VERSION = 1
MAX_DEPTH = 200


class NotJson:
    """A placeholder left in a value copied from Python data where JSON cannot follow: ``text``
    is what the wire form carries (the same on every run), ``reason`` what :func:`jsonable`
    records (``"cycle: refers back to /function"``). Made by
    :func:`schemalint.loaders.formats.json_objects.plain_copy`."""

    __slots__ = ("reason", "text")

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason

    def __repr__(self) -> str:
        return self.text


def non_json_text(value: Any) -> str:
    """The stand-in text of a Python object JSON cannot carry: its class, never its memory address
    (``repr`` of a plain object names it, so a snapshot of it would change on every run)."""
    cls = type(value)
    return f"<non-JSON value: {cls.__module__}.{cls.__qualname__}>"


def jsonable(value: Any, problems: list[str] | None = None, pointer: str = "", _depth: int = 0,
             _open: set[int] | None = None) -> Any:
    """``value`` as plain JSON data, the same on every run.

    Mappings become objects (keys as strings), sequences arrays; ``NaN``/``Infinity``
    (not JSON, RFC 8259 section 6) become the strings ``"NaN"``, ``"Infinity"`` and
    ``"-Infinity"``; any other object becomes ``"<non-JSON value: module.Class>"`` (no
    memory address, so two runs agree); a container that holds itself (a cycle) becomes
    ``"<cycle>"``; a :class:`NotJson` placeholder its text. Each replacement appends
    ``"pointer (what)"`` to ``problems``. Nesting deeper than :data:`MAX_DEPTH` levels is cut
    the same way (``"pointer (nested more than 200 levels)"``).
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        text = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
        if problems is not None:
            problems.append(f"{pointer or '(root)'} ({text})")
        return text
    if isinstance(value, NotJson):
        if problems is not None:
            problems.append(f"{pointer or '(root)'} ({value.reason})")
        return value.text
    if _depth > MAX_DEPTH:
        if problems is not None:
            problems.append(f"{pointer or '(root)'} (nested more than {MAX_DEPTH} levels)")
        return "<cut: nested too deeply>"
    if isinstance(value, (Mapping, list, tuple)):
        if _open is None:
            _open = set()
        key_id = id(value)
        if key_id in _open:
            if problems is not None:
                problems.append(f"{pointer or '(root)'} (cycle: holds an object that contains it)")
            return "<cycle>"
        _open.add(key_id)
        try:
            if isinstance(value, Mapping):
                out: dict[str, Any] = {}
                for key, sub in value.items():
                    name = key if isinstance(key, str) else str(jsonable(key))
                    out[name] = jsonable(sub, problems, f"{pointer}/{escape_token(name)}", _depth + 1, _open)
                return out
            return [jsonable(sub, problems, f"{pointer}/{i}", _depth + 1, _open) for i, sub in enumerate(value)]
        finally:
            _open.discard(key_id)
    if problems is not None:
        problems.append(f"{pointer or '(root)'} ({type(value).__qualname__} object)")
    return non_json_text(value)


def tool_to_wire(tool: Tool, handle: str | None, problems: list[str]) -> dict[str, Any]:
    """The wire form of ``tool``: a contract-manifest entry (``name``, ``description``,
    ``advertised``, ``runtime: {input, output}``, ``refused_when_omitted``) plus ``handle``
    (names the runtime validator in ``validate`` requests; ``null`` when there is none),
    ``origin``, ``schema_path``, ``output_schema`` and ``raw``. Values that are not JSON are
    replaced (see :func:`jsonable`) and listed in ``problems``."""
    runtime = tool.runtime
    wire: dict[str, Any] = {
        "handle": handle,
        "name": jsonable(tool.name),
        "description": jsonable(tool.description),
        "advertised": jsonable(tool.advertised, problems, "/advertised"),
        "runtime": None if runtime is None else {
            "input": jsonable(runtime.input, problems, "/runtime/input"),
            "output": jsonable(runtime.output, problems, "/runtime/output"),
        },
        "refused_when_omitted": list(runtime.refused_when_omitted) if runtime is not None else [],
        "origin": {"file": tool.origin.file, "pointer": tool.origin.pointer, "format": tool.origin.format,
                   "line": tool.origin.line, "path": tool.origin.path, "path_line": tool.origin.path_line,
                   "listed_by": tool.origin.listed_by},
        "schema_path": tool.schema_path,
        "output_schema": jsonable(tool.output_schema, problems, "/output_schema"),
        "raw": None if tool.raw is None else jsonable(tool.raw, problems, "/raw"),
    }
    return wire


def tool_from_wire(wire: Mapping[str, Any], validator: Callable[[str], Any] | None = None,
                   file: str | None = None) -> Tool:
    """Rebuild a :class:`Tool` from :func:`tool_to_wire` output.

    ``validator(handle)`` makes the ``Contract.validate`` callable for a tool with a handle
    (``None``: no validator); ``file`` replaces the origin's file (e.g. ``REV:module:attr``).
    Raises ``KeyError``/``TypeError`` for a malformed message (the caller reports it).
    """
    o = wire["origin"]
    runtime = wire.get("runtime")
    handle = wire.get("handle")
    contract = None
    if runtime is not None or handle is not None:
        runtime = runtime or {}
        contract = Contract(
            input=runtime.get("input"), output=runtime.get("output"),
            validate=validator(handle) if validator is not None and isinstance(handle, str) else None,
            refused_when_omitted=tuple(str(p) for p in wire.get("refused_when_omitted") or ()),
        )
    return Tool(
        name=str(wire["name"]),
        description=wire.get("description"),
        advertised=wire.get("advertised"),
        origin=Origin(file if file is not None else str(o["file"]), str(o.get("pointer", "")),
                      str(o.get("format", "")), o.get("line"),
                      o.get("path") if isinstance(o.get("path"), str) else None,
                      o.get("path_line") if isinstance(o.get("path_line"), int) else None,
                      o.get("listed_by") if isinstance(o.get("listed_by"), str) else None),
        schema_path=wire.get("schema_path"),
        runtime=contract,
        output_schema=wire.get("output_schema"),
        raw=wire.get("raw"),
    )


def diagnostic_from_wire(data: Mapping[str, Any]) -> Diagnostic:
    """A :class:`Diagnostic` from its ``to_json()`` form (as a worker sends load problems)."""
    return Diagnostic(
        code=str(data["code"]), name=str(data["name"]), severity=Severity.parse(str(data["severity"])),
        tool=data.get("tool"), file=str(data["file"]), pointer=str(data.get("pointer", "")),
        message=str(data["message"]), instance_path=data.get("instance_path"), hint=data.get("hint"),
        line=data.get("line"), column=data.get("column"),
        path=data.get("path") if isinstance(data.get("path"), str) else None,
        kind=data.get("kind") if isinstance(data.get("kind"), str) else None,
    )


def outcome_to_wire(outcome: Any) -> dict[str, Any]:
    """The wire form of a :class:`schemalint.probe.Outcome`: ``status`` (``accepted``,
    ``refused``, ``crash``), ``error_type``, ``message`` and ``errors`` (one
    ``{"path", "type", "message"}`` per error the runtime names; ``path`` is a JSON pointer
    into the call with ``*`` for array items)."""
    return {
        "status": outcome.status,
        "error_type": outcome.error_type,
        "message": outcome.message,
        "errors": [{"path": p, "type": t, "message": m} for p, t, m in outcome.details],
    }


def outcome_from_wire(data: Mapping[str, Any]) -> Any:
    """A :class:`schemalint.probe.Outcome` from :func:`outcome_to_wire` output."""
    from schemalint.probe import Outcome

    details = tuple((str(e.get("path", "")), str(e.get("type", "")), str(e.get("message", "")))
                    for e in data.get("errors") or () if isinstance(e, Mapping))
    status = str(data.get("status", "crash"))
    if status not in ("accepted", "refused", "crash"):
        status = "crash"
    return Outcome(status, str(data.get("message", "")), str(data.get("error_type", "")),
                   frozenset((p, t) for p, t, _ in details), details)
