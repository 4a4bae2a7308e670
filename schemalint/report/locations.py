"""Where a diff's tools and changes are written: file and line, for the text and github reporters.

A side of a diff is a file in the working tree, a file at a git revision (``REV:PATH``, read
with ``git cat-file``), a snapshot, or a Python source (``module:attr``, located at the module
file and the line of its ``class``/``def``, :attr:`schemalint.model.Origin.path`). Texts are
read once per file and located once per file for all the pointers asked (a
:class:`Locator` per report). Nothing here raises: an unreadable side has no line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.diff.result import Change, ToolDiff
    from schemalint.model import Tool


def _kind(path: str) -> str:
    lower = path.lower()
    if lower.endswith((".yaml", ".yml")):
        return "yaml"
    if lower.endswith(".jsonl"):
        return "jsonl"
    return "json"


class Locator:
    """Lines of tools and changes in the files of one diff (texts cached per file)."""

    def __init__(self) -> None:
        self._texts: dict[str, str | None] = {}

    def _text(self, file: str) -> str | None:
        if file in self._texts:
            return self._texts[file]
        text: str | None = None
        if os.path.isfile(file):
            from schemalint.loaders.files.documents import read_document

            doc = read_document(file)
            text = None if doc.problems else doc.text
        elif ":" in file and not os.path.exists(file):
            try:
                from schemalint.loaders.git.commands import cat_files

                [blob] = cat_files([file], os.getcwd())
                text = blob.decode("utf-8")
            except Exception:  # not a revision path, not in a repository, not UTF-8: no line
                text = None
        self._texts[file] = text
        return text

    def lines(self, file: str, pointers: Iterable[str]) -> dict[str, int]:
        """``{pointer: line}`` for the pointers found (longest existing prefix) in ``file``."""
        text = self._text(file)
        wanted = list(pointers)
        if text is None or not wanted or _kind(file) == "jsonl":
            return {}
        from schemalint.engine.locate import locate

        return {p: pos[0] for p, pos in locate(text, _kind(file), wanted).items()}

    def tool_site(self, tool: Tool) -> tuple[str, int | None]:
        """``(file, line)`` of one side's definition of a tool (``line`` ``None`` when unknown)."""
        origin = tool.origin
        if origin.path:
            return origin.path, origin.path_line
        if origin.line is not None:  # JSON Lines: the line of the document
            return origin.file, origin.line
        return origin.file, self.lines(origin.file, [origin.pointer]).get(origin.pointer)

    def change_site(self, tool: ToolDiff, change: Change) -> tuple[str | None, int | None]:
        """``(file, line)`` of ``change``: the changed key's line in the side it points into (the
        new one, the old one for something removed), else that side's tool line."""
        side = tool.new if tool.new is not None and change.file == tool.new.origin.file else tool.old
        if side is None:
            return change.file, None
        file, line = self.tool_site(side)
        if side.origin.path or side.origin.line is not None:
            return file, line
        pointer = side.origin.pointer + change.pointer
        return file, self.lines(file, [pointer, side.origin.pointer]).get(pointer, line)
