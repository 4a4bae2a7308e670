"""SL110 output-schema-drift on real MCP servers with real pydantic output models (issue 27).

The official SDK's server advertises ``outputSchema`` in validation mode and dumps results in
serialization mode by alias; the test starts the server in memory, calls each tool with the
official client and checks that SL110 reports exactly the tools whose results the client refuses
("Invalid structured content"), and no finding for a fastmcp server (serialization mode on both sides).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli_json

pytest.importorskip("mcp")

SERVER = textwrap.dedent('''
    from datetime import datetime
    from typing import Annotated
    from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, computed_field
    from mcp.server.mcpserver import MCPServer

    class Aliased(BaseModel):
        user_name: str = Field(serialization_alias="userName")
        age: int

    class Closed(BaseModel):
        model_config = ConfigDict(extra="forbid")
        user_name: str

        @computed_field
        @property
        def label(self) -> str:
            return self.user_name.upper()

    class Stamped(BaseModel):
        seen: Annotated[datetime, PlainSerializer(lambda d: int(d.timestamp()), return_type=int)]

    class Plain(BaseModel):
        user_name: str
        age: int = 0

    mcp = MCPServer("demo")

    @mcp.tool()
    def aliased(uid: str) -> Aliased:
        """Get a user."""
        return Aliased(user_name="ann", age=3)

    @mcp.tool()
    def closed(uid: str) -> Closed:
        """Get a user."""
        return Closed(user_name="ann")

    @mcp.tool()
    def stamped(uid: str) -> Stamped:
        """When the user was seen."""
        return Stamped(seen=datetime(2020, 1, 1))

    @mcp.tool()
    def plain(uid: str) -> Plain:
        """Get a user."""
        return Plain(user_name="ann")
''')


def _client_verdicts(module: Any) -> dict[str, bool]:
    """Tool name -> True when the official client refuses the tool's real result."""
    from mcp import Client

    async def run() -> dict[str, bool]:
        out: dict[str, bool] = {}
        async with Client(module.mcp) as client:
            for name in ("aliased", "closed", "stamped", "plain"):
                try:
                    await client.call_tool(name, {"uid": "1"})
                    out[name] = False
                except Exception as exc:  # the client raises on a result that fails outputSchema
                    assert "Invalid structured content" in str(exc), exc
                    out[name] = True
        return out

    return asyncio.run(run())


def test_sl110_reports_exactly_the_results_the_official_client_refuses(tmp_path: Path) -> None:
    pytest.importorskip("mcp.server.mcpserver", reason="needs the MCP Python SDK 2.x (MCPServer)")
    (tmp_path / "outsrv.py").write_text(SERVER)
    sys.path.insert(0, str(tmp_path))
    try:
        refused = _client_verdicts(importlib.import_module("outsrv"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("outsrv", None)
    assert refused == {"aliased": True, "closed": True, "stamped": True, "plain": False}

    _, report = cli_json("check", "outsrv:mcp", "--python-path", str(tmp_path), "--select", "SL110")
    errors = {(d["tool"], d["pointer"]) for d in report["diagnostics"] if d["severity"] == "error"}
    assert {tool for tool, _ in errors} == {name for name, bad in refused.items() if bad}
    assert ("aliased", "/tools/aliased/outputSchema/properties/user_name") in errors
    assert ("closed", "/tools/closed/outputSchema/additionalProperties") in errors
    assert ("stamped", "/tools/stamped/outputSchema/properties/seen/type") in errors
    messages = " ".join(d["message"] for d in report["diagnostics"])
    assert "they carry `userName` instead" in messages and "the advertised side is wrong" in messages


def test_fastmcp_renders_both_sides_in_serialization_mode(tmp_path: Path) -> None:
    pytest.importorskip("fastmcp")
    (tmp_path / "fastsrv.py").write_text(SERVER.replace(
        "from mcp.server.mcpserver import MCPServer", "from fastmcp import FastMCP as MCPServer"
    ).replace("@mcp.tool()", "@mcp.tool"))
    code, report = cli_json("check", "fastsrv:mcp", "--python-path", str(tmp_path), "--select", "SL110")
    assert report["diagnostics"] == [], json.dumps(report["diagnostics"], indent=1)[:2000]
    assert code == 0


def test_replay_finds_the_same_fault_in_a_recorded_session(tmp_path: Path) -> None:
    """The server's real ``tools/list`` answer and a result dumped as the official SDK dumps it
    (``model_dump(mode="json", by_alias=True)``), recorded as an MCP log: SL410 reports the result at
    the instance path the advertised outputSchema requires."""
    pytest.importorskip("mcp.server.mcpserver", reason="needs the MCP Python SDK 2.x (MCPServer)")
    from mcp import Client

    (tmp_path / "recsrv.py").write_text(SERVER)
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("recsrv")

        async def listed() -> list[dict[str, Any]]:
            async with Client(module.mcp) as client:
                return [t.model_dump(mode="json", by_alias=True, exclude_none=True)
                        for t in (await client.list_tools()).tools]

        tools = asyncio.run(listed())
        dumped = module.Aliased(user_name="ann", age=3).model_dump(mode="json", by_alias=True)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("recsrv", None)
    log = tmp_path / "session.jsonl"
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "aliased", "arguments": {"uid": "1"}}},
        {"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": json.dumps(dumped)}],
                                               "structuredContent": dumped}},
    ]
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    _, report = cli_json("replay", str(log), "--select", "SL410")
    [diag] = report["diagnostics"]
    assert diag["tool"] == "aliased" and diag["line"] == 4
    assert "'user_name' is a required property" in diag["message"]
