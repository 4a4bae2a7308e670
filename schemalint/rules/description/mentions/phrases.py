"""``phrase`` mentions: "the `x` parameter" / "the x_y argument", "x_y [and x_z] must be specified", and
their Chinese, Japanese and Korean counterparts ("参数 `x`")."""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import (
    _INPUT_WORDS,
    _OUTPUT_WORDS,
    _RE_CONJ_BEFORE,
    _RE_PASSIVE,
    _RE_THE_PARAM,
    _RE_TOKEN_BEFORE,
    _RE_VALUE_BEFORE,
    _WEAK_NOUNS,
)
from schemalint.rules.description.mentions.text import (
    _STOP,
    _is_identifier_like,
    _lacks_words,
    _sentence,
    _value_shaped,
)


def the_parameter(clean: str, found: Found) -> None:
    """"the `x` parameter" / "the x_y argument" (field/key/property/input only in a sentence
    about input, never in one about output)."""
    for m in _RE_THE_PARAM.finditer(clean):
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
        found.add(tok, m.start(2), m.end(2), "phrase")


_PARTICIPLES = frozenset((b"specified", b"provided", b"set", b"given", b"supplied", b"passed", b"included"))
"""The participles of :data:`~.patterns._RE_PASSIVE` ("must be specified"), which also needs "be" and a
modal (:data:`_MODALS`); its other form needs "required" and "is" or "are" (all whole words: the
pattern has white space before each and white space or ``\\b`` after)."""
_REQUIRED = frozenset((b"required", b"optional", b"mandatory"))
_DEFAULTS = frozenset((b"defaults", b"default"))
_RE_LEAVE_OR_DEFAULT = re.compile(r"optional|mandatory|default", re.I)
"""The phrases of :func:`must_be_given` that a result's fields share with arguments ("`x` is optional",
"`x` defaults to 0"): not read in a sentence about the result."""
_TO = frozenset((b"to",))
_BE = frozenset((b"be",))
_MODALS = frozenset((b"must", b"should", b"can", b"may", b"need", b"needs", b"has", b"have"))
_IS_ARE = frozenset((b"is", b"are"))


def may_be_given(words: frozenset[bytes] | None) -> bool:
    """Whether a text whose whole words are ``words`` (:func:`~.text._words_of_ascii`, ``None`` for
    a text that is not ASCII) may hold a match of :data:`~.patterns._RE_PASSIVE` (exact: each of its
    forms needs these words)."""
    return not ((_lacks_words(words, _REQUIRED) or _lacks_words(words, _IS_ARE)) and (
        _lacks_words(words, _BE) or _lacks_words(words, _PARTICIPLES) or _lacks_words(words, _MODALS)) and (
        _lacks_words(words, _DEFAULTS) or _lacks_words(words, _TO)))


def must_be_given(clean: str, found: Found, words: frozenset[bytes] | None = None) -> None:
    """"x_y [and x_z] must be specified / are required / is optional / defaults to 30": the names
    before a phrase that speaks of a value the caller gives or leaves out (``words``: the whole words
    of ``clean`` when it is ASCII, :func:`~.text._words_of_ascii`; a text with neither "is"/"are"
    and "required"/"optional"/"mandatory", nor a modal, "be" and a participle, nor "default(s)" and
    "to" is not scanned)."""
    if not may_be_given(words):
        return
    for m in _RE_PASSIVE.finditer(clean):
        pos = m.start()
        if _RE_LEAVE_OR_DEFAULT.search(m.group()) and _OUTPUT_WORDS.search(_sentence(clean, m.start(), m.end())):
            continue  # "the response's `status` defaults to active": a field of the result
        while True:
            t = _RE_TOKEN_BEFORE.search(clean, max(0, pos - 80), pos)
            if not t:
                break
            tok = t.group(2)
            if not (_is_identifier_like(tok) or t.group(1).startswith("`")) or tok.lower() in _STOP:
                break
            if _RE_VALUE_BEFORE.search(clean, max(0, t.start() - 12), t.start()):
                break  # "when `mode` is `remote`, `host` ... are required": `remote` is a value
            if not _value_shaped(clean, t.start(), t.end()):
                found.add(tok, t.start(2), t.end(2), "phrase")
            conj = _RE_CONJ_BEFORE.search(clean, max(0, t.start() - 12), t.start())
            if not conj:
                break
            pos = conj.start()


_RE_CJK_PARAM = re.compile(
    r"(?:参数|參數|パラメータ|パラメーター|引数|매개변수|인자)\s*[:：]?\s*(`|'|\"|「|“)([A-Za-z_][A-Za-z0-9_]*)(?:`|'|\"|」|”)")
"""The CJK counterpart of "the `x` parameter": a quoted name right after the word for parameter
(``可选参数 `unit`：...``, ``引数「limit」``)."""
_RE_CJK_RESULT = re.compile(r"返回|返回值|输出|結果|结果|戻り値|レスポンス|응답|반환")


def cjk_parameters(clean: str, found: Found) -> None:
    """``phrase`` mentions in text written mostly in Chinese, Japanese or Korean: a quoted name right
    after the word for parameter, outside sentences about the result."""
    for m in _RE_CJK_PARAM.finditer(clean):
        start = max(clean.rfind(p, 0, m.start()) for p in "。\n.！？")
        if _RE_CJK_RESULT.search(clean, start + 1, m.start()):
            continue
        found.add(m.group(2), m.start(2), m.end(2), "phrase")
