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


def instruction_matches(text: str) -> Iterator[tuple[str, re.Match[str]]]:
    """(label, match) of every hidden-instruction form in ``text``, by offset; a placeholder of a
    command line or a value (``--client-secret <secret>``) is not markup."""
    found = [(m.start(), label, m) for label, pattern in PATTERNS for m in pattern.finditer(text)
             if not (label == "markup addressed to the model" and _placeholder(text, m))]
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
    HTML in general.
    """

    severity = Severity.ERROR

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
