"""Read and parse one source file (JSON, JSON Lines, YAML) without ever writing to it.

Parse failures are not exceptions for the caller: they come back as
:class:`ParseProblem` values with a 1-based line and column, so the engine can turn
them into ``SL000 unreadable-source`` diagnostics and go on with the other files.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

JSON_SUFFIXES = (".json", ".snap")
JSONL_SUFFIXES = (".jsonl", ".ndjson")
YAML_SUFFIXES = (".yaml", ".yml")
TOOL_FILE_SUFFIXES = JSON_SUFFIXES + JSONL_SUFFIXES + YAML_SUFFIXES

MAX_NESTING = 200_000
"""Deepest nesting read (on a 512 MiB stack); deeper documents are an SL000 diagnostic."""

MAX_YAML_NODES = 1_000_000
"""Largest YAML document, counted after alias expansion, that we construct (alias-bomb guard)."""


@dataclass(frozen=True)
class ParseProblem:
    """Why a file (or one line of a JSON Lines file) could not be read; positions are 1-based."""

    message: str
    line: int | None = None
    column: int | None = None
    severity: str = "error"


@dataclass
class Document:
    """A parsed source file.

    ``kind`` is ``json``, ``jsonl`` or ``yaml``. ``values`` holds ``(line, value)``
    pairs: one pair with ``line=None`` for JSON/YAML, one per non-blank line for JSON
    Lines. ``text`` is the decoded text, kept for locating diagnostics.
    """

    path: str
    kind: str
    text: str
    values: list[tuple[int | None, Any]] = field(default_factory=list)
    problems: list[ParseProblem] = field(default_factory=list)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def _with_big_stack(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a thread with a large C stack and recursion limit (deeply nested JSON)."""
    box: dict[str, Any] = {}

    def run() -> None:
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, MAX_NESTING + 1_000))
        try:
            box["value"] = fn()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size()
    threading.stack_size(512 * 1024 * 1024)
    try:
        thread = threading.Thread(target=run, name="schemalint-deep-parse")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
    if "error" in box:
        raise box["error"]
    return box["value"]


def loads_json(text: str) -> Any:
    """Parse JSON text with orjson; the standard library takes over for what orjson refuses
    (nesting deeper than 1024, NaN, huge integers) and for its error positions.

    Nesting deeper than the interpreter's recursion limit is parsed on a big stack.
    Raises ``json.JSONDecodeError`` for invalid JSON.
    """
    import orjson

    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(text)
    except RecursionError:
        return _with_big_stack(lambda: json.loads(text))


def _decode(path: str, data: bytes) -> tuple[str | None, ParseProblem | None]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        prefix = data[: exc.start].decode("utf-8", errors="replace")
        line, col = _line_col(prefix, len(prefix))
        return None, ParseProblem(
            f"invalid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); the file was not read",
            line,
            col,
        )


def _huge_integer(text: str, exc: ValueError, line: int | None = None) -> ParseProblem:
    """The problem for an integer beyond Python's int/str conversion limit (the only
    ``ValueError`` the JSON parsers raise besides ``JSONDecodeError``), at the first run of
    digits that long in ``text`` (``line``: the JSON Lines line ``text`` is)."""
    import re

    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
    found = re.search(r"\d{" + str(limit + 1) + ",}", text) if limit else None
    where = _line_col(text, found.start()) if found else (1, 1)
    if line is not None:
        where = (line, where[1])
    if found is None and "digits" not in str(exc):
        return ParseProblem(f"invalid JSON: {exc}", *where)
    return ParseProblem(f"an integer with more than {limit:,} digits (Python's int/str conversion limit); "
                        f"{'the file' if line is None else 'line'} not read", *where)


def _too_deep(doc: Document) -> None:
    doc.problems.append(ParseProblem(
        f"nested deeper than {MAX_NESTING:,} levels; the file was not read", 1, 1))


def _parse_json(doc: Document) -> None:
    try:
        doc.values.append((None, loads_json(doc.text)))
        return
    except RecursionError:
        _too_deep(doc)
        return
    except json.JSONDecodeError as exc:
        first_error = exc
    except ValueError as exc:
        doc.problems.append(_huge_integer(doc.text, exc))
        return
    # Many datasets store JSON Lines under a .json name (BFCL, ACEBench): "Extra data"
    # after a complete first value is the sign.
    if first_error.msg == "Extra data":
        _parse_jsonl(doc)
        if doc.values and not doc.problems:
            doc.kind = "jsonl"
            return
        doc.values.clear()
        doc.problems.clear()
    doc.problems.append(ParseProblem(f"invalid JSON: {first_error.msg}", first_error.lineno, first_error.colno))


def _parse_jsonl(doc: Document) -> None:
    for lineno, line in enumerate(doc.text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            doc.values.append((lineno, loads_json(line)))
        except RecursionError:
            doc.problems.append(ParseProblem(f"nested deeper than {MAX_NESTING:,} levels; line not read", lineno, 1))
        except json.JSONDecodeError as exc:
            doc.problems.append(ParseProblem(f"invalid JSON on this line: {exc.msg}", lineno, exc.colno))
        except ValueError as exc:
            doc.problems.append(_huge_integer(line, exc, lineno))


def _yaml_expanded_size(node: Any, memo: dict[int, int]) -> int:
    """Count nodes after alias expansion, iteratively and with memoisation."""
    import yaml

    order: list[Any] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if id(n) in memo:
            continue
        memo[id(n)] = -1
        order.append(n)
        if isinstance(n, yaml.SequenceNode):
            stack.extend(n.value)
        elif isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                stack.extend((k, v))
    for n in reversed(order):
        size = 1
        if isinstance(n, yaml.SequenceNode):
            size += sum(max(memo.get(id(c), 1), 1) for c in n.value)
        elif isinstance(n, yaml.MappingNode):
            size += sum(max(memo.get(id(k), 1), 1) + max(memo.get(id(v), 1), 1) for k, v in n.value)
        memo[id(n)] = min(size, MAX_YAML_NODES * 10)
    return memo[id(node)]


def _yaml_cycle(node: Any) -> Any:
    """The first node found that contains itself through aliases (``&a [*a]``), else ``None``;
    iterative depth-first search."""
    import yaml

    def children(n: Any) -> list[Any]:
        if isinstance(n, yaml.SequenceNode):
            return list(n.value)
        if isinstance(n, yaml.MappingNode):
            return [c for pair in n.value for c in pair]
        return []

    done: set[int] = set()
    on_path: set[int] = set()
    stack: list[tuple[Any, Iterator[Any]]] = [(node, iter(children(node)))]
    on_path.add(id(node))
    while stack:
        current, it = stack[-1]
        child = next(it, None)
        if child is None:
            stack.pop()
            on_path.discard(id(current))
            done.add(id(current))
            continue
        if id(child) in on_path:
            return child
        if id(child) not in done:
            on_path.add(id(child))
            stack.append((child, iter(children(child))))
    return None


_LOADERS: dict[type, type] = {}


def _json_data_loader(base: type) -> type:
    """``base`` (PyYAML's safe loader) building only the JSON data model, with every failure a
    ``ConstructorError`` at the node: a scalar its tag cannot hold (``!!float notafloat``,
    ``!!int zz``, a bad ``!!timestamp``) raises the plain ``ValueError`` or ``AttributeError``
    of PyYAML's constructors otherwise. Timestamps become their text (``str`` of the date, what
    a rendering printed), since JSON has no dates and a date cannot be a JSON object key."""
    if base in _LOADERS:
        return _LOADERS[base]
    import yaml

    class Loader(base):
        def construct_object(self, node: Any, deep: bool = False) -> Any:
            try:
                return super().construct_object(node, deep)
            except (ValueError, TypeError, AttributeError, OverflowError) as exc:
                text = "not a valid value of this tag" if isinstance(exc, AttributeError) else str(exc).split(";")[0]
                raise yaml.constructor.ConstructorError(
                    None, None, f"cannot read {node.tag.rpartition(':')[2] or node.tag} "
                    f"{str(getattr(node, 'value', ''))[:40]!r}: {text}", node.start_mark) from None

    def timestamp_text(loader: Any, node: Any) -> str:
        return str(yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node))

    Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp_text)
    _LOADERS[base] = Loader
    return Loader


def _parse_yaml(doc: Document) -> None:
    # PyYAML composes and constructs recursively: run it on a big stack.
    _with_big_stack(lambda: _parse_yaml_on_this_stack(doc))


def _parse_yaml_on_this_stack(doc: Document) -> None:
    import yaml

    # libyaml's loader when PyYAML has it (much faster on large or deep files).
    loader_class = _json_data_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    try:
        loader = loader_class(doc.text)
        try:
            nodes = []
            while loader.check_node():
                nodes.append(loader.get_node())
            # Count alias expansion on the composed graph before building anything.
            for node in nodes:
                loop = _yaml_cycle(node) if node is not None else None
                if loop is not None:
                    mark = loop.start_mark
                    doc.problems.append(ParseProblem(
                        "a YAML alias refers to a node that contains it (a recursive structure, which "
                        "JSON cannot hold); not read", mark.line + 1, mark.column + 1))
                    return
                if node is not None and _yaml_expanded_size(node, {}) > MAX_YAML_NODES:
                    mark = node.start_mark
                    doc.problems.append(ParseProblem(
                        f"YAML aliases expand to more than {MAX_YAML_NODES:,} nodes (an alias bomb?); not read",
                        mark.line + 1, mark.column + 1))
                    return
            for node in nodes:
                if node is not None:
                    value = loader.construct_document(node)
                    if value is not None:
                        doc.values.append((None, value))
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        doc.problems.append(ParseProblem(f"invalid YAML: {exc.problem or exc}", line, col))
    except RecursionError:
        _too_deep(doc)
    except yaml.YAMLError as exc:  # a ReaderError (a character YAML forbids) knows its offset only
        position = getattr(exc, "position", None)
        line, col = _line_col(doc.text, position) if isinstance(position, int) else (1, 1)
        reason = getattr(exc, "reason", None)
        character = getattr(exc, "character", None)
        what = (f"{reason} {character!r}" if reason and character is not None
                else f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        doc.problems.append(ParseProblem(f"invalid YAML: {what}", line, col))


def kind_for(path: str) -> str:
    """Document kind from the file name: ``json``, ``jsonl`` or ``yaml``."""
    lower = path.lower()
    if lower.endswith(JSONL_SUFFIXES):
        return "jsonl"
    if lower.endswith(YAML_SUFFIXES):
        return "yaml"
    return "json"


def parse_text(path: str, text: str, kind: str | None = None) -> Document:
    """Parse already-decoded ``text`` as the document ``path`` (used for git revisions too)."""
    doc = Document(path=path, kind=kind or kind_for(path), text=text)
    if not text.strip():
        doc.problems.append(ParseProblem("empty file: no tool definitions", 1, 1, severity="warning"))
        return doc
    if doc.kind == "jsonl":
        _parse_jsonl(doc)
    elif doc.kind == "yaml":
        _parse_yaml(doc)
    else:
        _parse_json(doc)
    return doc


def read_document(path: str | Path, display: str | None = None) -> Document:
    """Read and parse one file. I/O errors and parse errors are recorded, not raised."""
    name = display or str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        doc = Document(path=name, kind=kind_for(name), text="")
        doc.problems.append(ParseProblem(f"cannot read file: {exc.strerror or exc}"))
        return doc
    text, problem = _decode(name, data)
    if problem is not None or text is None:
        doc = Document(path=name, kind=kind_for(name), text="")
        doc.problems.append(problem or ParseProblem("cannot decode"))
        return doc
    return parse_text(name, text)


def iter_values(doc: Document) -> Iterator[tuple[int | None, Any]]:
    """The parsed top-level values of ``doc`` with their JSON Lines line numbers."""
    yield from doc.values
