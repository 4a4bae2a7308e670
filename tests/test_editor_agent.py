"""``schemalint mcp``: the MCP server for coding agents, listed and called through the official
SDK's stdio client, and its own tool definitions checked by schemalint at the provider targets."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="schemalint mcp needs the mcp extra")

from tests._fixtures_cli import run_cli_here

REPO = Path(__file__).resolve().parent.parent
SERVER = f"{sys.executable} -m schemalint mcp"

STRICT_TARGETS = ("openai", "openai-strict", "anthropic", "anthropic-strict", "gemini-json", "mcp", "bedrock",
                  "ollama")
"""Every target but ``gemini`` (the ``parameters`` subset), whose refusal of ``additionalProperties``
strict mode contradicts (schemalint.editor.agent.close_arguments says why)."""


def _attr(obj: Any, *names: str) -> Any:
    """A field of an SDK type under its SDK 2 (snake_case) or SDK 1 (camelCase) name."""
    for name in names:
        if hasattr(obj, name):
            return getattr(obj, name)
    raise AttributeError(names)


async def _call(workspace: Path, calls: list[tuple[str, dict[str, Any]]]) -> tuple[list[Any], list[Any]]:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "schemalint", "mcp"], cwd=str(workspace),
                                   env=dict(os.environ))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        listed = (await session.list_tools()).tools
        results = [await session.call_tool(name, args) for name, args in calls]
    return listed, results


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "zod", tmp_path / "zod")
    (tmp_path / "old.json").write_text(json.dumps([{"name": "f", "inputSchema": {
        "type": "object", "properties": {"a": {"type": "string"}}}}]))
    (tmp_path / "new.json").write_text(json.dumps([{"name": "f", "inputSchema": {
        "type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}}]))
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["zod"]\n')
    return tmp_path


def test_tools_are_listed_with_typed_schemas_and_answer(workspace: Path) -> None:
    listed, results = asyncio.run(_call(workspace, [
        ("check", {"paths": ["zod/contracts.json"]}),
        ("check", {}),
        ("diff", {"old": "old.json", "new": "new.json"}),
        ("rule", {"code": "SL101"}),
        ("rules", {"prefix": "SL3"}),
        ("show", {"tool": "present_answer", "paths": ["zod/contracts.json"]}),
    ]))
    assert {t.name for t in listed} == {"check", "diff", "show", "rule", "rules"}
    for tool in listed:
        assert _attr(tool, "output_schema", "outputSchema"), f"{tool.name} has no output schema"
        assert _attr(tool, "input_schema", "inputSchema")["additionalProperties"] is False
    structured = [_attr(r, "structured_content", "structuredContent") for r in results]
    assert not any(_attr(r, "is_error", "isError") for r in results)
    named, configured, changed, page, catalog, shown = structured
    cli = run_cli_here("check", "zod/contracts.json", "--format", "json", cwd=workspace)
    expected = json.loads(cli.stdout)["diagnostics"]
    assert [(f["code"], f["line"], f["pointer"]) for f in named["findings"]] == [
        (e["code"], e["line"], e["pointer"]) for e in expected]
    assert named["findings"] and configured["tools"] == named["tools"]
    assert [c["code"] for c in changed["changes"]] == ["SD103"]
    assert page["page"].startswith("# SL101 required-drift")
    assert catalog["rules"] and all(r["code"].startswith("SL3") for r in catalog["rules"])
    assert "present_answer" in shown["views"][0]["view"]


def test_paths_outside_the_workspace_and_module_sources_are_refused(workspace: Path, tmp_path_factory: Any) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (outside / "t.json").write_text("[]")
    (workspace / "link").symlink_to(outside)
    _, results = asyncio.run(_call(workspace, [
        ("check", {"paths": [str(outside / "t.json")]}),
        ("check", {"paths": ["../" + outside.name + "/t.json"]}),
        ("check", {"paths": ["link/t.json"]}),
        ("check", {"paths": ["os:path"]}),
        ("rule", {"code": "SL000000"}),
    ]))
    for r in results:
        assert _attr(r, "is_error", "isError")
    texts = [r.content[0].text for r in results]
    assert all("outside the workspace" in t for t in texts[:3]), texts
    assert "module source" in texts[3]
    assert "no rule" in texts[4]


def test_its_own_tool_definitions_pass_schemalint_check(tmp_path: Path) -> None:
    target = ",".join(STRICT_TARGETS)  # one run checks every target (a finding names its target)
    out = run_cli_here("check", "--mcp-stdio", SERVER, "--target", target, "--format", "json", "--fail-on", "info",
                       cwd=tmp_path)
    report = json.loads(out.stdout)
    assert report["summary"]["tools"] == 5, out.stderr
    assert report["diagnostics"] == [], report["diagnostics"]
    assert out.returncode == 0
