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

_RAW: re.Pattern[str] | None = None
_ESCAPED: re.Pattern[str] | None = None


def may_hold_invisibles(text: str) -> bool:
    """False when no JSON or YAML string parsed from ``text`` can hold a character of
    :data:`INVISIBLE_CLASS`: the text holds none raw and no ``\\u``/``\\U`` escape of one (JSON
    writes U+E0041 as the surrogate pair ``\\udb40\\udc41``). An ASCII text without a ``\\u`` or
    ``\\U`` costs one C-level scan for a backslash."""
    global _RAW, _ESCAPED
    if text.isascii():  # O(1) in CPython
        if "\\" not in text:  # a one-character search runs at memchr speed
            return False
        if "\\u" not in text and "\\U" not in text:
            return False
    else:
        if _RAW is None:
            _RAW = re.compile(f"[{INVISIBLE_CLASS}]")
        if _RAW.search(text):
            return True
    if _ESCAPED is None:
        _ESCAPED = re.compile(r"\\u(?:200[b-f]|206[0-9]|202[a-e]|2060|feff|db40)"
                              r"|\\U(?:0000200[b-f]|0000206[0-9]|0000202[a-e]|0000feff|000e00)", re.I)
    return _ESCAPED.search(text) is not None


INVISIBLES = FileScreen("invisible characters", may_hold_invisibles)
"""The file screen of the invisible-character test (:attr:`schemalint.rules.base.Rule.file_screen`):
a file it clears holds no invisible character in any string, so SL501 skips its tools without a walk."""
