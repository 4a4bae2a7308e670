"""Issue 28: TypeScript tools built by factories, framework module conditions, the name a framework
sends, and what is not a tool; measured on real Node with the example project's real packages
(ai, zod, @modelcontextprotocol/sdk, tsx). Skips without Node or the example's node_modules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._fixtures_cli import run_cli_here
from tests.conftest import TS_EXAMPLE, load_in, needs_node

pytestmark = needs_node

SERVER_ONLY_INDEX = 'throw new Error("This module cannot be imported from a Client Component module. "\n' \
    '  + "It should only be used from a Server Component.");\n'



@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A CommonJS project (no "type", as most Next.js apps) using the example's packages."""
    (tmp_path / "package.json").write_text('{"name": "app", "private": true}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    return tmp_path


FACTORIES = """\
import { tool } from "ai";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

type Props = { session: { user: { id: string } }; dataStream: { write(x: unknown): void } };

export const createDocument = ({ session, dataStream }: Props) =>
  tool({
    description: "Create a document for the signed-in user.",
    inputSchema: z.object({ title: z.string(), kind: z.enum(["text", "code"]) }),
    execute: async ({ title }) => { dataStream.write(title); return session.user.id + title; },
  });

export const add = (a: number, b: number) => a + b;

export function createServer(auth: { token: string }, { transport }: { transport: string }) {
  const server = new McpServer({ name: "x", version: "1" });
  server.registerTool("echo", { description: `Echo the text back (${transport}).`,
    inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  return server;
}

export const toolkit = (context: { account?: string } = {}) => [
  { method: "create_customer", name: "Create Customer", description: "Create a customer.",
    inputSchema: z.object({ name: z.string() }) },
  { method: "list_customers", name: "List Customers", description: "List the customers.",
    inputSchema: z.object({ limit: z.number().optional() }) },
];

export const widgets = {
  search: { name: "Search", description: "A search box of the UI.", parametersSchema: z.object({ q: z.string() }) },
};

export const brokenFactory = (config: { kinds: string[] }) => {
  if (!Array.isArray(config.kinds)) throw new TypeError("config.kinds must be an array");
  return tool({ description: "never read", inputSchema: z.object({ a: z.string() }) });
};
"""


def test_an_ai_sdk_tool_factory_in_a_module_read_as_a_whole_is_read_with_stand_ins(project: Path) -> None:
    (project / "tools.ts").write_text(FACTORIES)
    loaded = load_in(project, "tools.ts")
    names = {t.name: t for t in loaded.tools}
    # createDocument is built with stand-in arguments; add (no tool in its body) and createServer
    # (not an AI SDK tool factory) are never called; widgets' zod schema is a part, not a tool.
    assert set(names) == {"createDocument"}, sorted(names)
    doc = names["createDocument"]
    assert doc.advertised["required"] == ["title", "kind"]
    assert doc.runtime is not None and doc.runtime.validate is not None
    assert set(doc.runtime.refused_when_omitted) == {"/title", "/kind"}
    assert doc.origin.file == "tools.ts" and doc.origin.line == FACTORIES.splitlines().index(
        "export const createDocument = ({ session, dataStream }: Props) =>") + 1
    broken = [p for p in loaded.diagnostics if p.tool == "brokenFactory"]
    assert len(broken) == 1 and broken[0].kind == "unchecked", loaded.diagnostics
    assert "calling it with stand-in arguments failed (TypeError: config.kinds must be an array)" in broken[0].message
    assert 'import { brokenFactory } from "./tools"; export const tools = await brokenFactory(' in broken[0].message


def test_a_named_factory_with_required_arguments_gets_stand_ins(project: Path) -> None:
    (project / "tools.ts").write_text(FACTORIES)
    loaded = load_in(project, "tools.ts:createServer")
    assert [t.name for t in loaded.tools] == ["echo"]
    echo = loaded.tools[0]
    assert echo.runtime is not None and echo.runtime.refused_when_omitted == ("/text",)
    assert echo.description == "Echo the text back ()."  # the stand-in is "" as a string


def test_a_named_factory_that_fails_names_the_wrapper_to_write(project: Path) -> None:
    (project / "tools.ts").write_text(FACTORIES)
    proc = run_cli_here("check", "tools.ts:brokenFactory", cwd=project)
    assert proc.returncode == 2
    line = proc.stderr.strip()
    assert "\n" not in line, line
    assert "tools.ts:brokenFactory: calling brokenFactory() with stand-in arguments failed" in line
    assert "export const tools = await brokenFactory(/* your arguments */); then check schemalint-tools.mts:tools" \
        in line


def test_the_name_sent_is_method_not_the_display_name(project: Path) -> None:
    (project / "tools.ts").write_text(FACTORIES)
    loaded = load_in(project, "tools.ts:toolkit")
    assert [t.name for t in loaded.tools] == ["create_customer", "list_customers"]
    proc = run_cli_here("check", "tools.ts:toolkit", "--format", "json", cwd=project)
    report = json.loads(proc.stdout)
    assert not [d for d in report["diagnostics"] if d["code"] == "SL006"], report["diagnostics"]
    lines = {t.name: t.origin.line for t in loaded.tools}
    assert lines["create_customer"] == FACTORIES.splitlines().index(
        '  { method: "create_customer", name: "Create Customer", description: "Create a customer.",') + 1


def test_a_schema_under_another_key_of_a_tool_like_object_is_not_a_tool(project: Path) -> None:
    (project / "ui.ts").write_text(
        'import { z } from "zod";\n'
        "export const widgets = {\n"
        '  search: { name: "Search", description: "A search box of the UI.",\n'
        "    parametersSchema: z.object({ q: z.string() }) },\n"
        "};\n")
    proc = run_cli_here("check", "ui.ts", "--format", "json", cwd=project)
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 0, report
    assert not report["diagnostics"]


def _with_server_only(project: Path) -> None:
    """node_modules holding the example's packages and `server-only` as published (exports:
    react-server -> empty.js, default -> index.js, which throws)."""
    (project / "node_modules").unlink()
    modules = project / "node_modules"
    modules.mkdir()
    for entry in (TS_EXAMPLE / "node_modules").iterdir():
        (modules / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    pkg = modules / "server-only"
    pkg.mkdir()
    (pkg / "package.json").write_text(json.dumps({
        "name": "server-only", "version": "0.0.1", "main": "index.js",
        "exports": {".": {"react-server": "./empty.js", "default": "./index.js"}}}))
    (pkg / "index.js").write_text(SERVER_ONLY_INDEX)
    (pkg / "empty.js").write_text("")


def test_a_module_importing_server_only_loads_with_the_react_server_condition(project: Path) -> None:
    _with_server_only(project)
    (project / "queries.ts").write_text('import "server-only";\nexport const query = () => 1;\n')
    (project / "tool.ts").write_text(
        'import { tool } from "ai";\nimport { z } from "zod";\nimport { query } from "./queries";\n'
        'export const lookup = tool({ description: "Look a row up.", inputSchema: z.object({ id: z.string() }),\n'
        "  execute: async () => query() });\n")
    # No dependency declared, so only the import in queries.ts... which tool.ts does not name itself:
    # the message says what to do.
    proc = run_cli_here("check", "tool.ts", cwd=project)
    assert proc.returncode == 2
    assert "cannot be imported from a Client Component module" in proc.stderr
    assert "react-server condition" in proc.stderr and "add server-only to its dependencies" in proc.stderr
    # Declared as Next.js apps do (server-only, or next, in package.json): loaded, the tool found.
    (project / "package.json").write_text('{"name": "app", "private": true, "dependencies": {"server-only": "*"}}\n')
    loaded = load_in(project, "tool.ts")
    assert [t.name for t in loaded.tools] == ["lookup"]


def test_verbose_reports_the_phases_of_a_load(project: Path) -> None:
    (project / "tools.ts").write_text(FACTORIES)
    proc = run_cli_here("check", "tools.ts:toolkit", "--verbose", cwd=project)
    assert proc.returncode == 0, proc.stderr
    line = next(x for x in proc.stderr.splitlines() if x.startswith("schemalint: tools.ts:toolkit:"))
    for phase in ("node start", "typescript loader", "mcp sdk watch", "module import", "listing", "answer after"):
        assert phase in line, line


def test_the_tsx_hint_uses_the_projects_package_manager(tmp_path: Path) -> None:
    import shutil

    from schemalint.loaders.typescript.node import node_version, strips_types

    node = shutil.which("node")
    assert node is not None
    if strips_types(node_version(node)) is not None:
        pytest.skip("this Node strips types itself: no tsx is needed")
    (tmp_path / "package.json").write_text('{"name": "root", "private": true}\n')
    (tmp_path / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    (tmp_path / "pnpm-workspace.yaml").write_text("packages:\n  - tools/*\n")
    (tmp_path / "tools" / "ts").mkdir(parents=True)
    (tmp_path / "tools" / "ts" / "tools.ts").write_text("export const n: number = 1;\n")
    proc = run_cli_here("check", "tools/ts/tools.ts", cwd=tmp_path)
    assert proc.returncode == 2
    assert "needs tsx in its project (pnpm add -D -w tsx)" in proc.stderr
    (tmp_path / "pnpm-workspace.yaml").unlink()
    proc = run_cli_here("check", "tools/ts/tools.ts", cwd=tmp_path)
    assert "needs tsx in its project (pnpm add -D tsx)" in proc.stderr


def test_a_declared_but_uninstalled_tsx_says_to_install_the_packages(tmp_path: Path) -> None:
    """A workspace whose root declares tsx, never installed (getsentry/sentry-mcp before `pnpm
    install`): the error says to install the project's packages, not to add tsx, and names the Node
    version the project asks for."""
    import shutil

    from schemalint.loaders.typescript.node import node_version, strips_types

    node = shutil.which("node")
    assert node is not None
    if strips_types(node_version(node)) is not None:
        pytest.skip("this Node strips types itself: no tsx is needed")
    (tmp_path / ".git").mkdir()
    (tmp_path / "package.json").write_text('{"private": true, "devDependencies": {"tsx": "catalog:"}}\n')
    (tmp_path / "pnpm-lock.yaml").write_text("lockfileVersion: '9.0'\n")
    core = tmp_path / "packages" / "core"
    (core / "src").mkdir(parents=True)
    (core / "package.json").write_text('{"name": "@acme/core", "engines": {"node": ">=22.13"}}\n')
    (core / "src" / "tools.ts").write_text("export const n: number = 1;\n")
    proc = run_cli_here("check", "packages/core/src/tools.ts", cwd=tmp_path)
    assert proc.returncode == 2
    assert "tsx is declared in package.json but not installed" in proc.stderr, proc.stderr
    assert "install the project's packages first (pnpm install)" in proc.stderr
    assert "the project asks for Node >=22.13: engines in packages/core/package.json" in proc.stderr
    assert "pnpm add" not in proc.stderr
    # Declared nowhere and nothing installed: add tsx, and install the packages.
    (tmp_path / "package.json").write_text('{"private": true}\n')
    proc = run_cli_here("check", "packages/core/src/tools.ts", cwd=tmp_path)
    assert "needs tsx in its project (pnpm add -D tsx)" in proc.stderr, proc.stderr
    assert "no node_modules exists above it either: install the project's packages first (pnpm install)" in proc.stderr
