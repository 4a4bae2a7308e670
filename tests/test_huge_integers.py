"""Integer literals beyond 64 bits are read exactly, by `check`, `snapshot` and `diff` alike.

orjson reads such a literal as a float (1.2345678901234568e+29), so a snapshot rewrote the bound
and a diff of two bounds that differ beyond the float's precision said "identical".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemalint.loaders.files.documents import loads_json, may_hold_huge_integer
from tests.conftest import cli, cli_json

BIG = 123456789012345678901234567890


@pytest.mark.parametrize("literal", [str(BIG), str(-BIG), str(-(2**63) - 1), str(2**64)])
def test_an_integer_beyond_64_bits_is_read_exactly(literal: str) -> None:
    assert may_hold_huge_integer(literal)
    value = loads_json(f'{{"maximum": {literal}}}')["maximum"]
    assert isinstance(value, int) and value == int(literal)


def test_the_screen_lets_ordinary_documents_through() -> None:
    text = '{"maximum": 999999999999999999, "id": "123456789012345678", "x": 1.5e300}'  # 18 digits
    assert not may_hold_huge_integer(text) and not may_hold_huge_integer(text.encode())
    assert loads_json(text)["maximum"] == 10**18 - 1
    assert loads_json("9223372036854775807") == 2**63 - 1  # 19 digits: screened, read alike
    # a long run of digits in a string (an id) is no number
    assert not may_hold_huge_integer('{"id": "12345678901234567890123"}')
    assert not may_hold_huge_integer('{"a": "say \\"hi\\"",\n "id": "x 12345678901234567890123"}')
    assert loads_json('{"id": "12345678901234567890123"}') == {"id": "12345678901234567890123"}


def test_the_screen_counts_quotes_on_the_line_and_is_unsure_after_an_escaped_backslash() -> None:
    assert may_hold_huge_integer('{"a": "x", "n": 12345678901234567890123}')
    assert may_hold_huge_integer('{"a": "say \\"hi\\"", "n": 12345678901234567890123}')
    assert may_hold_huge_integer('{"a": "C:\\\\", "n": "12345678901234567890123"}')  # unsure: yes
    # unsure costs a walk of the parsed value, which finds no whole float that large here
    assert loads_json('{"a": "C:\\\\", "n": "12345678901234567890123"}')["n"] == "12345678901234567890123"


def _tool(bound: int) -> str:
    return json.dumps({"name": "count", "description": "Count up to a bound.", "input_schema": {
        "type": "object", "properties": {"n": {"type": "integer", "maximum": bound}}}})


def test_snapshot_writes_the_bound_as_written(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_tool(BIG))
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    written = (tmp_path / "snaps" / "count.json").read_text()
    assert f'"maximum": {BIG}' in written


def test_diff_sees_a_bound_change_beyond_the_precision_of_a_float(tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text(_tool(BIG))
    (tmp_path / "new.json").write_text(_tool(BIG + 1))
    (tmp_path / "same.json").write_text(_tool(BIG))
    _, report = cli_json("diff", "old.json", "new.json", "--fail-on", "never", cwd=tmp_path)
    [tool] = report["tools"]
    assert tool["status"] == "changed"
    assert [c["pointer"] for c in tool["changes"]] == ["/input_schema/properties/n/maximum"]
    _, report = cli_json("diff", "old.json", "same.json", cwd=tmp_path)
    assert [t["status"] for t in report["tools"]] == ["identical"]
