"""Mentions whose form alone presents a name as a key of the call, whatever the sentence says:

``code-assign``  a code span holding ``name: value`` or ``name=value`` ("provide `force: true`",
                 "`verbose=true`");
``colon``        a quoted/code-span name followed by ``: value`` in running text ("(`order`: asc or
                 desc)"), outside ``Args:`` sections (those are ``arglist``);
``label-list``   names after a label that says they are arguments ("Required arguments: `a`, `b`",
                 "Optional: `max_tokens` caps ...");
``table``        the first cell of each row of a Markdown table whose first column is headed
                 "Parameter", "Argument", "Name", "Field", "Key", "Option" or "Input".
"""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, _lazy
from schemalint.rules.description.mentions.text import key_shaped


def _about_result(clean: str, start: int) -> bool:
    """The sentence holding ``start`` speaks about the result before reaching it ("the response
    includes `x: 1`"; not "pass `verbose=true` for more output")."""
    lo = max(clean.rfind(". ", 0, start), clean.rfind("\n", 0, start), start - 300, 0)
    return _OUTPUT_WORDS.search(clean, lo, start) is not None

_RE_CODE_ASSIGN = _lazy(r"(?<!`)`([A-Za-z_][A-Za-z0-9_]*)(?:\s*=\s*|:\s+)([^`\n]{1,60})`(?!`)")
_RE_COLON = _lazy(r"(?<![\w`])([`'\"])([A-Za-z_][A-Za-z0-9_]*)\1:[ \t]+(?=[\w`'\"\[{-])")
_RE_LABEL = _lazy(
    r"(?:^|(?<=[.;\n])|(?<=\.\s))[ \t]*(?:[-*•]\s*)?(?:\*\*|__)?(?:(?:required|optional)"
    r"(?:\s+(?:arguments?|parameters?|params?|args?|inputs?|fields?|keys?))?|(?:arguments|parameters|params|args|inputs))"
    r"(?:\*\*|__)?\s*:(?:\*\*|__)?[ \t]*",
    re.I | re.M)
_RE_LABEL_ITEM = _lazy(r"\s*(?:,\s*|\s+and\s+|\s+or\s+)?(`{1,2}|'|\")([A-Za-z_][A-Za-z0-9_]*)\1")
_RE_BARE_RUN = _lazy(
    r"((?:[A-Za-z_][A-Za-z0-9_]*|[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?:[ \t]*\([^()\n]{1,40}\))?)"
    r"(?:[ \t]*(?:,[ \t]*(?:and[ \t]+|or[ \t]+)?|[ \t]+(?:and|or)[ \t]+)"
    r"(?:[A-Za-z_][A-Za-z0-9_]*|[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?:[ \t]*\([^()\n]{1,40}\))?)*"
    r"[ \t]*(?=$|[.;\n])",
    re.M)
"""A label's whole run of unquoted names up to the end of its sentence or line: names (snake_case,
camelCase, kebab-case or plain words) joined by commas, "and" or "or", each with at most a short
parenthesis ("(required)", "(default 10)"), and nothing else. Prose after the label ("Required: the
repository owner") is not such a run."""
_RE_BARE_NAME = _lazy(r"([A-Za-z_][A-Za-z0-9_]*|[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+)(?:[ \t]*\([^()\n]*\))?")
_NOT_A_NAME = frozenset(("and", "or", "none", "yes", "no", "true", "false", "null", "all", "any", "nothing", "n",
                         "see", "below", "above", "optional", "required", "same", "as", "the", "a", "an"))
"""Words that close a label's run without being names ("Optional: none", "Required: see below")."""
_RE_TABLE_HEAD = _lazy(
    r"^[ \t]*\|\s*\**\s*(?:parameter|param|argument|arg|name|field|key|option|input|property)s?(?:\s+name)?\s*\**\s*\|"
    r".*\n[ \t]*\|[\s:|-]+\|[ \t]*$", re.I | re.M)
_RE_TABLE_ROW = _lazy(r"^[ \t]*\|\s*(?:\*\*)?`?([A-Za-z_][A-Za-z0-9_]*)`?(?:\*\*)?\s*\|", re.M)


def code_assignments(clean: str, found: Found) -> None:
    """``code-assign``: `name: value` / `name=value` in a code span, outside sentences about the result."""
    for m in _RE_CODE_ASSIGN.finditer(clean):
        if _about_result(clean, m.start()):
            continue
        found.add(m.group(1), m.start(1), m.end(1), "code-assign")


def colon_names(clean: str, found: Found) -> None:
    """``colon``: a quoted name followed by ``: value`` in running text (not at a line start, where
    it is an entry of an undeclared list: see :func:`~.arglists.arg_sections`)."""
    for m in _RE_COLON.finditer(clean):
        line_start = clean.rfind("\n", 0, m.start()) + 1
        if not clean[line_start:m.start()].strip(" \t-*•"):
            continue
        if _about_result(clean, m.start()):
            continue
        if _inside_braces(clean, m.start()):
            continue  # a key inside a JSON object: the ``json`` form's, or a value's own key
        if clean[max(0, m.start() - 1) : m.start()] == "=":
            continue  # `filter="slow": ...`: the value of an assignment, glossed
        found.add(m.group(2), m.start(2), m.end(2), "colon")


_BRACE_REACH = 2000
"""Characters before a name in which :func:`_inside_braces` looks for an opening brace."""


def _inside_braces(clean: str, at: int) -> bool:
    """Whether ``at`` lies inside an object literal opened in the :data:`_BRACE_REACH` characters
    before it (more ``{`` than ``}`` there): also in nested objects and in examples whose lines
    carry a comment marker ("#   \"day\": 1")."""
    window = clean[max(0, at - _BRACE_REACH) : at]
    return "{" in window and window.count("{") > window.count("}")


def label_lists(clean: str, found: Found, property_level: bool = False) -> None:
    """``label-list``: the names after a label that says they are arguments ("Required arguments:
    `a`, `b`", "**Optional:** `max_tokens` caps ...", "Required: owner, repo, head"). Quoted names
    are read as long as they follow one another. Unquoted names are read only in a tool's
    description, when the label's whole run up to the end of its sentence is names
    (:data:`_RE_BARE_RUN`), and only two or more of them or one that is shaped like a key
    (snake_case, camelCase, kebab-case): "Optional: verbose." is as often a value."""
    for m in _RE_LABEL.finditer(clean):
        pos = m.end()
        quoted = False
        while True:
            item = _RE_LABEL_ITEM.match(clean, pos)
            if item is None:
                break
            quoted = True
            found.add(item.group(2), item.start(2), item.end(2), "label-list")
            pos = item.end()
        if quoted or property_level:
            continue
        run = _RE_BARE_RUN.match(clean, pos)
        if run is None or run.end() == pos:
            continue
        names = [n for n in _RE_BARE_NAME.finditer(clean, pos, run.end()) if n.group(1).lower() not in ("and", "or")]
        if any(n.group(1).lower() in _NOT_A_NAME for n in names):
            continue
        if len(names) < 2 and not (names and key_shaped(names[0].group(1))):
            continue
        for n in names:
            found.add(n.group(1), n.start(1), n.end(1), "label-list-word")


def tables(clean: str, found: Found) -> None:
    """``table``: first cells of the rows of a Markdown table headed "Parameter" (or the like)."""
    for m in _RE_TABLE_HEAD.finditer(clean):
        pos = m.end() + 1
        while pos < len(clean):
            row = _RE_TABLE_ROW.match(clean, pos)
            if row is None:
                break
            found.add(row.group(1), row.start(1), row.end(1), "table")
            nl = clean.find("\n", row.end())
            if nl == -1:
                break
            pos = nl + 1
