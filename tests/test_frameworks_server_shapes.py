"""Issue 28, Python projects of session h28f: MCP servers that are not a module-level object holding
its tools. Real fastmcp and official ``mcp`` servers written into a tmp folder, read through the CLI:

* tools registered in a function the import does not call, called when its body only registers;
* servers built by a factory function (``create_server() -> FastMCP``), as dbt-labs/dbt-mcp does;
* a dispatcher (an ``MCPServer`` subclass whose ``list_tools`` shows the tools of servers it holds),
  whose runtime side was silently missing (dbt-labs/dbt-mcp's ``DbtMCP``: 0 of 38 tools probed);
* a low-level ``Server`` under ``mcp`` 1.x (MarkusPfundstein/mcp-obsidian), skipped with ``mcp`` 2.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path

import pytest

pytest.importorskip("fastmcp")
pytest.importorskip("mcp")

from tests._fixtures_cli import run_cli_here

SAFE_REGISTERING = '''\
from fastmcp import FastMCP
from fastmcp.tools import Tool
from pydantic import BaseModel, model_validator

server = FastMCP("notes")


class Page(BaseModel):
    title: str
    size: int | None = None

    @model_validator(mode="after")
    def size_needed(self):
        if self.size is None:
            raise ValueError("size is required")
        return self


def note_tools():
    """Tools about notes."""
    @server.tool()
    def add_note(page: Page) -> str:
        """Add a note."""
        return page.title


def register_all():
    note_tools()
    server.add_tool(Tool.from_function(echo))


def echo(text: str) -> str:
    """Echo the text."""
    return text


def main():
    register_all()
    server.run()


if __name__ == "__main__":
    main()
'''


def test_a_function_that_only_registers_tools_is_called(tmp_path: Path) -> None:
    """`register_all()` only registers (a decorated def in a called function, `add_tool`): schemalint
    calls it, lists both tools and reaches the runtime side (the model validator drift is found);
    `main()`, which runs the server, is never called."""
    (tmp_path / "notes_server.py").write_text(SAFE_REGISTERING)
    proc = run_cli_here("check", "notes_server:server", "--python-path", str(tmp_path), "--format", "json",
                        cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 2, proc.stdout + proc.stderr
    codes = {(d["tool"], d["code"]) for d in report["diagnostics"]}
    assert ("add_note", "SL107") in codes, codes


UNSAFE_REGISTERING = '''\
import os

from fastmcp import FastMCP

server = FastMCP("notes")


def register_tools():
    if os.environ.get("NOTES_WRITE"):
        @server.tool()
        def add_note(title: str) -> str:
            """Add a note."""
            return title


if __name__ == "__main__":
    register_tools()
    server.run()
'''


def test_a_registering_function_that_reads_settings_is_named_not_called(tmp_path: Path) -> None:
    """A body with an `if` on the environment is not only registering: the function is named with
    the module to write, and not called."""
    (tmp_path / "notes_cfg.py").write_text(UNSAFE_REGISTERING)
    proc = run_cli_here("check", "notes_cfg:server", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert "registered inside register_tools() (" in proc.stderr, proc.stderr
    assert "from notes_cfg import server, register_tools; register_tools()" in proc.stderr


FACTORY = '''\
from typing import Any

from fastmcp import FastMCP


def create_server() -> FastMCP:
    server = FastMCP("made")

    @server.tool
    def ping(host: str) -> str:
        """Ping a host."""
        return host

    return server


async def create_configured(settings: dict[str, Any], *, debug: bool = False) -> "FastMCP":
    return create_server()
'''


def test_a_server_factory_without_arguments_is_called(tmp_path: Path) -> None:
    """`module:create_server` names a function returning a server: it is called, as `fastmcp run`
    does, and the server checked (before: read as a function tool, SL000 'fix the definition')."""
    (tmp_path / "made_server.py").write_text(FACTORY)
    proc = run_cli_here("check", "made_server:create_server", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 tool(s)" in proc.stdout and "SL000" not in proc.stdout


def test_a_server_factory_with_arguments_names_them_and_the_module_to_write(tmp_path: Path) -> None:
    (tmp_path / "made_cfg.py").write_text(FACTORY)
    proc = run_cli_here("check", "made_cfg:create_configured", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert "create_configured() (" in proc.stderr and "made_cfg.py:17) builds an MCP server" in proc.stderr
    assert "needs argument(s) settings" in proc.stderr, proc.stderr
    assert "mcp = asyncio.run(create_configured(settings=...))" in proc.stderr
    assert "fix the definition" not in proc.stderr + proc.stdout


def test_a_module_holding_only_factories_names_them(tmp_path: Path) -> None:
    """A module whose only server is built by a factory: the error names the factory and the module
    to write (before: 'not a tool source schemalint knows')."""
    (tmp_path / "made_only.py").write_text(
        "from fastmcp import FastMCP\n\n\nasync def build(token: str) -> FastMCP:\n    return FastMCP('x')\n")
    proc = run_cli_here("check", "made_only:", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert "builds an MCP server in build() (" in proc.stderr, proc.stderr
    assert "mcp = asyncio.run(build(token=...))" in proc.stderr
    assert "not a tool source" not in proc.stderr


DISPATCHER = '''\
from typing import Annotated

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema


class Style(BaseModel):
    kind: str


single = MCPServer("single")
multi = MCPServer("multi")


@single.tool()
def render(text: str, style: SkipJsonSchema[Style]) -> str:
    """Render the text."""
    return text


@multi.tool()
def render_many(texts: list[str]) -> str:
    """Render texts."""
    return ",".join(texts)


class Dispatcher(MCPServer):
    def __init__(self, mode: str, servers: dict) -> None:
        super().__init__("dispatcher")
        self.mode = mode
        self.servers = servers

    async def list_tools(self):
        tools = await self.servers[self.mode].list_tools()
        if self.mode == "single":
            from mcp.types import Tool
            tools.append(Tool(name="remote", description="Forwarded elsewhere.",
                              input_schema={"type": "object", "properties": {}}))
        return tools


app = Dispatcher("single", {"single": single, "multi": multi})
'''


def test_a_dispatcher_is_followed_to_the_servers_it_holds(tmp_path: Path) -> None:
    """The tools a dispatcher lists from a server it holds get that server's runtime side (the
    SkipJsonSchema drift is found); a listed tool no held server has is an SL000 `unchecked`
    warning, never a silent pass."""
    pytest.importorskip("mcp.server.mcpserver", reason="mcp 2's MCPServer")
    (tmp_path / "dispatch_app.py").write_text(DISPATCHER)
    proc = run_cli_here("check", "dispatch_app:app", "--python-path", str(tmp_path), "--format", "json",
                        cwd=tmp_path)
    report = json.loads(proc.stdout)
    found = {(d["tool"], d["code"], d.get("kind")) for d in report["diagnostics"]}
    assert ("render", "SL101", None) in {(t, c, None) for t, c, _k in found}, found
    assert ("remote", "SL000", "unchecked") in found, found
    unchecked = next(d for d in report["diagnostics"] if d["tool"] == "remote")
    assert "does not hold it" in unchecked["message"] and "2 MCP server(s)" in unchecked["message"]


LOWLEVEL = '''\
from mcp.server.lowlevel import Server
from mcp.types import Tool

app = Server("low")


@app.list_tools()
async def list_tools() -> list[Tool]:
    return [Tool(name="get_file", description="Read a file.",
                 inputSchema={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]})]
'''


@pytest.mark.skipif(int(version("mcp").split(".")[0]) >= 2, reason="mcp 1.x low-level Server (mcp 2 installed)")
def test_a_low_level_server_is_listed_with_mcp_1(tmp_path: Path) -> None:
    """mcp 1.x has no `mcp.Client`: the low-level Server is listed with the in-memory session (before:
    SL000 'the environment lacks a Python package', an ImportError of schemalint's own lister)."""
    (tmp_path / "low_server.py").write_text(LOWLEVEL)
    proc = run_cli_here("check", "low_server:app", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 tool(s)" in proc.stdout


def test_an_import_of_a_name_an_installed_package_lacks_names_that_package_and_the_pin(tmp_path: Path) -> None:
    """dbt-labs/dbt-mcp imports `eval_type_backport` from a pydantic internal that pydantic 2.14 no
    longer has: the message named two other packages the module imports (dbtlabs-vortex, mcp); it
    now names the package that lacks the name, the line importing it and the version uv.lock pins."""
    (tmp_path / "pinned_mod.py").write_text("import json\n\nfrom pydantic import no_such_name_h28f\n")
    (tmp_path / "uv.lock").write_text('version = 1\n\n[[package]]\nname = "pydantic"\nversion = "1.0.0"\n')
    proc = run_cli_here("check", "pinned_mod:", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    installed = version("pydantic")
    assert f"(pydantic {installed}, installed here, has no `no_such_name_h28f` in pydantic, imported at " \
           "pinned_mod.py:3; uv.lock pins pydantic 1.0.0: install that version" in proc.stderr, proc.stderr


def test_check_dot_names_the_server_a_fastmcp_json_declares_and_it_loads(tmp_path: Path) -> None:
    """A FastMCP project configuration (`fastmcp.json`, as ClickHouse/mcp-clickhouse ships) names the
    server file and entrypoint, here a factory in a src layout that no module-level object shows:
    `check .` names it, and the named source loads (the factory is called)."""
    package = tmp_path / "src" / "notes_app"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "server.py").write_text(FACTORY)
    (tmp_path / "fastmcp.json").write_text(json.dumps(
        {"source": {"path": "src/notes_app/server.py", "entrypoint": "create_server"}}))
    proc = run_cli_here("check", ".", cwd=tmp_path)
    said = proc.stdout + proc.stderr  # the note goes where the report's notes go
    assert "holds fastmcp.json, which names the project's server" in said, said
    assert "schemalint check notes_app.server:create_server --python-path src" in said
    proc = run_cli_here("check", "notes_app.server:create_server", "--python-path", "src", cwd=tmp_path)
    assert proc.returncode == 0 and "1 tool(s)" in proc.stdout, proc.stdout + proc.stderr


def test_check_dot_names_a_factory_or_a_server_built_in_a_class(tmp_path: Path) -> None:
    """With no module-level server, `check .` named a settings model (sitbon/magg, whose manager
    class creates `self.mcp = ProxyFastMCP(...)`): it now names a factory to check, or the line
    that creates the server inside a class and what to write."""
    (tmp_path / "models.py").write_text(
        "from pydantic import BaseModel\n\n\nclass KitInfo(BaseModel):\n    name: str\n")
    (tmp_path / "manager.py").write_text(
        "from fastmcp import FastMCP\n\n\nclass Manager:\n    def __init__(self):\n"
        "        self.mcp = FastMCP('managed')\n")
    proc = run_cli_here("check", ".", cwd=tmp_path)
    said = proc.stdout + proc.stderr
    assert "manager.py:6 creates one inside a function or class (`self.mcp = FastMCP(...)`)" in said, said
    assert "KitInfo" not in said
    (tmp_path / "factory.py").write_text(FACTORY)
    proc = run_cli_here("check", ".", cwd=tmp_path)
    said = proc.stdout + proc.stderr
    assert "factory.py builds one in create_server(), read only when named" in said, said
    assert "schemalint check factory:create_server" in said
