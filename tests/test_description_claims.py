"""SL203-SL206: the description as a third contract (bounds/default, integer-only, allowed
values, required). Each rule: the recall case of issue 13, and the wording that must stay quiet.

Real loader and rules on files in tmp dirs; the corpus review lives in
tests/fixtures/description_claims_reviewed.json (tests/test_description_precision.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.model import Diagnostic


def _run(tmp_path: Path, code: str, prop: dict[str, Any], *, required: list[str] | None = None,
         extra: dict[str, Any] | None = None) -> list[Diagnostic]:
    schema: dict[str, Any] = {"type": "object", "properties": {"p": prop, "other": {"type": "string"}}}
    if required is not None:
        schema["required"] = required
    schema.update(extra or {})
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([{"name": "t", "description": "Does it.", "inputSchema": schema}]))
    return check([str(path)], select=[code]).diagnostics


INT, NUM, STR = "integer", "number", "string"

CASES = [
    # (code, type, description, extra schema, reported?)
    ("SL203", INT, "Page size (1-50, default: 10)", {"default": None}, True),
    ("SL203", INT, "Page size (1-50, default: 10)", {}, True),
    ("SL203", INT, "Results between 1 and 100.", {"minimum": 1, "maximum": 50}, True),
    ("SL203", INT, "Max 100 per page.", {}, True),
    ("SL203", INT, "Defaults to 10.", {"default": 20}, True),
    ("SL203", INT, "Page size (1-50, default: 10)", {"minimum": 1, "maximum": 50, "default": 10}, False),
    ("SL203", INT, "Number of retries, e.g. 1-5.", {}, False),
    # issue 26: a stated default is reported whenever the schema has no matching one (information
    # when nothing else is wrong: the schema is silent, not contradicting), in the forms people write
    ("SL203", INT, "Defaults to 10.", {}, True),
    ("SL203", INT, "Defaults to 10.", {"default": 10}, False),
    ("SL203", "boolean", "Whether to recurse. Defaults to false.", {}, True),
    ("SL203", "boolean", "Whether to recurse. Default: true.", {"default": False}, True),
    ("SL203", "boolean", "Whether to recurse. Default: true.", {"default": True}, False),
    ("SL203", STR, "Sort order. Defaults to 'desc'.", {}, True),
    ("SL203", STR, "Sort order. Defaults to 'desc'.", {"default": "desc"}, False),
    ("SL203", STR, "Sort order, e.g. default: 'desc'.", {}, False),
    ("SL203", INT, "Maximum value is 1000.", {}, True),
    ("SL203", INT, "Page size. Maximum (value) is 200.", {"maximum": 100}, True),
    ("SL203", INT, "Page size, max: 50.", {}, True),
    ("SL203", INT, "How many rows, no more than 500.", {}, True),
    ("SL203", INT, "How many rows, at least 1.", {"minimum": 1}, False),
    ("SL203", INT, "Zoom level, 1-20.", {}, True),
    ("SL203", INT, "Zoom level, 1-20.", {"minimum": 1, "maximum": 20}, False),
    ("SL203", STR, "Release date, 2024-01.", {}, False),
    ("SL204", STR, "Folder to search, or null to search everything.", {}, True),
    ("SL204", STR, "Folder to search, or null to search everything.", {"type": ["string", "null"]}, False),
    ("SL204", STR, "A list of tags to attach.", {}, False),
    ("SL204", INT, "Offset of the page. Must not be null.", {}, False),
    ("SL204", STR, "Folder. DO NOT enter \"undefined\" or \"null\" - omit it instead.", {}, False),
    ("SL204", STR, "Folder. Never pass null here.", {}, False),
    ("SL204", STR, "Folder. If not given, pass null to search everything.", {}, True),
    ("SL204", STR, "Whether to notify: true or false.", {}, True),
    ("SL204", STR, "Either 'true' or 'false' as text.", {}, False),
    ("SL204", STR, "An object with the filter fields.", {}, True),
    ("SL204", STR, "A JSON object with the filter fields, encoded as a string.", {}, False),
    ("SL204", STR, "Comma-separated list of ids.", {}, False),
    ("SL205", STR, "Granularity; one of hour, day, week.", {}, True),
    ("SL205", STR, "One of the supported formats.", {}, False),
    ("SL203", STR, "Date range (2020-2024).", {}, False),
    ("SL203", INT, "Timeout, up to 30 seconds.", {}, False),
    ("SL204", NUM, "Number of copies. Integer only.", {}, True),
    ("SL204", NUM, "Must be a positive integer.", {}, True),
    ("SL204", INT, "Ratio, e.g. 0.75.", {}, True),
    ("SL204", INT, "Number of copies. Integer only.", {}, False),
    ("SL204", NUM, "A number; integers and fractions are fine.", {}, False),
    ("SL205", STR, "Sort order, one of: asc, desc.", {}, True),
    ("SL205", STR, "Allowed values: 'low', 'medium', 'high'.", {"enum": ["low", "medium"]}, True),
    ("SL205", STR, "Choices are 'trapezoid' or 'simpson'.", {}, True),
    # lane hprec2 (OpenBMB/ToolBench): one more alternative that is a kind leaves the list open
    ("SL205", STR, "Show alternatives? Either `true`, `false` (default) or a number [1,..,n].", {}, False),
    ("SL205", STR, "Sort field: one of `name`, `date` or any other column.", {}, False),
    ("SL205", STR, "Show alternatives? Either `true` or `false` (default).", {}, True),
    ("SL205", STR, "Sort order, one of: asc, desc.", {"enum": ["asc", "desc"]}, False),
    ("SL205", STR, "A colour such as 'red', 'green', etc.", {}, False),
    ("SL205", STR, "One of the most common formats: 'csv', 'tsv', ...", {}, False),
    ("SL205", STR, "Use either 'p' or 'other' to set the position.", {}, False),
    ("SL205", INT, "Priority, one of: 1, 2, 3.", {}, False),
    # one value stated by a marker: a later "either" speaks about another thing (issue 26, npm servers)
    ("SL205", STR, "Field to group by. Possible values include `kind`. Groups by kind of record (either "
                   "`file` or `folder`).", {}, False),
    ("SL205", STR, "Group by kind of record: either `file` or `folder`.", {}, True),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[2][:30]}-{bool(c[4])}")
def test_claim(tmp_path: Path, case: tuple[str, str, str, dict[str, Any], bool]) -> None:
    code, typ, desc, extra, reported = case
    diags = _run(tmp_path, code, dict({"type": typ, "description": desc}, **extra))
    assert bool(diags) is reported, [d.message for d in diags]
    if reported:
        [d] = diags
        omission = "declares no default;" in d.message  # a stated default the schema lacks, alone
        assert d.severity.value == ("info" if omission else "warning") and d.instance_path == "/p"
        assert d.pointer.endswith("/properties/p/description")
        assert '"' in d.message  # the text is quoted


@pytest.mark.parametrize("desc", [
    "Valid options are 'movie', 'series', and 'episode'",  # BFCL: the Oxford comma
    "Valid options are 'movie', 'series' and 'episode'.",
    "One of 'movie', 'series', or 'episode'.",
    "One of `movie`, `series`, and `episode`.",
    'Allowed values: "movie", "series" or "episode".',
    "Valid options are 'movie', 'series', & 'episode'",
])
def test_sl205_keeps_the_last_item_of_a_quoted_list(tmp_path: Path, desc: str) -> None:
    [no_enum] = _run(tmp_path, "SL205", {"type": "string", "description": desc})
    assert no_enum.hint == 'declare them: "enum": ["movie", "series", "episode"]', no_enum.hint
    [short] = _run(tmp_path, "SL205", {"type": "string", "description": desc, "enum": ["movie", "series"]})
    assert "`episode`" in short.message
    assert not _run(tmp_path, "SL205", {"type": "string", "description": desc,
                                        "enum": ["movie", "series", "episode"]})


def test_sl203_message_names_every_gap(tmp_path: Path) -> None:
    [d] = _run(tmp_path, "SL203", {"type": INT, "description": "Page size (1-50, default: 10)", "default": None})
    assert '"(1-50,"' in d.message or "(1-50" in d.message
    assert "no minimum and no maximum" in d.message and "default None" not in d.message


@pytest.mark.parametrize(("prop", "contradicts"), [
    ({"type": INT, "description": "Rows per page, default 25."}, False),
    ({"type": "boolean", "description": "Whether to follow links. Defaults to true."}, False),
    ({"type": STR, "description": "Sort order. Default: 'asc'."}, False),
    ({"type": INT, "description": "Rows per page, default 25.", "default": 50}, True),
    ({"type": INT, "description": "Rows per page, at most 100, default 25."}, True),
])
def test_sl203_a_default_only_missing_from_the_schema_is_not_said_to_refuse_calls(
        tmp_path: Path, prop: dict[str, Any], contradicts: bool) -> None:
    """A default the schema leaves unsaid refuses nothing (information); a bound or a different
    default in the schema can refuse or change a call (a warning), and the message says which."""
    [d] = _run(tmp_path, "SL203", prop)
    assert ("may be refused" in d.message) is contradicts, d.message
    assert (d.severity.value == "info") is not contradicts
    if not contradicts:
        assert "schema is silent" in d.message and "`default`" in (d.hint or ""), d


@pytest.mark.parametrize(
    ("desc", "required", "reported"),
    [
        ("Required. The project key.", [], True),
        ("The project key (required).", None, True),
        ("This field is required.", ["other"], True),
        ("The project key (required).", ["p"], False),
        ("Required if mode is 'copy'.", [], False),
        ("Required for updates, optional for creates.", [], False),
        ("The key. Authentication is required for private projects.", [], False),
    ],
)
def test_sl206_required(tmp_path: Path, desc: str, required: list[str] | None, reported: bool) -> None:
    diags = _run(tmp_path, "SL206", {"type": STR, "description": desc}, required=required)
    assert bool(diags) is reported, [d.message for d in diags]


def test_sl206_required_in_a_branch_is_fine(tmp_path: Path) -> None:
    diags = _run(tmp_path, "SL206", {"type": STR, "description": "Required."},
                 extra={"anyOf": [{"required": ["p"]}, {"required": ["other"]}]})
    assert diags == []


@pytest.mark.parametrize(
    ("desc", "extra"),
    [
        ("Timeframe in ms. Defaults to 10 minutes (600,000 milliseconds).", {"default": 600000}),
        ("Interval in bp (max 1,000,000)", {"maximum": 1000000}),
        ("Start. If not provided, defaults to 10 minutes before 'to'.", {"default": None}),
        ("Rounds. Defaults to 3 if not provided.", {"default": "3"}),
    ],
)
def test_sl203_units_separators_and_spelled_defaults_are_quiet(tmp_path: Path, desc: str,
                                                               extra: dict[str, Any]) -> None:
    """Seen on the corpus (BFCL events_api, livemcpbench alphagenome, BFCL game_score)."""
    assert _run(tmp_path, "SL203", dict({"type": INT, "description": desc}, **extra)) == []


@pytest.mark.parametrize("desc,reported", [
    ("The folder of the linked file. Defaults to 'workspace' when omitted.", False),  # the sibling's value
    ("The folder of the linked file. Defaults to `workspace`.", False),
    ("The folder of the linked file. Defaults to 'inbox' when omitted.", True),  # a literal
])
def test_sl203_default_naming_a_sibling_is_its_value(tmp_path: Path, desc: str, reported: bool) -> None:
    """Issue 26, the defaults review: "Defaults to 'owner'" beside a declared `owner` is that
    parameter's value, not the literal string."""
    tool = {"name": "link", "description": "Link a file.", "inputSchema": {"type": "object", "properties": {
        "workspace": {"type": "string"}, "folder": {"type": "string", "description": desc}}}}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([tool]))
    diags = check([str(path)], select=["SL203"]).diagnostics
    assert bool(diags) is reported, [d.message for d in diags]


def _sites_by_pattern(tool: Any) -> list[tuple[str, str]]:
    """The claim sites as the trigger pattern finds them, one description at a time."""
    from schemalint.rules.description.claims import _TRIGGER
    from schemalint.schema.index import index_schema

    if not isinstance(tool.advertised, dict):
        return []
    return [(n.pointer, n.schema["description"]) for n in index_schema(tool.advertised).having("description")
            if n.keyword == "properties" and not n.conditional and type(n.schema["description"]) is str
            and _TRIGGER.search(n.schema["description"].lower())]


def test_property_sites_found_by_literal_match_the_pattern(corpus_loaded: Any) -> None:
    """property_sites finds an ASCII tool's sites with bytes.find over the joined descriptions
    (claims._sites_in_joined); on a fifth of the corpus tools, and on descriptions that put a trigger at a
    boundary, next to a newline, in upper case or only in the tool description, they are the ones
    the trigger pattern finds description by description."""
    from schemalint.model import Origin, RunContext, Tool, running
    from schemalint.rules.description.claims import property_sites

    def tool(description: str | None, props: dict[str, Any]) -> Tool:
        schema = {"type": "object", "properties": props}
        return Tool(name="t", description=description, advertised=schema,
                    origin=Origin(file="t.json", pointer="/0", format="openai"), raw={"parameters": schema},
                    schema_path="/parameters")

    made = [
        tool("Default is 5, one of a or b", {"a": {"type": "string", "description": "plain words"}}),
        tool(None, {"a": {"type": "string", "description": "Ends in ONE OF"},
                    "b": {"type": "string", "description": "one\nof no, but e.g. yes"},
                    "c": {"type": "string", "description": "page2token"},
                    "d": {"type": "string", "description": "nothing here"},
                    "e": {"type": "object", "description": "Values", "properties": {
                        "f": {"type": "integer", "description": "default"}}},
                    "g": {"type": "string", "description": "trailing 9"}}),
        tool("", {"a": {"type": "string", "description": ""}, "b": {"type": "string", "description": "x 1"}}),
    ]
    tools = [*corpus_loaded.tools[::5], *made]  # a fifth of the corpus: 3,849 tools, about a second
    with running(RunContext()):
        for t in tools:
            got = [(s.node.pointer, s.description) for s in property_sites(t)]
            assert got == _sites_by_pattern(t), t.name
        assert [[s.name for s in property_sites(t)] for t in made] == [[], ["a", "b", "c", "e", "f", "g"], ["b"]]
