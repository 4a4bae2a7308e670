"""Integration: AWS Bedrock Converse ``toolSpec`` tools load as format ``bedrock`` with the
schema at ``/inputSchema/json``, infer the ``bedrock`` target and are located correctly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from schemalint.api import check, load
from schemalint.targets import infer_targets
from tests.conftest import ROOT


def _spec(name: str, schema: Any, **extra: Any) -> dict[str, Any]:
    return {"toolSpec": {"name": name, "description": "Look up an order by id.",
                         "inputSchema": {"json": schema}, **extra}}


OK = {"type": "object", "properties": {"id": {"type": "string", "description": "Order id."}}, "required": ["id"]}


def test_toolspec_loads_as_bedrock(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"toolConfig": {"tools": [_spec("get_order", OK, strict=True)]}}))
    (tool,) = load([str(path)]).tools
    assert tool.origin.format == "bedrock" and tool.advertised == OK and tool.strict
    assert tool.origin.pointer == "/toolConfig/tools/0/toolSpec"
    assert tool.pointer_in_file("/properties/id") == "/toolConfig/tools/0/toolSpec/inputSchema/json/properties/id"
    assert infer_targets(tool) == {"bedrock"}
    assert check([str(path)]).diagnostics == []  # the old MCP reading reported {"json": ...} as a bad root


def test_bedrock_findings_are_located_and_targeted(tmp_path: Path) -> None:
    bad = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([_spec("count.items", bad, strict=True), _spec("nothing", None)], indent=2))
    diags = check([str(path)]).diagnostics
    got = {(d.code, d.pointer) for d in diags}
    assert ("SL006", "/0/toolSpec/name") in got  # Bedrock's own name rule: no dots
    assert ("SL323", "/0/toolSpec/inputSchema/json/properties/n/minimum") in got  # Bedrock strict
    assert ("SL002", "/1/toolSpec/inputSchema/json") in got  # "json": null
    assert all(d.line and d.line > 1 for d in diags)


def test_example_file_has_one_defect_and_a_clean_twin() -> None:
    result = check([str(ROOT / "examples" / "bedrock" / "converse_tools.json")])
    assert result.tools == 2
    assert [(d.code, d.tool) for d in result.diagnostics] == [("SL003", "get_stock_quote")]
