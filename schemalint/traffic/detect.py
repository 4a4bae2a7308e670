"""Whether a parsed document holds recorded traffic (tool calls or results), cheaply.

``schemalint check`` names such files in its summary (their calls are not tool definitions;
``schemalint replay`` reads them) without a diagnostic: :func:`holds_traffic` first looks for a
call or result marker in the text (:func:`has_marker`: C-level substring scans), then asks the traffic readers.
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

_ANCHORS = (("tool_", ("tool_c", "tool_u", "tool_r")), ("tools/call", ()),
            ("function", ("functionC", "functionR", "function_c")))
"""Substrings one of which every marker holds (at a fixed offset; checked by the tests), each with
narrower ones that cover its markers, for a text where the first is common (``function`` in an
OpenAI-format catalog)."""

_AT = {a: tuple((m, m.index(a)) for m in MARKERS if a in m)
       for anchor, narrower in _ANCHORS for a in (anchor, *narrower)}
"""For each anchor, the markers that hold it and the anchor's offset in each."""

_MAX_ANCHOR_HITS = 64
"""Occurrences of one anchor looked at one by one; beyond, its narrower anchors (or its markers) are
searched instead."""


def _anchored(text: str, anchor: str, narrower: tuple[str, ...]) -> bool:
    """Whether a marker that holds ``anchor`` occurs in ``text``, from the occurrences of ``anchor``."""
    markers = _AT[anchor]
    pos = text.find(anchor)
    hits = 0
    while pos != -1:
        hits += 1
        if hits > _MAX_ANCHOR_HITS:
            if narrower:
                return any(_anchored(text, a, ()) for a in narrower)
            return any(m in text for m, _ in markers)
        for marker, offset in markers:
            if pos >= offset and text.startswith(marker, pos - offset):
                return True
        pos = text.find(anchor, pos + 1)
    return False


def has_marker(text: str) -> bool:
    """Whether ``text`` holds one of :data:`MARKERS`, exactly ``any(m in text for m in MARKERS)``,
    in three C-level scans instead of twelve (a tool catalog of 300 KB holds none, and paid 1.3 ms
    a file): every occurrence of a marker holds an occurrence of one of :data:`_ANCHORS` at the
    marker's offset, so looking at the anchors' occurrences is enough."""
    return any(_anchored(text, anchor, narrower) for anchor, narrower in _ANCHORS)


def holds_traffic(text: str, values: list[tuple[int | None, Any]], file: str) -> bool:
    """True when the document (``text`` and its parsed ``values``, one per JSON Lines line) holds
    a recorded tool call or result that the traffic readers read. Never raises."""
    if not has_marker(text):
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
