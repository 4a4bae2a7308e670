"""SL330 on a ``$schema`` that a server library writes into every tool it lists: the MCP TypeScript
SDK 1 (``@modelcontextprotocol/sdk``, its tools/list converts zod without a target) and fastmcp
(xsschema's draft-07 target). The authors cannot change it tool by tool, so the declared-dialect
warning is given once per module and schema role, naming the library and the tools, and is not
counted as fixable. Real Node and the example project's packages (SDK 1.32.2, SDK 2 2.4.0, fastmcp
4.3.2); the same schemas in a JSON file keep one fixable warning per tool.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from schemalint.engine import run_rules
from schemalint.model import Origin, Tool
from schemalint.rules.base import Context
from schemalint.rules.provider.sl330_mcp_schema_dialect import McpSchemaDialect
from tests._fixtures_cli import run_cli_here, run_json_here
from tests.conftest import TS_EXAMPLE, needs_node

DRAFT07 = "http://json-schema.org/draft-07/schema#"

SDK1_SERVER = """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const server = new McpServer({ name: "notes", version: "1.0.0" });
for (const name of ["add_note", "find_notes", "drop_note", "tag_note"]) {
  server.registerTool(name, { description: `Runs ${name}.`, inputSchema: { id: z.string() } },
    async () => ({ content: [] }));
}
server.registerTool("count_notes", {
  description: "Counts notes.",
  inputSchema: { tag: z.string().optional() },
  outputSchema: { count: z.number() },
}, async () => ({ content: [], structuredContent: { count: 0 } }));
server.registerTool("list_tags", {
  description: "Lists tags.",
  outputSchema: { tags: z.array(z.string()) },
}, async () => ({ content: [], structuredContent: { tags: [] } }));
"""

SDK2_SERVER = """\
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

export const server = new McpServer({ name: "notes", version: "1.0.0" });
server.registerTool("add_note", { description: "Adds a note.", inputSchema: z.object({ id: z.string() }) },
  async () => ({ content: [] }));
server.registerTool("find_notes", { description: "Finds notes.", inputSchema: z.object({ q: z.string() }) },
  async () => ({ content: [] }));
"""

FASTMCP_SERVER = """\
import { FastMCP } from "fastmcp";
import { z } from "zod";

const server = new FastMCP({ name: "notes", version: "1.0.0" });
server.addTool({ name: "add_note", description: "Adds a note.", parameters: z.object({ id: z.string() }),
  execute: async () => "" });
server.addTool({ name: "find_notes", description: "Finds notes.", parameters: z.object({ q: z.string() }),
  execute: async () => "" });
export default server;
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder of its own ("type": "module") whose node_modules are the example's."""
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    return tmp_path


def _sl330(report: dict) -> list[dict]:
    return [d for d in report["diagnostics"] if d["code"] == "SL330"]


@needs_node
def test_an_sdk1_server_gets_one_warning_naming_its_tools(project: Path) -> None:
    (project / "server.ts").write_text(SDK1_SERVER)
    code, report = run_json_here("check", "server.ts:server", cwd=project)
    assert code == 0, report  # warnings only
    (found,) = _sl330(report)
    # about the module, at the first tool's registration: no tool, no pointer
    assert (found["tool"], found["pointer"], found["line"], found["severity"]) == (None, "", 6, "warning")
    assert ("this server's inputSchema and outputSchema declare draft-07: @modelcontextprotocol/sdk's "
            "tools/list writes") in found["message"]
    # list_tags declares it in its outputSchema only; it is one of the tools all the same
    assert "here in 6 tools (`add_note`, `find_notes`, `drop_note` and 3 more)" in found["message"]
    assert "typescript-sdk/issues/2084" in found["hint"] and "@modelcontextprotocol/server" in found["hint"]
    # --fix cannot touch a module, and this finding is not one its author can fix in code either
    proc = run_cli_here("check", "server.ts:server", "--diff", cwd=project)
    assert "fixable diagnostic(s) in Python/TypeScript sources" not in proc.stderr, proc.stderr


@needs_node
def test_its_baseline_entry_outlives_a_tool_added_first(project: Path) -> None:
    (project / "server.ts").write_text(SDK1_SERVER)
    proc = run_cli_here("check", "server.ts:server", "--write-baseline", "base.json", cwd=project)
    assert proc.returncode == 0, proc.stderr
    (entry,) = [e for e in json.loads((project / "base.json").read_text())["entries"] if e["code"] == "SL330"]
    assert entry["tool"] is None
    (project / "server.ts").write_text(SDK1_SERVER.replace(
        'for (const name of', 'server.registerTool("aa_first", { description: "Runs first.", inputSchema: '
        '{ q: z.string() } }, async () => ({ content: [] }));\nfor (const name of'))
    code, report = run_json_here("check", "server.ts:server", "--baseline", "base.json", "--fail-on", "warning",
                                 cwd=project)
    assert code == 0 and _sl330(report) == [], report


@needs_node
def test_fastmcp_is_named_and_sdk2_writes_no_draft07(project: Path) -> None:
    (project / "fast.ts").write_text(FASTMCP_SERVER)
    (project / "sdk2.ts").write_text(SDK2_SERVER)
    _, fast = run_json_here("check", "fast.ts", cwd=project)
    (only,) = _sl330(fast)
    assert (only["tool"], only["line"]) == (None, 5)
    assert "fastmcp's tools/list writes" in only["message"] and "2 tools (`add_note`, `find_notes`)" in only["message"]
    assert "xsschema" in only["hint"]
    if (TS_EXAMPLE / "node_modules" / "@modelcontextprotocol" / "server").is_dir():
        _, sdk2 = run_json_here("check", "sdk2.ts:server", cwd=project)
        assert _sl330(sdk2) == []


def test_the_same_schemas_in_a_json_file_keep_a_fixable_warning_per_tool(tmp_path: Path) -> None:
    """A tools/list answer saved as JSON: each tool's `$schema` is a place --fix removes."""
    tools = [{"name": n, "description": "Runs.", "inputSchema": {"$schema": DRAFT07, "type": "object",
                                                                 "properties": {"id": {"type": "string"}}}}
             for n in ("a", "b", "c")]
    (tmp_path / "tools.json").write_text(json.dumps({"tools": tools}))
    _, report = run_json_here("check", "tools.json", cwd=tmp_path)
    assert [(d["tool"], d["pointer"]) for d in _sl330(report)] == [
        ("a", "/tools/0/inputSchema/$schema"), ("b", "/tools/1/inputSchema/$schema"),
        ("c", "/tools/2/inputSchema/$schema")]
    assert all("writes that `$schema`" not in d["message"] for d in _sl330(report))
    proc = run_cli_here("check", "tools.json", "--diff", cwd=tmp_path)
    assert "SL330 x3" in proc.stderr, proc.stderr


def _listed(name: str, file: str, schema: dict, line: int, library: str | None = "@modelcontextprotocol/sdk") -> Tool:
    return Tool(name=name, description="Runs.", advertised=schema,
                origin=Origin(file, "", "mcp-server", line, listed_by=library))


def test_grouping_is_per_file_library_and_dialect() -> None:
    """Without Node: tools as the worker gives them. Two modules, a draft-06 tool beside draft-07
    ones, a tool the module wrote itself (no library), an output schema: each group is said once,
    at its first tool."""
    d7 = {"$schema": DRAFT07, "type": "object"}
    d6 = {"$schema": "http://json-schema.org/draft-06/schema#", "type": "object"}
    tools = [_listed("a1", "a.ts", d7, 1), _listed("a2", "a.ts", d7, 2), _listed("a3", "a.ts", d6, 3),
             _listed("b1", "b.ts", d7, 4), _listed("own", "b.ts", d7, 5, library=None), _listed("b2", "b.ts", d7, 6),
             _listed("new", "b.ts", {"type": "object"}, 7)]
    tools[-1] = dataclasses.replace(tools[-1], output_schema=d7)
    found = list(run_rules([McpSchemaDialect()], tools, Context(catalog=tools)))
    assert [(d.tool, d.file, d.line) for d in found] == [
        (None, "a.ts", 1), (None, "a.ts", 3), (None, "b.ts", 4), ("own", "b.ts", 5)]
    assert "here in 2 tools (`a1`, `a2`)" in found[0].message and "server's inputSchema declares" in found[0].message
    assert "inputSchema and outputSchema declare draft-07" in found[2].message
    assert "here in 3 tools (`b1`, `b2`, `new`)" in found[2].message
    assert "declares draft-06" in found[1].message and "here in 1 tool (`a3`)" in found[1].message
    assert "writes that `$schema`" not in found[3].message
    # a tool checked on its own (no catalog) is its own group
    (alone,) = run_rules([McpSchemaDialect()], tools[1:2], Context())
    assert alone.line == 2 and "here in 1 tool (`a2`)" in alone.message
