"""MCP servers: the example server for real (in memory and over stdio), fastmcp, output contracts."""


import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from schemalint.errors import SourceError
from schemalint.loaders.python.mcp_server import load_stdio, tools_from_object
from tests._fixtures_cli import run_cli_here
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "mcp_server" / "server.py"


def _example_server():
    sys.path.insert(0, str(ROOT))
    try:
        from examples.mcp_server import server
    finally:
        sys.path.remove(str(ROOT))
    return server


def _by_name(tools):
    return {t.name: t for t in tools}


def test_example_in_memory_hidden_required_argument_is_found():
    server = _example_server()
    tools = _by_name(tools_from_object(server.mcp, "examples.mcp_server.server:mcp"))
    assert set(tools) == {"present_answer", "add", "search_notes"}
    present = tools["present_answer"]
    # tools/list: the signature has artifact and presentation; the model is shown artifact only
    assert list(present.advertised["properties"]) == ["artifact"]
    assert present.advertised["required"] == ["artifact"]
    assert present.origin.format == "mcp-server"
    assert present.origin.pointer == "/tools/present_answer"
    assert "`name`" in present.description
    # the runtime refuses the call the advertised contract describes, and says why
    rt = present.runtime
    assert rt is not None and rt.validate is not None
    assert rt.refused_when_omitted == ("/artifact", "/presentation", "/presentation/kind")
    with pytest.raises(Exception, match="presentation"):
        rt.validate({"artifact": "a1"})
    # pre_parse_json: a nested object sent as a JSON string is accepted by the server
    validated = rt.validate({"artifact": "a1", "presentation": '{"kind": "chart"}'})
    assert validated["presentation"].kind == "chart"
    # clean tools: nothing hidden
    assert tools["add"].runtime.refused_when_omitted == ("/a", "/b")
    assert tools["search_notes"].runtime.refused_when_omitted == ("/query",)
    assert tools["search_notes"].advertised["required"] == ["query"]


def test_example_output_contract_matches_structured_content():
    server = _example_server()
    tools = _by_name(tools_from_object(server.mcp, "s:mcp"))
    add = tools["add"]
    assert add.output_schema["required"] == ["total", "terms"]
    assert add.runtime.output == add.output_schema  # no serializer changes the shape


def test_validate_never_runs_the_tool_body():
    from mcp.server.mcpserver import MCPServer

    calls: list[int] = []
    server = MCPServer("t")

    @server.tool()
    def touch(n: int) -> int:
        calls.append(n)
        return n

    [tool] = tools_from_object(server, "t:server")
    tool.runtime.validate({"n": 3})
    with pytest.raises(Exception):  # noqa: B017 - pydantic's ValidationError
        tool.runtime.validate({"n": "three"})
    assert calls == []


def test_output_schema_validation_vs_serialization_mode():
    """A serializer that changes a field's type: outputSchema says string, structuredContent is a number."""
    from datetime import datetime, timezone
    from typing import Annotated

    import jsonschema
    from mcp import Client
    from mcp.server.mcpserver import MCPServer
    from pydantic import BaseModel, PlainSerializer

    from schemalint.loaders.python.framework_common import run_async

    class Stamp(BaseModel):
        at: Annotated[datetime, PlainSerializer(lambda d: d.timestamp(), return_type=float)]

    server = MCPServer("t")

    @server.tool()
    def now() -> Stamp:
        return Stamp(at=datetime(2024, 1, 1, tzinfo=timezone.utc))

    [tool] = tools_from_object(server, "t:server")
    assert tool.output_schema["properties"]["at"] == {"format": "date-time", "title": "At", "type": "string"}
    assert tool.runtime.output["properties"]["at"]["type"] == "number"

    async def server_side():
        return await server.call_tool("now", {})

    structured = run_async(server_side, 30).structured_content
    assert structured == {"at": 1704067200.0}
    jsonschema.validate(structured, tool.runtime.output)  # what we computed is what is sent
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(structured, tool.output_schema)  # what is advertised refuses it

    async def through_client():
        async with Client(server) as client:
            try:
                await client.call_tool("now", {})
            except RuntimeError as exc:
                return str(exc)
        return "accepted"

    # the official client validates structuredContent against outputSchema: the call fails
    assert "Invalid structured content" in run_async(through_client, 30)


def test_example_over_stdio_lists_what_memory_lists():
    server = _example_server()
    memory = _by_name(tools_from_object(server.mcp, "m"))
    stdio = _by_name(load_stdio(f'"{sys.executable}" "{EXAMPLE}"', timeout=60))
    assert set(stdio) == set(memory)
    for name, tool in stdio.items():
        assert tool.advertised == memory[name].advertised
        assert json.dumps(tool.advertised) == json.dumps(memory[name].advertised)  # key order too
        assert tool.output_schema == memory[name].output_schema
        assert tool.description == memory[name].description
        assert tool.runtime is None
        assert tool.origin.file.startswith("mcp-stdio:")


def test_cli_mcp_stdio_and_module_source():
    proc = run_cli_here("check", "--mcp-stdio", f'"{sys.executable}" "{EXAMPLE}"', "--format", "json",
                        "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 3
    proc = run_cli_here("check", "examples.mcp_server.server:mcp", "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"]["tools_by_format"] == {"mcp-server": 3}


def test_cli_mcp_stdio_failures_exit_2_with_stderr(tmp_path: Path):
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.stderr.write('missing API_TOKEN\\n')\nsys.exit(3)\n")
    proc = run_cli_here("check", "--mcp-stdio", f'"{sys.executable}" "{crash}"')
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "missing API_TOKEN" in proc.stderr
    proc = run_cli_here("check", "--mcp-stdio", "no-such-command-schemalint-test")
    assert proc.returncode == 2
    assert "could not be started" in proc.stderr and "no-such-command-schemalint-test" in proc.stderr


def test_stdio_time_limit(tmp_path: Path):
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text("import sys, time\nsys.stderr.write('warming up\\n'); sys.stderr.flush()\n"
                       "time.sleep(30)\n")
    with pytest.raises(SourceError, match=r"within 2s(.|\n)*warming up"):
        load_stdio(f'"{sys.executable}" "{sleeper}"', timeout=2)


def test_not_a_server_is_not_mine():
    assert tools_from_object(object(), "x") is None
    assert tools_from_object({"tools": []}, "x") is None


def test_python_mcp_server_tools_get_the_mcp_profile():
    """A Python MCP server is checked as MCP, like its tools/list JSON (issue 13)."""
    from schemalint.api import load
    from schemalint.rules.base import Context
    from schemalint.targets import infer_targets

    tools = load(["examples.mcp_server.server:mcp"]).tools
    assert tools and all(infer_targets(t) == {"mcp"} for t in tools)
    assert all(Context().targets_for(t) == {"mcp"} for t in tools)
