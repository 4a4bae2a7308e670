"""The terminal report: diagnostics grouped by file then tool, then a summary.

Colours come from rich when the stream is a terminal; in a pipe the output is plain
``file:line:col: severity CODE name [tool] message`` lines that grep and editors read.
"""

from __future__ import annotations

from itertools import groupby
from typing import IO, Any

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _location(d: Any) -> str:
    return f"{d.file}:{d.line or 1}:{d.column or 1}"


def render(result: Any, stream: IO[str], *, color: bool | None = None, **_: Any) -> None:
    """Write the grouped diagnostics and a summary of ``result`` to ``stream``."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(file=stream, force_terminal=color, no_color=color is False, highlight=False,
                      soft_wrap=True)
    for file, in_file in groupby(result.diagnostics, key=lambda d: d.file):
        console.print(f"[bold]{escape(file or '<catalog>')}[/bold]")
        ordered = sorted(in_file, key=lambda d: (d.tool or "", d.line or 0, d.column or 0))
        for tool, in_tool in groupby(ordered, key=lambda d: d.tool):
            console.print(f"  tool [bold]{escape(tool)}[/bold]" if tool else "  (file)")
            for d in in_tool:
                style = _STYLE[d.severity.value]
                where = f"{_location(d)}"
                ptr = f" at {escape(d.pointer)}" if d.pointer else ""
                console.print(
                    f"    {escape(where)}: [{style}]{d.severity.value}[/{style}] "
                    f"[bold]{d.code}[/bold] {d.name}{ptr}"
                )
                console.print(f"      {escape(d.message)}")
                if d.instance_path:
                    console.print(f"      instance path: {escape(d.instance_path)}", style="dim")
                if d.hint:
                    console.print(f"      hint: {escape(d.hint)}", style="green")
    counts = result.counts_by_code()
    by_sev: dict[str, int] = {}
    for d in result.diagnostics:
        by_sev[d.severity.value] = by_sev.get(d.severity.value, 0) + 1
    if result.diagnostics:
        console.print()
    console.print(
        f"[bold]{result.files}[/bold] file(s), [bold]{result.tools}[/bold] tool(s), "
        f"[bold]{len(result.diagnostics)}[/bold] diagnostic(s)"
        + (" (" + ", ".join(f"{n} {s}" for s, n in sorted(by_sev.items())) + ")" if by_sev else "")
        + f" in {result.elapsed:.2f} s"
    )
    if counts:
        console.print("by code: " + ", ".join(f"{code} {n}" for code, n in counts.items()))
    for note in result.notes:
        console.print(f"note: {escape(note)}", style="dim")
