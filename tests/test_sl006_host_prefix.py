"""SL006 on an MCP tool name that a host's prefix takes over the 64 characters the API accepts:
Claude Code calls an MCP tool ``mcp__<server>__<name>``. Without configuration only a name that
fails with every server name (over 56 characters) is reported; the ``mcp_server_name`` option
checks against the name users give the server. A name other rules already report is not
reported twice."""

from __future__ import annotations

import json
from pathlib import Path

from tests._fixtures_cli import run_json_here


def _tools(folder: Path, *names: str) -> None:
    tools = [{"name": n, "description": "Runs the report.", "inputSchema": {"type": "object", "properties": {}}}
             for n in names]
    (folder / "tools.json").write_text(json.dumps({"tools": tools}))


def _names(report: dict) -> list[str]:
    return [d["tool"] for d in report["diagnostics"] if d["code"] == "SL006"]


SHORT = "summarise_quarterly_sales_by_region"  # 35 characters
MIDDLE = "summarise_quarterly_sales_by_region_and_product_line"  # 52
LONG = "summarise_quarterly_sales_by_region_and_product_line_now"  # 56
LONGER = "summarise_quarterly_sales_by_region_and_product_line_today"  # 58


def test_only_a_name_too_long_for_any_server_name_is_reported_by_default(tmp_path: Path) -> None:
    assert [len(n) for n in (SHORT, MIDDLE, LONG, LONGER)] == [35, 52, 56, 58]
    _tools(tmp_path, SHORT, MIDDLE, LONG, LONGER)
    _, report = run_json_here("check", "tools.json", cwd=tmp_path)
    assert _names(report) == [LONGER]
    (found,) = [d for d in report["diagnostics"] if d["code"] == "SL006"]
    assert found["severity"] == "warning" and found["pointer"] == "/tools/3/name"
    assert f"`mcp__<server>__{LONGER}`, over 64 characters whatever the server is called" in found["message"]
    assert "keep MCP tool names to 56 characters or fewer" in found["hint"]


def test_the_configured_server_name_makes_the_check_exact(tmp_path: Path) -> None:
    _tools(tmp_path, SHORT, MIDDLE, LONG)
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint.options.SL006]\nmcp_server_name = "sales-reports"\n')
    _, report = run_json_here("check", "tools.json", cwd=tmp_path)
    # mcp__ + sales-reports + __ = 20 characters: 44 are left for the tool
    assert _names(report) == [MIDDLE, LONG]
    first = next(d for d in report["diagnostics"] if d["code"] == "SL006")
    assert f"`mcp__sales-reports__{MIDDLE}`, 72 characters" in first["message"]
    assert "44 characters or fewer with the server named 'sales-reports'" in first["hint"]


def test_a_name_already_reported_is_not_reported_again(tmp_path: Path) -> None:
    dotted = "sales.summarise_quarterly_sales_by_region_and_product_line"
    _tools(tmp_path, dotted, "x" * 70)
    _, report = run_json_here("check", "tools.json", cwd=tmp_path)
    found = [d for d in report["diagnostics"] if d["code"] == "SL006"]
    assert len(found) == 2 and not any("Claude Code calls" in d["message"] for d in found)


def test_other_formats_are_not_prefixed(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps([{"type": "function", "function": {
        "name": "summarise_quarterly_sales_by_region_and_product_line_today", "description": "Runs the report.",
        "parameters": {"type": "object", "properties": {}}}}]))
    _, report = run_json_here("check", "tools.json", cwd=tmp_path)
    assert _names(report) == []
