"""``--mcp-url`` is bounded: an endless response body is cut at ``MAX_RESPONSE_BYTES`` quickly, the
HTTP status named in an error is that of the request that failed, and paging that stops at the page
limit says so.

The servers are real HTTP servers on 127.0.0.1 (the standard library's ``http.server`` in a
subprocess, speaking just enough MCP Streamable HTTP: JSON answers to POSTed JSON-RPC), so each
misbehaviour is exactly the one under test; the official ``mcp`` client is on the other side.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytest.importorskip("mcp", reason="--mcp-url needs the mcp extra")

SERVER = r'''
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = sys.argv[2]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _json(self, status, payload, extra=()):
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("mcp-session-id", "s1")
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):  # no server-to-client stream offered (MCP Streamable HTTP allows 405)
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_DELETE(self):
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        message = json.loads(self.rfile.read(length) or b"{}")
        method, ident = message.get("method"), message.get("id")
        if ident is None:  # a notification
            self.send_response(202)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if method == "initialize":
            if MODE == "endless":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close")
                self.end_headers()
                chunk = b" " * 65536
                try:
                    while True:
                        self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    return
            self._json(200, {"jsonrpc": "2.0", "id": ident, "result": {
                "protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                "serverInfo": {"name": "bounds", "version": "1"}}})
            return
        if method == "tools/list":
            if MODE == "fail_list":
                self.send_response(503, "Service Unavailable")
                self.send_header("Content-Length", "4")
                self.end_headers()
                self.wfile.write(b"busy")
                return
            cursor = int((message.get("params") or {}).get("cursor") or 0)
            tool = {"name": f"t{cursor}", "description": "d", "inputSchema": {"type": "object"}}
            self._json(200, {"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool], "nextCursor": str(cursor + 1)}})
            return
        self._json(200, {"jsonrpc": "2.0", "id": ident, "result": {}})


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
'''


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _server(tmp_path: Path, mode: str) -> Iterator[str]:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    port = _free_port()
    proc = subprocess.Popen([sys.executable, str(script), str(port), mode], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        # until the server accepts (a Python start: seconds on a loaded machine); a server that
        # never does fails here, not as a refused connection in the run under test
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            assert proc.poll() is None, f"the test server exited with {proc.returncode}"
            assert time.monotonic() < deadline, "the test server did not accept connections within 120 s"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.kill()
        proc.wait()


def test_an_endless_response_body_is_cut_at_the_documented_bound_quickly(tmp_path: Path) -> None:
    from schemalint.loaders.python.mcp_http import MAX_RESPONSE_BYTES

    with _server(tmp_path, "endless") as url:
        started = time.monotonic()
        proc = run_cli("check", "--mcp-url", url, timeout=120)
        elapsed = time.monotonic() - started
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"passed {MAX_RESPONSE_BYTES:,} bytes" in proc.stderr and "cut" in proc.stderr, proc.stderr
    assert elapsed < 60, elapsed  # cut at the bound, not at the 30 s listing time limit or never


def test_the_status_named_is_that_of_the_request_that_failed(tmp_path: Path) -> None:
    """The client's optional GET (405: no server stream) came before the failing tools/list POST;
    the error named the 405."""
    with _server(tmp_path, "fail_list") as url:
        proc = run_cli("check", "--mcp-url", url, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "HTTP 503 Service Unavailable" in proc.stderr, proc.stderr
    # the URL's random port may hold the digits 405 (127.0.0.1:40539 failed this once): look for the status
    port = url.rsplit(":", 1)[1].split("/")[0]
    assert "405" not in proc.stderr.replace(port, "<port>"), proc.stderr
    assert "Method Not Allowed" not in proc.stderr


def test_paging_that_stops_at_the_page_limit_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import schemalint.loaders.python.mcp_server as mcp_server
    from schemalint.loaders.python.mcp_http import load_url

    monkeypatch.setattr(mcp_server, "MAX_PAGES", 5)
    problems: list = []
    with _server(tmp_path, "endless_pages") as url:
        tools = load_url(url, problems=problems, timeout=60)
    assert [t.name for t in tools] == ["t0", "t1", "t2", "t3", "t4"]
    assert len(problems) == 1 and problems[0].code == "SL000" and problems[0].severity.value == "warning"
    assert "stopped after 5 pages (5 tools read)" in problems[0].message
