"""A numeric bound's inclusive and exclusive keywords are compared as one bound (SD107/SD207).

``{"type": "integer", "exclusiveMaximum": 11}`` and ``{"type": "integer", "maximum": 10}`` accept
the same values; compared keyword by keyword it was a breaking SD107 ("maximum: absent -> 10") and
an SD207. Moving from one keyword to the other is judged by the bound they set together.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli_json


def _diff(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> tuple[str, list[tuple[str, str, str]]]:
    for name, prop in (("old.json", old), ("new.json", new)):
        (tmp_path / name).write_text(json.dumps([{"name": "take", "description": "Take some.", "inputSchema": {
            "type": "object", "properties": {"n": prop}}}]))
    _, report = cli_json("diff", "old.json", "new.json", "--fail-on", "never", cwd=tmp_path)
    [tool] = report["tools"]
    return tool["status"], [(c["code"], c["pointer"].rsplit("/", 1)[-1], c["message"]) for c in tool.get("changes", [])]


@pytest.mark.parametrize(("old", "new"), [
    ({"type": "integer", "exclusiveMaximum": 11}, {"type": "integer", "maximum": 10}),
    ({"type": "integer", "minimum": 1}, {"type": "integer", "exclusiveMinimum": 0}),
    ({"type": "integer", "exclusiveMaximum": 10**20 + 1}, {"type": "integer", "maximum": 10**20}),
    ({"type": "number", "maximum": 10, "exclusiveMaximum": 12}, {"type": "number", "maximum": 10}),
])
def test_the_same_bound_written_another_way_is_no_change(tmp_path: Path, old: Any, new: Any) -> None:
    assert _diff(tmp_path, old, new) == ("same-meaning", [])
    assert _diff(tmp_path, new, old) == ("same-meaning", [])


def test_moving_to_the_other_keyword_is_judged_by_the_bound_they_set(tmp_path: Path) -> None:
    status, changes = _diff(tmp_path, {"type": "number", "exclusiveMaximum": 11}, {"type": "number", "maximum": 10})
    assert changes == [("SD107", "maximum", "upper bound of `n`: < 11 -> <= 10")]
    status, changes = _diff(tmp_path, {"type": "integer", "exclusiveMaximum": 11}, {"type": "integer", "maximum": 12})
    assert changes == [("SD207", "maximum", "upper bound of `n`: <= 10 -> <= 12")]  # was a breaking SD107
    assert status == "changed"


def test_one_keyword_alone_is_compared_as_before(tmp_path: Path) -> None:
    _status, changes = _diff(tmp_path, {"type": "number", "maximum": 10}, {"type": "number", "maximum": 9})
    assert changes == [("SD107", "maximum", "`maximum` of `n`: 10 -> 9")]
