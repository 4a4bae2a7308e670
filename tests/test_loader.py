"""The loader finds tools by shape in every supported format and locates them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check, load
from schemalint.loaders.files.sources import SourceError, expand_sources
from tests.conftest import CORPUS, ROOT, internal_errors, needs_shared


def _write(tmp_path: Path, name: str, value: object) -> str:
    path = tmp_path / name
    path.write_text(value if isinstance(value, str) else json.dumps(value, indent=2))
    return str(path)


def _formats(paths: list[str]) -> dict[str, str]:
    return {t.name: t.origin.format for t in load(paths).tools}


def test_every_example_format_is_recognised() -> None:
    result = load([str(ROOT / "examples")], exclude=["package.json", "package-lock.json"])
    formats = {t.origin.format for t in result.tools}
    assert {"openai-chat", "openai-responses", "anthropic", "gemini", "mcp", "manifest"} <= formats
    assert not result.diagnostics
    # every rule, every target, over every example: no rule crashes (SL999)
    checked = check([str(ROOT / "examples")], targets=["all"])
    assert not internal_errors(checked.diagnostics)


def test_tool_origin_pointer_and_schema_pointer(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.json", {"tools": [
        {"type": "function", "function": {"name": "a", "parameters": {"type": "object"}}},
        {"type": "function", "name": "b", "parameters": {"type": "object"}, "strict": True},
    ]})
    a, b = load([path]).tools
    assert (a.origin.pointer, a.schema_pointer, a.origin.format) == ("/tools/0", "/tools/0/function/parameters",
                                                                     "openai-chat")
    assert (b.origin.pointer, b.schema_pointer, b.origin.format) == ("/tools/1", "/tools/1/parameters",
                                                                     "openai-responses")
    assert b.strict and not a.strict


def test_gemini_both_spellings_and_json_schema_field(tmp_path: Path) -> None:
    path = _write(tmp_path, "g.json", [
        {"functionDeclarations": [{"name": "a", "parameters": {"type": "OBJECT"}}]},
        {"function_declarations": [{"name": "b", "parametersJsonSchema": {"type": "object"}}]},
    ])
    assert _formats([path]) == {"a": "gemini", "b": "gemini-json"}


def test_broken_shapes_are_still_loaded(tmp_path: Path) -> None:
    path = _write(tmp_path, "broken.json", [
        {"type": "function", "function": {"name": "arr", "parameters": [{"name": "x"}]}},
        {"type": "function", "function": {"name": "str", "parameters": "type: object"}},
        {"type": "function", "function": {"name": "enc", "parameters": "{\"type\": \"object\"}"}},
        {"name": "nul", "inputSchema": None},
    ])
    tools = {t.name: t for t in load([path]).tools}
    assert tools["arr"].advertised == [{"name": "x"}]
    assert isinstance(tools["str"].advertised, str)
    # a string holding the JSON text of an object is read as that object (tests/test_schema_views.py)
    assert tools["enc"].advertised == {"type": "object"} and tools["enc"].schema_view == "json-string"
    assert tools["nul"].advertised is None and tools["nul"].schema_path == "/inputSchema"


def test_manifest_carries_runtime_contract() -> None:
    tools = {t.name: t for t in load([str(ROOT / "examples/zod/contracts.json")]).tools}
    tool = tools["present_answer"]
    assert tool.origin.format == "manifest"
    assert tool.runtime is not None and "/presentation" in tool.runtime.refused_when_omitted
    assert tool.schema_pointer.endswith("/advertised")


def test_jsonl_stored_as_json_records_line_numbers(tmp_path: Path) -> None:
    lines = [json.dumps({"id": i, "function": [{"name": f"f{i}", "parameters": {"type": "dict"}}]}) for i in range(3)]
    path = _write(tmp_path, "bfcl.json", "\n".join(lines) + "\n")
    tools = load([path]).tools
    assert [(t.name, t.origin.line, t.origin.pointer) for t in tools] == [
        ("f0", 1, "/function/0"), ("f1", 2, "/function/0"), ("f2", 3, "/function/0")]


def test_tools_nested_deep_in_a_larger_document(tmp_path: Path) -> None:
    doc = [{"name": "server", "description": "not a tool", "tools": {"srv": {"tools": [
        {"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}}}]
    path = _write(tmp_path, "bench.json", doc)
    tools = load([path]).tools
    assert [(t.name, t.origin.pointer) for t in tools] == [("t", "/0/tools/srv/tools/0")]


def test_a_property_named_name_is_not_a_tool(tmp_path: Path) -> None:
    path = _write(tmp_path, "t.json", [{"name": "t", "inputSchema": {"type": "object", "properties": {
        "x": {"type": "object", "properties": {"name": {"type": "string"}, "parameters": {"type": "object"}}}}}}])
    assert [t.name for t in load([path]).tools] == ["t"]


def test_expand_sources_glob_exclude_and_missing(tmp_path: Path) -> None:
    for name in ("a.json", "b.yaml", "c.txt", "sub/d.jsonl", "node_modules/e.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("[]")
    found = {Path(p).name for p in expand_sources([str(tmp_path)])}
    assert found == {"a.json", "b.yaml", "d.jsonl"}
    assert {Path(p).name for p in expand_sources([str(tmp_path)], exclude=["sub"])} == {"a.json", "b.yaml"}
    assert {Path(p).name for p in expand_sources([str(tmp_path / "*.json")])} == {"a.json"}
    with pytest.raises(SourceError, match="no such file"):
        expand_sources([str(tmp_path / "missing.json")])
    with pytest.raises(SourceError, match="matches no file"):
        expand_sources([str(tmp_path / "*.nothing")])


@needs_shared
def test_corpus_tool_counts_match_the_sources(corpus_loaded: Any) -> None:
    """Counts each corpus SOURCE.md states (tools with a schema or argument list)."""
    result = corpus_loaded
    per_source: dict[str, int] = {}
    for tool in result.tools:
        source = Path(tool.origin.file).relative_to(CORPUS).parts[0]
        per_source[source] = per_source.get(source, 0) + 1
    assert per_source["bfcl"] == 9476
    assert per_source["gorilla-openfunctions-v1"] == 112
    assert per_source["livemcpbench"] == 527
    assert per_source["mcp-proxy-snapshots"] == 83
    assert per_source["github-mcp-server"] == 117 + 95 + 101 + 114
    assert per_source["kubernetes-mcp-server"] == 552
    assert per_source["docker-mcp-registry"] == 500  # 357 argument lists + 143 MCP schemas
    # ACEBench: 7,567 definitions, one of which uses `_arguments` (not a schema key we know).
    assert per_source["acebench"] == 7566
    assert not [d for d in result.diagnostics if d.severity.value == "error"]


@needs_shared
def test_no_rule_crashes_on_the_corpus() -> None:
    """Every rule against every provider profile over the whole corpus: no SL999."""
    result = check([str(CORPUS)], targets=["all"])
    assert result.tools > 19_000
    assert not internal_errors(result.diagnostics)


def test_the_modules_note_names_a_module_that_is_not_a_test_or_a_config(tmp_path: Path) -> None:
    # playwright-mcp: 8 .ts files, all tests or playwright.config.ts, and index.js/cli.js: the note
    # said `tests/testserver/index.ts:EXPORT`
    from schemalint.loaders.files.sources import modules_hint

    for rel in ("tests/testserver/index.ts", "tests/a.spec.ts", "tests/b.spec.ts", "tests/fixtures.ts",
                "app.config.ts", "index.js", "cli.js"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("export {};\n")
    note = modules_hint(str(tmp_path))
    assert note is not None and note.startswith(f"{tmp_path} holds 7 TypeScript/JavaScript module(s)"), note
    assert note.endswith(f"e.g. schemalint check '{tmp_path}/**/*.js', or {tmp_path}/index.js (every export; "
                         f"{tmp_path}/index.js:EXPORT for one)"), note
    for rel in ("index.js", "cli.js", "app.config.ts"):  # only tests left: one of them is still named
        (tmp_path / rel).unlink()
    note = modules_hint(str(tmp_path))
    assert note is not None and note.endswith(f"{tmp_path}/tests/testserver/index.ts:EXPORT for one)"), note
    # beside modules that are not tests, the glob leaves the tests out
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "server.ts").write_text("export {};\n")
    (tmp_path / "src" / "server.test.ts").write_text("export {};\n")
    note = modules_hint(str(tmp_path))
    assert note is not None and (f"schemalint check '{tmp_path}/**/*.ts' --exclude '*.spec.ts' --exclude "
                                 "'*.test.ts' --exclude 'tests' "
                                 "(a test module imported outside its runner") in note, note
    assert note.endswith(f"or {tmp_path}/src/server.ts (every export; {tmp_path}/src/server.ts:EXPORT for one)"), note


def test_the_modules_note_prefers_a_module_that_defines_tools_by_whole_words(tmp_path: Path) -> None:
    # exa-mcp-server: `api/mcp.ts` calls initializeMcpServer(...) and registers nothing itself, while
    # `src/stdio.ts` makes the McpServer; morphic: `evals/` holds evaluation harnesses that call tool({.
    from schemalint.loaders.files.sources import modules_hint

    files = {
        "api/mcp.ts": "import { initializeMcpServer } from '../src/handler';\ninitializeMcpServer(s);\n",
        "evals/a/task.ts": "import { tool } from 'ai';\nexport const t = tool({});\n",
        "src/stdio.ts": "const server = new McpServer({ name: 'x' });\n",
        "src/util.ts": "export const x = 1;\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    note = modules_hint(str(tmp_path))
    assert note is not None and note.endswith(
        f"or {tmp_path}/src/stdio.ts (every export; {tmp_path}/src/stdio.ts:EXPORT for one)"), note


def test_a_command_line_spec_is_not_a_docker_registry_tool(tmp_path: Path) -> None:
    """`{name, arguments: [...]}` is the Docker MCP registry's tool shape; a CLI program's command spec
    (`usage`, `options`, `subcommands`, arguments with argparse's `help`) has it too and is no tool.
    Its twin, a registry entry with `desc` arguments (or none), is still one."""
    cli_spec = {"commands": [
        {"name": "push", "description": "Push a note.", "usage": "notes push <text>",
         "arguments": [{"name": "text", "type": "string", "help": "The note."}], "options": []},
        {"name": "remote", "description": "Remotes.", "subcommands": [
            {"name": "show", "description": "Show them.", "arguments": [], "options": []}]},
        {"name": "pull", "description": "Pull notes.", "arguments": [{"name": "since", "help": "A date."}]}]}
    registry = {"tools": [
        {"name": "push_note", "description": "Push a note.", "arguments": [{"name": "text", "type": "string",
                                                                           "desc": "The note."}]},
        {"name": "list_notes", "description": "List notes.", "arguments": []}]}
    assert load([_write(tmp_path, "cli.json", cli_spec)]).tools == []
    tools = load([_write(tmp_path, "tools.json", registry)]).tools
    assert [(t.name, t.origin.format) for t in tools] == [("push_note", "docker-arguments"),
                                                         ("list_notes", "docker-arguments")]


def test_an_mcp_prompt_is_not_a_docker_registry_tool(tmp_path: Path) -> None:
    """A `prompts/list` answer's prompts have `{name, description, arguments: [{name, description,
    required}]}`, the Docker registry's tool shape but for the arguments (no `type`, no `desc`): a
    prompt is a template a user picks, not a tool. Its Docker twin, with `type`/`desc`, still loads."""
    prompts = {"prompts": [{"name": "summarise_diff", "description": "Summarise a diff for a reviewer.",
                            "arguments": [{"name": "diff", "description": "The diff.", "required": True},
                                          {"name": "tone"}]}], "nextCursor": "c2"}
    assert load([_write(tmp_path, "prompts.json", prompts)]).tools == []
    registry = [{"name": "summarise_diff", "description": "Summarise a diff.",
                 "arguments": [{"name": "diff", "type": "string", "desc": "The diff.", "required": True}]}]
    tools = load([_write(tmp_path, "tools.json", registry)]).tools
    assert [(t.name, t.origin.format) for t in tools] == [("summarise_diff", "docker-arguments")]
