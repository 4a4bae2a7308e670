"""SL505 unrelated-data-request: a parameter asks for data the tool has no business with.

Source: rules/SL505-unrelated-data-request.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.lazy_re import LazyPattern, lazy_re
from schemalint.rules.poisoning.texts import Text, sentence_at, show, triggered

KINDS: tuple[tuple[str, LazyPattern, LazyPattern], ...] = (
    ("the conversation history", lazy_re(
        r"\b(?:(?:full|entire|whole|complete|previous|prior|past|earlier)\s+)?(?:conversation|chat|dialog(?:ue)?)"
        r"\s+(?:history|log|transcript|so\s+far)\b"
        r"|\b(?:all|every|each)\s+(?:of\s+)?(?:the\s+)?(?:previous|prior|earlier|past|other)\s+"
        r"(?:messages|turns|user\s+messages)\b"
        r"|\beverything\s+the\s+user\s+(?:has\s+)?(?:said|wrote|written|typed|asked)\b", re.I),
     lazy_re(r"conversation|chat|messag|histor|memor|context|transcript|dialog|session|summar|moderat|"
                r"recall|thread|convo|talk|reply|replies|inbox|email|mail|sms|whatsapp|slack|discord|telegram",
                re.I)),
    ("the system prompt or the model's instructions", lazy_re(
        r"\b(?:your|the)\s+(?:full\s+|entire\s+|original\s+|initial\s+|hidden\s+)?system\s+"
        r"(?:prompt|message|instructions)\b"
        r"|\byour\s+(?:full|entire|original|initial|hidden)\s+(?:instructions|prompt)\b", re.I),
     lazy_re(r"prompt|system|instruct|agent|persona|config|llm|model|chat", re.I)),
    ("other tools' results", lazy_re(
        r"\b(?:results?|outputs?|responses?|return\s+values?)\s+(?:of|from)\s+(?:the\s+|all\s+|any\s+)?"
        r"(?:other|previous|prior|earlier|every|all)\s+(?:tools?|functions?|tool\s+calls?)\b"
        r"|\bother\s+tools['’]?\s+(?:results?|outputs?|responses?)\b"
        r"|\b(?:names?|list)\s+of\s+(?:all\s+)?(?:the\s+)?(?:other|available)\s+tools\b"
        r"|\b(?:every|all)\s+(?:other\s+)?tools?\s+(?:you\s+have|available\s+to\s+you)\b", re.I),
     lazy_re(r"tool|result|output|workflow|pipeline|chain|agent|orchestr|plan|step|report|summar|"
                r"router|route|dispatch|select|registry|mcp", re.I)),
)
"""(what, request pattern, topic pattern): a request for ``what`` counts unless the tool's name
or (for a parameter) the tool description matches the topic pattern, i.e. the data is the
tool's own business (a memory search over the conversation, a router choosing among tools)."""

_ASK = lazy_re(r"\b(?:pass|include|send|provide|put|add|append|attach|copy|give|enter|fill|supply|insert|"
                  r"embed|forward|paste|summari[sz]e|list|dump|output)\b", re.I)
"""In a tool description, a request needs a verb of handing data over in the same sentence (a
parameter's description asks for its value by itself)."""


_SOURCE_BEFORE = lazy_re(r"\b(?:in|from|within|into|through|across|inside|of|search(?:ing)?|scan(?:ning)?|"
                            r"look(?:ing)?|found|mentioned|seen|given)\s+(?:the\s+|your\s+|this\s+)?$", re.I)
"""Words before the data phrase that make it the place a value is looked up ("look in the chat
history for this number", "the keyword to search within the conversation history"), not the
value asked for."""


_NEGATION_BEFORE = lazy_re(
    r"\b(?:without|never|not|no|don['’]?t|avoid(?:s|ing)?|prevent(?:s|ing)?|keeps?\s+\w+\s+out\s+of|"
    r"instead\s+of|rather\s+than|excluding|except)\b", re.I)
"""A negation earlier in the sentence: the data phrase is what the text keeps out, not what it asks
for ("so that the secret never enters the chat history", "without the value entering the
conversation history")."""


def data_requests(t: Text) -> Iterator[tuple[str, re.Match[str]]]:
    """(what, match) for each request for unrelated data in the string ``t`` (the topic check is
    the caller's)."""
    for what, pattern, _ in KINDS:
        for m in pattern.finditer(t.text):
            if _SOURCE_BEFORE.search(t.text, max(0, m.start() - 40), m.start()):
                continue
            start, _ = sentence_at(t.text, m.start(), m.end())
            if _NEGATION_BEFORE.search(t.text, max(start, m.start() - 120), m.start()):
                continue  # "without the value entering the conversation history": advice, not a request
            if t.param is None:
                start, end = sentence_at(t.text, m.start(), m.end())
                if not _ASK.search(t.text, start, end):
                    continue
            yield what, m


def _on_topic(what: str, tool: Tool, t: Text) -> bool:
    topic = next(p for w, _, p in KINDS if w == what)
    context = [tool.name or "", t.param or ""]
    if t.param is not None and tool.description:
        context.append(tool.description)
    return any(topic.search(c) for c in context if c)


class UnrelatedDataRequest(Rule):
    """A property description (or a tool description, in a sentence that asks to pass, include or
    send something) asks for data the tool has no reason to receive: the conversation history
    ("the full chat history so far"), the system prompt or the model's instructions, or other
    tools' results and the list of available tools. Such parameters are how a poisoned tool
    exfiltrates what the model has seen. Not flagged when the data is the tool's subject: the
    tool's name (or, for a parameter, the tool description) is about conversations, memory,
    messages, prompts, agents, tools or workflows. Secrets are SL504's.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool, triggered("data", tool, ctx))

    def _check(self, tool: Tool, texts: list[Text]) -> Iterator[Diagnostic]:
        for t in texts:
            for what, m in data_requests(t):
                if _on_topic(what, tool, t):
                    continue
                asker = f"the parameter `{show(t.prop, 60)}`" if t.param is not None else "the tool"
                yield self.diag(
                    tool, None,
                    f"{t.where} asks for {what} at character {m.start()}: '{show(m.group(0))}'; nothing "
                    f"in the tool's name says {asker} needs it, and a parameter that collects it sends "
                    "what the model has seen to the server",
                    hint="ask only for the data the tool works on; if the server is not yours, do not load it",
                    file_pointer=t.pointer,
                )
                break
