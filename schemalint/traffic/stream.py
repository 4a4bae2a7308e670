"""Read recorded traffic from files: one record per document, or JSON Lines line by line.

:func:`read_file` yields :class:`~schemalint.traffic.records.Conversation` objects and
:class:`Problem` objects (a line or file that is not JSON, located, never an exception) in file
order. A JSON Lines file (``.jsonl``, ``.ndjson``, or a file that is not one JSON document but whose
lines are) is read one line at a time and nothing of a line is kept once it has been read, so a
1 GB log is read in the memory of its longest line. Other files are parsed whole (JSON, or YAML
through :func:`schemalint.loaders.files.documents.read_document`, for VCR cassettes).

:func:`records_in` finds the records inside one parsed document: a request body (``messages``,
``input``, ``contents``), a response (``choices``, ``type: message``, ``output``, ``candidates``),
a request/response pair (``request``/``response``, their ``body``/``parsed_body``, VCR
``interactions``), a bare transcript (a list of messages, also under a key of a record such as an
eval trajectory's ``traj``), an MCP JSON-RPC message (kept across
lines by :class:`schemalint.traffic.mcp.Session`), and transcripts written one message per line.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from schemalint.model import escape_token
from schemalint.traffic import anthropic, gemini, openai_chat, openai_responses
from schemalint.traffic._tools import declared_tools
from schemalint.traffic.mcp import Session, jsonrpc_message
from schemalint.traffic.records import Conversation, Turn

LINE_SUFFIXES = (".jsonl", ".ndjson", ".jsonlines", ".log")
"""Files read as JSON Lines from the start."""

MAX_BODY_STRING = 8 * 1024 * 1024
"""Longest ``body`` string (a cassette's recorded request text) decoded as JSON."""

MAX_PROBLEMS_PER_FILE = 20
"""Lines that do not parse reported per file; the rest are counted in the last one."""

_BODY_KEYS = ("parsed_body", "body", "json", "data")


@dataclass(frozen=True)
class Problem:
    """A part of a file that is not JSON: ``file``, 1-based ``line``/``column``, ``message``."""

    file: str
    line: int
    column: int
    message: str


def _body(value: Any) -> Any:
    """A recorded body: the object itself, or the JSON object a body string encodes."""
    if isinstance(value, str) and len(value) <= MAX_BODY_STRING and value.lstrip().startswith("{"):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return None
    return value


def _unwrap(value: Any, pointer: str) -> tuple[Any, str]:
    """The body inside a recorded request or response (``body``, ``parsed_body``, ``json``)."""
    if isinstance(value, Mapping):
        for key in _BODY_KEYS:
            if key in value:
                inner = _body(value[key])
                if isinstance(inner, Mapping):
                    return inner, f"{pointer}/{key}"
    return value, pointer


def _message_list(messages: Sequence[Any], base: str) -> tuple[str, list[Turn]] | None:
    if anthropic.looks_like(messages):
        return "anthropic", anthropic.turns(messages, base)
    if openai_responses.looks_like(messages):
        return "openai-responses", openai_responses.turns(messages, base)
    if gemini.looks_like(messages):
        return "gemini", gemini.turns(messages, base)
    if all(openai_chat.is_message(m) for m in messages) and messages:
        return "openai-chat", openai_chat.turns(messages, base)
    return None


def _request(body: Mapping[str, Any], file: str, line: int | None, base: str) -> Conversation | None:
    """The conversation of a request body, or ``None`` when ``body`` is not one."""
    messages, contents, items = body.get("messages"), body.get("contents"), body.get("input")
    fmt: str | None = None
    turns: list[Turn] = []
    if isinstance(messages, list):
        tools = body.get("tools")
        anthropic_tools = isinstance(tools, list) and any(isinstance(t, Mapping) and "input_schema" in t
                                                          for t in tools)
        if anthropic.looks_like(messages) or anthropic_tools:
            fmt, turns = "anthropic", anthropic.turns(messages, base + "/messages")
        else:
            fmt, turns = "openai-chat", openai_chat.turns(messages, base + "/messages")
    elif isinstance(contents, list) and gemini.looks_like(contents):
        fmt, turns = "gemini", gemini.turns(contents, base + "/contents")
    elif isinstance(items, list) and ("model" in body or openai_responses.looks_like(items)):
        fmt, turns = "openai-responses", openai_responses.turns(items, base + "/input")
    if fmt is None:
        return None
    declared: list[Any] | None = None
    builtins = False
    for key in ("tools", "functions"):
        if key in body:
            declared = declared_tools(body, file, line, base, key)
            builtins = _has_builtins(body[key], declared, f"{base}/{key}")
            break
    else:
        request_keys = ("model", "generationConfig", "systemInstruction", "max_tokens", "tool_choice")
        if any(k in body for k in request_keys):
            declared = []
    if fmt == "openai-responses" and isinstance(items, list):
        for i, item in enumerate(items):  # tools added mid-conversation by an `additional_tools` item
            if isinstance(item, Mapping) and item.get("type") == "additional_tools" and "tools" in item:
                declared = [*(declared or []), *declared_tools(item, file, line, f"{base}/input/{i}")]
    return Conversation(file, line, base, fmt, turns, declared, base, builtin_tools=builtins,
                        request_turns=len(turns),
                        partial="previous_response_id" in body or "conversation" in body)


def _has_builtins(entries: Any, found: Sequence[Any], pointer: str) -> bool:
    """True when a tools list holds an entry that is not one of the definitions ``found`` (a
    provider's built-in tool)."""
    if not isinstance(entries, list):
        return False
    at = {t.origin.pointer for t in found}
    for i, entry in enumerate(entries):
        here = f"{pointer}/{i}"
        if here in at:
            continue
        if isinstance(entry, Mapping) and set(entry) <= {"functionDeclarations", "function_declarations"} \
                and any(p.startswith(here + "/") for p in at):
            continue  # a Gemini Tool holding only declarations
        return True
    return False


def _response(body: Mapping[str, Any], base: str) -> tuple[str, list[Turn]] | None:
    for fmt, reader in (("openai-chat", openai_chat.response_turns), ("anthropic", anthropic.response_turns),
                        ("openai-responses", openai_responses.response_turns), ("gemini", gemini.response_turns)):
        turns = reader(body, base)
        if turns is not None:
            return fmt, turns
    return None


REFUSAL_FINISH_REASONS = frozenset({"UNEXPECTED_TOOL_CALL", "MALFORMED_FUNCTION_CALL"})
"""Gemini ``finishReason`` values that record the provider refusing the model's call (Gemini API
reference, ``FinishReason``)."""


def _status(response: Any) -> int | None:
    """The HTTP status a recorded response holds (HAR ``status``, VCR ``status.code``,
    ``status_code``), else ``None``."""
    if not isinstance(response, Mapping):
        return None
    for key in ("status", "status_code"):
        value = response.get(key)
        if isinstance(value, Mapping):
            value = value.get("code")
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _refusal(body: Any) -> str | None:
    """The provider's recorded refusal in a response body: a Gemini ``finishReason`` of
    :data:`REFUSAL_FINISH_REASONS`, or an ``error`` object's message."""
    if not isinstance(body, Mapping):
        return None
    cands = body.get("candidates")
    if isinstance(cands, list) and cands and isinstance(cands[0], Mapping):
        reason = cands[0].get("finishReason")
        if isinstance(reason, str) and reason in REFUSAL_FINISH_REASONS:
            return f"finishReason {reason}"
    error = body.get("error")
    if isinstance(error, Mapping) and isinstance(error.get("message"), str):
        return f"error: {error['message'][:200]}"
    return None


def _pair(request: Any, response: Any, file: str, line: int | None, base: str,
          rptr: str | None = None, sptr: str | None = None) -> Conversation | None:
    """The conversation of a recorded request and its response. ``rptr``/``sptr``: the pointers of
    bodies already decoded (a HAR entry's texts); else the bodies are unwrapped from ``request``
    and ``response`` (``body``, ``parsed_body`` ...)."""
    status = _status(response)
    if rptr is None:
        req, rptr = _unwrap(request, base + "/request")
    else:
        req = request
    if sptr is None:
        res, sptr = _unwrap(response, base + "/response")
    else:
        res = response
    conv = _request(req, file, line, rptr) if isinstance(req, Mapping) else None
    answer = _response(res, sptr) if isinstance(res, Mapping) else None
    refusal = _refusal(res)
    if status is not None and status >= 400 and refusal is None:
        refusal = f"HTTP {status}"
    accepted = refusal is None and (200 <= status < 300 if status is not None else answer is not None)
    if conv is None:
        if answer is None:
            return None
        return Conversation(file, line, base, answer[0], answer[1], refusal=refusal)
    if answer is not None:
        conv.turns.extend(answer[1])
    conv.refusal = refusal
    conv.accepted = accepted and (answer is not None or status is not None)
    return conv


def _har_text(holder: Any, pointer: str) -> tuple[Any, str]:
    """The JSON body a HAR ``postData`` / ``content`` object records in ``text`` (base64-decoded
    when ``encoding`` says so), and its pointer; ``(None, pointer)`` when there is none."""
    if not isinstance(holder, Mapping) or not isinstance(holder.get("text"), str):
        return None, pointer
    text = holder["text"]
    if holder.get("encoding") == "base64":
        import base64
        import binascii

        if len(text) > MAX_BODY_STRING * 4 // 3 + 4:
            return None, pointer
        try:
            text = base64.b64decode(text, validate=False).decode("utf-8", errors="replace")
        except (binascii.Error, ValueError):
            return None, pointer
    if "event-stream" in str(holder.get("mimeType", "")) and not text.lstrip().startswith("{"):
        for row in text.splitlines():  # an MCP Streamable HTTP answer sent as server-sent events
            if row.startswith("data:") and row[5:].lstrip().startswith("{"):
                decoded = _body(row[5:].strip())
                if isinstance(decoded, Mapping) and jsonrpc_message(decoded) is not None:
                    return decoded, f"{pointer}/text"  # a model's stream of chunks is not reassembled
        return None, pointer
    return _body(text), f"{pointer}/text"


def is_har(value: Any) -> bool:
    """True for an HTTP Archive (HAR 1.2: ``{"log": {"entries": [...]}}``)."""
    log = value.get("log") if isinstance(value, Mapping) else None
    return isinstance(log, Mapping) and isinstance(log.get("entries"), list)


def har_records(value: Mapping[str, Any], file: str) -> Iterator[Conversation]:
    """The conversations of a HAR 1.2 archive: per entry, the request body
    (``request.postData.text``) and the response body (``response.content.text``, also base64) read
    as a recorded request/response pair; pointers run through the text, e.g.
    ``/log/entries/3/request/postData/text/messages/1`` (located at the line of that text)."""
    yield from har_entries(value["log"]["entries"], file)


def har_entries(entries: Iterable[Any], file: str) -> Iterator[Conversation]:
    """The conversations of a HAR archive's ``log.entries``, taken one entry at a time (``entries``
    may be a stream: :func:`read_file` parses a HAR file entry by entry, holding one at a time)."""
    session = Session(file)  # MCP over HTTP: the JSON-RPC messages of all entries are one session
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            continue
        base = f"/log/entries/{i}"
        request, response = entry.get("request"), entry.get("response")
        req, rptr = _har_text(request.get("postData") if isinstance(request, Mapping) else None,
                              f"{base}/request/postData")
        res, sptr = _har_text(response.get("content") if isinstance(response, Mapping) else None,
                              f"{base}/response/content")
        rpcs = [(jsonrpc_message(body), ptr) for body, ptr in ((req, rptr), (res, sptr)) if isinstance(body, Mapping)]
        if any(rpc is not None for rpc, _ in rpcs):
            for rpc, ptr in rpcs:
                if rpc is not None:
                    yield from session.feed(rpc[0], None, ptr + rpc[1])
            continue
        status = _status(response)
        conv = _pair(req, res, file, None, base, rptr=rptr, sptr=sptr)
        if conv is not None:
            if status is not None:
                if status >= 400 and conv.refusal is None:
                    conv.refusal = f"HTTP {status}"
                conv.accepted = conv.refusal is None and 200 <= status < 300 and conv.request_turns is not None
            yield conv
    yield from session.finish()


def records_in(value: Any, file: str, line: int | None = None, base: str = "") -> Iterator[Conversation]:
    """The conversations of one parsed document that is not a JSON-RPC message (see the module
    docstring); nothing for a document that holds no traffic. Never raises on odd input."""
    if isinstance(value, list):
        found = _message_list(value, base) if value else None
        if found is not None:
            yield Conversation(file, line, base, found[0], found[1])
            return
        for i, entry in enumerate(value):
            if isinstance(entry, Mapping):
                yield from _records_in_object(entry, file, line, f"{base}/{i}", nested=True)
        return
    if isinstance(value, Mapping):
        yield from _records_in_object(value, file, line, base)


def _records_in_object(obj: Mapping[str, Any], file: str, line: int | None, base: str,
                       nested: bool = False) -> Iterator[Conversation]:
    interactions = obj.get("interactions")
    if isinstance(interactions, list) and not nested:
        for i, entry in enumerate(interactions):
            if isinstance(entry, Mapping):
                conv = _pair(entry.get("request"), entry.get("response"), file, line, f"{base}/interactions/{i}")
                if conv is not None:
                    yield conv
        return
    if "request" in obj or "response" in obj:
        conv = _pair(obj.get("request"), obj.get("response"), file, line, base)
        if conv is not None:
            yield conv
        return
    conv = _request(obj, file, line, base)
    if conv is not None:
        yield conv
        return
    answer = _response(obj, base)
    if answer is not None:
        yield Conversation(file, line, base, answer[0], answer[1])
        return
    for key, value in obj.items():  # a record that keeps its transcript under a key of its own (`traj`, `history`)
        if isinstance(value, list) and value and isinstance(key, str):
            found = _message_list(value, f"{base}/{escape_token(key)}")
            if found is not None and any(t.calls or t.results for t in found[1]):
                yield Conversation(file, line, base, found[0], found[1])


def _single_message(value: Any) -> tuple[str, Turn] | None:
    """``(format, turn)`` when a JSON Lines line is one message of a transcript written one message
    per line (``{"role", "content"|"tool_calls"}``, or ``{"type", "message": {...}}`` as agent
    session logs write them), else ``None``."""
    ptr = ""
    msg = value
    if isinstance(value, Mapping) and isinstance(value.get("message"), Mapping) and "role" not in value:
        msg, ptr = value["message"], "/message"
    if not isinstance(msg, Mapping) or not isinstance(msg.get("role"), str):
        return None
    if anthropic.looks_like([msg]):
        return "anthropic", anthropic.turn(msg, ptr)
    if gemini.looks_like([msg]):
        return "gemini", gemini.turn(msg, ptr)
    if openai_chat.is_message(msg):
        return "openai-chat", openai_chat.turn(msg, ptr)
    return None


class _Lines:
    """The state of one JSON Lines file: its MCP session, its one-message-per-line transcript."""

    FLUSH_TURNS = 2000

    def __init__(self, file: str) -> None:
        self.file = file
        self.session = Session(file)
        self.transcript: Conversation | None = None

    def feed(self, value: Any, line: int) -> Iterator[Conversation]:
        rpc = jsonrpc_message(value)
        if rpc is not None:
            yield from self.session.feed(rpc[0], line, rpc[1])
            return
        single = _single_message(value)
        if single is not None:
            fmt, turn = single
            turn.line = line
            for call in turn.calls:
                call.line = line
            for result in turn.results:
                result.line = line
            if self.transcript is None:
                self.transcript = Conversation(self.file, line, "", fmt)
            self.transcript.turns.append(turn)
            if len(self.transcript.turns) >= self.FLUSH_TURNS and not turn.calls and not turn.results \
                    and not turn.from_model:
                yield self.transcript  # a window that ends on a plain turn: no call is left waiting
                self.transcript = None
            return
        yield from records_in(value, self.file, line)

    def finish(self) -> Iterator[Conversation]:
        if self.transcript is not None:
            yield self.transcript
            self.transcript = None
        yield from self.session.finish()


def is_line_file(path: str) -> bool:
    """True for a file read as JSON Lines from the start (:data:`LINE_SUFFIXES`)."""
    return path.lower().endswith(LINE_SUFFIXES)


MAX_LINE_BYTES = 256 * 1024 * 1024
"""Longest JSON Lines line read (256 MiB, the size bound of a whole file read at once); a longer one
is a :class:`Problem` and is skipped without being held."""

_HAR_START = re.compile(rb'^\s*\{\s*"log"\s*:')


def read_file(path: str, progress: Callable[[int], None] | None = None) -> Iterator[Conversation | Problem]:
    """The conversations and problems of the file ``path`` (see the module docstring).
    ``progress`` is called with the number of bytes each step read. Every read goes through
    :mod:`schemalint.safe_read` (no FIFO, device or socket; a whole document at most
    :data:`~schemalint.safe_read.MAX_FILE_BYTES`, a line at most :data:`MAX_LINE_BYTES`; invalid
    UTF-8 is a located :class:`Problem`). A HAR archive (``{"log": ...`` first) is parsed entry by
    entry. Raises ``OSError`` when the file cannot be opened or is not a regular file."""
    from schemalint import safe_read

    if is_line_file(path):
        yield from read_lines(path, progress)
        return
    if path.lower().endswith((".yaml", ".yml")):
        yield from _read_yaml(path)
        if progress:
            progress(os.path.getsize(path))
        return
    with safe_read.open_regular(path, limit=None) as fh:
        head = fh.read(4096)
    if _HAR_START.match(head.removeprefix(b"\xef\xbb\xbf")):
        yield from _read_har(path, progress)
        return
    try:
        data = safe_read.read_bytes(path)
    except safe_read.UnreadableFile as exc:
        raise OSError(exc.errno, exc.reason) from None
    if progress:
        progress(len(data))
    try:
        text = safe_read.decode_utf8(path, data)
    except safe_read.UnreadableFile as exc:
        line, column = _utf8_place(data)
        yield Problem(path, line, column, exc.reason)
        return
    del data
    try:
        value = json.loads(text)
    except RecursionError:
        yield Problem(path, 1, 1, "the JSON is nested too deeply to read")
        return
    except ValueError as exc:
        if text.count("\n") > 1 and _first_line_is_json(text):
            yield from read_lines(path, None)
            return
        yield Problem(path, getattr(exc, "lineno", 1), getattr(exc, "colno", 1), f"not JSON: {exc}")
        return
    del text
    rpc = jsonrpc_message(value)
    if rpc is not None or (isinstance(value, list) and value and jsonrpc_message(value[0]) is not None):
        state = _Lines(path)
        for i, entry in enumerate(value if isinstance(value, list) else [value]):
            found = jsonrpc_message(entry)
            if found is not None:
                yield from state.session.feed(found[0], None, f"/{i}{found[1]}" if isinstance(value, list)
                                              else found[1])
        yield from state.finish()
        return
    if is_har(value):
        yield from har_records(value, path)
        return
    yield from records_in(value, path)


def _utf8_place(data: bytes) -> tuple[int, int]:
    """1-based line and column of the first byte of ``data`` that is not UTF-8."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        return before.count(b"\n") + 1, len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
    return 1, 1


def _read_har(path: str, progress: Callable[[int], None] | None) -> Iterator[Conversation | Problem]:
    """A HAR archive read entry by entry with ijson (one ``log.entries`` item held at a time), so its
    memory is that of its largest entry, not a multiple of the file. A file that stops being JSON
    (or UTF-8) part way is a :class:`Problem` after the conversations of the entries before it."""
    import ijson

    from schemalint import safe_read

    with safe_read.open_regular(path, limit=None) as fh:
        entries = ijson.items(fh, "log.entries.item", use_float=True)
        problem: list[Problem] = []

        def guarded() -> Iterator[Any]:
            try:
                yield from entries
            except (ijson.JSONError, UnicodeDecodeError, ValueError, RecursionError) as exc:
                problem.append(Problem(path, 1, 1, f"not JSON (read up to byte {fh.tell():,}): {exc}"))

        yield from har_entries(guarded(), path)
        if progress:
            progress(fh.tell())
    yield from problem


def _first_line_is_json(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    try:
        json.loads(first)
    except (ValueError, RecursionError):
        return False
    return True


def _read_yaml(path: str) -> Iterator[Conversation | Problem]:
    from schemalint.loaders.files.documents import read_document

    doc = read_document(path)
    for problem in doc.problems:
        yield Problem(path, problem.line or 1, problem.column or 1, problem.message)
    for line, value in doc.values:
        yield from records_in(value, path, line)


def read_lines(path: str, progress: Callable[[int], None] | None = None) -> Iterator[Conversation | Problem]:
    """The conversations of a JSON Lines file, read one line at a time (blank lines skipped; a
    line that is not JSON or not UTF-8 is a :class:`Problem`, at most :data:`MAX_PROBLEMS_PER_FILE`
    per file; a line above :data:`MAX_LINE_BYTES` is skipped without being held). The file is
    opened through :func:`schemalint.safe_read.open_regular` (no FIFO, device or socket)."""
    from schemalint import safe_read

    state = _Lines(path)
    problems = 0
    pending = 0
    lineno = 0
    with safe_read.open_regular(path, limit=None) as fh:
        while True:
            raw = fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            lineno += 1
            if progress is not None:
                pending += len(raw)
                if pending >= 1 << 20:
                    progress(pending)
                    pending = 0
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                while True:  # the rest of the line, dropped chunk by chunk
                    rest = fh.readline(1 << 20)
                    if not rest or rest.endswith(b"\n"):
                        break
                problems += 1
                if problems <= MAX_PROBLEMS_PER_FILE:
                    yield Problem(path, lineno, 1, f"line {lineno} is above the {MAX_LINE_BYTES:,}-byte size "
                                  "bound of a line: not read")
                continue
            if not raw.strip():
                continue
            if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                text = raw.rstrip(b"\r\n").decode("utf-8")
            except UnicodeDecodeError as exc:
                problems += 1
                if problems <= MAX_PROBLEMS_PER_FILE:
                    column = len(raw[: exc.start].decode("utf-8", "replace")) + 1
                    yield Problem(path, lineno, column, f"line {lineno}: {safe_read.utf8_problem(raw, exc)}; "
                                  "the line was not read")
                continue
            try:
                value = json.loads(text)
            except (ValueError, RecursionError) as exc:
                problems += 1
                if problems <= MAX_PROBLEMS_PER_FILE:
                    col = getattr(exc, "colno", 1)
                    yield Problem(path, lineno, col, f"line {lineno} is not JSON: {exc}")
                continue
            yield from state.feed(value, lineno)
    if progress is not None and pending:
        progress(pending)
    if problems > MAX_PROBLEMS_PER_FILE:
        yield Problem(path, lineno, 1, f"{problems - MAX_PROBLEMS_PER_FILE} more line(s) that are not JSON")
    yield from state.finish()
