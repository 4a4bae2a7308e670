"""OpenAI Chat Completions traffic: ``messages`` with ``tool_calls`` and ``role: "tool"``.

Request bodies (``{"model", "messages", "tools"}``), completions (``choices[].message``) and bare
message lists. Assistant turns with ``content: null`` and only ``tool_calls`` are kept; the legacy
``function_call`` / ``role: "function"`` pair is read too. Source: OpenAI API reference, Chat
Completions (``tool_calls``, ``tool_call_id``), retrieved 2026.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.model import join_pointer
from schemalint.traffic.records import Call, Result, Turn, decode_arguments, error_text_of, turns_of


def is_message(value: Any) -> bool:
    """True for an OpenAI Chat message: a mapping with a string ``role`` and ``content``,
    ``tool_calls``, ``tool_call_id`` or ``function_call``."""
    return isinstance(value, Mapping) and isinstance(value.get("role"), str) and any(
        k in value for k in ("content", "tool_calls", "tool_call_id", "function_call"))


def looks_like(messages: Sequence[Any]) -> bool:
    """True when a message list uses this format's tool fields (``tool_calls``, ``role: "tool"``)."""
    return any(isinstance(m, Mapping) and ("tool_calls" in m or m.get("role") in ("tool", "function")
                                           or "function_call" in m) for m in messages)


def turn(message: Mapping[str, Any], pointer: str) -> Turn:
    """The :class:`Turn` of one message at ``pointer``."""
    role = message.get("role")
    out = Turn(role if isinstance(role, str) else "?", pointer)
    calls = message.get("tool_calls")
    if isinstance(calls, list):
        for j, call in enumerate(calls):
            if not isinstance(call, Mapping):
                continue
            raw_fn = call.get("function")
            fn: Mapping[str, Any] = raw_fn if isinstance(raw_fn, Mapping) else {}
            args, bad = decode_arguments(fn.get("arguments", {}))
            cptr = join_pointer(pointer, "tool_calls", j)
            name, cid = fn.get("name"), call.get("id")
            out.calls.append(Call(cid if isinstance(cid, str) else None, name if isinstance(name, str) else None,
                                  args, cptr, cptr + "/function/arguments", bad))
    legacy = message.get("function_call")
    if isinstance(legacy, Mapping) and isinstance(legacy.get("name"), str) and legacy["name"]:
        # some OpenAI-compatible servers answer `"function_call": {"name": "", "arguments": ""}` for no call
        args, bad = decode_arguments(legacy.get("arguments", {}))
        name = legacy.get("name")
        cptr = join_pointer(pointer, "function_call")
        out.calls.append(Call(None, name if isinstance(name, str) else None, args, cptr, cptr + "/arguments", bad))
    if role in ("tool", "function"):
        cid, name = message.get("tool_call_id"), message.get("name")
        err = error_text_of(message.get("content"))
        ids = message.get("tool_call_ids")  # SWE-agent trajectories answer several calls in one message
        many: list[str | None] = [i for i in ids if isinstance(i, str)] if isinstance(ids, list) and cid is None \
            else []
        for one in many or [cid if isinstance(cid, str) else None]:
            out.results.append(Result(one, name if isinstance(name, str) else None, pointer, err is not None, err))
    return out


def turns(messages: Sequence[Any], base: str) -> list[Turn]:
    """One :class:`Turn` per message of ``messages`` (at pointer ``base``); a non-message entry is
    kept as a turn of role ``?`` so that indexes stay those of the file."""
    return turns_of(turn, messages, base)


def response_turns(response: Mapping[str, Any], base: str) -> list[Turn] | None:
    """The assistant turn of a completion (``choices[0].message``), else ``None``."""
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        return None
    message = choices[0].get("message")
    if not isinstance(message, Mapping):
        return None
    return [turn(message, f"{base}/choices/0/message")]
