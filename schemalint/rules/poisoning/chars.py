"""Which characters SL501 reports, and a file-level test that no string of a file can hold one.

Kept apart from :mod:`schemalint.rules.poisoning.texts` so that :func:`schemalint.api.check`
can ask :func:`may_hold_invisibles` of each file without importing the rules.
"""

from __future__ import annotations

import re

from schemalint.rules.base import FileScreen

INVISIBLE_CLASS = "\U000e0000-\U000e007f\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069"
"""Tag characters (U+E0000-U+E007F), zero-width characters (U+200B-U+200D, U+2060, U+FEFF) and
bidirectional controls (U+200E/U+200F, U+202A-U+202E, U+2066-U+2069), as a character class body."""

_ESCAPED: re.Pattern[str] | None = None


def may_hold_invisibles(text: str) -> bool:
    """False when no JSON or YAML string parsed from ``text`` can hold a character of
    :data:`INVISIBLE_CLASS`: the text holds none raw and no ``\\u``/``\\U`` escape of one (JSON
    writes U+E0041 as the surrogate pair ``\\udb40\\udc41``). An ASCII text without a ``\\u`` or
    ``\\U`` costs one C-level scan for a backslash."""
    global _ESCAPED
    if text.isascii():  # O(1) in CPython
        if "\\" not in text:  # a one-character search runs at memchr speed
            return False
        if "\\u" not in text and "\\U" not in text:
            return False
    else:
        if _holds_raw(text):
            return True
    if _ESCAPED is None:
        _ESCAPED = re.compile(r"\\u(?:200[b-f]|206[0-9]|202[a-e]|2060|feff|db40)"
                              r"|\\U(?:0000200[b-f]|0000206[0-9]|0000202[a-e]|0000feff|000e00)", re.I)
    return _ESCAPED.search(text) is not None


_UTF8_STARTS = frozenset(
    [chr(c).encode() for c in (*range(0x200B, 0x2010), *range(0x202A, 0x202F), 0x2060, *range(0x2066, 0x206A), 0xFEFF)]
    + [b"\xf3\xa0\x80", b"\xf3\xa0\x81"])
"""The first three bytes, in UTF-8, of each character of :data:`INVISIBLE_CLASS` (each of them but the
tags is three bytes long; the tags U+E0000-U+E007F are the four-byte characters starting ``F3 A0 80``
or ``F3 A0 81``)."""
_UTF8_LEADS = tuple(sorted({bytes(b[:1]) for b in _UTF8_STARTS}))
"""Their first bytes: ``E2``, ``EF`` and ``F3`` (a one-byte search runs at memchr speed)."""


def _holds_raw(text: str) -> bool:
    """Whether the non-ASCII ``text`` holds a character of :data:`INVISIBLE_CLASS` itself: sought in
    its UTF-8 bytes at each of their first bytes (:data:`_UTF8_LEADS`, a few hundred in the corpus as
    one 20 MB catalog), where the regex engine tested a character class character by character
    (0.14 s there). A surrogate in ``text`` is encoded as it stands; its bytes start with ``ED`` and
    match nothing here."""
    data = text.encode("utf-8", "surrogatepass")
    find = data.find
    for lead in _UTF8_LEADS:
        at = find(lead)
        while at != -1:
            if data[at:at + 3] in _UTF8_STARTS:
                return True
            at = find(lead, at + 1)
    return False


INVISIBLES = FileScreen("invisible characters", may_hold_invisibles)
"""The file screen of the invisible-character test (:attr:`schemalint.rules.base.Rule.file_screen`):
a file it clears holds no invisible character in any string, so SL501 skips its tools without a walk."""
