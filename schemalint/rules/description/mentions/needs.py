"""Names the call is said to need, without an instruction to the model:

``needs``      "Requires an `org_id`", "Needs project_key to find the board", "Expects `sinceDate`":
               a third-person "requires"/"needs"/"expects" (the tool's, said of the call) whose
               object is shaped like a key: snake_case, camelCase, kebab-case, or an identifier
               with digits, quoted or not. An ordinary word there ("Requires `jq`", "needs the
               `repo` scope") is a program, a permission or a value as often as a parameter, so it
               counts only quoted and followed by its role: a purpose ("Accepts `filter` to narrow
               results") or a second key ("Requires `workspace` in addition to `project`"); with
               "accepts"/"takes", whose object is as often a value, so does a key-shaped name;
``with-keys``  "Input is a JSON object with keys `city` and `units`": the names after "with
               keys/fields/properties" in a sentence about what the call is given, never in one
               about the result.

``role-passive`` "Extra headers are passed through `extra_headers`", "Page size is set via pageSize": the
               slot a passive "is/are passed/given/set/specified ... in/via/through/with/as" names,
               quoted or shaped like a key, in a clause that does not speak about the result.

All are at most a warning (:mod:`.strengths`: forms not yet measured on the corpus).
"""

from __future__ import annotations

import re

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.imperatives import _NOT_NAME_AFTER
from schemalint.rules.description.mentions.patterns import (
    _INPUT_WORDS,
    _OTHER_THING,
    _OUTPUT_WORDS,
    IDENT,
    KEBAB,
    _lazy,
)
from schemalint.rules.description.mentions.text import _sentence, key_shaped

_NAME = rf"(?:(?P<q>`{{1,2}}|'|\")(?P<quoted>{KEBAB}|{IDENT})(?P=q)|(?P<bare>{KEBAB}|{IDENT}))"
_RE_NEEDS = _lazy(
    rf"\b(?:[Rr]equires|[Nn]eeds|[Ee]xpects|[Aa]ccepts|[Tt]akes)\s+(?:(?:an?|the|your|its|one)\s+)?"
    rf"(?:(?P<adjective>optional|required|mandatory)\s+)?{_NAME}")
_ASIDE = r"\((?!\s*(?:e\.g|i\.e|default|defaults|optional|recommended))[^()\n]{1,60}\)"
_RE_ROLE_AFTER = _lazy(rf"\s*(?:{_ASIDE}\s*)?(?:to\s+[a-z]+|in\s+addition\s+to|as\s+well\s+as)\b|\s*{_ASIDE}|"
                       r",\s+(?:an?|the)\s+[A-Za-z]+")
_RE_MORE_KEYS = _lazy(rf"\s*(?:{_ASIDE}\s*)?(?:,\s*(?:and\s+)?|\s+and\s+)(?:the\s+)?(?P<q>`{{1,2}}|'|\")"
                      rf"(?P<quoted>{KEBAB}|{IDENT})(?P=q)")
"""A further quoted key joined to the needed one by "and" or a comma ("Accepts `input` (the question)
and `top_k` (how many)")."""
"""What marks a plain code-span word as a key of the call after such a verb: a purpose ("Accepts
`filter` to narrow results"), a second key beside it ("Requires `workspace` (its slug) in
addition to `project`"), an aside in parentheses that says what it is ("Accepts `input` (the
question)"; not "(default)", "(e.g. ...)") or an appositive (", an ISO timestamp"). "optional"
or "required" before the name marks it too ("Accepts an optional `timezone`")."""
_RE_ALTERNATIVE_AFTER = _lazy(r"\s*(?:\([^()\n]{0,60}\)\s*)?(?:,\s*|\s+or\s+|\s*/\s*)[`'\"]")
_ALSO_VALUES = ("accepts", "takes")
"""Verbs whose object is as often a value ("Accepts `json` or `csv`"): only a name with a role after it."""
_RE_WITH_KEYS = _lazy(r"\bwith\s+(?:the\s+)?(?:keys?|fields?|properties|attributes|members|entries)\s+", re.I)
_RE_KEY_ITEM = _lazy(rf"(?:\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*){_NAME}")
_RE_INPUT_NOUN = _lazy(r"\b(?:input|inputs|arguments?|body|request)\b", re.I)
_RE_NOT_NAME_AFTER = _lazy(r"\s*(?:`|'|\")?\s*(?:scopes?|permissions?|roles?|to\s+be)\b", re.I)
"""What makes the needed thing something else than a key: "`repo` scope", "`jq` to be installed"."""


def _clause_start(clean: str, at: int) -> int:
    """Where the clause holding ``at`` starts: after the last ". ", line break or ";" before it."""
    return max(clean.rfind(". ", 0, at), clean.rfind("\n", 0, at), clean.rfind(";", 0, at)) + 1


def needs(clean: str, found: Found) -> None:
    """``needs``: a name the call "requires", "needs", "expects", "accepts" or "takes" (see the module
    docstring), unless its clause speaks about the result before it."""
    for m in _RE_NEEDS.finditer(clean):
        tok = m.group("quoted") or m.group("bare")
        end = m.end()
        if _RE_ALTERNATIVE_AFTER.match(clean, end):
            continue  # "Accepts `json` or `csv`": values
        role = m.group("adjective") is not None or _RE_ROLE_AFTER.match(clean, end) is not None
        if not role and (not key_shaped(tok) or m.group(0)[:7].lower().startswith(_ALSO_VALUES)):
            continue
        if role and not (m.group("quoted") or key_shaped(tok)):
            continue  # an unquoted plain word: "Takes time to finish"
        if _RE_NOT_NAME_AFTER.match(clean, end) or _NOT_NAME_AFTER.match(clean, end) or _OTHER_THING.match(clean, end):
            continue
        if _OUTPUT_WORDS.search(clean, _clause_start(clean, m.start()), end):
            continue  # "Each item of the response requires `id`"; a later clause about the result is its own
        at = m.start("quoted") if m.group("quoted") else m.start("bare")
        found.add(tok, at, at + len(tok), "needs")
        more = _RE_MORE_KEYS.match(clean, end)
        while more is not None:
            found.add(more.group("quoted"), more.start("quoted"), more.end("quoted"), "needs")
            more = _RE_MORE_KEYS.match(clean, more.end())


def keys_named(clean: str, found: Found) -> None:
    """``with-keys``: the names after "with keys"/"with fields"/"with properties" in a sentence about
    what the call is given (:data:`~.patterns._INPUT_WORDS`, or "input", "arguments", "body",
    "request"), not about the result; unquoted, only names shaped like keys."""
    for m in _RE_WITH_KEYS.finditer(clean):
        sent = _sentence(clean, m.start(), m.end())
        if _OUTPUT_WORDS.search(sent) or not (_INPUT_WORDS.search(sent) or _RE_INPUT_NOUN.search(sent)):
            continue
        pos = m.end()
        while True:
            item = _RE_KEY_ITEM.match(clean, pos)
            if item is None:
                break
            tok = item.group("quoted") or item.group("bare")
            if item.group("bare") and not key_shaped(tok):
                break
            at = item.start("quoted") if item.group("quoted") else item.start("bare")
            found.add(tok, at, at + len(tok), "with-keys")
            pos = item.end()


_RE_PASSIVE_ROLE = _lazy(
    r"\b(?:is|are)\s+(?:(?:also|then|optionally|instead)\s+)?(?:passed|given|specified|set|provided|sent|supplied|"
    rf"selected|chosen|controlled)\s+(?:in|via|through|with|using|as|by)\s+(?:the\s+)?{_NAME}", re.I)


_CHANNELS = frozenset(("stdin", "stdout", "stderr", "argv", "env", "environ", "headers", "cookies", "body"))
"""Where a process or a request carries a value, not a key of the call ("passed through `stdin`")."""


def passive_roles(clean: str, found: Found) -> None:
    """``role-passive``: the name a passive sentence says a value is given through ("Extra headers
    are passed through `extra_headers`"), quoted or shaped like a key, unless its clause speaks
    about the result before it."""
    for m in _RE_PASSIVE_ROLE.finditer(clean):
        tok = m.group("quoted") or m.group("bare")
        if not (m.group("quoted") or key_shaped(tok)) or tok[:1].isupper() or tok.lower() in _CHANNELS:
            continue
        end = m.end()
        if _NOT_NAME_AFTER.match(clean, end) or _OTHER_THING.match(clean, end):
            continue
        if _OUTPUT_WORDS.search(clean, _clause_start(clean, m.start()), end):
            continue
        at = m.start("quoted") if m.group("quoted") else m.start("bare")
        found.add(tok, at, at + len(tok), "role-passive")
