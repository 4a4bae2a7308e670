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
from tests.conftest import run_cli


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

    assert codes() == ["SL332"]                      # latest: any output root; x-mcp-header applies
    assert codes("=mcp@2025-11-25") == ["SL331"]     # 2025-11-25: object root; no x-mcp-header yet
    assert codes("mcp@2025-06-18") == ["SL331"]     # the revision named replaces the latest
    assert codes("mcp", "mcp@2025-06-18") == ["SL331", "SL332"]  # both revisions
    proc = run_cli("check", src, "--target", "mcp@2025-11-25", "--select", "SL331", "--format", "json")
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
