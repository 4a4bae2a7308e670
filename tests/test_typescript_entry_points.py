"""Issue 28 on five more TypeScript projects: servers made inside an entry point's `main()`, functions
that register tools on the server they are given, optional parameters of inline registrations, the
wrapper module a CommonJS project can run, tool templates built from a factory's arguments, and
FastMCP (the `fastmcp` package) servers. Real Node with the example project's packages (ai, zod,
@modelcontextprotocol/sdk, fastmcp, tsx); skips without Node or the example's node_modules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._fixtures_cli import run_cli_here
from tests.conftest import TS_EXAMPLE, load_in, needs_node

pytestmark = needs_node


def _project(root: Path, module: bool) -> Path:
    kind = ', "type": "module"' if module else ""
    (root / "package.json").write_text(f'{{"name": "app", "private": true{kind}}}\n')
    (root / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    return root


@pytest.fixture
def esm(tmp_path: Path) -> Path:
    """An ES module project (`"type": "module"`, as most MCP servers) on the example's packages."""
    return _project(tmp_path, True)


@pytest.fixture
def cjs(tmp_path: Path) -> Path:
    """A CommonJS project (no "type", as most Next.js apps) on the example's packages."""
    return _project(tmp_path, False)


# Shaped like exa-labs/exa-mcp-server: tool modules export `registerX(server, config?, toolName?)`,
# a handler module registers the ones the configuration enables, and the entry point's main()
# creates the server, registers, and connects stdio.
TOOLS = """\
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export function registerSearch(server: McpServer, config?: { key?: string }, toolName?: string): void {
  server.tool(
    toolName || "web_search",
    "Search the web and return the top results.",
    { query: z.string().describe("What to search for"), limit: z.number().int().optional() },
    async ({ query }) => ({ content: [{ type: "text" as const, text: query + (config?.key ?? "") }] }),
  );
}

export function registerFetch(server: McpServer, config: { prefix: string }): void {
  server.registerTool(config.prefix + "fetch", {
    description: "Fetch one page as markdown.",
    inputSchema: { url: z.string() },
  }, async ({ url }) => ({ content: [{ type: "text" as const, text: url }] }));
}
"""

HANDLER = """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerSearch, registerFetch } from "./tools.js";

export function initializeServer(server: McpServer, config: { enabled?: string[] } = {}) {
  const enabled = config.enabled ?? ["web_search"];
  if (enabled.includes("web_search")) registerSearch(server, {});
  if (enabled.includes("fetch")) registerFetch(server, { prefix: "" });
  if (enabled.includes("crawl")) registerSearch(server, {}, "crawl");
}
"""

ENTRY = """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { initializeServer } from "./handler.js";

export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const server = new McpServer({ name: "search", version: "1.0.0" });
  initializeServer(server, { enabled: env.ENABLED_TOOLS?.split(",") });
  await server.connect(new StdioServerTransport());
}
"""


def _write_server(root: Path) -> None:
    (root / "tools.ts").write_text(TOOLS)
    (root / "handler.ts").write_text(HANDLER)
    (root / "entry.ts").write_text(ENTRY)


def test_main_that_creates_and_connects_the_server_is_read_by_naming_it(
        esm: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_server(esm)
    loaded = load_in(esm, "entry.ts:main")
    assert [t.name for t in loaded.tools] == ["web_search"]
    search = loaded.tools[0]
    assert search.runtime is not None and search.runtime.refused_when_omitted == ("/query",)
    assert search.origin.file == "tools.ts" and search.origin.line == TOOLS.splitlines().index("  server.tool(") + 1
    # What main() registers follows its configuration, read from the environment when it is called.
    monkeypatch.setenv("ENABLED_TOOLS", "web_search,fetch,crawl")
    loaded = load_in(esm, "entry.ts:main")
    assert sorted(t.name for t in loaded.tools) == ["crawl", "fetch", "web_search"]
    assert all(t.runtime is not None and t.runtime.validate is not None for t in loaded.tools)


def test_a_module_whose_function_makes_the_server_names_it(esm: Path) -> None:
    _write_server(esm)
    proc = run_cli_here("check", "entry.ts", "--format", "json", cwd=esm)
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 0
    [warning] = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert warning["severity"] == "warning"
    assert "exports function(s) that create an MCP server or register tools on one (main)" in warning["message"]
    assert "schemalint check entry.ts:main" in warning["message"]
    proc = run_cli_here("check", "handler.ts", "--format", "json", cwd=esm)
    [warning] = [d for d in json.loads(proc.stdout)["diagnostics"] if d["code"] == "SL000"]
    assert "schemalint check handler.ts:initializeServer" in warning["message"]


def test_a_function_that_registers_on_the_server_it_is_given_gets_one(esm: Path) -> None:
    _write_server(esm)
    # config has a default: called with a new McpServer alone, the default configuration applies.
    loaded = load_in(esm, "handler.ts:initializeServer")
    assert [t.name for t in loaded.tools] == ["web_search"]
    # config is required (config.prefix throws without it): the other arguments are stand-ins.
    loaded = load_in(esm, "tools.ts:registerFetch")
    assert [t.name for t in loaded.tools] == ["fetch"]
    assert loaded.tools[0].runtime is not None and loaded.tools[0].runtime.refused_when_omitted == ("/url",)


def test_a_function_that_registers_nothing_still_says_it_holds_no_tool(esm: Path) -> None:
    (esm / "util.ts").write_text("export function tidy(server: unknown, text: string) { return text.trim(); }\n")
    proc = run_cli_here("check", "util.ts:tidy", cwd=esm)
    assert proc.returncode == 2
    assert "util.ts:tidy: tidy holds no tool" in proc.stderr


def test_inline_registrations_read_the_optional_parameters_a_call_leaves_out(esm: Path) -> None:
    _write_server(esm)
    # tools.ts read as a whole: its registrations are inline (nothing registers at import);
    # `toolName || "web_search"` reads toolName as a call that leaves it out, while `config.prefix`
    # (a required parameter) still cannot be read without running the code.
    loaded = load_in(esm, "tools.ts")
    assert [t.name for t in loaded.tools] == ["web_search"]
    unread = [d for d in loaded.diagnostics if d.code == "SL000"]
    assert len(unread) == 1 and "config is not a module-level name" in unread[0].message, unread


def test_an_optional_parameter_with_a_default_reads_the_default(esm: Path) -> None:
    (esm / "tools.ts").write_text(
        'import { z } from "zod";\n'
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'const PREFIX = "acme_";\n'
        "export function register(server: McpServer, name = PREFIX + \"lookup\", note?: string) {\n"
        "  server.tool(name, `Look a record up.${note ? \" \" + note : \"\"}`, { id: z.string() },\n"
        '    async ({ id }) => ({ content: [{ type: "text" as const, text: id }] }));\n'
        "}\n")
    loaded = load_in(esm, "tools.ts")
    assert [(t.name, t.description) for t in loaded.tools] == [("acme_lookup", "Look a record up.")]


FACTORY = """\
import { tool } from "ai";
import { z } from "zod";

export async function createResearcher({ model }: { model: string }) {
  const [provider] = model.split(":");
  if (!["openai", "anthropic"].includes(provider)) throw new Error("No such provider: " + provider);
  return {
    search: tool({ description: "Search the web.", inputSchema: z.object({ q: z.string() }) }),
  };
}
"""


@pytest.mark.parametrize(("kind", "wrapper"), [("cjs", "schemalint-tools.mts"), ("esm", "schemalint-tools.ts")])
def test_the_wrapper_a_failing_factory_names_runs_in_the_project(
        kind: str, wrapper: str, request: pytest.FixtureRequest) -> None:
    root: Path = request.getfixturevalue(kind)
    (root / "researcher.ts").write_text(FACTORY)
    proc = run_cli_here("check", "researcher.ts:createResearcher", cwd=root)
    assert proc.returncode == 2
    assert f"e.g. {wrapper}: " in proc.stderr and f"then check {wrapper}:tools" in proc.stderr, proc.stderr
    # The wrapper written as the message says (top-level await) loads in this kind of project:
    # a CommonJS package's .ts is compiled to CommonJS, where top-level await is refused.
    (root / wrapper).write_text('import { createResearcher } from "./researcher";\n'
                                'export const tools = await createResearcher({ model: "openai:gpt-4o" });\n')
    loaded = load_in(root, f"{wrapper}:tools")
    assert [t.name for t in loaded.tools] == ["search"]


def test_a_tool_template_built_from_the_factorys_arguments_is_not_checked_as_a_tool(cjs: Path) -> None:
    (cjs / "dynamic.ts").write_text(
        'import { dynamicTool } from "ai";\n'
        'import { z } from "zod";\n'
        "export function createDynamicTool(name: string, description: string, run: (i: unknown) => unknown) {\n"
        "  return dynamicTool({ description, inputSchema: z.object({}).passthrough(),\n"
        "    execute: async (input) => run(input) });\n"
        "}\n")
    proc = run_cli_here("check", "dynamic.ts", "--format", "json", cwd=cjs)
    report = json.loads(proc.stdout)
    assert proc.returncode == 0, report
    codes = [d["code"] for d in report["diagnostics"]]
    assert codes == ["SL000"], report["diagnostics"]  # before: SL000 "not JSON" (a function) and SL007
    assert report["diagnostics"][0]["severity"] == "warning"
    assert "a template filled in at run time" in report["diagnostics"][0]["message"]


# Shaped like firecrawl/firecrawl-mcp-server: a FastMCP server made at module level, tools added
# with addTool, the instance's addTool wrapped by the project, and the server started on stdio at
# the end of the module. (`canList` is firecrawl's own patch of fastmcp: upstream lists the tool.)
FASTMCP = """\
import { FastMCP } from "fastmcp";
import { z } from "zod";

const server = new FastMCP({ name: "scraper", version: "1.0.0" });
const addTool = server.addTool.bind(server);
server.addTool = ((tool: Parameters<typeof addTool>[0]) => addTool({ ...tool })) as typeof server.addTool;

server.addTool({
  name: "scrape",
  description: "Scrape one page and return its markdown.",
  parameters: z.object({
    url: z.string().url(),
    formats: z.array(z.enum(["markdown", "html"])).default(["markdown"]),
  }),
  execute: async ({ url }) => url,
});

server.addTool({
  name: "extract",
  description: "Extract structured data.",
  parameters: z.object({ urls: z.array(z.string()) }),
  canList: () => false,
  execute: async () => "",
});

server.addTool({
  name: "status",
  description: "Report the service status.",
  execute: async () => "ok",
});

await server.start({ transportType: "stdio" });
"""


def _snapshot(root: Path, *source: str) -> dict[str, dict]:
    out = root / ("snap" + str(len(list(root.glob("snap*")))))
    proc = run_cli_here("snapshot", *source, "--dir", str(out), cwd=root)
    assert proc.returncode == 0, proc.stderr
    return {p.stem: json.loads(p.read_text()) for p in sorted(out.glob("*.json"))}


def test_a_fastmcp_server_is_read_as_its_tools_list_sends_it(esm: Path) -> None:
    (esm / "server.ts").write_text(FASTMCP)
    loaded = load_in(esm, "server.ts")
    names = {t.name: t for t in loaded.tools}
    assert sorted(names) == ["extract", "scrape", "status"]
    scrape = names["scrape"]
    assert scrape.origin.format == "mcp-server"
    # the line of its name, not the project's addTool wrapper that every tool passes through
    assert scrape.origin.line == FASTMCP.splitlines().index('  name: "scrape",') + 1
    assert scrape.runtime is not None and scrape.runtime.validate is not None
    assert scrape.runtime.refused_when_omitted == ("/url",)
    # What the module gives is what the running server sends over stdio.
    read = _snapshot(esm, "server.ts")
    sent = _snapshot(esm, "--mcp-stdio", f"{esm / 'node_modules' / '.bin' / 'tsx'} server.ts")
    assert sorted(sent) == sorted(read) == ["extract", "scrape", "status"]
    for name in sent:
        assert read[name]["inputSchema"] == sent[name]["inputSchema"], name
        assert read[name]["description"] == sent[name]["description"], name


def test_an_mcp_tool_with_an_output_schema_is_not_compared_with_its_input_keys(esm: Path) -> None:
    # modelcontextprotocol/servers' src/memory: `runtime.output` (the output-mode rendering of the
    # *input* schema) was read by SL110 as the emitted results' schema: 19 false errors.
    (esm / "server.ts").write_text(
        'import { z } from "zod";\n'
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'export const server = new McpServer({ name: "memory", version: "1.0.0" });\n'
        'server.registerTool("delete_entities", {\n'
        '  description: "Delete entities by name.",\n'
        "  inputSchema: { entityNames: z.array(z.string()) },\n"
        "  outputSchema: { success: z.boolean(), message: z.string() },\n"
        "}, async ({ entityNames }) => ({ content: [{ type: \"text\" as const, text: \"ok\" }],\n"
        '  structuredContent: { success: true, message: `deleted ${entityNames.length}` } }));\n')
    loaded = load_in(esm, "server.ts:server")
    [tool] = loaded.tools
    assert tool.output_schema is not None and tool.output_schema["required"] == ["success", "message"]
    assert tool.runtime is not None and tool.runtime.input is not None and tool.runtime.output is None
    proc = run_cli_here("check", "server.ts:server", "--format", "json", cwd=esm)
    codes = {d["code"] for d in json.loads(proc.stdout)["diagnostics"]}
    assert "SL110" not in codes, codes
