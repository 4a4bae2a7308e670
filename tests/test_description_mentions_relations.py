"""SL201: a parameter's description naming another parameter it depends on (:mod:`.conditionals`'
``dependencies``) or goes with, excludes, needs or is compared with (:mod:`.pairings`), and what the two
readings share (:mod:`.relations`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.model import Severity
from schemalint.rules.description.mentions import extract_mentions
from schemalint.rules.description.mentions.relations import read_name, subject_ok


def _kinds(text: str, *, property_level: bool = True, is_value: bool = True,
           level: tuple[str, ...] = ()) -> dict[str, str]:
    return {m.token: m.kind for m in extract_mentions(text, property_level=property_level, is_value=is_value,
                                                      level=level)}


@pytest.mark.parametrize(("text", "token", "kind"), [
    ("Only read when `sync_mode` is 'full'.", "sync_mode", "conditional@property"),
    ("Ignored unless follow_links is enabled.", "follow_links", "conditional-word@property"),
    ("Mandatory if 'proxy_kind' is \"socks\".", "proxy_kind", "conditional-quoted@property"),
    ("Applies only when `render_as` == html.", "render_as", "conditional@property"),
    ("Does nothing without `dryRun`.", "dryRun", "conditional@property"),
    ("Optional; needed only when using batchMode.", "batchMode", "conditional-word@property"),
    ("It is only honoured if `strict_tls` is true.", "strict_tls", "conditional@property"),
    ("Must be earlier than `close_time`.", "close_time", "pairing@property"),
    ("Should be on or after valid_from.", "valid_from", "pairing-word@property"),
    ("Must be >= `lowWater`.", "lowWater", "pairing@property"),
    ("Can only be used in conjunction with 'group_by'.", "group_by", "pairing-quoted@property"),
    ("Is incompatible with `sample_rate`.", "sample_rate", "pairing@property"),
    ("This field requires `api_region` to be set.", "api_region", "pairing@property"),
    ("Relies on `cache_dir`.", "cache_dir", "pairing@property"),
])
def test_a_relation_to_another_parameter_names_it(text: str, token: str, kind: str) -> None:
    assert _kinds(text).get(token) == kind


def test_every_name_of_a_pairing_list() -> None:
    got = _kinds("Must be used with `unit_a`, `unit_b` and unit_c.")
    assert {k: got.get(k) for k in ("unit_a", "unit_b", "unit_c")} == {
        "unit_a": "pairing@property", "unit_b": "pairing@property", "unit_c": "pairing-word@property"}


@pytest.mark.parametrize("text", [
    "Only used when sorting.",                                # a plain word: an activity, not a key
    "Required when creating a release.",
    "Ignored unless Verbose is ticked.",                       # a capitalised word: a label
    "Required if 'Custom' is selected.",                       # a capitalised quoted word: a value
    "Only used when `table` is the destination.",              # an ordinary word equated with a thing: a value
    "Only used when `csv` is selected.",                       # what is selected is a value
    "Required when `fast` mode is on.",                        # a name before a noun: a kind of thing
    "Must be later than 'now'.",                               # a value in a comparison
    "Must not exceed `maxLength` characters.",                 # the name does not end its noun phrase
    "Requires the `admin` role.",
    "Requires `ffmpeg`.",                                      # an ordinary word needed: a program
    "Depends on `numpy`.",
    "Only used when `has_more` is true in the previous response.",  # a result field
    "The server ignores it when `retry_after` is set.",        # said of someone else
    "Results are sorted when `order_by` is given.",
    "Items that must be later than `since` are dropped.",      # the subject is not this parameter
])
def test_no_relation_to_a_parameter(text: str) -> None:
    assert _kinds(text) == {}


def test_in_a_tool_description_only_of_a_declared_subject() -> None:
    level = ("end_date", "title")
    assert _kinds("`end_date` must be later than `start_date`.", property_level=False, is_value=False,
                  level=level) == {"start_date": "pairing"}
    assert _kinds("end_date is only used when repeat_mode is set.", property_level=False, is_value=False,
                  level=level) == {"repeat_mode": "conditional-word"}
    # no declared subject: the tool's own text ("must be later" of what?)
    assert _kinds("The result must be later than `start_date`.", property_level=False, is_value=False,
                  level=level) == {}
    assert _kinds("Must be later than `start_date`.", property_level=False, is_value=False, level=level) == {}


def test_a_tool_requirement_names_a_parameter_only_beside_a_declared_one() -> None:
    level = ("project",)
    found = _kinds("Requires `workspace` as well as `project`.", property_level=False, is_value=False, level=level)
    assert found in ({"workspace": "pairing"}, {"workspace": "needs"})  # both forms read it; the first stays
    assert _kinds("Requires `workspace`.", property_level=False, is_value=False, level=level) == {}
    assert _kinds("Requires `gh` CLI.", property_level=False, is_value=False, level=level) == {}


def test_read_name_forms() -> None:
    text = "x `a_b`, 'mode', \"Label\", snake_case, lowerCamel, plain, the `jq` syntax"
    assert read_name(text, text.index("`a_b`")).token == "a_b"  # type: ignore[union-attr]
    assert read_name(text, text.index("'mode'")).style == "-quoted"  # type: ignore[union-attr]
    assert read_name(text, text.index("'mode'"), plain_quoted=False) is None
    assert read_name(text, text.index('"Label"')) is None
    assert read_name(text, text.index("snake_case")).style == "-word"  # type: ignore[union-attr]
    assert read_name(text, text.index("lowerCamel")).token == "lowerCamel"  # type: ignore[union-attr]
    assert read_name(text, text.index("plain")) is None
    assert read_name(text, text.index("`jq`")) is None


def test_subject_ok() -> None:
    text = "Start time. Must be before `end`. The `stop` parameter is ignored when x. GitHub sets it when y."
    assert subject_ok(text, text.index("Must"), True, ())
    assert not subject_ok(text, text.index("Must"), False, ())
    assert subject_ok(text, text.index("ignored"), False, ("stop",))
    assert not subject_ok(text, text.index("ignored"), False, ())
    assert not subject_ok(text, text.index("sets"), True, ())


def _tool(props: dict[str, Any], closed: bool = True) -> list[dict[str, Any]]:
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if closed:
        schema["additionalProperties"] = False
    return [{"name": "export_rows", "description": "Export rows.", "inputSchema": schema}]


def _diags(tmp_path: Path, props: dict[str, Any]) -> list[tuple[Severity, str]]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_tool(props)))
    return [(d.severity, d.message.split("`")[3]) for d in check([str(path)], select=["SL201"]).diagnostics]


def test_a_relation_is_at_most_a_warning(tmp_path: Path) -> None:
    props = {"delimiter": {"type": "string", "description": "Only used when `out_format` is 'csv'."}}
    assert _diags(tmp_path, props) == [(Severity.WARNING, "out_format")]


def test_another_spelling_of_a_declared_name_is_left_to_the_near_miss_reading(tmp_path: Path) -> None:
    # quoted: at the site's severity (the object is closed); a plain word in prose: information
    props = {"outFormat": {"type": "string"},
             "delimiter": {"type": "string", "description": "Only used when `out_format` is 'csv'."}}
    assert _diags(tmp_path, props) == [(Severity.ERROR, "out_format")]
    props["delimiter"]["description"] = "Only used when out_format is csv."
    assert _diags(tmp_path, props) == [(Severity.INFO, "out_format")]
