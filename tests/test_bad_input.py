"""Bad input gets a located diagnostic or a clear error, never a traceback, and is never written."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli, cli_json


def _sl000(report: dict) -> list[dict]:
    return [d for d in report["diagnostics"] if d["code"] == "SL000"]


def test_invalid_json_is_sl000_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('[\n  {"name": "a", "inputSchema": {"type": "object",}}\n]\n')
    code, report = cli_json("check", str(path))
    (diag,) = _sl000(report)
    assert code == 1
    assert (diag["line"], diag["column"]) == (2, 50)
    assert diag["file"] == str(path) and "invalid JSON" in diag["message"]


def test_invalid_utf8_names_the_byte(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'[{"name": "caf\xe9", "inputSchema": {"type": "object"}}]')
    code, report = cli_json("check", str(path))
    (diag,) = _sl000(report)
    assert code == 1 and "invalid UTF-8" in diag["message"] and "0xe9" in diag["message"]
    assert (diag["line"], diag["column"]) == (1, 15)


def test_empty_file_is_a_warning_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("")
    code, report = cli_json("check", str(path))
    (diag,) = _sl000(report)
    assert code == 0 and diag["severity"] == "warning" and "empty" in diag["message"]


def test_yaml_alias_bomb_is_refused(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    code, report = cli_json("check", str(path))
    (diag,) = _sl000(report)
    assert code == 1 and "alias" in diag["message"]


def test_invalid_yaml_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("tools:\n  - name: a\n    input_schema: {type: object\n")
    _, report = cli_json("check", str(path))
    (diag,) = _sl000(report)
    assert diag["line"] is not None and "invalid YAML" in diag["message"]


def test_schema_nested_5000_levels_deep(tmp_path: Path) -> None:
    depth = 5000
    schema = '{"type": "object", "properties": {"x": ' * depth + '{"type": "string"}' + "}}" * depth
    path = tmp_path / "deep.json"
    path.write_text('[{"name": "deep", "description": "d", "inputSchema": ' + schema + "}]")
    proc = cli("check", str(path), "--format", "json")
    assert "Traceback" not in proc.stderr and "RecursionError" not in proc.stderr
    assert proc.returncode in (0, 1)
    assert json.loads(proc.stdout)["summary"]["tools"] == 1


def test_cyclic_ref_terminates(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"$ref": "#/definitions/Node"}},
              "definitions": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/definitions/Node"},
                                                                        "self": {"$ref": "#"}}}}}
    path = tmp_path / "cycle.json"
    path.write_text(json.dumps([{"name": "cyc", "description": "d", "inputSchema": schema}]))
    proc = cli("check", str(path), "--format", "json")
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr


def test_large_file_of_50_mb(tmp_path: Path) -> None:
    tool = {"name": "t", "description": "x" * 200, "inputSchema": {"type": "object", "properties": {
        f"p{i}": {"type": "string", "description": "y" * 100} for i in range(40)}}}
    blob = json.dumps(tool)
    count = 50 * 1024 * 1024 // len(blob) + 1
    path = tmp_path / "huge.json"
    with path.open("w") as fh:
        fh.write("[")
        for i in range(count):
            fh.write(("," if i else "") + blob.replace('"t"', f'"t{i}"', 1))
        fh.write("]")
    assert path.stat().st_size >= 50 * 1024 * 1024
    proc = cli("check", str(path), "--format", "json")
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["summary"]["tools"] == count


def test_missing_path_is_exit_2_with_a_clear_message(tmp_path: Path) -> None:
    proc = cli("check", str(tmp_path / "nope.json"))
    assert proc.returncode == 2
    assert "no such file or directory" in proc.stderr and "Traceback" not in proc.stderr


def test_directory_without_tools_says_so(tmp_path: Path) -> None:
    (tmp_path / "data.json").write_text('{"hello": "world"}')
    proc = cli("check", str(tmp_path))
    assert proc.returncode == 0
    assert "no tool definitions found" in proc.stdout


@pytest.mark.parametrize("content", [b'[{"name": "a", "inputSchema": {"type": "object"}}]', b"{not json", b"\xff\xfe"])
def test_sources_are_never_written(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "tools.json"
    path.write_bytes(content)
    before = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    cli("check", str(path), "--format", "json")
    cli("check", str(path))
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tools.json"]


def test_deep_yaml_and_json_beyond_the_limit_are_sl000(tmp_path: Path) -> None:
    fine = tmp_path / "fine.yaml"
    fine.write_text("a: " + "[" * 600 + "]" * 600 + "\n")
    too_deep_yaml = tmp_path / "deep.yaml"
    too_deep_yaml.write_text("a: " + "[" * 3000 + "]" * 3000 + "\n")
    too_deep_json = tmp_path / "deep.json"
    too_deep_json.write_text("[" * 300_000 + "]" * 300_000)
    code, report = cli_json("check", str(fine), str(too_deep_yaml), str(too_deep_json))
    assert code == 1
    flagged = {Path(d["file"]).name: d["message"] for d in _sl000(report)}
    assert set(flagged) == {"deep.yaml", "deep.json"}
    assert "nesting" in flagged["deep.yaml"] and "nested deeper" in flagged["deep.json"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux) to make writing fail")
@pytest.mark.parametrize("args", [("check", "examples"), ("rules",),
                                  ("diff", "examples/mcp/tools.jsonl", "examples/mcp/tools.jsonl")])
def test_output_that_cannot_be_written_is_exit_2_without_traceback(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "schemalint", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "No space left on device" in proc.stderr and "Traceback" not in proc.stderr
