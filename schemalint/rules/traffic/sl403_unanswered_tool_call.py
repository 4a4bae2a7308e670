"""SL403 unanswered-tool-call: a call with no result before the conversation goes on.

After a model turn that makes calls, the next messages must carry a result for each of them
before the model speaks again (or a user message comes); a call left unanswered there is refused
by the providers (OpenAI: "An assistant message with 'tool_calls' must be followed by tool
messages responding to each 'tool_call_id'"; Anthropic: each ``tool_use`` needs a ``tool_result``
in the next user turn; a request's own messages are followed by the model's answer, so a call
among them is answered among them), and a facade that drops ``role: "tool"`` messages leaves exactly this
(incident 4). A conversation that ends with the calls (a response) is not judged.

Source: rules/SL403-unanswered-tool-call.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Severity
from schemalint.rules.traffic._common import TrafficContext, TrafficRule, Witness
from schemalint.traffic.records import Conversation


class UnansweredToolCall(TrafficRule):
    """Every call is answered before the conversation continues."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        turns = conv.turns
        answered = ctx.results_of(conv)
        for i, turn in enumerate(turns):
            if not turn.calls:
                continue
            g = i  # model turns that follow each other are one answer (a session log writes a block a line)
            while g + 1 < len(turns) and turns[g + 1].from_model and turn.from_model:
                g += 1
            k = g + 1
            while k < len(turns) and not turns[k].from_model:
                k += 1
            window = turns[g + 1:k]
            in_request = conv.request_turns is not None and i < conv.request_turns
            continued = in_request or k < len(turns) or any(not t.results for t in window)
            if not continued:
                continue
            inside = {id(r) for t in window for r in t.results}
            for call in turn.calls:
                if call.pairing_only:
                    continue
                result = answered.get(id(call))
                if result is not None and id(result) in inside:
                    continue
                label = f"`{call.name}`" if call.name else "a tool"
                ident = f" (id `{call.id}`)" if call.id else ""
                effect = ("the log records no response to this tools/call, though later messages follow"
                          if conv.format == "mcp" else "the provider refuses the next request, or the model never "
                          "learns what the call did")
                yield Witness(self.at(
                    conv, call.pointer,
                    f"the call to {label}{ident} gets no result before the conversation goes on: {effect}",
                    tool=call.name, line=call.line,
                    hint="keep every tool result (role \"tool\", tool_result, function_call_output) in the history "
                    "right after the turn that made the call"))
