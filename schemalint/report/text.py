"""The terminal reports: ``check`` (:func:`render`), ``diff`` (:func:`render_diff`), ``show``
(:func:`render_show`) and ``probe`` (:func:`render_probe`).

``check``: diagnostics grouped by file then tool, then a summary. Colours come from rich when
the stream is a terminal (or ``color=True``); otherwise the output is plain text written
directly (rich is not even imported), with ``file:line:col: severity CODE name at POINTER``
lines that grep and editors read. Text from tool files is made visible
(:func:`schemalint.textsafe.visible`) in every report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import groupby
from typing import IO, TYPE_CHECKING, Any

from schemalint.report.copies import copies_count, copies_line, severity_counts
from schemalint.textsafe import visible

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.api_commands import ProbeResult
    from schemalint.diff.result import DiffResult
    from schemalint.model import Diagnostic
    from schemalint.show import ToolView

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _location(d: Diagnostic) -> str:
    return f"{d.location_file}:{d.line or 1}:{d.column or 1}"


def _lines(result: CheckResult, st: Callable[[str, str | None], str]) -> Iterator[tuple[str, str | None]]:
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
                if d.copies:
                    yield "      " + st(copies_line(d), None), "dim"
    if result.diagnostics:
        yield "", None
    detail = severity_counts(result.diagnostics)
    yield (f"{st(str(result.files), 'bold')} file(s), {st(str(result.tools), 'bold')} tool(s), "
           f"{st(str(len(result.diagnostics)), 'bold')} diagnostic(s)"
           + (f" ({detail})" if detail else "")
           + (f"; {repeats} more in repeated copies of a tool" if (repeats := copies_count(result.diagnostics))
              else "")
           + f"; checked in {result.elapsed:.2f} s"), None
    counts = result.counts_by_code()
    if counts:
        yield "by code: " + st(", ".join(f"{code} {n}" for code, n in counts.items()), None), None
    crashes = sum(1 for d in result.diagnostics if d.code == "SL999")
    if crashes:
        yield (f"internal errors: {st(str(crashes), 'bold')} (SL999: schemalint crashed in a rule; "
               "these tools were not fully checked; please report them)"), None
    for note in result.notes:
        yield "note: " + st(note, None), "dim"


def render(result: CheckResult, stream: IO[str], *, color: bool | None = None, **_: object) -> None:
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


_STATUS_MARK = {"identical": "=", "same-meaning": "~", "changed": "*", "added": "+", "removed": "-"}

_SECTIONS = (
    ("breaking", "breaking changes (a call valid before may be refused)"),
    ("changed", "other changes"),
    ("added", "added"),
    ("removed", "removed"),
    ("same-meaning", "same meaning, different bytes"),
)
_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def _section(tool: Any) -> str:
    """The section of a reported tool: any change at severity error makes it ``breaking``."""
    if any(c.check.severity.value == "error" for c in tool.changes):
        return "breaking"
    return str(tool.status)


def render_diff(result: DiffResult, stream: IO[str]) -> None:
    """The ``diff`` report: the tools with a breaking change (a change at severity error) first,
    then the other changed, the added, the removed and the same-meaning ones, each tool with the
    file and line of its definition (the removed ones: on the old side) and each change with the
    line of the changed key (errors first); then the notes and the summary line."""
    from schemalint.report.diff_locations import ChangeLocator

    v = visible
    where = ChangeLocator()
    stream.write(f"schemalint diff {v(result.old_label)} -> {v(result.new_label)}\n")
    groups: dict[str, list[Any]] = {}
    for tool in result.tools:
        if tool.reported:
            groups.setdefault(_section(tool), []).append(tool)
    for key, title in _SECTIONS:
        tools = groups.get(key)
        if not tools:
            continue
        stream.write(f"\n{title}: {len(tools)} tool(s)\n")
        for tool in tools:
            side = tool.new if tool.new is not None else tool.old
            file, line = where.tool_site(side) if side is not None else ("", None)
            site = f"{file}:{line}" if line else file
            stream.write(f"\n{_STATUS_MARK[tool.status]} {v(tool.name)}: {tool.status}  {v(site)}\n")
            for c in sorted(tool.changes, key=lambda c: _SEVERITY_ORDER.get(c.check.severity.value, 3)):
                cfile, cline = where.change_site(tool, c)
                at = f"  ({v(cfile)}:{cline})" if cfile and cline and (cfile, cline) != (file, line) else ""
                stream.write(
                    f"    {c.check.severity.value:<8} {c.check.code} {c.check.name}  {v(c.pointer or '/')}{at}\n"
                )
                stream.write(f"             {v(c.message)}\n")
                if c.hint:
                    stream.write(f"             hint: {v(c.hint)}\n")
    for note in result.notes:
        stream.write(f"\nnote: {v(note)}\n")
    status = result.counts_by_status()
    kinds = result.counts_by_kind()
    stream.write(
        f"\n{len(result.tools)} tools: {status['identical']} identical, "
        f"{status['same-meaning']} same meaning (different bytes), {status['changed']} changed, "
        f"{status['added']} added, {status['removed']} removed; "
        f"changes: {kinds['breaking']} breaking, {kinds['compatible']} compatible, "
        f"{kinds['description']} description, {kinds['bytes']} bytes-only"
        + (f", {kinds['security']} security" if "security" in kinds else "")
        + "\n"
    )


def _value_of(line: str) -> str:
    """A rendered JSON line without its trailing comma (what ``show`` compares)."""
    return line[:-1] if line.endswith(",") else line


def in_key_order_of(value: Any, model: Any) -> Any:
    """``value`` with the keys of each object in the order ``model`` (the other side) has them at
    the same place, its other keys after them in their own order; lists are aligned item by item.
    Values are not changed, so ``show`` marks a line only when a value differs, never for key
    order alone. A value nested too deeply to recurse through is returned as it is."""
    try:
        return _aligned(value, model)
    except RecursionError:
        return value


def _aligned(value: Any, model: Any) -> Any:
    if isinstance(value, dict) and isinstance(model, dict):
        keys = [k for k in model if k in value] + [k for k in value if k not in model]
        return {k: _aligned(value[k], model.get(k)) for k in keys}
    if isinstance(value, list) and isinstance(model, list):
        return [_aligned(v, model[i] if i < len(model) else None) for i, v in enumerate(value)]
    return value


def render_show(view: ToolView, stream: IO[str], color: bool | None = None) -> None:
    """``show``: the advertised and runtime input schemas side by side (differing lines marked),
    then the required-key table. The schemas are laid out as plain columns
    (:mod:`schemalint.report.show_layout`: linear in the schema's size, any depth), coloured by
    rich on a terminal; the required-key table is rich's."""
    from rich.console import Console
    from rich.text import Text

    from schemalint.report.show_layout import align, keyed_json_lines

    def T(text: str, style: str = "") -> Text:  # untrusted text, never rich markup
        return Text(visible(text), style=style)

    console = Console(file=stream, force_terminal=color, no_color=color is False, highlight=False,
                      width=None if stream.isatty() else 160)
    tool = view.tool
    where = f"  ({tool.origin.format}, {tool.origin.file} at {tool.origin.pointer or '/'})"
    console.print(Text.assemble(("tool ", "bold"), (visible(tool.name), "bold cyan"), visible(where)))
    for pointer, keyword in view.unsupported:
        console.print(T(f"  note: `{keyword}` at {pointer} cannot be said in draft-07; shown as written", "yellow"))
    for line in _rewrite_notes(view.rewritten):
        console.print(T(f"  note: {line}", "yellow"))
    raw_left, left_at = keyed_json_lines(view.advertised)
    left = [visible(line) for line in raw_left]
    if view.runtime_input is None:
        console.print("no runtime contract is known for this tool: showing the advertised schema only\n")
        _print_columns(console, ["advertised (draft-07)"], [(None, [line]) for line in left], [None])
    else:
        raw_right, right_at = keyed_json_lines(in_key_order_of(view.runtime_input, view.advertised))
        right = [visible(line) for line in raw_right]
        rows: list[tuple[str | None, list[str]]] = []
        # A line's place and value, not its trailing comma (the last member of an object has none),
        # decide whether it differs; the runtime side is laid out in the advertised side's key order.
        for op, a0, a1, b0, b1 in align([(at, _value_of(line)) for at, line in zip(left_at, left, strict=True)],
                                        [(at, _value_of(line)) for at, line in zip(right_at, right, strict=True)]):
            if op == "equal":
                rows.extend((None, [" ", a, b]) for a, b in zip(left[a0:a1], right[b0:b1], strict=True))
                continue
            for i in range(max(a1 - a0, b1 - b0)):
                a = left[a0 + i] if a0 + i < a1 else ""
                b = right[b0 + i] if b0 + i < b1 else ""
                if a and b and _value_of(a) == _value_of(b):
                    rows.append((None, [" ", a, b]))
                else:
                    mark = "~" if a and b else ("-" if a else "+")
                    rows.append((mark, [mark, a, b]))
        _print_columns(console, [" ", "advertised (draft-07)", "runtime input (draft-07)"], rows, [1, None, None])
        console.print("  ~ differs   - advertised only   + runtime only", style="dim")
    _print_required(console, view)


def _rewrite_notes(rewritten: Sequence[tuple[str, str, str]]) -> list[str]:
    """One line per keyword the draft-07 panel renames and per ``$schema`` it replaces, and one
    for all the ``$ref`` values it rewrites (they follow a renamed ``$defs``), so the panel is
    never taken for what the tool sends."""
    lines: list[str] = []
    refs = 0
    for pointer, written, shown in rewritten:
        if pointer.endswith("/$ref"):
            refs += 1
        elif pointer.endswith("/$schema"):
            lines.append(f"`$schema` at {pointer} is {written}; shown as draft-07's {shown}")
        else:
            lines.append(f"`{written}` at {pointer} is shown as `{shown}`, draft-07's spelling; "
                         f"the tool sends `{written}`")
    if refs:
        lines.append(f"{refs} `$ref` value(s) `#/$defs/...` shown as `#/definitions/...`; the tool sends `#/$defs/...`")
    return lines


def _print_columns(console: Any, header: list[str], rows: list[tuple[str | None, list[str]]],
                   fixed: list[int | None]) -> None:
    """The header and ``rows`` as columns (:mod:`schemalint.report.show_layout`). A row is
    ``(mark, cells)``: a marked row's first cell is its mark (bold yellow), its other cells
    red and green on a terminal. Plain text is written straight to the stream."""
    from schemalint.report.show_layout import column_rows, widths

    col = widths([cells for _, cells in rows], header, console.width, fixed)
    plain = console.color_system is None
    out: list[Any] = []
    for line in column_rows(header, col):
        out.append("  ".join(line) if plain else _styled(line, "bold", "bold", "bold"))
    for mark, cells in rows:
        for line in column_rows(cells, col):
            if plain:
                out.append("  ".join(line))
            elif mark:
                out.append(_styled(line, "bold yellow", "red", "green"))
            else:
                out.append(_styled(line, "", "", ""))
    if plain:
        console.file.write("".join(line + "\n" for line in out))
        return
    from rich.text import Text

    console.print(Text("\n").join(out), soft_wrap=True, crop=False)


def _styled(cells: list[str], *styles: str) -> Any:
    from rich.text import Text

    parts: list[tuple[str, str]] = []
    for i, (cell, style) in enumerate(zip(cells, styles, strict=False)):
        if i:
            parts.append(("  ", ""))
        parts.append((cell, style if cell.strip() else ""))
    return Text.assemble(*parts)


def _print_required(console: Any, view: ToolView) -> None:
    """The required keys per instance path, one row each, boxed (plain text laid out by
    :func:`schemalint.report.show_layout.boxed_rows`; a row whose sides disagree is bold red on a
    terminal). A cell lists at most :data:`MAX_ALTERNATIVES_SHOWN` alternatives of a union and an
    instance path is shortened in its middle past :data:`MAX_PATH_SHOWN` characters
    (``--format json`` has them all)."""
    from schemalint.report.show_layout import boxed_rows

    def cell(value: list[str] | None) -> str:
        return "n/a" if value is None else visible(_capped(", ".join(value)) or "-")

    rows: list[list[str]] = []
    differing: list[bool] = []
    for row in view.required:
        sides = [row["advertised"], row["runtime_input"], row["runtime_output"], row["probed"]]
        known = [set(s) for s in sides[1:2] + sides[3:] if s is not None]
        differing.append(any(s != set(row["advertised"] or []) for s in known))
        rows.append([visible(_short_path(row["instance_path"] or "/")), *(cell(s) for s in sides)])
    head, body = boxed_rows(["instance path", "advertised", "runtime input", "runtime output", "probed"], rows,
                            console.width)
    title = "required keys per instance path".ljust(len(head[0]))
    console.print()
    if console.color_system is None:
        console.file.write("".join(line + "\n" for line in [title, *head, *(x for lines in body for x in lines)]))
        return
    from rich.text import Text

    styled = [Text(title, style="italic"), *(Text(line, style="bold") for line in head)]
    for i, lines in enumerate(body):
        red = i < len(differing) and differing[i]
        styled.extend(Text(line, style="bold red" if red else "") for line in lines)
    console.print(Text("\n").join(styled), soft_wrap=True, crop=False)


MAX_PATH_SHOWN = 80
"""Characters of an instance path shown in ``show``'s required-key table; a longer one keeps its
start and end around ``...`` (a path 500 levels deep would print a square of text)."""


def _short_path(path: str) -> str:
    if len(path) <= MAX_PATH_SHOWN:
        return path
    return f"{path[:24]} ... {path[-(MAX_PATH_SHOWN - 29):]}"


MAX_ALTERNATIVES_SHOWN = 20
"""Alternatives of a union listed in one cell of ``show``'s required-key table (``--format json``
has them all)."""


def _capped(text: str) -> str:
    parts = text.split(" | ")
    if len(parts) <= MAX_ALTERNATIVES_SHOWN:
        return text
    return " | ".join(parts[:MAX_ALTERNATIVES_SHOWN]) + f" | ... ({len(parts) - MAX_ALTERNATIVES_SHOWN:,} more)"


def render_shows(views: Sequence[ToolView], stream: IO[str]) -> None:
    """``show`` of several tools of one name: each view, a blank line between them."""
    for i, view in enumerate(views):
        if i:
            stream.write("\n")
        render_show(view, stream)


def render_probe(result: ProbeResult, stream: IO[str]) -> None:
    """``probe``: a table of the tools (calls and time per probe kind, what was refused), then
    the SL107 diagnostics and a summary line, with rich."""
    from rich.console import Console
    from rich.markup import escape as markup_escape
    from rich.table import Table

    def escape(text: str) -> str:
        return markup_escape(visible(text))

    console = Console(file=stream, highlight=False, soft_wrap=True, emoji=False,
                      width=None if stream.isatty() else 160)
    table = Table(title="runtime probes (calls / time)", title_justify="left")
    for column in ("tool", "omission", "generated", "refused"):
        table.add_column(column, justify="left" if column in ("tool", "refused") else "right", no_wrap=True)
    for row in result.rows:
        if row.omission is None:
            table.add_row(escape(row.tool), "-", "-", "not probed (no callable validator)")
            continue
        phases = [p for p in (row.omission, row.generated) if p is not None]
        kinds = [r.kind + (f" {r.instance_path}" if r.instance_path else "") for p in phases for r in p.refusals]
        if row.generated_repeats_omission_findings:
            kinds.append("generated (same errors)")
        if row.budget_stopped:
            kinds.append("stopped by the run's probe budget")
        generated = _cell(row.generated) if row.generated else ("budget spent" if row.budget_stopped else "-")
        table.add_row(escape(row.tool), _cell(row.omission), generated, escape(", ".join(kinds) or "none"))
    console.print(table)
    for d in result.diagnostics:
        # As check's lines: file:line:col, then the tool in brackets (escaped: rich would read
        # `[name]` as markup and drop it).
        console.print(f"{escape(_location(d))}: {d.severity.value} {d.code} {d.name}"
                      + (f" {escape('[' + d.tool + ']')}" if d.tool else "")
                      + (f" at {escape(d.instance_path)}" if d.instance_path else ""))
        console.print(f"  {escape(d.message)}")
        if d.hint:
            console.print(f"  hint: {escape(d.hint)}")
    console.print(f"{result.probed} of {len(result.rows)} tool(s) probed in {result.elapsed:.2f} s; "
                  f"{len(result.diagnostics)} diagnostic(s)")
    if result.budget is not None and result.budget.cut:
        console.print(f"note: {escape(result.budget.summary())}; raise it with --run-budget SECONDS")


def _cell(phase: Any) -> str:
    text = f"{phase.calls} / {round(phase.elapsed, 4) * 1000:.1f} ms"
    return text + " (time limit)" if phase.timed_out else text


__all__ = ["render", "render_diff", "render_probe", "render_show", "render_shows"]
