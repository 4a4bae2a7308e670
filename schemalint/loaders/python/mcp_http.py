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
from schemalint.model import Tool

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


def load_url(url: str, *, headers: Mapping[str, str] | None = None, timeout: float | None = None) -> list[Tool]:
    """List the tools of the MCP server at ``url`` (Streamable HTTP) with the official client.

    ``headers``: sent with every request (``Authorization`` ...; never shown in a message).
    ``timeout``: seconds for the whole listing, connection included (default: the import time
    limit, 30 s, ``SCHEMALINT_IMPORT_TIME_LIMIT``; see :func:`schemalint.bridge.client.import_time_limit`).
    Each tool's origin is ``mcp-url:URL`` (userinfo removed) at ``/tools/<name>``; no runtime
    contract. Raises :class:`SourceError` (exit 2, one line naming the URL) for a URL that is not
    http(s), a server that cannot be reached, answers with an error or not at all within the
    time; :class:`~schemalint.loaders.python.extras.MissingExtraError` when ``mcp`` is missing.
    """
    from schemalint.bridge.client import import_time_limit
    from schemalint.textsafe import visible

    shown = visible(shown_url(url))
    problem = url_problem(url)
    if problem is not None:
        raise SourceError(f"--mcp-url {shown!r}: {problem}")
    require("mcp", "--mcp-url (listing an MCP server's tools over Streamable HTTP)")
    limit = timeout if timeout is not None else import_time_limit()
    refused: list[str] = []  # the HTTP error statuses the server answered with (the SDK's error omits them)
    with _quiet_client_logs():
        try:
            listed = run_async(lambda: _list_http(url, dict(headers or {}), limit, refused), limit)
        except TimeoutError:
            raise SourceError(f"--mcp-url {shown!r}: no tools/list answer within {limit:g}s") from None
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            status = f" (HTTP {refused[0]})" if refused else ""
            raise SourceError(f"--mcp-url {shown!r}: the server could not be reached or listed: "
                              f"{visible(_one_line(_describe(exc)))}{visible(status)}") from None
    label = f"mcp-url:{shown_url(url)}"
    return [_tool(wire, label, None) for wire in listed]


async def _list_http(url: str, headers: dict[str, str], limit: float, refused: list[str]) -> list[dict[str, Any]]:
    import mcp
    from mcp.client import streamable_http
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def note_status(response: Any) -> None:
        if response.status_code >= 400 and not refused:
            refused.append(f"{response.status_code} {response.reason_phrase}".strip()[:100])

    http = create_mcp_http_client(headers=headers or None, timeout=_http_timeout(limit))
    http.event_hooks["response"].append(note_status)
    async with http:
        if hasattr(mcp, "Client"):  # mcp >= 2
            async with mcp.Client(streamable_http.streamable_http_client(url, http_client=http)) as client:
                return await _all_pages(client)
        from mcp import ClientSession  # mcp 1.x

        module: Any = streamable_http
        connect = getattr(module, "streamable_http_client", None)
        transport = (connect(url, http_client=http) if connect is not None  # mcp >= 1.24
                     else module.streamablehttp_client(url, headers=headers or None))
        async with transport as streams, ClientSession(streams[0], streams[1]) as opened:
            session: Any = opened
            await session.initialize()
            return await _all_pages(session)


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
