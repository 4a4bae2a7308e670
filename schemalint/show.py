"""``schemalint show``: one tool's advertised schema next to its runtime contract.

Builds a :class:`ToolView` (JSON-ready) and renders it: the advertised schema and the
runtime input schema, both rendered as draft-07 (:mod:`schemalint.schema.draft7`),
side by side with differing lines marked, then a table of required keys per instance
path for each side (advertised / runtime input / runtime output / probed).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any

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

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: tool identity, draft-07 renderings and the required-key table."""
        return {
            "tool": self.tool.name,
            "file": self.tool.origin.file,
            "pointer": self.tool.origin.pointer,
            "format": self.tool.origin.format,
            "advertised": self.advertised,
            "runtime_input": self.runtime_input,
            "runtime_output": self.runtime_output,
            "not_expressible_in_draft7": [{"pointer": p, "keyword": k} for p, k in self.unsupported],
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
    return ToolView(tool, advertised.schema, r_in, r_out, advertised.unsupported, rows)


def _lines(value: Any) -> list[str]:
    if value is None:
        return []
    return json.dumps(value, indent=2, ensure_ascii=False).splitlines()


def render_text(view: ToolView, stream: IO[str], color: bool | None = None) -> None:
    """Print the side-by-side view and the required-key table with rich."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from schemalint.textsafe import visible

    def T(text: str, style: str = "") -> Text:  # untrusted text, never rich markup
        return Text(visible(text), style=style)

    console = Console(file=stream, force_terminal=color, no_color=color is False, highlight=False,
                      width=None if stream.isatty() else 160)
    tool = view.tool
    where = f"  ({tool.origin.format}, {tool.origin.file} at {tool.origin.pointer or '/'})"
    console.print(Text.assemble(("tool ", "bold"), (visible(tool.name), "bold cyan"), visible(where)))
    for pointer, keyword in view.unsupported:
        console.print(T(f"  note: `{keyword}` at {pointer} cannot be said in draft-07; shown as written", "yellow"))
    left, right = _lines(view.advertised), _lines(view.runtime_input)
    if view.runtime_input is None:
        console.print("no runtime contract is known for this tool: showing the advertised schema only\n")
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column("advertised (draft-07)")
        for line in left:
            table.add_row(T(line))
        console.print(table)
    else:
        table = Table(show_header=True, box=None, pad_edge=False)
        table.add_column(" ", width=1)
        table.add_column("advertised (draft-07)", overflow="fold")
        table.add_column("runtime input (draft-07)", overflow="fold")
        matcher = difflib.SequenceMatcher(a=left, b=right, autojunk=False)
        for op, a0, a1, b0, b1 in matcher.get_opcodes():
            if op == "equal":
                for a, b in zip(left[a0:a1], right[b0:b1], strict=True):
                    table.add_row(" ", T(a), T(b))
                continue
            span = max(a1 - a0, b1 - b0)
            for i in range(span):
                a = left[a0 + i] if a0 + i < a1 else ""
                b = right[b0 + i] if b0 + i < b1 else ""
                mark = "~" if a and b else ("-" if a else "+")
                table.add_row(Text(mark, style="bold yellow"), T(a, "red"), T(b, "green"))
        console.print(table)
        console.print("  ~ differs   - advertised only   + runtime only", style="dim")
    req = Table(title="required keys per instance path", show_header=True, title_justify="left")
    for name in ("instance path", "advertised", "runtime input", "runtime output", "probed"):
        req.add_column(name)

    def cell(value: list[str] | None) -> Text:
        return Text("n/a") if value is None else T(", ".join(value) or "-")

    for row in view.required:
        sides = [row["advertised"], row["runtime_input"], row["runtime_output"], row["probed"]]
        known = [set(s) for s in sides[1:2] + sides[3:] if s is not None]
        differs = any(s != set(row["advertised"] or []) for s in known)
        req.add_row(T(row["instance_path"] or "/"), *(cell(s) for s in sides), style="bold red" if differs else None)
    console.print()
    console.print(req)


def find_tools_named(tools: Sequence[Tool], name: str) -> list[Tool]:
    """The tools called ``name`` (exact match first, then case-insensitive)."""
    exact = [t for t in tools if t.name == name]
    return exact or [t for t in tools if t.name.lower() == name.lower()]
