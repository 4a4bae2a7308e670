"""SL201 on the wording of real tool code (issue 13): the false-alarm kinds found on Python MCP
servers and SDK examples, and the recall items (near-miss spellings, wrong level).

Every description below is written for this test, modelled on a kind seen in real code; the
tools go through the real loader and rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.model import Diagnostic, Severity

CODES = ["SL201", "SL202"]


def _mcp(description: str, properties: dict[str, Any], *, closed: bool = False, name: str = "do_it",
         **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    schema.update(extra)
    return {"name": name, "description": description, "inputSchema": schema}


def _run(tmp_path: Path, tools: list[dict[str, Any]], codes: list[str] = CODES) -> list[Diagnostic]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    return check([str(path)], select=codes).diagnostics


S = {"type": "string"}

# ------------------------------------------------------------------ false-alarm kinds

FALSE_KINDS = {
    "shorthand value string": (
        "Modify the shard layout of a replication group. The configuration uses the shorthand "
        "syntax: ReplicaGroupId=string,NewLayout={PrimaryZone=string,ReplicaZones=[string]}.",
        {"replication_group": S, "layout": {"type": "array", "items": S}},
    ),
    "key=value pairs": (
        "Attach labels to the resource. Labels are written as Label=value,Label2=value2 pairs.",
        {"resource": S, "labels": S},
    ),
    "word touching @": (
        'Run a parameterised query, e.g. SELECT * FROM t WHERE @row_format = "compact". '
        "Declare each @query_param = value in the text.",
        {"sql": S},
    ),
    "condition on a record": (
        "List accounts flagged for review (review_cause = 'fresh_signup' or review_cause = "
        "'chargeback'), newest first.",
        {"limit": {"type": "integer"}},
    ),
    "example response block": (
        "Look up a shipment.\n\nExample response:\nShipment(tracking_code='1Z9', carrier_name='UPS', "
        "eta_days=3)",
        {"order": S},
    ),
    "list of response fields": (
        "Filter by the team parameter; the result lists `user_id` and `display_name` for each member.",
        {"team": S},
    ),
    "typed response fields": (
        "Find users by team.\nReturns: user_id=str, display_name=str, last_login_at=datetime",
        {"team": S},
    ),
    "response fields block": (
        "Fetch a forecast.\n\nArgs:\n    city: the city\n\nResult fields:\n    temp_max: highest\n"
        "    temp_min: lowest\n",
        {"city": S},
    ),
    # kinds found on MCP servers published on npm (issue 26, reviewed in real_repos_reviewed.json)
    "result field named again outside the returns section": (
        "Submit a rating.\n\n**Returns:** `{ ok, refundId, limitHit? }`\n\nStop for today when you see "
        "`limitHit: true`.",
        {"rating": S},
    ),
    "a colon inside a code span ends no sentence": (
        "Submitting twice returns `duplicate: true` with `charged: 0`.",
        {"id": S},
    ),
    "another tool's parameter after 'with'": (
        "If the page is unknown, use `list_pages` with a `prefix` parameter first; or use the 'open_page' "
        "tool with the page_ref.",
        {"url": S},
    ),
    "a key of a named thing after 'with'": (
        "For typed exports add a `tsv` format with `separator: \"tab\"` to the job's options.",
        {"url": S, "options": {"type": "object"}},
    ),
    "keys of a nested JSON value": (
        'Schedule a job, e.g. {"name": "nightly", "options": {"cron": "0 3 * * *", "zone": "UTC"}}.',
        {"name": S, "options": {"type": "object"}},
    ),
    "last item of a such-as list": (
        "Use `raw` only for rare needs such as proxies, retries, custom headers, or manual `backoffMs` tuning.",
        {"raw": {"type": "object"}, "url": S},
    ),
    "items of a statement about the result": (
        "Each entry in `items[]` has `id`, `state`, optional `score` when ranking ran.",
        {"query": S},
    ),
}


@pytest.mark.parametrize("kind", sorted(FALSE_KINDS))
def test_false_alarm_kind_is_quiet(tmp_path: Path, kind: str) -> None:
    desc, props = FALSE_KINDS[kind]
    others = [_mcp("Another tool of the server.", {}, name=n) for n in ("list_pages", "open_page")]
    assert _run(tmp_path, [_mcp(desc, props, closed=True), *others]) == []


def test_keys_of_a_value_that_accepts_any_key_are_its_content(tmp_path: Path) -> None:
    """The description of an array of free-form objects (a pipeline of stages) names the stages'
    keys; "the `x` parameter" there still names a parameter."""
    stages = {"type": "array", "items": {"anyOf": [{"type": "object", "properties": {"$match": {"type": "object"}}},
                                                   {"type": "object", "additionalProperties": {}}]},
              "description": "Stages to run.\n- Set `keepTop` as the number of documents `$rerank` keeps."}
    assert _run(tmp_path, [_mcp("Run a pipeline.", {"stages": stages, "db": S}, closed=True)]) == []
    stages = dict(stages, description="Stages to run. Set the `dryRun` parameter to only plan them.")
    diags = _run(tmp_path, [_mcp("Run a pipeline.", {"stages": stages, "db": S}, closed=True)])
    assert [d.message.split("`")[3] for d in diags] == ["dryRun"]


@pytest.mark.parametrize("desc,token", [
    ("Run it. Call it with `cadence: \"hourly\"` to set how often.", "cadence"),
    ('Search. Example: {"query": "refunds", "top_k": 5}', "top_k"),
    ("Rate a search.\n\nReturns: `{ ok }`\n\nAlways include a `reason` with a bad rating.", "reason"),
    ("Fetch a page, such as a product page, and include `locale` so prices come localised.", "locale"),
])
def test_kinds_above_leave_requests_reported(tmp_path: Path, desc: str, token: str) -> None:
    diags = _run(tmp_path, [_mcp(desc, {"query": S, "url": S, "searchId": S}, closed=True)])
    assert token in [d.message.split("`")[1] for d in diags]


def test_assignment_to_an_unknown_key_still_reported(tmp_path: Path) -> None:
    """The quiet kinds above must not silence a real `x=value` instruction."""
    diags = _run(tmp_path, [_mcp("Pass page_size=50 to get bigger pages.", {"limit": S}, closed=True)])
    assert [d.message.split("`")[1] for d in diags] == ["page_size"]


# ------------------------------------------------------------------ near-miss spellings

EDIT_PROPS = {"filePath": S, "oldString": S, "newString": S, "replaceAll": {"type": "boolean"}}


def test_near_miss_names_in_tool_description(tmp_path: Path) -> None:
    desc = (
        "Performs exact string replacements in a file. The edit fails if old_string is not unique; "
        "use `replace_all` to change every instance. The file_path must be absolute."
    )
    diags = _run(tmp_path, [_mcp(desc, EDIT_PROPS, closed=True, required=["filePath", "oldString"])])
    got = {(d.code, d.severity, d.message.split("`")[1]) for d in diags}
    # a requirement on the value ("must be absolute") and an instruction (`use replace_all`) ask the
    # model to send the name; a condition in prose ("fails if old_string ...") is information only
    assert got == {
        ("SL201", Severity.INFO, "old_string"),
        ("SL201", Severity.ERROR, "replace_all"),
        ("SL201", Severity.ERROR, "file_path"),
    }
    hints = {d.message.split("`")[1]: d.hint for d in diags}
    assert "`oldString`" in (hints["old_string"] or "") and "`filePath`" in (hints["file_path"] or "")
    assert all("spelling" in d.message for d in diags)


def test_near_miss_open_object_is_a_warning(tmp_path: Path) -> None:
    diags = _run(tmp_path, [_mcp("Replace text; set replace_all for every match.", EDIT_PROPS)])
    assert [(d.severity, d.message.split("`")[1]) for d in diags] == [(Severity.WARNING, "replace_all")]


def test_near_miss_sibling_in_property_description(tmp_path: Path) -> None:
    props = dict(EDIT_PROPS, newString={"type": "string", "description": "Must differ from `old_string`."})
    diags = _run(tmp_path, [_mcp("Edit a file.", props, closed=True)])
    assert [(d.severity, d.message.split("`")[3]) for d in diags] == [(Severity.ERROR, "old_string")]
    assert "property `newString`" in diags[0].message
    # the same name as a plain word in prose: information only (it may be the upstream API's field)
    props = dict(EDIT_PROPS, newString={"type": "string", "description": "Must differ from old_string."})
    diags = _run(tmp_path, [_mcp("Edit a file.", props, closed=True)])
    assert [(d.severity, d.message.split("`")[3]) for d in diags] == [(Severity.INFO, "old_string")]


def test_exact_and_ordinary_words_are_not_near_misses(tmp_path: Path) -> None:
    """`filePath` as declared, and plain English ("the file path") are fine."""
    desc = "Edit the file at filePath. The file path must be absolute; oldString must be unique."
    assert _run(tmp_path, [_mcp(desc, EDIT_PROPS, closed=True)]) == []


# ------------------------------------------------------------------ level


def test_flat_arguments_against_a_wrapped_request(tmp_path: Path) -> None:
    desc = (
        "Create a serverless cache.\n\nParameters:\n  serverless_cache_name: the name\n"
        "  engine: redis or memcached\n  description: free text\n"
    )
    inner = {"type": "object", "properties": {"serverless_cache_name": S, "engine": S, "description": S},
             "required": ["serverless_cache_name", "engine"]}
    tool = _mcp(desc, {"request": inner}, required=["request"], closed=True)
    diags = _run(tmp_path, [tool])
    [d] = diags  # one finding for the whole list
    assert (d.code, d.severity, d.message.split("`")[1]) == ("SL201", Severity.ERROR, "serverless_cache_name")
    assert "`engine`" in d.message and "`description`" in d.message and "inside `request`" in d.message
    assert "/properties/request/properties/serverless_cache_name" in d.message and "top level" in d.message
    assert '"request"' in (d.hint or "")


def test_flat_arguments_against_a_request_model_in_defs(tmp_path: Path) -> None:
    """The pydantic shape of real servers: `request: {$ref: #/$defs/CreateRequest}`."""
    desc = "Create a cache.\n\nArgs:\n    cache_name: the name\n    engine: redis or valkey\n"
    model = {"type": "object", "properties": {"cache_name": S, "engine": S}, "required": ["cache_name"]}
    tool = _mcp(desc, {"request": {"$ref": "#/$defs/CreateRequest"}}, required=["request"],
                **{"$defs": {"CreateRequest": model}})
    [d] = _run(tmp_path, [tool])
    assert d.severity is Severity.WARNING and "inside `request`" in d.message
    assert "/$defs/CreateRequest/properties/cache_name" in d.message


def test_nested_name_mentioned_loosely_is_not_a_level_finding(tmp_path: Path) -> None:
    """Mentioning a nested key in prose ("the `engine` of the request") is fine: only argument
    lists and instructions address the level."""
    inner = {"type": "object", "properties": {"engine": S}}
    tool = _mcp("Create a cache; the request's engine defaults to redis.", {"request": inner},
                required=["request"], closed=True)
    assert _run(tmp_path, [tool]) == []
