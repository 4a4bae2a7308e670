"""``schemalint show``: one tool's advertised schema next to its runtime contract.

Builds a :class:`ToolView` (JSON-ready): the advertised schema and the runtime input schema,
both rendered as draft-07 (:mod:`schemalint.schema.draft7`), and a table of required keys per
instance path for each side (advertised / runtime input / runtime output / probed). The
reporters render it (:func:`schemalint.report.text.render_show`: side by side with differing
lines marked; :func:`schemalint.report.json_report.render_shows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import Tool, split_pointer
from schemalint.schema.draft7 import to_draft7


@dataclass
class ToolView:
    """Everything ``show`` prints about one tool; :meth:`to_json` is the ``--format json`` shape."""

    tool: Tool
    advertised: Any
    runtime_input: Any
    runtime_output: Any
    unsupported: list[tuple[str, str]]
    required: list[dict[str, Any]]
    #: ``(pointer, as written, as shown)`` for each keyword or value of the advertised schema that
    #: the draft-07 rendering shows otherwise (:attr:`schemalint.schema.draft7.Rendered.rewritten`).
    rewritten: list[tuple[str, str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: tool identity, draft-07 renderings, what the advertised rendering
        cannot say (``not_expressible_in_draft7``) or shows otherwise than the tool sends it
        (``rewritten_for_draft7``: pointer, written, shown) and the required-key table."""
        return {
            "tool": self.tool.name,
            "file": self.tool.origin.file,
            "pointer": self.tool.origin.pointer,
            "format": self.tool.origin.format,
            "advertised": self.advertised,
            "runtime_input": self.runtime_input,
            "runtime_output": self.runtime_output,
            "not_expressible_in_draft7": [{"pointer": p, "keyword": k} for p, k in self.unsupported],
            "rewritten_for_draft7": [{"pointer": p, "written": w, "shown": s} for p, w, s in self.rewritten],
            "required": self.required,
        }


def _required_by_path(schema: Any) -> dict[str, list[str]]:
    """Instance path -> sorted required keys (alternatives of a union joined as ``a | b``)."""
    from schemalint.schema.shapes import shapes_of

    if not isinstance(schema, dict):
        return {}
    shapes = shapes_of(schema)
    out: dict[str, list[str]] = {}
    for path in shapes.paths():
        alts = [a for a in shapes.alternatives(path) if a.is_object]
        if not alts:
            continue
        sets = {tuple(sorted(a.required)) for a in alts}
        if len(sets) == 1:
            out[path] = list(next(iter(sets)))
        else:
            out[path] = [" | ".join(",".join(s) or "-" for s in sorted(sets))]
    return out


def _probed_by_path(paths: Sequence[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for pointer in paths:
        try:
            tokens = split_pointer(pointer)
        except ValueError:
            continue
        if not tokens:
            continue
        parent = "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens[:-1])
        out.setdefault(parent, []).append(tokens[-1])
    return {k: sorted(v) for k, v in out.items()}


def build_view(tool: Tool) -> ToolView:
    """Render ``tool``'s schemas as draft-07 and tabulate required keys per instance path."""
    advertised = to_draft7(tool.advertised)
    runtime = tool.runtime
    r_in = to_draft7(runtime.input).schema if runtime and runtime.input is not None else None
    r_out = to_draft7(runtime.output).schema if runtime and runtime.output is not None else None
    columns = {
        "advertised": _required_by_path(tool.advertised),
        "runtime_input": _required_by_path(runtime.input) if runtime else {},
        "runtime_output": _required_by_path(runtime.output) if runtime else {},
        "probed": _probed_by_path(runtime.refused_when_omitted) if runtime else {},
    }
    paths: list[str] = []
    for col in columns.values():
        paths.extend(p for p in col if p not in paths)
    paths.sort(key=lambda p: (p.count("/"), p))
    rows = [{"instance_path": p, **{name: col.get(p) for name, col in columns.items()}} for p in paths]
    return ToolView(tool, advertised.schema, r_in, r_out, advertised.unsupported, rows, advertised.rewritten)


def find_tools_named(tools: Sequence[Tool], name: str) -> list[Tool]:
    """The tools called ``name`` (exact match first, then case-insensitive)."""
    exact = [t for t in tools if t.name == name]
    return exact or [t for t in tools if t.name.lower() == name.lower()]
