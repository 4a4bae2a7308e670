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


def test_a_changed_row_is_caught() -> None:
    """The page check fails when the table moves on and the page does not (the check can fail)."""
    rule = next(r for r in _rules_with_facts() if r.code == "SL318")
    text = Path(find_page(rule)).read_text(encoding="utf-8")
    moved = [Fact(**{**fact("openai-strict.max-depth").__dict__, "value": 987654,
                     "source": "https://example.invalid/new-docs"})]
    found = page_disagreements(text, moved)
    assert any("source" in x for x in found) and any("value 987654" in x for x in found)
    assert page_disagreements(text, [fact("openai-strict.max-depth")]) == []
