"""What the readings of a relation between two parameters share (:mod:`.conditionals`' dependencies,
:mod:`.pairings`): the name in the other parameter's slot, and the subject the relation is said of.

A property's description often says how it depends on another parameter of the same call ("Only used
when `auth_type` is 'basic'", "Must be later than `start_date`", "Cannot be combined with `offset`").
The other parameter's name counts only in a form that marks it as a key (:func:`read_name`), and only
when the relation is said of this property or of a declared parameter (:func:`subject_ok`): "Required
when creating", "Only used when sorting" name no key, and "GitHub rejects it when `state` is ..." speaks
of someone else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from schemalint.rules.description.mentions.imperatives import _ELSEWHERE_AFTER, _NOT_NAME_AFTER, name_shaped
from schemalint.rules.description.mentions.patterns import _OTHER_THING, IDENT, KEBAB, _lazy, _LazyPattern
from schemalint.rules.description.mentions.text import _is_identifier_like, _value_shaped


class Name(NamedTuple):
    """A name read at a position: ``token``; its span ``start``-``end`` (the name itself); ``style``
    (``""`` a code span, ``"-quoted"``, ``"-word"`` an unquoted identifier-shaped word, the suffixes
    of :mod:`.strengths`); ``after``: where the written name ends (past a closing quote)."""

    token: str
    start: int
    end: int
    style: str
    after: int


_RE_NAME = _lazy(
    rf"(`{{1,2}})(?P<code>{KEBAB}|{IDENT})\1(?!`)"
    rf"|(?P<q>['\"\u2018\u201c])(?P<quoted>{IDENT})['\"\u2019\u201d]"
    rf"|(?P<word>{IDENT})\b"
)


def read_name(clean: str, pos: int, *, plain_quoted: bool = True) -> Name | None:
    """The parameter name written at ``clean[pos:]``, or ``None``: a code span (an identifier or a
    kebab-case name), a quoted identifier not starting with a capital (a capitalised one is a label or
    a value: "'Custom'"), or an unquoted identifier-shaped word (snake_case, lowerCamel:
    :func:`~.imperatives.name_shaped`); an ordinary English word unquoted is not one ("when sorting").
    ``plain_quoted``: whether a quoted ordinary word counts ("'mode'"); where the slot as often holds a
    value ("later than 'now'") it does not. A name followed by a word that makes it something else ("the
    `jq` syntax", "`x` tool", "`id` of the previous response") or written as part of a value (a path, a
    dotted field) is not one."""
    m = _RE_NAME.match(clean, pos)
    if m is None:
        return None
    if m.group("code") is not None:
        tok, start, end, style = m.group("code"), m.start("code"), m.end("code"), ""
    elif m.group("quoted") is not None:
        tok, start, end, style = m.group("quoted"), m.start("quoted"), m.end("quoted"), "-quoted"
        if tok[:1].isupper() or (not plain_quoted and not _is_identifier_like(tok)):
            return None
    else:
        tok, start, end, style = m.group("word"), m.start("word"), m.end("word"), "-word"
        if not name_shaped(tok) or _value_shaped(clean, start, end):
            return None
    rest = clean[m.end() : m.end() + 40]
    if _OTHER_THING.match(rest) or _NOT_NAME_AFTER.match(rest) or _ELSEWHERE_AFTER.match(rest):
        return None
    if rest[:1] in "(.[" and rest[1:2].strip():
        return None  # a call, a dotted field, an index: "`f(x)`", "options.timeout"
    return Name(tok, start, end, style, m.end())


_RE_NP_END = _lazy(
    r"\s*(?:$|[.,;:()!?\u2014]|-\s|(?:and|or|to|when|if|unless|as|in|is|are|must|should|but|otherwise|instead|"
    r"for|at|on|so|then|also|too|both|parameter|argument|param|option|flag|field|property|key|value|set|"
    r"given|provided|specified|present)\b)",
)
"""What may follow the other parameter's name where nothing else must ("Requires `page_size`.",
"Requires `page_size` to be set", "... with `offset` parameter"): the end of the clause, a
conjunction or preposition, a noun of parameters, "is"; not another noun ("Requires `repo` scope",
"needs `gh` installed"), which makes the name a modifier of something else."""


def np_ends(clean: str, after: int) -> bool:
    """Whether the name that ends at ``after`` ends its noun phrase there (:data:`_RE_NP_END`)."""
    return _RE_NP_END.match(clean, after) is not None


_RE_CLAUSE_BREAK = _lazy(r"(?:[.!?;:](?=\s)|\n|[(\u2014\u2013]|\s-\s|,)")
_RE_OWN_SUBJECT = _lazy(
    r"(?:(?:optional(?:ly)?|note|also|and|but|so|otherwise|however|only)\b[\s,:]*)*"
    r"(?:(?:it|this|which|that|these|they"
    r"|(?:this|the|its|that)\s+(?:parameter|argument|param|field|option|flag|property|value|setting|input)s?)\s*)?"
    r"(?:(?:is|are|will\s+be|gets?|becomes?)\b\s*)?",
    re.I,
)
"""What may stand before a relation said of the property being described: nothing (the clause starts
with it: "Only used when ...", "Must be later than ..."), a pronoun ("It is ignored unless ...", "which
must be ..."), "this parameter"/"the value", and the fillers "Optional", "Note:", "also"."""
_RE_NAMED_SUBJECT = _lazy(
    rf"(?:the\s+)?(`{{1,2}}|['\"]|)(?P<name>{KEBAB}|{IDENT})\1"
    r"(?:\s+(?:parameter|argument|param|field|option|flag|property|value))?(?:\s+(?:is|are|will\s+be))?\s*",
    re.I,
)
"""A declared parameter as the subject of the relation ("`end_date` must be later than ...", "The
`depth` parameter is ignored unless ...")."""


def clause_head(clean: str, start: int) -> str:
    """The words of the clause holding ``start`` before it: from the last clause break (a sentence end,
    a line end, ``;``, ``:``, ``(``, a dash, a comma), within 120 characters."""
    lo = max(0, start - 120)
    last = lo
    for m in _RE_CLAUSE_BREAK.finditer(clean, lo, start):
        last = m.end()
    return clean[last:start]


def subject_ok(clean: str, start: int, property_level: bool, level: Sequence[str]) -> bool:
    """Whether the relation whose words start at ``start`` is said of a parameter of this call: of the
    property described (``property_level``: its clause starts there or with a pronoun, :data:`_RE_OWN_SUBJECT`)
    or of a declared one named as its subject (a name in ``level``, the names declared where the text
    speaks: :data:`_RE_NAMED_SUBJECT`); in a tool's description only the latter."""
    head = clause_head(clean, start).strip()
    if property_level and _RE_OWN_SUBJECT.fullmatch(head):
        return True
    m = _RE_NAMED_SUBJECT.fullmatch(head)
    return m is not None and m.group("name") in level


NAME_AHEAD = r"(?=[`'\"\u2018\u201c]|[a-z][a-z0-9]*_[a-z0-9]|[a-z]{2,}[0-9]*[A-Z][a-z])"
"""What a name read by :func:`read_name` starts with: a quote, a code span, a snake_case or lowerCamel
word; the end of a relation's opening, so that the opening is matched only before a name."""

_HEAD_REACH = 80
"""How far before its opening a relation's head words are looked for."""


def relations(clean: str, opener: _LazyPattern,
              head_of: dict[str, _LazyPattern]) -> Iterator[tuple[int, re.Match[str]]]:
    """(start of the relation, the opener's match) for each relation of ``clean``: a match of ``opener``
    (the word that opens the other parameter's slot, "when", "with", "than", up to the name: its group
    ``conn`` is that word as written, matched case-sensitively so that the pattern starts with literals
    and is found fast) standing as a whole word, right after the head words ``head_of[conn]`` (a
    case-insensitive pattern ending in ``$``, "only used", "must be later") within
    :data:`_HEAD_REACH` characters. Looking for the rare opening before a name first, and for its head
    only there, costs a tenth of one pattern with the head's optional words in front."""
    for m in opener.finditer(clean):
        at = m.start()
        if at and (clean[at - 1].isalnum() or clean[at - 1] == "_") and clean[at].isalpha():
            continue  # inside a word: "often", "without" read as "out"
        head = head_of.get(m.group("conn"))
        if head is None:
            continue
        h = head.search(clean, max(0, at - _HEAD_REACH), at)
        if h is not None:
            yield h.start(), m
