"""The JSON reports: ``check``'s ``{"version": 1, "diagnostics": [...], "summary": {...}}``
(docs/ci.md, "Report formats"), ``diff``'s (:meth:`schemalint.diff.result.DiffResult.to_json`), ``show``'s
(:meth:`schemalint.show.ToolView.to_json`) and ``probe``'s
(:meth:`schemalint.api_commands.ProbeResult.to_json`); one document, indent 2, then a newline.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.api_commands import ProbeResult
    from schemalint.diff.result import DiffResult
    from schemalint.show import ToolView


def to_json(result: CheckResult) -> dict[str, Any]:
    """The report as a JSON-ready dict; ``result`` is a :class:`~schemalint.api.CheckResult`."""
    by_severity: dict[str, int] = {}
    for d in result.diagnostics:
        by_severity[d.severity.value] = by_severity.get(d.severity.value, 0) + 1
    return {
        "version": 1,
        "diagnostics": [d.to_json() for d in result.diagnostics],
        "summary": {
            "files": result.files,
            "tools": result.tools,
            "diagnostics": len(result.diagnostics),
            "copies": sum(len(d.copies) for d in result.diagnostics),
            "by_code": result.counts_by_code(),
            "by_severity": by_severity,
            "internal_errors": sum(1 for d in result.diagnostics if d.code == "SL999"),
            "tools_by_format": result.tools_by_format,
            "elapsed_seconds": round(result.elapsed, 3),
            "notes": list(result.notes),
            "suppressed": getattr(result, "suppressed", 0),
            "baseline": _baseline_summary(result),
        },
    }


def _baseline_summary(result: CheckResult) -> dict[str, Any] | None:
    """``{"file", "hidden", "stale": [entries]}`` when a baseline was applied, else ``None``."""
    path = getattr(result, "baseline_path", None)
    if path is None:
        return None
    return {
        "file": path,
        "hidden": result.baselined,
        "stale_count": sum(e.count for e in result.stale),
        "stale": [e.to_json() for e in result.stale],
    }


def render(result: CheckResult, stream: IO[str], **_: object) -> None:
    """Write the JSON report (one document, indent 2) to ``stream``."""
    stream.write(dumps(to_json(result)) + "\n")


def render_diff(result: DiffResult, stream: IO[str]) -> None:
    """Write the ``diff`` JSON document to ``stream`` (values JSON cannot hold as their ``str``)."""
    stream.write(dumps(result.to_json(), default=str) + "\n")


def render_shows(views: Sequence[ToolView], stream: IO[str]) -> None:
    """Write ``show``'s JSON: the view of the one tool, or a list when several share the name. A NaN
    or an infinity in a schema (YAML ``.nan``, ``.inf``) is written as the string ``"NaN"``,
    ``"Infinity"`` or ``"-Infinity"`` (as the Python bridge sends them), never as a token no JSON
    parser reads."""
    payload = [v.to_json() for v in views]
    document = payload[0] if len(payload) == 1 else payload
    text = json.dumps(document, indent=2, ensure_ascii=False)
    if "NaN" in text or "Infinity" in text:  # maybe a bare token: read back with each as a string
        text = json.dumps(json.loads(text, parse_constant=str), indent=2, ensure_ascii=False)
    stream.write(text + "\n")


def render_probe(result: ProbeResult, stream: IO[str]) -> None:
    """Write ``probe``'s JSON (ASCII, calls JSON cannot hold as their ``repr``)."""
    json.dump(result.to_json(), stream, indent=2, default=repr)
    stream.write("\n")


def dumps(document: Any, *, default: Any = None) -> str:
    """``document`` as JSON text, indent 2, non-ASCII kept: the text ``json.dumps(document,
    indent=2, ensure_ascii=False, default=default)`` gives, built by orjson (about 20 times
    faster on 100k findings) unless orjson cannot encode it (a lone surrogate, a huge
    integer, a non-string key). Dates, times and dataclasses go to ``default`` as they do
    with ``json``; other types orjson knows natively (enums, UUIDs, numpy) never occur in
    parsed tool definitions."""
    import orjson

    if _needs_json(document):  # a float that orjson spells differently
        return json.dumps(document, indent=2, ensure_ascii=False, default=default)
    try:
        return orjson.dumps(document, default=default, option=orjson.OPT_INDENT_2
                            | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(document, indent=2, ensure_ascii=False, default=default)


_SCALARS = frozenset({str, int, bool, type(None)})
"""Types of values that hold no float and nothing inside."""


def _needs_json(document: Any) -> bool:
    """True when ``document`` holds a float that orjson writes differently from ``json``: NaN
    and infinities (``null``), and exponent forms (``1e16`` for ``1e+16``)."""
    stack = [document]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            values = value.values()
            if _SCALARS.issuperset(map(type, values)):
                continue  # a diagnostic's dict: strings, integers, None (one C-level pass instead of a walk)
            stack.extend(values)
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
        elif isinstance(value, float) and (value != value or "e" in repr(value) or "n" in repr(value)):
            return True
    return False
