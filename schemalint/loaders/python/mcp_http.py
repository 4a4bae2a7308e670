"""MCP servers over Streamable HTTP (``--mcp-url``): what a running server's ``tools/list`` returns.

The official ``mcp`` SDK's client does the work: ``mcp.client.streamable_http`` connects, the
``mcp`` >= 2 ``Client`` (or an ``mcp`` 1.x ``ClientSession``) performs the handshake, and
:func:`schemalint.loaders.python.mcp_server._all_pages` follows the ``tools/list`` cursor, as for
an MCP server over stdio or in memory. The server is a black box: its tools carry the advertised
side only (no runtime contract).

Only ``http://`` and ``https://`` URLs are read. Redirects are the SDK's: followed only while they
stay on the URL's origin (or upgrade http to https on the same host); nothing else is followed,
and nothing but the one URL is requested. Spec: MCP 2025-06-18, "Transports", Streamable HTTP.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from schemalint.errors import SourceError
from schemalint.loaders.python.extras import require
from schemalint.loaders.python.framework_common import run_async
from schemalint.loaders.python.mcp_server import _all_pages, _describe, _tool
from schemalint.model import Diagnostic, Severity, Tool

SCHEMES = ("http", "https")
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP field name (RFC 9110, 5.1)


def url_problem(url: str) -> str | None:
    """Why ``url`` cannot be an ``--mcp-url`` (one phrase), or ``None``: it must be an absolute
    ``http://`` or ``https://`` URL with a host, without spaces or control characters."""
    if not isinstance(url, str) or not url:
        return "the URL is empty"
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        return "a URL holds no spaces or control characters"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError for a port that is not a number in range)
    except ValueError as exc:
        return f"not a URL ({exc})"
    if not parts.scheme or (not parts.netloc and parts.path[:1].isdigit()):
        # "127.0.0.1:8765" parses as no scheme; "localhost:8765/mcp" as the scheme "localhost"
        return "only http:// and https:// URLs are read; the URL has no scheme" + _with_scheme(url)
    if parts.scheme.lower() not in SCHEMES:
        return f"only http:// and https:// URLs are read, not {parts.scheme}:"
    if not parts.hostname:
        return "the URL names no host"
    return None


_HOST_PORT_PATH = re.compile(r"^(?://)?(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?P<path>/\S*)?$")


def _with_scheme(url: str) -> str:
    """``"; use http://URL"`` for a ``host[:port][/path]`` written without a scheme, else ``""``."""
    m = _HOST_PORT_PATH.match(url)
    if m is None:
        return ""
    full = "http:" + url if url.startswith("//") else "http://" + url
    if m.group("path"):
        return f"; use {full} (or https://)"
    return f"; use {full}/... with the server's path (often /mcp), or https://"


def shown_url(url: str) -> str:
    """``url`` as schemalint shows it (tool origins, messages): without a ``user:password@`` part."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def parse_headers(values: Sequence[str]) -> dict[str, str]:
    """``--mcp-header`` values (``"Name: value"``) as a dict, in order (a repeated name: the last
    value). Raises ``ValueError`` naming the bad entry by its name only (a value may be a secret)."""
    out: dict[str, str] = {}
    for i, value in enumerate(values):
        name, colon, rest = value.partition(":")
        name = name.strip()
        if not colon or not _TOKEN.fullmatch(name):
            raise ValueError(f"--mcp-header #{i + 1}: give it as 'Name: value' (a header name is letters, "
                             "digits and !#$%&'*+.^_`|~-)")
        text = rest.strip()
        if any((ord(c) < 32 and c != "\t") or ord(c) == 127 for c in text):
            raise ValueError(f"--mcp-header {name}: the value holds a control character")
        out[name] = text
    return out


MAX_RESPONSE_BYTES = 64 * 1024 * 1024
"""Most bytes of HTTP response bodies read from one ``--mcp-url`` server in one listing (64 MiB,
every page and the handshake together): a server that streams an endless body is cut there."""


class ResponseTooLarge(Exception):
    """The server's response bodies passed :data:`MAX_RESPONSE_BYTES` (the read was cut)."""


def load_url(url: str, *, headers: Mapping[str, str] | None = None, timeout: float | None = None,
             problems: list[Diagnostic] | None = None) -> list[Tool]:
    """List the tools of the MCP server at ``url`` (Streamable HTTP) with the official client.

    ``headers``: sent with every request (``Authorization`` ...; never shown in a message).
    ``timeout``: seconds for the whole listing, connection included (default: the import time
    limit, 30 s, ``SCHEMALINT_IMPORT_TIME_LIMIT``; see :func:`schemalint.bridge.client.import_time_limit`).
    The response bodies are read through a byte budget (:data:`MAX_RESPONSE_BYTES`); paging stops
    after :data:`~schemalint.loaders.python.mcp_server.MAX_PAGES` pages, and then an ``SL000``
    warning saying so is appended to ``problems`` (when given).
    Each tool's origin is ``mcp-url:URL`` (userinfo removed) at ``/tools/<name>``; no runtime
    contract. Raises :class:`SourceError` (exit 2, one line naming the URL) for a URL that is not
    http(s), a server that cannot be reached, answers with an error (its HTTP status named: that
    of the request that failed, not of an optional request the client may make) or not at all
    within the time, or whose responses pass the byte budget;
    :class:`~schemalint.loaders.python.extras.MissingExtraError` when ``mcp`` is missing.
    """
    from schemalint.bridge.client import import_time_limit
    from schemalint.textsafe import visible

    shown = visible(shown_url(url))
    problem = url_problem(url)
    if problem is not None:
        raise SourceError(f"--mcp-url {shown!r}: {problem}")
    require("mcp", "--mcp-url (listing an MCP server's tools over Streamable HTTP)")
    limit = timeout if timeout is not None else import_time_limit()
    statuses: list[tuple[str, int, str]] = []  # (method, status, reason) of every response (the SDK's error omits them)
    budget = _Budget(MAX_RESPONSE_BYTES)
    stopped: list[int] = []
    with _quiet_client_logs():
        try:
            listed = run_async(lambda: _list_http(url, dict(headers or {}), limit, statuses, budget, stopped), limit)
        except TimeoutError:
            if budget.exceeded:
                raise SourceError(_too_large(shown)) from None
            raise SourceError(f"--mcp-url {shown!r}: no tools/list answer within {limit:g}s"
                              f"{visible(_status_note(statuses))}") from None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            if budget.exceeded:
                raise SourceError(_too_large(shown)) from None
            raise SourceError(f"--mcp-url {shown!r}: the server could not be reached or listed: "
                              f"{visible(_one_line(_describe(exc)))}{visible(_status_note(statuses))}") from None
    label = f"mcp-url:{shown_url(url)}"
    tools = [_tool(wire, label, None) for wire in listed]
    if stopped and problems is not None:
        problems.append(Diagnostic(
            code="SL000", name="unreadable-source", severity=Severity.WARNING, tool=None, file=label, pointer="",
            message=f"the server kept answering tools/list with a next cursor: schemalint stopped after "
                    f"{stopped[0]:,} pages ({len(tools):,} tools read); any later pages were not listed",
            hint="check the server's pagination (a cursor that never ends, or one that repeats)", line=1, column=1))
    return tools


def _too_large(shown: str) -> str:
    return (f"--mcp-url {shown!r}: the server's responses passed {MAX_RESPONSE_BYTES:,} bytes; the read was "
            "cut there (an endless or oversized body) and no tools were listed")


def _status_note(statuses: Sequence[tuple[str, int, str]]) -> str:
    """`` (HTTP 500 Internal Server Error)`` for the failed request: the last error status answered
    to a POST (the JSON-RPC requests), else the last error status at all; ``""`` when none.
    A ``405`` to the optional GET that opens a server-to-client stream is how a server says it
    offers none (MCP Streamable HTTP) and is never the reason."""
    errors = [(m, c, r) for m, c, r in statuses if c >= 400 and not (m == "GET" and c == 405)]
    posts = [e for e in errors if e[0] == "POST"]
    if not errors:
        return ""
    chosen = (posts or errors)[-1]
    return f" (HTTP {chosen[1]} {chosen[2]})" if chosen[2] else f" (HTTP {chosen[1]})"


class _Budget:
    """Bytes of response bodies still allowed; ``exceeded`` once a body passed the bound."""

    def __init__(self, total: int) -> None:
        self.left = total
        self.exceeded = False

    def take(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            self.exceeded = True
            raise ResponseTooLarge(f"the responses passed {MAX_RESPONSE_BYTES:,} bytes")


def _bounded_client(headers: dict[str, str], limit: float, budget: _Budget) -> Any:
    """The SDK's HTTP client (httpx2 for ``mcp`` >= 2, httpx for 1.x) with a transport that counts
    every response body byte against ``budget`` and stops the read past it."""
    from mcp.shared._httpx_utils import create_mcp_http_client

    probe = create_mcp_http_client(headers=headers or None, timeout=_http_timeout(limit))
    module = __import__(type(probe).__module__.split(".")[0])
    stream_base: Any = module.AsyncByteStream
    transport_base: Any = module.AsyncBaseTransport

    class BoundedStream(stream_base):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def __aiter__(self) -> Any:
            async for chunk in self.inner:
                budget.take(len(chunk))
                yield chunk

        async def aclose(self) -> None:
            await self.inner.aclose()

    class BoundedTransport(transport_base):
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        async def handle_async_request(self, request: Any) -> Any:
            response = await self.inner.handle_async_request(request)
            response.stream = BoundedStream(response.stream)
            return response

        async def aclose(self) -> None:
            await self.inner.aclose()

    kwargs: dict[str, Any] = {"timeout": _http_timeout(limit),
                              "transport": BoundedTransport(module.AsyncHTTPTransport())}
    if headers:
        kwargs["headers"] = headers
    return module.AsyncClient(**kwargs)


async def _list_http(url: str, headers: dict[str, str], limit: float, statuses: list[tuple[str, int, str]],
                     budget: _Budget, stopped: list[int]) -> list[dict[str, Any]]:
    import mcp
    from mcp.client import streamable_http

    async def note_status(response: Any) -> None:
        statuses.append((str(response.request.method), int(response.status_code),
                         str(response.reason_phrase or "")[:80]))

    http = _bounded_client(headers, limit, budget)
    http.event_hooks["response"].append(note_status)
    async with http:
        if hasattr(mcp, "Client"):  # mcp >= 2
            async with mcp.Client(streamable_http.streamable_http_client(url, http_client=http)) as client:
                return await _all_pages(client, stopped)
        from mcp import ClientSession  # mcp 1.x

        module: Any = streamable_http
        connect = getattr(module, "streamable_http_client", None)
        transport = (connect(url, http_client=http) if connect is not None  # mcp >= 1.24
                     else module.streamablehttp_client(url, headers=headers or None))
        async with transport as streams, ClientSession(streams[0], streams[1]) as opened:
            session: Any = opened
            await session.initialize()
            return await _all_pages(session, stopped)


def _http_timeout(limit: float) -> Any:
    """The HTTP client's timeouts: none longer than the listing's time limit."""
    try:
        import httpx2 as httpx  # what mcp >= 2 uses
    except ImportError:
        import httpx  # type: ignore[no-redef]
    return httpx.Timeout(limit)


def _one_line(text: str) -> str:
    """The first line of ``text`` (an error the SDK wrapped over several lines), at most 500 characters."""
    first = text.strip().splitlines()[0] if text.strip() else text
    return first if len(first) <= 500 else first[:500] + "..."


@contextlib.contextmanager
def _quiet_client_logs() -> Iterator[None]:
    """While listing, the mcp and HTTP client loggers print nothing (no tracebacks on stderr)."""
    names = ("mcp", "httpx", "httpx2", "httpcore")
    loggers = [logging.getLogger(n) for n in names]
    saved = [(lg.handlers[:], lg.propagate) for lg in loggers]
    for lg in loggers:
        lg.handlers[:] = [logging.NullHandler()]
        lg.propagate = False
    try:
        yield
    finally:
        for lg, (handlers, propagate) in zip(loggers, saved, strict=True):
            lg.handlers[:], lg.propagate = handlers, propagate
