"""Whether a parsed document holds recorded traffic (tool calls or results), cheaply.

``schemalint check`` names such files in its summary (their calls are not tool definitions;
``schemalint replay`` reads them) without a diagnostic: :func:`holds_traffic` first looks for a
call or result marker in the text (a C-level substring scan), then asks the traffic readers.
"""

from __future__ import annotations

from typing import Any

MARKERS = ('"tool_calls"', '"tool_use"', '"tool_result"', '"functionCall"', '"functionResponse"',
           '"function_call"', '"function_call_output"', '"tools/call"', '"tool_call_id"', "tool_calls:",
           "tool_use", "tools/call")
"""Substrings of a file's text without which it cannot hold recorded traffic."""


def holds_traffic(text: str, values: list[tuple[int | None, Any]], file: str) -> bool:
    """True when the document (``text`` and its parsed ``values``, one per JSON Lines line) holds
    a recorded tool call or result that the traffic readers read. Never raises."""
    if not any(m in text for m in MARKERS):
        return False
    from schemalint.traffic.mcp import jsonrpc_message
    from schemalint.traffic.stream import records_in

    try:
        for line, value in values[:1000]:
            rpc = jsonrpc_message(value)
            if rpc is not None:
                method = rpc[0].get("method")
                if method == "tools/call":
                    return True
                continue
            for conv in records_in(value, file, line):
                if any(t.calls or t.results for t in conv.turns):
                    return True
    except RecursionError:
        return False
    return False
