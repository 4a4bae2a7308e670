"""OpenAI Responses traffic: ``function_call`` / ``function_call_output`` items.

Request bodies (``{"model", "input": [...], "tools"}``) and responses (``{"output": [...]}``).
Consecutive items the model produced (``function_call``, ``reasoning``, assistant ``message``)
form one model turn, consecutive outputs one tool turn. A request that continues an earlier
response (``previous_response_id``) holds only part of its history. Source: OpenAI API reference,
Responses (``call_id``), retrieved 2026.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.traffic.records import Call, Result, Turn, decode_arguments, error_text_of

MODEL_ITEMS = frozenset({"function_call", "reasoning"})
"""Items the model produced; besides these, every ``*_call`` item with a ``call_id`` (a
client-executed ``tool_search_call``, ``custom_tool_call`` ...) is a call its ``*_call_output``
answers."""


def looks_like(items: Sequence[Any]) -> bool:
    """True when some item is a ``function_call`` or ``function_call_output``."""
    return any(isinstance(i, Mapping) and i.get("type") in ("function_call", "function_call_output") for i in items)


def turns(items: Sequence[Any], base: str) -> list[Turn]:
    """The turns of an ``input`` or ``output`` item list (see the module docstring)."""
    out: list[Turn] = []
    for i, item in enumerate(items):
        ptr = f"{base}/{i}"
        if not isinstance(item, Mapping):
            out.append(Turn("?", ptr))
            continue
        kind = item.get("type")
        role = item.get("role")
        is_call = isinstance(kind, str) and kind.endswith("_call") and isinstance(item.get("call_id"), str)
        if kind in MODEL_ITEMS or is_call or (role == "assistant" and kind in (None, "message")):
            if not out or out[-1].role != "assistant":
                out.append(Turn("assistant", ptr))
            if is_call and kind != "function_call":
                # another client-executed call (tool_search_call, custom_tool_call ...): paired by
                # call_id, not judged against a function schema
                out[-1].calls.append(Call(item["call_id"], None, None, ptr, ptr, None, pairing_only=True))
            elif kind == "function_call":
                args, bad = decode_arguments(item.get("arguments", {}))
                cid, name = item.get("call_id"), item.get("name")
                out[-1].calls.append(Call(cid if isinstance(cid, str) else None,
                                          name if isinstance(name, str) else None, args, ptr,
                                          ptr + "/arguments", bad))
        elif isinstance(kind, str) and kind.endswith("_call_output"):
            if not out or out[-1].role != "tool":
                out.append(Turn("tool", ptr))
            cid = item.get("call_id")
            err = error_text_of(item.get("output"))
            out[-1].results.append(Result(cid if isinstance(cid, str) else None, None, ptr, err is not None, err))
        else:
            out.append(Turn(role if isinstance(role, str) else str(kind or "?"), ptr))
    return out


def response_turns(response: Mapping[str, Any], base: str) -> list[Turn] | None:
    """The turns of a response's ``output`` items, else ``None``."""
    output = response.get("output")
    if not isinstance(output, list) or not (response.get("object") == "response" or looks_like(output)):
        return None
    return turns(output, base + "/output")
