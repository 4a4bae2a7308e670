"""The provider-facts table is the one place of every provider limit and refused shape: the rules
read it, docs/targets.md shows it, and each rule page names the source and value of every row its
rule declares (``ProviderRule.facts``). These tests fail when a page, the docs or the code that
reads a row disagree with the table."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from schemalint.provider_facts import FACTS, Fact, fact, markdown_table
from schemalint.rule_docs import find_page
from schemalint.rules.registry import all_rules
from tests.conftest import ROOT

DOCS = ROOT / "docs" / "targets.md"
_BLOCK = re.compile(r"<!-- provider-facts -->\n(.*?)<!-- /provider-facts -->", re.S)


def _rules_with_facts() -> list:
    return [r for r in all_rules() if getattr(r, "facts", ())]


def page_disagreements(page_text: str, facts: Iterable[Fact]) -> list[str]:
    """What a rule page fails to say of the facts its rule declares: each row's source URL and
    each part of its value must appear in the page."""
    out = []
    for f in facts:
        if f.source not in page_text:
            out.append(f"{f.key}: source {f.source} not named")
        parts = f.value if isinstance(f.value, (tuple, list, frozenset)) else (f.value,)
        for part in parts:
            if str(part) not in page_text:
                out.append(f"{f.key}: value {part!r} not stated")
    return out


def test_keys_are_unique_and_rows_complete() -> None:
    keys = [f.key for f in FACTS]
    assert len(keys) == len(set(keys))
    for f in FACTS:
        assert f.evidence.split()[0] in {"DOC", "SPEC", "SDK", "OBS", "3P", "UNCONFIRMED"}, f.key
        assert f.source.startswith("https://"), f.key
        assert re.match(r"^\d{4}-\d{2}(-\d{2})?$", f.seen), f.key


def test_docs_targets_shows_the_table() -> None:
    m = _BLOCK.search(DOCS.read_text(encoding="utf-8"))
    assert m, "docs/targets.md has no <!-- provider-facts --> block"
    assert m.group(1) == markdown_table(), (
        "docs/targets.md 'Provider facts' differs from schemalint/provider_facts.py; regenerate it with "
        "python -c 'from schemalint.provider_facts import markdown_table; print(markdown_table(), end=\"\")'")


def test_docs_targets_shows_the_profiles() -> None:
    """A new provider target is its row in ``targets.PROFILES``; docs/targets.md's table follows."""
    from schemalint.targets import DISPLAY, PROFILES, markdown_profiles

    m = re.search(r"<!-- profiles -->\n(.*?)<!-- /profiles -->", DOCS.read_text(encoding="utf-8"), re.S)
    assert m, "docs/targets.md has no <!-- profiles --> block"
    assert m.group(1) == markdown_profiles(), (
        "docs/targets.md 'Profiles' differs from schemalint/targets.py PROFILES; regenerate it with "
        "python -c 'from schemalint.targets import markdown_profiles; print(markdown_profiles(), end=\"\")'")
    assert list(DISPLAY) == list(PROFILES), "every profile needs its display name, in the same order"


@pytest.mark.parametrize("rule", _rules_with_facts(), ids=lambda r: r.code)
def test_rule_page_names_its_facts(rule) -> None:
    page = find_page(rule)
    assert page is not None
    facts = [fact(k) for k in rule.facts]  # KeyError: a rule declares a row the table lacks
    assert page_disagreements(page.read_text(encoding="utf-8"), facts) == []


def test_every_fact_is_used() -> None:
    used = {k for r in _rules_with_facts() for k in r.facts}
    read_by_code = {"mcp.revisions", "mcp.default-dialect"}
    unused = [f.key for f in FACTS if f.key not in used | read_by_code]
    assert not unused, f"facts no rule declares: {unused}"


def test_code_reads_its_rows() -> None:
    from schemalint.schema.dialect import MCP_DIALECT
    from schemalint.targets import LATEST_MCP, MCP_REVISIONS

    assert tuple(fact("mcp.revisions").value) == MCP_REVISIONS
    assert MCP_REVISIONS[-1] == LATEST_MCP
    assert fact("mcp.default-dialect").value == MCP_DIALECT
    from schemalint.rules.provider.sl318_nesting_depth import NestingDepth

    assert NestingDepth.options["openai_max_depth"] == fact("openai-strict.max-depth").value


def test_migrated_limits_and_keyword_lists_are_read_from_the_rows() -> None:
    """SL301, SL302, SL319, SL321 (limits) and SL311, SL313-SL315 (keyword lists) take their values
    from the table: a rule's defaults and lists equal the rows, and each rule declares them."""
    from schemalint.rules.provider import (
        sl301_tool_name_pattern as sl301,
    )
    from schemalint.rules.provider import (
        sl302_description_too_long as sl302,
    )
    from schemalint.rules.provider import (
        sl311_openai_strict_unsupported_keyword as sl311,
    )
    from schemalint.rules.provider import (
        sl313_gemini_unsupported_keyword as sl313,
    )
    from schemalint.rules.provider import (
        sl314_gemini_invalid_type as sl314,
    )
    from schemalint.rules.provider import (
        sl315_gemini_json_unsupported_keyword as sl315,
    )
    from schemalint.rules.provider import (
        sl319_strict_schema_size as sl319,
    )
    from schemalint.rules.provider import (
        sl321_too_many_tools as sl321,
    )

    v = lambda key: fact(key).value  # noqa: E731
    assert sl301.ToolNamePattern.options == {"max_length": v("openai.tool-name")[1],
                                             "mcp_max_length": v("mcp.tool-name")[1],
                                             "anthropic_max_length": v("anthropic.tool-name")[1]}
    assert sl301._GEMINI_CHARS.pattern == f"[^{v('gemini.tool-name')[0]}]"
    assert sl301._MCP_CHARS.pattern == f"[^{v('mcp.tool-name')[0]}]"
    assert sl302.DescriptionTooLong.options["max_length"] == v("openai.description-max-length") == 1024
    assert sl319.StrictSchemaSize.options == {
        "max_properties": v("openai-strict.max-properties"), "max_enum_values": v("openai-strict.max-enum-values"),
        "max_string_budget": v("openai-strict.max-string-budget"),
        "large_enum_values": v("openai-strict.large-enum")[0], "large_enum_chars": v("openai-strict.large-enum")[1]}
    assert sl321.TooManyTools.options == {"openai_max_tools": v("openai.max-tools"),
                                          "gemini_max_tools": v("gemini.max-tools")}
    errors = {k for k, (sev, _, _) in sl311.TABLE.items() if sev.name == "ERROR"}
    assert errors == set(v("openai-strict.refused-keywords"))
    assert set(sl311.TABLE) - errors == set(v("openai-strict.unlisted-keywords")) | set(v("openai-strict.default"))
    assert frozenset(v("openai-strict.formats")) == sl311.FORMATS
    assert frozenset(v("gemini.schema-fields")) == sl313.ALLOWED
    assert frozenset(v("gemini.types")) == sl314.TYPES
    assert set(sl315.TABLE) == set(v("gemini-json.unconfirmed-keywords"))
    for rule, keys in ((sl301.ToolNamePattern, ("openai.tool-name", "mcp.tool-name")),
                       (sl302.DescriptionTooLong, ("openai.description-max-length",)),
                       (sl319.StrictSchemaSize, ("openai-strict.max-properties",)),
                       (sl321.TooManyTools, ("openai.max-tools", "gemini.max-tools")),
                       (sl311.OpenAIStrictUnsupportedKeyword, ("openai-strict.refused-keywords",)),
                       (sl313.GeminiUnsupportedKeyword, ("gemini.schema-fields",)),
                       (sl314.GeminiInvalidType, ("gemini.types",)),
                       (sl315.GeminiJsonUnsupportedKeyword, ("gemini-json.unconfirmed-keywords",))):
        assert set(keys) <= set(rule.facts), rule


def test_a_moved_row_moves_the_rule(tmp_path: Path) -> None:
    """The rules read the rows when they are imported: a row that moves (here OpenAI's tool count)
    changes what a fresh interpreter reports, with no change to the rule's code."""
    import json
    import subprocess
    import sys

    tools = [{"type": "function", "function": {"name": f"t{i}", "description": "d",
                                                "parameters": {"type": "object", "properties": {}}}}
             for i in range(6)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    code = ("import sys, dataclasses, schemalint.provider_facts as pf\n"
            "i = next(i for i, f in enumerate(pf.FACTS) if f.key == 'openai.max-tools')\n"
            "rows = list(pf.FACTS); rows[i] = dataclasses.replace(rows[i], value=5); pf.FACTS = tuple(rows)\n"
            "pf._BY_KEY.update({f.key: f for f in pf.FACTS})\n"
            "from schemalint.api import check\n"
            "print(sorted(d.code for d in check([sys.argv[1]], select=['SL321']).diagnostics))\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert out.stdout.strip() == "['SL321']", out.stderr
    plain = subprocess.run([sys.executable, "-c", code.replace("value=5", "value=128"), str(path)],
                           capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert plain.stdout.strip() == "[]", plain.stderr


def test_a_changed_row_is_caught() -> None:
    """The page check fails when the table moves on and the page does not (the check can fail)."""
    rule = next(r for r in _rules_with_facts() if r.code == "SL318")
    text = Path(find_page(rule)).read_text(encoding="utf-8")
    moved = [Fact(**{**fact("openai-strict.max-depth").__dict__, "value": 987654,
                     "source": "https://example.invalid/new-docs"})]
    found = page_disagreements(text, moved)
    assert any("source" in x for x in found) and any("value 987654" in x for x in found)
    assert page_disagreements(text, [fact("openai-strict.max-depth")]) == []
