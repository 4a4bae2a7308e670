"""`schemalint show`: draft-07 side by side and the required-key table."""

from __future__ import annotations

import json

from tests.conftest import ROOT, cli

ZOD = str(ROOT / "examples" / "zod" / "contracts.json")


def test_show_json_lists_required_keys_per_side() -> None:
    proc = cli("show", "present_answer_nested", ZOD, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    view = json.loads(proc.stdout)
    rows = {r["instance_path"]: r for r in view["required"]}
    assert rows["/options"]["advertised"] == []
    assert rows["/options"]["runtime_input"] == ["presentation"]
    assert rows["/options"]["probed"] == ["presentation"]
    assert view["advertised"]["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_show_text_marks_the_differing_lines() -> None:
    proc = cli("show", "present_answer", ZOD)
    assert proc.returncode == 0, proc.stderr
    marked = [line for line in proc.stdout.splitlines() if line.startswith(("+", "~", "-"))]
    assert any('"presentation"' in line for line in marked)
    assert "required keys per instance path" in proc.stdout


def test_show_clean_twin_has_no_marked_lines() -> None:
    proc = cli("show", "present_answer_clean", ZOD)
    assert proc.returncode == 0
    assert not [line for line in proc.stdout.splitlines() if line.startswith(("+ ", "~ ", "- "))]


def test_show_converts_defs_to_definitions(tmp_path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"name": "t", "input_schema": {
        "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}}]))
    view = json.loads(cli("show", "t", str(path), "--format", "json").stdout)
    assert view["advertised"]["properties"]["a"] == {"$ref": "#/definitions/A"}
    assert view["runtime_input"] is None


def test_show_unknown_tool_suggests_close_names() -> None:
    proc = cli("show", "present_answr", ZOD)
    assert proc.returncode == 2 and "did you mean present_answer" in proc.stderr


def test_show_says_what_the_draft7_panel_spells_otherwise(tmp_path) -> None:
    """A real pydantic schema (2020-12: `$defs`, `prefixItems`) as a tool file: the panel shows
    draft-07's spelling, and both outputs say what the tool sends instead."""
    from pydantic import BaseModel

    class Place(BaseModel):
        name: str

    class Args(BaseModel):
        place: Place
        other: Place
        span: tuple[int, int]

    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"name": "t", "input_schema": Args.model_json_schema()}]))
    text = cli("show", "t", str(path))
    assert text.returncode == 0, text.stderr
    notes = [line.strip() for line in text.stdout.splitlines() if line.strip().startswith("note:")]
    assert notes == [
        "note: `$defs` at /$defs is shown as `definitions`, draft-07's spelling; the tool sends `$defs`",
        "note: `prefixItems` at /properties/span/prefixItems is shown as `items`, draft-07's spelling; "
        "the tool sends `prefixItems`",
        "note: 2 `$ref` value(s) `#/$defs/...` shown as `#/definitions/...`; the tool sends `#/$defs/...`",
    ]
    view = json.loads(cli("show", "t", str(path), "--format", "json").stdout)
    assert {"pointer": "/properties/place/$ref", "written": "#/$defs/Place", "shown": "#/definitions/Place"} \
        in view["rewritten_for_draft7"]
    assert "definitions" in view["advertised"] and "$defs" not in view["advertised"]
    # A schema already in draft-07 spelling gets no such note.
    plain = cli("show", "present_answer", ZOD)
    assert "shown as" not in plain.stdout
    assert json.loads(cli("show", "present_answer", ZOD, "--format", "json").stdout)["rewritten_for_draft7"] == []
