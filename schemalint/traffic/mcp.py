"""MCP JSON-RPC logs: ``tools/list`` answers, ``tools/call`` requests and their results.

A log is one session, one JSON-RPC message per line (or a JSON array of messages; a message may
sit under ``message``/``payload`` of a log entry). The session is read as it streams: the latest
``tools/list`` answer is what the server declares; each ``tools/call`` is held until its response
arrives and then handed on as a two-turn :class:`~schemalint.traffic.records.Conversation` (call,
result), so memory holds only the calls still waiting. A response to no call is a conversation
with only a result; calls still waiting at the end of the log, after later messages, are handed
on alone. Source: MCP specification 2025-06-18, "Tools" (``tools/list``, ``tools/call``,
``isError``) and JSON-RPC 2.0 (``id``, ``error``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.model import Tool
from schemalint.traffic._tools import declared_tools
from schemalint.traffic.records import Call, Conversation, Result, Turn, content_text, decode_arguments

ENVELOPE_KEYS = ("message", "payload", "data", "body")


def jsonrpc_message(value: Any) -> tuple[Mapping[str, Any], str] | None:
    """``(message, pointer)`` of the JSON-RPC 2.0 message ``value`` is or wraps (one level under
    :data:`ENVELOPE_KEYS`), else ``None``."""
    if isinstance(value, Mapping):
        if value.get("jsonrpc") == "2.0":
            return value, ""
        for key in ENVELOPE_KEYS:
            inner = value.get(key)
            if isinstance(inner, Mapping) and inner.get("jsonrpc") == "2.0":
                return inner, "/" + key
    return None


def _key(rpc_id: Any) -> str | None:
    if isinstance(rpc_id, bool) or not isinstance(rpc_id, (str, int, float)):
        return None
    return repr(rpc_id)


class Session:
    """The state of one MCP log being read (see the module docstring)."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.declared: list[Tool] | None = None
        self.declared_pointer = ""
        self.declared_line: int | None = None
        self._lists: set[str] = set()
        self._calls: dict[str, tuple[Call, int | None]] = {}
        self._requests: set[str] = set()
        self._after: dict[str, bool] = {}

    def feed(self, message: Mapping[str, Any], line: int | None, pointer: str) -> list[Conversation]:
        """Take one JSON-RPC message (at ``pointer`` of the document on ``line``); return the
        conversations it completes."""
        rpc_id = _key(message.get("id"))
        for waiting in self._after:
            self._after[waiting] = True
        method = message.get("method")
        if isinstance(method, str):
            if rpc_id is None:
                return []  # a notification
            if method == "tools/list":
                self._lists.add(rpc_id)
            elif method == "tools/call":
                raw = message.get("params")
                params: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
                name = params.get("name")
                args, bad = decode_arguments(params.get("arguments", {}))
                call = Call(str(message.get("id")), name if isinstance(name, str) else None, args,
                            pointer, pointer + "/params/arguments", bad, line=line)
                self._calls[rpc_id] = (call, line)
                self._after[rpc_id] = False
            else:
                self._requests.add(rpc_id)
            return []
        if rpc_id is None or ("result" not in message and "error" not in message):
            return []
        result = message.get("result")
        if rpc_id in self._lists:
            self._lists.discard(rpc_id)
            if isinstance(result, Mapping) and isinstance(result.get("tools"), list):
                self.declared = declared_tools(result, self.file, line, pointer + "/result")
                self.declared_pointer, self.declared_line = pointer + "/result/tools", line
            return []
        if rpc_id in self._requests:
            self._requests.discard(rpc_id)
            return []
        error = message.get("error")
        if error is not None:
            text = error.get("message") if isinstance(error, Mapping) else error
            answer = Result(str(message.get("id")), None, pointer + "/error", True, str(text), line=line)
        else:
            is_error = isinstance(result, Mapping) and result.get("isError") is True
            text = content_text(result.get("content")) if is_error and isinstance(result, Mapping) else None
            answer = Result(str(message.get("id")), None, pointer + "/result", is_error, text, line=line)
            if isinstance(result, Mapping) and "structuredContent" in result:
                answer.structured, answer.has_structured = result["structuredContent"], True
        found = self._calls.pop(rpc_id, None)
        self._after.pop(rpc_id, None)
        if found is None:
            if not isinstance(result, Mapping) or not ("content" in result or "isError" in result):
                return []  # the answer to a request this log did not record, not a tool result
            return [self._conversation(line, [Turn("tool", answer.pointer, results=[answer], line=line)])]
        call, call_line = found
        answer.name = call.name
        return [self._conversation(call_line, [Turn("assistant", call.pointer, calls=[call], line=call_line),
                                               Turn("tool", answer.pointer, results=[answer], line=line)])]

    def finish(self) -> list[Conversation]:
        """The calls never answered, each followed by a marker turn when later messages came."""
        out = []
        for rpc_id, (call, line) in self._calls.items():
            turns = [Turn("assistant", call.pointer, calls=[call], line=line)]
            if self._after.get(rpc_id):
                turns.append(Turn("later", call.pointer, line=line))
            out.append(self._conversation(line, turns))
        self._calls.clear()
        return out

    def _conversation(self, line: int | None, turns: list[Turn]) -> Conversation:
        return Conversation(self.file, line, "", "mcp", turns, self.declared, self.declared_pointer)
