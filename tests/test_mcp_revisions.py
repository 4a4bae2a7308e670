"""MCP as a target by protocol revision: ``--target mcp@<revision>``, the 2020-12 default dialect of
MCP tools, and the MCP rules (SL330-SL333) on tools listed from a real MCP server."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from schemalint.api import check
from schemalint.schema.dialect import default_dialect, dialect_of
from schemalint.targets import LATEST_MCP, MCP_REVISIONS, TargetError, mcp_revisions, parse_targets
from tests._fixtures_cli import run_cli_here


def test_revision_targets_parse_and_default_to_the_latest() -> None:
    spec = parse_targets(["mcp@2025-11-25", "openai"])
    assert spec.targets == {"mcp", "mcp@2025-11-25", "openai"}
    assert mcp_revisions(spec.targets) == ("2025-11-25",)
    assert mcp_revisions(parse_targets(["mcp"]).targets) == (LATEST_MCP,) == (MCP_REVISIONS[-1],)
    assert mcp_revisions(parse_targets(["mcp", "mcp@2025-06-18"]).targets) == ("2025-06-18", LATEST_MCP)
    assert mcp_revisions({"mcp"}) == (LATEST_MCP,)  # an MCP tool's inferred target: the latest
    assert mcp_revisions({"mcp@2025-11-25", "mcp@2025-06-18"}) == ("2025-06-18", "2025-11-25")
    with pytest.raises(TargetError, match=r"unknown MCP revision 'mcp@2024-01-01'.*mcp@2025-06-18"):
        parse_targets(["mcp@2024-01-01"])


def test_mcp_formats_default_to_2020_12() -> None:
    assert default_dialect("mcp") == default_dialect("mcp-server") == "2020-12"
    assert default_dialect("openai-chat") == default_dialect(None) == "draft-07"
    loose = dialect_of({"$schema": "http://json-schema.org/draft-07/schema"}, None, "2020-12")
    assert (loose.dialect, loose.exact, loose.unknown) == ("draft-07", False, False)
    assert dialect_of({"$schema": "https://json-schema.org/draft/2020-12/schema#"}).exact
    assert dialect_of({}, None, "2020-12").dialect == "2020-12"


def _file(tmp_path: Path, tools: list) -> str:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return str(path)


def test_revision_decides_the_output_root_and_the_header_rules(tmp_path: Path) -> None:
    tool = {"name": "rows", "description": "Lists rows.",
            "inputSchema": {"type": "object", "properties": {"w": {"type": "number", "x-mcp-header": "X-W"}}},
            "outputSchema": {"type": "array", "items": {"type": "object"}}}
    src = _file(tmp_path, [tool])

    def codes(*targets: str) -> list[str]:
        return sorted(d.code for d in check([src], targets=list(targets), select=["SL331", "SL332"]).diagnostics)

    assert codes() == ["SL331", "SL332"]             # latest: any output root, but clients of 2025 drop it
    assert [d.severity.value for d in check([src], select=["SL331"]).diagnostics] == ["warning"]
    assert codes("=mcp@2025-11-25") == ["SL331"]     # 2025-11-25: object root; no x-mcp-header yet
    assert codes("mcp@2025-06-18") == ["SL331"]     # the revision named replaces the latest
    assert codes("mcp", "mcp@2025-06-18") == ["SL331", "SL332"]  # both revisions
    proc = run_cli_here("check", src, "--target", "mcp@2025-11-25", "--select", "SL331", "--format", "json")
    assert proc.returncode == 1
    (diag,) = json.loads(proc.stdout)["diagnostics"]
    assert "MCP 2025-11-25 requires type \"object\"" in diag["message"] and diag["pointer"] == "/tools/0/outputSchema"


def test_annotations_of_a_real_mcp_server(tmp_path: Path) -> None:
    """An MCP Python SDK server whose read-only tool also says destructive: SL333."""
    pytest.importorskip("mcp.server.mcpserver", reason="needs the MCP Python SDK 2.x (MCPServer)")
    (tmp_path / "notes_server.py").write_text(textwrap.dedent('''
        from mcp.server.mcpserver import MCPServer
        from mcp.types import ToolAnnotations

        server = MCPServer("notes")

        @server.tool(annotations=ToolAnnotations(read_only_hint=True, destructive_hint=True))
        def read_note(note_id: str) -> str:
            """Reads one note."""
            return note_id

        @server.tool(annotations=ToolAnnotations(read_only_hint=True))
        def list_notes() -> list[str]:
            """Lists the notes."""
            return []
    '''), encoding="utf-8")
    try:
        result = check(["notes_server:server"], python_path=[str(tmp_path)], select=["SL333", "SL001"])
    finally:
        sys.modules.pop("notes_server", None)
    found = [(d.tool, d.code, d.severity.value) for d in result.diagnostics]
    assert found == [("read_note", "SL333", "warning")]
    assert "readOnlyHint: true and destructiveHint: true" in result.diagnostics[0].message


def test_every_rule_with_an_mcp_profile_names_its_revisions(tmp_path: Path) -> None:
    """Each rule that reports for the `mcp` profile says which revisions it applies to, in its page
    (a `Revisions:` sentence) and in its message (`(MCP ...)`); SL301's name rule starts at 2025-11-25."""
    from schemalint.rule_docs import find_page
    from schemalint.rules.registry import all_rules

    mcp_rules = [r for r in all_rules() if "mcp" in (getattr(r, "targets", ()) or ())]
    assert {r.code for r in mcp_rules} >= {"SL301", "SL304", "SL305", "SL310", "SL316", "SL322", "SL325",
                                           "SL330", "SL331", "SL332", "SL333"}
    for rule in mcp_rules:
        page = find_page(rule)
        assert page is not None and "Revisions:" in Path(page).read_text(encoding="utf-8"), rule.code
    tools = [
        {"name": "get_weather", "description": "Weather.", "inputSchema": {"type": "object", "properties": {
            "city": {"description": "A city."}, "filter[id]": {"type": "string"}}}},
        {"name": "pick", "description": "Pick one.", "inputSchema": {"anyOf": [
            {"type": "object", "properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"b": {"type": "string"}}}]}},
    ]
    src = _file(tmp_path, tools)
    found = check([src], select=["SL305", "SL310", "SL325"]).diagnostics
    assert {d.code for d in found} == {"SL305", "SL310", "SL325"}
    for d in found:  # the rule's own wording names the revisions, or the suffix does
        assert d.message.startswith("[MCP]") and "MCP 20" in d.message, d.message
        assert d.code == "SL305" or d.message.endswith(f"(MCP {LATEST_MCP})"), d.message
    older = check([src], targets=["=mcp@2025-06-18"], select=["SL310"]).diagnostics
    assert [d.message.endswith("(MCP 2025-06-18)") for d in older] == [True]
    # a Gemini declaration forwarded to MCP: ':' is outside MCP's SHOULD pattern (SEP-986, 2025-11-25)
    gemini = tmp_path / "gemini.json"
    gemini.write_text(json.dumps({"tools": [{"functionDeclarations": [{
        "name": "notes:search", "description": "Search notes.",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}}}]}]}), encoding="utf-8")
    named = check([str(gemini)], targets=["mcp"], select=["SL301"]).diagnostics
    assert [d.code for d in named] == ["SL301"] and named[0].message.endswith(f"(MCP {LATEST_MCP})")
    assert check([str(gemini)], targets=["=mcp@2025-06-18"], select=["SL301"]).diagnostics == []


def test_an_output_tuple_closed_with_items_false_is_a_warning(tmp_path: Path) -> None:
    """zod 4 writes a tuple as prefixItems + items: false; a client reading structuredContent with
    draft-07 semantics refuses every element (ScriptedAlchemy/agent-bundle#563)."""
    tuple_ = {"type": "array", "prefixItems": [{"type": "number"}, {"type": "integer"}], "minItems": 2}
    tool = {"name": "stats", "description": "Stats.", "inputSchema": {"type": "object", "properties": {}},
            "outputSchema": {"type": "object", "properties": {"buckets": {"type": "array", "items": {
                **tuple_, "items": False}}}}}
    found = check([_file(tmp_path, [tool])], select=["SL330"]).diagnostics
    assert [(d.code, d.severity.name, d.pointer) for d in found] == [
        ("SL330", "WARNING", "/tools/0/outputSchema/properties/buckets/items/items")]
    assert "prefixItems" in found[0].message and '"maxItems": 2' in (found[0].hint or "")
    clean = {**tool, "outputSchema": {"type": "object", "properties": {"buckets": {"type": "array", "items": {
        **tuple_, "maxItems": 2}}}}}
    assert check([_file(tmp_path, [clean])], select=["SL330"]).diagnostics == []
    same_in_input = {**tool, "inputSchema": tool["outputSchema"], "outputSchema": clean["outputSchema"]}
    assert check([_file(tmp_path, [same_in_input])], select=["SL330"]).diagnostics == []


def test_the_revision_is_a_configuration_key_too(tmp_path: Path) -> None:
    """`target = ["=mcp@2025-11-25"]` in pyproject.toml does what `--target =mcp@2025-11-25` does, and an
    unknown revision there is a configuration error naming the key."""
    tool = {"name": "rows", "description": "Lists rows.", "inputSchema": {"type": "object", "properties": {}},
            "outputSchema": {"type": "array", "items": {"type": "string"}}}
    (tmp_path / "tools.json").write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["=mcp@2025-11-25"]\n', encoding="utf-8")
    proc = run_cli_here("check", "tools.json", "--select", "SL331", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    (diag,) = json.loads(proc.stdout)["diagnostics"]
    assert diag["code"] == "SL331" and "MCP 2025-11-25" in diag["message"]
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["mcp"]\n', encoding="utf-8")
    latest = run_cli_here("check", "tools.json", "--select", "SL331", "--format", "json", cwd=tmp_path)
    (warned,) = json.loads(latest.stdout)["diagnostics"]
    assert latest.returncode == 0 and warned["severity"] == "warning" and "Claude Code" in warned["message"]
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["mcp@2024-01-01"]\n', encoding="utf-8")
    bad = run_cli_here("check", "tools.json", cwd=tmp_path)
    assert bad.returncode == 2 and "target" in bad.stderr and "mcp@2024-01-01" in bad.stderr
