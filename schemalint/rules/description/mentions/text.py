"""Text helpers shared by the kinds: value shapes, sentences, output sections, other tools' calls."""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from schemalint.rules.description.mentions.patterns import (
    _ARG_HEADER,
    _LATIN,
    _NON_LATIN,
    _OUTPUT_HEADER,
    _RE_ALNUM_MIX,
    _RE_ARGLINE,
    _RE_CALL_OPEN,
    _RE_CAMEL,
    _RE_CAMEL_DIGIT,
    _RE_COND_PREFIX,
    _RE_COND_SUFFIX,
    _RE_FORMAT_BEFORE,
    _RE_IDENT,
    _RE_NOT_NL,
    _RE_QWORD,
    _RE_SHORTHAND_NEXT,
    _RE_TRIGGER,
    _RE_TYPE_PLACEHOLDER,
    _RE_UPPER_OR_DIGIT,
    _RESERVED,
    _lazy,
    _LazyPattern,
)
from schemalint.rules.tool_text import TO_WORDS

if TYPE_CHECKING:
    from schemalint.rules.tool_text import ToolText


def _lacks(low: str | None, words: tuple[str, ...]) -> bool:
    """True when ``low`` (the lower-cased text, or ``None`` when the text is not ASCII) holds none
    of ``words``: a kind whose case-insensitive pattern needs one of them finds nothing there.
    Only ASCII text is answered (``re.I`` folds some non-ASCII letters onto ASCII ones: ``ſ``
    matches ``s``), and the answer is exact: the pattern's words are literal substrings of any
    match."""
    return low is not None and not any(w in low for w in words)


def _words_of_ascii(low: str | None) -> frozenset[bytes] | None:
    """The whole words of ``low`` (the lower-cased text, ``None`` when the text is not ASCII) as
    ``\\b`` delimits them in ASCII text (runs of letters, digits and ``_``), or ``None``."""
    return None if low is None else frozenset(low.encode().translate(TO_WORDS).split())


def _lacks_words(words: frozenset[bytes] | None, wanted: frozenset[bytes]) -> bool:
    """True when ``words`` (:func:`_words_of_ascii`) holds none of ``wanted``: a kind whose
    case-insensitive pattern needs one of them as a whole word finds nothing there."""
    return words is not None and wanted.isdisjoint(words)


def key_shaped(word: str) -> bool:
    """kebab-case (``dry-run``) or :func:`_is_identifier_like`: a word shaped like a key."""
    return "-" in word.strip("-") or _is_identifier_like(word)


def _is_identifier_like(tok: str) -> bool:
    """snake_case, camelCase, or letters+digits: not an ordinary English word."""
    if "_" in tok.strip("_"):
        return True
    if _RE_CAMEL.search(tok):
        return True
    return bool(_RE_ALNUM_MIX.search(tok))


def _mostly_non_latin(text: str) -> bool:
    if text.isascii():
        return False  # every ASCII character lies in the Latin range the pattern leaves out
    non_latin = len(_NON_LATIN.findall(text))
    if not non_latin:
        return False
    latin = len(_LATIN.findall(text))
    return non_latin / (non_latin + latin) > 0.2


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


def _ok_token(tok: str) -> bool:
    if len(tok) < 2 or tok.lower() in _RESERVED:
        return False
    if re.fullmatch(r"[A-Z0-9_]+", tok):  # ALL_CAPS: a constant / enum value / env var
        return False
    return not tok[0].isdigit() and not _opaque(tok)


_LETTER_DIGIT_SWITCH = re.compile(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])")


def _opaque(tok: str) -> bool:
    """An id, key or encoded value quoted as an example, not a name: 20 characters or more, no
    ``_``/``-`` to separate words, and letters and digits alternating six times or more
    (``Z2RjOG80Smk2WVV2R0ww...``, a base64 image id in OpenBMB/ToolBench's RapidAPI tools: "ex of
    image id : "Z2Rj...""). Parameter names with digits switch a few times at most (``address2``,
    ``sha256Hash``, ``v1beta2Location``)."""
    if len(tok) < 20 or "_" in tok or "-" in tok:
        return False
    return len(_LETTER_DIGIT_SWITCH.findall(tok)) >= 6


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


def _output_section_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each response part of a description: the rest of a line ``Returns: ...`` /
    ``Example response: ...`` (every spelling of :data:`~.patterns._OUTPUT_HEADER`; up to the closing
    bracket when the line ends by opening one, ``Returns: {``), and when that
    header ends its line, the lines after it up to a blank line or an ``Args:``/``Parameters:``
    header (a numpy underline of dashes right after the header does not end it)."""
    low = text.lower()
    if "return" not in low and "respon" not in low and "output" not in low and "result" not in low and (
            "yield" not in low):
        return []
    spans = []
    for m in _OUTPUT_HEADER.finditer(text):
        rest = 1 if m.group(1) is not None else 2
        if m.group(rest) is not None and m.group(rest).strip():
            lo, hi = m.start(rest), m.end(rest)
            if m.group(rest).rstrip()[-1:] in ("{", "["):
                hi = _bracket_end(text, hi)  # "Returns: {" opens the result's object: up to its end
        else:
            lo = m.end()
            hi = len(text)
            pos = text.find("\n", m.end())
            while pos != -1:
                nxt = text.find("\n", pos + 1)
                line = text[pos + 1 : nxt if nxt != -1 else len(text)]
                if (not line.strip() and pos > m.end()) or _ARG_HEADER.match(line):
                    hi = pos
                    break
                pos = nxt
        spans.append((lo, hi))
    return spans


_BRACKET_REACH = 4000
"""Characters after an opening bracket in which :func:`_bracket_end` looks for its close."""


def _bracket_end(text: str, at: int) -> int:
    """The offset after the bracket that closes the one opened just before ``at`` (brackets of either
    kind counted together, strings not told apart), or ``at`` when it does not close within
    :data:`_BRACKET_REACH` characters."""
    depth = 1
    for i in range(at, min(len(text), at + _BRACKET_REACH)):
        c = text[i]
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                return i + 1
    return at


def _blank_output_sections(text: str) -> str:
    """Blank the response parts of a description (:func:`_output_section_spans`; offsets stay
    valid). What sits there describes what the tool gives back, never what to pass."""
    out = text
    for lo, hi in _output_section_spans(text):
        out = out[:lo] + _RE_NOT_NL.sub(" ", out[lo:hi]) + out[hi:]
    return out


_RE_RESULT_NAME = _lazy(r"(?<![\w/.-])[A-Za-z_][A-Za-z0-9_]*(?![\w/-])")
_RE_QUOTED_PART = _lazy(r"`[^`\n]{1,400}`|\"[A-Za-z_]\w*\"|'[A-Za-z_]\w*'|\{[^{}\n]{1,400}\}")
_RE_KEY_SHAPED = _lazy(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]{2,}[0-9]*[A-Z]\w*")


def result_section_names(text: str) -> frozenset[str]:
    """The key-like names written in the response parts of ``text`` (identifiers inside code spans,
    quotes or braces there, and snake_case/lowerCamel words: ``Returns: `{ id, dailyCapReached? }```):
    fields of the result. The same name elsewhere in the description ("when you see
    `dailyCapReached: true`") is the result field again, not a parameter, as a name of the
    ``outputSchema`` is. Ordinary words of the section ("Returns the list of ...") are not taken."""
    spans = _output_section_spans(text)
    if not spans:
        return frozenset()
    out: set[str] = set()
    for lo, hi in spans:
        for q in _RE_QUOTED_PART.compiled().finditer(text, lo, hi):
            out.update(m.group(0) for m in _RE_RESULT_NAME.compiled().finditer(q.group(0)))
        out.update(m.group(0) for m in _RE_RESULT_NAME.compiled().finditer(text, lo, hi)
                   if _RE_KEY_SHAPED.compiled().fullmatch(m.group(0)))
    return frozenset(out)


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


_RE_CONFIGURED_AFTER = re.compile(
    r"\S*\s+(?:(?:is|are)\s+)?(?:(?:set|configured|fixed|defined|hard-?coded)\s+)?(?:in|by|via|through|from)\s+"
    r"(?:its|the|a|your|our)?\s*(?:config(?:uration)?|settings?|environment|server(?:'s)?\s+config(?:uration)?|"
    r"\.env|config\s+file)\b", re.I)
"""What says a ``key=value`` is set somewhere else than in the call: "set in its configuration",
"configured in the environment", "from the config file"."""


def _assignment_is_value(text: str, m: re.Match[str], tool_name: str) -> bool:
    """``x=value`` that is not an instruction to pass ``x``: a shorthand value string
    (``A=string,B={...}``), a condition on a record's state (``(x = 'a' or x = 'b')``), or a
    keyword argument of another call or constructor (``Result(total=3)``)."""
    start, end = m.start(1), m.end()
    if start > 0 and text[start - 1] in ",{[":
        return True  # a later key of a shorthand run A=1,B=2
    if _RE_SHORTHAND_NEXT.match(text, end) or _RE_TYPE_PLACEHOLDER.match(text, end):
        return True
    if _RE_CONFIGURED_AFTER.match(text, end):
        return True  # "similarity_top_k=3 set in its configuration": a setting, not an argument
    line_start = text.rfind("\n", 0, start) + 1
    if not text[line_start:start].strip() and text[m.end(1) : m.end(1) + 3] == " = ":
        return True  # "error_location = {...}" alone on its line: a variable of example code
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
    stop = text.rfind(". ", lo, start)
    while stop != -1 and text.endswith(_ABBREVIATIONS, lo, stop + 1):
        stop = text.rfind(". ", lo, stop)  # "e.g. `--force`" goes on the sentence before it
    s = max(stop, text.rfind("\n", lo, start), lo)
    stop = text.find(". ", end, hi)
    while stop != -1 and text.endswith(_ABBREVIATIONS, lo, stop + 1):
        stop = text.find(". ", stop + 2, hi)
    e_candidates = [i for i in (stop, text.find("\n", end, hi)) if i != -1]
    e = min(e_candidates) if e_candidates else hi
    return text[s:e]


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "E.g.", "I.e.")
"""Abbreviations whose final period does not end a sentence."""


_TRIGGER_FIRST = frozenset("`\"{=_':@<>—–|→-")


def _any_might_mention(texts: list[str]) -> bool:
    """False only when :func:`_might_mention` is false for every text of ``texts``: the first
    test of that function, without a call per text (catalogs describe every property)."""
    search = _RE_TRIGGER.compiled().search
    first = _TRIGGER_FIRST
    return any(search(text, 1) is not None or text[:1] in first for text in texts)


_RE_SHAPE_CAMEL = _LazyPattern(rb"aA")
"""A lower-case letter before an upper-case one, in :attr:`ToolText.shapes`."""


def _marked(text: str) -> bool:
    """The tests both pre-filters share: a backquote, double quote, brace, ``=`` or ``_``, a
    single-quoted word, a Markdown table line, or an argument line (``name: ...``, ``**name** —``,
    ``name -> ...``, ``@param``, ``<code>``)."""
    if "`" in text or '"' in text or "{" in text or "=" in text or "_" in text:
        return True
    return ("'" in text and _RE_QWORD.search(text) is not None) or "\n|" in text or (
        (":" in text or "—" in text or "–" in text or ">" in text or "@" in text or "<" in text or "→" in text
         or "-" in text)
        and _RE_ARGLINE.search(text) is not None)


def _joined_might_mention(text: ToolText) -> bool:
    """False only when :func:`_might_mention` is false for every description of the tool whose
    :class:`~schemalint.rules.tool_text.ToolText` is ``text``: its tests asked once of the joined
    text (and remembered with it, :meth:`ToolText.answer`). Each test holds of the joined text when
    it holds of one description in it (a character, a match of a pattern that needs no text around
    it, a line start that the ``"\n"`` before a description keeps); the camelCase-or-digit test runs
    in C on ASCII text (:attr:`ToolText.shapes`)."""
    found: bool = text.answer(_joined_might_mention, _joined_test)
    return found


def _joined_test(text: ToolText) -> bool:
    """:func:`_joined_might_mention`, computed."""
    j = text.joined
    if _marked(j):
        return True
    if text.ascii:
        shapes = text.shapes  # a digit is rare (one fast scan); "aA" is found faster by re than by `in`
        return (b"0" in shapes and (b"a0" in shapes or b"A0" in shapes)) or _RE_SHAPE_CAMEL.search(shapes) is not None
    return _RE_UPPER_OR_DIGIT.search(j, 1) is not None and _RE_CAMEL_DIGIT.search(j) is not None


@functools.lru_cache(maxsize=1 << 15)
def _might_mention(text: str) -> bool:
    """Cheap pre-filter: can ``text`` hold a non-plain mention at all (quote, ``_``, camelCase, ``x:``...)?
    Remembered for the last 32,768 strings (catalogs repeat descriptions)."""
    # every test below needs one of these characters (an upper-case letter or digit only
    # after the first character); most descriptions have none and cost one scan
    if _RE_TRIGGER.search(text, 1) is None and text[:1] not in _TRIGGER_FIRST:
        return False
    if _marked(text):
        return True
    # a single character class scans much faster than the pair pattern; both need an
    # upper-case letter or a digit after the first character
    return _RE_UPPER_OR_DIGIT.search(text, 1) is not None and _RE_CAMEL_DIGIT.search(text) is not None
