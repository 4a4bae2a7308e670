"""SL401 undeclared-tool-call: a call or result for a tool the request does not declare.

A request that declares no tools at all but carries tool calls or results (incident 3: an advisor
sub-request forwarded ``tool_use``/``tool_result`` blocks and declared zero tools), or a call
naming a tool that is not among the request's ``tools`` (or the MCP server's ``tools/list``
answer). Records that do not say which tools they declare (a bare transcript, a response) are not
judged, nor requests that also declare a provider's built-in tools (tool search, memory, Gemini
``googleSearch``), which may answer calls under names of their own. The message tells a call in
the request's history from one in the model's recorded answer (turns after
:attr:`Conversation.request_turns`) and names a refusal the response records
(:attr:`Conversation.refusal`).

Source: rules/SL401-undeclared-tool-call.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity
from schemalint.rules.traffic._common import TrafficContext, TrafficRule, Witness
from schemalint.traffic.records import Conversation


class UndeclaredToolCall(TrafficRule):
    """Every tool call and result names a tool the request declares."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        if conv.declared is None or conv.builtin_tools:
            return  # unknown, or built-in tools that may answer under names of their own
        calls = conv.calls()
        results = conv.results()
        answered = conv.request_turns if conv.request_turns is not None else len(conv.turns)
        answer_calls = {id(c) for t in conv.turns[answered:] for c in t.calls}
        refused = f"; the recorded response shows the provider refused it ({conv.refusal})" if conv.refusal else ""
        if not conv.declared:
            if not calls and not results:
                return
            first = (calls[0].pointer, calls[0].line) if calls else (results[0].pointer, results[0].line)
            names = sorted({c.name for c in calls if c.name})
            named = f" (naming {', '.join(f'`{n}`' for n in names[:5])})" if names else ""
            if calls and all(id(c) in answer_calls for c in calls) and not results:
                yield Witness(self.at(
                    conv, first[0],
                    f"the request declares no tools, yet the model's answer makes {len(calls)} tool call(s){named}: "
                    f"the model asked for a tool it was not given{refused}",
                    tool=names[0] if names else None, line=first[1],
                    hint="declare the tools the model is expected to call, or say in the instructions that no "
                    "tool is available (a prompt or history that mentions a tool invites the call)"),
                    key=(conv.file, "no-tools-answer"))
                return
            yield Witness(self.at(
                conv, first[0],
                f"the request declares no tools but its messages carry {len(calls)} tool call(s){named} and "
                f"{len(results)} tool result(s): providers may refuse it, and the model imitates a call it "
                f"cannot make{refused}",
                tool=names[0] if names else None, line=first[1],
                hint="declare the tools the history uses, or turn the calls and results into plain text "
                "before forwarding the conversation to a request without tools"), key=(conv.file, "no-tools"))
            return
        declared = {t.name for t in conv.declared}
        for call in calls:
            if call.name is not None and call.name not in declared:
                shown = ", ".join(f"`{n}`" for n in sorted(declared)[:8])
                if id(call) in answer_calls:
                    yield Witness(self.at(
                        conv, call.pointer,
                        f"the model's answer calls `{call.name}`, which the request does not declare (it "
                        f"declares {shown}): the model asked for a tool it was not given{refused}",
                        tool=call.name, line=call.line, severity=Severity.WARNING,
                        hint="declare the tool in the request, or say in the instructions which tools exist "
                        "(a history or system prompt that mentions the tool invites the call)"),
                        key=(conv.file, call.name, "answer"))
                    continue
                yield Witness(self.at(
                    conv, call.pointer,
                    f"a call to `{call.name}` in the request's history, which the record does not declare (it "
                    f"declares {shown}): the model sees a call in its history that it cannot make, and may try to",
                    tool=call.name, line=call.line, severity=Severity.WARNING,
                    hint="declare the tool in the request, or keep calls to it out of this request's history"),
                    key=(conv.file, call.name, "undeclared"))

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """Repeated calls to one undeclared tool (or requests without tools): once per file, with the count."""
        if count <= 1:
            return diagnostic
        from dataclasses import replace

        what = "requests without tools" if diagnostic.message.startswith("the request declares no") else "calls"
        if "the model's answer makes" in diagnostic.message:
            what = "answers"
        return replace(diagnostic, message=f"{diagnostic.message}; {count} such {what} in this file, the first "
                       "is shown")
