"""SL503 hidden-instruction: a description carries instructions addressed to the model.

Source: rules/SL503-hidden-instruction.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.lazy_re import LazyPattern, lazy_re
from schemalint.rules.poisoning.texts import Text, show, triggered

_TAG_NAMES = (r"important|system|instructions?|hidden|secret|admin|sys|assistant|critical|override|"
              r"internal|ai|llm|model")
PATTERNS: tuple[tuple[str, LazyPattern], ...] = (
    ("markup addressed to the model", lazy_re(
        rf"<\s*/?\s*(?:{_TAG_NAMES})(?:[-_ ](?:prompt|message|instructions?|notes?|reminder|override|"
        r"context|rules?))?\s*/?\s*>", re.I)),
    ("a chat-template control token", lazy_re(
        r"<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>|\[/?INST\]|<</?SYS>>|\[SYSTEM\]", re.I)),
    ("an instruction to ignore earlier instructions", lazy_re(
        r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
        r"(?:previous|prior|above|earlier|preceding|original|system|other)\s+"
        r"(?:instructions?|prompts?|rules|directions|directives|guidelines|messages)\b", re.I)),
    ("an instruction to keep something from the user", lazy_re(
        r"\b(?:do\s+not|don['’]?t|never|must\s+not|should\s+not)\s+(?:tell|inform|notify|alert|"
        r"(?:mention|reveal|disclose|show)\s+(?:this|it|that|these|anything)\s+to)\s+(?:the\s+)?user\b"
        r"|\bwithout\s+(?:telling|informing|notifying|alerting)\s+(?:the\s+)?user\b"
        r"|\b(?:hide|conceal|keep)\s+(?:this|it|these|that)(?:\s+\w+){0,3}?\s+from\s+(?:the\s+)?user\b"
        r"|\b(?:do\s+not|don['’]?t|never)\s+(?:mention|reveal|disclose)\s+(?:this|these|that)\s+"
        r"(?:instruction|step|note|request|requirement)s?\b", re.I)),
)
"""(label, pattern) of each kind of hidden instruction, in report order."""


_OPTION_BEFORE = lazy_re(r"(?:(?<![\w-])--?[A-Za-z][\w-]*\s*=?\s*|[=:]\s*|`[^`\n]*)$")
"""What stands before a placeholder: a command-line option (``--client-secret <secret>``), an ``=``
or a ``:`` (``token=<secret>``), or an open code span."""
_TAG_NAME = lazy_re(r"<\s*/?\s*([A-Za-z][\w-]*)")


def _placeholder(text: str, m: re.Match[str]) -> bool:
    """The markup ``m`` is a placeholder of a command or a value (``--client-secret <secret>``,
    ``` `login <secret>` ```), not a block: it follows an option, ``=``, ``:`` or an open code span
    on its line, and the text has no closing tag of that name."""
    if "/" in m.group(0):
        return False
    line_start = text.rfind("\n", 0, m.start()) + 1
    before = text[line_start : m.start()]
    if not (_OPTION_BEFORE.search(before) or before.count("`") % 2 == 1):
        return False
    name = _TAG_NAME.match(m.group(0))
    return name is None or re.search(rf"<\s*/\s*{re.escape(name.group(1))}\s*>", text, re.I) is None


_TURN_ROLES = frozenset(("assistant", "ai", "model", "llm"))
"""Tag names that are the model's side of a conversation: quoted in an example transcript, they
mark a turn of the dialogue, not a block addressed to the model (``system`` is not one: a system
block is the form the attacks take, inside a transcript or not)."""
_OTHER_TURN = lazy_re(
    r"<\s*/?\s*(?:user|human|customer)\s*>|^[ \t>*_-]*(?:user|human|customer|q)\s*[:>]|<\s*examples?\s*>",
    re.I | re.M)
"""What shows a quoted dialogue: the other side's turn (``<user>``, ``</human>``, a line ``User:``)
or an ``<example>`` block."""


def _transcript_turn(text: str, m: re.Match[str]) -> bool:
    """The markup ``m`` is a turn tag of the model's side (``<assistant>``, ``</assistant>``) in a
    text that quotes a dialogue: the user's side appears too (``<user>``, ``User:``) or the text
    holds an ``<example>`` block. A description quoting a conversation to show when a tool is used
    is not a hidden instruction; a lone ``<assistant>`` block still is."""
    name = _TAG_NAME.match(m.group(0))
    if name is None or name.group(1).lower() not in _TURN_ROLES:
        return False
    return _OTHER_TURN.search(text) is not None


_SECTION_TAG = lazy_re(r"<([A-Za-z][\w-]{1,40})>")
_ALWAYS = frozenset(("important", "system", "hidden", "secret", "admin", "sys", "override", "critical"))
"""Tag names that stay markup addressed to the model in any layout: the attacks' own blocks."""


def _sectioned(text: str) -> bool:
    """The text is laid out as XML sections (``<use_case>``, ``<workflow>``, ``<next_steps>``): at
    least three distinct tag names outside the model-addressing ones, each opened and closed."""
    if text.count("</") < 3:
        return False
    names = {m.group(1).lower() for m in _SECTION_TAG.compiled().finditer(text)}
    closed = {n for n in names if f"</{n}>" in text.lower()}
    return len({n for n in closed if not _TAG_RE.compiled().fullmatch(f"<{n}>")}) >= 3


_TAG_RE = lazy_re(rf"<\s*/?\s*(?:{_TAG_NAMES})(?:[-_ ][\w-]+)?\s*/?\s*>", re.I)
_OPEN_SECTION = lazy_re(r"<([A-Za-z][\w-]{0,40})>")


def _opens_with_sections(text: str) -> bool:
    """The description is laid out as XML sections from its first character: it opens with a
    closed block (``<instructions>...</instructions>``, only whitespace before it), and its
    top-level closed blocks (``<examples>...</examples>`` after it) hold more of its text than the
    prose around them. The opening tag then labels the description itself, which the reader sees
    whole; an attack adds a block to a description written in prose (``Adds numbers.
    <instructions>...</instructions>``), where the prose comes first."""
    if not text.lstrip().startswith("<") or "</" not in text:
        return False
    lower = text.lower()
    at, inside, outside, first = 0, 0, 0, True
    while at < len(text):
        m = _OPEN_SECTION.compiled().search(text, at)
        end = -1 if m is None else lower.find(f"</{m.group(1).lower()}>", m.end())
        if m is None or end < 0:
            if first:
                return False
            outside += len("".join(text[at:].split()))
            break
        before = len("".join(text[at : m.start()].split()))
        if first and before:
            return False
        stop = end + len(m.group(1)) + 3
        outside, inside, at, first = outside + before, inside + len("".join(text[m.start() : stop].split())), \
            stop, False
    return inside > outside


def _section_tag(text: str, m: re.Match[str]) -> bool:
    """The markup ``m`` is one section of a description laid out as XML sections (:func:`_sectioned`):
    ``<instructions>``, ``<important_notes>`` among ``<use_case>`` and ``<workflow>`` are headings the
    reader sees, not a block slipped in; so are the tags of a description that opens with its sections
    (:func:`_opens_with_sections`). ``<IMPORTANT>``, ``<system>``, ``<secret>`` ... are reported in
    any layout."""
    name = _TAG_NAME.match(m.group(0))
    if name is None or name.group(1).lower() in _ALWAYS:
        return False
    return _sectioned(text) or _opens_with_sections(text)


def instruction_matches(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """(label, match) of every hidden-instruction form in ``text``, by offset; a placeholder of a
    command line or a value (``--client-secret <secret>``) and a turn tag of a quoted dialogue
    (``User: ... </user> ... </assistant>``) are not markup."""
    found = [(m.start(), label, m) for label, pattern in PATTERNS for m in pattern.finditer(text)
             if not (label == "markup addressed to the model" and (
                 _placeholder(text, m) or _transcript_turn(text, m) or _section_tag(text, m)))]
    for _, label, m in sorted(found, key=lambda f: f[0]):
        yield label, m


class HiddenInstruction(Rule):
    """A tool or property description holds text addressed to the model rather than describing
    the tool: markup such as ``<IMPORTANT>``, ``<system>``, ``</instructions>``; chat-template
    control tokens (``<|im_start|>``, ``[INST]``); "ignore previous instructions"; "do not tell
    the user", "without informing the user", "do not mention this step". These are the forms the
    published tool-poisoning attacks use; a description needs none of them. Not flagged:
    ``IMPORTANT:`` as a plain word, placeholders such as ``<user value>`` and those of a command line
    or a value (``--client-secret <secret>``, ``token=<secret>``, in a code span) with no closing tag,
    the model's turn tags (``<assistant>``) in a quoted dialogue that shows the user's side too or
    sits in an ``<example>`` block, section tags (``<instructions>``, ``<important_notes>``) of a
    description laid out as XML sections (three or more other tags, each closed: ``<use_case>``,
    ``<workflow>``) or opening with a closed section that, with the other top-level sections, holds
    most of its text (``<instructions>...</instructions><examples>...</examples>``), HTML in general.
    ``<IMPORTANT>``, ``<system>``, ``<secret>`` are reported in any
    layout.
    """

    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool, triggered("instruction", tool, ctx))

    def _check(self, tool: Tool, texts: list[Text]) -> Iterator[Diagnostic]:
        for t in texts:
            found = list(instruction_matches(t.text))
            if not found:
                continue
            label, first = found[0]
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield self.diag(
                tool, None,
                f"{t.where} holds {label} at character {first.start()}: '{show(first.group(0))}'{more}; "
                "a description that addresses the model instead of describing the tool is the form "
                "tool-poisoning attacks take",
                hint="describe what the tool does and what each parameter means; if the server is not "
                     "yours, do not load it",
                file_pointer=t.pointer,
            )
