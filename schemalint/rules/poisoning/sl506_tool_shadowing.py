"""SL506 tool-shadowing: a description tells the model how to use *another* tool of the catalog.

Source: rules/SL506-tool-shadowing.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.lazy_re import LazyPattern, lazy_re
from schemalint.rules.poisoning.texts import Text, catalog_names, name_words, show, triggered, triggers, words_of
from schemalint.rules.tool_text import ToolText, tool_text
from schemalint.schema.index import index_schema

_NAME = r"[`'\"]?(?P<tool>[A-Za-z_][\w.-]*[\w])[`'\"]?(?:\s+(?:tool|function|command))?"
_CHANGE = (r"(?:set|add|include|send|bcc|cc|change|replace|redirect|forward|copy|append|attach|insert|"
           r"prepend|override|modify|rewrite|substitute)\b")
_MODAL = (r"(?:(?:you\s+)?(?:must|should|shall|always|also|make\s+sure\s+(?:to\s+)?|remember\s+to|"
          r"be\s+sure\s+to|ensure\s+(?:that\s+)?(?:you\s+)?|need\s+to|have\s+to|will\s+need\s+to)\s+)*")

_SENT = r"(?:go\s+to|(?:sent|routed|redirected|forwarded|copied|addressed)\s+to)\b"
PATTERNS: tuple[LazyPattern, ...] = (
    lazy_re(
        rf"\b(?:when(?:ever)?|before|after|each\s+time|every\s+time|if)\s+(?:you\s+)?(?:are\s+)?"
        rf"(?:use|using|call|calling|invoke|invoking|run|running|execute|executing)\s+(?:the\s+)?{_NAME}"
        rf"\s*,?\s+(?:then\s+)?{_MODAL}{_CHANGE}", re.I),
    lazy_re(
        rf"\b(?:the\s+)?{_NAME}\s+(?:must|should|shall)\s+(?:(?:always|never|only|also)\s+)?(?:be\s+)?"
        rf"(?:{_SENT}|{_CHANGE})", re.I),
    lazy_re(
        rf"\b(?:all|every|any|each)\s+(?:[\w-]+\s+){{1,3}}?(?:sent|made|created|issued|done|placed)\s+"
        rf"(?:with|via|through|using|by)\s+(?:the\s+)?{_NAME}\s+(?:must|should|shall)\s+"
        rf"(?:(?:always|only|also)\s+)?(?:be\s+)?(?:{_SENT}|{_CHANGE})", re.I),
)
""""When using X, always add/send/bcc ...", "X must (always) send/include ...", "all emails sent
with X must go to ..."."""


_GATES = (
    lazy_re(r"\b(?:use|using|call|calling|invoke|invoking|run|running|execute|executing)\b", re.I),
    lazy_re(r"\b(?:must|should|shall)\b", re.I),
    lazy_re(r"\b(?:must|should|shall)\b", re.I),
)
"""One cheap scan per pattern of :data:`PATTERNS` (whose leading name would be tried at every word)."""


def _w(words: str) -> frozenset[bytes]:
    return frozenset(words.encode().split())


_CHANGE_WORDS = _w("set add include send bcc cc change replace redirect forward copy append attach insert prepend "
                   "override modify rewrite substitute")
_SENT_WORDS = _w("go sent routed redirected forwarded copied addressed")
_USE_WORDS = _w("use using call calling invoke invoking run running execute executing")
_MODAL_WORDS = _w("must should shall")
_WORD_GATES = (
    (_USE_WORDS, _CHANGE_WORDS),
    (_MODAL_WORDS, _CHANGE_WORDS | _SENT_WORDS),
    (_MODAL_WORDS, _CHANGE_WORDS | _SENT_WORDS),
)
"""For each pattern of :data:`PATTERNS`, word sets it needs a word of each (whole words: every one
stands between spaces or word boundaries in the pattern), tested on the words of an ASCII text
before any scan (``re.I`` folds some non-ASCII letters onto ASCII ones, so other text is scanned)."""


def shadowing(t: Text, own: str, names: frozenset[str]) -> Iterator[re.Match[str]]:
    """Each instruction in ``t`` about a tool of ``names`` other than ``own``, by offset."""
    words = set(words_of(t.text)) if t.text.isascii() else None
    found = [m for gate, words_needed, p in zip(_GATES, _WORD_GATES, PATTERNS, strict=True)
             if (words is None or all(not w.isdisjoint(words) for w in words_needed)) and gate.search(t.text)
             for m in p.finditer(t.text) if m.group("tool") in names and m.group("tool") != own]
    yield from sorted(found, key=lambda m: m.start())


_CHANGE_OR_SENT = _CHANGE_WORDS | _SENT_WORDS
"""Every pattern of :data:`PATTERNS` needs one of these words (see :data:`_WORD_GATES`)."""


def may_shadow(tool: Tool, gate: frozenset[bytes]) -> bool:
    """False only when no description text of ``tool`` can hold an instruction about another tool: the
    tests :meth:`ToolShadowing.check_tool` asks of each text (a word of ``gate``, the longest words of
    the catalog's tool names; on ASCII text a word of :data:`_CHANGE_OR_SENT`), asked once of the
    words of the joined descriptions (:func:`schemalint.rules.tool_text.tool_text`), which hold every
    word of each description. A title is not in the joined text: a schema with a ``title`` is always
    a maybe."""
    text = tool_text(tool)
    if text.answer((may_shadow, gate), lambda t: _words_may_shadow(t, gate)):
        return True
    return "title" in index_schema(tool.advertised).keys


def _words_may_shadow(text: ToolText, gate: frozenset[bytes]) -> bool:
    """The word tests of :func:`may_shadow` on one joined text (an answer of the text)."""
    words = text.word_set
    return not (gate.isdisjoint(words) or (text.ascii and _CHANGE_OR_SENT.isdisjoint(words)))


class ToolShadowing(Rule):
    """A tool or property description instructs how to call another tool of the catalog
    ("when using `send_email`, always add ... to bcc", "`send_email` must always be sent to ...").
    A tool's description has no business changing another
    tool's calls; a server that does so can redirect what a trusted server's tool does without
    touching it. Only names of tools loaded in the same run count, and only instructions that
    change the other call (add, send, set, redirect, bcc ...), not the ordinary cross-reference
    ("call `list_issues` first to get the number").
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        # the tool's own trigger test first: it clears most tools, and costs less than the
        # catalog's names (a memo looked up per tool)
        if "shadow" not in triggers(tool, ctx):  # what triggered() asks first: no word test then
            return ()
        names = catalog_names(ctx)
        if len(names) < 2:
            return ()
        gate = name_words(ctx)
        if not may_shadow(tool, gate):
            return ()
        texts = triggered("shadow", tool, ctx)
        if not texts:
            return ()
        texts = [t for t in texts if not gate.isdisjoint(words_of(t.text))]
        return self._check(tool, texts, names) if texts else ()

    def _check(self, tool: Tool, texts: list[Text], names: frozenset[str]) -> Iterator[Diagnostic]:
        for t in texts:
            found = list(shadowing(t, tool.name, names))
            if not found:
                continue
            m = found[0]
            other = m.group("tool")
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            yield self.diag(
                tool, None,
                f"{t.where} instructs how to call another tool, `{show(other)}`, at character {m.start()}: "
                f"'{show(m.group(0))}'{more}; a description that changes another tool's calls can redirect "
                "what a trusted tool does (tool shadowing)",
                hint=f"describe only this tool; if `{show(other)}` needs the behaviour, put it in its own "
                     "description; if this server is not yours, do not load it",
                file_pointer=t.pointer,
            )
