"""Find the parameter names a description *presents as something to pass*.

Shared by SL201 (``description-mentions-unknown-parameter``) and SL202
(``description-mentions-removed-parameter``). The extraction is deliberately
conservative: a word counts only when the text presents it as an argument of the
call, in one of these forms (``Mention.kind``):

``verb``      "pass/set/provide/specify/supply/omit x_y [and x_z]" after an instruction
              position (sentence start, "to", "must", "and" ...); an ordinary word is
              only a *plain* mention (trusted by SL202 alone);
``backtick``  the same with a backticked/quoted name ("provide a short `name`"), or a
              backticked identifier in a sentence about parameters ("use this
              parameter together with `dateStart`");
``phrase``    "the x_y parameter/argument/option/flag" (field/key/property only in an
              input sentence), "x_y [and x_z] must be specified / are required";
``assign``    ``x_y=value`` outside URLs, not after "if/when", not attached to another
              tool's name;
``arglist``   ``x:`` / ``x (type):`` / ``x : type`` entries of an ``Args:`` /
              ``Parameters:`` section, ``:param x:``, and ``this_tool(x=...)`` calls;
``json``      keys of a JSON argument example that also uses a declared key;
``list``      a parenthesised list of bare names next to a declared one
              ("pagination (perPage, after)").

Never counted: URLs, words inside fenced code blocks (except a call to this very tool),
values (``ALL_CAPS``, ``true``, words after "to"/"="), value formats (a word touching
``/``, ``.``, ``:`` or ``-`` such as ``model_name/explore_name``, or following
"form"/"format"/"e.g."), names followed by "tool/function/endpoint/type ..." or by
"parameter of ..." (another tool's parameter), response fields (a sentence about
returns/responses), and text that is mostly non-Latin (only the language-neutral
``arglist`` and ``json`` forms are read there).

Which names are *known* (and so never reported) is decided in :func:`analyse`.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from schemalint.model import RunContext, Severity, Tool, escape_token
from schemalint.schema.index import SchemaNode, index_schema
from schemalint.schema.walk import iter_objects


class _LazyPattern:
    """A regular expression compiled on first use (compiling every pattern of this module
    at import costs about 10 ms of start-up, and a run on a few tools needs few of them)."""

    __slots__ = ("_args", "_compiled")

    def __init__(self, *args: Any) -> None:
        self._args = args
        self._compiled: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return self._compiled

    def compiled(self) -> re.Pattern[str]:
        """The compiled pattern (compiling it now if needed), for hot loops."""
        return self._compiled or self._get()

    def search(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self._get()).search(*args)

    def match(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self._get()).match(*args)

    def fullmatch(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self._get()).fullmatch(*args)

    def finditer(self, *args: Any) -> Iterator[re.Match[str]]:
        return (self._compiled or self._get()).finditer(*args)

    def findall(self, *args: Any) -> list[Any]:
        return (self._compiled or self._get()).findall(*args)

    def sub(self, *args: Any) -> str:
        return (self._compiled or self._get()).sub(*args)


_lazy = _LazyPattern

__all__ = ["Finding", "Mention", "Site", "analyse", "extract_mentions", "nearest", "schema_names"]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_PARAM_NOUN = r"(?:parameter|argument|param|arg|field|option|flag|key|property|input)s?"
_VERBS = r"(?:pass|set|provide|specify|supply|omit|fill\s+in|populate)"
_FILLER = {
    "the",
    "a",
    "an",
    "your",
    "its",
    "their",
    "optional",
    "short",
    "valid",
    "new",
    "unique",
    "custom",
    "required",
    "explicit",
    "appropriate",
    "same",
    "also",
    "only",
    "both",
    "either",
    "one",
    "any",
    "value",
    "values",
    "for",
    "of",
}
_RESERVED = {
    "true",
    "false",
    "null",
    "none",
    "nil",
    "undefined",
    "string",
    "integer",
    "int",
    "number",
    "float",
    "boolean",
    "bool",
    "object",
    "array",
    "list",
    "dict",
    "str",
    "self",
    "cls",
    "ctx",
    "context",
    "args",
    "kwargs",
    "json",
    "yaml",
    "id",
    "ids",
    "url",
    "uri",
    "api",
    "e",
    "g",
    "i",
    "ie",
    "eg",
    "etc",
    "it",
    "this",
    "that",
    "them",
    "to",
    "and",
    "or",
    "not",
    "is",
    "in",
    "on",
    "at",
    "by",
    "if",
}
_OTHER_THING = _lazy(
    r"\s*(?:`|'|\")?\s*(?:tool|function|command|endpoint|method|api|resource|prompt|"
    r"class|module|package|library|file|table|column|view|type|enum|event|header)s?\b",
    re.I,
)
_URL = _lazy(r"(?:https?|ftp|file|wss?)://\S+|www\.\S+", re.I)
_FENCE = _lazy(r"```.*?(?:```|\Z)", re.S)
_ARG_HEADER = _lazy(
    r"^[ \t]*(?:#+\s*)?(?:[\w ]*\b)?(?:args|arguments|parameters|params|inputs?|kwargs)"
    r"(?:\s+(?:explained|description|list|reference))?\s*:?[ \t]*$",
    re.I | re.M,
)
_SECTION_END = _lazy(
    r"^[ \t]*(?:#+\s*)?(?:returns?|yields?|raises?|examples?|notes?|usage|output|response|see also|"
    r"warnings?|important|tips?)\b.*:?\s*$",
    re.I,
)
_ARG_ENTRY = _lazy(rf"^([ \t]*)(?:[-*•]\s*)?[`'\"]?({IDENT})[`'\"]?\s*(?:\([^)\n]*\))?\s*[:–—-]\s")
_SPHINX = _lazy(rf":param\s+(?:\w+\s+)?({IDENT})\s*:")

_RE_THE_PARAM = _lazy(
    rf"\b(?:[Tt]he|an?|your) (`{{1,2}}|'|\"|)({IDENT})\1\s+({_PARAM_NOUN})\b"
    r"(?!\s+(?:of|in|from|on)\b)"
)
_RE_BACKTICKED = _lazy(rf"(`{{1,2}})({IDENT})\1(?!`)")
_RE_STRONG_NOUN = _lazy(r"\b(?:parameter|argument|param|arg|option|flag)s?\b", re.I)
_RE_VALUE_BEFORE = _lazy(r"(?:\b(?:to|as|is|be|equals?|of|e\.g\.|like)|[=:])\s*$", re.I)
_RE_VALUE_AFTER = _lazy(
    r"\s*(?:value|field|key|property|tool|function|method|response|result|output)s?\b", re.I
)
_RE_PASSIVE = _lazy(
    r"\s+(?:(?:must|should|can|may|needs?\s+to|has\s+to|have\s+to)\s+(?:also\s+)?be\s+"
    r"(?:specified|provided|set|given|supplied|passed|included)|(?:is|are)\s+(?:also\s+)?required)\b",
    re.I,
)
_RE_TOKEN_BEFORE = _lazy(rf"(`{{1,2}}|'|\"|)({IDENT})\1\s*$")
_RE_CONJ_BEFORE = _lazy(r"(?:,|\band|\bor|,\s*and|,\s*or)\s+(?:the\s+)?$")
_RE_PAREN_LIST = _lazy(r"\(([^()\n]{3,200})\)")
_RE_IDENT_FULL = _lazy(IDENT)
_RE_NOUN_OF = _lazy(rf"\s+{_PARAM_NOUN}\s+(?:of|in|from|for|on)\b", re.I)
_WEAK_NOUNS = ("field", "key", "propert", "input")
_INPUT_WORDS = _lazy(
    r"\b(?:pass|set|provide|specify|supply|omit|use|parameters?|arguments?|args?|params?|"
    r"required|optional|call(?:ing)?|request)\b",
    re.I,
)
_RE_NOUN_ANY = _lazy(r"(?:param|arg|field|option|flag|key|propert|input)", re.I)
_RE_VERB = _lazy(rf"\b{_VERBS}\b", re.I)
_RE_FILLER = _lazy(r"\s+([A-Za-z]+)\b(?![`'\"_\w])")
_RE_TOKEN = _lazy(rf"\s*(`{{1,2}}|'|\"|)({IDENT})\1")
_RE_NOUN_AFTER = _lazy(rf"\s+{_PARAM_NOUN}\b")
_RE_TO_VALUE = _lazy(r"\s+(?:to|as)\s+(?:`|'|\"|\d|true\b|false\b|null\b)", re.I)
_RE_SET_OF = _lazy(r"\s+of\b")
_RE_CONJ = _lazy(r"\s*(?:,\s*(?:and|or)?|and|or|&)\s*(?:the\s+)?(?=[`'\"]?[A-Za-z_])")
_RE_ASSIGN = _lazy(rf"(?<![\w?&.=/@$#-])({IDENT})\s?=\s?(?![=>])(?=[\w\"'`\[{{(-])")
_RE_KWARG = _lazy(rf"(?:^|[,(\s])({IDENT})\s*=(?!=)")
_RE_LEAD_QUOTES = _lazy(r"^[`'\"]+")
_RE_PREP_BEFORE = _lazy(r"\b(?:of|for|in|to)\s+[`'\"]?\w*$")
_RE_CAMEL = _lazy(r"[a-z][A-Z]")
_RE_ALNUM_MIX = _lazy(r"[A-Za-z]\d|\d[A-Za-z]")
_RE_NOT_NL = _lazy(r"[^\n]")
_RE_FORMAT_BEFORE = _lazy(
    r"(?:\bform|\bformat|\bformatted|\blike|e\.g\.|\bexample|\bsuch as|\bi\.e\.)"
    r"\s*(?:of\s+|as\s+|is\s+)?[`'\"]?\s*$"
)
_RE_IDENT = _lazy(IDENT)
_RE_JSON_OBJ = _lazy(r"\{\s*\"[^{}]{0,2000}\}")


@dataclass(frozen=True)
class Mention:
    """One name presented as a parameter: ``token`` as written, its span in the text,
    ``kind`` (see the module docstring) and ``plain`` (an ordinary English word that
    is only trusted when the name is known to have existed, i.e. for SL202)."""

    token: str
    start: int
    end: int
    kind: str
    plain: bool = False


@dataclass(frozen=True)
class Site:
    """One description string of a tool and the object level it speaks about.

    ``text``: the description; ``file_pointer``: JSON pointer of the string in the file;
    ``where``: human label ("the tool description", "the description of property
    `a/b`"); ``level``: property names of the object the text speaks about (for the
    "did you mean" hint); ``closed``: that object has ``additionalProperties: false``;
    ``is_value``: the text describes a string/array value (then ``x=value`` and
    ``x:`` inside it are value syntax, e.g. a search query, and are not read).
    ``instance_parent``: instance path of the object a mentioned key would be sent in
    (``""`` for the call's arguments, ``None`` when unknown, e.g. under array items).
    """

    text: str
    file_pointer: str
    where: str
    level: tuple[str, ...]
    closed: bool
    is_value: bool = False
    instance_parent: str | None = ""


@dataclass(frozen=True)
class Finding:
    """A mention of a name the advertised schema lacks.

    ``removed_in``: where the name does exist (runtime schema, another definition,
    previous revision), or ``None`` (then it is an SL201 finding).
    """

    site: Site
    mention: Mention
    severity: Severity
    removed_in: str | None = None
    spelling_of: str | None = None
    """A declared property that is the token after case and separator folding
    (``file_path`` for ``filePath``): the text misspells a real parameter."""
    declared_at: str | None = None
    """Schema pointer where the token *is* declared, when the text addresses it at another
    level (flat arguments documented for a schema that wraps them in ``request``)."""
    also: tuple[str, ...] = ()
    """Further names of the same wrong-level argument list (one finding per list)."""
    wrapper: str | None = None
    """The top-level property that holds the names of a wrong-level finding (``request``)."""

    def suggestion(self) -> str | None:
        """The declared spelling of a near-miss, else the nearest property at the described level,
        or ``None``."""
        return self.spelling_of or nearest(self.mention.token, self.site.level)


def _norm(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


NEAREST_FUZZY_LIMIT = 64
"""Above this many names at one level, :func:`nearest` skips difflib and abbreviations."""


_NAME_INDEX: list[Any] = [None, None]
"""The last names looked up by :func:`_name_index` and their index (by identity: a site's
level is one tuple shared by all the sites at that level; hashing it would cost its length)."""


def _name_index(names: Sequence[str]) -> tuple[dict[str, str], dict[str, int]]:
    """First name per :func:`_norm` key, and first index per lower-cased name of two or more characters."""
    if _NAME_INDEX[0] is names:
        return _NAME_INDEX[1]
    normed: dict[str, str] = {}
    lowered: dict[str, int] = {}
    for i, n in enumerate(names):
        normed.setdefault(_norm(n), n)
        if len(n) >= 2:
            lowered.setdefault(n.lower(), i)
    _NAME_INDEX[:] = [names, (normed, lowered)]
    return normed, lowered


def nearest(token: str, names: Sequence[str]) -> str | None:
    """The property in ``names`` closest to ``token``: same name ignoring case and
    ``_``/``-`` first, then :func:`difflib.get_close_matches` (cutoff 0.6), then a
    name that is a prefix/suffix part of ``token`` (``model_name`` -> ``model``).
    Above :data:`NEAREST_FUZZY_LIMIT` names only the first and third steps run (looked up
    in a dict), so 10,000 properties with a mention each stay linear."""
    if not names:
        return None
    if len(names) > NEAREST_FUZZY_LIMIT:  # a bound: the fuzzy steps cost len(names) per mention
        normed, lowered = _name_index(names)
        parts = re.split(r"_|(?<=[a-z])(?=[A-Z])", token)
        hits = [lowered.get(p.lower(), len(names)) for p in (parts[0], parts[-1])]
        return normed.get(_norm(token)) or (names[min(hits)] if hits and min(hits) < len(names) else None)
    norm = _norm(token)
    for n in names:
        if _norm(n) == norm:
            return n
    close = difflib.get_close_matches(token, list(names), n=1, cutoff=0.6)
    if close:
        return close[0]
    parts = re.split(r"_|(?<=[a-z])(?=[A-Z])", token)
    for n in names:
        if len(n) >= 2 and (n.lower() == parts[0].lower() or n.lower() == parts[-1].lower()):
            return n
    for n in names:  # an abbreviation of one part: tz ~ timezone
        for part in parts:
            low = part.lower()
            if 2 <= len(n) < len(low) and low[0] == n[0].lower() and _subsequence(n.lower(), low):
                return n
    return None


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(c in it for c in short)


def _is_identifier_like(tok: str) -> bool:
    """snake_case, camelCase, or letters+digits: not an ordinary English word."""
    if "_" in tok.strip("_"):
        return True
    if _RE_CAMEL.search(tok):
        return True
    return bool(_RE_ALNUM_MIX.search(tok))


def _mostly_non_latin(text: str) -> bool:
    non_latin = len(_NON_LATIN.findall(text))
    if not non_latin:
        return False
    latin = len(_LATIN.findall(text))
    return non_latin / (non_latin + latin) > 0.2


_NON_LATIN = _lazy(r"[^\W\d_\u0000-\u024f]")
_LATIN = _lazy(r"[A-Za-z\u00c0-\u024f]")


def _blank(text: str, pattern: re.Pattern[str] | _LazyPattern) -> str:
    """Replace every match of ``pattern`` with spaces (offsets stay valid)."""
    return pattern.sub(lambda m: _RE_NOT_NL.sub(" ", m.group(0)), text)


_STOP = {
    "of",
    "for",
    "to",
    "from",
    "with",
    "by",
    "in",
    "on",
    "at",
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "it",
    "them",
    "up",
    "out",
    "as",
    "if",
    "when",
    "all",
    "any",
    "each",
    "every",
    "some",
    "other",
    "more",
    "one",
    "two",
    "new",
    "whether",
    "both",
    "only",
    "also",
    "here",
    "there",
    "which",
    "what",
    "how",
    "into",
    "than",
    "then",
    "so",
    "such",
    "your",
    "their",
    "its",
    "our",
    "my",
    "me",
    "you",
    "we",
    "they",
    "be",
    "is",
    "are",
    "was",
    "not",
    "no",
    "yes",
    "can",
    "will",
    "should",
    "must",
    "may",
}
_IMPERATIVE_BEFORE = {
    "to",
    "must",
    "should",
    "please",
    "and",
    "or",
    "then",
    "can",
    "may",
    "you",
    "always",
    "only",
    "also",
    "just",
    "never",
    "do",
    "will",
    "need",
    "first",
    "simply",
    "instead",
    "optionally",
    "either",
    "additionally",
    "don't",
    "dont",
    "not",
    "e.g.",
    "i.e.",
    "could",
    "might",
    "next",
    "finally",
    "thus",
    "so",
    "but",
}
_RE_COND_BEFORE = _lazy(
    r"\b(?:if|when|whether|unless|becomes?|returns?|returned|is|are|was)\b[^.;,]{0,20}$", re.I
)


def _imperative(text: str, start: int) -> bool:
    """The verb at ``start`` is an instruction: sentence/line/list start, or after "to", "must", "and" ..."""
    before = text[max(0, start - 40) : start]
    stripped = before.rstrip(" \t")
    if not stripped or stripped[-1] in ".:;!?(\n-*•>\"'`,|" or "\n" in before[len(stripped) :]:
        return True
    word = stripped.split()[-1].lower() if stripped.split() else ""
    return word in _IMPERATIVE_BEFORE or (
        len(stripped) >= 2 and stripped[-1].isdigit() and stripped[-2] == " "
    )


def _ok_token(tok: str) -> bool:
    if len(tok) < 2 or tok.lower() in _RESERVED:
        return False
    if re.fullmatch(r"[A-Z0-9_]+", tok):  # ALL_CAPS: a constant / enum value / env var
        return False
    return not tok[0].isdigit()


def _value_shaped(text: str, start: int, end: int) -> bool:
    """The token touches ``/ . : @ - # $ {`` or brackets: a path, a value format, a URL part."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if before in "/.@#$<{[-\\" or after in "/@#$>}(]\\-":
        return True
    if after == "." and end + 1 < len(text) and text[end + 1].isalnum():
        return True
    if after == ":" and end + 1 < len(text) and not text[end + 1].isspace():
        return True  # key:value search syntax
    window = text[max(0, start - 30) : start].lower()
    return bool(_RE_FORMAT_BEFORE.search(window))


def _after_other_tool(text: str, start: int, tool_names: frozenset[str] | set[str], tool_name: str) -> bool:
    """True when the nearest tool-ish name before ``start`` in the same clause is another tool's."""
    lo = max(0, start - 200)
    clause_start = max(
        text.rfind(".", lo, start), text.rfind("\n", lo, start), text.rfind(";", lo, start), lo - 1
    )
    clause = text[clause_start + 1 : start]
    return any(m.group(0) != tool_name and m.group(0) in tool_names for m in _RE_IDENT.finditer(clause))


_OUTPUT_WORDS = _lazy(
    r"\b(?:returns?|returned|response|responses|outputs?|contains?|includes|"
    r"each\s+(?:entry|item|object|record|element|result)|yields?|shows?|"
    r"whose|has\s+the|payload|gives\s+back|comes?\s+back|"
    r"results?\s+(?:lists?|gives?|has|have|holds?|carr(?:y|ies)|shows?))\b",
    re.I,
)
_OUTPUT_HEADER = _lazy(
    r"^[ \t]*(?:#+\s*)?(?:[-*•]\s*)?(?:(?:example|sample)\s+)?(?:responses?|outputs?|results?|returns?|"
    r"return\s+values?)(?:\s+(?:fields?|format|example|shape|schema|values?))?\s*:[ \t]*(.*)$",
    re.I | re.M,
)
_RE_CALL_OPEN = _lazy(r"[A-Za-z_][\w.]*\s*$")
_RE_SHORTHAND_NEXT = _lazy(r"[^\s,]*,[A-Za-z_]\w*=")
_RE_TYPE_PLACEHOLDER = _lazy(r"(?:string|integer|int|boolean|bool|number|float|timestamp|list|str)(?=[,}\]\s]|$)")
_RE_COND_PREFIX = _lazy(r"(?:\(|\b(?:or|and|where|not|OR|AND|WHERE|NOT))\s*\(?\s*$")
_RE_COND_SUFFIX = _lazy(
    r"\s*(?:'[^'\n]*'|\"[^\"\n]*\"|[\w.-]+)\s*\)?\s+(?:or|and|OR|AND)\s+\(?\s*[A-Za-z_]\w*\s*(?:!?=|<>|<|>|\bin\b|\bis\b)"
)


def _blank_output_sections(text: str) -> str:
    """Blank the response parts of a description (offsets stay valid): the rest of a line
    ``Returns: ...`` / ``Example response: ...``, and when that header ends its line, the
    lines after it up to a blank line or an ``Args:``/``Parameters:`` header. What sits there
    describes what the tool gives back, never what to pass."""
    if ":" not in text:
        return text
    low = text.lower()
    if "return" not in low and "respon" not in low and "output" not in low and "result" not in low:
        return text
    out = text
    for m in _OUTPUT_HEADER.finditer(text):
        if m.group(1).strip():
            lo, hi = m.start(1), m.end(1)
        else:
            lo = m.end()
            hi = len(text)
            pos = text.find("\n", m.end())
            while pos != -1:
                nxt = text.find("\n", pos + 1)
                line = text[pos + 1 : nxt if nxt != -1 else len(text)]
                if not line.strip() or _ARG_HEADER.match(line):
                    hi = pos
                    break
                pos = nxt
        out = out[:lo] + _RE_NOT_NL.sub(" ", out[lo:hi]) + out[hi:]
    return out


def _inside_other_call(text: str, start: int, tool_name: str) -> bool:
    """``start`` lies inside ``Other(...)``: keyword arguments of a constructor or of another
    call (``Result(total_count=3)``), not of this tool."""
    depth = 0
    i = start - 1
    lo = max(0, start - 400)
    while i >= lo:
        c = text[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                head = _RE_CALL_OPEN.search(text, max(0, i - 80), i)
                return head is not None and head.group(0).strip() != tool_name
            depth -= 1
        elif c == "\n" and depth == 0 and i < start - 200:
            return False
        i -= 1
    return False


def _assignment_is_value(text: str, m: re.Match[str], tool_name: str) -> bool:
    """``x=value`` that is not an instruction to pass ``x``: a shorthand value string
    (``A=string,B={...}``), a condition on a record's state (``(x = 'a' or x = 'b')``), or a
    keyword argument of another call or constructor (``Result(total=3)``)."""
    start, end = m.start(1), m.end()
    if start > 0 and text[start - 1] in ",{[":
        return True  # a later key of a shorthand run A=1,B=2
    if _RE_SHORTHAND_NEXT.match(text, end) or _RE_TYPE_PLACEHOLDER.match(text, end):
        return True
    eq = text.find("=", m.end(1))
    spaced = 0 < eq < len(text) - 1 and text[eq - 1] == " " and text[eq + 1] == " "
    if spaced and (
        _RE_COND_PREFIX.search(text[max(0, start - 12) : start]) or _RE_COND_SUFFIX.match(text, eq + 1)
    ):
        return True
    return "(" in text[max(0, start - 400) : start] and _inside_other_call(text, start, tool_name)


def _sentence(text: str, start: int, end: int, reach: int = 300) -> str:
    """The sentence (or line) around ``text[start:end]``, at most ``reach`` characters each side."""
    lo, hi = max(0, start - reach), min(len(text), end + reach)
    s = max(text.rfind(". ", lo, start), text.rfind("\n", lo, start), lo)
    e_candidates = [i for i in (text.find(". ", end, hi), text.find("\n", end, hi)) if i != -1]
    e = min(e_candidates) if e_candidates else hi
    return text[s:e]


def extract_mentions(
    text: str,
    *,
    tool_name: str = "",
    tool_names: frozenset[str] | set[str] = frozenset(),
    is_value: bool = False,
    property_level: bool = False,
    level: Sequence[str] = (),
) -> list[Mention]:
    """Every name ``text`` presents as a parameter to pass, in text order, deduplicated by token.

    ``tool_name``: this tool (its own name is never a parameter; ``tool_name(x=1)`` call
    examples are read); ``tool_names``: names of the tools of the catalog (never
    parameters, and ``x=1`` attached to another tool's name belongs to that tool); ``is_value``: the text
    describes a string value, so ``x=value``/``x:`` inside it are value syntax;
    ``property_level``: the text is a property's description (there "pass the x" usually
    describes this property's own value, so only "pass `x` parameter"/"set `x` to value" count).
    Never raises: any string is accepted.
    """
    if not isinstance(text, str) or not text.strip():
        return []
    found: dict[str, Mention] = {}

    def add(tok: str, start: int, end: int, kind: str, plain: bool = False) -> None:
        if tok == tool_name or tok in tool_names or not _ok_token(tok):
            return
        old = found.get(tok)
        if old is None or (old.plain and not plain):
            found[tok] = Mention(tok, start, end, kind, plain)

    # Call examples of this very tool, also inside code fences: this_tool(a=1, b="x")
    if tool_name:
        at = text.find(tool_name)
        calls = 0
        while at != -1 and calls < 20:
            open_at = at + len(tool_name)
            while open_at < len(text) and text[open_at] in " \t":
                open_at += 1
            before = text[at - 1] if at else " "
            if open_at < len(text) and text[open_at] == "(" and not (before.isalnum() or before in "_."):
                depth, i = 1, open_at + 1
                calls += 1
                while i < len(text) and depth and i - open_at < 2000:
                    depth += {"(": 1, ")": -1}.get(text[i], 0)
                    i += 1
                base = open_at + 1
                for k in _RE_KWARG.finditer(text[base : i - 1]):
                    add(k.group(1), base + k.start(1), base + k.end(1), "arglist")
            at = text.find(tool_name, at + 1)

    # JSON argument examples: {"action": "x", "other": 1} with at least one declared key.
    if level and not property_level and '{"' in text.replace('{ "', '{"'):
        for m in _RE_JSON_OBJ.finditer(text):
            try:
                obj = json.loads(m.group(0))
            except ValueError:
                continue
            if not isinstance(obj, dict) or not any(k in level for k in obj):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            prev_line_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
            if _OUTPUT_WORDS.search(text[max(prev_line_start, m.start() - 200) : m.start()]):
                continue
            for k in obj:
                if isinstance(k, str) and re.fullmatch(IDENT, k):
                    at = text.find(f'"{k}"', m.start()) + 1
                    add(k, at, at + len(k), "json")

    clean = _blank(_blank(text, _FENCE), _URL) if ("`" in text or "/" in text or "www." in text) else text
    clean = _blank_output_sections(clean)
    latin = not _mostly_non_latin(clean)

    # Args:/Parameters: sections (docstring style), language neutral.
    lines = clean.split("\n") if _ARG_HEADER.search(clean) else []
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    in_args = False
    indent: int | None = None
    for idx, line in enumerate(lines):
        if _ARG_HEADER.match(line) and not is_value:
            in_args, indent = True, None
            continue
        if not in_args:
            continue
        if not line.strip():
            continue
        if _SECTION_END.match(line) and not _ARG_ENTRY.match(line):
            in_args = False
            continue
        entry = _ARG_ENTRY.match(line)
        line_indent = len(line) - len(line.lstrip())
        if entry is None:
            if (
                indent is not None
                and line_indent <= indent
                and not re.match(r"\s*(?:[-*•+]|\d+[.)])\s", line)
            ):
                in_args = False
            continue
        if indent is None:
            indent = line_indent
        if line_indent != indent:
            if line_indent < indent:
                in_args = False
            continue  # nested keys of an object parameter, or a continuation
        tok = entry.group(2)
        add(tok, offsets[idx] + entry.start(2), offsets[idx] + entry.end(2), "arglist")
    for m in _SPHINX.finditer(clean) if ":param" in clean else ():
        add(m.group(1), m.start(1), m.end(1), "arglist")

    # "the `x` parameter" / "the x_y argument"
    for m in _RE_THE_PARAM.finditer(clean) if latin and _RE_NOUN_ANY.search(clean) else ():
        tok, quoted = m.group(2), bool(m.group(1))
        if not (quoted or _is_identifier_like(tok)):
            continue
        sent = _sentence(clean, m.start(), m.end())
        if m.group(3).lower().startswith(_WEAK_NOUNS) and (
            _OUTPUT_WORDS.search(sent) or not _INPUT_WORDS.search(sent)
        ):
            continue
        if _value_shaped(clean, m.start(2) - len(m.group(1)), m.end(2) + len(m.group(1))):
            continue
        add(tok, m.start(2), m.end(2), "phrase")

    # pass/set/provide/specify x [and y]
    if latin:
        for m in _RE_VERB.finditer(clean):
            if not _imperative(clean, m.start()):
                continue
            i = m.end()
            words_seen = 0
            while True:
                w = _RE_FILLER.match(clean, i)
                if w and w.group(1).lower() in _FILLER and words_seen < 3 and w.group(1) not in ("of", "for"):
                    i = w.end()
                    words_seen += 1
                    continue
                break
            first = True
            while True:
                t = _RE_TOKEN.match(clean, i)
                if not t:
                    break
                tok, q = t.group(2), t.group(1)
                s, e = t.start(2), t.end(2)
                if clean[e + len(q) : e + len(q) + 1] == "(":
                    break  # set foo(...): a call
                rest = clean[e + len(q) : e + len(q) + 80]
                if first and tok.lower() == "to":
                    break
                noun = _RE_NOUN_AFTER.match(rest) is not None
                to_value = _RE_TO_VALUE.match(rest) is not None
                ident = _is_identifier_like(tok)
                if _value_shaped(clean, s - len(q), e + len(q)) or _OTHER_THING.match(rest):
                    break
                if m.group(0).lower() == "set" and _RE_SET_OF.match(rest):
                    break
                if not q and tok.lower() in _STOP:
                    break
                if property_level:
                    strong = (q or ident) and (noun or to_value)
                elif q:
                    strong = ident or noun or to_value or words_seen > 0
                else:
                    strong = ident
                if strong:
                    add(tok, s, e, "verb" if not q else "backtick")
                elif not q and not first:
                    break
                elif re.match(
                    r"\s*(?:$|[.,;:)!?]|(?:for|to|and|or|when|if|so|that|which|with|in|on)\b)", rest
                ):
                    add(tok, s, e, "verb", plain=True)
                else:
                    break
                i = t.end()
                first = False
                j = _RE_CONJ.match(clean, i)
                if not j:
                    break
                i = j.end()

        # (perPage, after): a parenthesised list of names, one of them a declared parameter
        if level and "(" in clean:
            for m in _RE_PAREN_LIST.finditer(clean):
                items = [x.strip() for x in m.group(1).split(",")]
                if not (2 <= len(items) <= 8) or not all(_RE_IDENT_FULL.fullmatch(x) for x in items):
                    continue
                if not any(x in level for x in items) or _OUTPUT_WORDS.search(
                    _sentence(clean, m.start(), m.end())
                ):
                    continue
                for x in items:
                    at = clean.find(x, m.start())
                    add(x, at, at + len(x), "list")

        # x_y [and x_z] must be specified/provided
        for m in _RE_PASSIVE.finditer(clean):
            pos = m.start()
            while True:
                t = _RE_TOKEN_BEFORE.search(clean, max(0, pos - 80), pos)
                if not t:
                    break
                tok = t.group(2)
                if not (_is_identifier_like(tok) or t.group(1).startswith("`")) or tok.lower() in _STOP:
                    break
                if not _value_shaped(clean, t.start(), t.end()):
                    add(tok, t.start(2), t.end(2), "phrase")
                conj = _RE_CONJ_BEFORE.search(clean, max(0, t.start() - 12), t.start())
                if not conj:
                    break
                pos = conj.start()

        # `x_y` in a sentence that talks about parameters ("use this parameter with `dateStart`")
        if "`" in clean:
            for m in _RE_BACKTICKED.finditer(clean):
                tok = m.group(2)
                if not _is_identifier_like(tok):
                    continue
                sent = _sentence(clean, m.start(), m.end())
                if not _RE_STRONG_NOUN.search(sent) or _OUTPUT_WORDS.search(sent):
                    continue
                before = clean[max(0, m.start() - 12) : m.start()]
                after = clean[m.end() : m.end() + 30]
                if _RE_VALUE_BEFORE.search(before) or _RE_VALUE_AFTER.match(after):
                    continue
                if _value_shaped(clean, m.start(), m.end()):
                    continue
                add(tok, m.start(2), m.end(2), "backtick")

        # x_y=value (not in URLs, not attached to another tool's call)
        if not is_value:
            for m in _RE_ASSIGN.finditer(clean) if "=" in clean else ():
                tok = m.group(1)
                if not _is_identifier_like(tok):
                    continue
                if _after_other_tool(clean, m.start(), tool_names, tool_name):
                    continue
                if _RE_COND_BEFORE.search(clean[max(0, m.start() - 30) : m.start()]):
                    continue
                if _assignment_is_value(clean, m, tool_name):
                    continue
                add(tok, m.start(1), m.end(1), "assign")

    # Drop mentions that are really another thing ("the `foo` tool"), or sit in an output sentence.
    out: list[Mention] = []
    for mention in found.values():
        rest = text[mention.end : mention.end + 40]
        rest = _RE_LEAD_QUOTES.sub("", rest)
        if _OTHER_THING.match(rest) or _RE_NOUN_OF.match(rest):
            continue
        if (
            mention.kind in ("backtick", "phrase")
            and _after_other_tool(text, mention.start, tool_names, tool_name)
            and _RE_PREP_BEFORE.search(text[max(0, mention.start - 40) : mention.start])
        ):
            continue
        out.append(mention)
    out.sort(key=lambda x: x.start)
    return out


# ---------------------------------------------------------------- schema side


def schema_names(schema: Any, limit: int = 50_000) -> set[str]:
    """Every property name declared anywhere in ``schema`` (all depths, union branches,
    ``$defs``; local ``$ref`` targets are seen where they are written), plus ``required``
    and ``dependencies`` entries. Visits at most ``limit`` subschemas."""
    names: set[str] = set()
    if not isinstance(schema, dict):
        return names
    stack: list[Mapping[str, Any]] = [schema]
    seen = 0
    while stack and seen < limit:
        node = stack.pop()
        seen += 1
        for key, value in node.items():
            if isinstance(value, dict):
                if key in (
                    "properties",
                    "$defs",
                    "definitions",
                    "patternProperties",
                    "dependencies",
                    "dependentSchemas",
                    "dependentRequired",
                ):
                    if key in ("properties", "dependencies", "dependentRequired"):
                        names.update(k for k in value if isinstance(k, str))
                    stack.extend(v for v in value.values() if isinstance(v, dict))
                elif key not in ("enum", "const", "default", "examples", "example"):
                    stack.append(value)
            elif isinstance(value, list):
                if key == "required":
                    names.update(r for r in value if isinstance(r, str))
                elif key in ("anyOf", "oneOf", "allOf", "items", "prefixItems"):
                    stack.extend(v for v in value if isinstance(v, dict))
    return names


def schema_values(schema: Any) -> set[str]:
    """Identifier-like words that occur in ``enum``/``const``/``default``/``examples``
    values anywhere in ``schema`` (these are values, never parameter names)."""
    words: set[str] = set()
    if not isinstance(schema, Mapping):
        return words

    def collect(v: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(v, str):
            words.update(re.findall(IDENT, v))
        elif isinstance(v, list):
            for x in v[:200]:
                collect(x, depth + 1)
        elif isinstance(v, Mapping):
            for k, x in list(v.items())[:200]:
                if isinstance(k, str):
                    words.add(k)
                collect(x, depth + 1)

    for node in iter_objects(schema):
        for key in ("enum", "const", "default", "examples", "example"):
            if key in node.schema:
                collect(node.schema[key])
    return words


def _level_of(schema: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
    """Property names of an object schema (its union branches included) and whether it is closed."""
    names: dict[str, None] = {}  # ordered, and a set: 10,000 properties stay linear
    closed = schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False
    stack = [schema]
    while stack:
        s = stack.pop()
        props = s.get("properties")
        if isinstance(props, Mapping):
            names.update((k, None) for k in props if isinstance(k, str))
        for key in ("anyOf", "oneOf", "allOf"):
            branches = s.get(key)
            if isinstance(branches, list):
                stack.extend(b for b in branches if isinstance(b, Mapping))
    return tuple(names), closed


def _tool_description_pointer(tool: Tool) -> str:
    if tool.schema_path:
        parent = tool.schema_path.rsplit("/", 1)[0]
        return tool.origin.pointer + parent + "/description"
    return tool.origin.pointer + "/description"


def description_sites(tool: Tool, keep: Callable[[str], bool] | None = None) -> list[Site]:
    """The description strings of ``tool`` (tool, root schema, every property) with their levels.

    ``keep``: when given, only descriptions for which ``keep(text)`` is true become sites
    (a cheap pre-filter). Returns ``[]`` when the tool has no schema to compare against
    (no ``parameters``, or a Docker ``arguments`` list that is empty: the registry did
    not capture it).
    """
    raw = tool.raw or {}
    if tool.origin.format == "docker-arguments":
        args = raw.get("arguments")
        if not isinstance(args, list) or not args:
            return []
        level = tuple(a["name"] for a in args if isinstance(a, Mapping) and isinstance(a.get("name"), str))
        sites = []
        if tool.description:
            sites.append(
                Site(tool.description, _tool_description_pointer(tool), "the tool description", level, False)
            )
        for i, a in enumerate(args):
            if (
                isinstance(a, Mapping)
                and isinstance(a.get("desc"), str)
                and (keep is None or keep(a["desc"]))
            ):
                sites.append(
                    Site(
                        a["desc"],
                        f"{tool.origin.pointer}/arguments/{i}/desc",
                        f"the description of argument `{a.get('name')}`",
                        level,
                        False,
                        a.get("type") in ("string", "array"),
                    )
                )
        return sites
    schema = tool.advertised
    if not isinstance(schema, Mapping):
        return []
    levels: dict[int, tuple[tuple[str, ...], bool]] = {}

    def level_of(obj: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
        found = levels.get(id(obj))
        if found is None:
            lvl, cl = _level_of(obj)
            found = levels[id(obj)] = (lvl, cl or tool.strict)
        return found

    sites = []
    if tool.description and (keep is None or keep(tool.description)):
        root_level, closed_root = level_of(schema)
        sites.append(
            Site(
                tool.description,
                _tool_description_pointer(tool),
                "the tool description",
                root_level,
                closed_root,
            )
        )
    root_desc = schema.get("description")
    if isinstance(root_desc, str) and root_desc != tool.description and (keep is None or keep(root_desc)):
        root_level, closed_root = level_of(schema)
        sites.append(
            Site(
                schema["description"],
                tool.pointer_in_file("/description"),
                "the description of the parameters schema",
                root_level,
                closed_root,
            )
        )
    if not isinstance(schema, dict):
        return sites
    described = [n for n in index_schema(schema).having("description")
                 if n.keyword == "properties" and type(n.schema["description"]) is str]
    if keep is _might_mention and described and not _any_might_mention([n.schema["description"] for n in described]):
        return sites  # one loop over the property descriptions instead of a call each
    for node in described:
        sub = node.schema
        desc = sub["description"]
        if keep is not None and not keep(desc):
            continue
        label = _property_label(node)
        if label is None or node.parent is None:
            continue
        level, closed = level_of(node.parent.schema)
        own = tuple(sub["properties"]) if isinstance(sub.get("properties"), Mapping) else ()
        typ = sub.get("type")
        is_value = typ in ("string", "array") or (isinstance(typ, list) and "string" in typ)
        sites.append(
            Site(
                desc,
                tool.pointer_in_file(node.pointer + "/description"),
                f"the description of property `{label}`",
                tuple(dict.fromkeys(level + own)) if own else level,  # level holds no repeats
                closed,
                is_value,
                None if "*" in label else "".join("/" + escape_token(p) for p in label.split("/")[:-1]),
            )
        )
    return sites


_SAME_LABEL = frozenset(("then", "else", "not", "anyOf", "oneOf", "allOf", "$defs", "definitions",
                         "patternProperties"))
_ANY_LABEL = frozenset(("additionalProperties", "items", "prefixItems"))


def _property_label(node: SchemaNode) -> str | None:
    """The property path of ``node`` as the descriptions name it (``a/b``, ``*`` for array items
    and additional properties), or ``None`` when it lies under a keyword whose subschemas
    declare no parameters (``if``, ``contains``, ``propertyNames``, ``dependencies`` ...)."""
    parts: list[str] = []
    current: SchemaNode | None = node
    while current is not None and current.parent is not None:
        kw = current.keyword
        if kw == "properties":
            parts.append(current.token or "")
        elif kw in _ANY_LABEL:
            parts.append("*")
        elif kw not in _SAME_LABEL:
            return None
        current = current.parent
    return "/".join(reversed(parts))




# ---------------------------------------------------------------- analysis

def _variants_index(catalog: Sequence[Tool]) -> dict[str, list[Tool]]:
    idx: dict[str, list[Tool]] = {}
    for t in catalog:
        idx.setdefault(t.name, []).append(t)
    return idx


def _catalog_info(catalog: Sequence[Tool]) -> tuple[dict[str, list[Tool]], frozenset[str]]:
    """The catalog's definitions by name and its tool names (cached in the current run)."""
    run = RunContext.current
    index_cache: dict[int, tuple[Sequence[Tool], dict[str, list[Tool]], frozenset[str]]] = run.table(
        "description.mentions.catalog", dict)
    key = id(catalog)
    hit = index_cache.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1], hit[2]
    idx = _variants_index(catalog)
    names = frozenset(n for n in idx if n)
    index_cache.clear()
    run.table("description.mentions.union", dict).clear()  # keyed by the index's id, which a new index may reuse
    index_cache[key] = (catalog, idx, names)
    return idx, names


def _variant_union(name: str, idx: dict[str, list[Tool]]) -> frozenset[str]:
    """Property names of every definition called ``name`` in the catalog index (cached per index)."""
    union_cache: dict[tuple[int, str], frozenset[str]] = RunContext.current.table("description.mentions.union", dict)
    key = (id(idx), name)
    hit = union_cache.get(key)
    if hit is None:
        if len(union_cache) > 50_000:
            union_cache.clear()
        hit = frozenset().union(*(_tool_names(t) for t in idx.get(name, ())))
        union_cache[key] = hit
    return hit


def _tool_names(tool: Tool) -> frozenset[str]:
    names_cache: dict[int, tuple[Tool, frozenset[str]]] = RunContext.current.table("description.mentions.names", dict)
    hit = names_cache.get(id(tool))
    if hit is not None and hit[0] is tool:
        return hit[1]
    if tool.origin.format == "docker-arguments":
        args = (tool.raw or {}).get("arguments")
        names = frozenset(
            a["name"] for a in args or [] if isinstance(a, Mapping) and isinstance(a.get("name"), str)
        )
    else:
        names = frozenset(schema_names(tool.advertised))
    if len(names_cache) > 50_000:
        names_cache.clear()
    names_cache[id(tool)] = (tool, names)
    return names


def _removed_sources(tool: Tool, ctx: Any) -> list[tuple[str, frozenset[str] | set[str]]]:
    """(label, names) of the places where a parameter of this tool may have existed."""
    out: list[tuple[str, frozenset[str] | set[str]]] = []
    if tool.runtime is not None:
        if tool.runtime.input is not None:
            out.append(("the runtime (validator) schema", schema_names(tool.runtime.input)))
        if tool.runtime.output is not None:
            out.append(("the runtime output-mode schema", schema_names(tool.runtime.output)))
    prev = getattr(ctx, "previous", {}) or {}
    if tool.name in prev:
        p = prev[tool.name]
        out.append((f"the previous revision ({p.origin.file})", _tool_names(p)))
    idx, _ = _catalog_info(getattr(ctx, "catalog", ()) or ())
    for other in idx.get(tool.name, []):
        if other is tool or other.origin == tool.origin:
            continue
        names = _tool_names(other)
        if names:
            out.append(
                (
                    f"another definition of `{tool.name}` ({other.origin.file}"
                    f"{' line ' + str(other.origin.line) if other.origin.line else ''})",
                    names,
                )
            )
    return out


def analyse(tool: Tool, ctx: Any) -> list[Finding]:
    """Every mention in ``tool``'s descriptions of a name its advertised schema lacks.

    A name is *known* (never reported) when it is a property anywhere in the advertised
    schema (any level: text about a nested or sibling key is fine), a key or word of an
    ``enum``/``const``/``default``/``examples`` value, a property of the advertised output
    schema, or the name of any tool in the catalog. Findings whose name exists in the
    runtime schemas, another definition of the same tool or ``ctx.previous`` carry
    ``removed_in`` (SL202); the others are SL201 findings, for which "plain" word mentions
    are dropped. Cached per (tool, ctx) in the current run so SL201 and SL202 share one pass.
    """
    cache: dict[tuple[int, int], tuple[Tool, Any, list[Finding]]] = RunContext.current.table(
        "description.mentions.analyse", dict)
    key = (id(tool), id(ctx))
    hit = cache.get(key)
    if hit is not None and hit[0] is tool and hit[1] is ctx:
        return hit[2]
    findings = list(_analyse(tool, ctx))
    if len(cache) > 4096:
        cache.clear()
    cache[key] = (tool, ctx, findings)
    return findings


_FORBID_EXTRAS = {"openai-strict"}
"""Provider targets that refuse undeclared keys whatever the schema says (strict mode)."""


_RE_QWORD = _lazy(r"'\w+'")
_RE_ARGLINE = _lazy(r"^[ \t]*(?:[-*•]\s*)?\w+(?:\s*\([^)\n]*\))?\s*:|:param", re.M)
_RE_CAMEL_DIGIT = _lazy(r"[a-z][A-Z]|[A-Za-z]\d")
_RE_UPPER_OR_DIGIT = _lazy(r"[A-Z0-9]")
_RE_TRIGGER = _lazy(r"[`\"{=_':A-Z0-9]")
_TRIGGER_FIRST = frozenset("`\"{=_':")


def _any_might_mention(texts: list[str]) -> bool:
    """False only when :func:`_might_mention` is false for every text of ``texts``: the first
    test of that function, without a call per text (catalogs describe every property)."""
    search = _RE_TRIGGER.compiled().search
    first = _TRIGGER_FIRST
    return any(search(text, 1) is not None or text[:1] in first for text in texts)


def _might_mention(text: str) -> bool:
    """Cheap pre-filter: can ``text`` hold a non-plain mention at all (quote, ``_``, camelCase, ``x:``...)?"""
    # every test below needs one of these characters (an upper-case letter or digit only
    # after the first character); most descriptions have none and cost one scan
    if _RE_TRIGGER.search(text, 1) is None and text[:1] not in _TRIGGER_FIRST:
        return False
    if "`" in text or '"' in text or "{" in text or "=" in text or "_" in text:
        return True
    if "'" in text and _RE_QWORD.search(text):
        return True
    if ":" in text and _RE_ARGLINE.search(text):
        return True
    # a single character class scans much faster than the pair pattern; both need an
    # upper-case letter or a digit after the first character
    return _RE_UPPER_OR_DIGIT.search(text, 1) is not None and _RE_CAMEL_DIGIT.search(text) is not None


def _site_mentions(site: Site, tool_name: str, catalog_names: frozenset[str]) -> tuple[Mention, ...]:
    """:func:`extract_mentions` of one site, cached: catalogs repeat a description in many
    copies of one tool (BFCL and ACEBench files share definitions), and the result depends
    only on the text, the tool's name, the site's kind and level, and the catalog's names."""
    slot = RunContext.current.table("description.mentions.by_text", lambda: [None, {}])
    if slot[0] is not catalog_names:
        slot[0], slot[1] = catalog_names, {}
    cache: dict[tuple[str, str, bool, bool, tuple[str, ...]], tuple[Mention, ...]] = slot[1]
    property_level = site.where != "the tool description"
    key = (site.text, tool_name, site.is_value, property_level, site.level)
    found = cache.get(key)
    if found is None:
        if len(cache) > 50_000:
            cache.clear()
        found = cache[key] = tuple(extract_mentions(
            site.text, tool_name=tool_name, tool_names=catalog_names, is_value=site.is_value,
            property_level=property_level, level=site.level))
    return found


_RE_WORDS = _lazy(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


@functools.lru_cache(maxsize=8192)
def _spellings(name: str) -> tuple[str, ...]:
    """The snake_case and camelCase spellings of ``name`` other than ``name`` itself (none for a
    one-word name): ``filePath`` -> ``("file_path",)``, ``replace_all`` -> ``("replaceAll",)``."""
    words = _RE_WORDS.findall(name)
    if len(words) < 2 or not _RE_IDENT_FULL.fullmatch(name):
        return ()
    low = [w.lower() for w in words]
    snake = "_".join(low)
    camel = low[0] + "".join(w[:1].upper() + w[1:] for w in low[1:])
    return tuple(v for v in dict.fromkeys((snake, camel)) if v != name)


def _near_miss_table(sites: Sequence[Site]) -> tuple[tuple[str, str], ...]:
    """(other spelling, declared name) pairs of the properties at the levels the ``sites`` speak
    about (a spelling that is itself declared somewhere is dropped where a hit is reported)."""
    names = dict.fromkeys(n for site in sites for n in site.level)
    return tuple(
        (v, n) for n in names if "_" in n or _RE_CAMEL.search(n) for v in _spellings(n) if v not in names
    )


def _near_misses(site: Site, table: tuple[tuple[str, str], ...]) -> Iterator[tuple[Mention, str]]:
    """Identifiers of ``site.text`` (backticked or plain) that spell a declared property another
    way, outside code blocks, URLs, value formats and response sections."""
    text = site.text
    hits = [(v, n) for v, n in table if v in text]
    if not hits or _mostly_non_latin(text):
        return
    own = site.where.split("`")[1].rsplit("/", 1)[-1] if site.where.startswith("the description of property") else ""
    clean = _blank_output_sections(_blank(_blank(text, _FENCE), _URL))
    for variant, declared in hits:
        if declared == own:
            continue  # a property naming its own other spelling: an API field name, a source
        for m in re.finditer(rf"(?<![\w$@]){re.escape(variant)}(?!\w)", clean):
            q = 1 if m.start() > 0 and clean[m.start() - 1] in "`'\"" else 0
            if _value_shaped(clean, m.start() - q, m.end() + q) and not q:
                continue
            if q and _value_shaped(clean, m.start() - 1, m.end() + 1):
                continue
            if clean[m.end() : m.end() + 4].lstrip("`'\" ")[:1] == "=" and _RE_COND_BEFORE.search(
                clean[max(0, m.start() - 40) : m.start()]
            ):
                continue  # a state ("becomes the default (isDefault=True)"), not an instruction
            yield Mention(variant, m.start(), m.end(), "nearmiss"), declared
            break


def _declared_pointer(tool: Tool, name: str) -> tuple[str | None, str | None]:
    """(schema pointer of the first property ``name`` declared anywhere in the advertised schema,
    the top-level property that holds it, directly or through a local ``$ref``)."""
    for node in index_schema(tool.advertised).nodes:
        if node.keyword == "properties" and node.token == name:
            return node.pointer, _holder(tool.advertised, node.pointer)
    return None, None


def _holder(schema: Any, pointer: str) -> str | None:
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return None
    for key, sub in props.items():
        if pointer.startswith(f"/properties/{escape_token(key)}/"):
            return key
        refs = [sub.get("$ref")] if isinstance(sub, Mapping) else []
        if isinstance(sub, Mapping):
            refs += [b.get("$ref") for k in ("anyOf", "allOf", "oneOf") for b in sub.get(k) or ()
                     if isinstance(b, Mapping)]
        for ref in refs:
            if isinstance(ref, str) and ref.startswith("#/") and pointer.startswith(ref[1:] + "/"):
                return key
    return None


def _analyse(tool: Tool, ctx: Any) -> Iterator[Finding]:
    idx, catalog_names = _catalog_info(getattr(ctx, "catalog", ()) or ())
    plain_wanted = (
        tool.runtime is not None
        or tool.name in (getattr(ctx, "previous", {}) or {})
        # another definition of this name with other properties (a single definition has none)
        or (len(idx.get(tool.name, ())) > 1 and not _variant_union(tool.name, idx) <= _tool_names(tool))
    )
    sites = description_sites(tool, None if plain_wanted else _might_mention)
    if not sites:
        return
    known: set[str] | None = None
    removed = None
    reported: set[tuple[str, str]] = set()
    table = _near_miss_table(sites)
    spelled = dict(table)
    forbid = bool(_FORBID_EXTRAS & set(getattr(ctx, "targets", ()) or ()))
    for site in sites:
        sev = Severity.ERROR if site.closed or forbid else Severity.WARNING
        elsewhere: list[Mention] = []
        at_level = False
        for mention in _site_mentions(site, tool.name, catalog_names):
            tok = mention.token
            if known is None:
                known = (
                    set(_tool_names(tool)) | schema_values(tool.advertised) | schema_names(tool.output_schema)
                )
            if tok in known or tok in catalog_names:
                if mention.kind == "arglist" and site.level:
                    if tok in site.level:
                        at_level = True
                    elif tok in _tool_names(tool):
                        elsewhere.append(mention)
                continue
            if (site.file_pointer, tok) in reported:
                continue
            if removed is None:
                removed = _removed_sources(tool, ctx)
            where = next((label for label, names in removed if tok in names), None)
            if where is None and mention.plain:
                continue
            reported.add((site.file_pointer, tok))
            yield Finding(site, mention, sev, where, spelled.get(tok) if where is None else None)
        if len(elsewhere) >= 2 and not at_level and site.where == "the tool description":
            # an argument list of names that all live one level down (inside `request`): one finding
            first = elsewhere[0]
            pointer, holder = _declared_pointer(tool, first.token)
            reported.update((site.file_pointer, m.token) for m in elsewhere)
            yield Finding(site, first, sev, declared_at=pointer, also=tuple(m.token for m in elsewhere[1:]),
                          wrapper=holder)
        if table:
            for mention, declared in _near_misses(site, table):
                tok = mention.token
                if (site.file_pointer, tok) in reported or tok in catalog_names or tok in _tool_names(tool):
                    continue
                if known is not None and tok in known:
                    continue
                reported.add((site.file_pointer, tok))
                yield Finding(site, mention, sev, spelling_of=declared)
