"""Read and parse one source file (JSON, JSON Lines, YAML) without ever writing to it.

Parse failures are not exceptions for the caller: they come back as
:class:`ParseProblem` values with a 1-based line and column, so the engine can turn
them into ``SL000 unreadable-source`` diagnostics and go on with the other files.
"""

from __future__ import annotations

import errno
import json
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from schemalint.loaders.files.evidence import TOOL_DIRS as _TOOL_DIRS
from schemalint.loaders.files.evidence import TOOL_FILE_NAMES as _TOOL_FILE_NAMES
from schemalint.loaders.files.evidence import TOOL_NAME_ENDINGS as _TOOL_NAME_ENDINGS
from schemalint.loaders.files.overlay import overlay_bytes
from schemalint.safe_read import MAX_FILE_BYTES as MAX_FILE_BYTES  # re-exported: the bound of a source
from schemalint.safe_read import special_kind as special_kind  # re-exported for the loaders
from schemalint.schema.nonjson import YamlBinary, YamlSet

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


_DIGITS_AS_ONES = bytes(0x31 if 0x30 <= i <= 0x39 else 0x30 for i in range(256))
LONG_DIGIT_RUN = b"1" * 19
"""19 digits: the shortest integer literal orjson cannot hold (below -2**63); it reads one beyond
64 bits as a float (``1.8446744073709552e+19``), which a snapshot would then write."""


def may_hold_huge_integer(data: bytes | str) -> bool:
    """Whether ``data`` (JSON text) holds 19 or more ASCII digits in a row outside a string, so that
    orjson may have read an integer literal beyond 64 bits as a float. A run is known to be inside a
    string when its line (JSON strings hold no raw line break) has an odd number of quotes before it
    and no escaped backslash (``\\\\``, which would make counting escaped quotes unsure); any other
    run answers yes, which costs only a walk of the parsed value (:func:`misread_huge_integer`).
    About 4 ms a MB (a C translate and substring searches)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    digits = raw.translate(_DIGITS_AS_ONES)
    at = digits.find(LONG_DIGIT_RUN)
    while at != -1:
        line = raw.rfind(b"\n", 0, at) + 1
        if raw.find(b"\\\\", line, at) != -1:
            return True
        quotes = raw.count(b'"', line, at) - raw.count(b'\\"', line, at)
        if quotes % 2 == 0:
            return True  # not inside a string: a number
        end = digits.find(b"0", at)
        if end == -1:
            return False
        at = digits.find(LONG_DIGIT_RUN, end)
    return False


def _has_huge_float(value: Any) -> bool:
    """Whether parsed ``value`` holds a whole float of magnitude 2**63 or more: what orjson makes of
    an integer literal beyond 64 bits (a long run of digits in a string, the common reason the text
    screen answers yes, leaves none). A walk of the parsed value, run only after the screen."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif type(node) is float and abs(node) >= 9.223372036854775807e18 and node.is_integer():
            return True
    return False


def misread_huge_integer(text: bytes | str, value: Any) -> bool:
    """Whether orjson's ``value`` of JSON ``text`` may hold an integer beyond 64 bits it read as a
    float (:func:`may_hold_huge_integer` on the text, then :func:`_has_huge_float` on the value):
    the caller then parses the text with the standard library."""
    return may_hold_huge_integer(text) and _has_huge_float(value)


def loads_json(text: str) -> Any:
    """Parse JSON text with orjson; the standard library takes over for what orjson refuses
    (nesting deeper than 1024, NaN) or misreads (an integer beyond 64 bits, which orjson makes a
    float: :func:`may_hold_huge_integer`), and for its error positions.

    Nesting deeper than the interpreter's recursion limit is parsed on a big stack.
    Raises ``json.JSONDecodeError`` for invalid JSON.
    """
    import orjson

    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    else:
        if not misread_huge_integer(text, value):
            return value
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
    if is_jsonc_file(doc.path):
        stripped = strip_jsonc(doc.text)
        if stripped is not None:
            try:
                doc.values.append((None, loads_json(stripped)))
                return
            except (ValueError, RecursionError):
                pass
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


_JSONC_DIRS = (".vscode", ".devcontainer")
_JSONC_PREFIXES = ("tsconfig", "jsconfig", "appsettings", "launchsettings")
_JSONC_NAMES = frozenset({"devcontainer.json", ".devcontainer.json", ".eslintrc.json", "biome.json",
                          "deno.json", "turbo.json", "language-configuration.json"})


def is_jsonc_file(path: str) -> bool:
    """Whether ``path`` is a file its tools read as JSON with comments (JSONC): files under
    ``.vscode/`` or ``.devcontainer/``, ``devcontainer.json``, ``tsconfig*.json``, ``jsconfig*.json``,
    .NET ``appsettings*.json``/``launchSettings.json``, ``.eslintrc.json``, ``*.jsonc`` and a few
    other tool configs. Only these are parsed leniently (:func:`strip_jsonc`): a comment or a
    trailing comma in any other ``.json`` file stays an ``SL000`` error, as a provider's parser
    refuses it."""
    parts = path.replace("\\", "/").lower().split("/")
    base = parts[-1]
    return (base.endswith(".jsonc") or base in _JSONC_NAMES or base.startswith(_JSONC_PREFIXES)
            or any(d in parts[:-1] for d in _JSONC_DIRS))


def strip_jsonc(text: str) -> str | None:
    """``text`` with ``//`` and ``/* */`` comments and trailing commas (before ``]``/``}``)
    replaced by spaces, outside strings; newlines are kept, so line numbers do not move.
    ``None`` when there is nothing to strip (the text is not JSONC either)."""
    out: list[str] = []
    i, n = 0, len(text)
    changed = False
    last_comma = -1  # index in ``out`` of a comma that may turn out to be trailing
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
            last_comma = -1
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i, changed = j, True
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i, changed = j, True
        elif c == ",":
            last_comma = len(out)
            out.append(c)
            i += 1
        elif c in "]}":
            if last_comma >= 0:
                out[last_comma] = " "
                changed = True
            last_comma = -1
            out.append(c)
            i += 1
        else:
            if not c.isspace():
                last_comma = -1
            out.append(c)
            i += 1
    return "".join(out) if changed else None


def _parse_jsonl(doc: Document) -> None:
    for lineno, line in enumerate(doc.text.splitlines(), start=1):
        if not line.strip():
            continue
        value, problem = parse_jsonl_line(line, lineno)
        if problem is None:
            doc.values.append((lineno, value))
        else:
            doc.problems.append(problem)


def parse_jsonl_line(line: str, lineno: int) -> tuple[Any, ParseProblem | None]:
    """The value of one non-blank line of a JSON Lines file (number ``lineno``), or ``(None, the
    problem)`` when it does not parse; never raises."""
    try:
        return loads_json(line), None
    except RecursionError:
        return None, ParseProblem(f"nested deeper than {MAX_NESTING:,} levels; line not read", lineno, 1)
    except json.JSONDecodeError as exc:
        return None, ParseProblem(f"invalid JSON on this line: {exc.msg}", lineno, exc.colno)
    except ValueError as exc:
        return None, _huge_integer(line, exc, lineno)


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

_RESOLVED: dict[str, str] = {}
"""The tag of a plain scalar by its text, shared by every YAML parse of the run (see
:func:`_json_data_loader`); at most :data:`_RESOLVED_MAX` texts of at most :data:`_RESOLVED_TEXT`
characters."""
_RESOLVED_MAX = 65_536
_RESOLVED_TEXT = 128

_GUARDED_TAGS = ("bool", "int", "float", "timestamp")
"""The tags whose safe constructors fail with a plain Python exception (``KeyError`` for ``!!bool
maybe``, ``ValueError`` for ``!!int zz``, ``IndexError`` for ``!!float ''``, ``AttributeError``
for a malformed ``!!timestamp``...) rather than a ``ConstructorError``: the only ones guarded. The
others (null, str, binary, undefined tags, and the collections, whose constructors only create an
empty container before the node's children are built) raise nothing but YAML errors."""


def _guarded(constructor: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``constructor`` with its plain failures turned into a ``ConstructorError`` at the node."""
    import yaml

    def construct(loader: Any, node: Any) -> Any:
        try:
            return constructor(loader, node)
        except (ValueError, TypeError, AttributeError, OverflowError, KeyError, IndexError) as exc:
            text = ("not a valid value of this tag" if isinstance(exc, (AttributeError, KeyError, IndexError))
                    else str(exc).split(";")[0])
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {node.tag.rpartition(':')[2] or node.tag} "
                f"{str(getattr(node, 'value', ''))[:40]!r}: {text}", node.start_mark) from None

    return construct


def _json_data_loader(base: type) -> type:
    """``base`` (PyYAML's safe loader) building only the JSON data model, with every failure a
    ``ConstructorError`` at the node: a scalar its tag cannot hold (``!!float notafloat``,
    ``!!int zz``, ``!!bool maybe``, a bad ``!!timestamp``) raises the plain ``ValueError``,
    ``KeyError`` or ``AttributeError`` of PyYAML's constructors otherwise (guarded per tag,
    :data:`_GUARDED_TAGS`, not per node). Timestamps become their text (``str`` of the date, what
    a rendering printed), since JSON has no dates and a date cannot be a JSON object key.

    The tag of a plain scalar is looked up in :data:`_RESOLVED` before the resolver's regular
    expressions run: with the safe loader's resolvers (no path resolvers) it depends on the
    text alone. ``!!binary`` becomes its base64 text and ``!!set`` a mapping, as the types that say what they were
    (:class:`~schemalint.schema.nonjson.YamlBinary`, :class:`~schemalint.schema.nonjson.YamlSet`):
    JSON has neither, so SL001 reports them and ``snapshot`` and ``diff`` refuse them, but no rule
    shows Python's ``b'...'`` or fails on bytes."""
    if base in _LOADERS:
        return _LOADERS[base]
    import yaml

    scalar = yaml.ScalarNode
    resolve_by_rules = base.resolve  # type: ignore[attr-defined]
    cache = _RESOLVED

    class Loader(base):
        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is scalar and implicit[0] and not self.yaml_path_resolvers:
                tag = cache.get(value)
                if tag is None:
                    tag = resolve_by_rules(self, kind, value, implicit)
                    if len(value) <= _RESOLVED_TEXT:
                        if len(cache) >= _RESOLVED_MAX:
                            cache.clear()
                        cache[value] = tag
                return tag
            return resolve_by_rules(self, kind, value, implicit)

    def timestamp_text(loader: Any, node: Any) -> str:
        return str(yaml.constructor.SafeConstructor.construct_yaml_timestamp(loader, node))

    def binary_text(loader: Any, node: Any) -> str:
        # decoded only to check it (invalid base64 is a ConstructorError at the node: SL000)
        data = yaml.constructor.SafeConstructor.construct_yaml_binary(loader, node)
        return YamlBinary("".join(str(node.value).split()), len(data))

    def set_members(loader: Any, node: Any) -> Iterator[YamlSet]:
        members = YamlSet()
        yield members
        members.update(loader.construct_mapping(node))

    Loader.add_constructor("tag:yaml.org,2002:timestamp", timestamp_text)
    for name in _GUARDED_TAGS:
        tag = f"tag:yaml.org,2002:{name}"
        Loader.add_constructor(tag, _guarded(Loader.yaml_constructors[tag]))
    Loader.add_constructor("tag:yaml.org,2002:binary", binary_text)
    Loader.add_constructor("tag:yaml.org,2002:set", set_members)
    _LOADERS[base] = Loader
    return Loader


SMALL_YAML = 4096
"""A YAML text shorter than this (so nested fewer than this many levels) is parsed on the calling
thread's stack; a longer one too when :func:`yaml_nesting_below` bounds its nesting by
:data:`SHALLOW_YAML`; any other, or one whose parse reaches the recursion limit, on a big stack."""

SHALLOW_YAML = 200
"""The nesting bound below which a YAML text of any length is parsed on the calling thread's stack:
PyYAML's pure-Python composer takes two frames a level, far below the default recursion limit of
1,000 (libyaml's composer is C and refuses more than 1,000 levels itself)."""

_LINE_BREAKS = None
_LINE_HEAD = None


def yaml_nesting_below(text: str, limit: int) -> bool:
    """Whether ``text`` certainly nests YAML collections (block and flow, in every document, as
    composed: an alias is not entered) plus merge-key chains (``<<``) fewer than ``limit`` levels
    deep; ``False`` means "maybe not". Conservative and cheap (a few C-level scans; Python work
    only per distinct line head), never exact.

    The bound is the sum of three counts. Flow: each level needs a ``[`` or a ``{``, or is the
    single-pair mapping inside a ``[``: ``2 * count("[") + count("{")``. Merges: each link of a
    chain is its own merge key: ``count("<<") + count("merge")`` (an explicit ``!!merge`` tag).
    Block (block collections never sit inside flow ones, so they are the outer part of a path):
    nested block collections start at non-decreasing columns, equal only for a sequence that is
    a mapping's value; one that starts a line starts at the line's indentation, and the others on
    that line each follow a ``-``, ``?`` or ``:`` indicator of the line's leading chain
    (``- - a: b``). So each indentation ``v`` holds at most two lines of one path, each with at
    most ``1 + chain`` collections: ``sum over v of 2 * (1 + longest chain at v)``. Every YAML
    line break (CR, NEL, LS, PS) counts as a newline; a byte-order mark is dropped (PyYAML does
    not count it as a column).
    """
    global _LINE_BREAKS, _LINE_HEAD
    depth = 2 * text.count("[") + text.count("{") + text.count("<<") + text.count("merge")
    if depth >= limit:
        return False
    if _LINE_HEAD is None:
        import re

        _LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
        # a line's indentation, then its leading chain of block indicators, each followed by
        # blanks or the end of the line
        _LINE_HEAD = re.compile(r"^[ \t]*(?:[-?:](?:[ \t]+|$))*", re.MULTILINE)
    if "\ufeff" in text:
        text = text.replace("\ufeff", "")
    if not text.isascii() or "\r" in text or "\x0b" in text or "\x0c" in text:
        assert _LINE_BREAKS is not None
        text = _LINE_BREAKS.sub("\n", text)
    longest: dict[int, int] = {}
    for head in set(_LINE_HEAD.findall(text)):
        indent = len(head) - len(head.lstrip(" \t"))
        chain = head.count("-") + head.count("?") + head.count(":")
        if longest.get(indent, -1) < chain:
            longest[indent] = chain
    depth += sum(2 * (1 + chain) for chain in longest.values())
    return depth < limit


def _parse_yaml(doc: Document) -> None:
    # PyYAML composes recursively (in Python without libyaml): run it on a big stack, unless the text
    # cannot nest deeper than the calling thread's stack holds (a thread per file costs ~20% of a
    # small parse). A RecursionError all the same is a retry on the big stack.
    if len(doc.text) < SMALL_YAML or yaml_nesting_below(doc.text, SHALLOW_YAML):
        try:
            _parse_yaml_on_this_stack(doc, deep=False)
            return
        except RecursionError:
            doc.values.clear()
            doc.problems.clear()
    _with_big_stack(lambda: _parse_yaml_on_this_stack(doc))


def _parse_yaml_on_this_stack(doc: Document, deep: bool = True) -> None:
    import yaml

    # libyaml's loader when PyYAML has it (much faster on large or deep files).
    loader_class = _json_data_loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    try:
        loader = loader_class(doc.text)
        try:
            nodes = []
            while loader.check_node():
                nodes.append(loader.get_node())
            # Count alias expansion on the composed graph before building anything. Without an alias
            # (spelt with `*`, naming an anchor spelt with `&`: an alias to no anchor does not compose)
            # no node is shared: no cycle, and a short text cannot make the limit. A CI workflow's
            # globs (`**/*.py`) hold the one character, seldom the other.
            aliased = ("*" in doc.text and "&" in doc.text) or len(doc.text) >= MAX_YAML_NODES // 4
            for node in nodes if aliased else ():
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
        if not deep:
            raise
        _too_deep(doc)
    except yaml.YAMLError as exc:  # a ReaderError (a character YAML forbids) knows its offset only
        position = getattr(exc, "position", None)
        line, col = _line_col(doc.text, position) if isinstance(position, int) else (1, 1)
        reason = getattr(exc, "reason", None)
        character = getattr(exc, "character", None)
        what = (f"{reason} {character!r}" if reason and character is not None
                else f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
        doc.problems.append(ParseProblem(f"invalid YAML: {what}", line, col))


_SURROGATE_ESCAPE: Any = None


def may_hold_lone_surrogates(text: str) -> bool:
    """False when no JSON or YAML string parsed from ``text`` can hold a lone surrogate
    (U+D800-U+DFFF unpaired): the text holds no surrogate itself and no escape of one
    (``\\uD800``-``\\uDFFF``; YAML's ``\\U0000D800`` too). A pair of escapes counts (it decodes
    to one character, but telling it from a lone one costs a walk); so does an escaped backslash
    before ``ud800``: a "maybe" only costs SL001 its own test. An ASCII text without ``\\u``
    and ``\\U`` costs two C-level scans; another text is encoded to UTF-8 (which fails exactly on
    a surrogate) rather than searched with a character class, which the regex engine tests
    character by character (a third of a second on the corpus as one 20 MB catalog). SL001's
    file screen (:attr:`schemalint.rules.base.Rule.file_screen`)."""
    global _SURROGATE_ESCAPE
    # isascii() is O(1) in CPython, an ASCII text holds no raw surrogate, and a one-character
    # search runs at memchr speed (ten times a two-character one)
    if text.isascii():
        if "\\" not in text or ("\\u" not in text and "\\U" not in text):
            return False
    else:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return True  # a surrogate itself
        if "\\u" not in text and "\\U" not in text:
            return False
    if _SURROGATE_ESCAPE is None:
        import re

        # starts with a backslash: the engine finds each candidate at memchr speed
        _SURROGATE_ESCAPE = re.compile("\\\\(?:u|U0000)[dD][89abcdefABCDEF]")
    return _SURROGATE_ESCAPE.search(text) is not None


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


READ_LIMIT_ENV = "SCHEMALINT_READ_LIMIT"
"""Environment variable that sets the in-memory read limit of a source file in bytes (default
:data:`MAX_FILE_BYTES`); tests lower it to exercise the streaming routes on small files."""


def read_limit() -> int:
    """The in-memory read limit of one source file: :data:`READ_LIMIT_ENV` when set to a positive
    integer, else :data:`MAX_FILE_BYTES`. A JSON document above it is streamed part by part
    (:mod:`schemalint.loaders.files.stream_json`), a JSON Lines file line by line; anything else above
    it is an ``SL000`` diagnostic (not read)."""
    import os

    value = os.environ.get(READ_LIMIT_ENV)
    if value:
        try:
            limit = int(value)
        except ValueError:
            return MAX_FILE_BYTES
        if limit > 0:
            return limit
    return MAX_FILE_BYTES


FREEZE_TOOLS = 1000
"""From this many loaded tools on, the loaders' callers (:func:`schemalint.engine.load`, the sides
of a diff, ``snapshot``) move the loaded objects to the garbage collector's permanent generation
(``gc.freeze()``) so that its full passes skip them. Defined here, below the engine, so that
``snapshot`` and ``diff`` need not import it."""

def read_source_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` through schemalint's one bounded read path
    (:func:`schemalint.safe_read.read_bytes`: no FIFO, device or socket is read, at most
    ``limit`` bytes, default :data:`MAX_FILE_BYTES`). Raises ``OSError`` (``strerror`` says why).
    An editor buffer laid over ``path`` (:mod:`schemalint.loaders.files.overlay`) is returned instead."""
    from schemalint import safe_read

    bound = read_limit() if limit is None else limit
    overlaid = overlay_bytes(path)
    if overlaid is not None:
        if len(overlaid) > bound:
            raise OSError(errno.EFBIG, f"{len(overlaid):,} bytes, above the {bound:,}-byte size bound: not read")
        return overlaid
    try:
        return safe_read.read_bytes(path, bound)
    except safe_read.UnreadableFile as exc:
        raise OSError(exc.errno, exc.reason) from None


def read_document(path: str | Path, display: str | None = None) -> Document:
    """Read and parse one file. I/O errors and parse errors are recorded, not raised; a FIFO,
    a device or a file above :data:`MAX_FILE_BYTES` is an unreadable file (not read)."""
    name = display or str(path)
    try:
        data = read_source_bytes(path)
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


_TOOL_TOKENS_JSON = ('"inputSchema"', '"input_schema"', '"parameters"', '"parametersJsonSchema"',
                     '"functionDeclarations"', '"function_declarations"', '"toolSpec"', '"schemalint"')
_TOOL_LISTS_JSON = ('"tools"', '"functions"')
_TOOL_LISTS_YAML = ("tools:", "functions:")
_TOOL_TOKENS_YAML = ("inputSchema:", "input_schema:", "parameters:", "parametersJsonSchema:",
                     "functionDeclarations:", "function_declarations:", "toolSpec:", "schemalint:")


def looks_like_tool_file(path: str, text: str) -> bool:
    """Whether a file that could not be parsed still looks as if it meant to hold tool definitions.

    By name: a file directly inside a ``tools/`` or ``tool-definitions/`` directory,
    ``tools.json``/``.yaml``, ``*.tools.json``, ``*_tools.json``, ``mcp.json``,
    ``server.json``, ``functions.json``, ``tool.specs.json``, schemalint snapshots (``*.snap``,
    except Jest/Vitest snapshots, which are JavaScript). By content: a ``tools`` or ``functions``
    key (a JSON key anywhere, a YAML key at the start of a line), or a ``name`` key together with a
    key that holds a tool's schema (``inputSchema``, ``input_schema``, ``parameters``,
    ``parametersJsonSchema``, ``functionDeclarations``, ``toolSpec``) or a schemalint manifest
    key, spelled as a JSON key (``"parameters"``) or a YAML key (``parameters:``). Case matters:
    CloudFormation's ``Parameters:`` is not a tool's. Policy: docs/shape-rules.md, "Files that do
    not parse".
    """
    parts = path.replace("\\", "/").lower().split("/")
    base = parts[-1]
    if len(parts) > 1 and parts[-2] in _TOOL_DIRS:
        return True
    if base.endswith(".snap"):
        head = text.lstrip()[:200]
        return not (head.startswith("//") or head.startswith("exports["))
    if base in _TOOL_FILE_NAMES or base.endswith(_TOOL_NAME_ENDINGS):
        return True
    if any(tok in text for tok in _TOOL_LISTS_JSON) or any(line.startswith(_TOOL_LISTS_YAML)
                                                          for line in text.splitlines()):
        return True
    if '"name"' in text and any(tok in text for tok in _TOOL_TOKENS_JSON):
        return True
    return "name:" in text and any(tok in text for tok in _TOOL_TOKENS_YAML)


def reportable_problems(doc: Document, explicit: bool) -> list[ParseProblem]:
    """The parse problems of ``doc`` that become ``SL000`` diagnostics.

    ``explicit``: the file was named as a source (not found by a directory walk, a glob or a
    ``--scan``/hook run); then every problem is reported. Otherwise a file that does not parse
    (or is empty) is reported only when it looks like a tool file (:func:`looks_like_tool_file`);
    the others (``tsconfig.json`` with comments, CloudFormation YAML with ``!Ref``, lock files)
    hold no tool definitions and are skipped without a diagnostic. A file that cannot be read or
    decoded at all (I/O error, invalid UTF-8) is judged by its name only.
    """
    if not doc.problems or explicit:
        return list(doc.problems)
    return list(doc.problems) if looks_like_tool_file(doc.path, doc.text) else []
