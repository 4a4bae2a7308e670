"""SL404 duplicate-call-id: two tool calls of one conversation share an id.

Results are paired with calls by id; with two calls under one id the second result answers the
wrong call (or the provider refuses the request): an error. An id reused after the first call
was answered still pairs in order, but traces, caches and id checks mix the two calls: a warning,
reported once per file with a count.

Source: rules/SL404-duplicate-call-id.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Severity
from schemalint.rules.traffic._common import TrafficContext, TrafficRule, Witness
from schemalint.traffic.records import Conversation


class DuplicateCallId(TrafficRule):
    """Every call id is used once per conversation."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        if conv.format == "mcp":
            return  # an MCP exchange holds one call: JSON-RPC ids are the session's, not judged here
        seen: dict[str, tuple[str | None, bool]] = {}  # id -> (tool of the first call, still waiting)
        for turn in conv.turns:
            for result in turn.results:
                if result.id in seen:
                    seen[result.id] = (seen[result.id][0], False)
            for call in turn.calls:
                if call.id is None:
                    continue
                if call.id in seen:
                    first, waiting = seen[call.id]
                    if waiting:
                        yield Witness(self.at(
                            conv, call.pointer,
                            f"call id `{call.id}` is used again while the call to `{first}` with that id waits for "
                            "its result: the result cannot be paired with the right call",
                            tool=call.name, line=call.line,
                            hint="give every call its own id (a proxy that rewrites ids, or a replayed history, "
                            "is the usual cause)"))
                    else:
                        yield Witness(self.at(
                            conv, call.pointer,
                            f"call id `{call.id}` is used again (the call to `{first}` with that id was answered "
                            "earlier): pairing in order still works, but anything keyed by the id (traces, "
                            "caches, a provider that checks ids) mixes the two calls",
                            tool=call.name, line=call.line, severity=Severity.WARNING,
                            hint="give every call its own id; a response cache or a proxy that rewrites ids is the "
                            "usual cause"), key=(conv.file, "reused"))
                seen[call.id] = (call.name, True)
