"""SL404 duplicate-call-id: two tool calls of one conversation share an id.

Results are paired with calls by id; with two calls under one id the second result answers the
wrong call (or the provider refuses the request). Source: OpenAI Chat Completions reference
(``tool_call_id``), Anthropic "Tool use" (``tool_use.id`` unique), Responses (``call_id``).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Severity
from schemalint.rules.traffic._common import Finding, TrafficContext, TrafficRule
from schemalint.traffic.records import Conversation


class DuplicateCallId(TrafficRule):
    """Every call id is used once per conversation."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Finding]:
        if conv.format == "mcp":
            return  # an MCP exchange holds one call: JSON-RPC ids are the session's, not judged here
        seen: dict[str, str | None] = {}
        for call in conv.calls():
            if call.id is None:
                continue
            if call.id in seen:
                yield Finding(self.at(
                    conv, call.pointer,
                    f"call id `{call.id}` is used again (first by a call to `{seen[call.id]}`): its result "
                    "cannot be paired with the right call",
                    tool=call.name, line=call.line,
                    hint="give every call its own id (a proxy that rewrites ids, or a replayed history, "
                    "is the usual cause)"))
            else:
                seen[call.id] = call.name
