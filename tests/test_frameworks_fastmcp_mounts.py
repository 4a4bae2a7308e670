"""Issue 28: fastmcp servers that mount or import other servers, proxies, and servers that filter
what they list by configuration. Real fastmcp servers in a module of a tmp folder, read through the
CLI (worker process, every report format). The installed fastmcp is whatever the test extra
resolves (fastmcp 3 and later list tools with ``list_tools()``; fastmcp 2 with ``get_tools()``,
both handled by :func:`schemalint.loaders.python.mcp_server._fastmcp_tools`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytest.importorskip("fastmcp")
pytest.importorskip("mcp")

from tests._fixtures_cli import run_cli_here
from tests.conftest import cli

SERVERS = '''\
import inspect

from fastmcp import FastMCP
from pydantic import BaseModel, model_validator


class Query(BaseModel):
    text: str
    limit: int | None = None

    @model_validator(mode="after")
    def limit_needed(self):
        if self.limit is None:
            raise ValueError("limit is required")
        return self


search = FastMCP("search")


@search.tool
def find(query: Query) -> str:
    """Find documents matching the query."""
    return query.text


inner = FastMCP("inner")


@inner.tool
def deep(n: int) -> int:
    """Return n."""
    return n


search.mount(inner, **{"namespace" if "namespace" in inspect.signature(FastMCP.mount).parameters else "prefix": "in"})

app = FastMCP("app")


@app.tool
def ping(host: str) -> str:
    """Ping a host."""
    return host


NS = "namespace" if "namespace" in inspect.signature(FastMCP.mount).parameters else "prefix"
app.mount(search, **{NS: "search"})
if hasattr(FastMCP, "as_proxy"):
    proxy = FastMCP.as_proxy(inner)
else:
    from fastmcp.server import create_proxy
    proxy = create_proxy(inner)
app.mount(proxy, **{NS: "remote"})
'''


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "servers.py").write_text(SERVERS)
    return tmp_path


def test_a_mounted_tool_is_followed_to_its_own_validator(project: Path) -> None:
    proc = run_cli_here("check", "servers:app", "--format", "json", "--python-path", str(project), cwd=project)
    report = json.loads(proc.stdout)
    by = {(d["code"], d["tool"]): d for d in report["diagnostics"]}
    # the model_validator of the mounted tool refuses a call the advertised schema admits: found
    # only because the mount was followed to `find` itself
    assert ("SL107", "search_find") in by, report["diagnostics"]
    assert "limit is required" in by[("SL107", "search_find")]["message"]
    # a mount two levels deep is followed too: no SL000 for it
    assert ("SL000", "search_in_deep") not in by


def test_a_proxied_tool_is_marked_unchecked_in_every_format(project: Path) -> None:
    proc = run_cli_here("check", "servers:app", "--format", "json", "--python-path", str(project), cwd=project)
    report = json.loads(proc.stdout)
    unchecked = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert [d["tool"] for d in unchecked] == ["remote_deep"], unchecked
    d = unchecked[0]
    assert d["kind"] == "unchecked" and d["severity"] == "warning"
    assert d["message"].startswith("runtime side not reached for tool 'remote_deep': it is a ")
    assert "forwarded to another server" in d["message"]
    assert report["summary"]["by_code"]["SL000"] == 1
    sarif = json.loads(run_cli_here("check", "servers:app", "--format", "sarif", "--python-path", str(project),
                                    cwd=project).stdout)
    results = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SL000"]
    assert len(results) == 1 and results[0]["properties"]["kind"] == "unchecked"
    text = run_cli_here("check", "servers:app", "--python-path", str(project), cwd=project)
    assert "runtime side not reached for tool 'remote_deep'" in text.stdout
    assert "SL000 1" in text.stdout  # the summary counts it


FILTERED = '''\
import os

from fastmcp import FastMCP
from fastmcp.server.middleware import Middleware


class ConfiguredTools(Middleware):
    """Lists the tools only when their service is configured (as servers reading JIRA_URL and the like do)."""

    async def on_list_tools(self, context, call_next):
        listed = await call_next(context)
        return listed if os.environ.get("TRACKER_URL") else []


mcp = FastMCP("tracker", middleware=[ConfiguredTools()])


@mcp.tool
def get_issue(key: str) -> str:
    """Get an issue."""
    return key


@mcp.tool
def create_issue(summary: str) -> str:
    """Create an issue."""
    return summary
'''


def test_a_server_that_filters_its_listing_by_configuration_says_so(tmp_path: Path) -> None:
    pytest.importorskip("fastmcp.server.middleware", reason="fastmcp without middleware")
    (tmp_path / "tracker.py").write_text(FILTERED)
    proc = run_cli_here("check", "tracker:mcp", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    message = proc.stderr
    assert "the MCP server exists and holds 2 tool(s) (create_issue, get_issue)" in message
    assert "answered 0 tools at import" in message and "most likely by configuration" in message
    assert "registered later" not in message
    # the module reads TRACKER_URL in the Python worker, which inherits the environment cli sets
    ok = cli("check", "tracker:mcp", "--python-path", str(tmp_path), cwd=tmp_path,
             env={**os.environ, "TRACKER_URL": "https://tracker.example"})
    assert ok.returncode == 0, ok.stderr
    assert "2 tool(s)" in ok.stdout


NEEDS_COMMAND = '''\
import contextlib
import subprocess

from fastmcp import FastMCP


@contextlib.asynccontextmanager
async def lifespan(server):
    subprocess.run(["schemalint-test-no-such-command", "--version"], check=True)
    yield {}


broken = FastMCP("needs-a-command", lifespan=lifespan)


@broken.tool
def status() -> str:
    """Say the status."""
    return "ok"


def helper(x: int) -> int:
    return x
'''


def test_an_environment_failure_is_told_apart_from_a_definition_fault(tmp_path: Path) -> None:
    (tmp_path / "needs_command.py").write_text(NEEDS_COMMAND)
    proc = run_cli_here("check", "needs_command:", "--python-path", str(tmp_path), "--format", "json", cwd=tmp_path)
    report = json.loads(proc.stdout)
    (problem,) = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert problem["kind"] == "environment", problem
    assert problem["message"].startswith("the environment lacks a command or file (FileNotFoundError): ")
    assert "schemalint-test-no-such-command" in problem["message"]
    assert "environment schemalint imports it in lacks" in problem["hint"]
    assert "fix the definition" not in problem["hint"]
    sarif = json.loads(run_cli_here("check", "needs_command:", "--python-path", str(tmp_path), "--format", "sarif",
                                    cwd=tmp_path).stdout)
    (result,) = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "SL000"]
    assert result["properties"]["kind"] == "environment"


def test_an_api_error_at_import_names_the_installed_versions(tmp_path: Path) -> None:
    (tmp_path / "older_api.py").write_text(
        "from fastmcp import FastMCP\n\napp = FastMCP('app')\napp.mount(FastMCP('child'), no_such_keyword='x')\n")
    proc = run_cli_here("check", "older_api:app", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert "cannot import: TypeError raised while importing:" in proc.stderr
    assert "(installed here: fastmcp" in proc.stderr and "another major version of a package it uses" in proc.stderr


def test_the_context_argument_is_left_out_as_fastmcp_2_supplies_it() -> None:
    """fastmcp before 2.12 (2.7.0, pinned by qdrant/mcp-server-qdrant) has no
    ``without_injected_parameters``: it validates with the whole function's adapter and supplies the
    ``Context`` argument itself. That adapter, less the argument fastmcp's own ``find_kwarg_by_type``
    names, refuses what the call lacks and nothing for the context."""
    from fastmcp import Context
    from fastmcp.utilities.types import get_cached_typeadapter
    from pydantic_core import SchemaValidator, ValidationError

    from schemalint.loaders.python.mcp_server import _arguments_only, _context_argument, _without_argument

    # Compiled without this file's `from __future__ import annotations`, as a server module is written.
    space: dict[str, object] = {"Context": Context}
    exec(compile("async def find(ctx: Context, query: str, limit: int = 10) -> str:\n    return query\n",
                 "server.py", "exec", dont_inherit=True), space)
    find = space["find"]
    assert _context_argument(find) == "ctx"
    core = _without_argument(_arguments_only(get_cached_typeadapter(find).core_schema), "ctx")
    validator = SchemaValidator(core)
    validator.validate_python({"query": "q"})
    with pytest.raises(ValidationError) as refused:
        validator.validate_python({})
    assert [e["loc"] for e in refused.value.errors()] == [("query",)]
    assert _without_argument(core, None) is core


REGISTERED_LATER = '''\
from fastmcp import FastMCP

server = FastMCP("docs")


def helper():
    return FastMCP("elsewhere")


def register_tools():
    @server.tool()
    def open_document(path: str) -> str:
        """Open a document."""
        return path


def run_server():
    register_tools()
    server.run()


if __name__ == "__main__":
    run_server()
'''


def test_tools_registered_in_a_function_the_import_does_not_call_are_loaded(tmp_path: Path) -> None:
    """GongRzhe/Office-Word-MCP-Server registers its 54 tools in `register_tools()`, called from
    `run_server()`: `register_tools()` only registers, so schemalint calls it (never `run_server()`,
    which starts the server); before session h28f the message named it and the module to write,
    which still works. A registering function that does more is named, not called
    (tests/test_frameworks_server_shapes.py)."""
    (tmp_path / "docs_server.py").write_text(REGISTERED_LATER)
    proc = run_cli_here("check", "docs_server:server", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0 and "1 tool(s)" in proc.stdout, proc.stdout + proc.stderr
    (tmp_path / "schemalint_tools.py").write_text("from docs_server import server, register_tools\nregister_tools()\n")
    proc = run_cli_here("check", "schemalint_tools:server", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0 and "1 tool(s)" in proc.stdout, proc.stdout + proc.stderr
