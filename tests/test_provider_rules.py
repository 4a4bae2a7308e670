"""Provider targets (SL3xx): target parsing and inference, the shared cases, rule pages, catalog limits.

Real inputs only: tool files written to a temporary folder and checked through
:func:`schemalint.api.check` (and the CLI where the command line itself is under test).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from schemalint import api
from schemalint.engine import run_rules
from schemalint.model import Origin, Tool
from schemalint.rules.base import Context
from schemalint.rules.provider import RULES
from schemalint.targets import PROFILES, TargetError, infer_targets, parse_targets
from tests._fixtures_cli import run_cli_here, run_json_here
from tests.conftest import ROOT, internal_errors, load_case, needs_shared


def check(
    tmp_path: Path,
    tools: Any,
    targets: list[str] | None = None,
    name: str = "tools.json",
    select: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Write ``tools`` to a file and return the SL3 diagnostics of checking it, as JSON dicts."""
    path = tmp_path / name
    path.write_text(json.dumps(tools, indent=2))
    result = api.check([str(path)], targets=targets or [], select=select or ["SL3"])
    return [d.to_json() for d in result.diagnostics]


def codes(diags: list[dict[str, Any]], severity: str | None = None) -> set[str]:
    return {d["code"] for d in diags if severity is None or d["severity"] == severity}


# ---------------------------------------------------------------- targets


def test_parse_targets_adds_replaces_and_expands_all() -> None:
    assert parse_targets(["openai-strict", "gemini"]).targets == {"openai-strict", "gemini"}
    assert not parse_targets(["openai"]).replace
    spec = parse_targets(["=openai", "GEMINI"])
    assert spec.replace and spec.targets == {"openai", "gemini"}
    assert parse_targets(["all"]).targets == set(PROFILES)
    with pytest.raises(TargetError, match="unknown target 'openia'"):
        parse_targets(["openia"])


def _tool(fmt: str, raw: dict[str, Any]) -> Tool:
    return Tool(
        name="t", description=None, advertised={"type": "object"}, origin=Origin("f", "", fmt), raw=raw
    )


@pytest.mark.parametrize(
    ("fmt", "raw", "expected"),
    [
        ("openai-chat", {"function": {"strict": True}}, {"openai-strict"}),
        ("openai-chat", {"function": {}}, {"openai"}),
        ("openai-responses", {"strict": True}, {"openai-strict"}),
        ("openai-responses", {"strict": None}, {"openai"}),
        ("anthropic", {"strict": True}, {"anthropic-strict"}),
        ("anthropic", {}, {"anthropic"}),
        ("gemini", {}, {"gemini"}),
        ("gemini-json", {}, {"gemini-json"}),
        ("mcp", {}, {"mcp"}),
        ("function", {"strict": True}, set()),
        ("manifest", {}, set()),
        ("docker-arguments", {}, set()),
    ],
)
def test_infer_targets(fmt: str, raw: dict[str, Any], expected: set[str]) -> None:
    assert infer_targets(_tool(fmt, raw)) == expected


def test_context_targets_for_adds_or_replaces() -> None:
    tool = _tool("mcp", {})
    assert Context(targets=frozenset({"openai"})).targets_for(tool) == {"mcp", "openai"}
    assert Context(targets=frozenset({"openai"}), replace_targets=True).targets_for(tool) == {"openai"}
    assert Context().targets_for(_tool("function", {})) == frozenset()


def test_provider_rules_run_on_inferred_targets_and_skip_untargeted(tmp_path: Path) -> None:
    bad_params = {"type": "object", "properties": {"tags": {"type": "array"}}}
    openai = [{"type": "function", "function": {"name": "t", "parameters": bad_params}}]
    legacy = [{"name": "t", "parameters": bad_params}]  # BFCL/Gorilla shape: no inferred target
    assert "SL309" in codes(check(tmp_path, openai))
    assert check(tmp_path, legacy) == []
    assert "SL309" in codes(check(tmp_path, legacy, ["openai"]))
    # replacing the inferred target with one the rule does not belong to silences it
    assert "SL309" not in codes(check(tmp_path, openai, ["=anthropic"]))


def test_cli_target_syntax_and_unknown_target(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps([{"name": "a.b", "inputSchema": {"type": "object", "properties": {}}}]))
    code, report = run_json_here("check", str(path), "--target", "=bedrock", "--select", "SL3")
    assert code == 1
    assert [d["code"] for d in report["diagnostics"]] == ["SL301"]
    assert report["diagnostics"][0]["message"].startswith("[Bedrock]")
    proc = run_cli_here("check", str(path), "--target", "openia")
    assert (
        proc.returncode == 2 and "unknown target 'openia'" in proc.stderr and "Traceback" not in proc.stderr
    )


# ---------------------------------------------------------------- shared cases


def _case_tools(name: str) -> Any:
    return load_case(name)["tools"]


@needs_shared
@pytest.mark.parametrize(
    ("case", "targets", "expected"),
    [
        # (code, tool or None, schema pointer suffix of the diagnostic)
        ("001", [], [("SL308", "summarize_album", "/function/parameters/required")]),
        ("002", [], [("SL308", "edit_note", "/function/parameters/required")]),
        (
            "004",
            [],
            [
                ("SL313", "apply_edits", "/parameters/properties/edits/items/additionalProperties"),
                ("SL313", "search_notes", "/parameters/properties/filter/anyOf/0/additionalProperties"),
            ],
        ),
        (
            "006",
            [],
            [
                ("SL313", "get_forecast", "/parameters/$defs"),
                ("SL313", "get_forecast", "/parameters/properties/place/$ref"),
            ],
        ),
        (
            "007",
            [],
            [
                ("SL314", "index_repo", "/parameters/properties/paths/type"),
                ("SL314", "index_repo", "/parameters/properties/dry_run/type"),
            ],
        ),
        ("009", ["openai"], [("SL309", "find_pets_by_tags", "/function/parameters/properties/tags")]),
        (
            "013",
            ["anthropic"],
            [("SL305", "find_record", "/inputSchema/anyOf")],  # the missing root type: SL002
        ),
        ("024", [], [("SL310", "start_run", "/inputSchema/properties/input")]),
    ],
)
def test_shared_case_findings(
    tmp_path: Path, case: str, targets: list[str], expected: list[tuple[str, str, str]]
) -> None:
    diags = check(tmp_path, _case_tools(case), targets)
    for code, tool, suffix in expected:
        hits = [d for d in diags if d["code"] == code and d["tool"] == tool and d["pointer"].endswith(suffix)]
        got = [(d["code"], d["pointer"]) for d in diags]
        assert hits, f"case {case}: no {code} at ...{suffix} for {tool}; got {got}"
        assert all(d["hint"] for d in hits)


@needs_shared
def test_case_verdicts_severity(tmp_path: Path) -> None:
    # the provider refuses these: errors. 024 is a client behaviour: a warning for MCP.
    assert codes(check(tmp_path, _case_tools("001")), "error") == {"SL308"}
    assert codes(check(tmp_path, _case_tools("002")), "error") == {"SL308"}
    assert codes(check(tmp_path, _case_tools("007")), "error") == {"SL314"}
    diags = check(tmp_path, _case_tools("024"))
    assert codes(diags) == {"SL310"} and codes(diags, "error") == set()
    # 013: list_records is fine; only find_record is reported
    assert {d["tool"] for d in check(tmp_path, _case_tools("013"), ["anthropic"])} == {"find_record"}


@needs_shared
def test_case_must_not_flag(tmp_path: Path) -> None:
    # 001: format uuid is supported in strict mode; 002/026: nullable unions are the accepted idiom
    assert codes(check(tmp_path, _case_tools("001"))) == {"SL308"}
    assert not [d for d in check(tmp_path, _case_tools("002")) if "/properties/" in d["pointer"]]
    # 004: anyOf itself is fine for Gemini
    assert not [d for d in check(tmp_path, _case_tools("004")) if d["pointer"].endswith("/anyOf")]
    # 007: nullable on a single type is accepted
    assert not [d for d in check(tmp_path, _case_tools("007")) if "/note" in d["pointer"]]
    # 024: the typed 'workflow' parameter is not reported
    assert not [d for d in check(tmp_path, _case_tools("024")) if "workflow" in d["pointer"]]


@needs_shared
@pytest.mark.parametrize(
    ("case", "targets"),
    [
        ("026", []),
        ("026", ["openai-strict"]),
        ("028", []),
        ("028", ["mcp"]),
        ("031", []),
        ("031", ["anthropic"]),
    ],
)
def test_clean_cases_have_no_errors(tmp_path: Path, case: str, targets: list[str]) -> None:
    diags = check(tmp_path, _case_tools(case), targets)
    assert codes(diags, "error") == set(), diags


# ---------------------------------------------------------------- rule pages

PAGE_BLOCK = re.compile(r"## (Bad|Good)\s*\n(?:\s*<!--\s*args:(.*?)-->\s*\n)?\s*```json\n(.*?)```", re.S)


def _pages() -> list[Path]:
    return sorted((ROOT / "rules").glob("SL3*.md"))


def test_every_provider_rule_has_a_page_and_metadata() -> None:
    pages = {p.name.split("-", 1)[0]: p for p in _pages()}
    assert len(RULES) == len(pages)
    for cls in RULES:
        page = pages[cls.code]
        text = page.read_text()
        assert page.name == f"{cls.code}-{cls.name}.md"
        assert text.startswith(f"# {cls.code} {cls.name}\n")
        for section in ("## What it catches", "## Why it matters", "## Bad", "## Good", "## Source"):
            assert section in text, (page, section)
        assert re.search(r"20\d\d", text.split("## Source", 1)[1]), f"{page.name}: source without a date"
        assert cls.targets and set(cls.targets) <= set(PROFILES) and cls.source and cls.__doc__


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.name)
def test_page_examples(tmp_path: Path, page: Path) -> None:
    code = page.name.split("-", 1)[0]
    blocks = PAGE_BLOCK.findall(page.read_text())
    assert [b[0] for b in blocks] == ["Bad", "Good"]
    for kind, args, body in blocks:
        targets = [a for a in (args or "").replace("--target", " ").split() if a]
        diags = check(tmp_path, json.loads(body), targets, name=f"{kind}.json", select=[code])
        if kind == "Bad":
            assert diags, f"{page.name}: the Bad example does not trigger {code}"
        else:
            assert not diags, f"{page.name}: the Good example triggers {code}: {diags}"


# ---------------------------------------------------------------- catalog limits and options


def _strict_anthropic(i: int, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "name": f"t{i}",
        "description": "d",
        "strict": True,
        "input_schema": {
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": False,
        },
    }


def test_anthropic_strict_budgets_across_tools(tmp_path: Path) -> None:
    nullable = {"type": ["string", "null"]}
    # 9 tools x 2 union params = 18 > 16; 9 x 3 optional = 27 > 24: reported once each, on the tool
    # that crosses the budget
    tools = [
        _strict_anthropic(
            i,
            {
                "a": nullable,
                "b": nullable,
                "c": {"type": "string"},
                "d": {"type": "string"},
                "e": {"type": "string"},
            },
            ["a", "b"],
        )
        for i in range(9)
    ]
    diags = [d for d in check(tmp_path, tools) if d["code"] == "SL320"]
    messages = sorted((d["tool"], d["message"].split(";")[0]) for d in diags)
    assert len(diags) == 2, messages
    assert {d["tool"] for d in diags} == {"t8"}
    # non-strict Anthropic tools do not count
    for t in tools:
        t["strict"] = False
    assert not [d for d in check(tmp_path, tools) if d["code"] == "SL320"]


def test_too_many_tools_is_per_file(tmp_path: Path) -> None:
    tools = [
        {
            "type": "function",
            "function": {"name": f"f{i}", "parameters": {"type": "object", "properties": {}}},
        }
        for i in range(129)
    ]
    diags = check(tmp_path, tools)
    assert [(d["code"], d["tool"]) for d in diags] == [("SL321", "f128")]
    (tmp_path / "b").mkdir()
    assert check(tmp_path / "b", tools[:128]) == []


def test_name_collision_after_sanitising(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {}}
    tools = [
        {"name": "files.read", "inputSchema": schema},
        {"name": "files_read", "inputSchema": schema},
        {"name": "files-read", "inputSchema": schema},
    ]
    mcp_only = check(tmp_path, tools)
    assert "SL322" not in codes(mcp_only)  # MCP allows '.', nothing collides
    diags = [d for d in check(tmp_path, tools, ["openai"]) if d["code"] == "SL322"]
    assert [d["tool"] for d in diags] == ["files_read"] and "files.read" in diags[0]["message"]


def test_numeric_limits_come_from_options() -> None:
    desc = "x" * 50
    tool = Tool(
        name="t",
        description=desc,
        advertised={"type": "object", "properties": {}},
        origin=Origin("f.json", "", "openai-chat"),
        raw={"type": "function", "function": {}},
    )
    rules = [r() for r in RULES]
    assert not [d for d in run_rules(rules, [tool], Context()) if d.code == "SL302"]
    ctx = Context(options={"SL302": {"max_length": 10}})
    found = [d for d in run_rules(rules, [tool], ctx) if d.code == "SL302"]
    assert found and "50 characters" in found[0].message and found[0].severity.value == "warning"


def test_unconfirmed_limits_are_warnings(tmp_path: Path) -> None:
    deep: dict[str, Any] = {"type": "string"}
    for i in range(7):
        deep = {"type": "object", "properties": {f"l{i}": deep}, "required": [f"l{i}"]}
    gemini = [{"functionDeclarations": [{"name": "d", "description": "d", "parameters": deep}]}]
    found = [d for d in check(tmp_path, gemini) if d["code"] == "SL318"]
    assert found and {d["severity"] for d in found} == {"warning"}
    gj = [
        {
            "functionDeclarations": [
                {
                    "name": "d",
                    "description": "d",
                    "parametersJsonSchema": {
                        "type": "object",
                        "properties": {"n": {"type": "number", "exclusiveMinimum": 0}},
                    },
                }
            ]
        }
    ]
    assert {d["severity"] for d in check(tmp_path, gj)} == {"warning"}


def test_bad_input_never_crashes(tmp_path: Path) -> None:
    weird = [
        {"type": "function", "function": {"name": "a", "parameters": [1, 2]}},
        {
            "type": "function",
            "function": {
                "name": "b",
                "parameters": {"type": "object", "properties": [], "required": "x", "items": 3},
            },
        },
        {"name": "c", "input_schema": None},
        {"name": "", "inputSchema": {"type": ["object", "null"], "properties": {"x": True, "y": None}}},
        {
            "functionDeclarations": [
                {
                    "name": "9d",
                    "parameters": {
                        "type": "object",
                        "properties": {"x": {"type": 5, "enum": "no", "format": 3}},
                    },
                }
            ]
        },
    ]
    diags = check(tmp_path, weird, ["all"])
    assert diags and not internal_errors(diags)


# ---------------------------------------------------------------- real corpus


@needs_shared
def test_corpus_mcp_servers_against_openai(tmp_path: Path) -> None:
    from conftest import CORPUS

    code, report = run_json_here(
        "check", str(CORPUS / "mcp-proxy-snapshots"), "--target", "=openai", "--select", "SL3"
    )
    assert code in (0, 1)
    diags = report["diagnostics"]
    assert report["summary"]["tools"] > 50
    assert all(d["code"].startswith("SL3") and d["message"].startswith("[OpenAI") for d in diags)
    # every finding points at a real place in the file and carries a hint
    assert all(d["line"] and d["hint"] for d in diags)


def test_docker_argument_lists_are_not_missing_schemas(tmp_path: Path) -> None:
    docker = [
        {"name": "run", "description": "Run.", "arguments": [{"name": "cmd", "type": "string", "desc": "x"}]}
    ]
    assert check(tmp_path, docker, ["=mcp"]) == []
    null_schema = [{"name": "get_me", "description": "Me.", "inputSchema": None}]
    found = check(tmp_path, null_schema, ["anthropic"])
    assert [d["code"] for d in found] == []  # SL002 reports the null schema; SL304 adds nothing
