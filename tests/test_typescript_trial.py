"""What a fresh-user trial of the TypeScript support found on real repositories (issue 16): CommonJS
projects (most Next.js apps), globs as a diff side, --exclude for globs, the esbuild error detail,
AI SDK agents, the help text, the directory note and the probe report.

Real Node on the example project's own packages (examples/typescript/node_modules, linked into
tmp projects), as in tests/test_typescript.py; skipped without Node, a failure under
SCHEMALINT_REQUIRE_NODE=1.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import TS_EXAMPLE, cli, cli_json, needs_node

pytestmark = needs_node

TOOLS = """import { tool } from "ai";
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

export const sum = tool({
  description: "Add two numbers.",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
});

export const table = {
  search: tool({ description: "Search the docs.", inputSchema: z.object({ q: z.string() }) }),
};

export function createServer() {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("lookup", { description: "Look a word up.", inputSchema: { word: z.string() } },
    async () => ({ content: [] }));
  return server;
}
"""


def _project(root: Path, package: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "package.json").write_text(package + "\n")
    (root / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    return root


@pytest.fixture
def cjs(tmp_path: Path) -> Path:
    """A project without "type": "module" (tsx loads its .ts files as CommonJS)."""
    return _project(tmp_path / "cjs", '{"name": "cjs-project"}')


@pytest.fixture
def esm(tmp_path: Path) -> Path:
    """A project with "type": "module"."""
    return _project(tmp_path / "esm", '{"type": "module"}')


def _tools(source: str, cwd: Path) -> list[str]:
    """The tool names ``snapshot SOURCE`` writes (one file per tool), sorted."""
    out = cwd / ("snaps-" + re.sub(r"[^\w.-]", "-", source))
    out.mkdir()
    proc = cli("snapshot", source, "--dir", str(out), cwd=cwd)
    assert proc.returncode == 0, (source, proc.stderr)
    return sorted(p.stem for p in out.glob("*.json"))


def _tools_each(sources: list[str], cwd: Path) -> list[list[str]]:
    """The tool names of each of ``sources`` (sorted, one list per source), all imported in one Node
    worker as one ``check`` of several sources imports them (the loader's own
    :class:`~schemalint.loaders.typescript.source.PendingTypeScript`): a Node start with tsx and the
    packages costs seconds of CPU, one per source was most of this module's time."""
    import os

    from schemalint.loaders.typescript.source import PendingTypeScript

    old = os.getcwd()
    os.chdir(cwd)  # as the engine makes it, from the folder the command runs in
    try:
        pending = PendingTypeScript(sources)
        assert pending.worker is not None and len(pending.pending) == len(sources)
        try:
            return [sorted(t.name for t in pending.worker.finish_load(one)[0]) for one in pending.pending]
        finally:
            pending.close()
    finally:
        os.chdir(old)


# -- 1. CommonJS: named exports reached through `default` (module.exports) --------------------


def test_named_dotted_and_factory_exports_of_a_commonjs_module(cjs: Path, esm: Path) -> None:
    expected = {"tools.ts:sum": ["sum"], "tools.ts:table": ["search"], "tools.ts:table.search": ["search"],
                "tools.ts:createServer": ["lookup"], "tools.ts": ["search", "sum"]}
    for project in (cjs, esm):  # the same tools whether tsx loads the file as CommonJS or as an ES module
        (project / "tools.ts").write_text(TOOLS)
        wanted = {**expected, "tools.ts:default.sum": ["sum"]} if project is cjs else expected  # worked before
        got = dict(zip(wanted, _tools_each(list(wanted), project), strict=True))
        assert got == wanted, project.name
    assert _tools("tools.ts:createServer", esm) == ["lookup"]  # and through the command, in a worker of its own


def test_a_missing_export_lists_the_exports_that_exist(cjs: Path, esm: Path) -> None:
    for project in (cjs, esm):
        (project / "tools.ts").write_text(TOOLS)
        proc = cli("check", "tools.ts:summ", cwd=project)
        assert proc.returncode == 2
        line = proc.stderr.strip()
        m = re.fullmatch(r'schemalint: error: tools\.ts:summ: the module has no export "summ" \(its exports: (.*)\)',
                         line)
        assert m, line
        exports = m.group(1).split(", ")
        assert {"sum", "table", "createServer"} <= set(exports), line
        assert len(exports) == len(set(exports)), line
        proc = cli("check", "tools.ts:table.find", cwd=project)
        assert proc.returncode == 2
        assert proc.stderr.strip() == ('schemalint: error: tools.ts:table.find: the module has no export "table.find": '
                                       'table has no key "find" (its keys: search)')


# -- 6. the esbuild error behind "Transform failed" -----------------------------------------------


def test_a_transform_error_keeps_esbuilds_message_file_and_line(cjs: Path) -> None:
    (cjs / "tla.ts").write_text('import { z } from "zod";\nconst k = await Promise.resolve(1);\n'
                                "export const A = z.object({ a: z.string() });\n")
    proc = cli("check", "tla.ts", cwd=cjs)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("schemalint: error: tla.ts: cannot import: Error: Transform failed with 1 error: "
                               "tla.ts:2:"), lines[0]
    assert "Top-level await" in lines[0] and str(cjs) not in lines[0]


# -- 2. a glob as a side of diff ------------------------------------------------------------------


def test_a_typescript_glob_is_a_diff_side(esm: Path) -> None:
    (esm / "tools").mkdir()
    (esm / "tools" / "a.ts").write_text(TOOLS)
    (esm / "tools" / "b.ts").write_text(TOOLS.replace("sum", "total").replace("createServer", "makeServer")
                                        .replace('"lookup"', '"define"').replace("search:", "find:"))
    proc = cli("snapshot", "tools/*.ts", "--dir", "snaps", cwd=esm)
    assert proc.returncode == 0, proc.stderr
    for new in ("tools/*.ts", "tools/*.ts:", "tools/**/*.ts"):
        code, report = cli_json("diff", "snaps", new, cwd=esm)
        assert code == 0, (new, report)
        assert {t["status"] for t in report["tools"]} == {"identical"}, new
        assert sorted(t["tool"] for t in report["tools"]) == ["find", "search", "sum", "total"], new
    code, report = cli_json("diff", "tools/a.ts:table", "tools/*.ts:table", "--fail-on", "never", cwd=esm)
    assert {(t["tool"], t["status"]) for t in report["tools"]} == {("search", "identical"), ("find", "added")}
    proc = cli("diff", "snaps", "nothing/*.ts", cwd=esm)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "schemalint: error: nothing/*.ts: the pattern matches no file"


# -- 5. --exclude (and the configuration's exclude) for the modules a glob matches ---------------


def test_exclude_leaves_out_modules_a_glob_matches(esm: Path) -> None:
    (esm / "src" / "tools").mkdir(parents=True)
    (esm / "src" / "tools" / "a.ts").write_text(TOOLS)
    boom = 'throw new Error("imported although excluded");\n'
    (esm / "src" / "index.ts").write_text(boom)
    (esm / "src" / "tools" / "index.ts").write_text(boom)
    proc = cli("check", "src/**/*.ts", cwd=esm)
    assert proc.returncode == 2 and "imported although excluded" in proc.stderr
    for excluded in (["src/index.ts", "src/tools/index.ts"], ["**/index.ts"], ["index.ts"]):
        args = [a for pattern in excluded for a in ("--exclude", pattern)]
        code, report = cli_json("check", "src/**/*.ts", *args, cwd=esm)
        assert code == 0, (excluded, report)
        assert report["summary"]["files"] == 1 and report["summary"]["tools"] == 2, excluded  # no factory is called
    (esm / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["src/**/*.ts"]\nexclude = ["index.ts"]\n')
    code, report = cli_json("check", cwd=esm)
    assert code == 0 and report["summary"]["tools"] == 2
    assert _tools("src/**/*.ts", esm) == ["search", "sum"]  # snapshot: the configured exclude too
    (esm / ".gitignore").write_text("node_modules\nsnaps-*\n")
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "one"]):
        subprocess.run(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args], cwd=esm, check=True,
                       capture_output=True)
    code, report = cli_json("diff", "--base", "HEAD", cwd=esm)  # both sides, the old one from a worktree
    assert code == 0 and sorted((t["tool"], t["status"]) for t in report["tools"]) == [
        ("search", "identical"), ("sum", "identical")], report
    # Every module excluded: nothing is imported, no tools.
    code, report = cli_json("check", "src/**/index.ts", cwd=esm)
    assert code == 0 and report["summary"]["tools"] == 0


# -- 8. AI SDK agents ----------------------------------------------------------------------------


def test_an_ai_sdk_agent_is_read_through_its_tools(esm: Path) -> None:
    version = json.loads((TS_EXAMPLE / "node_modules" / "ai" / "package.json").read_text())["version"]
    assert version.startswith("6."), version
    (esm / "tools.ts").write_text(TOOLS)
    (esm / "agent.ts").write_text(
        'import { ToolLoopAgent } from "ai";\nimport { sum, table } from "./tools.ts";\n\n'
        'export const agent = new ToolLoopAgent({ model: "openai/gpt-4o", tools: { sum, ...table } });\n'
        "export async function createAgent() {\n  return agent;\n}\n")
    sources = ["agent.ts:agent", "agent.ts:createAgent", "agent.ts"]
    assert _tools_each(sources, esm) == [["search", "sum"]] * 3


# -- 3. help, 4. the directory note --------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "show", "probe", "snapshot", "diff"])
def test_every_command_help_names_typescript_sources(command: str) -> None:
    proc = cli(command, "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "file.ts:EXPORT" in text and "tsx" in text and "Node" in text, text


def test_a_directory_of_modules_says_how_to_name_them(esm: Path) -> None:
    (esm / "src").mkdir()
    (esm / "src" / "server.ts").write_text(TOOLS)
    (esm / "src" / "types.d.ts").write_text("export type A = string;\n")
    code, report = cli_json("check", "src/", cwd=esm)
    assert code == 0 and report["summary"]["tools"] == 0
    assert report["summary"]["notes"] == [
        "no tool definitions found in src/",
        "src/ holds 1 TypeScript/JavaScript module(s), which are read only when named (a module is never imported "
        "implicitly): e.g. schemalint check 'src/**/*.ts', or src/server.ts (every export; src/server.ts:EXPORT "
        "for one)"]
    (esm / "src" / "server.ts").unlink()
    code, report = cli_json("check", "src", cwd=esm)
    assert report["summary"]["notes"] == ["no tool definitions found in src"]  # a declaration file is no module


# -- 7. the probe report -------------------------------------------------------------------------


def test_probe_text_lines_name_file_line_and_tool(esm: Path) -> None:
    (esm / "refine.ts").write_text(
        'import { tool } from "ai";\nimport { z } from "zod";\n\n'
        "export const updatePlayer = tool({\n  description: \"Update a player.\",\n"
        "  inputSchema: z.object({ name: z.string(), money: z.number().optional(), jail: z.boolean().optional() })\n"
        '    .refine((v) => v.money !== undefined || v.jail !== undefined, { message: "money or jail" }),\n});\n')
    proc = cli("probe", "refine.ts", "--max-examples", "0", cwd=esm)
    assert proc.returncode == 1, proc.stderr
    lines = [line for line in proc.stdout.splitlines() if "SL107" in line]
    assert lines == ["refine.ts:4:1: error SL107 probe-refusal [updatePlayer]"], proc.stdout
    proc = cli("probe", "shop_tools:", "--python-path", "examples/pydantic", "--max-examples", "0")
    lines = [line for line in proc.stdout.splitlines() if "SL107" in line]
    assert lines and all(re.fullmatch(r"examples/pydantic/shop_tools\.py:\d+:1: error SL107 probe-refusal "
                                      r"\[\w+\]( at /\S+)?", line) for line in lines), lines
    assert all("  " not in line and not line.endswith(" ") for line in proc.stdout.splitlines()
               if "SL107" in line), proc.stdout


# -- 9. session 23: `export default` of a CommonJS module, zod 3's strip objects -----------------

DEFAULT_FACTORY = """import { z } from "zod";

const refundTool = () => ({
  refund: { description: "Refund a payment.", inputSchema: z.object({ payment: z.string() }) },
});
export const note = "a named export beside the default one";
export default refundTool;
"""


def test_default_names_the_default_export_in_a_commonjs_module_too(cjs: Path, esm: Path) -> None:
    # tsx compiles `export default X` of a CommonJS project to module.exports.default; import() shows
    # module.exports as `default`, so `:default` used to name module.exports ("holds no tool")
    for project in (cjs, esm):
        (project / "tools.ts").write_text(DEFAULT_FACTORY)
    assert _tools("tools.ts:default", esm) == ["refund"]
    # and what worked before still works (one worker for both)
    assert _tools_each(["tools.ts:default", "tools.ts:default.default"], cjs) == [["refund"], ["refund"]]
    proc = cli("check", "tools.ts:default.note", cwd=cjs)  # module.exports keeps its other keys
    assert proc.returncode == 2 and "note holds no tool" in proc.stderr, proc.stderr


ZOD3_TOOLS = """import { tool } from "ai";
import { z } from "zod3";

export const refund = tool({
  description: "Refund a payment.\\n\\nArguments:\\n- payment (str): the payment id.\\n"
    + "- why (str, optional): the reason.",
  inputSchema: z.object({ payment: z.string() }),
});
export const close = tool({
  description: "Close a ticket.\\n\\nArguments:\\n- ticket (str): the ticket id.\\n- why (str, optional): the reason.",
  inputSchema: z.object({ ticket: z.string() }).strict(),
});
"""


def test_a_zod_3_strip_object_is_open_on_the_runtime_side(esm: Path) -> None:
    # zod-to-json-schema writes additionalProperties: false for a default (strip) object, whose
    # safeParse accepts an undeclared key and drops it; SL201 said "the tool's runtime refuses" it
    (esm / "tools.ts").write_text(ZOD3_TOOLS)
    tools = {t.name: t for t in _load_tools("tools.ts", esm)}
    assert tools["refund"].advertised["additionalProperties"] is False  # what the AI SDK sends: unchanged
    assert "additionalProperties" not in tools["refund"].runtime.input
    assert tools["close"].runtime.input["additionalProperties"] is False
    code, report = cli_json("check", "tools.ts", cwd=esm)
    assert code == 1
    found = {d["tool"]: d["message"] for d in report["diagnostics"] if d["code"] == "SL201"}
    assert set(found) == {"refund", "close"}, report["diagnostics"]
    assert "the tool's own runtime accepts it and silently drops `why`" in found["refund"]
    assert "the tool's runtime refuses undeclared keys there" in found["close"]


def _load_tools(source: str, cwd: Path) -> list:
    """The tools ``engine.load`` gives for ``source`` in ``cwd``."""
    import os

    from schemalint.engine import load

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return list(load([source]).tools)
    finally:
        os.chdir(old)
