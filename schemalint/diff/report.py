"""Output of ``schemalint diff``: ``text`` (for people), ``json`` (for programs), ``github``.

The JSON shape is ``{"version": 1, "tools": [...], "changes": [...], "summary": {...}}``
(:meth:`schemalint.diff.result.DiffResult.to_json`). The ``github`` format prints one
workflow command per change (``::error``/``::warning``/``::notice``, by severity), located
on the line of the changed key when the file is in the working tree.
"""

from __future__ import annotations

import os
from typing import IO

from schemalint.diff.result import Change, DiffResult, ToolDiff

FORMATS = ("text", "json", "github")

_STATUS_MARK = {"identical": "=", "same-meaning": "~", "changed": "*", "added": "+", "removed": "-"}


def render(result: DiffResult, fmt: str, stream: IO[str]) -> None:
    """Write ``result`` in format ``fmt`` (one of :data:`FORMATS`) to ``stream``."""
    if fmt == "json":
        from schemalint.report.json_report import dumps

        stream.write(dumps(result.to_json(), default=str) + "\n")
    elif fmt == "github":
        render_github(result, stream)
    else:
        render_text(result, stream)


def render_text(result: DiffResult, stream: IO[str]) -> None:
    """Readable report: one block per tool that is not identical, then a summary line. Text
    from the tools (names, pointers, messages quoting them) is made visible
    (:func:`schemalint.textsafe.visible`)."""
    from schemalint.textsafe import visible as v

    stream.write(f"schemalint diff {v(result.old_label)} -> {v(result.new_label)}\n")
    for tool in result.tools:
        if not tool.reported:
            continue
        stream.write(f"\n{_STATUS_MARK[tool.status]} {v(tool.name)}: {tool.status}\n")
        for c in tool.changes:
            stream.write(
                f"    {c.check.severity.value:<8} {c.check.code} {c.check.name}  {v(c.pointer or '/')}\n"
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


def _escape_data(text: str) -> str:
    from schemalint.report.github import escape_data

    return escape_data(text)


def _escape_property(text: str) -> str:
    from schemalint.report.github import escape_property

    return escape_property(text)


def _line_of(tool: ToolDiff, change: Change) -> tuple[str | None, int | None]:
    side = tool.new if tool.new is not None and change.file == tool.new.origin.file else tool.old
    file = change.file
    if side is None or file is None or not os.path.isfile(file):
        return None, None
    from schemalint.engine.locate import locate
    from schemalint.loaders.documents import read_document

    doc = read_document(file)
    if doc.kind == "jsonl" or doc.problems:
        return file, side.origin.line
    pointer = side.origin.pointer + change.pointer
    pos = locate(doc.text, doc.kind, [pointer, side.origin.pointer])
    line = (pos.get(pointer) or pos.get(side.origin.pointer) or (None, None))[0]
    return file, line


def render_github(result: DiffResult, stream: IO[str]) -> None:
    """GitHub Actions workflow commands, one per change."""
    level = {"error": "error", "warning": "warning", "info": "notice"}
    for tool in result.tools:
        for c in tool.changes:
            file, line = _line_of(tool, c)
            props = []
            if file:
                props.append(f"file={_escape_property(file)}")
                if line:
                    props.append(f"line={line}")
            props.append(f"title={_escape_property(f'{c.check.code} {c.check.name} ({c.tool})')}")
            from schemalint.textsafe import visible

            message = visible(c.message) + (f"\nhint: {visible(c.hint)}" if c.hint else "")
            stream.write(f"::{level[c.check.severity.value]} {','.join(props)}::{_escape_data(message)}\n")
    status = result.counts_by_status()
    stream.write(
        f"schemalint diff: {status['changed']} changed, {status['added']} added, "
        f"{status['removed']} removed, "
        f"{status['same-meaning']} same meaning, {status['identical']} identical\n"
    )
