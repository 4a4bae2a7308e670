"""SL502 homoglyph-tool-name: a tool name that looks like another tool's name in the catalog.

:data:`_PROTOTYPES` takes from Unicode's ``confusables.txt`` (UTS #39, section 4) the Cyrillic,
Greek and Armenian letters whose prototype is one Latin letter.

Source: rules/SL502-homoglyph-tool-name.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.poisoning.texts import describe_char, name_pointer, show

if TYPE_CHECKING:
    from schemalint.rules.facts import Definition

_PROTOTYPES = str.maketrans({
    # Cyrillic (lower)
    "а": "a", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j", "ӏ": "l", "о": "o", "р": "p",
    "ԛ": "q", "ѕ": "s", "ԝ": "w", "х": "x", "у": "y",
    # Cyrillic (upper)
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "l", "Ј": "J", "К": "K", "М": "M", "О": "O",
    "Р": "P", "Ԛ": "Q", "Ѕ": "S", "Т": "T", "Ԝ": "W", "Х": "X", "Ү": "Y", "Ӏ": "l",
    # Greek
    "α": "a", "ι": "i", "ν": "v", "ο": "o", "ρ": "p", "υ": "u", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O",
    "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
    # Armenian
    "օ": "o", "ո": "n", "ս": "u", "հ": "h",
    # Latin letters outside ASCII that confusables.txt maps to ASCII ones
    "ı": "i", "ȷ": "j", "ɑ": "a", "ɡ": "g",
    # ASCII prototypes (confusables.txt maps these onto l and O)
    "I": "l", "1": "l", "|": "l", "0": "O",
})
"""A subset of the UTS #39 ``confusables.txt`` prototypes (see the module docstring); NFKC
already folds the full-width and mathematical alphanumeric forms onto ASCII."""

_IGNORABLE = dict.fromkeys(
    [*range(0x200B, 0x2010), 0x00AD, 0x034F, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF,
     *range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0xFE00, 0xFE10), *range(0xE0000, 0xE0080)]
)
"""Default-ignorable code points dropped before comparing (UTS #39 skeleton step)."""


def skeleton(name: str) -> str:
    """The comparison form of a tool name: NFKC, default-ignorable characters removed, each
    character replaced by its prototype (:data:`_PROTOTYPES`), lowercased. Two names with one
    skeleton look alike (UTS #39 section 4, restricted to the table above)."""
    if name.isascii():  # NFKC and the ignorable characters change nothing
        return name.translate(_PROTOTYPES).lower()
    folded = unicodedata.normalize("NFKC", name).translate(_IGNORABLE)
    return folded.translate(_PROTOTYPES).lower()


class HomoglyphToolName(Rule):
    """Two tools of the catalog have names that differ but look alike: a name with non-ASCII
    characters (Cyrillic ``а`` for Latin ``a``, a full-width letter, an invisible character)
    whose skeleton (UTS #39) is another tool's name. A model, a user approving a call, and a
    reviewer read both as the same tool; a server that imitates a trusted tool this way receives
    the calls meant for it. Reported on the imitating tool, with the offsets of its deceptive
    characters.
    """

    severity = Severity.ERROR

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        suspects = [t for t in tools if t.name and not t.name.isascii()]
        if not suspects:
            return ()
        return self._check(tools, suspects, ctx)

    def _check(self, tools: Sequence[Tool], suspects: list[Tool], ctx: Context) -> Iterator[Diagnostic]:
        by_skeleton: Mapping[str, Sequence[Tool | Definition]]
        if ctx.facts is not None:  # a streaming check: the twins may be in other files
            by_skeleton = ctx.facts.lookalikes
        else:
            grouped: dict[str, list[Tool | Definition]] = {}
            for t in tools:
                if t.name:
                    grouped.setdefault(skeleton(t.name), []).append(t)
            by_skeleton = grouped
        for tool in suspects:
            twins = [t for t in by_skeleton.get(skeleton(tool.name), ()) if t.name != tool.name]
            if not twins:
                continue
            # the imitated tool: an ASCII name first (the likely original), else the first one
            twins.sort(key=lambda t: (not t.name.isascii(), t.origin.file, t.origin.pointer))
            other = twins[0]
            odd = [(i, c) for i, c in enumerate(tool.name) if not c.isascii()]
            chars = "; ".join(f"character {i}: {describe_char(c)}" for i, c in odd[:4])
            if len(odd) > 4:
                chars += f"; and {len(odd) - 4} more"
            yield self.diag(
                tool, None,
                f"the tool name '{show(tool.name)}' looks like the tool name `{show(other.name)}` "
                f"({other.origin.file}{'#' + other.origin.pointer if other.origin.pointer else ''}) but is "
                f"a different string ({chars}); a model or a user approving the call cannot tell them apart",
                hint="rename the tool with plain characters; if it is not yours, do not load this server",
                file_pointer=name_pointer(tool),
            )
