"""The descriptions of one tool, joined into one string and split into words once, for the
pre-filters of the text rules.

The description rules (SL201-SL206) and the poisoning rules (SL50x) each look for a few things
in every description of a tool; most tools hold none of them. Asking every description string
costs a Python call (and a regular expression, 20-50 ns a character) per string; asking the
joined text costs a few C-level scans per tool. A pre-filter over :attr:`ToolText.joined` is exact
in the direction that matters when what it looks for cannot span the ``"\\n"`` between two
descriptions: a description that holds it makes the joined text hold it.

Cost matters here: these run on every tool of every check (10,000 synthetic tools hold 14 MB of
description text).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from schemalint.model import RunContext, Tool
from schemalint.schema.index import index_schema

__all__ = ["TO_WORDS", "Literals", "ToolText", "known_text", "needles", "schema_start", "seed_text", "tool_text"]

_PUNCT = bytes(range(128)).translate(None, b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
TO_WORDS = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ" + _PUNCT,
                           b"abcdefghijklmnopqrstuvwxyz" + b" " * len(_PUNCT))
"""``bytes.translate`` table: ASCII letters in lower case, digits and ``_`` kept, every other ASCII
character a space (the words of :attr:`ToolText.words`)."""

_SHAPES = bytes.maketrans(bytes(range(256)), b" " * 48 + b"0" * 10 + b" " * 7 + b"A" * 26 + b" " * 6 + b"a" * 26
                          + b" " * 133)
"""``bytes.translate`` table: a lower-case ASCII letter becomes ``a``, an upper-case one ``A``, a
digit ``0``, anything else a space (:attr:`ToolText.shapes`)."""


class ToolText:
    """The description strings of one tool (see :func:`tool_text`).

    ``joined``: the tool description, every string ``description`` of the advertised schema (the
    shared walk's order) and every ``desc`` of a Docker ``arguments`` list, joined by ``"\\n"``;
    ``ascii``: whether ``joined`` is ASCII. Computed on first use: :attr:`words`, :attr:`word_set`,
    :attr:`unique`, :attr:`shapes`. ``answers``: what the rules' pre-filters answered of this text,
    by question (:meth:`answer`): every one is a function of ``joined`` alone, so tools whose
    descriptions join to the same text share one ``answers`` in a run (:func:`tool_text`; the words
    are not kept: 10,000 tools' words took 170 MB).
    """

    __slots__ = ("_set", "_shapes", "_unique", "_words", "answers", "ascii", "joined")

    def __init__(self, joined: str, answers: dict[Any, Any] | None = None) -> None:
        self.joined = joined
        self.ascii = joined.isascii()
        self._words: list[bytes] | None = None
        self._unique: bytes | None = None
        self._shapes: bytes | None = None
        self._set: set[bytes] | None = None
        self.answers: dict[Any, Any] = {} if answers is None else answers

    def answer(self, question: Any, compute: Callable[[ToolText], Any]) -> Any:
        """``compute(self)``, computed once per ``question`` (a hashable key naming the test; the
        answer must depend on :attr:`joined` only)."""
        try:
            return self.answers[question]
        except KeyError:
            found = self.answers[question] = compute(self)
            return found

    @property
    def words(self) -> list[bytes]:
        """The lower-case ASCII words of :attr:`joined` in order (runs of letters, digits and ``_``;
        a non-ASCII character separates words)."""
        if self._words is None:
            self._words = self.joined.encode("ascii", "replace").translate(TO_WORDS).split()
        return self._words

    @property
    def word_set(self) -> set[bytes]:
        """The distinct words of :attr:`words` (do not change it: it is shared)."""
        if self._set is None:
            self._set = set(self.words)
        return self._set

    @property
    def unique(self) -> bytes:
        """Each distinct word of :attr:`words` once, with a space before and after each (any order):
        what one word of the text holds, this holds, in a string a tenth as long; ``b" x "`` in it
        when ``x`` is a word of the text, ``b" x"`` when a word starts with ``x`` (see :func:`needles`)."""
        if self._unique is None:
            self._unique = b" " + b" ".join(self.word_set) + b" "
        return self._unique

    def may_hold(self, literals: Literals) -> bool:
        """False only when the lower-cased :attr:`joined` holds none of ``literals``; always true for
        a text that is not ASCII. Remembered per ``literals`` (:attr:`answers`)."""
        if not self.ascii:
            return True
        try:
            found: bool = self.answers[literals]
        except KeyError:
            found = self.answers[literals] = self._may_hold(literals)
        return found

    def _may_hold(self, literals: Literals) -> bool:
        u = self.unique
        if literals.digits and len(u.translate(None, _DIGITS)) != len(u):
            return True
        for n in literals.singles:
            if n in u:
                return True
        for need in literals.multi:
            for n in need:
                if n not in u:
                    break
            else:
                return True
        return False

    @property
    def shapes(self) -> bytes:
        """:attr:`joined` (ASCII only: ``b""`` otherwise) with each character replaced by its kind:
        ``a`` lower-case letter, ``A`` upper-case letter, ``0`` digit, a space for anything else.
        ``b"aA" in shapes`` is ``re.search("[a-z][A-Z]", joined)``, in C."""
        if self._shapes is None:
            self._shapes = self.joined.encode("ascii").translate(_SHAPES) if self.ascii else b""
        return self._shapes


class Literals:
    """Lower-case ASCII literals (:func:`needles` of each), and whether any digit counts too, for
    :meth:`ToolText.may_hold`. Raises ``ValueError`` as :func:`needles` does."""

    __slots__ = ("digits", "multi", "singles")

    def __init__(self, literals: tuple[str, ...], digits: bool = False) -> None:
        found = [needles(w) for w in literals]
        self.singles = tuple(n[0] for n in found if len(n) == 1)
        self.multi = tuple(n for n in found if len(n) > 1)
        self.digits = digits


_DIGITS = b"0123456789"


def needles(literal: str) -> tuple[bytes, ...]:
    """What :attr:`ToolText.unique` holds whenever an ASCII text holds ``literal`` (lower-case ASCII)
    in lower case: each word of the literal, with a space on each side where the literal bounds it
    (``"e.g."``: ``b" g "``, the word ``g``, and ``b"e "``, a word ending in ``e``), without one where
    the text may go on (``"value"``: ``b"value"``, inside any word). Digits are words. Raises
    ``ValueError`` for a literal with no word or one that is not lower-case ASCII."""
    if not literal.isascii() or literal != literal.lower():
        raise ValueError(f"not a lower-case ASCII literal: {literal!r}")
    shaped = literal.encode().translate(TO_WORDS)
    words = shaped.split()
    if not words:
        raise ValueError(f"a literal with no word: {literal!r}")
    out = []
    for i, word in enumerate(words):
        left = i > 0 or shaped.startswith(b" ")
        right = i < len(words) - 1 or shaped.endswith(b" ")
        out.append((b" " if left else b"") + word + (b" " if right else b""))
    return tuple(out)


def schema_start(tool: Tool) -> int:
    """Where the advertised schema's first string ``description`` starts in :attr:`ToolText.joined`
    of ``tool`` (after the tool description and its ``"\\n"``, when it has one); the schema's
    descriptions follow in :meth:`~schemalint.schema.index.SchemaIndex.having` order, one
    ``"\\n"`` after each."""
    return len(tool.description) + 1 if tool.description and isinstance(tool.description, str) else 0


def _joined(tool: Tool) -> str:
    parts: list[str] = [tool.description] if tool.description and isinstance(tool.description, str) else []
    schema = tool.advertised
    if isinstance(schema, dict):
        parts += [d for n in index_schema(schema).having("description") if type(d := n.schema["description"]) is str]
    args = tool.docker_arguments
    if args is not None:
        parts.extend(a["desc"] for a in args if isinstance(a, Mapping) and isinstance(a.get("desc"), str))
    return "\n".join(parts)


_KEY = "rules.tool_text"
_KEEP = 16
"""Tools kept (the rules ask about one tool after the other, so the last few are enough)."""
_SHARED = "rules.tool_text.shared"
"""Key of the run's :attr:`ToolText.answers` by joined text (catalogs repeat tools: the corpus's
19,243 tools join to 9,145 texts), with the characters it holds."""
_SHARED_CHARS = 1 << 22
"""Characters of joined text the shared table holds at most before it starts again (4 MB)."""
_TRIAL = 4096
"""Tools asked before the run judges the shared table: below one text in eight found there, it is
dropped for the rest of the run (the answers are computed per tool, as they are equal anyway)."""


def tool_text(tool: Tool) -> ToolText:
    """The :class:`ToolText` of ``tool``, cached for the last few tools in the current run
    (:attr:`schemalint.model.RunContext.current`); tools whose descriptions join to the same text
    share its pre-filters' answers (computed once per text). Never raises."""
    run = RunContext.current
    cache: dict[int, tuple[Tool, ToolText]] = run.table(_KEY, dict)
    hit = cache.get(id(tool))
    if hit is not None and hit[0] is tool:
        return hit[1]
    joined = _joined(tool)
    shared: list[Any] = run.table(_SHARED, lambda: [0, {}, 0, 0])
    answers = None
    if shared[1] is not None:
        shared[2] += 1
        answers = shared[1].get(joined)
        if answers is not None:
            shared[3] += 1
        elif shared[2] >= _TRIAL and shared[3] * 8 < shared[2]:
            shared[1] = None  # a catalog that hardly repeats a text: the table costs more than it saves
        else:
            if shared[0] > _SHARED_CHARS:
                shared[0], shared[1] = 0, {}
            answers = shared[1][joined] = {}
            shared[0] += len(joined)
    found = ToolText(joined, answers)
    if len(cache) >= _KEEP:
        cache.clear()
    cache[id(tool)] = (tool, found)
    return found


def known_text(tool: Tool) -> tuple[str, dict[Any, Any]] | None:
    """(:attr:`ToolText.joined`, :attr:`ToolText.answers`) of ``tool`` when :func:`tool_text` built its
    text lately in the current run (it keeps the last few tools), else ``None``; builds nothing."""
    hit = RunContext.current.table(_KEY, dict).get(id(tool))
    if hit is None or hit[0] is not tool:
        return None
    return hit[1].joined, hit[1].answers


def seed_text(tool: Tool, known: tuple[str, dict[Any, Any]]) -> None:
    """Make ``known`` (:func:`known_text` of another tool whose descriptions join to the same text: a
    byte-identical copy of its definition, :func:`schemalint.engine.run_loop.definition_key`) the text of
    ``tool`` for the next :func:`tool_text` in the current run, so that the copy's schema is neither
    walked nor joined again. The answers stay shared (they depend on the joined text alone)."""
    cache: dict[int, tuple[Tool, ToolText]] = RunContext.current.table(_KEY, dict)
    if len(cache) >= _KEEP:
        cache.clear()
    cache[id(tool)] = (tool, ToolText(*known))
