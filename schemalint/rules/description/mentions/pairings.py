"""``pairing`` mentions: another parameter that a parameter is said to go with, to exclude, to need or to
be compared with: "Must be used together with `page_size`", "Cannot be combined with `offset`",
"Mutually exclusive with 'fields'", "Requires `workspace_id`", "Depends on `mode`", "Must be later than
`start_date`", "must not exceed max_price".

Read like :func:`~.conditionals.dependencies`: said of the property described (in its description) or
of a declared parameter named as the subject (anywhere: "`end_date` must be later than `start_date`"),
the other name in the form of a key (:func:`~.relations.read_name`). The imperative "Use with `x`",
"Combine with `x`" is the instruction reader's (:mod:`.imperatives`, a ``role``). At most a warning
(:mod:`.strengths`: a form not yet measured on the corpus).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, _lazy
from schemalint.rules.description.mentions.relations import (
    NAME_AHEAD,
    Name,
    clause_head,
    np_ends,
    read_name,
    relations,
    subject_ok,
)
from schemalint.rules.description.mentions.text import _is_identifier_like, _lacks_words, _sentence

_MODAL = (r"\b(?:must|should|has\s+to|have\s+to|needs?\s+to|cannot|can't|can(?:\s+not)?|may(?:\s+not)?|"
          r"must\s+not|should\s+not|shall)\s+")
_RE_GOES_WITH = _lazy(
    r"(?:(?:" + _MODAL + r"(?:only\s+|also\s+|not\s+)?be|\bis|\bare)\s+(?:only\s+|also\s+|not\s+)?)?"
    r"\b(?:used|combined|paired|passed|sent|specified|provided|given|supplied|valid|applicable|meaningful|"
    r"allowed|required|needed)\s+(?:only\s+)?(?:(?:together|along|jointly|in\s+combination|in\s+conjunction)\s+)?$"
    r"|\b(?:mutually\s+exclusive|incompatible|conflicts?)\s+$"
    r"|\b(?:only\s+)?(?:together|in\s+combination|in\s+conjunction)\s+$",
    re.I,
)
"""A parameter going with another, or not, before "with": "must be used together", "is only valid",
"cannot be combined", "mutually exclusive", "in combination"."""

_CMP = _MODAL + r"(?:(?:not|also|always)\s+)?(?:be\s+)?(?:(?:strictly|at\s+least|no)\s+)?"
_COMPARATIVE = (r"(?:later|earlier|greater|less|smaller|larger|higher|lower|bigger|more|fewer|longer|shorter|"
                r"newer|older)")
_RE_CMP_THAN = _lazy(_CMP + _COMPARATIVE + r"\s+$", re.I)
_RE_CMP_TO = _lazy(_CMP + r"(?:" + _COMPARATIVE + r"\s+(?:than\s+)?or\s+)?equal\s+$", re.I)
_RE_CMP_FROM = _lazy(_CMP + r"differ(?:ent)?\s+$", re.I)
_RE_CMP_AS = _lazy(_CMP + r"(?:the\s+)?same\s+$", re.I)
_RE_CMP_AT = _lazy(_CMP + r"(?:on\s+or\s+)?$", re.I)
"""A parameter compared with another, before the word that opens the other's slot: "must be later"
(than), "should be greater than or equal" (to), "must be different" (from), "must be the same" (as),
"must be on or" (after), "must not" (exceed)."""

_RE_NEEDS_HEAD = _lazy(r"(?:\b(?:also|only)\s+)?$", re.I)
_RE_DEPENDS_HEAD = _lazy(r"\b(?:depends|dependent|relies)\s+$", re.I)
"""A parameter needing another: "(also) requires", "depends on", "relies on". What is needed is as often
a program, a permission or a setting of the environment ("Requires `docker`"), so an ordinary word
needs more (:func:`_needed`)."""

_RE_OPEN = _lazy(
    r"(?P<conn>with|alongside|than|to|from|as|before|after|below|above|under|over|exceed|precede|[Rr]equires|on"
    r"|[<>]=?|\u2265|\u2264)\s*(?<=\s|[=<>\u2265\u2264])"
    r"(?:that\s+)?(?:the\s+)?(?:value\s+(?:of|in|given\s+(?:in|for))\s+)?(?:the\s+)?(?:also\s+)?" + NAME_AHEAD
)
"""The word that opens the other parameter's slot ("with", "than", "after", "requires", ">="), up to its
name."""

_HEADS = {
    "with": _RE_GOES_WITH, "alongside": _RE_GOES_WITH,
    "than": _RE_CMP_THAN, "to": _RE_CMP_TO, "from": _RE_CMP_FROM, "as": _RE_CMP_AS,
    **dict.fromkeys(("before", "after", "below", "above", "under", "over", "exceed", "precede", "<", "<=", ">", ">=",
                     "\u2265", "\u2264"), _RE_CMP_AT),
    "requires": _RE_NEEDS_HEAD, "Requires": _RE_NEEDS_HEAD, "on": _RE_DEPENDS_HEAD,
}
"""The head words before each word that opens the other parameter's slot (:data:`_RE_OPEN`)."""
_NEEDS = frozenset(("requires", "Requires", "on"))
_GOES = frozenset(("with", "alongside"))

_RE_AS_PARAMETER = _lazy(
    r"\s*(?:to\s+be\b|(?:is|are)\s+(?:set|given|provided|specified|true|false)\b|"
    r"(?:parameter|argument|param|option|flag|field|property)s?\b)",
    re.I,
)
"""What makes an ordinary word after "requires" a parameter: "to be set", "parameter"."""
_RE_TOOL_SUBJECT = _lazy(r"(?:(?:this|the)\s+(?:tool|function|endpoint|method|operation|call|command)|it)?", re.I)
"""The subject of a tool's own requirement ("Requires ...", "This tool requires ...")."""

_NOT_NAMES = frozenset(("now", "today", "tomorrow", "yesterday", "zero", "one", "default"))
"""Words a comparison's quoted slot holds as a value, not a name ("later than 'now'")."""

_PAIR_WORDS = frozenset(w.encode() for w in (
    "with", "alongside", "requires", "depends", "dependent", "relies", "than", "exceed", "before", "after", "below",
    "above", "under", "over", "precede", "equal", "differ", "different", "same"))
"""The words one of which a relation of :data:`_RE_OPEN` holds, but for a sign (``>=``)."""


def pairings(clean: str, found: Found, property_level: bool, level: Sequence[str],
             words: frozenset[bytes] | None = None) -> None:
    """Names of the parameters a parameter is said to go with, exclude, need or be compared with (see the
    module docstring), each as kind ``pairing`` with the name's style (and ``@property`` in a property's
    description). ``level``: the names declared where the text speaks; ``words``: the whole words of the
    text when ASCII (:func:`~.text._words_of_ascii`, a pre-filter). Not in a sentence about the result."""
    if _lacks_words(words, _PAIR_WORDS) and "<" not in clean and ">" not in clean:
        return
    for start, m in relations(clean, _RE_OPEN, _HEADS):
        conn = m.group("conn")
        names = _names(clean, m.end(), conn not in _GOES and conn not in _NEEDS)
        if not names:
            continue
        sent = _sentence(clean, start, m.end())
        if _OUTPUT_WORDS.search(sent):
            continue
        if conn in _NEEDS:
            names = _needed(clean, names, sent, start, property_level, level)
        elif not subject_ok(clean, start, property_level, level):
            continue
        for name in names:
            found.add(name.token, name.start, name.end, "pairing" + name.style + (
                "@property" if property_level else ""))


def _needed(clean: str, names: list[Name], sent: str, start: int, property_level: bool,
            level: Sequence[str]) -> list[Name]:
    """The names of ``names`` (read after "requires" at ``start``, in the sentence ``sent``) that name a
    needed parameter: said of this property or of a declared one (:func:`~.relations.subject_ok`), or in a
    tool's description of the tool itself ("Requires `workspace_id`", "This tool requires ...") in a
    sentence that names a declared parameter as a key ("... in addition to `project`"); an identifier
    (snake_case, lowerCamel), or an ordinary word written as a parameter ("`token` parameter", "`force` to
    be true") or in a sentence that names a declared parameter."""
    declared = _names_declared(sent, level)
    if not subject_ok(clean, start, property_level, level) and not (
            not property_level and declared and _RE_TOOL_SUBJECT.fullmatch(clause_head(clean, start).strip())):
        return []
    return [n for n in names if declared or _is_identifier_like(n.token) or _RE_AS_PARAMETER.match(clean, n.after)]


def _names_declared(sent: str, level: Sequence[str]) -> bool:
    """Whether ``sent`` names one of ``level`` in the form of a key (:func:`~.relations.read_name`)."""
    if not level:
        return False
    for m in _RE_KEYISH.finditer(sent):
        name = read_name(sent, m.start())
        if name is not None and name.token in level:
            return True
    return False


_RE_KEYISH = _lazy(r"[`'\"\u2018\u201c]|(?<![\w`'\"])[A-Za-z]\w*[_A-Z]")
"""Where a name in the form of a key may start: a quote or a code span, a word holding ``_`` or a capital."""


_RE_LIST_GLUE = _lazy(r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|and/or)\s+)(?:the\s+)?")


def _names(clean: str, pos: int, compared: bool) -> list[Name]:
    """The name at ``pos`` and the names joined to it by "and"/"or"/"," ("with `a` and `b`"), each ending its
    noun phrase; none when the first does not. In a comparison (``compared``) a quoted ordinary word is
    a value ("later than 'now'"), and a word of :data:`_NOT_NAMES` is one in any quotes."""
    out: list[Name] = []
    while True:
        name = read_name(clean, pos, plain_quoted=not compared)
        if name is None or not np_ends(clean, name.after) or (compared and name.token.lower() in _NOT_NAMES):
            return out
        out.append(name)
        glue = _RE_LIST_GLUE.match(clean, name.after)
        if glue is None:
            return out
        pos = glue.end()
