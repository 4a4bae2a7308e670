"""Issue 28: TypeScript tools written inline (in a route's POST handler, a factory, a function
nobody exports) are read from the module's source text with the project's TypeScript compiler
API, their schema evaluated with the project's zod; a definition that cannot be evaluated is
reported by file and line. Real Node, the example project's real packages (ai, zod 4.4.3,
typescript 5.9.3, @modelcontextprotocol/sdk 1.x and @modelcontextprotocol/server 2.x, tsx), in
Next.js-shaped projects written here. Skips without Node or the example's node_modules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import TS_EXAMPLE, cli, cli_json, load_in, needs_node

pytestmark = needs_node



def _packages(into: Path, leave_out: tuple[str, ...] = ()) -> None:
    """``into/node_modules`` holding the example's installed packages (linked one by one, so that
    some can be left out)."""
    modules = into / "node_modules"
    modules.mkdir()
    for entry in (TS_EXAMPLE / "node_modules").iterdir():
        if entry.name not in leave_out:
            (modules / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())


@pytest.fixture
def app(tmp_path: Path) -> Path:
    """A Next.js-shaped app (CommonJS, depends on next: the react-server condition is on)."""
    if not (TS_EXAMPLE / "node_modules" / "typescript").is_dir():
        pytest.skip("examples/typescript has no typescript package (run `npm ci --prefix examples/typescript`)")
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "dependencies": {"next": "15"}}\n')
    _packages(tmp_path)
    return tmp_path


# A chat route as AI SDK apps write it: the tools exist only inside the POST handler. The module
# cannot be imported by Node (its auth module uses a React client API), as a real Next.js route
# that reaches client code cannot.
ROUTE = """\
import { streamText, tool } from "ai";
import { z } from "zod";
import { auth } from "../../../lib/auth";
import { Priority } from "../../../lib/schemas";

const OrderRef = z.object({ orderId: z.string().describe("The order's id") });
const MAX_ITEMS = 20;

function limitOf(n: number) {
  return z.number().int().max(n);
}

export async function POST(request: Request) {
  const { messages, kinds } = (await request.json()) as { messages: unknown[]; kinds: string[] };
  const session = await auth();
  const result = streamText({
    model: session.model,
    messages,
    tools: {
      lookupOrder: {
        description: "Look up an order by its id",
        parameters: OrderRef,
        execute: async ({ orderId }) => ({ orderId }),
      },
      listOrders: tool({
        description: `List at most ${MAX_ITEMS} orders`,
        inputSchema: z.object({ limit: limitOf(MAX_ITEMS).optional(), priority: Priority.optional() }),
        execute: async () => [],
      }),
      reshipOrder: tool({
        description: "Reship an order",
        inputSchema: z.object({
          order: OrderRef,
          note: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string()),
        }),
        execute: async () => "ok",
      }),
      fileComplaint: tool({
        description: "File a complaint of one of the kinds this user may file",
        inputSchema: z.object({ kind: z.enum(kinds as [string, ...string[]]) }),
        execute: async () => "ok",
      }),
    },
  });
  return result.toTextStreamResponse();
}
"""

AUTH = """\
const React: any = {};
export const SessionContext = React.createContext(null);
export async function auth() { return { model: null }; }
"""

SCHEMAS = 'import { z } from "zod";\nexport const Priority = z.enum(["low", "high"]);\n'


def _route(app: Path) -> str:
    (app / "lib").mkdir()
    (app / "lib" / "auth.ts").write_text(AUTH)
    (app / "lib" / "schemas.ts").write_text(SCHEMAS)
    route = app / "app" / "api" / "chat"
    route.mkdir(parents=True)
    (route / "route.ts").write_text(ROUTE)
    return "app/api/chat/route.ts"


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_tools_inline_in_a_post_handler_are_read_when_the_route_cannot_be_imported(app: Path) -> None:
    source = _route(app)
    loaded = load_in(app, source)
    tools = {t.name: t for t in loaded.tools}
    assert set(tools) == {"lookupOrder", "listOrders", "reshipOrder"}, [d.message for d in loaded.diagnostics]
    lookup = tools["lookupOrder"]
    assert lookup.description == "Look up an order by its id"
    assert lookup.advertised["required"] == ["orderId"]
    assert lookup.origin.file == source and lookup.origin.line == _line(ROUTE, "lookupOrder: {")
    assert lookup.runtime is not None and lookup.runtime.refused_when_omitted == ("/orderId",)
    listing = tools["listOrders"]
    # a module-level constant, a module-level function and a local module's schema are bound
    assert listing.description == "List at most 20 orders"
    assert listing.advertised["properties"]["limit"]["maximum"] == 20
    assert listing.advertised["properties"]["priority"]["enum"] == ["low", "high"]
    # the schema a request value builds is found, not read, and said so at its line
    unread = [d for d in loaded.diagnostics if d.tool == "fileComplaint"]
    assert len(unread) == 1 and unread[0].kind == "unchecked" and unread[0].severity == "warning"
    assert unread[0].line == _line(ROUTE, "fileComplaint: tool({")
    assert "written inline in POST, was found but cannot be read" in unread[0].message
    assert "kinds is not a module-level name" in unread[0].message
    # the import failure stays visible: its exports were not read
    failed = [d for d in loaded.diagnostics if d.tool is None]
    assert len(failed) == 1 and "cannot import: TypeError" in failed[0].message
    assert "only the tools written inline in it" in failed[0].message


def test_an_inline_tool_gets_the_runtime_side_and_its_contract_findings(app: Path) -> None:
    source = _route(app)
    code, report = cli_json("check", source, cwd=app)
    assert code == 1, report
    # zod 4.4.3's z.preprocess leaves `note` out of `required` while the runtime refuses a call
    # without it (incident 1): found on a tool written inline, at its line
    drift = [d for d in report["diagnostics"] if d["code"] == "SL101"]
    assert [(d["tool"], d["pointer"], d["line"]) for d in drift] == [
        ("reshipOrder", "/properties/note", _line(ROUTE, "reshipOrder: tool({"))], drift
    assert report["summary"]["tools"] == 3


MCP_MODULE = """\
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";

export const VERSION = "1.0.0";

function registerTools(server: McpServer, config: { readOnly: boolean }) {
  server.registerTool(
    "search_notes",
    { description: "Search the notes", inputSchema: { query: z.string(), limit: z.number().optional() } },
    async ({ query }) => ({ content: [{ type: "text", text: query }] }),
  );
  server.tool("add", "Add two numbers", { a: z.number(), b: z.number() }, async ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  server.registerTool(
    "delete_note",
    { description: "Delete a note", inputSchema: config.readOnly ? {} : { id: z.string() } },
    async () => ({ content: [] }),
  );
}

// configured on a server it is given, by a constant's name: exported, but naming it reads nothing
export const NOTE_TOOLS = { archive: "archive_note" } as const;
export function configureArchiveTools(server: McpServer) {
  server.tool(NOTE_TOOLS.archive, "Archive a note", { id: z.string() }, async () => ({ content: [] }));
}

// a factory that returns its server: read by naming it (server.ts:createServer), not from the text
export function createServer() {
  const server = new McpServer({ name: "notes", version: VERSION });
  server.registerTool("kept", { description: "Kept" }, async () => ({ content: [] }));
  return server;
}
"""


def test_mcp_registrations_in_a_function_nobody_calls_are_read(app: Path) -> None:
    (app / "server.ts").write_text(MCP_MODULE)
    loaded = load_in(app, "server.ts")
    tools = {t.name: t for t in loaded.tools}
    assert set(tools) == {"search_notes", "add", "archive_note"}, [d.message for d in loaded.diagnostics]
    assert tools["archive_note"].origin.line == _line(MCP_MODULE, "server.tool(NOTE_TOOLS.archive")
    assert tools["search_notes"].advertised["required"] == ["query"]
    assert tools["search_notes"].origin.format == "mcp-server"
    assert tools["search_notes"].origin.line == _line(MCP_MODULE, "server.registerTool(")
    assert tools["add"].description == "Add two numbers"
    assert tools["add"].runtime is not None and set(tools["add"].runtime.refused_when_omitted) == {"/a", "/b"}
    unread = [d for d in loaded.diagnostics if d.tool == "delete_note"]
    assert len(unread) == 1 and "config is not a module-level name" in unread[0].message
    assert unread[0].line == _line(MCP_MODULE, '"delete_note"') - 1
    assert [t.name for t in load_in(app, "server.ts:createServer").tools] == ["kept"]


def test_tools_read_from_exports_are_not_read_twice(app: Path) -> None:
    (app / "tools.ts").write_text(
        'import { tool } from "ai";\nimport { z } from "zod";\n'
        'export const weather = tool({ description: "Weather", inputSchema: z.object({ city: z.string() }) });\n'
        "export function handler() {\n"
        '  return { tools: { weather, clock: tool({ description: "Clock", inputSchema: z.object({}) }) } };\n'
        "}\n")
    loaded = load_in(app, "tools.ts")
    assert sorted(t.name for t in loaded.tools) == ["clock", "weather"]
    assert not loaded.diagnostics


def test_a_project_without_the_typescript_compiler_api_is_told_what_was_not_read(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}\n')
    _packages(tmp_path, leave_out=("typescript",))
    (tmp_path / "route.ts").write_text(
        'import { streamText } from "ai";\nimport { z } from "zod";\nexport async function POST() {\n'
        '  return streamText({ tools: { ping: { description: "Ping", parameters: z.object({}) } } });\n}\n')
    code, report = cli_json("check", "route.ts", cwd=tmp_path)
    assert code == 0
    [diag] = report["diagnostics"]
    assert (diag["code"], diag["severity"], diag["line"]) == ("SL000", "warning", 4)
    assert "the project has no typescript package" in diag["message"]
    assert "npm install --save-dev typescript@5" in diag["message"]


def test_registrations_that_ran_at_import_are_not_parsed_again(tmp_path: Path) -> None:
    # modelcontextprotocol/servers' src/memory registers every tool at its top level and connects
    # stdio: the tools come from the server itself, and the compiler API is not loaded for them
    # (before: 3 to 4 s of a 4 s listing, and without typescript a warning about lines it had read).
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "type": "module"}\n')
    _packages(tmp_path, leave_out=("typescript",))
    (tmp_path / "index.ts").write_text(
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\n'
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";\n'
        'import { z } from "zod";\n'
        'const server = new McpServer({ name: "memory", version: "1.0.0" });\n'
        'server.registerTool("read_graph", { description: "Read the whole graph.", inputSchema: {} },\n'
        '  async () => ({ content: [] }));\n'
        "server.registerTool(\n"
        '  "open_nodes",\n'
        '  { description: "Open nodes by name.", inputSchema: { names: z.array(z.string()) } },\n'
        "  async () => ({ content: [] }));\n"
        "await server.connect(new StdioServerTransport());\n")
    code, report = cli_json("check", "index.ts", cwd=tmp_path)
    assert code == 0, report
    assert report["summary"]["tools"] == 2
    assert not [d for d in report["diagnostics"] if d["code"] == "SL000"], report["diagnostics"]


def test_a_route_with_no_inline_tool_that_cannot_be_imported_is_still_an_error(app: Path) -> None:
    (app / "lib").mkdir()
    (app / "lib" / "auth.ts").write_text(AUTH)
    (app / "route.ts").write_text('import { auth } from "./lib/auth";\n'
                                  "export async function GET() { return auth(); }\n")
    proc = cli("check", "route.ts", cwd=app)
    assert proc.returncode == 2 and "cannot import: TypeError" in proc.stderr, proc.stderr


def test_a_module_whose_default_export_builds_the_tools_says_how_to_read_them(app: Path) -> None:
    # a toolkit's shape: the default export builds the tool list from helpers, and no text in it
    # says `tool(`: read as a whole it is not called, and that is said, with the source to use
    (app / "toolkit.ts").write_text(
        'import { z } from "zod";\n'
        "const createCustomer = (context: { account?: string }) => ({ method: \"create_customer\",\n"
        '  name: "Create Customer", description: "Create a customer.",\n'
        "  inputSchema: z.object({ email: z.string() }) });\n"
        "const tools = (context: { account?: string }) => [createCustomer(context)];\n"
        "export default tools;\n")
    code, report = cli_json("check", "toolkit.ts", cwd=app)
    assert code == 0 and report["summary"]["tools"] == 0
    [diag] = report["diagnostics"]
    assert diag["code"] == "SL000" and diag["severity"] == "warning"
    assert "schemalint check toolkit.ts:default" in diag["message"]
    assert [t.name for t in load_in(app, "toolkit.ts:default").tools] == ["create_customer"]


def test_a_typescript_package_that_is_an_es_module_is_imported(tmp_path: Path) -> None:
    # The worker require()s a CommonJS compiler API (typescript's own entry: no scan of its 9 MB
    # for export names); an entry that is an ES module under a .js name fails require() (on Node
    # 20.19+, which can require() an ES module, through its top-level await) and must still be
    # read through import().
    if not (TS_EXAMPLE / "node_modules" / "typescript").is_dir():
        pytest.skip("examples/typescript has no typescript package (run `npm ci --prefix examples/typescript`)")
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}\n')
    _packages(tmp_path, leave_out=("typescript",))
    wrapper = tmp_path / "node_modules" / "typescript"
    wrapper.mkdir()
    real = (TS_EXAMPLE / "node_modules" / "typescript" / "lib" / "typescript.js").resolve()
    (wrapper / "package.json").write_text(
        '{"name": "typescript", "version": "5.0.0-esm", "type": "module", "main": "./index.js"}\n')
    (wrapper / "index.js").write_text(f'import ts from {json.dumps(real.as_uri())};\nawait null;\nexport default ts;\n')
    (tmp_path / "route.ts").write_text(
        'import { streamText } from "ai";\nimport { z } from "zod";\nexport async function POST() {\n'
        '  return streamText({ tools: { ping: { description: "Ping", parameters: z.object({}) } } });\n}\n')
    loaded = load_in(tmp_path, "route.ts")
    assert [t.name for t in loaded.tools] == ["ping"]
    assert not loaded.diagnostics


def test_only_the_mcp_server_packages_a_module_names_are_imported_before_it(tmp_path: Path) -> None:
    # Registrations are watched by importing the MCP server packages before the module; one the
    # module never names is not imported (fastmcp with mcp-proxy cost 1 s of a 2 s check of an
    # SDK 1 server in the example project). A stub fastmcp records whether it was imported.
    if not (TS_EXAMPLE / "node_modules" / "@modelcontextprotocol").is_dir():
        pytest.skip("examples/typescript has no MCP SDK (run `npm ci --prefix examples/typescript`)")
    (tmp_path / "package.json").write_text('{"name": "app", "private": true, "type": "module"}\n')
    _packages(tmp_path, leave_out=("fastmcp",))
    stub, mark = tmp_path / "node_modules" / "fastmcp", tmp_path / "fastmcp-imported"
    stub.mkdir()
    (stub / "package.json").write_text('{"name": "fastmcp", "version": "0.0.0", "main": "index.js"}\n')
    (stub / "index.js").write_text(f'require("node:fs").writeFileSync({json.dumps(str(mark))}, "yes");\n'
                                   "exports.FastMCP = class FastMCP {};\n")
    (tmp_path / "sdk.ts").write_text(
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { z } from "zod";\n'
        'const server = new McpServer({ name: "s", version: "1.0.0" });\n'
        'server.registerTool("ping", { description: "Ping", inputSchema: { id: z.string() } }, '
        "async () => ({ content: [] }));\n")
    loaded = load_in(tmp_path, "sdk.ts")
    assert [(t.name, t.origin.line) for t in loaded.tools] == [("ping", 4)]
    assert not mark.exists()
    (tmp_path / "fast.ts").write_text('import { FastMCP } from "fastmcp";\nexport const kind = typeof FastMCP;\n')
    load_in(tmp_path, "fast.ts")
    assert mark.read_text() == "yes"  # named: imported before the module (the stub holds no tool)
