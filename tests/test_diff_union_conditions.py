"""A union written beside other keywords is read together with them (Core 2020-12 section 10.2:
every keyword of a schema applies). Two kinds of ``diff`` report follow from that:

- a union whose branches only narrow the schema beside it (``required``, ``minProperties``,
  ``not``, ...) is one condition, added (SD107) or removed (SD207), even when another keyword of
  that schema changed in the same commit; its branches are never reported as schemas accepted or
  refused on their own;
- a union whose branches define shapes is compared branch by branch, each branch with the
  keywords beside it: a ``required`` list beside the union adds to each branch's own.

The old code compared the branches alone when anything else changed too, and reported names
required all along as newly required, and a branch of the removed union as no longer accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.conftest import run_cli

PROPS = {"account": {"type": "string"}, "text": {"type": "string"}, "emoji": {"type": "string"},
         "thread": {"type": "integer"}}


def _tool(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": "post_reply", "description": "Post a reply in a thread.", "inputSchema": schema}]


def _diff(tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> tuple[int, list[tuple[str, str]]]:
    (tmp_path / "old.json").write_text(json.dumps(_tool(old)))
    (tmp_path / "new.json").write_text(json.dumps(_tool(new)))
    proc = run_cli("diff", "old.json", "new.json", "--format", "json", cwd=tmp_path, timeout=120)
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    return proc.returncode, sorted((c["code"], c["pointer"]) for t in report["tools"] for c in t["changes"])


def test_a_condition_union_removed_with_another_keyword_is_loosening_only(tmp_path: Path) -> None:
    plain = {"type": "object", "properties": PROPS, "required": ["account", "thread"]}
    conditioned = {**plain, "oneOf": [{"required": ["text"]}, {"required": ["emoji"]}], "maxProperties": 3}
    code, changes = _diff(tmp_path, conditioned, plain)
    assert changes == [("SD207", "/inputSchema/maxProperties"), ("SD207", "/inputSchema/oneOf")]
    assert code == 0  # nothing a caller sent before is refused now
    code, changes = _diff(tmp_path, plain, conditioned)
    assert changes == [("SD107", "/inputSchema/maxProperties"), ("SD107", "/inputSchema/oneOf")]
    assert code == 1


def test_a_condition_union_beside_a_changed_property_reports_both(tmp_path: Path) -> None:
    plain = {"type": "object", "properties": PROPS, "required": ["account"]}
    fewer = {k: v for k, v in PROPS.items() if k != "thread"}
    conditioned = {"type": "object", "properties": fewer, "required": ["account"],
                   "anyOf": [{"required": ["text"]}, {"not": {"required": ["emoji"]}}]}
    _code, changes = _diff(tmp_path, plain, conditioned)
    assert changes == [("SD102", "/inputSchema/properties/thread"), ("SD107", "/inputSchema/anyOf")]


def test_a_property_change_beside_a_new_condition_union_is_reported_once(tmp_path: Path) -> None:
    # the rest of the schema is compared in a nested classifier, and the walk reaches the changed
    # property by its own location too: each change was reported twice (both ways, anyOf and oneOf)
    plain = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "string"}}}
    narrowed = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    for kw in ("anyOf", "oneOf"):
        conditioned = {**narrowed, kw: [{"required": ["a"]}, {"required": ["b"]}]}
        _code, changes = _diff(tmp_path, plain, conditioned)
        assert changes == [("SD104", "/inputSchema/properties/a/type"), ("SD107", f"/inputSchema/{kw}")]
        _code, changes = _diff(tmp_path, conditioned, plain)
        assert changes == [("SD204", "/inputSchema/properties/a/type"), ("SD207", f"/inputSchema/{kw}")]


def test_required_beside_a_union_of_shapes_adds_to_each_branch(tmp_path: Path) -> None:
    by_text = {"properties": {"text": {"type": "string"}}, "required": ["text"]}
    by_emoji = {"properties": {"emoji": {"type": "string"}}, "required": ["emoji"]}
    union = {"type": "object", "properties": {"account": {"type": "string"}}, "required": ["account"],
             "anyOf": [by_text, by_emoji]}
    text_only = {"type": "object", "properties": {"account": {"type": "string"}, "text": {"type": "string"}},
                 "required": ["account", "text"]}
    _code, changes = _diff(tmp_path, union, text_only)
    # `account` was required in every branch before: only the emoji branch is gone
    assert ("SD103", "/inputSchema/required/0") not in changes
    assert not any(code == "SD103" for code, _ in changes), changes
    assert ("SD109", "/inputSchema/anyOf/1") in changes


def test_word_counts_in_a_description_change_read_as_english(tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text(json.dumps([{"name": "t", "description": "Reply to a thread.",
                                                    "inputSchema": {"type": "object"}}]))
    longer = "Reply quickly and politely to a thread."
    (tmp_path / "new.json").write_text(json.dumps([{"name": "t", "description": longer,
                                                    "inputSchema": {"type": "object"}}]))
    proc = run_cli("diff", "old.json", "new.json", cwd=tmp_path, timeout=120)
    assert "(3 words added, 0 removed)" in proc.stdout, proc.stdout
    (tmp_path / "new.json").write_text(json.dumps([{"name": "t", "description": "Reply now to a thread.",
                                                    "inputSchema": {"type": "object"}}]))
    proc = run_cli("diff", "old.json", "new.json", cwd=tmp_path, timeout=120)
    assert "(1 word added, 0 removed)" in proc.stdout, proc.stdout
