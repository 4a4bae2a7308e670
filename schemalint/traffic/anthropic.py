"""Anthropic Messages traffic: ``tool_use`` / ``tool_result`` content blocks.

Request bodies (``{"model", "messages", "tools"}``), responses (``{"type": "message", "content"}``)
and bare message lists. Server tools (``server_tool_use``, ``mcp_tool_use`` and their result
blocks) run at the provider and are not matched against ``tools``. Source: Anthropic docs, "Tool
use" (``tool_use.id``, ``tool_result.tool_use_id``, ``is_error``), retrieved 2026.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.model import join_pointer
from schemalint.traffic.records import Call, Result, Turn, content_text, decode_arguments


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
    content = message.get("content")
    if not isinstance(content, list):
        return out
    for j, block in enumerate(content):
        if not isinstance(block, Mapping):
            continue
        bptr = join_pointer(pointer, "content", j)
        kind = block.get("type")
        if kind == "tool_use":
            args, bad = decode_arguments(block.get("input", {}))
            cid, name = block.get("id"), block.get("name")
            out.calls.append(Call(cid if isinstance(cid, str) else None, name if isinstance(name, str) else None,
                                  args, bptr, bptr + "/input", bad))
        elif kind == "tool_result":
            cid = block.get("tool_use_id")
            is_error = block.get("is_error") is True
            out.results.append(Result(cid if isinstance(cid, str) else None, None, bptr, is_error,
                                      content_text(block.get("content")) if is_error else None))
    return out


def turns(messages: Sequence[Any], base: str) -> list[Turn]:
    """One :class:`Turn` per message (non-message entries kept as role ``?``)."""
    return [turn(m, f"{base}/{i}") if isinstance(m, Mapping) else Turn("?", f"{base}/{i}")
            for i, m in enumerate(messages)]


def response_turns(response: Mapping[str, Any], base: str) -> list[Turn] | None:
    """The assistant turn of a Messages response (``{"type": "message", "role": "assistant"}``)."""
    if response.get("type") != "message" or not isinstance(response.get("content"), list):
        return None
    return [turn(response, base)]
