"""SL201's message says what is known about an undeclared key a description asks for: refused
where the advertised object is closed or the runtime refuses it, accepted and silently dropped
where the runtime is known to accept it (pydantic's default ``extra="ignore"``, zod's default
strip). Real pydantic models, a real FastMCP server object and, when Node is there, a real AI SDK
tool (rules/SL201-description-mentions-unknown-parameter.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.conftest import TS_EXAMPLE, needs_node, run_cli

DESCRIPTION = "Start an analysis run. Provide a short `name` for tracking."


def sl201(source: str, *args: str, cwd: Path | None = None) -> list[dict[str, Any]]:
    proc = run_cli("check", source, *args, "--select", "SL201", "--format", "json", "--fail-on", "never", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return [d for d in json.loads(proc.stdout)["diagnostics"] if d["code"] == "SL201"]


def test_pydantic_default_ignore_and_forbid(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(
        "from pydantic import BaseModel, ConfigDict\n\n\n"
        f"class StartRun(BaseModel):\n    {DESCRIPTION!r}\n\n    dataset: str\n\n\n"
        f"class StartRunStrict(BaseModel):\n    {DESCRIPTION!r}\n\n"
        "    model_config = ConfigDict(extra='forbid')\n    dataset: str\n")
    [ignored] = sl201("models:StartRun", "--python-path", str(tmp_path))
    assert ignored["severity"] == "warning"
    assert "the tool's runtime accepts such a call, so the value of `name` is silently dropped or ignored" in (
        ignored["message"])
    assert "refused" not in ignored["message"]
    [forbidden] = sl201("models:StartRunStrict", "--python-path", str(tmp_path))
    assert forbidden["severity"] == "error"
    assert "the tool's runtime refuses undeclared keys there, so a call that follows the description is refused" in (
        forbidden["message"])


def test_fastmcp_server_object_accepts_and_drops(tmp_path: Path) -> None:
    [finding] = sl201("examples.mcp_server.server:mcp")
    assert "`name`" in finding["message"] and "silently dropped or ignored" in finding["message"]
    assert "refused" not in finding["message"]


def test_json_file_without_runtime_keeps_the_known_wording(tmp_path: Path) -> None:
    tools = [{"name": "start", "description": DESCRIPTION, "inputSchema": {
        "type": "object", "properties": {"dataset": {"type": "string"}}, "additionalProperties": False}},
        {"name": "start_open", "description": DESCRIPTION, "inputSchema": {
            "type": "object", "properties": {"dataset": {"type": "string"}}}}]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    closed, opened = sl201(str(path))
    assert "the object is closed (additionalProperties: false or strict mode), so a call that follows" in (
        closed["message"])
    assert "a model that follows the description sends a key the tool does not declare" in opened["message"]


@needs_node
def test_ai_sdk_closed_advertised_schema_but_zod_strips(tmp_path: Path) -> None:
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    shutil.copy(TS_EXAMPLE / "package.json", tmp_path / "package.json")
    (tmp_path / "tools.ts").write_text(
        'import { tool } from "ai";\nimport { z } from "zod";\n\n'
        "export const TOOLS = {\n  start_run: tool({\n"
        f"    description: {json.dumps(DESCRIPTION)},\n"
        "    inputSchema: z.object({ dataset: z.string() }),\n"
        "    execute: async ({ dataset }) => ({ started: dataset }),\n  }),\n};\n")
    [finding] = sl201("tools.ts:TOOLS", cwd=tmp_path)
    assert finding["severity"] == "error"  # the model is shown additionalProperties: false
    assert ("so a client or provider that checks the call against it refuses it, while the tool's own runtime "
            "accepts it and silently drops `name`") in finding["message"]
