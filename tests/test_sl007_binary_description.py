"""SL007 on a tool description written as YAML ``!!binary``: the loaders keep its base64 text, so
it is not missing, but it is no text either (and a JSON encoder refuses the bytes)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import cli_json

TOOLS = """\
tools:
  - name: sync
    description: !!binary UHVsbCByZW1vdGUgY2hhbmdlcy4=
    input_schema:
      type: object
      properties:
        force: {type: boolean, description: Discard local edits.}
"""


def test_a_binary_tool_description_is_an_error_named_as_binary_data(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(TOOLS)
    code, report = cli_json("check", "tools.yaml", "--select", "SL007", cwd=tmp_path)
    assert code == 1
    [diag] = report["diagnostics"]
    assert (diag["severity"], diag["pointer"], diag["line"]) == ("error", "/tools/0/description", 3)
    assert "binary data (20 bytes, YAML !!binary), not text" in diag["message"]
    assert "!!binary" in diag["hint"]


def test_a_text_description_beside_it_is_still_fine(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(TOOLS.replace("!!binary UHVsbCByZW1vdGUgY2hhbmdlcy4=", "Pull remote changes."))
    code, report = cli_json("check", "tools.yaml", "--select", "SL007", cwd=tmp_path)
    assert (code, report["diagnostics"]) == (0, [])
