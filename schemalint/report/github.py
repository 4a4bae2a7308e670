"""GitHub Actions workflow commands: one annotation per diagnostic (``check``) or change (``diff``).

``::error file=F,line=L,col=C,title=CODE name::message`` (``warning`` for warnings,
``notice`` for info), which the Actions runner shows on the pull request's diff; a diff
change is located on the line of the changed key when the file is in the working tree.
Property values escape ``%``, CR, LF, ``:`` and ``,``; the message escapes ``%``, CR
and LF (GitHub docs, "Workflow commands for GitHub Actions", 2024). A plain summary
line and any notes follow the annotations.
"""

from __future__ import annotations

import os
from typing import IO, TYPE_CHECKING

from schemalint.textsafe import visible

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.diff.result import Change, DiffResult, ToolDiff
    from schemalint.model import Diagnostic

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


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
    return command(d.severity.value, props, where + _message(d.message, d.hint))


def _message(message: str, hint: str | None) -> str:
    # Text from the tool file is made visible whole (its newlines too); the one line break
    # schemalint composes (before the hint) is escaped the workflow-command way.
    return visible(message) + (f"\nhint: {visible(hint)}" if hint else "")


def render(result: CheckResult, stream: IO[str], **_: object) -> None:
    """Write one annotation per diagnostic, then a summary line and the notes."""
    for d in result.diagnostics:
        stream.write(annotation(d) + "\n")
    by_sev: dict[str, int] = {}
    for d in result.diagnostics:
        by_sev[d.severity.value] = by_sev.get(d.severity.value, 0) + 1
    detail = ", ".join(f"{n} {s}" for s, n in sorted(by_sev.items()))
    stream.write(f"schemalint: {result.files} file(s), {result.tools} tool(s), "
                 f"{len(result.diagnostics)} diagnostic(s)" + (f" ({detail})" if detail else "") + "\n")
    stale = sum(e.count for e in getattr(result, "stale", ()))
    if stale:
        stream.write(f"::notice title=schemalint baseline::{stale} finding(s) recorded in "
                     f"{escape_data(str(result.baseline_path))} no longer occur; regenerate the baseline "
                     "to shrink it\n")
    for note in result.notes:
        stream.write(f"note: {escape_data(visible(note))}\n")


def _line_of(tool: ToolDiff, change: Change) -> tuple[str | None, int | None]:
    """The file and line of ``change`` (the changed key's line when the file can be read)."""
    side = tool.new if tool.new is not None and change.file == tool.new.origin.file else tool.old
    file = change.file
    if side is None or file is None or not os.path.isfile(file):
        return None, None
    from schemalint.engine.locate import locate
    from schemalint.loaders.files.documents import read_document

    doc = read_document(file)
    if doc.kind == "jsonl" or doc.problems:
        return file, side.origin.line
    pointer = side.origin.pointer + change.pointer
    pos = locate(doc.text, doc.kind, [pointer, side.origin.pointer])
    line = (pos.get(pointer) or pos.get(side.origin.pointer) or (None, None))[0]
    return file, line


def render_diff(result: DiffResult, stream: IO[str]) -> None:
    """One workflow command per change of a diff, then a summary line."""
    for tool in result.tools:
        for c in tool.changes:
            file, line = _line_of(tool, c)
            props = []
            if file:
                props.append(f"file={escape_property(file)}")
                if line:
                    props.append(f"line={line}")
            props.append(f"title={escape_property(f'{c.check.code} {c.check.name} ({c.tool})')}")
            stream.write(command(c.check.severity.value, props, _message(c.message, c.hint)) + "\n")
    status = result.counts_by_status()
    stream.write(
        f"schemalint diff: {status['changed']} changed, {status['added']} added, "
        f"{status['removed']} removed, "
        f"{status['same-meaning']} same meaning, {status['identical']} identical\n"
    )
