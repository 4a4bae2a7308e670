"""The compiled-on-first-use patterns and word lists every kind of mention reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any


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


IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
KEBAB = r"[a-z][a-z0-9]*(?:-[a-z][a-z0-9]*)+"
"""A kebab-case name (``dry-run``, ``max-warnings``): how CLI-shaped tools name their parameters. Every
part starts with a letter, so versions and model names (``utf-8``, ``gpt-4o-mini``) are not names."""
_PARAM_NOUN = r"(?:parameter|argument|param|arg|field|option|flag|key|property|input)s?"
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
_OTHER_THING = _lazy(  # "the `x` tool", "`x` type": another thing; not an attribute (`type="string"`)
    r"\s*(?:`|'|\")?\s*(?:tool|function|command|endpoint|method|api|resource|prompt|"
    r"class|module|package|library|file|table|column|view|type|enum|event|header)s?\b(?!\s*=)",
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

_OF_THE_CALL = r"\s+(?:of|in|on)\s+(?:the|this|each|every|your)\s+(?:call|request|arguments|input|payload|body)\b"
"""Where a noun of a parameter is followed by "of the call": it still names this call's key."""
_RE_THE_PARAM = _lazy(
    rf"\b(?:[Tt]he|an?|your) (?:(?:optional|required|new|extra|additional|separate|own|same) )?"
    rf"(`{{1,2}}|'|\"|)({KEBAB}|{IDENT})\1\s+({_PARAM_NOUN})\b"
    rf"(?!(?!{_OF_THE_CALL})\s+(?:of|in|from|on)\b)"
)
_RE_BACKTICKED = _lazy(rf"(`{{1,2}})(?:--)?({KEBAB}|{IDENT})\1(?!`)")
_RE_STRONG_NOUN = _lazy(r"\b(?:parameter|argument|param|arg|option|flag)s?\b", re.I)
_RE_VALUE_BEFORE = _lazy(r"(?:\b(?:to|as|is|be|equals?|of|e\.g\.|like)|[=:])\s*$", re.I)
_RE_VALUE_AFTER = _lazy(
    r"\s*(?:value|field|key|property|tool|function|method|response|result|output)s?\b", re.I
)
_RE_PASSIVE = _lazy(
    r"\s+(?:(?:must|should|can|may|needs?\s+to|has\s+to|have\s+to)\s+(?:also\s+)?be\s+"
    r"(?:specified|provided|set|given|supplied|passed|included)|(?:is|are)\s+(?:also\s+)?(?:required|optional|mandatory)|"
    r"defaults?\s+to)\b",
    re.I,
)
_RE_TOKEN_BEFORE = _lazy(rf"(`{{1,2}}|'|\"|)({KEBAB}|{IDENT})\1\s*$")
_RE_CONJ_BEFORE = _lazy(r"(?:,|\band|\bor|,\s*and|,\s*or)\s+(?:the\s+)?$")
_RE_PAREN_LIST = _lazy(r"\(([^()\n]{3,200})\)")
_RE_IDENT_FULL = _lazy(IDENT)
_RE_KEBAB_FULL = _lazy(KEBAB)
_RE_NOUN_OF = _lazy(rf"\s+{_PARAM_NOUN}(?!{_OF_THE_CALL})\s+(?:of|in|from|for|on)\b", re.I)
_WEAK_NOUNS = ("field", "key", "propert", "input")
_INPUT_WORDS = _lazy(
    r"\b(?:pass|set|provide|specify|supply|omit|use|parameters?|arguments?|args?|params?|"
    r"required|optional|call(?:ing)?|request)\b",
    re.I,
)
_RE_NOUN_ANY = _lazy(r"(?:param|arg|field|option|flag|key|propert|input)", re.I)
_RE_ASSIGN = _lazy(rf"(?<![\w?&.=/@$#-])({IDENT})\s?=\s?(?![=>])(?=[\w\"'`\[{{(<-])")
_RE_KWARG = _lazy(rf"(?:^|[,(\s])({IDENT})\s*=(?!=)")
_RE_LEAD_QUOTES = _lazy(r"^[`'\"]+")
_RE_PREP_BEFORE = _lazy(r"\b(?:of|for|in|to|with)\s+(?:(?:a|an|the|its|their)\s+)?[`'\"]?\w*$")
_RE_CAMEL = _lazy(r"[a-z][A-Z]")
_RE_ALNUM_MIX = _lazy(r"[A-Za-z]\d|\d[A-Za-z]")
_RE_NOT_NL = _lazy(r"[^\n]")
_RE_FORMAT_BEFORE = _lazy(
    r"(?:\bform|\bformat|\bformatted|\blike|e\.g\.|\bexample|\bsuch as|\bi\.e\.)"
    r"\s*(?:of\s+|as\s+|is\s+)?[`'\"]?\s*$"
)
_RE_IDENT = _lazy(IDENT)
_RE_JSON_OBJ = _lazy(r"\{\s*\"[^{}]{0,2000}\}")
_RE_JSON_START = _lazy(r"\{\s*\"")
_NON_LATIN = _lazy(r"[^\W\d_\u0000-\u024f]")
_LATIN = _lazy(r"[A-Za-z\u00c0-\u024f]")
_RE_COND_BEFORE = _lazy(
    r"\b(?:if|when|whether|unless|becomes?|return(?:s|ed|ing)?|is|are|was)\b[^.;,]{0,20}$", re.I
)
_OUTPUT_WORDS = _lazy(
    r"\b(?:returns?|returned|response|responses|outputs?|contains?|includes|"
    r"each\s+(?:entry|item|object|record|element|result)|yields?|shows?|"
    r"whose|has\s+the|payload|gives\s+back|comes?\s+back|"
    r"results?\s+(?:lists?|gives?|has|have|holds?|carr(?:y|ies)|shows?)|"
    # the same in French, Spanish, Portuguese, Italian and German descriptions
    r"retourne|renvoie|contient|r\u00e9sultats?|r\u00e9ponse|devuelve|retorna|contiene|respuesta|"
    r"resultados?|cont\u00e9m|resposta|restituisce|risultat[oi]|risposta|liefert|enth\u00e4lt|"
    r"ergebnis(?:se)?|antwort)\b",
    re.I,
)
"""Words of a sentence about the result, not about the call (English, and the commonest words for
"returns", "contains", "result" and "response" in French, Spanish, Portuguese, Italian and German:
"Chaque r\u00e9sultat contient `prix`" names a result field)."""
_OUTPUT_HEADER = _lazy(
    r"^[ \t]*(?:#+\s*)?(?:[-*•]\s*)?(?:\*\*|__)?(?:(?:example|sample)\s+)?(?:responses?|outputs?|results?|returns?|"
    r"return\s+values?|yields?)(?:\s+(?:fields?|format|example|shape|schema|values?|body))?(?:\s*\([^)\n]{0,40}\))?"
    r"(?:\*\*|__)?(?:\s*:(?!\w)(?:\*\*|__)?[ \t]*(.*)|[ \t]*$)|^[ \t]*:(?:returns?|rtype):[ \t]*(.*)$",
    re.I | re.M,
)
"""A header of the part of a description that speaks about the result, in the spellings people use:
``Returns:``, ``Returns: `` (trailing space), ``Returns (overview):``, ``Return value``, ``## Response``,
``**Returns**``, ``**Returns:**``, ``Outputs`` and ``Example response`` alone on their line, numpy's ``Returns`` over
dashes, Sphinx ``:returns:``. Group 1 (or 2) holds the rest of the line after a colon."""
_RE_CALL_OPEN = _lazy(r"[A-Za-z_][\w.]*\s*$")
_RE_SHORTHAND_NEXT = _lazy(r"[^\s,]*,[A-Za-z_]\w*=")
_RE_TYPE_PLACEHOLDER = _lazy(r"(?:string|integer|int|boolean|bool|number|float|timestamp|list|str)(?=[,}\]\s]|$)")
_RE_COND_PREFIX = _lazy(r"(?:\(|\b(?:or|and|where|not|OR|AND|WHERE|NOT))\s*\(?\s*$")
_RE_COND_SUFFIX = _lazy(
    r"\s*(?:'[^'\n]*'|\"[^\"\n]*\"|[\w.-]+)\s*\)?\s+(?:or|and|OR|AND)\s+\(?\s*[A-Za-z_]\w*\s*(?:!?=|<>|<|>|\bin\b|\bis\b)"
)
_RE_QWORD = _lazy(r"'\w+'")
_RE_ARGLINE = _lazy(r"^[ \t]*(?:[-*•]\s*)?(?:\*\*)?\w+(?:\*\*)?(?:\s*\([^)\n]*\))?\s*(?::|—|–|->|=>|→|-\s)|"
                    r":param|@param|<code>|<(?:param|parameter|arg|argument|field|input|property)\b|"
                    r"\b(?:fields|parameters|params|arguments|args|inputs|options|keys)\W{0,4}:\W{0,4}\w+\W{0,3}\s*"
                    r"(?:\([^)\n]*\)\s*)?(?::|—|–|->|=>|→|-\s)|\b(?:required|optional|param|arg|input)\w*(?:\s+\w+)?(?:\*\*|__)?\s*:",
                    re.M | re.I)
_RE_CAMEL_DIGIT = _lazy(r"[a-z][A-Z]|[A-Za-z]\d")
_RE_UPPER_OR_DIGIT = _lazy(r"[A-Z0-9]")
_RE_TRIGGER = _lazy(r"[`\"{=_':A-Z0-9@<>—–|→-]")
