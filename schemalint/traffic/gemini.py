"""Gemini traffic: ``contents`` whose ``parts`` hold ``functionCall`` / ``functionResponse``.

Request bodies (``{"contents", "tools": [{"functionDeclarations"}]}``), responses
(``candidates[].content``) and bare ``contents`` lists. Calls without an ``id`` are matched to
results by name, in order. Source: Gemini API reference, ``Part.functionCall`` /
``Part.functionResponse`` (``id`` optional), retrieved 2026.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.model import join_pointer
from schemalint.traffic.records import (
    Call,
    Result,
    Turn,
    decode_arguments,
    entries,
    error_text_of,
    text_or_none,
    turns_of,
)


def looks_like(contents: Sequence[Any]) -> bool:
    """True when ``contents`` is a list of ``{role?, parts: [...]}`` entries."""
    return any(isinstance(c, Mapping) and isinstance(c.get("parts"), list) for c in contents)


def turn(content: Mapping[str, Any], pointer: str) -> Turn:
    """The :class:`Turn` of one ``Content`` (``role`` defaults to ``user``, as the API does)."""
    role = content.get("role")
    out = Turn(role if isinstance(role, str) else "user", pointer)
    for pptr, part in entries(content, "parts", pointer):
        for key in ("functionCall", "function_call"):
            call = part.get(key)
            if isinstance(call, Mapping):
                args, bad = decode_arguments(call.get("args", {}))
                cptr = join_pointer(pptr, key)
                out.calls.append(Call(text_or_none(call.get("id")), text_or_none(call.get("name")),
                                      args, cptr, cptr + "/args", bad))
        for key in ("functionResponse", "function_response"):
            resp = part.get(key)
            if isinstance(resp, Mapping):
                err = error_text_of(resp.get("response"))
                out.results.append(Result(text_or_none(resp.get("id")), text_or_none(resp.get("name")),
                                          join_pointer(pptr, key), err is not None, err))
    return out


def turns(contents: Sequence[Any], base: str) -> list[Turn]:
    """One :class:`Turn` per ``Content``."""
    return turns_of(turn, contents, base)


def response_turns(response: Mapping[str, Any], base: str) -> list[Turn] | None:
    """The model turn of a response (``candidates[0].content``), else ``None``."""
    cands = response.get("candidates")
    if not isinstance(cands, list) or not cands or not isinstance(cands[0], Mapping):
        return None
    content = cands[0].get("content")
    if not isinstance(content, Mapping):
        return None
    return [turn(content, f"{base}/candidates/0/content")]
