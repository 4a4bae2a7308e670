"""One JSON document above the in-memory read limit, read as a stream of its top-level parts.

A registry export is often one JSON document holding every tool: a top-level array of tools, or
an object whose ``tools`` (or ``functions``, ``functionDeclarations`` ...) member is that array.
Above :func:`~schemalint.loaders.files.documents.read_limit` such a document is not read whole:
this module reads it in chunks of :data:`CHUNK_BYTES` and parses one *part* at a time with the
standard library's C scanner (``json.JSONDecoder.raw_decode``, the parser the in-memory route falls
back to, so the values are the same): each item of an array at the top level or in a member of the
top-level object, and each other member of the top-level object whole. What is held at once is the
buffer and the part being parsed, whatever the document's size.

The streaming JSON parsers we know (ijson, C backend ``yajl2_c``, which reads HAR archives in
``traffic/stream``) give values but no positions; a diagnostic needs the line and column of its
pointer, so each part keeps its text and where it starts (:class:`Part`), and
:mod:`schemalint.engine.locate` locates inside it.

A document of another shape (a top-level scalar, a part larger than the limit, a top-level
object that is itself a tool) cannot be streamed: it stays an ``SL000`` "above the limit"
diagnostic, which says why (:attr:`Scan.problem`).
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from schemalint.loaders.files.documents import ParseProblem, looks_like_tool_file, read_limit
from schemalint.model import escape_token

CHUNK_BYTES = 4 * 1024 * 1024
"""Bytes read from the file at a time."""

_WS = re.compile(r"[ \t\n\r]*")
"""JSON's whitespace (RFC 8259, section 2)."""


@dataclass
class Part:
    """One top-level part of a streamed document: an array item (``index`` set) or a member of the
    top-level object parsed whole (``index`` ``None``).

    ``key``: the member the part belongs to (``None``: an item of a top-level array);
    ``pointer``: its JSON pointer; ``text``: its JSON text; ``line``/``column``: where the text
    starts; ``at``: where the in-memory route locates ``pointer`` itself (a member's key, an
    item's first character), 1-based."""

    key: str | None
    index: int | None
    pointer: str
    value: Any
    text: str
    line: int
    column: int
    at: tuple[int, int]


@dataclass
class Scan:
    """What the first read of a streamed document found. ``problem``: why the document cannot be
    read (invalid JSON or UTF-8, a shape that cannot be streamed); ``looks``: it looks like a tool
    file (:func:`looks_like_tool_file`, on its name and text); ``skeleton``: the top-level object
    with every streamed array left empty (``None`` for a top-level array); ``anchors``: where the
    in-memory route locates the pointers above the parts (``""``, and each streamed array's
    member); ``items``: the number of array items."""

    problem: ParseProblem | None = None
    looks: bool = False
    blank: bool = False
    skeleton: dict[str, Any] | None = None
    anchors: dict[str, tuple[int, int]] = field(default_factory=dict)
    items: int = 0


class _Stop(Exception):
    """The document cannot be read further: ``problem`` says why."""

    def __init__(self, problem: ParseProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


class _Reader:
    """A window of the document's text: ``buf`` from text offset ``base``, read on demand; line and
    column of any offset at or after the last one asked for (counted once, in C)."""

    def __init__(self, path: str, limit: int) -> None:
        from schemalint.safe_read import open_regular

        self.handle = open_regular(path, None)
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.limit = limit
        self.buf = ""
        self.base = 0
        self.eof = False
        self.first = True
        self.bytes_read = 0
        self.line = 1
        self.line_start = 0
        self.counted = 0
        self.looks = False
        self.path = path

    def close(self) -> None:
        self.handle.close()

    def fill(self, keep: int) -> bool:
        """Read one more chunk, dropping the text before buffer offset ``keep``; ``False`` at the end."""
        if self.eof:
            return False
        self._count_to(self.base + keep)
        if keep:
            self.buf = self.buf[keep:]
            self.base += keep
        data = self.handle.read(CHUNK_BYTES)
        if self.first and data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
            self.bytes_read += 3
        self.first = False
        try:
            text = self.decoder.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            self._count_to(self.base + len(self.buf))
            prefix = data[: exc.start].decode("utf-8", errors="replace")
            line = self.line + prefix.count("\n")
            col = (len(prefix) - prefix.rfind("\n")) if "\n" in prefix else \
                self.base + len(self.buf) - self.line_start + len(prefix) + 1
            raise _Stop(ParseProblem(f"invalid UTF-8 (byte 0x{data[exc.start]:02x} at offset "
                                     f"{self.bytes_read + exc.start}); the file was not read", line, col)) from None
        self.bytes_read += len(data)
        if not data:
            self.eof = True
        if not self.looks:
            tail = self.buf[-64:]
            self.looks = looks_like_tool_file(self.path, tail + text)
        self.buf += text
        if len(self.buf) > self.limit + CHUNK_BYTES:
            raise _Stop(self.problem_at(0, f"one part of the document is above the {self.limit:,}-byte "
                                           "read limit: it cannot be streamed, and the file was not read"))
        return True

    def _count_to(self, offset: int) -> None:
        if offset <= self.counted:
            return
        buf, base = self.buf, self.base
        start, end = self.counted - base, offset - base
        n = buf.count("\n", start, end)
        if n:
            self.line += n
            self.line_start = base + buf.rfind("\n", start, end) + 1
        self.counted = offset

    def where(self, i: int) -> tuple[int, int]:
        """1-based line and column of buffer offset ``i`` (offsets asked for never go back)."""
        self._count_to(self.base + i)
        return self.line, self.base + i - self.line_start + 1

    def problem_at(self, i: int, message: str) -> ParseProblem:
        line, col = self.where(i)
        return ParseProblem(message, line, col)

    def skip(self, i: int) -> int:
        """The buffer offset of the first non-whitespace character from ``i`` (reading on), or
        ``len(buf)`` at the end of the text."""
        while True:
            i = _WS.match(self.buf, i).end()  # type: ignore[union-attr]
            if i < len(self.buf) or not self.fill(i):
                return i
            i = 0

    def value(self, i: int) -> tuple[Any, int, int]:
        """Parse the JSON value at buffer offset ``i``: ``(value, start, end)`` as buffer offsets
        (the buffer may have been refilled: ``start`` is where the value now starts)."""
        decode = _DECODER.raw_decode
        while True:
            try:
                value, end = decode(self.buf, i)
            except json.JSONDecodeError as exc:
                near_end = exc.pos >= len(self.buf) - 64 or exc.msg.startswith("Unterminated string")
                if near_end and self.fill(i):
                    i = 0
                    continue
                raise _Stop(self.problem_at(exc.pos, f"invalid JSON: {exc.msg}")) from None
            except RecursionError:
                raise _Stop(self.problem_at(i, "nested too deeply to be streamed; the file was not read")) from None
            except ValueError as exc:  # an integer beyond Python's int/str conversion limit
                raise _Stop(self.problem_at(i, f"invalid JSON: {exc}")) from None
            if end >= len(self.buf) and self.fill(i):  # a number cut by the chunk's end
                i = 0
                continue
            return value, i, end


_DECODER = json.JSONDecoder()


def iter_parts(path: str, scan: Scan | None = None) -> Iterator[Part]:
    """The parts of the JSON document ``path`` in document order (see the module docstring).
    With ``scan`` (a fresh :class:`Scan`), record what a first read finds there; a problem ends the
    parts (and is recorded) instead of raising. Raises ``OSError`` when the file cannot be opened."""
    reader = _Reader(path, read_limit())
    record = scan if scan is not None else Scan()
    try:
        yield from _parts(reader, record)
    except _Stop as stop:
        record.problem = stop.problem
        if scan is None:
            raise
    finally:
        if scan is not None:
            scan.looks = scan.looks or reader.looks
        reader.close()


def _parts(r: _Reader, scan: Scan) -> Iterator[Part]:
    i = r.skip(0)
    if i >= len(r.buf):
        scan.blank = True
        return
    head = r.buf[i]
    scan.anchors[""] = r.where(i)
    if head == "[":
        i = r.skip((yield from _items(r, i, None, "", scan)))
    elif head == "{":
        skeleton: dict[str, Any] = {}
        scan.skeleton = skeleton
        i = r.skip(i + 1)
        if i < len(r.buf) and r.buf[i] == "}":
            i += 1
        else:
            while True:
                if i >= len(r.buf) or r.buf[i] != '"':
                    raise _Stop(r.problem_at(i, "invalid JSON: Expecting property name enclosed in double quotes"))
                key, kstart, kend = r.value(i)
                at = r.where(kstart)
                i = r.skip(kend)
                if i >= len(r.buf) or r.buf[i] != ":":
                    raise _Stop(r.problem_at(i, "invalid JSON: Expecting ':' delimiter"))
                i = r.skip(i + 1)
                pointer = "/" + escape_token(key)
                if i < len(r.buf) and r.buf[i] == "[":
                    skeleton[key] = []
                    scan.anchors[pointer] = at
                    i = yield from _items(r, i, key, pointer, scan)
                else:
                    value, start, end = r.value(i)
                    skeleton[key] = value
                    yield Part(key, None, pointer, value, r.buf[start:end], *r.where(start), at)
                    i = end
                i = r.skip(i)
                if i < len(r.buf) and r.buf[i] == ",":
                    i = r.skip(i + 1)
                    continue
                if i < len(r.buf) and r.buf[i] == "}":
                    i += 1
                    break
                raise _Stop(r.problem_at(i, "invalid JSON: Expecting ',' delimiter"))
        i = r.skip(i)
    else:
        raise _Stop(r.problem_at(i, f"the document is above the {r.limit:,}-byte read limit and is not an array "
                                    "or an object, the shapes that can be streamed: not read"))
    if i < len(r.buf):
        raise _Stop(r.problem_at(i, f"invalid JSON: Extra data (a JSON Lines file above the {r.limit:,}-byte read "
                                    "limit is streamed when named .jsonl or .ndjson)"))


def _items(r: _Reader, i: int, key: str | None, pointer: str, scan: Scan) -> Generator[Part, None, int]:
    """The items of the array whose ``[`` is at buffer offset ``i``; returns the buffer offset after
    its ``]``."""
    i = r.skip(i + 1)
    index = 0
    if i < len(r.buf) and r.buf[i] == "]":
        return i + 1
    while True:
        if i >= len(r.buf):
            raise _Stop(r.problem_at(i, "invalid JSON: Expecting value"))
        value, start, end = r.value(i)
        line, col = r.where(start)
        yield Part(key, index, f"{pointer}/{index}", value, r.buf[start:end], line, col, (line, col))
        index += 1
        scan.items += 1
        i = r.skip(end)
        if i < len(r.buf) and r.buf[i] == ",":
            i = r.skip(i + 1)
            continue
        if i < len(r.buf) and r.buf[i] == "]":
            return i + 1
        raise _Stop(r.problem_at(i, "invalid JSON: Expecting ',' delimiter"))


def scan_document(path: str) -> Scan:
    """The first read of the streamed document ``path``: every part parsed and dropped (see
    :class:`Scan`). Never raises: a file that cannot be opened is a :attr:`Scan.problem`."""
    scan = Scan()
    try:
        for _ in iter_parts(path, scan):
            pass
    except OSError as exc:
        scan.problem = ParseProblem(f"cannot read file: {getattr(exc, 'reason', None) or exc.strerror or exc}")
    return scan
