"""JSON Patch operations applied to JSON text in place: only the spans the operations touch change.

:func:`text_edits` locates each operation's member or element in the text (a scan of the text into
spans: where each value, key and container starts and ends; comments of JSON-with-comments files
skipped) and turns it into a :class:`TextEdit` on the original text: a removed member takes its
separator with it, an added member copies the separator, indentation and key/value spacing of its
neighbours, a replaced value is written in the document's style (indented like its container, or
on one line where the container is on one line). Every line the operations do not touch stays
byte-identical, and so do the line endings (``\\r\\n`` kept) and the trailing newline.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from schemalint.model import split_pointer
from schemalint.rules.fixes import Op, Taken, parent


class FixError(Exception):
    """The text cannot be edited as asked (it does not parse as the spans scanner reads JSON, or an
    operation names no place in it); the file is left as it is."""


@dataclass(frozen=True, order=True)
class TextEdit:
    """Replace ``text[start:end]`` with ``new_text`` (offsets in code points of the original text)."""

    start: int
    end: int
    new_text: str


@dataclass
class Node:
    """A JSON value's span ``[start, end)``; containers keep their members or elements:
    ``members`` is ``[(key, key_start, value)]`` for an object, ``[(None, start, value)]`` for an array."""

    start: int
    end: int
    kind: str  # "object", "array" or "scalar"
    members: list[tuple[str | None, int, Node]] = field(default_factory=list)

    def child(self, token: str) -> tuple[int, Node] | None:
        """``(index, node)`` of member ``token`` (a key, or an array index), or ``None``."""
        if self.kind == "object":
            found = None
            for i, (key, _, value) in enumerate(self.members):
                if key == token:
                    found = (i, value)  # the last duplicate wins, as in json.loads
            return found
        if self.kind == "array" and token.isdigit() and int(token) < len(self.members):
            return int(token), self.members[int(token)][2]
        return None


_TOKEN = re.compile(
    r'\s+|//[^\n]*|/\*.*?\*/|"(?:[^"\\\n]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"/]+', re.S)
MAX_DEPTH = 2_000


def scan(text: str, start: int = 0, end: int | None = None) -> Node:
    """The span tree of the one JSON value in ``text[start:end]``. Raises :class:`FixError` when the
    text is not one JSON value (comments allowed) or nests deeper than :data:`MAX_DEPTH`."""
    stop = len(text) if end is None else end
    tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(text, start, stop)
              if not (m.group()[0].isspace() or m.group().startswith(("//", "/*")))]
    pos = 0

    def value(depth: int) -> Node:
        nonlocal pos
        if depth > MAX_DEPTH:
            raise FixError("nested too deeply to edit")
        if pos >= len(tokens):
            raise FixError("unexpected end of the text")
        at, tok = tokens[pos]
        pos += 1
        if tok in "{[":
            closer = "}" if tok == "{" else "]"
            node = Node(at, at, "object" if tok == "{" else "array")
            while True:
                if pos >= len(tokens):
                    raise FixError("unclosed " + node.kind)
                at2, tok2 = tokens[pos]
                if tok2 == closer:
                    pos += 1
                    node.end = at2 + 1
                    return node
                if node.members:
                    if tok2 != ",":
                        raise FixError(f"expected ',' at offset {at2}")
                    pos += 1
                    at2, tok2 = tokens[pos] if pos < len(tokens) else (at2, "")
                    if tok2 == closer:  # a trailing comma (JSON with comments allows it)
                        continue
                if node.kind == "object":
                    if not tok2.startswith('"'):
                        raise FixError(f"expected a key at offset {at2}")
                    key = json.loads(tok2)
                    pos += 1
                    if pos >= len(tokens) or tokens[pos][1] != ":":
                        raise FixError(f"expected ':' at offset {at2}")
                    pos += 1
                    node.members.append((key, at2, value(depth + 1)))
                else:
                    node.members.append((None, at2, value(depth + 1)))
        if tok in "}],:":
            raise FixError(f"unexpected {tok!r} at offset {at}")
        return Node(at, at + len(tok), "scalar")

    root = value(0)
    if pos != len(tokens):
        raise FixError(f"text after the JSON value at offset {tokens[pos][0]}")
    return root


def _find(root: Node, pointer: str) -> Node | None:
    node: Node | None = root
    for token in split_pointer(pointer):
        if node is None:
            return None
        found = node.child(token)
        node = None if found is None else found[1]
    return node


@dataclass
class _Style:
    newline: str
    unit: str
    colon: str
    comma: str  # the separator between members on one line
    one_line: bool
    #: ``(kind, height) -> written on one line`` for the containers of the document (kind
    #: ``"object"``/``"array"``; height 1: members all scalars, 2: containers of height 1 at most...),
    #: by majority: how a new value's containers are laid out (:func:`_layout`).
    layout: dict[tuple[str, int], bool] = field(default_factory=dict)


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _indent_at(text: str, at: int) -> str:
    start = _line_start(text, at)
    i = start
    while i < at and text[i] in " \t":
        i += 1
    return text[start:i]


def _style(text: str, root: Node, one_line: bool, newline: str | None) -> _Style:
    if newline is None:
        newline = "\r\n" if "\r\n" in text else "\n"
    colon, comma, unit = ": ", ", ", "  "
    stack = [root]
    found_colon = found_unit = False
    while stack and not (found_colon and found_unit):
        node = stack.pop()
        if node.kind == "object" and node.members and not found_colon:
            key_start = node.members[0][1]
            key_end = key_start + len(json.dumps(node.members[0][0], ensure_ascii=False))
            between = text[key_end:node.members[0][2].start]
            if between.strip() == ":":
                colon, found_colon = between.replace("\n", " ").replace("\r", ""), True
        if node.kind != "scalar" and node.members and not found_unit:
            outer, inner = _indent_at(text, node.start), _indent_at(text, node.members[0][1])
            if "\n" in text[node.start:node.members[0][1]] and inner.startswith(outer) and len(inner) > len(outer):
                unit, found_unit = inner[len(outer):], True
        if node.kind != "scalar" and len(node.members) > 1:
            between = text[node.members[0][2].end:node.members[1][1]]
            if "\n" not in between and between.strip() == ",":
                comma = between
        stack.extend(reversed([m[2] for m in node.members]))
    return _Style(newline, unit, colon, comma, one_line, {} if one_line else _layout(text, root))


def _layout(text: str, root: Node) -> dict[tuple[str, int], bool]:
    """``(kind, height) -> True`` where most non-empty containers of that kind and height are
    written on one line in ``text`` (``["integer", "null"]`` in a file that spreads objects over
    lines), ``False`` where most are spread; heights the text has no container of are absent.
    Iterative: any depth."""
    order: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(m[2] for m in node.members)
    height: dict[int, int] = {}
    votes: dict[tuple[str, int], list[int]] = {}
    for node in reversed(order):  # every child before its parent
        if node.kind == "scalar":
            height[id(node)] = 0
            continue
        h = height[id(node)] = 1 + max((height[id(m[2])] for m in node.members), default=0)
        if node.members:
            vote = votes.setdefault((node.kind, h), [0, 0])
            vote[0 if "\n" not in text[node.start:node.end] else 1] += 1
    return {key: one > spread for key, (one, spread) in votes.items()}


def _value_height(value: Any) -> int:
    """0 for a scalar, else 1 + the greatest height of the members (a fix's value: small)."""
    members = list(value.values()) if isinstance(value, dict) else value if isinstance(value, list) else None
    if members is None:
        return 0
    return 1 + max((_value_height(m) for m in members), default=0)


def _dump(value: Any, style: _Style, indent: str, one_line: bool) -> str:
    """``value`` as JSON text in the document's style: on one line when asked (a one-line container,
    a JSON Lines record), else spread over lines indented from ``indent`` by the document's unit,
    each container inside on one line where the document writes containers of its kind and
    height on one line (:attr:`_Style.layout`)."""
    if one_line or style.one_line or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False, separators=(style.comma, style.colon))
    kind = "object" if isinstance(value, dict) else "array"
    if style.layout.get((kind, _value_height(value))):
        return json.dumps(value, ensure_ascii=False, separators=(style.comma, style.colon))
    inner = indent + style.unit
    if isinstance(value, dict):
        parts = [_key_text(str(k)) + style.colon + _dump(v, style, inner, False) for k, v in value.items()]
        opener, closer = "{", "}"
    else:
        parts = [_dump(v, style, inner, False) for v in value]
        opener, closer = "[", "]"
    sep = "," + style.newline + inner
    return opener + style.newline + inner + sep.join(parts) + style.newline + indent + closer


def _key_text(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def text_edits(text: str, ops: Sequence[Op], *, start: int = 0, end: int | None = None,
               one_line: bool = False, newline: str | None = None) -> list[TextEdit]:
    """The edits of ``text`` that apply ``ops`` to the JSON value in ``text[start:end]`` (offsets of
    the whole ``text``), sorted, never overlapping. ``one_line``: the value must stay on one line (a
    JSON Lines record). ``newline``: the text's line ending, when the caller knows it (else looked up).
    An operation under a path another operation removes or replaces, or a
    repeat of an operation, is dropped (the next round of ``--fix`` sees it again). Raises
    :class:`FixError` when the text does not scan or an operation names no place in it."""
    root = scan(text, start, end)
    style = _style(text, root, one_line, newline)
    taken = Taken()
    chosen: list[Op] = []
    for op in ops:
        if op.path in taken.paths or any(a in taken.paths for a in Taken._ancestors(op.path)):
            continue
        if op.op in ("remove", "replace"):
            taken.add(op.path)
        chosen.append(op)
    edits: list[TextEdit] = []
    groups: dict[str, list[Op]] = {}
    for op in chosen:
        if op.op == "replace":
            node = _find(root, op.path)
            if node is None:
                raise FixError(f"{op.path}: nothing to replace")
            # One line where the value's container is on one line; else the document's layout decides.
            holder = _find(root, parent(op.path)[0]) if op.path else None
            span = text[holder.start:holder.end] if holder is not None else text[_line_start(text, node.start):node.end]
            container_one_line = "\n" not in span or one_line
            edits.append(TextEdit(node.start, node.end,
                                  _dump(op.value, style, _indent_at(text, node.start), container_one_line)))
        elif op.op in ("remove", "add"):
            if not op.path:
                raise FixError("cannot add or remove the whole document")
            groups.setdefault(parent(op.path)[0], []).append(op)
        else:
            raise FixError(f"unknown operation {op.op!r}")
    for where, group in groups.items():
        holder = _find(root, where)
        if holder is None or holder.kind == "scalar":
            raise FixError(f"{where or '/'}: no object or array there")
        edits.extend(_container_edits(text, holder, group, style))
    edits.sort()
    for a, b in pairwise(edits):
        if b.start < a.end:
            raise FixError("overlapping edits")
    return edits


def _container_edits(text: str, holder: Node, ops: list[Op], style: _Style) -> list[TextEdit]:
    members = holder.members
    removed: set[int] = set()
    added: list[tuple[str | None, Any]] = []
    for op in ops:
        token = parent(op.path)[1]
        if op.op == "remove":
            found = holder.child(token)
            if found is None:
                raise FixError(f"{op.path}: nothing to remove")
            removed.add(found[0])
        elif holder.kind == "object":
            if holder.child(token) is not None:
                raise FixError(f"{op.path}: already present (use replace)")
            added.append((token, op.value))
        else:
            if token != "-":
                raise FixError(f"{op.path}: only appending (-) to an array is supported")
            added.append((None, op.value))
    kept = [i for i in range(len(members)) if i not in removed]
    open_end, close = holder.start + 1, holder.end - 1
    multi = "\n" in text[holder.start:holder.end] and not style.one_line
    outer = _indent_at(text, holder.start)
    own_line = bool(members) and "\n" in text[open_end:members[0][1]]
    inner = _indent_at(text, members[0][1]) if own_line else outer + style.unit
    if len(members) > 1:
        between = text[members[-2][2].end:members[-1][1]]
        sep = between if between.strip() == "," else ("," + style.newline + inner if multi else style.comma)
    elif members:
        sep = "," + style.newline + inner if "\n" in text[open_end:members[0][1]] else style.comma
    else:
        sep = "," + style.newline + inner if multi else style.comma
    one_line = "\n" not in sep

    def member(key: str | None, value: Any) -> str:
        body = _dump(value, style, inner, one_line)
        return body if key is None else _key_text(key) + style.colon + body

    new_members = [member(k, v) for k, v in added]
    if not kept:
        if not new_members:
            return [TextEdit(open_end, close, "")]
        if one_line:
            return [TextEdit(open_end, close, sep.join(new_members))]
        nl = style.newline
        return [TextEdit(open_end, close, nl + inner + sep.join(new_members) + nl + outer)]
    edits: list[TextEdit] = []
    i = 0
    n = len(members)
    tail_from: int | None = None
    while i < n:
        if i in removed:
            j = i
            while j + 1 < n and j + 1 in removed:
                j += 1
            if j < n - 1:
                edits.append(TextEdit(members[i][1], members[j + 1][1], ""))
            else:
                tail_from = i
            i = j + 1
        else:
            i += 1
    last_kept_end = members[kept[-1]][2].end
    addition = "".join(sep + m for m in new_members)
    if tail_from is not None:
        edits.append(TextEdit(last_kept_end, members[n - 1][2].end, addition))
    elif addition:
        edits.append(TextEdit(last_kept_end, last_kept_end, addition))
    return edits


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """``text`` with ``edits`` (sorted, not overlapping, offsets of ``text``) applied."""
    out = []
    at = 0
    for e in sorted(edits):
        out.append(text[at:e.start])
        out.append(e.new_text)
        at = e.end
    out.append(text[at:])
    return "".join(out)
