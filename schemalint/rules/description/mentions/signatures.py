"""``signature`` mentions: the parameter names of this tool's own call written as a signature.

A description often states how the tool is called in the layout of a programming language:
``Usage: create_issue(title, body, labels=None)``, ``Signature: searchDocs(query: string,
maxResults?: number)``, ``fetch_page(url[, timeout])``, ``def run_query(sql: str, limit: int = 100)``.
The names inside the parentheses are the parameters, positional ones included, when the call is
this tool's (its name as declared, the same words in another case style, or with an MCP host's
prefix such as ``mcp__server__``) and every argument is a name (``a``, ``a: T``, ``a?: T``,
``a=default``, ``*``, ``/``, ``...``), not a value: ``write_file(path, {mode: "append"})`` and
``switch_project("notes")`` are calls with values, whose positional arguments are variables.
A bare list of positional names (``get_weather(city, units)``) is a signature only when something
says so: a label ("Usage:", "Signature:", "Syntax:"), ``def``/``function`` before it, a type, an
optional ``[, name]``, or one of its names declared where the text speaks.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from schemalint.rules.description.mentions.patterns import IDENT

_WORD_SPLIT = re.compile(r"[_\-]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_RE_NAME = re.compile(r"[A-Za-z_][\w-]*")
_HOST_PREFIX = re.compile(r"^(?:[A-Za-z][A-Za-z0-9-]*__)+")
"""An MCP host's prefix before a tool's name: ``mcp__github__``, ``github__``."""
_RE_PREFIX_BEFORE = re.compile(r"(?<![\w.])(?:[A-Za-z][A-Za-z0-9-]*__)+$")
_RE_LABEL_DOTTED = re.compile(
    r"(?i)\b(?:usage|signature|syntax|synopsis|prototype)\s*:\s*[`*]*(?:[A-Za-z_]\w*\.)+$")
"""A usage label before a dotted call (``Usage: github.create_issue(``): the server's prefix."""


def own_spellings(tool_name: str, tool_names: frozenset[str] | set[str] = frozenset()) -> dict[str, bool]:
    """The spellings a call of the tool ``tool_name`` may use, each mapped to whether it is the name
    as declared: the name itself; for a name of two or more words, the same words in snake_case,
    camelCase and PascalCase; the name without an MCP host's prefix (``mcp__srv__get_weather`` ->
    ``get_weather``, when that has two words or more). A spelling that is another tool's name in
    ``tool_names`` is left out."""
    return {s: exact for s, exact in _spellings(tool_name) if exact or s not in tool_names}


@functools.lru_cache(maxsize=1024)
def _spellings(tool_name: str) -> tuple[tuple[str, bool], ...]:
    """:func:`own_spellings` before other tools' names are left out."""
    out = {tool_name: True} if tool_name else {}
    for name in dict.fromkeys((tool_name, _HOST_PREFIX.sub("", tool_name))):
        words = [w.lower() for w in _WORD_SPLIT.split(name) if w]
        if len(words) < 2 or not _RE_NAME.fullmatch(name):
            continue
        for spelled in (name, "_".join(words), words[0] + "".join(w.title() for w in words[1:]),
                        "".join(w.title() for w in words)):
            out.setdefault(spelled, False)
    return tuple(out.items())


def own_calls(text: str, tool_name: str, tool_names: frozenset[str] | set[str] = frozenset(),
              limit: int = 20) -> Iterator[tuple[int, int, bool]]:
    """``(name start, index of the "(", exact)`` of the calls of this tool in ``text`` in any of its
    :func:`own_spellings` (at most ``limit``; ``exact``: spelled as declared). A spelling glued to a
    word or after a dot (``re.search(``, ``client.search(``) is another function, unless the word
    before is a host's prefix (``mcp__github__create_issue(``) or a usage label stands before the
    dotted name; a spelling other than the declared one must touch its "(" ."""
    hits: dict[int, tuple[int, bool]] = {}
    for spelled, exact in own_spellings(tool_name, tool_names).items():
        at = text.find(spelled)
        while at != -1:
            open_at = at + len(spelled)
            if exact:
                while open_at < len(text) and text[open_at] in " \t":
                    open_at += 1
            if open_at < len(text) and text[open_at] == "(" and open_at not in hits and _free_before(text, at):
                hits[open_at] = (at, exact)
            at = text.find(spelled, at + 1)
    for open_at in sorted(hits)[:limit]:
        yield hits[open_at][0], open_at, hits[open_at][1]


def _free_before(text: str, at: int) -> bool:
    """Whether the name at ``text[at]`` starts a call of its own (see :func:`own_calls`)."""
    before = text[at - 1] if at else " "
    if not (before.isalnum() or before in "_."):
        return True
    window = text[max(0, at - 80) : at]
    if before == "_":
        return _RE_PREFIX_BEFORE.search(window) is not None
    if before == ".":
        line = window[window.rfind("\n") + 1 :]
        return _RE_LABEL_DOTTED.search(line) is not None
    return False


_RE_POSITIONAL = re.compile(rf"(\*{{0,2}})({IDENT})")
_RE_TYPED = re.compile(rf"({IDENT})\s*(\?)?\s*:\s*([A-Za-z_][\w.\[\]<>|, ?]*?)\s*(?:=.*)?", re.S)
_RE_DEFAULTED = re.compile(rf"({IDENT})\s*\??\s*=(?!=).*", re.S)
_MARKERS = frozenset(("*", "/", "...", "…"))
_RE_CUE = re.compile(
    r"(?i)(?:\b(?:usage|signature|syntax|synopsis|prototype|definition)\s*:|"
    r"\b(?:async\s+)?(?:def|function|fn|func)\s+)[^\n]*$")
"""What before the call on its line says it is a signature: a label, or a definition keyword."""
_LITERALS = frozenset(("true", "false", "none", "null", "nil", "undefined"))
_NOT_PARAMETERS = frozenset(("self", "cls", "this", "ctx", "args", "kwargs", *_LITERALS))
"""Positional names that are no parameter: the receiver, the rest, a literal."""
_ARGUMENT_OBJECTS = frozenset(("arguments", "params", "parameters", "options", "opts", "input", "inputs",
                               "payload", "request"))
"""A sole positional name that stands for the whole argument object (``tool_name(params)``)."""


def signature_names(inside: str, line_before: str, level: Sequence[str]) -> list[tuple[str, int, int]]:
    """``(name, start, end)`` in ``inside`` (the text between a call's parentheses) of the names that
    the call lists as a signature but a keyword reading misses: positional names (``a`` in ``f(a,
    b=1)``, ``c`` in ``f(a[, c])``) and optional typed ones (``b`` in ``f(a: string, b?: number)``).
    Empty when an argument is a value (a string, number, object or list), and for positional names
    when nothing marks a signature (``line_before``: the text before the call on its line, for a
    label or ``def``; a type; ``[, x]``; a name declared at ``level``)."""
    masked = re.sub(r'"[^"\n]*"|\'[^\'\n]*\'|`[^`\n]*`', lambda q: "\x01" * len(q.group(0)), inside)
    cue = _RE_CUE.search(line_before) is not None
    if re.search(r"\[\s*,", masked):
        masked, cue = masked.replace("[", " ").replace("]", " "), True  # f(a[, b[, c]])
    flat = flatten(masked, "([{<", ")]}>")
    positional: list[tuple[str, int, int]] = []
    optional: list[tuple[str, int, int]] = []
    names: list[str] = []
    lo = 0
    for piece in flat.split(","):
        hi = lo + len(piece)
        item = piece.strip()
        at = lo + len(piece) - len(piece.lstrip())
        lo = hi + 1
        if not item or item in _MARKERS:
            cue = cue or bool(item)
            continue
        if "\x01" in item.split("=", 1)[0]:
            return []  # a string value: a call, not a signature
        m = _RE_POSITIONAL.fullmatch(item)
        if m is not None:
            if not m.group(1):
                positional.append((m.group(2), at + m.start(2), at + m.end(2)))
            names.append(m.group(2))
            continue
        typed = _RE_TYPED.fullmatch(item)
        if typed is not None:
            if typed.group(3).split()[0].lower() in _LITERALS:
                return []  # f(flag: true): a named value
            cue = True
            if typed.group(2):
                optional.append((typed.group(1), at, at + len(typed.group(1))))
            names.append(typed.group(1))
            continue
        defaulted = _RE_DEFAULTED.fullmatch(item)
        if defaulted is None:
            return []  # a value (a number, an object, a list): a call with values
        names.append(defaulted.group(1))
    if not (cue or any(n in level for n in names)):
        positional = []
    if len(names) == 1 and names[0].lower() in _ARGUMENT_OBJECTS:
        return []
    return [p for p in positional + optional if p[0].lower() not in _NOT_PARAMETERS]


def flatten(text: str, opening: str = "([{", closing: str = ")]}") -> str:
    """``text`` with whatever sits inside brackets (``opening`` and ``closing`` characters) blanked,
    offsets kept: only its top level and the outermost brackets remain (``f(a, g(b, c))`` ->
    ``f(a, g(    ))`` at the top level of ``a, g(b, c)``)."""
    out, depth = [], 0
    for ch in text:
        if ch in opening:
            depth += 1
        out.append(ch if depth == 0 or (depth == 1 and ch in opening) else " ")
        if ch in closing and depth:
            depth -= 1
    return "".join(out)
