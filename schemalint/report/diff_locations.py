"""Where a diff change is in the files a reviewer has: the file and line of each change.

Shared by the diff reporters (github, sarif, text) so a change is located the same way in every
format. A file is read once per report, however many changes it holds.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.diff.result import Change, ToolDiff


class ChangeLocator:
    """Locates changes for one report: ``locator(tool, change) -> (file, line)``.

    ``file`` is :attr:`Change.file` when it is a file on disk (``None`` otherwise, e.g. the
    ``REV:PATH`` of a side read with git, or an MCP server's command); ``line`` is the 1-based
    line of the changed key (RFC 6901 pointer of the side's tool plus the change's pointer),
    else of the tool, else ``None``. JSON Lines files and files with syntax problems give the
    tool's line. Never raises for unreadable files (they give ``(None, None)``).
    """

    def __init__(self) -> None:
        self._documents: dict[str, Any] = {}

    def _document(self, file: str) -> Any:
        if file not in self._documents:
            from schemalint.loaders.files.documents import read_document

            self._documents[file] = read_document(file)
        return self._documents[file]

    def __call__(self, tool: ToolDiff, change: Change) -> tuple[str | None, int | None]:
        side = tool.new if tool.new is not None and change.file == tool.new.origin.file else tool.old
        file = change.file
        if side is None or file is None or not os.path.isfile(file):
            return None, None
        from schemalint.engine.locate import locate

        doc = self._document(file)
        if doc.kind == "jsonl" or doc.problems:
            return file, side.origin.line
        pointer = side.origin.pointer + change.pointer
        pos = locate(doc.text, doc.kind, [pointer, side.origin.pointer])
        line = (pos.get(pointer) or pos.get(side.origin.pointer) or (None, None))[0]
        return file, line


def working_tree_path(file: str | None) -> str | None:
    """The working-tree path named by a side's file: ``file`` itself, or ``PATH`` of a git
    ``REV:PATH`` label when that path is relative (so a removed tool still points at the file
    that held it); ``None`` for anything else (an MCP server command, an absolute git label)."""
    if not file:
        return None
    if os.path.exists(file):
        return file
    rev, sep, path = file.partition(":")
    if sep and rev and path and not os.path.isabs(path) and " " not in rev:
        return path
    return None
