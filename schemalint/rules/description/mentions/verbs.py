"""``verb`` (and quoted ``backtick``) mentions: "pass/set/provide/specify/supply/omit x_y [and x_z]"
after an instruction position; an ordinary word there is only a *plain* mention."""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import (
    _FILLER,
    _OTHER_THING,
    _PARAM_NOUN,
    _RE_CONJ,
    _RE_FILLER,
    _RE_NOUN_AFTER,
    _RE_SET_OF,
    _RE_TO_VALUE,
    _RE_TOKEN,
    _RE_VERB,
    _lazy,
)
from schemalint.rules.description.mentions.text import (
    _STOP,
    _imperative,
    _is_identifier_like,
    _lacks_words,
    _value_shaped,
)

_RE_HEAD_NOUN = _lazy(
    rf"\s+(?:{_PARAM_NOUN}|ids?|names?|values?|text|string|number)"
    r"(?:\s+of\s+(?:the|a|an|this|that|its|your|each)\s+[A-Za-z]+)?(?=[\s,])"
)
"""What may follow a quoted verb object before the next one: a head noun, optionally with a short
"of the <noun>" ("pass the `artifact` id of the answer and a short `name`")."""

_RE_PLAIN_END = _lazy(r"\s*(?:$|[.,;:)!?]|(?:for|to|and|or|when|if|so|that|which|with|in|on)\b)")


_VERB_WORDS = frozenset((b"pass", b"set", b"provide", b"specify", b"supply", b"omit", b"fill", b"populate"))
"""The words of :data:`~.patterns._RE_VERB` (whole words: it reads ``\\b`` on both sides)."""


def verb_objects(clean: str, property_level: bool, found: Found, words: frozenset[bytes] | None = None) -> None:
    """The objects of every imperative "pass/set/... x [and y]" in ``clean``.

    ``property_level``: the text is a property's description, where "pass the x" usually
    describes the property's own value, so only a quoted or identifier-like name followed by
    a parameter noun or "to <value>" counts. ``words``: the whole words of ``clean`` when it is
    ASCII (:func:`~.text._words_of_ascii`; then a text without a verb is not scanned).
    """
    if _lacks_words(words, _VERB_WORDS):
        return
    for m in _RE_VERB.finditer(clean):
        if _imperative(clean, m.start()):
            _objects(clean, m, property_level, found)


def _skip_filler(clean: str, i: int) -> tuple[int, int]:
    """The position after up to three filler words ("the", "a", "an" ...) from ``i``, and how many."""
    words_seen = 0
    while True:
        w = _RE_FILLER.match(clean, i)
        if w and w.group(1).lower() in _FILLER and words_seen < 3 and w.group(1) not in ("of", "for"):
            i = w.end()
            words_seen += 1
            continue
        return i, words_seen


def _objects(clean: str, m: re.Match[str], property_level: bool, found: Found) -> None:
    """The names after the verb ``m``, joined by "," / "and" / "or", until one is not a name."""
    i, words_seen = _skip_filler(clean, m.end())
    first = True
    while True:
        t = _RE_TOKEN.match(clean, i)
        if not t or not _object(clean, t, m, property_level, words_seen, first, found):
            return
        i = t.end()
        first = False
        if t.group(1):  # a quoted name may carry a head noun: "the `artifact` id (of the answer) and ..."
            tail = _RE_HEAD_NOUN.match(clean, i)
            if tail and _RE_CONJ.match(clean, tail.end()):
                i = tail.end()
        j = _RE_CONJ.match(clean, i)
        if not j:
            return
        i = j.end()
        while i > j.start() and clean[i - 1].isspace():  # the filler words start after a space
            i -= 1
        i, words_seen = _skip_filler(clean, i)  # "... and a short `query_text`"


def _object(
    clean: str, t: re.Match[str], m: re.Match[str], property_level: bool, words_seen: int, first: bool, found: Found
) -> bool:
    """Add the token ``t`` after the verb ``m`` when it reads as a parameter; ``False`` ends the list."""
    tok, q = t.group(2), t.group(1)
    s, e = t.start(2), t.end(2)
    if clean[e + len(q) : e + len(q) + 1] == "(":
        return False  # set foo(...): a call
    rest = clean[e + len(q) : e + len(q) + 80]
    if first and tok.lower() == "to":
        return False
    if _value_shaped(clean, s - len(q), e + len(q)) or _OTHER_THING.match(rest):
        return False
    if m.group(0).lower() == "set" and _RE_SET_OF.match(rest):
        return False
    if not q and tok.lower() in _STOP:
        return False
    if _strong(tok, q, rest, property_level, words_seen):
        found.add(tok, s, e, "verb" if not q else "backtick")
    elif not q and not first:
        return False
    elif _RE_PLAIN_END.match(rest):
        found.add(tok, s, e, "verb", plain=True)
    else:
        return False
    return True


def _strong(tok: str, q: str, rest: str, property_level: bool, words_seen: int) -> bool:
    """Whether the object ``tok`` (quoted with ``q``, followed by ``rest``) is a parameter name
    rather than an ordinary word."""
    noun = _RE_NOUN_AFTER.match(rest) is not None
    to_value = _RE_TO_VALUE.match(rest) is not None
    ident = _is_identifier_like(tok)
    if property_level:
        return bool((q or ident) and (noun or to_value))
    if q:
        return ident or noun or to_value or words_seen > 0
    return ident
