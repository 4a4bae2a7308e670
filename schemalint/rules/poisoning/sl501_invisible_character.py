"""SL501 invisible-character: a string the model is shown holds characters a reader does not see.

Source: rules/SL501-invisible-character.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.lazy_re import lazy_re
from schemalint.rules.poisoning.chars import INVISIBLE_CLASS, INVISIBLES
from schemalint.rules.poisoning.texts import Text, describe_char, non_ascii_texts, show

_INVISIBLE = lazy_re(f"[{INVISIBLE_CLASS}]+")
"""Runs of tag characters, zero-width characters (U+200B-U+200D, U+2060, U+FEFF), and
bidirectional controls (U+200E/U+200F marks, U+202A-U+202E embeddings and overrides,
U+2066-U+2069 isolates)."""

_EMOJI_TAG_RUN = lazy_re("[\U000e0020-\U000e007e]+\U000e007f")
_RTL = lazy_re("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
_MARKS = frozenset("\u200e\u200f")
_JOINERS = frozenset("\u200c\u200d")
_WORD_CHAR = lazy_re(r"\w", re.U)


def _kind(ch: str) -> str:
    cp = ord(ch)
    if cp >= 0xE0000:
        return "tag character"
    if 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069 or ch in _MARKS:
        return "bidirectional control"
    return "zero-width character"


def _is_emoji(ch: str) -> bool:
    cp = ord(ch)
    return cp >= 0x1F000 or 0x2600 <= cp <= 0x27BF or 0x2300 <= cp <= 0x23FF or cp in (0xFE0F, 0x20E3)


def _legitimate(text: str, start: int, end: int) -> bool:
    """Runs that are part of normal writing: an emoji tag sequence (a flag such as U+1F3F4 and tag
    letters closed by U+E007F), a joiner between emoji or between two letters of a script that
    uses joiners (not ASCII), and a left-to-right or right-to-left mark in text that holds
    right-to-left letters."""
    run = text[start:end]
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if ord(run[0]) >= 0xE0000:
        return before == "\U0001f3f4" and _EMOJI_TAG_RUN.fullmatch(run) is not None
    if all(c in _JOINERS for c in run):
        if before and after and (_is_emoji(before) or _is_emoji(after)):
            return True
        return (bool(before) and bool(after) and not before.isascii() and not after.isascii()
                and _WORD_CHAR.match(before) is not None and _WORD_CHAR.match(after) is not None)
    if all(c in _MARKS for c in run):
        return _RTL.search(text) is not None
    return False


def hidden_runs(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) offsets of every run of invisible characters in ``text`` that is not part of
    normal writing (see :func:`_legitimate`); ``text`` is any string."""
    for m in _INVISIBLE.finditer(text):
        if not _legitimate(text, m.start(), m.end()):
            yield m.start(), m.end()


def _decoded_tags(run: str) -> str:
    """The ASCII text that tag characters spell (U+E0041 is a tagged ``A``)."""
    return "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)


def describe_runs(text: str, runs: list[tuple[int, int]]) -> str:
    """One clause per run: offset, length and what the characters are (tag characters: the text
    they spell)."""
    parts = []
    for start, end in runs[:4]:
        run = text[start:end]
        kinds = sorted({_kind(c) for c in run})
        what = describe_char(run[0]) if len(run) == 1 else f"{len(run)} characters from {describe_char(run[0])}"
        clause = f"at character {start}: {what} ({', '.join(kinds)})"
        hidden = _decoded_tags(run)
        if hidden:
            clause += f", spelling '{show(hidden)}'"
        parts.append(clause)
    if len(runs) > 4:
        parts.append(f"and {len(runs) - 4} more run(s)")
    return "; ".join(parts)


class InvisibleCharacter(Rule):
    """A tool name, description, title, property name, ``enum`` value, ``const``, ``default`` or
    example holds Unicode tag characters (U+E0000-U+E007F), zero-width characters (U+200B-U+200D,
    U+2060, U+FEFF) or bidirectional controls (U+200E/U+200F, U+202A-U+202E, U+2066-U+2069).
    The model reads them; a reviewer does not see them. Normal writing is left alone: emoji tag
    sequences (subdivision flags), joiners inside emoji or between letters of scripts that use
    them, direction marks in right-to-left text. The message gives the character offset in the
    string; the pointer is the string's.
    """

    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)
    file_screen = INVISIBLES

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        texts = non_ascii_texts(tool, ctx)
        if not texts:
            return ()
        return self._check(tool, texts)

    def _check(self, tool: Tool, texts: list[Text]) -> Iterator[Diagnostic]:
        for t in texts:
            runs = list(hidden_runs(t.text))
            if not runs:
                continue
            visible = _INVISIBLE.sub("", t.text)
            yield self.diag(
                tool, None,
                f"{t.where} holds invisible characters the model reads and a reviewer does not see, "
                f"{describe_runs(t.text, runs)}; the text without them reads '{show(visible)}'",
                hint="remove the characters (or escape them visibly); if the text was pasted, retype it",
                file_pointer=t.pointer,
            )
