"""GitHub Actions workflow commands: one annotation per diagnostic (``check``) or change (``diff``).

``::error file=F,line=L,col=C,title=CODE name::message`` (``warning`` for warnings,
``notice`` for info), which the Actions runner shows on the pull request's diff; a diff
change is located on the line of the changed key when the file is in the working tree.
Property values escape ``%``, CR, LF, ``:`` and ``,``; the message escapes ``%``, CR
and LF (GitHub docs, "Workflow commands for GitHub Actions", 2024). A plain summary
line and any notes follow the annotations.

Limits: GitHub shows at most 10 annotations of each level (error, warning, notice) per step
and 50 per job; the rest are dropped without a word (GitHub community discussions #26680 and
#68471, where GitHub staff give these figures). So at most :data:`PER_LEVEL` annotations of a
level are written: past that, 9 are annotations, the 10th says how many of that level were
left out, and each one left out is still written to the log as a plain ``file:line:col:``
line. When ``$GITHUB_STEP_SUMMARY`` is set, the full list is appended to that file as
markdown (the job summary, "Adding a job summary" in the same GitHub docs page; at most
:data:`SUMMARY_LIMIT` bytes per step, GitHub's 1 MiB, the rest counted in a last line); the
file is opened for appending, never truncated, so other steps' summaries stay.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from schemalint.textsafe import visible

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.diff.result import DiffResult
    from schemalint.model import Diagnostic

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}

PER_LEVEL = 10
"""Annotations of one level GitHub shows per step (the rest are dropped silently)."""

SUMMARY_ENV = "GITHUB_STEP_SUMMARY"
SUMMARY_LIMIT = 1024 * 1024 - 4096
"""Bytes schemalint appends to the job summary: GitHub's 1 MiB per step, less room for the last line."""


@dataclass(frozen=True)
class Item:
    """One annotation to write: ``severity`` (``error``/``warning``/``info``), the workflow
    command, the plain log line used when the level's annotations are used up, and the cells
    of its row in the job summary (``where``, ``code``, ``tool``, ``message``)."""

    severity: str
    command: str
    plain: str
    where: str
    code: str
    tool: str
    message: str


def escape_data(text: str) -> str:
    """Escape a workflow-command message: ``%``, CR and LF as GitHub documents, and every other
    control character made visible (:func:`schemalint.textsafe.visible`), so no text from a tool
    file can end the command, start another one or reach the log viewer as an escape sequence."""
    return visible(text, keep="\r\n").replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow-command property value (``:`` and ``,`` too)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _file(path: str) -> str:
    """``path`` relative to the repository (``$GITHUB_WORKSPACE`` in Actions, else the working directory)."""
    if not path or not os.path.exists(path):
        return path
    root = os.environ.get("GITHUB_WORKSPACE") or os.getcwd()
    try:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    except ValueError:  # pragma: no cover - another drive on Windows
        return path
    return (os.path.abspath(path) if rel.startswith("..") else rel).replace(os.sep, "/")


def command(severity: str, props: list[str], text: str) -> str:
    """The workflow command of a ``severity`` (``error``/``warning``/``info``) with the property
    pairs ``props`` (``key=escaped value``) and the message ``text`` (made visible; its line
    breaks are escaped the workflow-command way)."""
    return f"::{COMMANDS[severity]} {','.join(props)}::{escape_data(text)}"


def annotation(d: Diagnostic) -> str:
    """The workflow command for one diagnostic."""
    props = []
    path = d.location_file
    file = _file(path)
    if file and os.path.exists(path):
        props.append(f"file={escape_property(file)}")
        props.append(f"line={d.line or 1}")
        props.append(f"col={d.column or 1}")
    props.append(f"title={escape_property(f'{d.code} {d.name}')}")
    where = f"[{visible(d.tool)}] " if d.tool else ""
    if d.file and not (file and os.path.exists(path)):
        where = f"{visible(d.file)}: " + where
    return command(d.severity.value, props, where + _message(d.message, d.hint) + _copies(d))


def _copies(d: Diagnostic) -> str:
    from schemalint.report.copies import copies_line

    return f"\n{copies_line(d)}" if d.copies else ""


def _message(message: str, hint: str | None) -> str:
    # Text from the tool file is made visible whole (its newlines too); the one line break
    # schemalint composes (before the hint) is escaped the workflow-command way.
    return visible(message) + (f"\nhint: {visible(hint)}" if hint else "")


def write_items(items: Iterable[Item], stream: IO[str]) -> dict[str, int]:
    """Write ``items`` as workflow commands, at most :data:`PER_LEVEL` per level (the last one of
    a level that overflows says how many were left out; those are written as plain log lines).
    Returns how many of each severity were left out of the annotations."""
    by_level: dict[str, list[Item]] = {}
    order: list[Item] = list(items)
    for item in order:
        by_level.setdefault(item.severity, []).append(item)
    shown: set[int] = set()
    left_out: dict[str, int] = {}
    for severity, group in by_level.items():
        keep = group if len(group) <= PER_LEVEL else group[:PER_LEVEL - 1]
        shown.update(id(i) for i in keep)
        if len(group) > len(keep):
            left_out[severity] = len(group) - len(keep)
    for item in order:
        if id(item) in shown:
            stream.write(item.command + "\n")
    for severity, n in left_out.items():
        label = {"info": "notice"}.get(severity, severity)
        where = " and in the job summary" if os.environ.get(SUMMARY_ENV) else ""
        stream.write(command(severity, [f"title={escape_property(f'schemalint: {n} more {label}(s)')}"],
                             f"{n} more {label} annotation(s) not shown: GitHub shows {PER_LEVEL} per level "
                             f"and step; they are listed in this step's log{where}") + "\n")
    for item in order:
        if id(item) not in shown:
            stream.write(item.plain + "\n")
    return left_out


def _cell(text: str) -> str:
    return visible(text).replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", "<br>")


def append_summary(title: str, totals: str, items: Iterable[Item]) -> None:
    """Append the markdown job summary (a heading, ``totals`` and one table row per item) to the
    file ``$GITHUB_STEP_SUMMARY`` names, when it is set; at most :data:`SUMMARY_LIMIT` bytes, the
    rest counted in a last line. Opened for appending: earlier steps' summaries stay. An
    unwritable file is reported on stderr, never as a finding."""
    path = os.environ.get(SUMMARY_ENV)
    if not path:
        return
    rows = list(items)
    parts = [f"## {title}\n\n{_cell(totals)}\n\n"]
    if rows:
        parts.append("| severity | code | where | tool | message |\n| --- | --- | --- | --- | --- |\n")
    size = sum(len(p.encode()) for p in parts)
    for i, item in enumerate(rows):
        row = (f"| {item.severity} | {_cell(item.code)} | {_cell(item.where)} | {_cell(item.tool)} | "
               f"{_cell(item.message)} |\n")
        if size + len(row.encode()) > SUMMARY_LIMIT:
            parts.append(f"\n{len(rows) - i} more row(s) left out: GitHub keeps at most 1 MiB of summary "
                         "per step; the step's log has them all.\n")
            break
        parts.append(row)
        size += len(row.encode())
    parts.append("\n")
    from schemalint.safe_write import append_text

    try:
        append_text(path, "".join(parts))
    except OSError as exc:
        import sys

        print(f"schemalint: cannot append the job summary to {path}: {exc.strerror or exc}", file=sys.stderr)


def _plain_message(message: str, hint: str | None) -> str:
    # A plain log line stays one line: the hint follows on it (escape_data still encodes any
    # line break the tool's own text holds, so the line cannot start a workflow command).
    return escape_data(visible(message) + (f" (hint: {visible(hint)})" if hint else ""))


def _check_item(d: Diagnostic) -> Item:
    where = _file(d.location_file) if os.path.exists(d.location_file) else d.location_file
    located = f"{where}:{d.line or 1}:{d.column or 1}"
    plain = (f"{visible(located)}: {d.severity.value} {d.code} {d.name}"
             + (f" [{visible(d.tool)}]" if d.tool else "") + f": {_plain_message(d.message, d.hint)}")
    return Item(d.severity.value, annotation(d), plain, located, f"{d.code} {d.name}", d.tool or "",
                d.message)


def render(result: CheckResult, stream: IO[str], **_: object) -> None:
    """Write the annotations (at most :data:`PER_LEVEL` per level, :func:`write_items`), then a
    summary line and the notes; append the job summary when ``$GITHUB_STEP_SUMMARY`` is set."""
    items = [_check_item(d) for d in result.diagnostics]
    left_out = write_items(items, stream)
    from schemalint.report.copies import severity_counts

    detail = severity_counts(result.diagnostics)
    repeats = sum(len(d.copies) for d in result.diagnostics)
    totals = (f"{result.files} file(s), {result.tools} tool(s), "
              f"{len(result.diagnostics)} diagnostic(s)" + (f" ({detail})" if detail else "")
              + (f"; {repeats} more in repeated copies of a tool" if repeats else ""))
    stream.write(f"schemalint: {totals}"
                 + (f"; {sum(left_out.values())} not annotated (see above)" if left_out else "") + "\n")
    stale = sum(e.count for e in getattr(result, "stale", ()))
    if stale:
        stream.write(f"::notice title=schemalint baseline::{stale} finding(s) recorded in "
                     f"{escape_data(str(result.baseline_path))} no longer occur; regenerate the baseline "
                     "to shrink it\n")
    for note in result.notes:
        stream.write(f"note: {escape_data(visible(note))}\n")
    append_summary("schemalint check", totals, items)


def render_diff(result: DiffResult, stream: IO[str]) -> None:
    """One workflow command per change of a diff (at most :data:`PER_LEVEL` per level,
    :func:`write_items`), then a summary line; the job summary as in :func:`render`."""
    from schemalint.report.diff_locations import ChangeLocator

    locate = ChangeLocator()
    items: list[Item] = []
    for tool in result.tools:
        for c in tool.changes:
            file, line = locate(tool, c)
            props = []
            if file:
                props.append(f"file={escape_property(file)}")
                if line:
                    props.append(f"line={line}")
            props.append(f"title={escape_property(f'{c.check.code} {c.check.name} ({c.tool})')}")
            where = f"{file}:{line}" if file and line else (file or c.file or "")
            plain = (f"{visible(where)}: {c.check.severity.value} {c.check.code} {c.check.name} "
                     f"[{visible(c.tool)}]: {_plain_message(c.message, c.hint)}")
            items.append(Item(c.check.severity.value, command(c.check.severity.value, props,
                                                              _message(c.message, c.hint)),
                              plain, where, f"{c.check.code} {c.check.name}", c.tool, c.message))
    left_out = write_items(items, stream)
    status = result.counts_by_status()
    totals = (f"{status['changed']} changed, {status['added']} added, "
              f"{status['removed']} removed, "
              f"{status['same-meaning']} same meaning, {status['identical']} identical")
    stream.write(f"schemalint diff: {totals}"
                 + (f"; {sum(left_out.values())} change(s) not annotated (see above)" if left_out else "") + "\n")
    append_summary(f"schemalint diff {visible(result.old_label)} -> {visible(result.new_label)}", totals, items)
