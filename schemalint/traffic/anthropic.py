"""Anthropic Messages traffic: ``tool_use`` / ``tool_result`` content blocks.

Request bodies (``{"model", "messages", "tools"}``), responses (``{"type": "message", "content"}``)
and bare message lists. Server tools (``server_tool_use``, ``mcp_tool_use`` and their result
blocks) run at the provider and are not matched against ``tools``. Source: Anthropic docs, "Tool
use" (``tool_use.id``, ``tool_result.tool_use_id``, ``is_error``), retrieved 2026.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.traffic.records import (
    Call,
    Result,
    Turn,
    content_text,
    decode_arguments,
    entries,
    text_or_none,
    turns_of,
)


def looks_like(messages: Sequence[Any]) -> bool:
    """True when some message's content holds a ``tool_use`` or ``tool_result`` block."""
    for m in messages:
        content = m.get("content") if isinstance(m, Mapping) else None
        if isinstance(content, list) and any(isinstance(b, Mapping) and b.get("type") in ("tool_use", "tool_result")
                                             for b in content):
            return True
    return False


def turn(message: Mapping[str, Any], pointer: str) -> Turn:
    """The :class:`Turn` of one message (its ``tool_use`` and ``tool_result`` blocks)."""
    role = message.get("role")
    out = Turn(role if isinstance(role, str) else "?", pointer)
    for bptr, block in entries(message, "content", pointer):
        kind = block.get("type")
        if kind == "tool_use":
            args, bad = decode_arguments(block.get("input", {}))
            out.calls.append(Call(text_or_none(block.get("id")), text_or_none(block.get("name")),
                                  args, bptr, bptr + "/input", bad))
        elif kind == "tool_result":
            is_error = block.get("is_error") is True
            out.results.append(Result(text_or_none(block.get("tool_use_id")), None, bptr, is_error,
                                      content_text(block.get("content")) if is_error else None))
    return out


def turns(messages: Sequence[Any], base: str) -> list[Turn]:
    """One :class:`Turn` per message (non-message entries kept as role ``?``)."""
    return turns_of(turn, messages, base)


def response_turns(response: Mapping[str, Any], base: str) -> list[Turn] | None:
    """The assistant turn of a Messages response (``{"type": "message", "role": "assistant"}``)."""
    if response.get("type") != "message" or not isinstance(response.get("content"), list):
        return None
    return [turn(response, base)]
