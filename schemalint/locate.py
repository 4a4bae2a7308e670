"""Map JSON pointers to 1-based line and column in a source text.

Only run for files that have diagnostics to report, and once per file for all of
its pointers. A pointer that does not exist (e.g. a missing ``required`` keyword)
maps to its longest existing prefix, so a diagnostic always lands somewhere useful.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from schemalint.model import split_pointer

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)


def _prefixes(pointers: Iterable[str]) -> set[tuple[str, ...]]:
    wanted: set[tuple[str, ...]] = set()
    for p in pointers:
        try:
            tokens = tuple(split_pointer(p))
        except ValueError:
            continue
        for i in range(len(tokens) + 1):
            wanted.add(tokens[:i])
    return wanted


def json_offsets(text: str, pointers: Iterable[str]) -> dict[tuple[str, ...], int]:
    """Character offsets of the values at ``pointers`` (and their prefixes) in JSON ``text``.

    For an object member the offset is that of its key, which is where a reader
    looks. Scans the text once with a regular-expression tokenizer; never raises.
    """
    import json

    wanted = _prefixes(pointers)
    found: dict[tuple[str, ...], int] = {}
    # Stack of [path, is_object, next_index, pending_key]
    stack: list[list[Any]] = []
    path: tuple[str, ...] = ()
    expecting_key = False
    pending_key_offset = 0
    decoder = json.JSONDecoder()
    pos = 0
    while True:
        m = _TOKEN.search(text, pos)
        if m is None:
            break
        tok = m.group()
        start = m.start()
        pos = m.end()
        if expecting_key and tok.startswith('"'):
            try:
                key = json.loads(tok)
            except ValueError:
                key = tok[1:-1]
            stack[-1][3] = key
            pending_key_offset = start
            expecting_key = False
            continue
        if tok == ":":
            continue
        if tok == ",":
            if stack and stack[-1][1]:
                expecting_key = True
            elif stack:
                stack[-1][2] += 1
            continue
        if tok in "}]":
            if stack:
                stack.pop()
            expecting_key = False
            continue
        # A value starts here: compute its path.
        if stack:
            frame = stack[-1]
            if frame[1]:
                vpath = (*frame[0], frame[3])
                voffset = pending_key_offset
            else:
                vpath = (*frame[0], str(frame[2]))
                voffset = start
        else:
            vpath, voffset = (), start
        if vpath in wanted and vpath not in found:
            found[vpath] = voffset
        elif tok in "{[" and vpath not in wanted:
            # Nothing wanted inside this container: skip it with the C decoder.
            try:
                pos = decoder.raw_decode(text, start)[1]
                continue
            except (ValueError, RecursionError):
                pass  # tokenize it instead
        if tok in "{[":
            is_obj = tok == "{"
            stack.append([vpath, is_obj, 0, None])
            expecting_key = is_obj
        path = vpath
    del path
    return found


def _line_col(text: str, offset: int, line_starts: list[int]) -> tuple[int, int]:
    import bisect

    idx = bisect.bisect_right(line_starts, offset) - 1
    return idx + 1, offset - line_starts[idx] + 1


def yaml_positions(text: str, pointers: Iterable[str]) -> dict[tuple[str, ...], tuple[int, int]]:
    """Line and column (1-based) of the nodes at ``pointers`` in a YAML ``text``."""
    import yaml

    wanted = _prefixes(pointers)
    found: dict[tuple[str, ...], tuple[int, int]] = {}
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return found
    stack: list[tuple[Any, tuple[str, ...], Any]] = [(node, (), None)]
    while stack:
        n, p, mark = stack.pop()
        if n is None or p not in wanted:
            continue
        m = mark or n.start_mark
        found[p] = (m.line + 1, m.column + 1)
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.append((v, (*p, str(k.value)), k.start_mark))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                stack.append((v, (*p, str(i)), None))
    return found


def locate(text: str, kind: str, pointers: Iterable[str], first_line: int | None = None) -> dict[str, tuple[int, int]]:
    """Return ``{pointer: (line, column)}`` for every pointer (longest existing prefix).

    ``kind`` is ``json`` or ``yaml``; for one line of a JSON Lines file pass that
    line's text as ``text`` and its number as ``first_line``.
    """
    pointers = list(pointers)
    result: dict[str, tuple[int, int]] = {}
    if kind == "yaml":
        pos = yaml_positions(text, pointers)
    else:
        offsets = json_offsets(text, pointers)
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        pos = {k: _line_col(text, v, starts) for k, v in offsets.items()}
    for p in pointers:
        try:
            tokens = tuple(split_pointer(p))
        except ValueError:
            tokens = ()
        for i in range(len(tokens), -1, -1):
            if tokens[:i] in pos:
                line, col = pos[tokens[:i]]
                if first_line is not None:
                    line += first_line - 1
                result[p] = (line, col)
                break
    return result
