"""SL201/SL202: descriptions that name parameters the schema does not have.

Real loader, real rules, real files in tmp dirs; the corpus/case tests need ../shared.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.api import check
from schemalint.model import Diagnostic, Severity
from schemalint.rules.description.mentions import extract_mentions, nearest
from tests._fixtures_cli import run_cli_here, run_json_here
from tests.conftest import CORPUS, ROOT, examples, load_case, needs_shared

EXAMPLES = ROOT / "examples" / "descriptions"
CODES = ["SL201", "SL202"]


def _mcp(
    name: str, description: str, properties: dict[str, Any], *, closed: bool = False, **extra: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    schema.update(extra)
    return {"name": name, "description": description, "inputSchema": schema}


def _run(tmp_path: Path, tools: list[dict[str, Any]], **kwargs: Any) -> list[Diagnostic]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools))
    return check([str(path)], select=CODES, **kwargs).diagnostics


def _token(d: Diagnostic) -> str:
    for marker in (" presents `", " asks for `", " writes `", " documents `"):
        if marker in d.message:
            return d.message.split(marker, 1)[1].split("`", 1)[0]
    raise AssertionError(d.message)


# ----------------------------------------------------------------- incident 2 and its twin


def test_incident2_example_is_an_error() -> None:
    diags = check([str(EXAMPLES / "incident2.json")], select=CODES).diagnostics
    assert [(d.code, d.severity, _token(d), d.pointer) for d in diags] == [
        ("SL201", Severity.ERROR, "name", "/0/description")
    ]
    assert "tool description" in diags[0].message and "refused" in diags[0].message
    assert diags[0].line == 4  # located on the description string


def test_incident2_clean_twin_is_clean() -> None:
    assert check([str(EXAMPLES / "incident2-clean.json")], select=CODES).diagnostics == []


def _previous_revision(tmp_path: Path) -> dict:
    """The clean twin as the same tool's previous revision (it has `name`)."""
    clean = json.loads((EXAMPLES / "incident2-clean.json").read_text())[0]
    return dict(clean, name="start_analysis_run")


def test_incident2_with_previous_revision_is_sl202(tmp_path: Path) -> None:
    (tmp_path / "before.json").write_text(json.dumps([_previous_revision(tmp_path)]))
    code, report = run_json_here(
        "check",
        str(EXAMPLES / "incident2.json"),
        "--previous",
        str(tmp_path / "before.json"),
        "--select",
        "SL201,SL202",
    )
    assert code == 1
    [d] = report["diagnostics"]
    assert (d["code"], d["severity"]) == ("SL202", "error")
    assert "previous revision" in d["message"] and "`name`" in d["message"]


def test_previous_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_cli_here("check", str(EXAMPLES / "incident2.json"), "--previous", str(tmp_path / "nope"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_previous_snapshot_directory(tmp_path: Path) -> None:
    snap = tmp_path / "snap"
    snap.mkdir()
    (snap / "start_analysis_run.json").write_text(json.dumps(_previous_revision(tmp_path)))
    diags = check([str(EXAMPLES / "incident2.json")], select=CODES, previous=[str(snap)]).diagnostics
    assert [(d.code, _token(d)) for d in diags] == [("SL202", "name")]


def test_runtime_contract_names_the_removed_key(tmp_path: Path) -> None:
    manifest = {
        "schemalint": 1,
        "tools": [
            {
                "name": "create_run",
                "description": "Create a run. Supply a short name for tracking.",
                "advertised": {
                    "type": "object",
                    "properties": {"dataset": {"type": "string"}},
                    "additionalProperties": False,
                },
                "runtime": {
                    "input": {
                        "type": "object",
                        "properties": {"dataset": {"type": "string"}, "name": {"type": "string"}},
                    }
                },
            }
        ],
    }
    path = tmp_path / "contracts.json"
    path.write_text(json.dumps(manifest))
    [d] = check([str(path)], select=CODES).diagnostics
    assert (d.code, d.severity, _token(d)) == ("SL202", Severity.ERROR, "name")
    assert "runtime" in d.message


def test_plain_word_alone_is_not_sl201(tmp_path: Path) -> None:
    """Without a runtime/previous/variant telling us `name` was a parameter, plain English stays quiet."""
    tools = [
        _mcp(
            "create_run",
            "Create a run. Supply a short name for tracking.",
            {"dataset": {"type": "string"}},
            closed=True,
        )
    ]
    assert _run(tmp_path, tools) == []


def test_strict_target_makes_it_an_error(tmp_path: Path) -> None:
    tools = [_mcp("q", "Run a query. Pass model_name for the model.", {"model": {"type": "string"}})]
    [warn] = _run(tmp_path, tools)
    assert warn.severity is Severity.WARNING
    [err] = _run(tmp_path, tools, targets=["openai-strict"])
    assert err.severity is Severity.ERROR


# ----------------------------------------------------------------- shared case 022


@needs_shared
def test_case_022_looker_names(tmp_path: Path) -> None:
    case = load_case("022")
    diags = _run(tmp_path, case["tools"])
    assert {_token(d) for d in diags} == {"model_name", "explore_name", "query_timezone"}
    # both expected findings sit on the tool description ...
    assert {d.pointer for d in diags} == {"/0/description"}
    # ... the value format of `id` ("formatted model_name/explore_name") is not flagged ...
    assert not any("properties/id" in d.pointer for d in diags)
    # ... and with no additionalProperties:false it is a warning, not a refusal.
    assert {d.severity for d in diags} == {Severity.WARNING}
    hints = {_token(d): d.hint or "" for d in diags}
    assert "`model`" in hints["model_name"] and "`explore`" in hints["explore_name"]
    assert "`tz`" in hints["query_timezone"]


# ----------------------------------------------------------------- what is (not) a mention


def test_property_description_mentioning_a_sibling_is_clean(tmp_path: Path) -> None:
    tools = [
        _mcp(
            "export",
            "Export rows. Set `format` to 'csv' for spreadsheets; the `limit` parameter caps rows.",
            {
                "format": {
                    "type": "string",
                    "enum": ["csv", "json"],
                    "description": "Output format. Only used when `limit` is set; pass `delimiter` for csv.",
                },
                "limit": {"type": "integer", "description": "Maximum rows. Requires the `format` parameter."},
                "delimiter": {
                    "type": "string",
                    "description": "Field delimiter, e.g. ';'. Set `format` to 'csv' first.",
                },
                "options": {
                    "type": "object",
                    "properties": {"depth": {"type": "integer"}},
                    "description": "Advanced options; pass `depth` to limit nesting.",
                },
            },
            closed=True,
        )
    ]
    assert _run(tmp_path, tools) == []


@pytest.mark.parametrize(
    "text",
    [
        "Sort order. Pass `asc` or `desc`.",  # values
        "Use `list_runs` first to find the run id.",  # a tool of the catalog
        "Look up a run by its label, e.g. 'nightly_build' or \"weekly_run\".",  # example values
        "See https://example.com/api?page_size=10&sort_by=name for details.",  # URL
        "The id has the form project_name/dataset_name.",  # value format
        "Returns rows.\n```python\nclient.other_call(page_size=10)\n```",  # code block, not this tool
        "Set MODE to STRICT_ALL to be strict.",  # ALL_CAPS constants
        "The response includes `next_page` and `total_count` fields.",  # response fields
        "If stopped_early=True, tell the user to narrow the window.",  # a state, not an argument
        "The `run_id` parameter of `list_runs` filters runs.",  # another tool's parameter
        "Optimizes supply chain parameters and a set of options.",  # English nouns
        "通过车站的 `station_telecode` 查询车站的详细信息，请提供参数 name_cn。",  # non-English text
        "Get a run. You MUST avoid using search commands like `find` and `grep`.",  # what not to do
        "Get a run by its label, avoiding usage of `cd`.",  # avoidance: a negation in a verb
    ],
)
def test_not_a_mention(tmp_path: Path, text: str) -> None:
    tools = [
        _mcp("get_run", text, {"run": {"type": "string", "enum": ["a", "b"]}}, closed=True),
        _mcp("list_runs", "List runs.", {}),
    ]
    assert _run(tmp_path, tools) == [], text


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Get a run. The `run_name` parameter selects it.", "run_name"),
        ("Get a run. Pass run_name to select it.", "run_name"),
        ("Get a run; provide a short `label` for tracking.", "label"),
        ("Get a run by run_name=nightly.", "run_name"),
        (
            "Get a run.\n\nArgs:\n    run: The run.\n    ctx: MCP context.\n    verbose_mode: More.\n\n"
            "Returns:\n    status: the status",
            "verbose_mode",
        ),
        ('Get a run. Example:\n```\nget_run(run="a", page_size=2)\n```', "page_size"),
        ('Get a run. Examples:\n- {"run": "a", "runLabel": "x"}', "runLabel"),
        ("Get a run. Either run or both projectName and runNumber must be specified.", "projectName"),
        ("Get a run. Use this parameter together with `dateStart`.", "dateStart"),
        ("Get a run. `run` and `label` are required.", "label"),
        ("Get.\n\nParameters\n----------\nrun : str\n    The run.\nlimit_rows : int\n    Cap.", "limit_rows"),
        ("Get a run. Pass the `run` id of the job and a short `label` for tracking.", "label"),  # coordinated
    ],
)
def test_is_a_mention(tmp_path: Path, text: str, token: str) -> None:
    tools = [_mcp("get_run", text, {"run": {"type": "string"}}, closed=True)]
    diags = _run(tmp_path, tools)
    assert token in {_token(d) for d in diags}, (text, [d.message for d in diags])
    # a JSON example's keys name a declared property in 61 % of the corpus's references
    # (benchmarks/mention_forms.md): at most a warning; the other forms are errors here (closed)
    expected = Severity.WARNING if '{"' in text else Severity.ERROR
    assert all(d.severity is expected for d in diags)


def test_property_level_pointer_and_label(tmp_path: Path) -> None:
    tools = [
        _mcp(
            "speed",
            "Speed data.",
            {
                "dateEnd": {
                    "type": "string",
                    "description": "End. Either use this parameter with `dateStart`, or `dateRange`.",
                },
            },
            closed=True,
        )
    ]
    diags = _run(tmp_path, tools)
    assert {_token(d) for d in diags} == {"dateStart", "dateRange"}
    assert diags[0].pointer == "/0/inputSchema/properties/dateEnd/description"
    assert "property `dateEnd`" in diags[0].message


def test_openai_chat_description_pointer(tmp_path: Path) -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "q",
                "description": "Query. The `query_tz` option sets the zone.",
                "parameters": {"type": "object", "properties": {"tz": {"type": "string"}}},
            },
        }
    ]
    [d] = _run(tmp_path, tools)
    assert d.pointer == "/0/function/description"


def test_docker_arguments_listing(tmp_path: Path) -> None:
    tools = [
        {
            "name": "t",
            "description": 'Do it. Examples:\n- {"action": "x", "levelName": "A"}',
            "arguments": [{"name": "action", "type": "string", "desc": "What to do"}],
        },
        {"name": "u", "description": "Pass run_name to select it.", "arguments": []},
    ]
    diags = _run(tmp_path, tools)
    assert [(d.tool, _token(d)) for d in diags] == [("t", "levelName")]  # empty listing: not captured, quiet


def test_bad_input_never_crashes(tmp_path: Path) -> None:
    tools = [
        {"name": "a", "description": 5, "inputSchema": {"type": "object", "properties": []}},
        {"name": "b", "description": "Pass x_y.", "inputSchema": [1, 2]},
        {
            "name": "c",
            "description": "Pass `x_y` " * 5000,
            "inputSchema": {
                "type": "object",
                "properties": {"p": {"description": None}, "q": True, "r": {"description": "(" * 3000}},
            },
        },
    ]
    diags = _run(tmp_path, tools)
    assert not any("could not check" in d.message for d in diags)


def test_extract_mentions_unit() -> None:
    found = extract_mentions("Pass model_name and explore_name, and set query_timezone to localize dates.")
    assert [m.token for m in found] == ["model_name", "explore_name", "query_timezone"]
    assert extract_mentions("") == [] and extract_mentions("总结：提供 `x_y`") == []
    assert nearest("widgetCustomizations", ["widget_customizations", "brand_id"]) == "widget_customizations"
    assert nearest("model_name", ["model", "explore"]) == "model"
    assert nearest("zzz", []) is None


# ----------------------------------------------------------------- non-English corpus data


@needs_shared
def test_chinese_corpus_no_noise() -> None:
    diags = check([str(CORPUS / "acebench" / "data_zh")], select=CODES).diagnostics
    assert diags == []


@needs_shared
def test_livemcpbench_chinese_tools_no_noise() -> None:
    from schemalint.api import load
    from schemalint.rules.description.mentions import _mostly_non_latin, description_sites

    src = str(CORPUS / "livemcpbench" / "tools.json")
    loaded = load([src])
    zh_tools = {t.name for t in loaded.tools if t.description and _mostly_non_latin(t.description)}
    assert len(zh_tools) > 20  # the bing-cn, 12306 ... servers are there
    assert all(description_sites(t) is not None for t in loaded.tools)
    diags = check([src], select=CODES).diagnostics
    assert not [d for d in diags if d.tool in zh_tools]


@pytest.mark.parametrize("code", CODES)
def test_rule_page_examples(tmp_path: Path, code: str) -> None:
    import re

    [page] = (ROOT / "rules").glob(f"{code}-*.md")
    text = page.read_text()
    assert text.startswith(f"# {code} ")
    for section, expect in (("Bad", True), ("Good", False)):
        block = re.search(rf"## {section}\n```json\n(.*?)```", text, re.S)
        assert block, section
        diags = [d for d in _run(tmp_path, json.loads(block.group(1))) if d.code == code]
        assert bool(diags) is expect, (section, [d.message for d in diags])


def test_instance_path_of_nested_mention(tmp_path: Path) -> None:
    tools = [_mcp("q", "Query.", {"opts": {"type": "object", "properties": {
        "mode": {"type": "string", "description": "Mode. The `page_limit` option caps pages."}}}})]
    [d] = _run(tmp_path, tools)
    assert d.instance_path == "/opts/page_limit"
    assert d.pointer == "/0/inputSchema/properties/opts/properties/mode/description"


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("aZ9_`'\":={ \n.-xY"), max_size=12), max_size=6))
def test_one_scan_of_all_descriptions_agrees_with_each_text(texts: list[str]) -> None:
    """SL201's fast path says "nothing to read" only when no text may mention."""
    from schemalint.rules.description.mentions.text import _any_might_mention, _might_mention

    if any(_might_mention(t) for t in texts):
        assert _any_might_mention(texts)


def _value_list_tool(op_schema: dict[str, Any], tool_text: str) -> list[dict[str, Any]]:
    return [{"name": "label_card", "description": tool_text,
             "inputSchema": {"type": "object", "additionalProperties": False,
                             "properties": {"op": op_schema, "label": {"type": "string"},
                                            "force": {"type": "boolean"}}}}]


@pytest.mark.parametrize("listing", [
    "What to do.\nChoices:\n- 'attach' - put it on.\n- 'detach' - take it off.",
    "What to do.\n* attach: put it on\n* detach: take it off",
    "What to do (attach | detach).",
    "`attach`: put it on. `detach`: take it off.",
    "What to do, one of 'attach', 'detach'.",
])
def test_a_value_the_property_lists_is_not_a_parameter(tmp_path: Path, listing: str) -> None:
    path = tmp_path / "tools.json"
    text = "Label a card. To recolour a label, use `attach` with `force=true`."
    path.write_text(json.dumps(_value_list_tool({"type": "string", "description": listing}, text)))
    assert [d for d in check([str(path)]).diagnostics if d.code == "SL201"] == []


def test_an_objects_listed_keys_stay_parameter_mentions(tmp_path: Path) -> None:
    listing = "Settings:\n- 'colour': a hex code\n- 'attach': where to pin it"
    schema = {"type": "object", "description": listing, "properties": {"colour": {"type": "string"}}}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_value_list_tool(schema, "Label a card. Use `attach` with `force=true`.")))
    found = [d for d in check([str(path)]).diagnostics if d.code == "SL201"]
    assert [d.message.split("presents ")[1].split(" ")[0] for d in found] == ["`attach`"]


# --- forms added for the held-out paraphrases (deflist, JSDoc, call/literal examples, <code>, CJK) ---

def _kinds(text: str, level: tuple[str, ...], tool_name: str = "tool_x") -> dict[str, str]:
    return {m.token: m.kind for m in extract_mentions(text, tool_name=tool_name, level=level)}


def test_definition_list_beside_a_declared_entry() -> None:
    text = "Send an SMS.\n\n**to** (required): E.164 number\n**sender_id** (optional): alphanumeric sender"
    assert _kinds(text, ("to", "body"))["sender_id"] == "deflist"
    dashes = "Open a case.\nsubject — one line\nseverity — low or urgent"
    assert _kinds(dashes, ("subject",))["severity"] == "deflist"


def test_definition_list_without_a_declared_entry_or_nested_is_not_read() -> None:
    values = "Pick a mode.\n- fast: fewer checks\n- safe: every check"
    assert "fast" not in _kinds(values, ("mode",))
    nested = ("Build slides.\n\nArgs:\n    slides: list of slides, each with:\n        - layout_id: the layout\n"
              "        - body: the text\n    theme: colour theme\n")
    assert {"layout_id", "body"}.isdisjoint(_kinds(nested, ("slides", "theme")))


def test_jsdoc_param_fields() -> None:
    got = _kinds("Search.\n@param {string} query - text\n@param {number} [pageSize] - per page\n"
                 "@param {object} options.extra - nested", ("query",))
    assert got["pageSize"] == "arglist" and "options" not in got and "extra" not in got


def test_call_examples_with_colons_and_object_literals() -> None:
    assert _kinds("Usage: `list_orders({ status: \"a, b: c\", pageToken })`", ("status",),
                  "list_orders").keys() >= {"pageToken"}
    assert "b" not in _kinds("Usage: `list_orders({ status: \"a, b: c\" })`", ("status",), "list_orders")
    assert _kinds("As in `move(to: p, duration: 0.3)`.", ("to",), "move")["duration"] == "arglist"
    positional = _kinds("1. write_file(filePath, firstChunk, {mode: 'rewrite'})", ("path", "mode"), "write_file")
    assert {"filePath", "firstChunk"}.isdisjoint(positional)


def test_literal_and_yaml_examples_with_a_declared_key() -> None:
    literal = "Embed texts. Input looks like { texts: ['a'], dimensions: 256 }."
    assert _kinds(literal, ("texts",))["dimensions"] == "json"
    yaml = "Schedule a job.\n\nExample input:\n```yaml\nname: nightly\ntimezone: UTC\n```"
    assert _kinds(yaml, ("name",))["timezone"] == "json"
    assert "timezone" not in _kinds(yaml.replace("name:", "label:"), ("name",))


def test_html_code_span_keeps_offsets() -> None:
    text = "Lists messages. Pass <code>label_id</code> to restrict the list."
    (m,) = [m for m in extract_mentions(text, tool_name="tool_x") if m.token == "label_id"]
    assert text[m.start:m.end] == "label_id"


def test_openapi_name_entries_name_the_parameters() -> None:
    text = "Search tickets.\n\nQuery parameters:\n  - name: per_page\n  - name: sort_by\n"
    got = _kinds(text, ("per_page",))
    assert "name" not in got and got["sort_by"] == "arglist"


def test_plain_word_assignment_only_when_handed_over() -> None:
    assert _kinds("List commits. Use order=asc to get the oldest first.", ("repo",))["order"] == "assign"
    assert "order" not in _kinds("List commits (sorted by the API as order=asc).", ("repo",))


def test_cjk_parameter_phrase() -> None:
    assert _kinds("查询天气。可选参数 `unit`：温度单位。", ("city",))["unit"] == "phrase"
    assert "unit" not in _kinds("查询天气。返回的参数 `unit` 是温度单位。", ("city",))


def test_labelled_bare_list_beside_a_declared_name() -> None:
    text = "Geocode an address. Accepts: address, country_code, language."
    assert _kinds(text, ("address",))["country_code"] == "list"
    assert "country_code" not in _kinds("Geocode. Accepts: street, country_code.", ("address",))


# ----------------------------------------------------- values a property's description lists (hprec2)


@pytest.mark.parametrize("listing", [
    "Preset to run: cpu_samples, cache_misses, or all.",
    "Preset to run: cpu_samples or cache_misses",
    "Preset: cpu_samples, cache_misses, all",
    "Which preset to run. Defaults to cpu_samples.",
    "Which preset to run (default: cpu_samples).",
])
def test_a_value_the_property_lists_or_defaults_to_is_no_parameter(tmp_path: Path, listing: str) -> None:
    """The arm-mcp kind (docker/mcp-registry): the tool text says "use 'cpu_samples'" where
    `cpu_samples` is one of the values the `preset` argument lists after a colon, or its default."""
    tool = _mcp("run_profile", "Profile a program. If you do not know which preset to use, use 'cpu_samples'.",
                {"cmd": {"type": "string"}, "preset": {"type": "string", "description": listing}})
    assert _run(tmp_path, [tool]) == []


@pytest.mark.parametrize("text", ["Which preset to run.", "Note: pass a preset, the usual is fine"])
def test_a_word_no_property_lists_is_still_reported(tmp_path: Path, text: str) -> None:
    tool = _mcp("run_profile", "Profile a program. If you do not know which preset to use, use 'cpu_samples'.",
                {"cmd": {"type": "string"}, "preset": {"type": "string", "description": text}})
    assert [_token(d) for d in _run(tmp_path, [tool])] == ["cpu_samples"]


def test_a_colon_list_in_an_object_property_names_keys_not_values(tmp_path: Path) -> None:
    """An object's description lists its keys: a word of that list stays a mention of a key."""
    tool = _mcp("save", "Save a record. Pass `owner_id` inside `record`.",
                {"record": {"type": "object", "description": "Fields: owner_id, title, or body.",
                            "properties": {"title": {"type": "string"}}}})
    assert [_token(d) for d in _run(tmp_path, [tool])] == ["owner_id"]


def test_a_value_a_docker_argument_lists_is_no_parameter(tmp_path: Path) -> None:
    """The same kind in the Docker MCP registry's shape, whose argument text is `desc`."""
    tool = {"name": "run_profile", "description": "If you do not know which preset to use, use 'cpu_samples'.",
            "arguments": [{"name": "cmd", "type": "string", "desc": "The program."},
                          {"name": "preset", "type": "string", "desc": "Preset: cpu_samples, cache_misses, or all"}]}
    assert _run(tmp_path, [tool]) == []
    tool["arguments"][1]["desc"] = "The preset."
    assert [_token(d) for d in _run(tmp_path, [tool])] == ["cpu_samples"]


def test_an_opaque_example_id_is_no_parameter(tmp_path: Path) -> None:
    """OpenBMB/ToolBench kind: a base64 id quoted as an example after a colon. A long camelCase name
    with a digit or two is still a name."""
    text = ('Get Image by Id\n- Paste an image ID from the api "List image ids" and the image is returned\n'
            '- ex of image id : "QmV4YW1wbGUxMjNJbWFnZTQ1Nkk3ODlkMA="')
    tool = _mcp("get_image", text, {"imageid": {"type": "string"}})
    assert _run(tmp_path, [tool]) == []
    tool = _mcp("get_image", "Get an image. Pass `imageRevision2Override` to pin it.", {"imageid": {"type": "string"}})
    assert [_token(d) for d in _run(tmp_path, [tool])] == ["imageRevision2Override"]


@pytest.mark.parametrize(("text", "tokens"), [
    ("Look a number up. This endpoint will return the `Summary` info of the number.", []),
    ("Look a number up. The lookup would include `carrierName` when known.", []),
    ("Look a number up. You will need to pass `country_code` too.", ["country_code"]),
    ("Look a number up. You must pass `country_code` too.", ["country_code"]),
])
def test_will_says_what_the_tool_does_unless_said_to_you(tmp_path: Path, text: str, tokens: list[str]) -> None:
    """OpenBMB/ToolBench kind: "will"/"would" after a subject other than "you" describes the tool's
    behaviour, so the name after its verb is no instruction to send a key."""
    tool = _mcp("lookup", text, {"phone": {"type": "string"}})
    assert [_token(d) for d in _run(tmp_path, [tool])] == tokens


# ----------------------------------------------------------------- names of another tool of the server


def _sibling_catalog(description: str) -> list[dict[str, Any]]:
    return [
        _mcp("list_regions", description, {"country": {"type": "string"}, "page_size": {"type": "integer"}}),
        _mcp("book_slot", "Book a delivery slot.", {"region_code": {"type": "string"}, "slot": {"type": "string"}}),
    ]


@pytest.mark.parametrize("description", [
    # the paragraph names the sibling whose parameter it is, before or after the name
    "List the delivery regions of a country.\n\nUse the codes it returns as the `region_code` of `book_slot`.",
    "List the delivery regions of a country. Pass a code from here in `region_code` when you call book_slot.",
])
def test_a_parameter_of_a_sibling_tool_the_paragraph_names_is_not_reported(tmp_path: Path, description: str) -> None:
    assert _run(tmp_path, _sibling_catalog(description)) == []


@pytest.mark.parametrize("description", [
    # the sibling declares the name, but this text never speaks of it: a copy-paste slip, reported
    "List the delivery regions of a country. Always pass `region_code` to narrow the list.",
    # the sibling is named, but in another paragraph than the name
    "List the delivery regions; book_slot takes one of them.\n\nAlways pass `region_code` to narrow the list.",
])
def test_a_sibling_parameter_without_the_sibling_nearby_is_reported(tmp_path: Path, description: str) -> None:
    assert [_token(d) for d in _run(tmp_path, _sibling_catalog(description))] == ["region_code"]


def test_a_name_no_sibling_declares_is_reported_beside_a_sibling(tmp_path: Path) -> None:
    text = "List the delivery regions of a country, then call `book_slot`. Always pass `zone_hint` too."
    assert [_token(d) for d in _run(tmp_path, _sibling_catalog(text))] == ["zone_hint"]


# ----------------------------------------------------------------- example blocks and bold headers


def test_an_args_section_ends_at_the_closing_tag_of_its_example(tmp_path: Path) -> None:
    text = ("<examples>\n<example>\nAsk: \"which regions in France?\"\nArguments:\n    country=\"FR\"\n</example>\n\n"
            "<example>\nAsk: \"the first ten?\"\nArguments:\n    page_size=10\n</example>\n</examples>")
    tools = [_mcp("list_regions", text, {"country": {"type": "string"}, "page_size": {"type": "integer"}})]
    assert _run(tmp_path, tools) == []


def test_an_args_section_still_reads_its_entries_before_the_tag(tmp_path: Path) -> None:
    text = "<usage>\nArgs:\n    country: ISO code.\n    zone_hint: a zone.\n</usage>"
    tools = [_mcp("list_regions", text, {"country": {"type": "string"}})]
    assert [_token(d) for d in _run(tmp_path, tools)] == ["zone_hint"]


def test_a_bold_header_is_not_a_definition_entry(tmp_path: Path) -> None:
    text = ("List regions.\n\n**Arguments:**\n- `country`: ISO code of the country.\n"
            "- `page_size`: how many per page.")
    tools = [_mcp("list_regions", text, {"country": {"type": "string"}, "page_size": {"type": "integer"}})]
    assert _run(tmp_path, tools) == []


def test_fields_under_a_bold_returns_header_are_no_parameters(tmp_path: Path) -> None:
    # a list of result fields that repeats a declared name (`country`): read as an argument list before
    text = ("List regions.\n\n**Returns:**\nA page of regions:\n- `region_code`: the code to book with.\n"
            "- `country`: the country it lies in.\n\nPass `country` to choose the country.")
    tools = [_mcp("list_regions", text, {"country": {"type": "string"}})]
    assert _run(tmp_path, tools) == []
