"""Where a diff change is in the files a reviewer has: the file and line of each change.

Shared by the diff reporters (github, sarif, text) so a change is located the same way in every
format. A file is read once per report, however many changes it holds.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.diff.result import Change, ToolDiff
    from schemalint.model import Tool


class ChangeLocator:
    """Locates changes for one report: ``locator(tool, change) -> (file, line)``.

    ``file`` is :attr:`Change.file` when it is a file on disk (``None`` otherwise, e.g. the
    ``REV:PATH`` of a side read with git, or an MCP server's command); ``line`` is the 1-based
    line of the changed key (RFC 6901 pointer of the side's tool plus the change's pointer),
    else of the tool, else ``None``. JSON Lines files and files with syntax problems give the
    tool's line. A Python source (``module:attr``) gives its module file and the line of the
    tool's ``class``/``def`` (:attr:`~schemalint.model.Origin.path`). Never raises for unreadable
    files (they give ``(None, None)``). :meth:`tool_site` and :meth:`change_site` also name the
    sides a reader has but code scanning does not (``REV:PATH``), for the text report.
    """

    def __init__(self) -> None:
        self._documents: dict[str, Any] = {}
        self._texts: dict[str, str | None] = {}

    def _document(self, file: str) -> Any:
        if file not in self._documents:
            from schemalint.loaders.files.documents import read_document

            self._documents[file] = read_document(file)
        return self._documents[file]

    def __call__(self, tool: ToolDiff, change: Change) -> tuple[str | None, int | None]:
        side = tool.new if tool.new is not None and change.file == tool.new.origin.file else tool.old
        if side is not None and side.origin.path and os.path.isfile(side.origin.path):
            return side.origin.path, side.origin.path_line  # a Python source: its module and def line
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

    def _revision_text(self, label: str) -> str | None:
        """The text of a ``REV:PATH`` side read with ``git cat-file`` (``None`` when it is not one)."""
        if label not in self._texts:
            text = None
            try:
                from schemalint.loaders.git.commands import cat_files

                [blob] = cat_files([label], os.getcwd())
                text = blob.decode("utf-8")
            except Exception:  # not a revision path, not in a repository, not UTF-8: no line
                text = None
            self._texts[label] = text
        return self._texts[label]

    def tool_site(self, tool: Tool) -> tuple[str, int | None]:
        """``(label, line)`` of one side's definition of a tool, for a reader (the text report):
        a Python source's module file and ``class``/``def`` line; a JSON Lines document's line; the
        line of the tool object in a file on disk or at a revision (``REV:PATH``, read with git);
        ``line`` is ``None`` when it cannot be found."""
        origin = tool.origin
        if origin.path:
            return origin.path, origin.path_line
        if origin.line is not None:
            return origin.file, origin.line
        return origin.file, self._line_in(origin.file, origin.pointer, origin.pointer)

    def change_site(self, tool: ToolDiff, change: Change) -> tuple[str | None, int | None]:
        """``(label, line)`` of ``change`` for a reader: :meth:`__call__` for files on disk, else the
        changed key's line in the revision's text (``REV:PATH``), else the tool's line."""
        file, line = self(tool, change)
        if file is not None:
            return file, line
        side = tool.new if tool.new is not None and change.file == tool.new.origin.file else tool.old
        if side is None:
            return change.file, None
        label, tool_line = self.tool_site(side)
        if side.origin.path or side.origin.line is not None:
            return label, tool_line
        return label, self._line_in(label, side.origin.pointer + change.pointer, side.origin.pointer)

    def _line_in(self, label: str, pointer: str, fallback: str) -> int | None:
        if os.path.isfile(label):
            doc = self._document(label)
            text, kind = (None, "") if doc.problems or doc.kind == "jsonl" else (doc.text, doc.kind)
        else:
            text = self._revision_text(label)
            kind = _kind(label)
        if text is None or kind == "jsonl":
            return None
        from schemalint.engine.locate import locate

        pos = locate(text, kind, [pointer, fallback])
        return (pos.get(pointer) or pos.get(fallback) or (None, None))[0]


def _kind(path: str) -> str:
    from schemalint.loaders.files.documents import kind_for

    return kind_for(path)


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
