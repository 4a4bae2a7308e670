"""Every registered rule has a page in rules/, every page a rule, and every page's examples work.

A page is ``rules/<CODE>-<name>.md`` with the sections ``# CODE name``, ``## What it
catches``, ``## Why it matters``, ``## Bad`` and ``## Good`` (optionally ``## Fix``,
``## Source``, ``## Options``; tests/test_fix_pages.py checks ``## Fix``). The first fenced
block under ``## Bad`` (```json, or ```text for input that is not JSON, written to the file
as is) must make ``schemalint check FILE --select CODE`` report CODE; the block under
``## Good`` must not. An HTML comment ``<!-- args: --target gemini -->`` right above a block
adds CLI arguments.

A traffic rule's page (``SL4xx``) holds recorded traffic: ``schemalint replay FILE --select CODE``
instead of ``check``.

A diff check's page (``SDxxx``) holds two blocks under ``## Bad`` and under ``## Good``: the
base and the revision; ``schemalint diff BASE REVISION --select CODE`` must report CODE for
the Bad pair and must not for the Good pair.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from schemalint.rule_docs import PageExample, diff_checks, page_examples, page_sections
from schemalint.rules.registry import all_rules
from tests.conftest import ROOT, cli

PAGES = ROOT / "rules"
REQUIRED_SECTIONS = ("What it catches", "Why it matters", "Bad", "Good")
ALLOWED_SECTIONS = (*REQUIRED_SECTIONS, "Fix", "Source", "Options")  # Fix: tests/test_fix_pages.py
_PAGE_NAME = re.compile(r"^(SL|SD)\d{3}-[a-z0-9]+(-[a-z0-9]+)*\.md$")
def _pages() -> list[Path]:
    return sorted(p for p in PAGES.glob("*.md") if _PAGE_NAME.match(p.name))


def _example(text: str, section: str) -> PageExample:
    """The first fenced example block of a page's section (:func:`schemalint.rule_docs.page_examples`)."""
    examples = page_examples(text, section)
    assert examples, f"no ```json or ```text block in the section {section!r}"
    return examples[0]


def _codes_for(tmp_path: Path, name: str, example: PageExample, code: str) -> list[str]:
    path = tmp_path / f"{name}.json"
    if example.lang == "json":
        json.loads(example.body)  # a ```json example must itself be valid JSON
    path.write_text(example.body, encoding="utf-8")
    args = example.args
    command = "replay" if code.startswith("SL4") else "check"  # traffic rules run in replay (docs/traffic.md)
    proc = cli(command, str(path), "--select", code, *args, "--format", "json", "--fail-on", "never")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    return [d["code"] for d in report["diagnostics"]]


def test_every_rule_has_a_page_and_every_page_a_rule() -> None:
    rules = {f"{r.code}-{r.name}.md" for r in [*all_rules(), *diff_checks()]}
    pages = {p.name for p in _pages()}
    assert not rules - pages, f"registered rules without a page in rules/: {sorted(rules - pages)}"
    assert not pages - rules, f"pages in rules/ without a registered rule: {sorted(pages - rules)}"
    stray = sorted(p.name for p in PAGES.glob("S*.md") if p.name not in pages)
    assert not stray, f"rule-like pages whose names do not follow <CODE>-<name>.md: {stray}"


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.stem)
def test_page_structure(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    code, name = page.stem.split("-", 1)
    assert text.splitlines()[0] == f"# {code} {name}", "first line must be '# CODE name'"
    sections = page_sections(text)
    missing = [s for s in REQUIRED_SECTIONS if s not in sections]
    assert not missing, f"missing sections: {missing}"
    unknown = [s for s in sections if s not in ALLOWED_SECTIONS]
    assert not unknown, f"unknown sections: {unknown}"
    order = [s for s in sections if s in REQUIRED_SECTIONS]
    assert order == list(REQUIRED_SECTIONS), f"sections out of order: {order}"
    for s in ("What it catches", "Why it matters"):
        assert len(sections[s].split()) >= 10, f"section {s!r} is too short to explain anything"


def _diff_codes(tmp_path: Path, name: str, text: str, section: str, code: str) -> list[str]:
    """Codes ``schemalint diff`` reports for the two blocks (base, revision) of a section."""
    blocks = page_examples(text, section)
    assert len(blocks) == 2, "a diff check's example is two ```json blocks: base, then revision"
    paths = []
    for label, block in zip(("base", "revision"), blocks, strict=True):
        path = tmp_path / f"{name}-{label}.json"
        json.loads(block.body)
        path.write_text(block.body, encoding="utf-8")
        paths.append(str(path))
    args = blocks[0].args
    proc = cli("diff", *paths, "--select", code, *args, "--format", "json", "--fail-on", "never")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    return [c["code"] for c in json.loads(proc.stdout)["changes"]]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.stem)
def test_page_examples(page: Path, tmp_path: Path) -> None:
    code = page.stem.split("-", 1)[0]
    text = page.read_text(encoding="utf-8")
    if code.startswith("SD"):
        bad = _diff_codes(tmp_path, "bad", text, "Bad", code)
        assert code in bad, f"the Bad pair of {page.name} does not make diff report {code} (got {bad})"
        good = _diff_codes(tmp_path, "good", text, "Good", code)
        assert code not in good, f"the Good pair of {page.name} makes diff report {code}"
        return
    bad = _codes_for(tmp_path, "bad", _example(text, "Bad"), code)
    assert code in bad, f"the Bad example of {page.name} does not trigger {code} (got {bad})"
    good = _codes_for(tmp_path, "good", _example(text, "Good"), code)
    assert code not in good, f"the Good example of {page.name} triggers {code}"


# ---------------------------------------------------------------------------- provenance, written once

def test_a_rules_provenance_is_written_once_in_its_page() -> None:
    """The ``## Source`` section of a rule's page is the one place its provenance is written: the
    catalog block holds no ``source:`` line, the rule's ``source`` (catalog, SARIF, ``rules
    --format json``) is read from the section, and a rule module's docstring points to the page."""
    import ast

    from schemalint.rule_docs import source_of, split_page

    for rule in all_rules():
        page = PAGES / f"{rule.code}-{rule.name}.md"
        text = page.read_text(encoding="utf-8")
        shown, _fields = split_page(text)
        assert "\nsource: " not in text[len(shown):], f"{page.name}: the catalog block repeats the Source section"
        assert source_of(shown), f"{page.name}: no ## Source section"
        assert rule.source == source_of(shown)
        module = Path(__import__(type(rule).__module__, fromlist=["_"]).__file__ or "")
        tree = ast.parse(module.read_text(encoding="utf-8"))
        pointer = f'Source: rules/{page.name}, section "Source"'
        docs = [ast.get_docstring(tree) or ""]
        docs += [ast.get_docstring(n) or "" for n in tree.body if isinstance(n, ast.ClassDef)]
        assert pointer in docs[0], f"{module.name}: the module docstring does not point to its page ({pointer})"
        stated = [d for d in docs if re.search(r"(?m)^\s*Sources?\b", d.replace(pointer, ""))]
        assert not stated, f"{module.name} states a source besides its page's: {stated[0][:200]}"
