"""Whether a parsed document holds recorded traffic (tool calls or results), cheaply.

``schemalint check`` names such files in its summary (their calls are not tool definitions;
``schemalint replay`` reads them) without a diagnostic: :func:`holds_traffic` first looks for a
call or result marker in the text (a C-level substring scan), then asks the traffic readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.model import Tool

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


def distinct_declarations(tools: Sequence[Tool]) -> tuple[list[Tool], int]:
    """``(tools, repeats)``: the tools a traffic file declares, each definition once (the first,
    in file order), and how many repeated declarations were left out.

    A recording declares the same ``tools`` in every request of a conversation (a test cassette
    with six interactions declares each tool six times); linting each copy reports one fault six
    times. Two declarations are the same when name and definition (:attr:`Tool.raw`, compared as
    canonical JSON) are equal; a tool whose definition changed between requests is kept.
    """
    import json

    seen: set[tuple[str, str]] = set()
    kept: list[Tool] = []
    for tool in tools:
        try:
            text = json.dumps(tool.raw, sort_keys=True, default=str)
        except (TypeError, ValueError, RecursionError):
            kept.append(tool)
            continue
        key = (tool.name, text)
        if key not in seen:
            seen.add(key)
            kept.append(tool)
    return kept, len(tools) - len(kept)
