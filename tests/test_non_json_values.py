"""Values JSON cannot hold (YAML ``.nan``, ``.inf``/``-.inf``, ``!!binary``, ``!!set``; ``NaN`` read
by Python's JSON reader) through the real command line: SL001 at their pointer and line in every
report format, never Python's ``b'...'`` nor a bare ``NaN``/``Infinity`` token in any output;
``snapshot`` and ``diff`` refuse them (exit 2, one line naming file, line, pointer and tool) and
write nothing; invalid base64 is an SL000 at its line; ``.nan`` inside a string is just text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli, cli_json

TOOLS = """\
- name: get_weather
  description: Current weather for a city; a limit of .nan or .inf is refused.
  input_schema:
    type: object
    properties:
      city:
        type: string
        description: City name, e.g. .nan or .inf (text, not numbers).
      limit:
        type: number
        maximum: .inf
        minimum: -.inf
        default: .nan
      token:
        type: string
        default: !!binary aGVsbG8=
      unit:
        enum: [celsius, !!binary aGk=]
"""

EXPECTED = {  # pointer -> (line, column, value named in the message)
    "/0/input_schema/properties/limit/maximum": (11, 9, "`maximum` is Infinity"),
    "/0/input_schema/properties/limit/minimum": (12, 9, "`minimum` is -Infinity"),
    "/0/input_schema/properties/limit/default": (13, 9, "`default` is NaN"),
    "/0/input_schema/properties/token/default": (16, 9, "`default` is binary data (5 bytes, YAML !!binary)"),
    "/0/input_schema/properties/unit/enum/1": (18, 25, "`enum[1]` is binary data (2 bytes, YAML !!binary)"),
}

PYTHON_BYTES = re.compile(r"""\bb'[^']*'|\bb"[^"]*"|bytearray\(""")
"""Python's spelling of bytes (``b'aGk='``, ``b"..."``), which no output may hold."""

BARE_NON_FINITE = re.compile(r"(?<![\w\"])-?(?:NaN|Infinity)(?![\w\"])")
"""A NaN or an infinity written as a bare token (what ``json.dumps`` writes; no JSON parser reads it)."""


def _strict_json(text: str) -> Any:
    """``text`` parsed as RFC 8259 JSON: a bare ``NaN``/``Infinity`` fails the test."""
    return json.loads(text, parse_constant=lambda token: pytest.fail(f"not JSON: {token}"))


@pytest.fixture()
def tools(tmp_path: Path) -> Path:
    path = tmp_path / "tools.yaml"
    path.write_text(TOOLS, encoding="utf-8")
    return path


def test_check_text_reports_each_value_at_its_line(tools: Path) -> None:
    proc = cli("check", "tools.yaml", cwd=tools.parent)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and not PYTHON_BYTES.search(proc.stdout)
    for pointer, (line, column, named) in EXPECTED.items():
        assert f"tools.yaml:{line}:{column}: error SL001 invalid-schema at {pointer}\n      {named}, which is not " \
               "a JSON value" in proc.stdout
    assert proc.stdout.count("SL001 invalid-schema") == len(EXPECTED)  # one each, no second metaschema message


def test_check_json_and_jsonl(tools: Path) -> None:
    proc = cli("check", "tools.yaml", "--format", "json", cwd=tools.parent)
    assert proc.returncode == 1, proc.stderr
    report = _strict_json(proc.stdout)
    found = {d["pointer"]: (d["line"], d["column"], d["message"]) for d in report["diagnostics"]
             if d["code"] == "SL001"}
    assert set(found) == set(EXPECTED)
    for pointer, (line, column, named) in EXPECTED.items():
        assert found[pointer][:2] == (line, column) and found[pointer][2].startswith(named)
    assert not PYTHON_BYTES.search(proc.stdout)
    lines = cli("check", "tools.yaml", "--format", "jsonl", cwd=tools.parent)
    assert lines.returncode == 1 and not PYTHON_BYTES.search(lines.stdout)
    records = [_strict_json(line) for line in lines.stdout.splitlines()]
    assert {r["pointer"] for r in records if r["code"] == "SL001"} == set(EXPECTED)


def test_check_sarif_and_github(tools: Path) -> None:
    proc = cli("check", "tools.yaml", "--format", "sarif", cwd=tools.parent)
    assert proc.returncode == 1, proc.stderr
    sarif = _strict_json(proc.stdout)
    regions = sorted((r["locations"][0]["physicalLocation"]["region"]["startLine"],
                      r["locations"][0]["physicalLocation"]["region"]["startColumn"])
                     for r in sarif["runs"][0]["results"] if r["ruleId"] == "SL001")
    assert regions == sorted((line, column) for line, column, _ in EXPECTED.values())
    assert not PYTHON_BYTES.search(proc.stdout)
    github = cli("check", "tools.yaml", "--format", "github", cwd=tools.parent)
    assert github.returncode == 1 and not PYTHON_BYTES.search(github.stdout)
    assert github.stdout.count("title=SL001 invalid-schema") == len(EXPECTED)
    assert "::error file=tools.yaml,line=16,col=9,title=SL001 invalid-schema::[get_weather] `default` is binary " \
           "data (5 bytes, YAML !!binary)" in github.stdout


def test_every_rule_on_every_target_keeps_bytes_and_sets_out_of_its_messages(tmp_path: Path) -> None:
    """Binary data and sets where rules read names, types and enums (a property named by a
    ``!!binary`` key, a type list, ``required``): no rule crashes (SL999) or prints ``b'...'``."""
    (tmp_path / "odd.yaml").write_text("""\
- name: odd
  description: Odd values.
  input_schema:
    type: object
    required: [tags]
    properties:
      mode:
        type: [string, !!binary aGk=]
        const: !!binary aGk=
        examples: [!!binary aGk=, -.inf]
      tags: !!set {a, b}
      !!binary aGk=: {type: string}
""", encoding="utf-8")
    for fmt in ("text", "json", "sarif", "github"):
        proc = cli("check", "odd.yaml", "--target", "all", "--format", fmt, cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        if fmt == "sarif":
            codes = {r["ruleId"] for r in _strict_json(proc.stdout)["runs"][0]["results"]}
        elif fmt == "json":
            codes = {d["code"] for d in _strict_json(proc.stdout)["diagnostics"]}
        else:
            codes = set(re.findall(r"\bS[LD]\d{3}\b", proc.stdout))
        assert "SL001" in codes and "SL999" not in codes, (fmt, codes)
        assert not PYTHON_BYTES.search(proc.stdout), fmt
        assert "Traceback" not in proc.stderr
    report = _strict_json(cli("check", "odd.yaml", "--format", "json", cwd=tmp_path).stdout)
    messages = {d["pointer"]: d["message"] for d in report["diagnostics"] if d["code"] == "SL001"}
    assert messages["/0/input_schema/properties/tags"].startswith("`tags` is a set (YAML !!set)")
    assert messages["/0/input_schema/properties"].startswith(
        "`properties` has a key that is binary data (2 bytes, YAML !!binary)")
    assert messages["/0/input_schema/properties/mode/examples/1"].startswith("`examples[1]` is -Infinity")


def test_nan_in_strings_is_text(tmp_path: Path) -> None:
    """``.nan`` and ``.inf`` in a description, a quoted ``".nan"`` default and a ``NaN`` key are
    strings: no SL001, and a snapshot holds them as they are."""
    (tmp_path / "tools.yaml").write_text("""\
- name: ratio
  description: Returns .nan when the ratio is undefined, .inf when the divisor is 0.
  input_schema:
    type: object
    properties:
      NaN:
        type: string
        description: Pass .nan or -.inf as text.
        default: ".nan"
""", encoding="utf-8")
    report = _strict_json(cli("check", "tools.yaml", "--format", "json", cwd=tmp_path).stdout)
    assert [d for d in report["diagnostics"] if d["code"] in ("SL000", "SL001", "SL999")] == []
    proc = cli("snapshot", "tools.yaml", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    snapshot = _strict_json((tmp_path / "snaps" / "ratio.json").read_text(encoding="utf-8"))
    assert snapshot["description"] == "Returns .nan when the ratio is undefined, .inf when the divisor is 0."
    assert snapshot["input_schema"]["properties"]["NaN"]["default"] == ".nan"


@pytest.mark.parametrize(("source", "text", "where", "what"), [
    ("tools.yaml", TOOLS, "tools.yaml:11:9", "Infinity at /0/input_schema/properties/limit/maximum"),
    ("bytes.yaml", "- name: b\n  description: B.\n  input_schema:\n    type: object\n    default: !!binary aGk=\n",
     "bytes.yaml:5:5", "binary data (2 bytes, YAML !!binary) at /0/input_schema/default"),
    ("tools.json", '{"tools": [{"name": "n", "description": "N.", "inputSchema": {"type": "object", '
     '"properties": {"x": {"type": "number",\n "maximum": NaN}}}}]}', "tools.json:2:2",
     "NaN at /tools/0/inputSchema/properties/x/maximum"),
    ("tools.jsonl", '{"name": "a", "description": "A.", "inputSchema": {"type": "object"}}\n'
     '{"name": "c", "description": "C.", "inputSchema": {"type": "object", "default": -Infinity}}\n',
     "tools.jsonl:2:70", "-Infinity at /inputSchema/default"),
])
def test_snapshot_refuses_and_writes_nothing(tmp_path: Path, source: str, text: str, where: str, what: str) -> None:
    (tmp_path / source).write_text(text, encoding="utf-8")
    for extra in ((), ("--check",)):
        proc = cli("snapshot", source, "--dir", "snaps", *extra, cwd=tmp_path)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr and not PYTHON_BYTES.search(proc.stderr)
        assert proc.stderr.startswith(f"schemalint: error: {where}: {what} (tool "), proc.stderr
        assert "is not a JSON value" in proc.stderr and "SL001" in proc.stderr
        assert not (tmp_path / "snaps").exists()


def test_snapshot_leaves_an_existing_directory_as_it_was(tools: Path) -> None:
    good = tools.parent / "good.yaml"
    good.write_text("- name: fine\n  description: Fine.\n  input_schema: {type: object}\n", encoding="utf-8")
    assert cli("snapshot", "good.yaml", "--dir", "snaps", cwd=tools.parent).returncode == 0
    before = {p.name: p.read_bytes() for p in (tools.parent / "snaps").iterdir()}
    proc = cli("snapshot", "good.yaml", "tools.yaml", "--dir", "snaps", cwd=tools.parent)
    assert proc.returncode == 2 and "tools.yaml:11:9" in proc.stderr
    assert {p.name: p.read_bytes() for p in (tools.parent / "snaps").iterdir()} == before
    for data in before.values():
        assert not BARE_NON_FINITE.search(data.decode()) and not PYTHON_BYTES.search(data.decode())


def test_snapshot_of_a_non_json_value_beside_the_tools_is_written(tmp_path: Path) -> None:
    """Only what a snapshot would hold is judged: a NaN outside every tool does not stop it."""
    (tmp_path / "tools.json").write_text('{"score": NaN, "tools": [{"name": "t", "description": "T.", '
                                         '"inputSchema": {"type": "object"}}]}', encoding="utf-8")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _strict_json((tmp_path / "snaps" / "t.json").read_text()) == {
        "name": "t", "description": "T.", "inputSchema": {"type": "object"}}


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_diff_refuses_either_side(tools: Path, fmt: str) -> None:
    old = tools.parent / "old.yaml"
    old.write_text("- name: get_weather\n  description: Current weather.\n  input_schema:\n    type: object\n",
                   encoding="utf-8")
    for sides in (("old.yaml", "tools.yaml"), ("tools.yaml", "old.yaml")):
        proc = cli("diff", *sides, "--format", fmt, cwd=tools.parent)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert proc.stdout == ""
        assert proc.stderr.startswith("schemalint: error: tools.yaml:11:9: Infinity at "
                                      "/0/input_schema/properties/limit/maximum (tool 'get_weather') is not a JSON "
                                      "value"), proc.stderr
        assert "Traceback" not in proc.stderr


def test_diff_of_binary_data_names_it_without_python_syntax(tmp_path: Path) -> None:
    (tmp_path / "old.yaml").write_text("- name: b\n  description: B.\n  input_schema: {type: object, default: x}\n",
                                       encoding="utf-8")
    (tmp_path / "new.yaml").write_text("- name: b\n  description: B.\n  input_schema: {type: object, "
                                       "default: !!binary aGk=}\n", encoding="utf-8")
    proc = cli("diff", "old.yaml", "new.yaml", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "new.yaml:3:32: binary data (2 bytes, YAML !!binary) at /0/input_schema/default" in proc.stderr
    assert not PYTHON_BYTES.search(proc.stderr)


def test_invalid_base64_is_sl000_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text("- name: b\n  description: B.\n  input_schema:\n    type: object\n"
                                         "    default: !!binary \"a$$$\"\n", encoding="utf-8")
    for fmt in ("text", "json", "sarif"):
        proc = cli("check", "tools.yaml", "--format", fmt, cwd=tmp_path)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    report = _strict_json(cli("check", "tools.yaml", "--format", "json", cwd=tmp_path).stdout)
    (diag,) = report["diagnostics"]
    assert (diag["code"], diag["file"], diag["line"], diag["column"]) == ("SL000", "tools.yaml", 5, 14)
    assert "base64" in diag["message"]
    for command in (("snapshot", "tools.yaml", "--dir", "snaps"), ("diff", "tools.yaml", "tools.yaml")):
        proc = cli(*command, cwd=tmp_path)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert proc.stderr.startswith("schemalint: error: tools.yaml:5:14: invalid YAML: failed to decode base64")
    assert not (tmp_path / "snaps").exists()


def test_show_json_writes_no_bare_nan(tools: Path) -> None:
    proc = cli("show", "get_weather", "tools.yaml", "--format", "json", cwd=tools.parent)
    assert proc.returncode == 0, proc.stderr
    view = _strict_json(proc.stdout)
    text = json.dumps(view)
    assert '"NaN"' in text and '"Infinity"' in text and '"-Infinity"' in text and "aGVsbG8=" in text
    assert not PYTHON_BYTES.search(proc.stdout)


def test_a_number_beyond_a_double_is_named_as_such(tmp_path: Path) -> None:
    # 1e400 is a JSON number literal, which every 64-bit float reader makes an infinity: the message
    # must not only say "JSON has no infinities" about a file that holds none as written
    (tmp_path / "tools.json").write_text(
        '[{"name": "t", "description": "d", "inputSchema": {"type": "object", '
        '"properties": {"x": {"type": "number", "maximum": 1e400}}}}]')
    code, report = cli_json("check", "tools.json", "--select", "SL001", cwd=tmp_path)
    assert code == 1
    [diag] = report["diagnostics"]
    assert "beyond a 64-bit float's range, such as 1e400" in diag["message"]
    proc = cli("diff", "tools.json", "tools.json", cwd=tmp_path)
    assert proc.returncode == 2 and "beyond a 64-bit float's range, such as 1e400" in proc.stderr
