"""``backtick`` mentions: a backticked identifier in a sentence about parameters
("use this parameter together with `dateStart`")."""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import (
    _OUTPUT_WORDS,
    _RE_BACKTICKED,
    _RE_KEBAB_FULL,
    _RE_STRONG_NOUN,
    _RE_VALUE_AFTER,
    _RE_VALUE_BEFORE,
    _lazy,
)
from schemalint.rules.description.mentions.text import (
    _is_identifier_like,
    _sentence,
    _value_shaped,
)

_RE_SERVER_STARTED = _lazy(
    r"\b(?:server|process|daemon|service|binary|cli|command\s+line)\b[^.;\n]{0,60}\b(?:run|runs|started|start|"
    r"launched|launch|invoked|configured|enabled|installed)\b|\b(?:start|run|launch)\s+(?:the\s+)?(?:mcp\s+)?server\b",
    re.I)
"""A sentence about how the server is started ("The server must be run with `--allow-write`", "start
the server with `--read-only`"): a flag there is the server's option, not the call's parameter."""


def backticked(clean: str, found: Found, property_level: bool = False) -> None:
    """Backticked identifiers in a sentence naming parameters/arguments, not in a sentence about
    output, and not written as a value ("set to `x`", "`x` or later"). A kebab-case name counts
    (``dry-run``), and in a tool's description a CLI flag (`` `--force` `` names ``force``: "options
    mirror the CLI, e.g. ..."); in a property's description a flag is a value of that property
    (``args``: "e.g. `--inspect`")."""
    for m in _RE_BACKTICKED.finditer(clean):
        tok = m.group(2)
        flag = m.group(0).lstrip("`").startswith("--")
        if flag and property_level:
            continue
        if not (_is_identifier_like(tok) or _RE_KEBAB_FULL.fullmatch(tok)
                or (flag and tok.isalnum() and tok.islower())):
            continue
        sent = _sentence(clean, m.start(), m.end())
        if not _RE_STRONG_NOUN.search(sent) or _OUTPUT_WORDS.search(sent):
            continue
        if flag and _RE_SERVER_STARTED.search(sent):
            continue  # "The server must be run with the `--allow-write` flag": the server's, not the call's
        before = clean[max(0, m.start() - 12) : m.start()]
        after = clean[m.end() : m.end() + 30]
        if _RE_VALUE_BEFORE.search(before) or _RE_VALUE_AFTER.match(after):
            continue
        if _value_shaped(clean, m.start(), m.end()):
            continue
        found.add(tok, m.start(2), m.end(2), "backtick")
