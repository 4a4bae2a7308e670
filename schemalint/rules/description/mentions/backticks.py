"""``backtick`` mentions: a backticked identifier in a sentence about parameters
("use this parameter together with `dateStart`")."""

from __future__ import annotations

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import (
    _OUTPUT_WORDS,
    _RE_BACKTICKED,
    _RE_STRONG_NOUN,
    _RE_VALUE_AFTER,
    _RE_VALUE_BEFORE,
)
from schemalint.rules.description.mentions.text import (
    _is_identifier_like,
    _sentence,
    _value_shaped,
)


def backticked(clean: str, found: Found) -> None:
    """Backticked identifiers in a sentence naming parameters/arguments, not in a sentence about
    output, and not written as a value ("set to `x`", "`x` or later")."""
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
        found.add(tok, m.start(2), m.end(2), "backtick")
