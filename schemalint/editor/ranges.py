"""Where a diagnostic sits in an editor buffer: the span of the key or value its pointer names.

The engine locates a diagnostic at the 1-based line and column where its JSON pointer's last
existing token starts (:mod:`schemalint.engine.locate`). An editor underlines a span, so the span
here runs from that start to the end of the token there: a JSON string with its quotes (escapes
followed), a number or literal, or, in YAML, the plain scalar or key up to its colon.
LSP positions count UTF-16 code units (LSP 3.17, "Position"), so columns are converted too.
"""

from __future__ import annotations


def _token_end(line: str, start: int) -> int:
    """The index just past the token that starts at ``start`` in ``line`` (code points)."""
    if start >= len(line):
        return len(line)
    first = line[start]
    if first in "\"'":
        i = start + 1
        while i < len(line):
            if line[i] == "\\" and first == '"':
                i += 2
                continue
            if line[i] == first:
                return i + 1
            i += 1
        return len(line)
    if first in "{[":
        return start + 1
    i = start
    while i < len(line):
        ch = line[i]
        if ch in ",}]\r\n" or (ch == ":" and line[i + 1:i + 2] in ("", " ", "\t")):
            break
        if ch == "#" and line[i - 1] in " \t":  # a YAML comment
            break
        i += 1
    return start + len(line[start:i].rstrip())


def utf16_column(line: str, index: int) -> int:
    """The UTF-16 offset of code point ``index`` in ``line`` (LSP's default position encoding)."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in line[:index])


def span(text: str | list[str], line: int | None, column: int | None) -> tuple[int, int, int, int]:
    """``(start line, start character, end line, end character)``, 0-based in UTF-16 units, of the
    token at the 1-based ``line``/``column`` of ``text`` (the buffer, or its lines split once for
    many diagnostics); a diagnostic without a place (``None``) spans the first line. A place past
    the end of the text is clamped to its last line."""
    lines = (text.splitlines() if isinstance(text, str) else text) or [""]
    if line is None:
        return 0, 0, 0, utf16_column(lines[0], len(lines[0]))
    row = min(max(line - 1, 0), len(lines) - 1)
    content = lines[row]
    start = min(max((column or 1) - 1, 0), len(content))
    end = _token_end(content, start)
    if end <= start:
        end = len(content)
    return row, utf16_column(content, start), row, utf16_column(content, end)



class Positions:
    """LSP positions of code-point offsets into one text: its line starts are found once (LSP
    lines end at ``\\n``, ``\\r\\n`` or ``\\r``), so each offset costs a binary search."""

    def __init__(self, text: str) -> None:
        import re

        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def at(self, offset: int) -> tuple[int, int]:
        """``(line, character)``, 0-based in UTF-16 units, of ``offset`` (clamped to the text)."""
        from bisect import bisect_right

        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        return line, utf16_column(self.text[start:offset], offset - start)
