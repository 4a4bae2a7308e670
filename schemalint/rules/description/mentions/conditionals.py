"""``conditional`` mentions: a backticked name whose value a condition tests ("If `recursive` is true,
...", "Unless `overwrite` is set, ...", "Ignored when `cursor` is given"): the author writes about a
value the model is expected to send.

Not read in a sentence about the result ("returns", "the response"...) or about paging through
results ("call again", "the next page"), where the tested name is usually a result field
(``has_more``). At most a warning (:mod:`.strengths`: a form not yet measured on the corpus).
"""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, IDENT, KEBAB, _lazy
from schemalint.rules.description.mentions.text import _sentence

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
