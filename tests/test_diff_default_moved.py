"""SD210: a default moved unchanged between a schema and one branch of its union is one change.

Making a property nullable by wrapping it in ``anyOf`` often takes its ``default`` into the first
branch; before, that was two SD210 (the branch's default "absent -> X" and the property's "X ->
absent"), as if the default had been dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import cli_json

PLAIN = {"type": "integer", "minimum": 1, "default": 10}
WRAPPED = {"anyOf": [{"type": "integer", "minimum": 1, "default": 10}, {"type": "null"}]}


def _diff(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    for name, prop in (("old.json", old), ("new.json", new)):
        (tmp_path / name).write_text(json.dumps([{"name": "page", "description": "List items.", "inputSchema": {
            "type": "object", "properties": {"size": prop}}}]))
    _, report = cli_json("diff", "old.json", "new.json", "--fail-on", "never", cwd=tmp_path)
    [tool] = report["tools"]
    return [c for c in tool["changes"] if c["code"] == "SD210"]


def test_a_default_moved_into_a_branch_is_one_change_where_it_now_stands(tmp_path: Path) -> None:
    [change] = _diff(tmp_path, PLAIN, WRAPPED)
    assert change["pointer"] == "/inputSchema/properties/size/anyOf/0/default"
    assert change["message"] == "default of `size` moved into its `anyOf` branch 0, unchanged (10)"


def test_a_default_moved_out_of_a_branch_is_one_change_where_it_now_stands(tmp_path: Path) -> None:
    [change] = _diff(tmp_path, WRAPPED, PLAIN)
    assert change["pointer"] == "/inputSchema/properties/size/default"
    assert change["message"] == "default of `size` moved out of its `anyOf` branch 0, unchanged (10)"


def test_a_default_moved_and_changed_is_one_change_with_both_values(tmp_path: Path) -> None:
    changed = {"anyOf": [{"type": "integer", "minimum": 1, "default": 20}, {"type": "null"}]}
    [change] = _diff(tmp_path, PLAIN, changed)
    assert change["pointer"] == "/inputSchema/properties/size/anyOf/0/default"
    assert change["message"] == "default of `size` moved into its `anyOf` branch 0 and changed: 10 -> 20"
    [back] = _diff(tmp_path, changed, PLAIN)
    assert back["message"] == "default of `size` moved out of its `anyOf` branch 0 and changed: 20 -> 10"


def test_a_default_kept_beside_a_new_union_is_not_a_move(tmp_path: Path) -> None:
    beside = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": 10}
    assert _diff(tmp_path, PLAIN, beside) == []
