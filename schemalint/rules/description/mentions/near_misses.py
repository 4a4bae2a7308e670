"""Near-miss spellings: ``filePath`` written for a declared ``file_path`` (and the reverse)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from schemalint.rules.description.mentions.patterns import (
    _FENCE,
    _RE_CAMEL,
    _RE_COND_BEFORE,
    _RE_IDENT_FULL,
    _URL,
    _lazy,
)
from schemalint.rules.description.mentions.records import Mention, Site
from schemalint.rules.description.mentions.text import (
    _blank,
    _blank_output_sections,
    _mostly_non_latin,
    _value_shaped,
)

_RE_WORDS = _lazy(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


@functools.lru_cache(maxsize=8192)
def _spellings(name: str) -> tuple[str, ...]:
    """The snake_case and camelCase spellings of ``name`` other than ``name`` itself (none for a
    one-word name): ``filePath`` -> ``("file_path",)``, ``replace_all`` -> ``("replaceAll",)``."""
    words = _RE_WORDS.findall(name)
    if len(words) < 2 or not _RE_IDENT_FULL.fullmatch(name):
        return ()
    low = [w.lower() for w in words]
    snake = "_".join(low)
    camel = low[0] + "".join(w[:1].upper() + w[1:] for w in low[1:])
    return tuple(v for v in dict.fromkeys((snake, camel)) if v != name)


@functools.lru_cache(maxsize=1 << 16)
def _variants(name: str) -> tuple[str, ...]:
    """:func:`_spellings` of a snake_case or camelCase ``name``; none for any other name."""
    return _spellings(name) if "_" in name or _RE_CAMEL.search(name) else ()


def _near_miss_table(sites: Sequence[Site]) -> tuple[tuple[str, str], ...]:
    """(other spelling, declared name) pairs of the properties at the levels the ``sites`` speak
    about (a spelling that is itself declared somewhere is dropped where a hit is reported).
    Sites of one object share its level tuple: each tuple is read once."""
    levels = {id(site.level): site.level for site in sites}
    names = dict.fromkeys(n for level in levels.values() for n in level)
    # a name with no "_" and no upper-case letter is neither snake_case nor camelCase: no call
    return tuple((v, n) for n in names if "_" in n or not n.islower() for v in _variants(n) if v not in names)


def _near_misses(site: Site, table: tuple[tuple[str, str], ...]) -> Iterator[tuple[Mention, str]]:
    """Identifiers of ``site.text`` (backticked or plain) that spell a declared property another
    way, outside code blocks, URLs, value formats and response sections."""
    text = site.text
    hits = [(v, n) for v, n in table if v in text]
    if not hits or _mostly_non_latin(text):
        return
    own = site.where.split("`")[1].rsplit("/", 1)[-1] if site.where.startswith("the description of property") else ""
    clean = _blank_output_sections(_blank(_blank(text, _FENCE), _URL))
    for variant, declared in hits:
        if declared == own:
            continue  # a property naming its own other spelling: an API field name, a source
        for m in re.finditer(rf"(?<![\w$@]){re.escape(variant)}(?!\w)", clean):
            q = 1 if m.start() > 0 and clean[m.start() - 1] in "`'\"" else 0
            if _value_shaped(clean, m.start() - q, m.end() + q) and not q:
                continue
            if q and _value_shaped(clean, m.start() - 1, m.end() + 1):
                continue
            if clean[m.end() : m.end() + 4].lstrip("`'\" ")[:1] == "=" and _RE_COND_BEFORE.search(
                clean[max(0, m.start() - 40) : m.start()]
            ):
                continue  # a state ("becomes the default (isDefault=True)"), not an instruction
            yield Mention(variant, m.start(), m.end(), "nearmiss"), declared
            break
