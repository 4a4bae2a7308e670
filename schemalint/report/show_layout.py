"""Plain-text layout for ``show``: schemas as indented JSON lines, laid out in columns.

The cost of everything here is linear in the size of what is printed, and what is printed is
linear in the size of the schema:

* :func:`json_lines` renders a JSON value as ``json.dumps(value, indent=2)`` does, one line per
  member, without recursion; past :data:`INDENT_CAP` levels the indentation stops growing and the
  line carries its level instead (``..57 "type": "string"``), so a schema nested 400 levels deep
  is not printed as lines of 800 spaces (the output of an unbounded indentation grows with the
  square of the depth).
* :func:`column_rows` lays cells out in fixed-width columns separated by two spaces (the layout
  rich's borderless table gives a small schema, so small outputs are unchanged), folding a cell
  wider than its column onto continuation lines. rich's table measures and wraps every cell
  through its renderables, which took tens of seconds for a union of thousands of branches.

Cells are untrusted text already made :func:`~schemalint.textsafe.visible` by the caller.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

INDENT_CAP = 20
"""Levels of indentation shown; deeper lines are indented like this level and tagged with their own."""


def indent(level: int) -> str:
    """The indentation of a line at nesting ``level`` (two spaces a level, at most
    :data:`INDENT_CAP` levels; deeper: the same width, ending in ``..LEVEL``)."""
    if level <= INDENT_CAP:
        return "  " * level
    tag = f"..{level} "
    return tag.rjust(2 * INDENT_CAP)


def _scalar(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not JSON (a rendering never holds one; shown, never raised)
        return json.dumps(str(value), ensure_ascii=False)


def json_lines(value: Any) -> list[str]:
    """``value`` as the lines of ``json.dumps(value, indent=2, ensure_ascii=False)`` (the same text
    up to :data:`INDENT_CAP` levels; see :func:`indent` beyond), built with an explicit stack so any
    depth renders. ``None`` gives no lines."""
    return keyed_json_lines(value)[0]


def keyed_json_lines(value: Any) -> tuple[list[str], list[str]]:
    """:func:`json_lines` and, for each line, where it sits: the JSON pointer of the value the line
    opens, holds or closes, except that a scalar item of an array is placed at ``ARRAY/*`` (an item
    added in the middle of ``required`` or ``enum`` shifts no other). ``show`` compares two sides by
    place and text, so a line common to thousands of places (``"type": "string"``) matches only its
    own place and the comparison stays near-linear."""
    if value is None:
        return [], []
    out: list[str] = []
    where: list[str] = []
    # stack items: (members as (prefix, child, is_last, pointer), level, closing bracket, comma, pointer)
    stack: list[tuple[Iterator[tuple[str, Any, bool, str]], int, str, str, str]] = []

    def open_value(prefix: str, child: Any, level: int, comma: str, ptr: str) -> None:
        where.append(ptr)
        if isinstance(child, dict) and child:
            out.append(f"{indent(level)}{prefix}{{")
            last = len(child) - 1
            members = ((f"{_scalar(str(k))}: ", v, i == last, f"{ptr}/{_token(str(k))}")
                       for i, (k, v) in enumerate(child.items()))
            stack.append((members, level + 1, "}", comma, ptr))
        elif isinstance(child, list | tuple) and child:
            out.append(f"{indent(level)}{prefix}[")
            last = len(child) - 1
            items = (("", v, i == last, f"{ptr}/{i}" if isinstance(v, dict | list | tuple) and v else f"{ptr}/*")
                     for i, v in enumerate(child))
            stack.append((items, level + 1, "]", comma, ptr))
        elif isinstance(child, dict):
            out.append(f"{indent(level)}{prefix}{{}}{comma}")
        elif isinstance(child, list | tuple):
            out.append(f"{indent(level)}{prefix}[]{comma}")
        else:
            out.append(f"{indent(level)}{prefix}{_scalar(child)}{comma}")

    open_value("", value, 0, "", "")
    while stack:
        members, level, close, comma, ptr = stack[-1]
        step = next(members, None)
        if step is None:
            stack.pop()
            out.append(f"{indent(level - 1)}{close}{comma}")
            where.append(ptr)
            continue
        prefix, child, last, child_ptr = step
        open_value(prefix, child, level, "" if last else ",", child_ptr)
    return out, where


def _token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def fold(text: str, width: int) -> list[str]:
    """``text`` cut into pieces of at most ``width`` terminal cells (wide characters count two)."""
    from rich.cells import cell_len, chop_cells

    if width <= 0 or cell_len(text) <= width:
        return [text]
    if text.isascii():
        return [text[i:i + width] for i in range(0, len(text), width)]
    return list(chop_cells(text, width))


def widths(rows: Sequence[Sequence[str]], header: Sequence[str], total: int, fixed: Sequence[int | None]) -> list[int]:
    """Column widths for ``rows`` under ``header``: each column as wide as its widest cell, unless a
    ``fixed`` width is given; when the columns and their two-space separators exceed ``total``
    cells, the widest columns give way (never below 8 cells)."""
    from rich.cells import cell_len

    out = [f if f is not None else cell_len(h) for h, f in zip(header, fixed, strict=True)]
    for row in rows:
        for i, cell in enumerate(row):
            if fixed[i] is None:
                n = len(cell) if cell.isascii() else cell_len(cell)
                if n > out[i]:
                    out[i] = n
    free = sorted((out[i], i) for i, f in enumerate(fixed) if f is None)
    room = total - 2 * (len(out) - 1) - sum(f for f in fixed if f is not None)
    if sum(w for w, _ in free) > room:  # water-filling: the widest columns are cut to one common width
        left = max(room, 8 * len(free))
        for k, (w, i) in enumerate(free):
            share = max(8, left // (len(free) - k))
            out[i] = min(w, share)
            left -= out[i]
    return out


def column_rows(cells: Sequence[str], col_widths: Sequence[int]) -> list[list[str]]:
    """One row's ``cells`` as physical lines: each cell folded to its width and padded to it
    (the last column too, as rich pads); a row whose cells fold to several lines fills the
    other columns with blanks."""
    from rich.cells import cell_len

    single: list[str] = []
    for cell, width in zip(cells, col_widths, strict=True):  # the common case: every cell fits
        n = len(cell) if cell.isascii() else cell_len(cell)
        if n > width:
            break
        single.append(cell + " " * (width - n))
    else:
        return [single]
    pieces = [fold(c, w) for c, w in zip(cells, col_widths, strict=True)]
    height = max(len(p) for p in pieces)
    lines: list[list[str]] = []
    for k in range(height):
        line = []
        for p, w in zip(pieces, col_widths, strict=True):
            text = p[k] if k < len(p) else ""
            pad = w - (len(text) if text.isascii() else cell_len(text))
            line.append(text + " " * pad if pad > 0 else text)
        lines.append(line)
    return lines


GAP_CELLS = 1_000_000
"""Largest gap between two anchors (lines of one side times lines of the other) that
:func:`align` hands to :class:`difflib.SequenceMatcher`; a larger gap is one replaced block."""


def align(a: Sequence[Any], b: Sequence[Any]) -> list[tuple[str, int, int, int, int]]:
    """Opcodes turning ``a`` into ``b`` (the shape of :meth:`difflib.SequenceMatcher.get_opcodes`:
    ``equal``, ``replace``, ``delete``, ``insert`` with their ranges), found in near-linear time.

    Anchors are the items that occur once in each side, in the longest run that keeps their order
    on both sides (patience sorting, ``O(n log n)``); the gaps between anchors are compared with
    :class:`difflib.SequenceMatcher` when small (at most :data:`GAP_CELLS`), else replaced whole.
    ``SequenceMatcher`` alone is quadratic on two long sides with many differences."""
    import bisect
    import difflib
    from collections import Counter

    ca, cb = Counter(a), Counter(b)
    b_at = {item: j for j, item in enumerate(b) if cb[item] == 1}
    pairs = [(i, b_at[item]) for i, item in enumerate(a) if ca[item] == 1 and item in b_at]
    # the longest increasing run of b positions over the pairs (in a order)
    tails: list[int] = []
    tail_at: list[int] = []
    back: list[int] = []
    for k, (_, j) in enumerate(pairs):
        pos = bisect.bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[pos] = j
            tail_at[pos] = k
        back.append(tail_at[pos - 1] if pos else -1)
    chain: list[tuple[int, int]] = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        chain.append(pairs[k])
        k = back[k]
    chain.reverse()
    ops: list[tuple[str, int, int, int, int]] = []

    def add(op: str, a0: int, a1: int, b0: int, b1: int) -> None:
        if a0 == a1 and b0 == b1:
            return
        if ops and ops[-1][0] == op == "equal" and ops[-1][2] == a0 and ops[-1][4] == b0:
            ops[-1] = (op, ops[-1][1], a1, ops[-1][3], b1)
        else:
            ops.append((op, a0, a1, b0, b1))

    def gap(a0: int, a1: int, b0: int, b1: int) -> None:
        if a0 == a1 or b0 == b1:
            add("delete" if a0 < a1 else "insert", a0, a1, b0, b1)
        elif (a1 - a0) * (b1 - b0) > GAP_CELLS:
            add("replace", a0, a1, b0, b1)
        else:
            matcher = difflib.SequenceMatcher(a=a[a0:a1], b=b[b0:b1], autojunk=False)
            for op, x0, x1, y0, y1 in matcher.get_opcodes():
                add(op, a0 + x0, a0 + x1, b0 + y0, b0 + y1)

    i = j = 0
    for ai, bj in [*chain, (len(a), len(b))]:
        gap(i, ai, j, bj)
        if ai < len(a):
            add("equal", ai, ai + 1, bj, bj + 1)
        i, j = ai + 1, bj + 1
    return ops


def boxed_rows(header: Sequence[str], rows: Sequence[Sequence[str]], total: int) -> tuple[list[str], list[list[str]]]:
    """A table drawn with box characters (the heavy-headed box rich draws, so a small table looks
    as it did): the header's lines and, per row, its lines (a cell wider than its column folds).
    Columns are as wide as their widest cell, narrowed to fit ``total`` cells."""
    col = widths([*rows], header, total - 4 - 3 * (len(header) - 1) + 2 * (len(header) - 1),
                 [None] * len(header))

    def line(left: str, fill: str, sep: str, right: str) -> str:
        return left + sep.join(fill * (w + 2) for w in col) + right

    def cells(row: Sequence[str], bar: str) -> list[str]:
        return [f"{bar} " + f" {bar} ".join(parts) + f" {bar}" for parts in column_rows(row, col)]

    head = [line("┏", "━", "┳", "┓"), *cells(header, "┃"), line("┡", "━", "╇", "┩")]
    body = [cells(row, "│") for row in rows]
    body.append([line("└", "─", "┴", "┘")])
    return head, body
