"""GitHub Actions workflow commands: one annotation per diagnostic.

``::error file=F,line=L,col=C,title=CODE name::message`` (``warning`` for warnings,
``notice`` for info), which the Actions runner shows on the pull request's diff.
Property values escape ``%``, CR, LF, ``:`` and ``,``; the message escapes ``%``, CR
and LF (GitHub docs, "Workflow commands for GitHub Actions", 2024). A plain summary
line and any notes follow the annotations.
"""

from __future__ import annotations

import os
from typing import IO, Any

from schemalint.textsafe import visible

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


def annotation(d: Any) -> str:
    """The workflow command for one diagnostic."""
    props = []
    file = _file(d.file)
    if file and os.path.exists(d.file):
        props.append(f"file={escape_property(file)}")
        props.append(f"line={d.line or 1}")
        props.append(f"col={d.column or 1}")
    props.append(f"title={escape_property(f'{d.code} {d.name}')}")
    where = f"[{visible(d.tool)}] " if d.tool else ""
    if not (file and os.path.exists(d.file)) and d.file:
        where = f"{visible(d.file)}: " + where
    # Text from the tool file is made visible whole (its newlines too); the one line break
    # schemalint composes (before the hint) is escaped the workflow-command way.
    text = where + visible(d.message) + (f"\nhint: {visible(d.hint)}" if d.hint else "")
    return f"::{COMMANDS[d.severity.value]} {','.join(props)}::{escape_data(text)}"


def render(result: Any, stream: IO[str], **_: Any) -> None:
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
