"""Issue 28: what real TypeScript projects needed to load, as kinds (measured on public projects,
docs/typescript.md "Projects measured"): a package's own tsconfig path aliases, a workspace package
that was never built, a folder note that names a module defining tools. Real Node, tsx, ai and zod
from the example project's node_modules; skips without them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests._fixtures_cli import run_cli_here
from tests.conftest import TS_EXAMPLE, cli_json, needs_node

pytestmark = needs_node

TOOLS = """\
import { tool } from "ai";
import { z } from "zod";

export const lookup = tool({
  description: "Look a word up in the dictionary.",
  inputSchema: z.object({ word: z.string() }),
  execute: async ({ word }) => word,
});
"""


@pytest.fixture
def monorepo(tmp_path: Path) -> Path:
    """A workspace checked from its root: packages/agent imports its tools through a `paths` alias
    of its own tsconfig.json, and the root has a tsconfig.json without it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "package.json").write_text('{"name": "root", "private": true}\n')
    (tmp_path / "tsconfig.json").write_text('{"compilerOptions": {"strict": true}}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    agent = tmp_path / "packages" / "agent"
    (agent / "src" / "tools").mkdir(parents=True)
    (agent / "package.json").write_text('{"name": "@acme/agent", "type": "module"}\n')
    (agent / "tsconfig.json").write_text(json.dumps({"compilerOptions": {
        "baseUrl": ".", "moduleResolution": "bundler", "paths": {"@tools": ["./src/tools/index.ts"]}}}))
    (agent / "src" / "tools" / "index.ts").write_text(TOOLS)
    (agent / "src" / "index.ts").write_text('export { lookup } from "@tools";\n')
    (tmp_path / "packages" / "cli" / "src").mkdir(parents=True)
    (tmp_path / "packages" / "cli" / "src" / "index.ts").write_text('console.log("a command line");\n')
    return tmp_path


def test_a_packages_own_tsconfig_aliases_resolve_from_the_workspace_root(monorepo: Path) -> None:
    proc = run_cli_here("check", "packages/agent/src/index.ts", "--format", "json", cwd=monorepo)
    assert "is not a valid package name" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 1, proc.stderr


def test_an_unbuilt_workspace_package_is_named_with_its_build(monorepo: Path) -> None:
    sdk = monorepo / "packages" / "sdk"
    sdk.mkdir()
    (sdk / "package.json").write_text('{"name": "@acme/sdk", "type": "module", "main": "dist/index.js", '
                                      '"exports": {".": "./dist/index.js"}}\n')
    linked = monorepo / "packages" / "agent" / "node_modules" / "@acme"
    linked.mkdir(parents=True)
    (linked / "sdk").symlink_to(sdk, target_is_directory=True)
    (monorepo / "packages" / "agent" / "node_modules" / "ai").symlink_to(TS_EXAMPLE / "node_modules" / "ai")
    (monorepo / "packages" / "agent" / "src" / "uses_sdk.ts").write_text(
        'import { client } from "@acme/sdk";\nexport const c = client;\n')
    proc = run_cli_here("check", "packages/agent/src/uses_sdk.ts", cwd=monorepo)
    assert proc.returncode == 2
    assert "@acme/sdk is a package of this workspace, linked from" in proc.stderr, proc.stderr
    assert "build it first, e.g. pnpm --filter @acme/sdk build" in proc.stderr


def test_the_folder_note_names_a_module_that_defines_tools(monorepo: Path) -> None:
    proc = run_cli_here("check", ".", cwd=monorepo)
    out = proc.stdout + proc.stderr
    assert "packages/agent/src/tools/index.ts:EXPORT" in out, out
    assert "packages/cli/src/index.ts" not in out


def test_a_file_only_a_bundler_loads_is_named_with_the_way_out(monorepo: Path) -> None:
    src = monorepo / "packages" / "agent" / "src"
    (src / "columns.sql").write_text("select 1;\n")
    (src / "queries.ts").write_text('import columns from "./columns.sql";\nexport const q = columns;\n')
    proc = run_cli_here("check", "packages/agent/src/queries.ts", cwd=monorepo)
    assert proc.returncode == 2
    assert 'Unknown file extension ".sql"' in proc.stderr, proc.stderr
    assert "the module imports a .sql file, which the project's bundler loads and Node cannot" in proc.stderr


def test_a_low_level_server_from_a_factory_says_how_to_list_it(monorepo: Path) -> None:
    src = monorepo / "packages" / "agent" / "src"
    (src / "server.ts").write_text(
        'import { Server } from "@modelcontextprotocol/sdk/server/index.js";\n'
        'export function createServer(options: { token: string }) {\n'
        '  return new Server({ name: "x", version: "1" }, { capabilities: { tools: {} } });\n'
        '}\n')
    proc = run_cli_here("check", "packages/agent/src/server.ts:createServer", cwd=monorepo)
    assert proc.returncode == 2
    assert "createServer is a low-level MCP Server" in proc.stderr, proc.stderr
    assert "holds no tool" not in proc.stderr and "--mcp-stdio" in proc.stderr


DTOS = """\
import { z } from "zod";

export const variableSchema = z.object({ value: z.string().optional() });
export const runSchema = z.object({ pipelineId: z.number(), variables: z.record(z.string(), variableSchema) });
"""


def test_a_glob_holds_back_a_module_of_shared_zod_schemas_and_says_so(tmp_path: Path) -> None:
    """A glob over a tools folder that matches a DTO module (bare zod schemas only, the parts of the
    folder's framework tools: azure-devops-mcp's ``pipelines.dto.ts``) does not read them as tools
    without a description; the note counts and names them, and naming the module still reads them."""
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    tools = tmp_path / "src" / "tools"
    tools.mkdir(parents=True)
    (tools / "lookup.ts").write_text(TOOLS)
    (tools / "pipelines.dto.ts").write_text(DTOS)
    code, report = cli_json("check", "src/tools/*.ts", cwd=tmp_path)
    assert code == 0, report
    summary = report["summary"]
    assert summary["tools"] == 1 and summary["tools_by_format"] == {"ai-sdk": 1}, report
    assert not [d for d in report["diagnostics"] if d["code"] == "SL007"], report
    (note,) = [n for n in summary["notes"] if "bare zod schema" in n]
    assert "2 bare zod schema(s) in 1 module(s) matched by 'src/tools/*.ts'" in note
    assert "src/tools/pipelines.dto.ts (2)" in note

    # Named as it is, also beside the glob, the module is never held back (it is imported once).
    from schemalint.loaders.typescript.source import _expand

    assert _expand(["src/tools/*.ts", "./src/tools/pipelines.dto.ts"], str(tmp_path)) == [
        ("src/tools/lookup.ts", "src/tools/*.ts"), ("./src/tools/pipelines.dto.ts", None)]


def test_a_glob_over_zod_schemas_alone_reads_them_as_tools(tmp_path: Path) -> None:
    """Without a framework tool among the modules a glob matches, nothing says the schemas are parts:
    they are read as tools, as a module of models alone is."""
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "a.ts").write_text(DTOS)
    (tmp_path / "schemas" / "b.ts").write_text(
        'import { z } from "zod";\nexport const close = z.object({ id: z.string() }).describe("Close a ticket.");\n')
    _code, report = cli_json("check", "schemas/*.ts", cwd=tmp_path)
    assert report["summary"]["tools"] == 3, report
    assert not report["summary"]["notes"], report
