"""``conditional`` mentions: a backticked name whose value a condition tests ("If `recursive` is true,
...", "Unless `overwrite` is set, ...", "Ignored when `cursor` is given"): the author writes about a
value the model is expected to send.

Also (:func:`dependencies`) a name, in any form of a key, that a parameter is said to depend on: "Only
used when auth_type is 'basic'", "Required if 'mode' is 'advanced'", "Has no effect without `verbose`",
in a property's description of that property, or of a declared parameter named as the subject
(:mod:`.relations`); read in the description of a string value too, where the plain condition is not.

Not read in a sentence about the result ("returns", "the response"...) or about paging through
results ("call again", "the next page"), where the tested name is usually a result field
(``has_more``). At most a warning (:mod:`.strengths`: a form not yet measured on the corpus).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, IDENT, KEBAB, _lazy
from schemalint.rules.description.mentions.relations import NAME_AHEAD, np_ends, read_name, relations, subject_ok
from schemalint.rules.description.mentions.text import _is_identifier_like, _lacks_words, _sentence

_RE_CONDITION = _lazy(
    rf"\b(?:[Ii]f|[Ww]hen|[Ww]henever|[Uu]nless|[Oo]nce)\s+(?:the\s+)?(`{{1,2}})({KEBAB}|{IDENT})\1"
    r"(?:\s+(?:parameter|argument|option|flag))?\s+(?:is|are)\s+(?:not\s+|also\s+)?"
    r"(?:set|true|false|given|provided|omitted|specified|present|passed|supplied|enabled|disabled|"
    r"empty|null|missing|absent|[0-9]|`{1,2}(?!`)(?![A-Z0-9_]+`))"
)
"""A condition on a backticked name's value: "if `x` is true", "when `x` is `csv`", "unless `x` is set".
A value in capitals (``OKTA_MANAGED``, ``BLOCKED``) is a state of the upstream service, and the name
tested is then its field, not this call's argument ("If `certificateSourceType` is `OKTA_MANAGED`,
Okta also provisions a certificate")."""

_RE_PAGING = _lazy(
    r"\b(?:again|next\s+page|more\s+(?:results|pages|items|rows|records)|previous\s+(?:call|response|request|page))\b",
    re.I,
)
"""Words of paging through results, where a tested name is a result field ("If `has_more` is true, call
again")."""


_RE_ABOUT_THIS_CALL = _lazy(
    r"(?:^|[,;:(\u2014-])\s*$|\b(?:ignored|required|used|needed|applies|applied|allowed|optional|mandatory|only)\s*$",
    re.I,
)
"""What may stand before the condition in its sentence: nothing (a clause of its own, "If `x` is true,
..."), a clause break, or a word about this call's arguments ("Ignored when `cursor` is set"). Not a
clause about someone else ("GitHub rejects the merge when `mergeable_state` is `blocked`")."""


_RE_REFUSED_BEFORE = _lazy(
    r"\b(?:fails?|errors?(?:\s+out)?|rejects?(?:\s+(?:the|a)\s+(?:call|request))?|throws?(?:\s+an?\s+\w+)?|"
    r"raises?(?:\s+an?\s+\w+)?|(?:returns?|answers?|responds?(?:\s+with)?|gives?|sends?\s+back)\s+(?:an?\s+)?(?:(?:HTTP\s+)?4(?:00|22)|error|validation\s+error)(?:\s+\w+)?)"
    r"(?:\s*\([^)\n]{0,30}\))?\s*$",
    re.I,
)
"""What refuses the call just before a condition on a missing name ("Fails when `x` is absent", "Returns
400 if `x` is missing"; of the statuses only 400 and 422: a 404 is about a thing that does not
exist): the name is one the call must carry, even in a sentence that says "returns"."""
_RE_MISSING_AFTER = _lazy(
    r"(?:not\s+(?:set|given|provided|specified|passed|supplied)|missing|absent|omitted|empty|null)\b"
    r"(?!\s+(?:from|in|on|at)\b)", re.I)


def conditions(clean: str, found: Found) -> None:
    """Names whose value a condition tests, outside sentences about the result or about paging; in
    any sentence, a name whose absence refuses the call (:data:`_RE_REFUSED_BEFORE`)."""
    for m in _RE_CONDITION.finditer(clean):
        head = max(clean.rfind(". ", 0, m.start()) + 1, clean.rfind("\n", 0, m.start()) + 1, 0)
        if _RE_REFUSED_BEFORE.search(clean, head, m.start()) and _RE_MISSING_AFTER.search(
                clean, m.end(2) + len(m.group(1)), m.end() + 4):
            found.add(m.group(2), m.start(2), m.end(2), "conditional")
            continue
        sent = _sentence(clean, m.start(), m.end())
        if _OUTPUT_WORDS.search(sent) or _RE_PAGING.search(sent):
            continue
        if not _RE_ABOUT_THIS_CALL.search(clean[head : m.start()]):
            continue
        found.add(m.group(2), m.start(2), m.end(2), "conditional")


_RE_DEPEND_HEAD = _lazy(
    r"\b(?:(?:is|are)\s+)?(?:(?:only|also|then)\s+)?"
    r"(?:used|read|applies|apply|applied|applicable|valid|relevant|honou?red|considered|respected|evaluated|"
    r"effective|meaningful|needed|necessary|required|mandatory|ignored|allowed|permitted|accepted|optional|"
    r"takes?\s+effect|has\s+(?:an\s+|any\s+)?effect|(?:has\s+)?no\s+effect|does\s+nothing|matters?|works?|only|"
    r"(?:provide|set|pass|specify|include|send|supply)(?:\s+(?:it|this|them))?)"
    r"(?:\s+only)?,?\s+$",
    re.I,
)
"""Words saying that a parameter depends on a condition, before the condition: "only used", "is ignored",
"required", "has no effect", "set it only", "Only"."""
_RE_DEPEND_OPEN = _lazy(
    r"(?P<conn>when|if|unless|whenever|once|without)\s+"
    r"(?P<verb>(?:using|setting|passing|providing|specifying|enabling)\s+)?"
    r"(?:the\s+)?(?:value\s+of\s+(?:the\s+)?)?" + NAME_AHEAD
)
"""The opening of the condition, up to the name it tests ("when", "unless", "without", "when using",
"if the value of")."""
_DEPEND_HEADS = {"when": _RE_DEPEND_HEAD, "if": _RE_DEPEND_HEAD, "unless": _RE_DEPEND_HEAD,
                 "whenever": _RE_DEPEND_HEAD, "once": _RE_DEPEND_HEAD, "without": _RE_DEPEND_HEAD}

_RE_TESTED = _lazy(
    r"(?:\s+(?:parameter|argument|param|option|flag|field|property|key))?"
    r"(?:\s+(?:is|are|was|equals?|matches|has|exists)\b(?!\s+(?:not\s+)?(?:selected|chosen|picked|clicked)\b)"
    r"|\s*(?:==?|!=|<>|[<>]=?|\u2265|\u2264)"
    r"|\s*(?:[.,;:)\]\u2014]|$)"
    r"|\s+(?:and|or)\b)",
    re.I,
)
"""What follows the tested name: a test of its value ("is 'basic'", "= json", "is set", "!= 0"), nothing
(its truth: "ignored unless `recursive`."), or another name of the condition. Not "is selected": what is
selected is a value of another parameter ("required if 'Custom' is selected")."""

_RE_IS_A = _lazy(r"\s+(?:the|a|an)\b", re.I)

_DEPEND_WORDS = frozenset((b"when", b"if", b"unless", b"whenever", b"without", b"once"))
"""The words one of which a condition of :data:`_RE_DEPEND_OPEN` holds."""


def dependencies(clean: str, found: Found, property_level: bool, level: Sequence[str],
                 words: frozenset[bytes] | None = None) -> None:
    """Names of other parameters a parameter is said to depend on: "Only used when `auth_type` is
    'basic'", "Ignored unless recursive_mode is enabled", "Required when 'mode' is 'advanced'", "Has no
    effect without `verbose`", "(required when using failed_only)". Read in a property's description of
    the property itself, and anywhere of a declared parameter named as the subject ("`end_date` is ignored
    unless ..."; :func:`~.relations.subject_ok`); the tested name in a form of a key
    (:func:`~.relations.read_name`). ``level``: the names declared where the text speaks; ``words``: the
    whole words of the text when ASCII (:func:`~.text._words_of_ascii`, a pre-filter). Kind ``conditional``
    with the name's style (and ``@property`` in a property's description); not in a sentence about the
    result or about paging."""
    if _lacks_words(words, _DEPEND_WORDS):
        return
    for start, m in relations(clean, _RE_DEPEND_OPEN, _DEPEND_HEADS):
        verb = m.group("verb")
        name = read_name(clean, m.end())
        if name is None:
            continue
        if verb:
            if not np_ends(clean, name.after) or (verb.startswith("using") and not _is_identifier_like(name.token)):
                continue  # "when using 'basic' auth", "when using `json`": a value
        else:
            tested = _RE_TESTED.match(clean, name.after)
            if tested is None or (not _is_identifier_like(name.token) and _RE_IS_A.match(clean, tested.end())):
                continue  # "required when `table` is the target": an ordinary word equated with a thing is a value
        sent = _sentence(clean, start, m.end())
        if _OUTPUT_WORDS.search(sent) or _RE_PAGING.search(sent):
            continue
        if not subject_ok(clean, start, property_level, level):
            continue
        kind = "conditional" + name.style + ("@property" if property_level else "")
        found.add(name.token, name.start, name.end, kind)
