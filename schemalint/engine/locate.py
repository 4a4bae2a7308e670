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

_SCAN = re.compile(r'[\s,:]*(?:("(?:[^"\\]|\\.)*")(\s*:)?|([{\[])|([}\]])|([^\s{}\[\]:,"]+))', re.S)
"""One JSON token after any whitespace, commas and colons: a string (group 1; with group 2 when a
colon follows, i.e. an object key), an opening bracket (3), a closing one (4) or a bare number or
literal (5)."""


def _prefixes(pointers: Iterable[str]) -> set[tuple[str, ...]]:
    wanted: set[tuple[str, ...]] = set()
    for p in set(pointers):
        try:
            tokens = tuple(split_pointer(p))
        except ValueError:
            continue
        for i in range(len(tokens) + 1):
            wanted.add(tokens[:i])
    return wanted


class _Trie:
    """The wanted paths as a tree: ``children`` by reference token; ``offset``: where the scan
    found the value at this path (``None`` until found)."""

    __slots__ = ("children", "offset")

    def __init__(self) -> None:
        self.children: dict[str, _Trie] = {}
        self.offset: int | None = None


def _split_all(pointers: Iterable[str]) -> dict[str, tuple[str, ...] | None]:
    """Each distinct pointer's reference tokens (``None`` for an invalid pointer)."""
    out: dict[str, tuple[str, ...] | None] = {}
    for p in pointers:
        if p not in out:
            try:
                out[p] = tuple(split_pointer(p))
            except ValueError:
                out[p] = None
    return out


def _trie(split: dict[str, tuple[str, ...] | None]) -> _Trie | None:
    """The trie of the valid pointers, or ``None`` when none is valid."""
    root = _Trie()
    valid = False
    for tokens in split.values():
        if tokens is None:
            continue
        valid = True
        node = root
        for tok in tokens:
            child = node.children.get(tok)
            if child is None:
                child = node.children[tok] = _Trie()
            node = child
    return root if valid else None


def _json_offsets(text: str, root: _Trie | None) -> None:
    """Set the ``offset`` of every node of ``root`` whose path exists in the JSON ``text`` (the
    start of its key in an object, of its value in an array or at the root)."""
    import json

    if root is None:
        return
    # Stack of frames [trie node or None (nothing wanted inside), is_object, next_index, pending_key]
    stack: list[list[Any]] = []
    pending_key_offset = 0
    raw_decode = json.JSONDecoder().raw_decode
    match = _SCAN.match
    loads = json.loads
    pos = 0
    while True:
        m = match(text, pos)
        if m is None:
            break
        kind = m.lastindex or 0
        pos = m.end()
        if kind == 2:  # "key":
            key = m.group(1)
            if "\\" in key:
                try:
                    key = loads(key)
                except ValueError:
                    key = key[1:-1]
            else:
                key = key[1:-1]
            if stack:
                stack[-1][3] = key
            pending_key_offset = m.start(1)
            continue
        if kind == 4:  # } or ]
            if stack:
                stack.pop()
            continue
        # A value starts here (kind 1: string, 3: { or [, 5: number/literal): is it on the way to
        # a wanted pointer?
        start = m.start(kind)
        node: _Trie | None
        if stack:
            frame = stack[-1]
            parent = frame[0]
            if frame[1]:
                node = parent.children.get(frame[3]) if parent is not None else None
                voffset = pending_key_offset
            else:
                node = parent.children.get(str(frame[2])) if parent is not None else None
                frame[2] += 1
                voffset = start
        else:
            node, voffset, parent = root, start, root
        if node is not None and node.offset is None:
            node.offset = voffset
        if kind == 3 and (not node.children if node is not None else parent is not None):
            # Nothing wanted inside this container (a wanted one wanted for its start only, as a
            # tool object's findings are): skip it with the C decoder.
            try:
                pos = raw_decode(text, start)[1]
                continue
            except (ValueError, RecursionError):
                pass  # tokenize it instead
        if kind == 3:
            is_obj = text[start] == "{"
            stack.append([node, is_obj, 0, None])


def _line_cols(text: str, offsets: Iterable[int]) -> dict[int, tuple[int, int]]:
    """1-based (line, column) of each offset, counting newlines in C (sorted, incrementally).

    Each stretch of text is looked at once, so a minified file (one line) with many findings
    costs its length, not its length times the number of findings.
    """
    out: dict[int, tuple[int, int]] = {}
    line, last, line_start = 1, 0, 0
    for off in sorted(set(offsets)):
        newlines = text.count("\n", last, off)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", last, off) + 1
        last = off
        out[off] = (line, off - line_start + 1)
    return out


def yaml_positions(text: str, pointers: Iterable[str]) -> dict[tuple[str, ...], tuple[int, int]]:
    """Line and column (1-based) of the nodes at ``pointers`` in a YAML ``text``."""
    import yaml

    from schemalint.loaders.files.documents import SMALL_YAML, _with_big_stack

    wanted = _prefixes(pointers)
    found: dict[tuple[str, ...], tuple[int, int]] = {}
    try:
        # libyaml's composer when PyYAML has it, as the loader that parsed the document
        # (documents.py): the pure-Python one took half of `check` on a tree of YAML files
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        if len(text) < SMALL_YAML:
            node = yaml.compose(text, Loader=loader)
        else:  # composing recurses once per level: on a big stack, as the document was parsed
            node = _with_big_stack(lambda: yaml.compose(text, Loader=loader))
    except (yaml.YAMLError, RecursionError):
        return found
    return node_positions(node, wanted)


def node_positions(node: Any, wanted: Any) -> dict[tuple[str, ...], tuple[int, int]]:
    """Line and column (1-based) of each node of a composed YAML ``node`` (PyYAML's node graph)
    whose path is in ``wanted`` (:func:`_prefixes`); a mapping value is placed at its key."""
    import yaml

    found: dict[tuple[str, ...], tuple[int, int]] = {}
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
    split = _split_all(pointers)
    result: dict[str, tuple[int, int]] = {}
    if kind != "yaml":
        return _json_locate(text, split, first_line)
    pos = yaml_positions(text, split)
    for p, found_tokens in split.items():
        tokens = found_tokens or ()
        for i in range(len(tokens), -1, -1):
            if tokens[:i] in pos:
                line, col = pos[tokens[:i]]
                if first_line is not None:
                    line += first_line - 1
                result[p] = (line, col)
                break
    return result


def _json_locate(text: str, split: dict[str, tuple[str, ...] | None],
                 first_line: int | None) -> dict[str, tuple[int, int]]:
    """:func:`locate` in a JSON ``text``: one scan sets the offset of each wanted path found
    (:func:`_json_offsets`), and each pointer takes that of the deepest node of its path found."""
    root = _trie(split)
    _json_offsets(text, root)
    result: dict[str, tuple[int, int]] = {}
    if root is None or root.offset is None:
        return result  # no value at all: not even the whole document is found
    deepest: dict[str, int] = {}
    for p, tokens in split.items():
        offset = root.offset
        if tokens:
            node: _Trie | None = root
            for tok in tokens:
                node = node.children.get(tok) if node is not None else None
                if node is None:
                    break
                if node.offset is not None:
                    offset = node.offset
        deepest[p] = offset
    line_cols = _line_cols(text, deepest.values())
    shift = first_line - 1 if first_line is not None else 0
    for p, offset in deepest.items():
        line, col = line_cols[offset]
        result[p] = (line + shift, col)
    return result
