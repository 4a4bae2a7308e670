"""The value types of recorded traffic: calls, results, turns and conversations.

Every reader (:mod:`schemalint.traffic`) turns one record (a request body, a response, a
transcript, a request/response pair, one MCP exchange) into a :class:`Conversation`. Pointers are
RFC 6901 pointers into the record's JSON document (for JSON Lines: into that line's document,
with :attr:`Conversation.line` the 1-based line number).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import Tool, join_pointer


@dataclass
class Call:
    """One tool call a model made.

    ``id``: the call id (``tool_calls[].id``, ``tool_use.id``, ``call_id``, a Gemini ``functionCall.id``,
    the JSON-RPC id of an MCP ``tools/call``), ``None`` when the format records none. ``name``: the tool
    named (``None`` when missing or not a string). ``arguments``: the arguments as a JSON value (an
    OpenAI ``arguments`` string decoded; ``None`` when it does not decode, then ``undecodable`` holds the
    text). ``pointer``: the call object; ``arguments_pointer``: its arguments.
    """

    id: str | None
    name: str | None
    arguments: Any
    pointer: str
    arguments_pointer: str
    undecodable: str | None = None
    line: int | None = None
    """The JSON Lines line of the call when it differs from its conversation's (an MCP log, a
    transcript written one message per line); ``None``: :attr:`Conversation.line`."""
    pairing_only: bool = False
    """A call of a provider's own kind (a Responses ``tool_search_call``): its id pairs results,
    but whether and how it is answered is the provider's, so it is not judged unanswered."""


@dataclass
class Result:
    """One tool result handed back to the model.

    ``id``: the call id it answers (``tool_call_id``, ``tool_use_id``, ``call_id``, the JSON-RPC id),
    ``None`` when the format records none (Gemini without ids: matched by ``name``). ``is_error``:
    the record marks the result as an error (``is_error``, ``isError``, a JSON-RPC ``error``, a
    Gemini ``response.error``, a result whose JSON text is ``{"error": ...}``); ``error_text``: the
    error's text when known.
    """

    id: str | None
    name: str | None
    pointer: str
    is_error: bool = False
    error_text: str | None = None
    line: int | None = None
    """As :attr:`Call.line`."""
    structured: Any = None
    """An MCP result's ``structuredContent`` when :attr:`has_structured` (it may itself be ``null``)."""
    has_structured: bool = False
    """The result carries ``structuredContent`` (MCP ``tools/call`` results; never for other formats)."""


@dataclass
class Turn:
    """One message of a conversation (every message is kept, also an assistant turn with
    ``content: null`` and only tool calls, and ``role: "tool"`` messages).

    ``role``: ``user``, ``assistant``, ``tool``, ``system`` ... as the format names it (Gemini
    ``model`` is kept as ``model``); :attr:`from_model` says whether the model wrote it.
    """

    role: str
    pointer: str
    calls: list[Call] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    line: int | None = None
    """As :attr:`Call.line`."""

    @property
    def from_model(self) -> bool:
        """True for a turn the model produced (``assistant``, ``model``)."""
        return self.role in ("assistant", "model")


@dataclass
class Conversation:
    """One record of traffic, in order.

    ``file``/``line``: where it was read (``line`` for JSON Lines, else ``None``); ``pointer``: the
    record inside that document (``""`` for the whole document). ``format``: the reader
    (``openai-chat``, ``openai-responses``, ``anthropic``, ``gemini``, ``mcp``). ``declared``: the
    tools the record declares, as :class:`~schemalint.model.Tool` objects of the loaders; ``None``
    when the record does not say (a bare transcript, an MCP log without a ``tools/list`` answer),
    ``[]`` for a request that declares none. ``declared_pointer``: where the record declares them, or
    would (the request object).
    """

    file: str
    line: int | None
    pointer: str
    format: str
    turns: list[Turn] = field(default_factory=list)
    declared: Sequence[Tool] | None = None
    declared_pointer: str = ""
    builtin_tools: bool = False
    """The record also declares tools that are not function definitions (a provider's built-in or
    server tool: ``{"type": "tool_search_tool_bm25_..."}``, ``memory_...``, Gemini ``googleSearch``),
    which may answer calls under names of their own."""
    request_turns: int | None = None
    """How many of :attr:`turns` are a request's messages (the provider answers after them, so a
    call among them must be answered inside them); ``None`` for a transcript or a response alone.
    A request/response pair's response turns follow them."""
    partial: bool = False
    """The record holds only part of its history (a Responses request with
    ``previous_response_id``): a result whose call is not in it is not an orphan."""
    refusal: str | None = None
    """The provider's refusal the recorded response shows (``HTTP 400``, Gemini
    ``finishReason UNEXPECTED_TOOL_CALL``, an ``error`` message), else ``None``."""
    accepted: bool = False
    """The recorded response shows the provider accepted the request (HTTP 2xx, or a normal
    completion when no status was recorded, and no refusal)."""

    def calls(self) -> list[Call]:
        """Every call, in order."""
        return [c for t in self.turns for c in t.calls]

    def results(self) -> list[Result]:
        """Every result, in order."""
        return [r for t in self.turns for r in t.results]

    def declared_tool(self, name: str | None) -> Tool | None:
        """The declared tool called ``name`` (the first one), else ``None``."""
        for tool in self.declared or ():
            if tool.name == name:
                return tool
        return None


def turns_of(turn: Callable[[Mapping[str, Any], str], Turn], messages: Sequence[Any], base: str) -> list[Turn]:
    """One :class:`Turn` per entry of ``messages`` (at pointer ``base``): ``turn(entry, pointer)`` for
    an object, a turn of role ``?`` for anything else, so that indexes stay those of the file."""
    return [turn(m, f"{base}/{i}") if isinstance(m, Mapping) else Turn("?", f"{base}/{i}")
            for i, m in enumerate(messages)]


def entries(message: Mapping[str, Any], key: str, pointer: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """``(pointer, entry)`` of each object in the list ``message[key]`` (``message`` at ``pointer``):
    an Anthropic message's content blocks, a Gemini content's parts. Other entries, and a ``key``
    that holds no list, give nothing."""
    items = message.get(key)
    if isinstance(items, list):
        for j, item in enumerate(items):
            if isinstance(item, Mapping):
                yield join_pointer(pointer, key, j), item


def text_or_none(value: Any) -> str | None:
    """``value`` when it is a string (a recorded id or name), else ``None``."""
    return value if isinstance(value, str) else None


def decode_arguments(value: Any) -> tuple[Any, str | None]:
    """``(arguments, undecodable)`` for a recorded ``arguments`` field: a JSON string is decoded
    (OpenAI sends arguments as JSON text); a string that is not JSON is returned as ``(None,
    text)``; any other value is returned as is. Never raises."""
    if not isinstance(value, str):
        return value, None
    import json

    try:
        return json.loads(value), None
    except (ValueError, RecursionError):
        return None, value


def error_text_of(content: Any) -> str | None:
    """The error a result's content reports in its own shape: a JSON object (or the JSON text of
    one) with a non-null top-level ``error``; the text of that error, else ``None``."""
    import json

    if isinstance(content, str):
        stripped = content.strip()
        if not stripped.startswith("{") or len(stripped) > 1_000_000:
            return None
        try:
            content = json.loads(stripped)
        except (ValueError, RecursionError):
            return None
    if isinstance(content, dict) and content.get("error") not in (None, False, ""):
        err = content["error"]
        if isinstance(err, dict):
            err = err.get("message", err)
        return str(err)
    return None


def content_text(content: Any, limit: int = 400) -> str:
    """The text of a result's content (a string, or the ``text`` of content blocks), cut to ``limit``."""
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = " ".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    else:
        text = ""
    return text[:limit]
