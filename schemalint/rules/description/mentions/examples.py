"""``arglist`` and ``json`` mentions from examples: ``this_tool(a=1)`` calls, JSON argument objects, and
the same objects written as JavaScript literals or YAML."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import (
    _OUTPUT_WORDS,
    _RE_JSON_OBJ,
    _RE_JSON_START,
    _RE_KWARG,
    IDENT,
    KEBAB,
)
from schemalint.rules.description.mentions.signatures import flatten, own_calls, signature_names

_RE_STRING = re.compile(r'"[^"\n]*"|\'[^\'\n]*\'')
_RE_COLON_ARG = re.compile(rf"(?:^|,)\s*({IDENT})\s*:(?!:)")
_RE_SHORTHAND = re.compile(rf"(?:^|,)\s*({IDENT})\s*(?=,|$)")


def _named_arguments(inside: str) -> list[tuple[str, int, int]]:
    """``(name, start, end)`` of a call's arguments written with a colon (``move(to: p)``,
    ``search(query: str = "")``) at the top level of the parentheses, or, when the only argument is an
    object literal, of its keys and shorthands (``f({ status: "open", pageToken })``). ``inside``: the
    text between the parentheses, strings blanked. Positional arguments and the keys of a later object
    argument (``write(path, {mode: "append"})``) are not names of this call's parameters."""
    body = inside.strip()
    if body.startswith("{") and body.endswith("}"):
        lo = inside.index("{") + 1
        flat = flatten(inside[lo : inside.rindex("}")])
        found = [*_RE_COLON_ARG.finditer(flat), *_RE_SHORTHAND.finditer(flat)]
        return [(m.group(1), lo + m.start(1), lo + m.end(1)) for m in found]
    return [(m.group(1), m.start(1), m.end(1)) for m in _RE_COLON_ARG.finditer(flatten(inside))]


def call_examples(text: str, found: Found, level: Sequence[str] = ()) -> None:
    """Named arguments of call examples of this very tool, also inside code fences:
    ``this_tool(a=1, b="x")``, ``this_tool(a: 1)``, ``this_tool({ a: 1, b })`` (at most 20 calls,
    2,000 characters each), read as ``arglist``; and as ``signature`` (:mod:`.signatures`) the names of
    a call written as a signature (``Usage: this_tool(a, b[, c])``, ``thisTool(a: string, b?: number)``)
    and every argument of a call spelled in another case or with a host's prefix. ``level``: the
    names declared where the text speaks. A keyword after a type (``limit: int = 100``) is not one."""
    for at, open_at, exact in own_calls(text, found.tool_name, found.tool_names):
        i, depth = open_at + 1, 1
        while i < len(text) and depth and i - open_at < 2000:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        base = open_at + 1
        raw = text[base : i - 1]
        inside = _RE_STRING.sub(lambda q: " " * len(q.group(0)), raw)
        kind = "arglist" if exact else "signature"
        typed = _typed_spans(inside)
        for k in _RE_KWARG.finditer(inside):
            if not any(lo < k.start(1) < hi for lo, hi in typed):
                found.add(k.group(1), base + k.start(1), base + k.end(1), kind)
        for name, lo, hi in _named_arguments(inside):
            found.add(name, base + lo, base + hi, kind)
        if exact and open_at != at + len(found.tool_name):
            continue  # "fetch_page (deprecated)": a remark in parentheses, not a signature
        line_before = text[text.rfind("\n", 0, at) + 1 : at]
        for name, lo, hi in signature_names(raw, line_before, level):
            found.add(name, base + lo, base + hi, "signature")


_RE_TYPE_AFTER = re.compile(rf"(?:^|,)\s*{IDENT}\s*\??\s*:(?!:)[^,=]*")


def _typed_spans(inside: str) -> list[tuple[int, int]]:
    """Spans of the type annotations at the top level of a call's parentheses (``int`` in ``limit:
    int = 100``): a word there before ``=`` is a type, not a keyword argument."""
    return [(m.start(), m.end()) for m in _RE_TYPE_AFTER.finditer(flatten(inside))]


_RE_KEY_BEFORE = re.compile(r"[\"']([A-Za-z_][\w.-]*)[\"']\s*:\s*\[?\s*(?:\{[^{}]*\}\s*,\s*)*$")
_ARGUMENT_KEYS = frozenset(("arguments", "args", "input", "inputs", "parameters", "params", "kwargs", "body_args"))
"""The keys whose value is a call's argument object (``"arguments": {...}``)."""


class _Span:
    """Where a JSON object was read in a text (the part of :class:`re.Match` the readers use)."""

    __slots__ = ("_end", "_start")

    def __init__(self, start: int, end: int) -> None:
        self._start, self._end = start, end

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end


_JSON_EXAMPLE_LIMIT = 2000
"""Characters a JSON example may span (longer ones are data, not an example of a call)."""


def _json_objects(text: str) -> Iterator[tuple[_Span, dict[str, Any]]]:
    """Every outermost JSON object of ``text`` that starts with a key (``{"a": ...}``), nested
    objects and all (``{"method": "POST", "headers": {...}}``), at most :data:`_JSON_EXAMPLE_LIMIT`
    characters long, with where it is; objects inside one already read are its values."""
    decode = json.JSONDecoder().raw_decode
    after = 0
    for m in _RE_JSON_START.compiled().finditer(text):
        if m.start() < after:
            continue
        try:
            obj, end = decode(text[m.start() : m.start() + _JSON_EXAMPLE_LIMIT])
        except ValueError:
            flat = _RE_JSON_OBJ.compiled().match(text, m.start())  # an object cut by the limit: its flat head
            if flat is None:
                continue
            try:
                obj, end = json.loads(flat.group(0)), flat.end() - m.start()
            except ValueError:
                continue
        if isinstance(obj, dict) and obj:
            after = m.start() + end
            yield _Span(m.start(), after), obj


def json_examples(text: str, level: Sequence[str], found: Found) -> None:
    """Keys of JSON argument examples ``{"action": "x", "other": 1}`` that use at least one
    declared key (``level``), or that an instruction hands over ("Send {"limit": 50}"), unless the
    line before speaks about output or the object is the value of another key (``"schedule": {...}``,
    an item of ``"pages": [{...}]``; ``"arguments": {...}`` is the call's own)."""
    for m, obj in _json_objects(text):
        key_before = _RE_KEY_BEFORE.search(text, max(0, m.start() - 60), m.start())
        if key_before is not None and key_before.group(1).lower() not in _ARGUMENT_KEYS:
            continue  # {"schedule": {"text": ...}}: the value of a key, its keys are that value's own
        kind = "json"
        if not any(k in level for k in obj):
            from schemalint.rules.description.mentions.imperatives import instruction_before

            if not instruction_before(text, m.start()):
                continue
            kind = "json-instruction"  # "Send {"limit": 50}": keys of the call, none of them declared
        line_start = text.rfind("\n", 0, m.start()) + 1
        prev_line_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
        if _OUTPUT_WORDS.search(text[max(prev_line_start, m.start() - 200) : m.start()]):
            continue
        for k in obj:
            if isinstance(k, str) and (re.fullmatch(IDENT, k) or re.fullmatch(KEBAB, k)):
                at = text.find(f'"{k}"', m.start()) + 1
                found.add(k, at, at + len(k), kind)


_RE_JS_OBJ = re.compile(r"\{\s*[A-Za-z_][A-Za-z0-9_]*\??\s*:[^{}\n]{0,400}\}")
_RE_JS_KEY = re.compile(rf"(?:^|[{{,;]\s*)({IDENT})\??\s*:(?!:)")
"""A key of an object literal or of a TypeScript object type (``{ path: string; force?: boolean }``)."""
_RE_YAML_BLOCK = re.compile(r"```(?:ya?ml)?[ \t]*\n((?:[ \t]*[A-Za-z_][\w-]*:[^\n]*\n)+)[ \t]*```")
_RE_YAML_KEY = re.compile(rf"(?m)^({IDENT}):(?:[ \t]|$)")


def literal_examples(text: str, level: Sequence[str], found: Found) -> None:
    """Keys of argument examples written as a JavaScript object literal (``{ texts: [...], dimensions:
    256 }``), a TypeScript object type (``{ path: string; createDirs?: boolean }``) or as a YAML
    block in a code fence, when at least one key is declared at ``level`` and the line before does
    not speak about output: the ``json`` form in other spellings."""
    spans: list[tuple[int, list[re.Match[str]]]] = []
    for m in _RE_JS_OBJ.finditer(text) if "{" in text else ():
        body = _RE_STRING.sub(lambda q: " " * len(q.group(0)), m.group(0))
        spans.append((m.start(), list(_RE_JS_KEY.finditer(body))))
    for m in _RE_YAML_BLOCK.finditer(text) if "```" in text else ():
        spans.append((m.start(1), list(_RE_YAML_KEY.finditer(m.group(1)))))
    for start, keys in spans:
        names = [k.group(1) for k in keys]
        if len(names) < 2 or not any(n in level for n in names):
            continue
        line_start = text.rfind("\n", 0, start) + 1
        prev_line_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
        if _OUTPUT_WORDS.search(text[max(prev_line_start, start - 200) : start]):
            continue
        for k in keys:
            found.add(k.group(1), start + k.start(1), start + k.end(1), "json")
