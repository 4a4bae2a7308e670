"""The terminal report: diagnostics grouped by file then tool, then a summary.

Colours come from rich when the stream is a terminal (or ``color=True``); otherwise the
output is plain text written directly (rich is not even imported), with
``file:line:col: severity CODE name at POINTER`` lines that grep and editors read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import groupby
from typing import IO, Any

from schemalint.textsafe import visible

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _location(d: Any) -> str:
    return f"{d.file}:{d.line or 1}:{d.column or 1}"


def _lines(result: Any, st: Callable[[str, str | None], str]) -> Iterator[tuple[str, str | None]]:
    """``(text, line style)`` pairs; ``st(text, style)`` marks up an inline span."""
    for file, in_file in groupby(result.diagnostics, key=lambda d: d.file):
        yield st(file or "<catalog>", "bold"), None
        ordered = sorted(in_file, key=lambda d: (d.tool or "", d.line or 0, d.column or 0))
        for tool, in_tool in groupby(ordered, key=lambda d: d.tool):
            yield ("  tool " + st(tool, "bold") if tool else "  (file)"), None
            for d in in_tool:
                sev = d.severity.value
                ptr = " at " + st(d.pointer, None) if d.pointer else ""
                yield (f"    {st(_location(d), None)}: {st(sev, _STYLE[sev])} "
                       f"{st(d.code, 'bold')} {st(d.name, None)}{ptr}"), None
                yield "      " + st(d.message, None), None
                if d.instance_path:
                    yield "      instance path: " + st(d.instance_path, None), "dim"
                if d.hint:
                    yield "      hint: " + st(d.hint, None), "green"
    by_sev: dict[str, int] = {}
    for d in result.diagnostics:
        by_sev[d.severity.value] = by_sev.get(d.severity.value, 0) + 1
    if result.diagnostics:
        yield "", None
    yield (f"{st(str(result.files), 'bold')} file(s), {st(str(result.tools), 'bold')} tool(s), "
           f"{st(str(len(result.diagnostics)), 'bold')} diagnostic(s)"
           + (" (" + ", ".join(f"{n} {s}" for s, n in sorted(by_sev.items())) + ")" if by_sev else "")
           + f" in {result.elapsed:.2f} s"), None
    counts = result.counts_by_code()
    if counts:
        yield "by code: " + st(", ".join(f"{code} {n}" for code, n in counts.items()), None), None
    crashes = sum(1 for d in result.diagnostics if d.code == "SL999")
    if crashes:
        yield (f"internal errors: {st(str(crashes), 'bold')} (SL999: schemalint crashed in a rule; "
               "these tools were not fully checked; please report them)"), None
    for note in result.notes:
        yield "note: " + st(note, None), "dim"


def render(result: Any, stream: IO[str], *, color: bool | None = None, **_: Any) -> None:
    """Write the grouped diagnostics, the summary and the notes of ``result`` to ``stream``.

    ``color``: ``None`` colours only a terminal; ``True``/``False`` force it on/off.
    """
    use_color = color if color is not None else bool(getattr(stream, "isatty", lambda: False)())
    if not use_color:
        for text, _style in _lines(result, lambda text, style: visible(text)):
            stream.write(text + "\n")
        return
    from rich.console import Console
    from rich.markup import escape

    def st(text: str, style: str | None) -> str:
        return f"[{style}]{escape(visible(text))}[/{style}]" if style else escape(visible(text))

    console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True, emoji=False)
    for text, style in _lines(result, st):
        console.print(text, style=style)
