"""MCP servers over a transport, in every command that takes sources: ``--mcp-stdio`` and
``--mcp-url`` (Streamable HTTP), and the ``mcp-stdio`` / ``mcp-url`` configuration keys.

The servers are real: the example server (official ``mcp`` SDK) run as a subprocess over stdio
and over Streamable HTTP on 127.0.0.1 with a free port (uvicorn, which comes with ``mcp``), a
server behind a bearer-token check, a paging low-level server, a socket that never answers, a
port nobody listens on, and a redirect to another origin.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("mcp")

import mcp

from schemalint.errors import SourceError
from schemalint.loaders.python.mcp_http import load_url, parse_headers, shown_url, url_problem
from schemalint.loaders.python.mcp_server import tools_from_object
from tests._fixtures_cli import run_cli_here
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "mcp_server" / "server.py"
STDIO = f'"{sys.executable}" "{EXAMPLE}"'
MCP2 = hasattr(mcp, "Client")
needs_mcp2 = pytest.mark.skipif(not MCP2, reason="the auth and paging test servers use the mcp >= 2 server API")
# one pytest-xdist worker runs the module: the example server (example_url) is started once
pytestmark = pytest.mark.xdist_group("mcp-example-http-server")


# -- servers ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _accepts(port: int, proc: subprocess.Popen[bytes], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
        time.sleep(0.1)
    return False


@contextlib.contextmanager
def serve(argv: Callable[[int], list[str]], logdir: Path, path: str = "/mcp") -> Iterator[str]:
    """Start ``python ARGV(port)`` on a free port of 127.0.0.1; yield its URL; stop it afterwards.
    A port taken between choosing and binding it (another process) is retried with another."""
    for _ in range(3):
        port = _free_port()
        log = logdir / f"server-{port}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen([sys.executable, *argv(port)], stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        if _accepts(port, proc, 90):
            break
        proc.kill()
        proc.wait()
    else:
        pytest.fail(f"the test server did not start:\n{log.read_text(errors='replace')}")
    try:
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def example_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The example server over Streamable HTTP (``server.py --http PORT``)."""
    with serve(lambda port: [str(EXAMPLE), "--http", str(port)], tmp_path_factory.mktemp("http")) as url:
        yield url


AUTH_SERVER = '''
import sys
import uvicorn
from mcp.server.mcpserver import MCPServer

port, token = int(sys.argv[1]), sys.argv[2]
server = MCPServer("guarded")


@server.tool()
def whoami(verbose: bool = False) -> str:
    """Say who the caller is."""
    return "you"


app = server.streamable_http_app()


async def guarded(scope, receive, send):
    if scope["type"] == "http" and dict(scope["headers"]).get(b"authorization") != f"Bearer {token}".encode():
        await send({"type": "http.response.start", "status": 401, "headers": [(b"content-type", b"text/plain")]})
        await send({"type": "http.response.body", "body": b"unauthorized"})
        return
    await app(scope, receive, send)


uvicorn.run(guarded, host="127.0.0.1", port=port, log_level="warning")
'''

PAGED_SERVER = '''
import sys
import uvicorn
import mcp_types as types
from mcp.server.lowlevel import Server


async def list_tools(ctx, params):
    page = int(params.cursor) if params is not None and params.cursor else 0
    tool = types.Tool(name=f"page_{page}", description=f"Tool on page {page}.",
                      input_schema={"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
    return types.ListToolsResult(tools=[tool], next_cursor=str(page + 1) if page < 2 else None)


server = Server("paged", on_list_tools=list_tools)
uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
'''


FASTMCP_SERVER = '''
import sys
from fastmcp import FastMCP

server = FastMCP("standalone", list_page_size=1)  # one tool per tools/list page


@server.tool
def greet(name: str, times: int = 1) -> str:
    """Greet `name`, `times` times."""
    return name * times


@server.tool
def shout(text: str) -> str:
    """Return `text` in capitals."""
    return text.upper()


server.run(transport="http", host="127.0.0.1", port=int(sys.argv[1]), show_banner=False)
'''


def _script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _json(proc: subprocess.CompletedProcess[str]) -> dict:
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def _error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The single ``schemalint: error:`` line of a failed run (and nothing else on stderr or stdout)."""
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("schemalint: error: "), proc.stderr
    assert proc.stdout == ""
    return lines[0]


def _findings(report: dict) -> list[tuple]:
    return sorted((d["code"], d["tool"], d["pointer"], d.get("instance_path"), d["message"])
                  for d in report["diagnostics"])


# -- the loader ------------------------------------------------------------------------------


def test_http_lists_what_memory_lists(example_url: str):
    sys.path.insert(0, str(ROOT))
    try:
        from examples.mcp_server import server
    finally:
        sys.path.remove(str(ROOT))
    memory = {t.name: t for t in tools_from_object(server.mcp, "m")}
    listed = {t.name: t for t in load_url(example_url, timeout=60)}
    assert set(listed) == set(memory) == {"present_answer", "add", "search_notes"}
    for name, tool in listed.items():
        assert json.dumps(tool.advertised) == json.dumps(memory[name].advertised)  # key order too
        assert tool.output_schema == memory[name].output_schema
        assert tool.description == memory[name].description
        assert tool.runtime is None  # a black box: the advertised side only
        assert tool.origin.file == f"mcp-url:{example_url}"
        assert tool.origin.pointer == f"/tools/{name}"
        assert tool.origin.format == "mcp-server"
    with_userinfo = load_url(example_url.replace("http://", "http://me:pa55word@"), timeout=60)
    assert {t.origin.file for t in with_userinfo} == {f"mcp-url:{example_url}"}


@needs_mcp2
def test_http_follows_tools_list_pages(tmp_path: Path):
    with serve(lambda port: [_script(tmp_path, "paged.py", PAGED_SERVER), str(port)], tmp_path) as url:
        names = [t.name for t in load_url(url, timeout=60)]
    assert names == ["page_0", "page_1", "page_2"]


def test_http_reads_a_fastmcp_server_page_by_page(tmp_path: Path):
    """The standalone ``fastmcp`` package's own HTTP server (another implementation), one tool a page."""
    pytest.importorskip("fastmcp")
    with serve(lambda port: [_script(tmp_path, "standalone.py", FASTMCP_SERVER), str(port)], tmp_path) as url:
        tools = {t.name: t for t in load_url(url, timeout=60)}
    assert sorted(tools) == ["greet", "shout"]
    assert tools["greet"].advertised["required"] == ["name"]
    assert tools["greet"].description == "Greet `name`, `times` times."


def test_url_problems_and_shown_url():
    for url in ("file:///etc/passwd", "ftp://127.0.0.1/mcp", "ws://127.0.0.1:8000/mcp", "javascript:alert(1)",
                "127.0.0.1:8000/mcp", "localhost:8000/mcp", "//127.0.0.1/mcp"):
        assert "only http:// and https://" in (url_problem(url) or ""), url
    assert url_problem("http:///mcp") == "the URL names no host"
    assert "control" in (url_problem("http://127.0.0.1/m\ncp") or "")
    assert "not a URL" in (url_problem("http://127.0.0.1:99999/mcp") or "")
    assert url_problem("HTTPS://example.com/mcp") is None
    assert url_problem("http://[::1]:8000/mcp") is None
    assert shown_url("https://me:s3cret@example.com/mcp?x=1") == "https://example.com/mcp?x=1"
    assert shown_url("https://example.com/mcp") == "https://example.com/mcp"


def test_parse_headers():
    assert parse_headers(["Authorization: Bearer a:b", "X-Team:  core "]) == {
        "Authorization": "Bearer a:b", "X-Team": "core"}
    with pytest.raises(ValueError, match="'Name: value'"):
        parse_headers(["Authorization Bearer s3cret"])
    with pytest.raises(ValueError, match="control character") as info:
        parse_headers(["X-Token: s3cret\r\nInjected: 1"])
    assert "s3cret" not in str(info.value)


# -- each command reads a server over HTTP and over stdio --------------------------------------


def test_check_over_http_finds_what_stdio_and_memory_find(example_url: str):
    strict = ("--target", "openai-strict", "--format", "json", "--fail-on", "never")
    over_http = _json(run_cli_here("check", "--mcp-url", example_url, *strict))
    over_stdio = _json(run_cli_here("check", "--mcp-stdio", STDIO, *strict))
    assert over_http["summary"]["tools"] == over_stdio["summary"]["tools"] == 3
    assert over_http["summary"]["files"] == 1
    assert over_http["summary"]["tools_by_format"] == {"mcp-server": 3}
    assert _findings(over_http) == _findings(over_stdio)
    assert {d["code"] for d in over_http["diagnostics"]} >= {"SL307"}  # no additionalProperties: false
    assert {d["file"] for d in over_http["diagnostics"]} == {f"mcp-url:{example_url}"}
    # next to a file source
    alone = _json(run_cli_here("check", "examples/openai/chat_tools.json", *strict))
    both = _json(run_cli_here("check", "examples/openai/chat_tools.json", "--mcp-url", example_url, *strict))
    assert both["summary"]["tools"] == alone["summary"]["tools"] + 3
    assert both["summary"]["files"] == 2
    assert _findings(both) == sorted(_findings(alone) + _findings(over_http))


def test_check_text_names_the_url(example_url: str):
    proc = run_cli_here("check", "--mcp-url", example_url, "--target", "openai-strict")
    assert proc.returncode == 1, proc.stderr
    assert f"mcp-url:{example_url}" in proc.stdout and "SL307" in proc.stdout


def test_show_over_http_and_stdio(example_url: str):
    for option, value in (("--mcp-url", example_url), ("--mcp-stdio", STDIO)):
        proc = run_cli_here("show", "present_answer", option, value, "--format", "json")
        view = _json(proc)
        assert proc.returncode == 0
        assert view["tool"] == "present_answer"
        assert list(view["advertised"]["properties"]) == ["artifact"]
        assert view["file"].startswith("mcp-url:" if option == "--mcp-url" else "mcp-stdio:")
    proc = run_cli_here("show", "present_answer", "--mcp-url", example_url)
    assert proc.returncode == 0
    assert "no runtime contract" in proc.stdout
    line = _error_line(run_cli_here("show", "no_such_tool", "--mcp-url", example_url))
    assert "no tool named 'no_such_tool'" in line and example_url in line


def test_probe_of_a_server_over_a_transport_says_there_is_nothing_to_probe(example_url: str):
    line = _error_line(run_cli_here("probe", "--mcp-url", example_url))
    assert "nothing to probe" in line and "advertised side only" in line and example_url in line
    line = _error_line(run_cli_here("probe", "--mcp-stdio", "python examples/mcp_server/server.py"))
    assert "schemalint probe examples.mcp_server.server:" in line
    # the module it names is the Python path, which does probe the server's validation
    proc = run_cli_here("probe", "examples.mcp_server.server:", "--max-examples", "0", "--format", "json")
    assert proc.returncode == 1, proc.stderr  # present_answer refuses the calls its schema admits
    rows = {r["tool"]: r for r in _json(proc)["tools"]}
    assert rows["present_answer"]["probed"] and rows["present_answer"]["omission"]["refusals"]
    # next to a Python source: the server's tools are rows that are not probed, and a note says why
    proc = run_cli_here("probe", "shop_tools:", "--python-path", "examples/pydantic", "--mcp-url", example_url,
                        "--max-examples", "0", "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    rows = {r["tool"]: r for r in _json(proc)["tools"]}
    assert {n for n, r in rows.items() if r["file"].startswith("mcp-url:")} == {"present_answer", "add",
                                                                                "search_notes"}
    assert not any(r["probed"] for r in rows.values() if r["file"].startswith("mcp-url:"))
    assert any(r["probed"] for r in rows.values())
    assert "3 tool(s) listed by mcp-url" in proc.stderr and "not probed" in proc.stderr


def test_snapshot_and_diff_over_http_and_stdio(example_url: str, tmp_path: Path):
    snaps = tmp_path / "approved"
    proc = run_cli_here("snapshot", "--mcp-url", example_url, "--dir", str(snaps))
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in snaps.glob("*.json")) == ["add.json", "present_answer.json", "search_notes.json"]
    proc = run_cli_here("snapshot", "--mcp-stdio", STDIO, "--dir", str(snaps), "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr  # stdio lists the same bytes
    for option, value in (("--mcp-url", example_url), ("--mcp-stdio", STDIO)):
        report = _json(run_cli_here("diff", str(snaps), option, value, "--format", "json"))
        assert report["summary"]["by_status"]["identical"] == 3, report["summary"]
        assert report["summary"]["new"].startswith("mcp-url '" if option == "--mcp-url" else "mcp-stdio '")
    # the approved description differs from what the server now says: SD401 rug-pull, when selected
    approved = json.loads((snaps / "add.json").read_text())
    approved["description"] = "Add two numbers."
    (snaps / "add.json").write_text(json.dumps(approved, indent=2) + "\n")
    proc = run_cli_here("diff", str(snaps), "--mcp-url", example_url, "--select", "SD401", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    assert [c["code"] for c in _json(proc)["changes"]] == ["SD401"]
    proc = run_cli_here("snapshot", "--mcp-url", example_url, "--dir", str(snaps), "--check")
    assert proc.returncode == 1
    assert f"run `schemalint snapshot --mcp-url {example_url} --dir {snaps}`" in proc.stdout
    # NEW is the server: OLD alone
    line = _error_line(run_cli_here("diff", str(snaps), str(snaps), "--mcp-url", example_url))
    assert "with --mcp-url give only OLD" in line
    line = _error_line(run_cli_here("diff", "--base", "HEAD", "--mcp-url", example_url))
    assert "with --mcp-url give only OLD" in line


def test_every_command_that_takes_sources_offers_both_options():
    for command in ("check", "show", "probe", "snapshot", "diff"):
        proc = run_cli_here(command, "--help")
        assert proc.returncode == 0, proc.stderr
        assert "--mcp-stdio" in proc.stdout and "--mcp-url" in proc.stdout and "--mcp-header" in proc.stdout, command


# -- failures: one located line, exit 2, never a traceback or a finding -------------------------


def test_unreachable_port_is_one_line():
    url = f"http://127.0.0.1:{_free_port()}/mcp"  # nobody listens there any more
    started = time.monotonic()
    for command in (["check"], ["show", "add"], ["snapshot", "--dir", "unused-never-written"]):
        line = _error_line(run_cli_here(*command, "--mcp-url", url))
        assert f"--mcp-url '{url}': the server could not be reached or listed: " in line, line
    assert not (ROOT / "unused-never-written").exists()
    assert time.monotonic() - started < 120


def test_server_that_never_answers_meets_the_time_limit():
    with socket.socket() as listener:  # accepts connections (the kernel's backlog), never answers
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
        env = {**os.environ, "SCHEMALINT_IMPORT_TIME_LIMIT": "1"}  # nothing to wait for: the smallest limit
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-m", "schemalint", "check", "--mcp-url", url, "--format", "json"],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
        elapsed = time.monotonic() - started
    assert _error_line(proc) == f"schemalint: error: --mcp-url '{url}': no tools/list answer within 1s"
    assert elapsed < 60


def test_non_http_schemes_are_never_read(tmp_path: Path):
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps({"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}))
    for url in (tools.as_uri(), "ftp://127.0.0.1/mcp", "ws://127.0.0.1:1/mcp", "data:,{}", str(tools)):
        line = _error_line(run_cli_here("check", "--mcp-url", url))
        assert "only http:// and https:// URLs are read" in line, line
    line = _error_line(run_cli_here("diff", str(tools), "--mcp-url", "file:///etc/passwd"))
    assert "only http:// and https://" in line


def test_a_redirect_to_another_origin_is_not_followed(example_url: str):
    class Redirect(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.send_response(307)
            self.send_header("Location", example_url)  # a real MCP server, on another port
            self.send_header("Content-Length", "0")
            self.end_headers()

        do_GET = do_POST

        def log_message(self, *args: object) -> None:
            pass

    redirect = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=redirect.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{redirect.server_address[1]}/mcp"
        line = _error_line(run_cli_here("check", "--mcp-url", url))
    finally:
        redirect.shutdown()
        redirect.server_close()
    assert f"--mcp-url '{url}'" in line and "not followed" in line


def test_a_server_that_is_not_mcp(tmp_path: Path):
    class Page(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = b"<html>hello</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST

        def log_message(self, *args: object) -> None:
            pass

    page = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=page.serve_forever, daemon=True).start()
    env = {**os.environ, "SCHEMALINT_IMPORT_TIME_LIMIT": "10"}
    try:
        url = f"http://127.0.0.1:{page.server_address[1]}/mcp"
        proc = subprocess.run([sys.executable, "-m", "schemalint", "check", "--mcp-url", url],
                              capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    finally:
        page.shutdown()
        page.server_close()
    assert f"--mcp-url '{url}'" in _error_line(proc)


@needs_mcp2
def test_headers_reach_the_server_and_are_never_printed(tmp_path: Path):
    token = "t0ken-9f2c"
    script = _script(tmp_path, "guarded.py", AUTH_SERVER)
    with serve(lambda port: [script, str(port), token], tmp_path) as url:
        line = _error_line(run_cli_here("check", "--mcp-url", url))
        assert line.endswith("(HTTP 401 Unauthorized)"), line
        proc = run_cli_here("check", "--mcp-url", url, "--mcp-header", "Authorization: Bearer wrong-s3cret")
        assert "wrong-s3cret" not in _error_line(proc)
        proc = run_cli_here("check", "--mcp-url", url, "--mcp-header", f"Authorization: Bearer {token}", "--format",
                            "json", "--fail-on", "never")
        assert proc.returncode == 0, proc.stderr
        assert _json(proc)["summary"]["tools"] == 1
        assert token not in proc.stdout + proc.stderr
        # the header goes to a configured URL too (headers are command-line only)
        project = tmp_path / "project"
        project.mkdir()
        (project / "schemalint.toml").write_text(f"mcp-url = [{json.dumps(url)}]\n")
        proc = run_cli_here("check", "--mcp-header", f"Authorization: Bearer {token}", "--format", "json", cwd=project)
        assert proc.returncode == 0, proc.stderr
        assert _json(proc)["summary"]["tools"] == 1
        # userinfo in the URL (sent as HTTP Basic authentication) is not shown either
        line = _error_line(run_cli_here("check", "--mcp-url", url.replace("http://", "http://me:pa55word@")))
        assert f"--mcp-url '{url}'" in line and "pa55word" not in line
    assert "'Name: value'" in _error_line(run_cli_here("check", "--mcp-url", url, "--mcp-header", "Authorization"))
    line = _error_line(run_cli_here("check", "examples/openai", "--mcp-header", "Authorization: Bearer x"))
    assert "no --mcp-url" in line


# -- the configuration keys ------------------------------------------------------------------


def _project(tmp_path: Path, keys: str) -> Path:
    """A project (a git work tree: docs/security.md, a configuration above the working directory
    runs its servers only inside the project) with the example server copied in and a
    schemalint.toml holding ``keys``."""
    (tmp_path / ".git").mkdir(exist_ok=True)  # the project root marker configuration discovery reads
    shutil.copy(EXAMPLE, tmp_path / "server.py")
    (tmp_path / "schemalint.toml").write_text(keys)
    (tmp_path / "sub").mkdir(exist_ok=True)
    return tmp_path


def _toml_str(text: str) -> str:
    return json.dumps(text)  # a JSON string is a TOML basic string


def test_config_keys_are_read_and_stdio_commands_run_in_the_root(example_url: str, tmp_path: Path):
    command = f'"{sys.executable}" server.py'  # relative to the configuration's root
    root = _project(tmp_path, f"mcp-stdio = [{_toml_str(command)}]\n")
    strict = ("--target", "openai-strict", "--format", "json", "--fail-on", "never")
    report = _json(run_cli_here("check", *strict, cwd=root / "sub"))
    assert report["summary"]["tools"] == 3
    assert {d["file"] for d in report["diagnostics"]} == {f"mcp-stdio:{command}"}
    # both keys: a tool listed twice (same example server) is fine for check
    (root / "schemalint.toml").write_text(f"mcp-stdio = [{_toml_str(command)}]\nmcp-url = [{_toml_str(example_url)}]\n")
    report = _json(run_cli_here("check", *strict, cwd=root / "sub"))
    assert report["summary"]["tools"] == 6 and report["summary"]["files"] == 2
    # a command-line value replaces the configured sources and servers
    (root / "schemalint.toml").write_text(f"mcp-stdio = [{_toml_str(command)}]\n")
    report = _json(run_cli_here("check", "--mcp-url", example_url, *strict, cwd=root))
    assert {d["file"] for d in report["diagnostics"]} == {f"mcp-url:{example_url}"}
    (root / "tools.json").write_text(json.dumps([{"name": "t", "description": "Return t.",
                                                  "inputSchema": {"type": "object"}}]))
    report = _json(run_cli_here("check", "tools.json", "--format", "json", "--fail-on", "never", cwd=root))
    assert report["summary"]["tools"] == 1
    # show, snapshot and diff (OLD alone: NEW is the configured servers) read them too
    assert run_cli_here("show", "add", cwd=root / "sub").returncode == 0
    proc = run_cli_here("snapshot", "--dir", "approved", cwd=root)
    assert proc.returncode == 0, proc.stderr
    assert len(list((root / "approved").glob("*.json"))) == 3
    report = _json(run_cli_here("diff", "approved", "--format", "json", cwd=root))
    assert report["summary"]["by_status"]["identical"] == 3
    assert report["summary"]["new"] == f"mcp-stdio {command!r}"


@pytest.mark.parametrize(("keys", "expected"), [
    ('mcp-url = ["ftp://example.com/mcp"]', "`mcp-url`: 'ftp://example.com/mcp': only http:// and https://"),
    ('mcp-url = ["https://me:s3cret@/mcp"]', "`mcp-url`: 'https:///mcp': the URL names no host"),
    ("mcp-url = [1]", "`mcp-url`: must be a string or a list of strings"),
    ('mcp-stdio = ["  "]', "`mcp-stdio`: a command is empty"),
    ("mcp-stdio = ['python \"server.py']", "`mcp-stdio`: cannot split the command"),
    ("mcp-stdio = {cmd = 'x'}", "`mcp-stdio`: must be a string or a list of strings"),
    ('mcp_url = ["http://127.0.0.1/mcp"]', "unknown key (did you mean `mcp-url`?)"),
])
def test_config_keys_are_validated(tmp_path: Path, keys: str, expected: str):
    root = _project(tmp_path, keys + "\n")
    line = _error_line(run_cli_here("check", cwd=root))
    assert expected in line, line
    assert "s3cret" not in line


def test_config_keys_in_pyproject(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nmcp-url = "gopher://example.com"\n')
    line = _error_line(run_cli_here("check", cwd=tmp_path))
    assert "`tool.schemalint.mcp-url`: 'gopher://example.com': only http:// and https://" in line


def test_missing_server_never_a_finding_in_config(tmp_path: Path):
    root = _project(tmp_path, 'mcp-stdio = ["no-such-command-schemalint-test"]\n')
    proc = run_cli_here("check", cwd=root)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "no-such-command-schemalint-test" in proc.stderr and proc.stdout == ""


def test_sources_error_when_nothing_is_configured(tmp_path: Path):
    (tmp_path / "schemalint.toml").write_text("mcp-stdio = []\nmcp-url = []\n")
    assert "no sources given" in _error_line(run_cli_here("check", cwd=tmp_path))


def test_load_url_raises_source_error_for_a_bad_scheme():
    with pytest.raises(SourceError, match="only http:// and https://"):
        load_url("file:///etc/passwd")
