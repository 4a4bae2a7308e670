"""Issue 28: servers of the MCP TypeScript SDK 2 (`@modelcontextprotocol/server`) get their runtime
side as SDK 1 servers do: `tools/list` asked over the SDK's own InMemoryTransport, and each call
validated as the SDK's `tools/call` does (the schema's Standard Schema validation, zod's
safeParseAsync). Real Node, the example project's @modelcontextprotocol/server 2.4.0 and zod 4.4.3.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import TS_EXAMPLE, cli_json, needs_node

pytestmark = needs_node

SERVER = """\
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

export function createServer(options: { name: string }) {
  const server = new McpServer({ name: options.name, version: "1.0.0" });
  server.registerTool(
    "render_report",
    {
      description: "Render a report",
      inputSchema: z.object({
        title: z.string(),
        layout: z.preprocess((v) => (typeof v === "string" ? JSON.parse(v) : v), z.object({ columns: z.number() })),
      }),
    },
    async ({ title }) => ({ content: [{ type: "text", text: title }] }),
  );
  server.registerTool("ping", { description: "Ping the server" }, async () => ({ content: [] }));
  return server;
}

export const server = createServer({ name: "reports" });
"""


def _load(source: str, cwd: Path) -> Any:
    from schemalint.engine import load

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return load([source])
    finally:
        os.chdir(old)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    if not (TS_EXAMPLE / "node_modules" / "@modelcontextprotocol" / "server").is_dir():
        pytest.skip("examples/typescript has no @modelcontextprotocol/server "
                    "(run `npm ci --prefix examples/typescript`)")
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "type": "module"}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    (tmp_path / "server.ts").write_text(SERVER)
    return tmp_path


def _line(needle: str) -> int:
    return next(i for i, line in enumerate(SERVER.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("source", ["server.ts:server", "server.ts:createServer", "server.ts"])
def test_an_sdk_2_server_has_its_runtime_side(project: Path, source: str) -> None:
    loaded = _load(source, project)
    tools = {t.name: t for t in loaded.tools}
    assert set(tools) == {"render_report", "ping"}, loaded.diagnostics
    report = tools["render_report"]
    assert report.origin.format == "mcp-server" and report.origin.line == _line('"render_report",') - 1
    # the advertised side is the SDK's own tools/list (2020-12 `$schema`, as SDK 2 lists it)
    assert report.advertised["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert report.runtime is not None and report.runtime.validate is not None
    assert set(report.runtime.refused_when_omitted) == {"/title", "/layout", "/layout/columns"}
    assert tools["ping"].runtime is None  # a tool without inputSchema: tools/call checks nothing
    assert not [d for d in loaded.diagnostics if d.code == "SL000"], loaded.diagnostics


def test_an_sdk_2_server_gets_its_contract_findings(project: Path) -> None:
    code, report = cli_json("check", "server.ts:server", cwd=project)
    # zod 4.4.3's z.preprocess leaves `layout` out of `required`; SDK 2's tools/call refuses a call
    # without it
    drift = [(d["tool"], d["pointer"]) for d in report["diagnostics"] if d["code"] == "SL101"]
    assert drift == [("render_report", "/properties/layout")], report["diagnostics"]
    assert code == 1
    assert not [d for d in report["diagnostics"] if d["code"] == "SL000"]


def test_an_sdk_2_module_that_registers_nothing_at_import_says_how_to_read_it(project: Path) -> None:
    # the server is made in a function the module exports and never calls: read by naming it
    (project / "entry.ts").write_text(
        "// the entry point\n" + SERVER.replace("export const server = createServer({ name: \"reports\" });\n", ""))
    code, report = cli_json("check", "entry.ts", cwd=project)
    assert code == 0
    assert [(d["code"], d["severity"], d["line"]) for d in report["diagnostics"]] == [("SL000", "warning", 2)]
    message = report["diagnostics"][0]["message"]
    assert "no McpServer registered a tool while it was imported" in message and ":ATTR" in message
    assert message.endswith("(e.g. schemalint check entry.ts:createServer)"), message
    code, report = cli_json("check", "entry.ts:createServer", cwd=project)
    assert report["summary"]["tools"] == 2


def test_a_stdio_entry_point_that_exits_when_stdin_ends_is_listed(project: Path) -> None:
    # an entry point as MCP stdio servers are written: the server is made in a function nobody
    # exports, and the process exits when its stdin ends (the worker's stdin never ends)
    (project / "main.ts").write_text(
        SERVER.replace("export function createServer", "function createServer")
        .replace('export const server = createServer({ name: "reports" });\n', "")
        + 'process.stdin.on("end", () => process.exit(0));\nprocess.stdin.resume();\n'
        + 'const running = createServer({ name: "main" });\n')
    loaded = _load("main.ts", project)
    tools = {t.name: t for t in loaded.tools}
    assert set(tools) == {"render_report", "ping"}, loaded.diagnostics
    assert tools["render_report"].runtime is not None and tools["render_report"].runtime.validate is not None
