"""SL402 orphan-tool-result: a tool result that answers no call of the conversation.

A ``role: "tool"`` message, ``tool_result`` block, ``function_call_output`` item, Gemini
``functionResponse`` or MCP response whose call id matches no call before it (by name for
formats without ids). Providers refuse such a request (every result must pair with a preceding
call); a history that dropped the assistant turn carrying the calls (incident 4: ``content:
null`` turns dropped) leaves exactly this. A request that continues a stored response
(``previous_response_id``) is not judged.

Source: rules/SL402-orphan-tool-result.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Severity
from schemalint.rules.traffic._common import TrafficContext, TrafficRule, Witness
from schemalint.traffic.records import Conversation


class OrphanToolResult(TrafficRule):
    """Every tool result pairs with a call made before it."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        if conv.partial:
            return
        ids: set[str] = set()
        names: dict[str, int] = {}
        for turn in conv.turns:
            for result in turn.results:
                if result.id is not None:
                    if result.id in ids:
                        continue
                    what = f"call id `{result.id}`"
                elif result.name is not None:
                    if names.get(result.name, 0) > 0:
                        names[result.name] -= 1
                        continue
                    what = f"a call to `{result.name}` (the format pairs by name)"
                else:
                    continue
                yield Witness(self.at(
                    conv, result.pointer,
                    f"a tool result for {what}, but no call before it in the conversation has it: the "
                    "provider refuses the request (a result must follow its call)",
                    tool=result.name, line=result.line,
                    hint="keep the assistant turn that made the call (also when its content is null), or drop "
                    "the result with it"))
            for call in turn.calls:
                if call.id is not None:
                    ids.add(call.id)
                elif call.name is not None:
                    names[call.name] = names.get(call.name, 0) + 1
