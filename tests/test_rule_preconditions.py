"""The rules' declared keyword preconditions (``Rule.keywords``) hold.

The run loop does not call a rule for a tool none of whose walked subschemas holds one of the
rule's keywords (:func:`schemalint.engine.run_loop.run_tool_rules`). That is only a speed-up if
such a rule would have found nothing there: checked here directly (every gated rule called on
every tool that lacks its keywords finds nothing) and through the loop (skipping on and off give
the same diagnostics, in the same order), on generated schemas and on the shared corpus.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemalint.engine.run_loop import run_tool_rules, tool_keywords
from schemalint.model import Diagnostic, Origin, Tool, running
from schemalint.rules.base import Context, Rule
from schemalint.rules.registry import all_rules
from schemalint.targets import PROFILES
from tests.conftest import examples, needs_shared

RULES = all_rules()
GATED = [r for r in RULES if r.keywords is not None]
SOME = [r for r in RULES if r.keywords is not None or not r.checks_tools()
        or r.code in ("SL001", "SL002", "SL306", "SL313")]
"""The rules the generated cases run through the loop: the gated ones, those with no per-tool check
(:meth:`Rule.checks_tools`, never called per tool) and a few that are always called."""

_MAPS = ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]
_SINGLE = ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"]
_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"]
_PLAIN = ["type", "required", "$ref", "enum", "const", "format", "pattern", "minItems", "maximum",
          "minimum", "nullable", "description", "default", "$id", "$anchor", "title", "minLength",
          "additionalItems", "uniqueItems", "x-extra"]
_NAMES = ["a", "b", "filter[id]", "with space", "ok_name", "x" * 70]


def _plain(key: str) -> st.SearchStrategy[Any]:
    if key == "type":
        return st.one_of(st.sampled_from(["object", "string", "array", "integer", "null", "dict", "OBJECT", ""]),
                         st.lists(st.sampled_from(["string", "null", "number", "object"]), max_size=3))
    if key == "required":
        return st.one_of(st.lists(st.sampled_from(_NAMES), max_size=3), st.booleans())
    if key == "$ref":
        return st.sampled_from(["#", "#/$defs/a", "#/properties/a", "#/definitions/b", "other.json#/x",
                                "#anchor", "#/$defs/missing", "https://example.invalid/s.json"])
    if key == "enum":
        return st.lists(st.one_of(st.text(max_size=3), st.integers(), st.none(), st.just({"k": 1})), max_size=3)
    if key == "format":
        return st.sampled_from(["date-time", "uri", "email", "phone"])
    if key == "pattern":
        return st.sampled_from(["^a+$", "(?=x)a", "\\bword", "(a)\\1"])
    return st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=4))


def _schemas() -> st.SearchStrategy[Any]:
    base = st.fixed_dictionaries({}, optional={k: _plain(k) for k in ["type", "description", "$ref", "enum"]})

    def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        optional: dict[str, st.SearchStrategy[Any]] = {k: _plain(k) for k in _PLAIN}
        for key in _MAPS:
            optional[key] = st.dictionaries(st.sampled_from(_NAMES), children, max_size=3)
        for key in _SINGLE:
            optional[key] = st.one_of(children, st.booleans())
        for key in _LISTS:
            optional[key] = st.lists(children, max_size=3)
        return st.fixed_dictionaries({}, optional=optional)

    return st.recursive(base, extend, max_leaves=12)


_FORMATS = ["mcp", "openai-chat", "anthropic", "gemini", "gemini-json", "openai-responses"]


def _tool(schema: Any, fmt: str, i: int = 0, output: Any = None) -> Tool:
    raw = {"name": f"t{i}", "inputSchema": schema, "strict": True}
    return Tool(name=f"t{i}", description="A tool.", advertised=schema, origin=Origin("tools.json", f"/{i}", fmt),
                schema_path="/inputSchema", output_schema=output, raw=raw)


def _context(tools: Sequence[Tool], targets: frozenset[str]) -> Context:
    return Context(targets=targets, catalog=tools, probe=False)


def _unmet(rule: Rule, tool: Tool) -> bool:
    assert rule.keywords is not None
    return rule.keywords.isdisjoint(tool_keywords(tool))


def _precondition_failures(tools: Sequence[Tool], targets: frozenset[str]) -> list[tuple[str, str, Diagnostic]]:
    ctx = _context(tools, targets)
    failures = []
    with running(ctx.run):
        for tool in tools:
            for rule in GATED:
                if rule.applies(ctx) and _unmet(rule, tool):
                    failures.extend((rule.code, tool.name, d) for d in rule.check_tool(tool, ctx))
    return failures


def _loop(tools: Sequence[Tool], targets: frozenset[str], skip: bool,
          rules: Sequence[Rule] = RULES) -> list[Diagnostic]:
    ctx = _context(tools, targets)
    with running(ctx.run):
        active = [r for r in rules if r.applies(ctx)]
        return list(run_tool_rules(active, tools, ctx, skip=skip))


def test_the_shape_and_provider_rules_declare_their_keywords() -> None:
    declared = {r.code for r in GATED}
    assert {"SL003", "SL004", "SL305", "SL308", "SL309", "SL310", "SL314", "SL316", "SL317", "SL324",
            "SL325"} <= declared
    assert all(isinstance(r.keywords, frozenset) and r.keywords for r in GATED)
    catalog_only = {r.code for r in RULES if not r.checks_tools()}
    assert {"SL005", "SL321", "SL322"} <= catalog_only and not catalog_only & declared


def test_a_tool_without_the_keyword_skips_the_rule_and_one_with_it_does_not() -> None:
    plain = _tool({"type": "object", "properties": {"a": {"type": "string"}}}, "mcp")
    broken = _tool({"type": "object", "properties": {"a": {"$ref": "#/$defs/gone"}}}, "mcp", 1)
    out = _tool({"type": "object"}, "mcp", 2, output={"type": "object", "properties": {"r": {"$ref": "#/nowhere"}}})
    sl004 = next(r for r in GATED if r.code == "SL004")
    assert _unmet(sl004, plain) and not _unmet(sl004, broken) and not _unmet(sl004, out)
    found = _loop([plain, broken, out], frozenset(), skip=True)
    assert [(d.code, d.tool) for d in found if d.code == "SL004"] == [("SL004", "t1"), ("SL004", "t2")]
    assert found == _loop([plain, broken, out], frozenset(), skip=False)


def test_fault_injection_still_reaches_a_skipped_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCHEMALINT_FAIL_RULE", "SL004")
    found = _loop([_tool({"type": "object"}, "mcp")], frozenset(), skip=True)
    assert [d.code for d in found if "SL004" in d.message] == ["SL999"]


@settings(max_examples=int(os.environ.get("SCHEMALINT_PRECONDITION_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.tuples(_schemas(), st.sampled_from(_FORMATS), st.one_of(st.none(), _schemas())),
                min_size=1, max_size=4))
def test_generated_schemas_skipping_changes_nothing(cases: list[tuple[Any, str, Any]]) -> None:
    tools = [_tool(schema, fmt, i, output) for i, (schema, fmt, output) in enumerate(cases)]
    for targets in (frozenset(), frozenset(PROFILES)):
        assert _precondition_failures(tools, targets) == []
        assert _loop(tools, targets, True, SOME) == _loop(tools, targets, False, SOME)


@pytest.fixture(scope="module")
def corpus_tools(corpus_loaded: Any) -> list[Tool]:
    return corpus_loaded.tools


@needs_shared
def test_corpus_tools_lacking_a_rules_keywords_give_it_nothing(corpus_tools: list[Tool]) -> None:
    assert len(corpus_tools) > 10_000
    assert _precondition_failures(corpus_tools, frozenset(PROFILES)) == []
    # the skip is real: most corpus tools lack `$ref`, so SL004 and SL316 are skipped for them
    sl004 = next(r for r in GATED if r.code == "SL004")
    assert sum(_unmet(sl004, t) for t in corpus_tools) > len(corpus_tools) // 2


@needs_shared
def test_corpus_skipping_changes_nothing(corpus_tools: list[Tool]) -> None:
    part = corpus_tools[::7]
    assert _loop(part, frozenset(), skip=True) == _loop(part, frozenset(), skip=False)
    assert _loop(part, frozenset(PROFILES), skip=True) == _loop(part, frozenset(PROFILES), skip=False)


# In-rule fast paths: a cheap early answer must be the answer of the full analysis.

_REQUIRED_ENTRIES = st.one_of(st.sampled_from(_NAMES), st.sampled_from([5, None, ["a"], {"k": 1}]))
_OBJECTS = st.recursive(
    st.fixed_dictionaries({}, optional={
        "type": st.sampled_from(["object", "string", "array"]),
        "properties": st.dictionaries(st.sampled_from(_NAMES), st.just({"type": "string"}), max_size=3),
        "required": st.lists(_REQUIRED_ENTRIES, max_size=4),
        "patternProperties": st.just({"^filter": {"type": "string"}}),
        "additionalProperties": st.booleans(),
    }),
    lambda inner: st.fixed_dictionaries({}, optional={
        "properties": st.dictionaries(st.sampled_from(_NAMES), inner, max_size=2),
        "required": st.lists(_REQUIRED_ENTRIES, max_size=3),
        "allOf": st.lists(inner, max_size=2), "anyOf": st.lists(inner, max_size=2), "then": inner,
        "$defs": st.dictionaries(st.sampled_from(_NAMES), inner, max_size=2),
    }),
    max_leaves=8,
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_OBJECTS, _schemas()))
def test_sl003_fast_path_answers_as_the_full_check(schema: Any) -> None:
    from schemalint.schema.index import index_schema

    sl003 = next(r for r in RULES if r.code == "SL003")
    tool = _tool(schema, "mcp")
    ctx = _context([tool], frozenset())
    with running(ctx.run):
        full = [d for node in index_schema(schema).required
                for d in sl003._check_node(tool, schema, node)] if isinstance(schema, dict) else []
        assert list(sl003.check_tool(tool, ctx)) == full


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_schemas(), st.sampled_from(_FORMATS)), min_size=1, max_size=3))
def test_sl310_without_loose_properties_finds_nothing(cases: list[tuple[Any, str]]) -> None:
    """SL310 returns at once for a schema whose every property has `type`, `anyOf` or `$ref`
    (:attr:`schemalint.schema.index.SchemaIndex.loose_properties`): the same as its full loop."""
    from schemalint.rules.provider._common import ProviderView

    sl310 = next(r for r in RULES if r.code == "SL310")
    tools = [_tool(schema, fmt, i) for i, (schema, fmt) in enumerate(cases)]
    quick = _loop(tools, frozenset(PROFILES), True, [sl310])
    original = ProviderView.loose_properties
    try:
        ProviderView.loose_properties = property(lambda self: True)  # type: ignore[assignment,method-assign]
        assert _loop(tools, frozenset(PROFILES), True, [sl310]) == quick
    finally:
        ProviderView.loose_properties = original  # type: ignore[method-assign]


_NAME_CHARS = st.sampled_from([*"aZ_09-.:é ~[", "ß", "名"])


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(_NAME_CHARS, max_size=70).map("".join), min_size=1, max_size=4),
       st.sampled_from(_FORMATS), st.sampled_from([None, 3, 64, 200]))
def test_sl301_plainly_portable_names_find_nothing(names: list[str], fmt: str, limit: int | None) -> None:
    """SL301 skips its per-target look for a name :func:`plainly_portable` accepts: the same
    diagnostics as without the shortcut, for every target and length limit."""
    import schemalint.rules.provider.sl301_tool_name_pattern as sl301_module

    sl301 = next(r for r in RULES if r.code == "SL301")
    tools = [Tool(name=n, description="A tool.", advertised={"type": "object"}, origin=Origin("t.json", f"/{i}", fmt),
                  schema_path="/inputSchema", raw={"name": n}) for i, n in enumerate(names)]
    options = {} if limit is None else {"SL301": {"max_length": limit, "mcp_max_length": limit}}

    def found() -> list[Diagnostic]:
        ctx = Context(targets=frozenset(PROFILES), catalog=tools, probe=False, options=options)
        with running(ctx.run):
            return list(run_tool_rules([sl301], tools, ctx))

    quick = found()
    original = sl301_module.plainly_portable
    try:
        sl301_module.plainly_portable = lambda name, max_length: False
        assert found() == quick
    finally:
        sl301_module.plainly_portable = original
