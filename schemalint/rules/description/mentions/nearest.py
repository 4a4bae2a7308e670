"""Near names: the declared property closest to a mentioned token (the "did you mean" hint)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any


def _norm(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


NEAREST_FUZZY_LIMIT = 64
"""Above this many names at one level, :func:`nearest` skips difflib and abbreviations."""


_NAME_INDEX: list[Any] = [None, None]
"""The last names looked up by :func:`_name_index` and their index (by identity: a site's
level is one tuple shared by all the sites at that level; hashing it would cost its length)."""


def _name_index(names: Sequence[str]) -> tuple[dict[str, str], dict[str, int]]:
    """First name per :func:`_norm` key, and first index per lower-cased name of two or more characters."""
    if _NAME_INDEX[0] is names:
        return _NAME_INDEX[1]
    normed: dict[str, str] = {}
    lowered: dict[str, int] = {}
    for i, n in enumerate(names):
        normed.setdefault(_norm(n), n)
        if len(n) >= 2:
            lowered.setdefault(n.lower(), i)
    _NAME_INDEX[:] = [names, (normed, lowered)]
    return normed, lowered


def nearest(token: str, names: Sequence[str]) -> str | None:
    """The property in ``names`` closest to ``token``: same name ignoring case and
    ``_``/``-`` first, then :func:`difflib.get_close_matches` (cutoff 0.6), then a
    name that is a prefix/suffix part of ``token`` (``model_name`` -> ``model``).
    Above :data:`NEAREST_FUZZY_LIMIT` names only the first and third steps run (looked up
    in a dict), so 10,000 properties with a mention each stay linear."""
    if not names:
        return None
    if len(names) > NEAREST_FUZZY_LIMIT:  # a bound: the fuzzy steps cost len(names) per mention
        normed, lowered = _name_index(names)
        parts = re.split(r"_|(?<=[a-z])(?=[A-Z])", token)
        hits = [lowered.get(p.lower(), len(names)) for p in (parts[0], parts[-1])]
        return normed.get(_norm(token)) or (names[min(hits)] if hits and min(hits) < len(names) else None)
    norm = _norm(token)
    for n in names:
        if _norm(n) == norm:
            return n
    close = difflib.get_close_matches(token, list(names), n=1, cutoff=0.6)
    if close:
        return close[0]
    parts = re.split(r"_|(?<=[a-z])(?=[A-Z])", token)
    for n in names:
        if len(n) >= 2 and (n.lower() == parts[0].lower() or n.lower() == parts[-1].lower()):
            return n
    for n in names:  # an abbreviation of one part: tz ~ timezone
        for part in parts:
            low = part.lower()
            if 2 <= len(n) < len(low) and low[0] == n[0].lower() and _subsequence(n.lower(), low):
                return n
    return None


def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(c in it for c in short)
