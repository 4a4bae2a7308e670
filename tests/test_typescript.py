"""TypeScript sources (issue 16): the Node worker on the real example project (examples/typescript,
its own npm packages: ai, zod 4.4.3 and 4.6.7, zod 3, @modelcontextprotocol/sdk, tsx).

Every test runs real Node on real packages; none stubs the bridge. They skip when Node, npm or
the example's node_modules are missing (``npm ci --prefix examples/typescript``), and fail instead
under SCHEMALINT_REQUIRE_NODE=1 (.ci/run).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests._fixtures_cli import run_cli_here, run_json_here
from tests.conftest import ROOT, TS_EXAMPLE, cli, needs_node

pytestmark = needs_node

AGENT = "examples/typescript/src/agent.ts"
FIXED = "examples/typescript/zod-fixed/agent.ts"
MCP = "examples/typescript/src/mcp-server.ts"
SCHEMAS = "examples/typescript/src/schemas.ts"


def _version(package: str, folder: Path = TS_EXAMPLE) -> str:
    return str(json.loads((folder / "node_modules" / package / "package.json").read_text())["version"])


def _line_of(path: str, pattern: str) -> int:
    text = (ROOT / path).read_text(encoding="utf-8")
    m = re.search(pattern, text)
    assert m, pattern
    return text[: m.start()].count("\n") + 1


def _load(*sources: str, cwd: Path | None = None) -> Any:
    """The tools of ``sources`` as ``engine.load`` gives them (in this process, worker in Node)."""
    from schemalint.engine import load

    old = os.getcwd()
    os.chdir(cwd or ROOT)
    try:
        return load(list(sources))
    finally:
        os.chdir(old)


def _by_name(loaded: Any) -> dict[str, Any]:
    return {t.name: t for t in loaded.tools}


@pytest.fixture(scope="module")
def agent_tools() -> dict[str, Any]:
    """The AI SDK agent's tools (``AGENT:AGENT_TOOLS``) by name, as ``engine.load`` gives them: one
    real Node worker load for the tests that only read the listing (advertised and runtime
    renderings, ``refused_when_omitted``), instead of one each. Read-only: tools are frozen."""
    return _by_name(_load(f"{AGENT}:AGENT_TOOLS"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder of its own ("type": "module") whose node_modules are the example's."""
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    return tmp_path


def test_the_installed_versions_are_the_pinned_ones() -> None:
    pinned = json.loads((TS_EXAMPLE / "package.json").read_text())["dependencies"]
    assert _version("zod") == pinned["zod"] == "4.4.3"
    assert _version("ai") == pinned["ai"]
    assert _version("zod3").startswith("3.")
    assert _version("zod", TS_EXAMPLE / "zod-fixed") == "4.6.7"


# -- incident 1, from the TypeScript module itself ------------------------------------------------


def test_incident_1_is_found_in_the_ai_sdk_agent_and_confirmed_by_a_probe() -> None:
    code, report = run_json_here("check", f"{AGENT}:AGENT_TOOLS")
    assert code == 1
    found = {(d["tool"], d["instance_path"]): d for d in report["diagnostics"]}
    assert set(found) == {("present_answer", "/presentation"), ("present_answer_nested", "/options/presentation")}
    for (tool, _), d in found.items():
        assert d["code"] == "SL101"
        assert "measured: a call omitting it was refused" in d["message"]
        assert d["file"] == AGENT
        assert d["line"] == _line_of(AGENT, rf"\b{tool}: tool\(")
    assert report["summary"]["tools"] == 5


def test_several_typescript_sources_in_one_run() -> None:
    """One worker loads them all before any probe runs (answers come in request order)."""
    code, report = run_json_here("check", f"{AGENT}:AGENT_TOOLS", f"{MCP}:server", SCHEMAS)
    assert code == 1
    assert report["summary"]["tools"] == 9 and report["summary"]["files"] == 3
    assert sorted((d["file"], d["instance_path"]) for d in report["diagnostics"] if d["code"] == "SL101") == [
        (AGENT, "/options/presentation"), (AGENT, "/presentation"), (MCP, "/layout")]
    _, globbed = run_json_here("check", "examples/typescript/src/*.ts")  # a glob: each module, every export
    assert (globbed["summary"]["files"], globbed["diagnostics"]) == (3, report["diagnostics"])
    _, both = run_json_here("check", "examples/typescript/**/agent.ts:AGENT_TOOLS")
    assert sorted({d["file"] for d in both["diagnostics"]}) == [AGENT]  # zod-fixed/agent.ts is clean
    assert both["summary"]["tools"] == 10


def test_the_probe_command_refuses_the_omission_with_zods_issue_path() -> None:
    proc = run_cli_here("probe", f"{AGENT}:AGENT_TOOLS", "--format", "json", "--max-examples", "10")
    assert "Traceback" not in proc.stderr, proc.stderr
    tools = {t["tool"]: t for t in json.loads(proc.stdout)["tools"]}
    refusals = tools["present_answer"]["omission"]["refusals"]
    assert [(r["kind"], r["instance_path"], r["error_type"]) for r in refusals] == [
        ("omission", "/presentation", "ZodError")]
    assert refusals[0]["error_paths"] == ["/presentation"]
    nested = tools["present_answer_nested"]["omission"]["refusals"]
    assert [r["instance_path"] for r in nested] == ["/options/presentation"]
    assert tools["present_answer_clean"]["omission"]["refusals"] == []
    assert tools["get_weather"]["probed"] is False  # jsonSchema() without validate: the AI SDK checks nothing


def test_the_same_module_is_clean_on_the_fixed_zod(agent_tools: dict[str, Any]) -> None:
    assert (ROOT / FIXED).read_bytes() == (ROOT / AGENT).read_bytes(), "zod-fixed/agent.ts must be a copy"
    code, report = run_json_here("check", f"{FIXED}:AGENT_TOOLS")
    assert (code, report["diagnostics"]) == (0, [])
    fixed = _by_name(_load(f"{FIXED}:AGENT_TOOLS"))
    faulty = agent_tools
    assert fixed["present_answer"].advertised["required"] == ["artifact", "presentation"]
    assert faulty["present_answer"].advertised["required"] == ["artifact"]
    assert "required" not in faulty["present_answer_nested"].advertised["properties"]["options"]
    # the runtime refuses the omission on both zod versions: only the rendering differs
    for tools in (fixed, faulty):
        assert "/presentation" in tools["present_answer"].runtime.refused_when_omitted
        assert "/options/presentation" in tools["present_answer_nested"].runtime.refused_when_omitted


def _node_json(project: Path, script: str) -> Any:
    path = project / "probe.mts"
    path.write_text(script)
    tsx = TS_EXAMPLE / "node_modules" / ".bin" / "tsx"
    proc = subprocess.run([str(tsx), str(path)], capture_output=True, text=True, cwd=project, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_advertised_schema_is_the_ai_sdks_own_conversion_verbatim(project: Path,
                                                                       agent_tools: dict[str, Any]) -> None:
    agent = (ROOT / AGENT).as_uri()
    expected = _node_json(project, (
        'import { asSchema } from "ai";\n'
        f'const {{ AGENT_TOOLS }} = await import({json.dumps(agent)});\n'
        "const out = {};\n"
        "for (const [k, t] of Object.entries(AGENT_TOOLS)) out[k] = await asSchema(t.inputSchema).jsonSchema;\n"
        "console.log(JSON.stringify(out));\n"))
    tools = agent_tools
    assert {name: t.advertised for name, t in tools.items()} == expected
    # the AI SDK closes every object; zod's own input rendering (the runtime side) does not
    assert expected["present_answer"]["additionalProperties"] is False
    assert "additionalProperties" not in tools["present_answer"].runtime.input
    assert tools["present_answer"].origin.format == "ai-sdk"


def test_the_runtime_output_rendering_feeds_sl105(tmp_path: Path, agent_tools: dict[str, Any]) -> None:
    tools = agent_tools
    search = tools["search_docs"].runtime
    assert search.output["required"] == ["query", "limit"]  # zod's output mode: the default is filled in
    assert search.input["required"] == ["query"]
    present = tools["present_answer"]
    assert present.runtime.output["required"] == ["artifact", "presentation"]
    # the same schemas without the probes' evidence: the output rendering alone still warns (SL105)
    manifest = tmp_path / "contracts.json"
    manifest.write_text(json.dumps({"schemalint": 1, "tools": [
        {"name": t.name, "description": t.description, "advertised": t.advertised,
         "runtime": {"input": t.runtime.input, "output": t.runtime.output}}
        for t in (present, tools["search_docs"])]}))
    code, report = run_json_here("check", str(manifest))
    assert code == 0  # a warning
    assert [(d["code"], d["tool"]) for d in report["diagnostics"] if d["code"].startswith("SL1")] == [
        ("SL105", "present_answer")]


# -- the MCP TypeScript SDK --------------------------------------------------------------------


def test_a_typescript_mcp_server_is_listed_through_the_sdks_in_memory_client() -> None:
    tools = _by_name(_load(f"{MCP}:server"))
    assert set(tools) == {"render_report", "list_reports"}
    render = tools["render_report"]
    assert render.origin.format == "mcp-server"
    assert render.origin.file == MCP
    assert render.origin.line == _line_of(MCP, r'registerTool\(\s*"render_report"')
    assert render.raw["name"] == "render_report" and render.raw["inputSchema"] == render.advertised
    assert render.advertised["required"] == ["report_id"]  # zod 4.4.3 drops the preprocessed `layout`
    assert "/layout" in render.runtime.refused_when_omitted
    code, report = run_json_here("check", f"{MCP}:server")
    assert code == 1
    # the TypeScript SDK 1.x declares draft-07 in every inputSchema: SL330 warns once for the server
    # (MCP 2025-11-25; tests/test_sl330_library_written.py)
    assert [(d["code"], d["tool"], d["instance_path"]) for d in report["diagnostics"] if d["code"] != "SL330"] == [
        ("SL101", "render_report", "/layout")]
    assert [(d["tool"], d["line"]) for d in report["diagnostics"] if d["code"] == "SL330"] == [
        (None, render.origin.line)]


def test_an_mcp_server_connected_to_stdio_at_import_is_still_listed(project: Path) -> None:
    (project / "server.ts").write_text(
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
        'import { z } from "zod";\n'
        'const server = new McpServer({ name: "s", version: "1" });\n'
        'server.tool("echo", "Echo the text.", { text: z.string() }, async ({ text }) => '
        '({ content: [{ type: "text", text }] }));\n'
        "await server.connect(new StdioServerTransport());\n"
        "export default server;\n")
    tools = _load("server.ts", cwd=project).tools
    assert [(t.name, t.description, t.origin.line) for t in tools] == [("echo", "Echo the text.", 5)]
    assert tools[0].advertised["required"] == ["text"]


def test_a_server_factory_and_a_server_created_at_import(project: Path) -> None:
    """As real servers are written (modelcontextprotocol/servers' "everything"): tools registered
    in files of their own, the server made by a factory, started by an entry module that exports
    nothing. The line is the caller of registerTool (through tsx's source maps)."""
    (project / "tools").mkdir()
    (project / "tools" / "sum.ts").write_text(
        'import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { z } from "zod";\n'
        'const name = "get-sum";\n'
        "export const registerSum = (server: McpServer) => {\n"
        '  server.registerTool(name, { description: "Add.", inputSchema: { a: z.number(), b: z.number() } },\n'
        '    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));\n'
        "};\n")
    (project / "server.ts").write_text(
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { registerSum } from "./tools/sum.js";\n'
        "export const createServer = () => {\n"
        '  const server = new McpServer({ name: "s", version: "1" });\n'
        "  registerSum(server);\n"
        "  return { server, cleanup: () => {} };\n"
        "};\n")
    (project / "main.ts").write_text(
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
        'import { createServer } from "./server.js";\n'
        "const { server } = createServer();\n"
        "await server.connect(new StdioServerTransport());\n")
    for source in ("server.ts:createServer", "main.ts"):
        tools = _load(source, cwd=project).tools
        assert [(t.name, t.origin.file, t.origin.line) for t in tools] == [("get-sum", "tools/sum.ts", 5)], source
        assert tools[0].runtime.refused_when_omitted == ("/a", "/b")
    proc = run_cli_here("check", "server.ts", cwd=project)  # read as a whole, a factory is not called
    assert proc.returncode == 0 and "0 tool(s)" in proc.stdout


# -- bare zod schemas, tables, modules ------------------------------------------------------------


def test_bare_zod_4_and_zod_3_object_schemas() -> None:
    tools = _by_name(_load(SCHEMAS))
    assert set(tools) == {"CreateTicket", "CloseTicket"}
    create, close = tools["CreateTicket"], tools["CloseTicket"]
    assert (create.origin.format, create.description) == ("zod", "Open a support ticket.")
    assert create.advertised["properties"]["title"]["minLength"] == 3
    assert create.runtime.output["required"] == ["title", "priority"]
    assert close.description == "Close a support ticket."
    assert close.advertised["required"] == ["ticket_id"]  # zod-to-json-schema, found in the project
    assert close.runtime.refused_when_omitted == ("/ticket_id",)
    assert close.origin.line == _line_of(SCHEMAS, r"const CloseTicket")


def test_arrays_of_tools_every_export_and_parts(project: Path) -> None:
    (project / "tools.ts").write_text(
        'import { tool, jsonSchema } from "ai";\n'
        'import { z } from "zod";\n'
        "export const Address = z.object({ street: z.string() });\n"
        "export const AGENT_TOOL_DEFINITIONS = [\n"
        '  { name: "ship", tool: tool({ description: "Ship it.", inputSchema: z.object({ to: Address }) }) },\n'
        '  { name: "weigh", description: "Weigh it.", inputSchema: jsonSchema({ type: "object", properties: '
        '{ kg: { type: "number" } } }, { validate: (v) => typeof v?.kg === "number" ? { success: true, value: v } '
        ': { success: false, error: new Error("kg must be a number") } }) },\n'
        "];\n"
        'export const legacy = tool({ description: "Old AI SDK 4 style.",\n'
        "  parameters: z.object({ q: z.string() }) });\n")
    tools = _by_name(_load("tools.ts", cwd=project))
    assert set(tools) == {"ship", "weigh", "legacy"}  # Address is a part of `ship`, not a tool
    assert tools["ship"].origin.line == 5 and tools["legacy"].origin.line == 8
    assert tools["weigh"].runtime is not None and tools["weigh"].runtime.validate is not None
    outcome = tools["weigh"].runtime.validate.outcome_of({"kg": "x"})
    assert (outcome.status, outcome.message) == ("refused", "kg must be a number")
    assert tools["ship"].runtime.refused_when_omitted == ("/to", "/to/street")
    only = _load("tools.ts:Address", cwd=project).tools
    assert [t.name for t in only] == ["Address"]


def test_schemas_zod_cannot_render_are_sl000_and_zod_mini_is_read(project: Path) -> None:
    (project / "odd.ts").write_text(
        'import { z } from "zod";\nimport { z as zm } from "zod/mini";\nimport { tool } from "ai";\n'
        'export const WithDate = z.object({ when: z.date() }).describe("Has a date.");\n'
        'export const Mini = zm.object({ q: zm.string(), n: zm.optional(zm.number()) });\n'
        'export const tools = { big: tool({ description: "Big.", inputSchema: z.object({ n: z.bigint() }) }) };\n')
    code, report = run_json_here("check", "odd.ts:WithDate", cwd=project)
    assert code == 1
    assert [(d["code"], d["tool"], d["line"], d["message"]) for d in report["diagnostics"]] == [
        ("SL000", "WithDate", 4, "zod cannot render this schema as JSON Schema: Error: Date cannot be represented "
         "in JSON Schema")]
    code, report = run_json_here("check", "odd.ts:tools", cwd=project)
    assert [(d["code"], d["tool"], d["line"]) for d in report["diagnostics"]] == [("SL000", "big", 6)]
    assert "the AI SDK cannot convert this tool's schema: Error: BigInt" in report["diagnostics"][0]["message"]
    mini = _load("odd.ts:Mini", cwd=project).tools[0]  # zod/mini schemas have no methods: zod's functions parse
    assert mini.runtime.refused_when_omitted == ("/q",)


def test_commonjs_packages_typescript_and_cjs(tmp_path: Path) -> None:
    """A package without "type": "module": a .ts file (tsx's CommonJS hook) and a .cjs file, whose
    module.exports reaches each tool twice (as `default.search` and as `search`): one tool each."""
    (tmp_path / "package.json").write_text('{"name": "cjs-project"}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    (tmp_path / "tools.ts").write_text(
        'import { tool } from "ai";\nimport { z } from "zod";\n'
        "export const tools = {\n"
        '  search: tool({ description: "Search.", inputSchema: z.object({ q: z.string() }) }) };\n')
    (tmp_path / "tools.cjs").write_text(
        'const { tool } = require("ai");\nconst { z } = require("zod");\n'
        "module.exports = { search: tool({ description: \"Search.\",\n"
        "  inputSchema: z.object({ q: z.string(), n: z.number().optional() }) }) };\n")
    for source, line in (("tools.ts", 4), ("tools.cjs", 3)):
        tools = _load(source, cwd=tmp_path).tools
        assert [(t.name, t.origin.line, t.runtime.refused_when_omitted) for t in tools] == [
            ("search", line, ("/q",))], source


def test_an_export_that_holds_no_tool_is_an_error(project: Path) -> None:
    (project / "m.ts").write_text("export const n = 1;\n")
    proc = run_cli_here("check", "m.ts:n", cwd=project)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "schemalint: error: m.ts:n: n holds no tool (an AI SDK tool, an MCP McpServer, a zod object schema, or an "
        "object or array of them)"]
    proc = run_cli_here("check", "m.ts:missing", cwd=project)
    assert proc.returncode == 2 and 'has no export "missing"' in proc.stderr


# -- modules that misbehave -----------------------------------------------------------------------


def test_a_module_that_throws_at_import(project: Path) -> None:
    (project / "bad.ts").write_text('import { z } from "zod";\nexport const A = z.object({});\n'
                                    'throw new Error("no API key");\n')
    proc = run_cli_here("check", "bad.ts", cwd=project)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "schemalint: error: bad.ts: cannot import: Error: no API key"


def test_a_module_that_never_settles_is_stopped_at_the_time_limit(project: Path) -> None:
    (project / "hang.ts").write_text("export const A = 1;\nawait new Promise(() => {});\n")
    (project / "spin.ts").write_text("export const A = 1;\nwhile (true) {}\n")
    env = {**os.environ, "SCHEMALINT_IMPORT_TIME_LIMIT": "2"}
    for name in ("hang.ts", "spin.ts"):
        proc = cli("check", name, cwd=project, env=env, timeout=60)
        assert proc.returncode == 2
        assert f"{name}: importing and listing it did not finish within 2 s" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_a_module_that_prints_to_stdout_does_not_corrupt_the_report(project: Path) -> None:
    (project / "noisy.ts").write_text(
        'import fs from "node:fs";\nimport { z } from "zod";\n'
        'console.log(\'{"id": 1, "ok": true, "tools": []}\');\nprocess.stdout.write("not json\\n");\n'
        'fs.writeSync(1, "written to fd 1\\n");\n'
        'export const Search = z.object({ q: z.string() }).describe("Search.");\n')
    for fmt in ("json", "sarif"):
        proc = run_cli_here("check", "noisy.ts", "--format", fmt, cwd=project)
        assert proc.returncode == 0, proc.stderr
        json.loads(proc.stdout)  # the whole of stdout is the report
        assert "not json" not in proc.stdout and "fd 1" not in proc.stdout
    code, report = run_json_here("check", "noisy.ts", cwd=project)
    assert (code, report["summary"]["tools"]) == (0, 1)


def test_a_validator_that_hangs_is_an_sl107_timeout_and_the_next_tool_is_probed(project: Path) -> None:
    (project / "slow.ts").write_text(
        'import { z } from "zod";\n'
        "export const Slow = z.object({ a: z.string(), b: z.string().optional().refine((v) => {\n"
        "  if (v !== undefined) { while (true) {} }\n  return true;\n}) }).describe(\"Slow.\");\n"
        "export const Fine = z.object({ q: z.string(), r: z.number().optional() }).describe(\"Fine.\");\n")
    proc = run_cli_here("probe", "slow.ts", "--format", "json", "--max-examples", "5", cwd=project)
    report = json.loads(proc.stdout)
    assert [(d["code"], d["tool"], d["severity"]) for d in report["diagnostics"]] == [("SL107", "Slow", "warning")]
    assert "did not return within 2 s" in report["diagnostics"][0]["message"]
    fine = next(t for t in report["tools"] if t["tool"] == "Fine")  # probed by the restarted worker
    assert fine["omission"]["calls"] > 0 and fine["generated"]["calls"] > 0
    assert fine["omission"]["refusals"] == [] and fine["generated"]["refusals"] == []


def test_a_module_that_exits_at_import(project: Path) -> None:
    (project / "exit.ts").write_text("export const A = 1;\nprocess.exit(0);\n")
    proc = run_cli_here("check", "exit.ts", cwd=project)
    assert proc.returncode == 2
    assert "exit.ts: cannot import: it called process.exit(0) while it was imported" in proc.stderr
    # only its import ends, not the worker (which ended before, with the run); the message shows
    # what the module printed (a CLI entry point's usage text, reached through a tool module)
    (project / "usage.ts").write_text('console.error("Usage: server <organization>");\nprocess.exit(1);\n')
    (project / "uses.ts").write_text('import "./usage";\nexport const B = 1;\n')
    proc = cli("check", "usage.ts", "uses.ts", cwd=project)
    assert proc.returncode == 2
    assert "usage.ts: cannot import: it called process.exit(1) while it was imported" in proc.stderr
    assert "Usage: server <organization>" in proc.stderr


def test_no_node_on_path_is_one_line_and_exit_2(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path)}
    proc = cli("check", f"{AGENT}:AGENT_TOOLS", cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        f"schemalint: error: {AGENT}:AGENT_TOOLS: TypeScript and JavaScript sources need Node.js, and no `node` "
        "was found on PATH (install Node.js 20 or later)"]


def test_typescript_without_tsx_needs_type_stripping(tmp_path: Path) -> None:
    from schemalint.loaders.typescript.node import node_version, strips_types

    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    (tmp_path / "plain.ts").write_text("export const n: number = 1;\n")
    (tmp_path / "plain.mjs").write_text("export const n = 1;\n")
    proc = run_cli_here("check", "plain.ts", cwd=tmp_path)
    import shutil

    node = shutil.which("node")
    assert node is not None
    if strips_types(node_version(node)) is None:  # Node 20 here: the message names what to install
        assert proc.returncode == 2
        assert "npm install --save-dev tsx" in proc.stderr and "Node 22.6 or later" in proc.stderr
    else:
        assert proc.returncode == 0, proc.stderr
    proc = run_cli_here("check", "plain.mjs", cwd=tmp_path)  # JavaScript needs no tsx
    assert proc.returncode == 0 and "no tool definitions found in plain.mjs" in proc.stdout


# -- diff, snapshot, --base, configuration ------------------------------------------------------


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=cwd, check=True,
                   capture_output=True)


def test_diff_base_snapshot_and_config_sources(project: Path) -> None:
    (project / ".gitignore").write_text("node_modules\n")
    (project / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools.ts:AGENT_TOOLS"]\n')
    faulty = (ROOT / AGENT).read_text()
    clean = faulty.replace("z.preprocess(parseIfString, presentation())", "presentation()")
    assert clean != faulty
    (project / "tools.ts").write_text(clean)
    _git(project, "init", "-q")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "clean")
    (project / "tools.ts").write_text(faulty)
    proc = run_cli_here("diff", "--base", "HEAD", "--format", "json", cwd=project)
    assert proc.returncode in (0, 1), proc.stderr
    changed = {t["tool"] for t in json.loads(proc.stdout)["tools"] if t["status"] == "changed"}
    assert changed == {"present_answer", "present_answer_nested"}
    proc = run_cli_here("diff", "HEAD:tools.ts:AGENT_TOOLS", "tools.ts:AGENT_TOOLS", "--format", "json", cwd=project)
    assert {t["tool"] for t in json.loads(proc.stdout)["tools"] if t["status"] == "changed"} == changed
    code, report = run_json_here("check", cwd=project)  # the configured sources
    assert code == 1 and {d["instance_path"] for d in report["diagnostics"]} == {"/presentation",
                                                                                  "/options/presentation"}
    proc = run_cli_here("snapshot", "tools.ts:AGENT_TOOLS", "--dir", "snaps", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (project / "snaps").iterdir() if p.suffix == ".json") == [
        "get_weather.json", "present_answer.json", "present_answer_clean.json", "present_answer_nested.json",
        "search_docs.json"]
    proc = run_cli_here("show", "present_answer", "tools.ts:AGENT_TOOLS", cwd=project)
    assert proc.returncode == 0 and "runtime input" in proc.stdout


def test_text_github_and_sarif_point_at_the_typescript_line() -> None:
    line = _line_of(AGENT, r"\bpresent_answer: tool\(")
    proc = run_cli_here("check", f"{AGENT}:AGENT_TOOLS", "--format", "github")
    assert f"::error file={AGENT},line={line}," in proc.stdout
    proc = run_cli_here("check", f"{AGENT}:AGENT_TOOLS")
    assert f"{AGENT}:{line}:1: error SL101" in proc.stdout
    sarif = json.loads(run_cli_here("check", f"{AGENT}:AGENT_TOOLS", "--format", "sarif").stdout)
    locations = [r["locations"][0]["physicalLocation"] for r in sarif["runs"][0]["results"]]
    assert {(p["artifactLocation"]["uri"], p["region"]["startLine"]) for p in locations} == {
        (AGENT, line), (AGENT, _line_of(AGENT, r"\bpresent_answer_nested: tool\("))}


# -- packaging and start-up ---------------------------------------------------------------------


def test_check_of_a_json_file_does_not_import_the_typescript_loader() -> None:
    code = ("import sys; from schemalint.cli import main\n"
            "sys.argv = ['schemalint', 'check', 'examples/zod/contracts.json', '--format', 'json']\n"
            "try:\n    main()\n"
            "except SystemExit:\n    pass\n"
            "print([m for m in sys.modules if 'typescript' in m], file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert '"diagnostics"' in proc.stdout  # the check ran
    assert proc.stderr.strip().splitlines()[-1] == "[]"

