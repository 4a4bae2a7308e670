"""One case file per SL rule, run by one runner (as sqlfluff's ``test/fixtures/rules/std_rule_cases``).

``tests/rules/cases/<CODE>.yaml`` holds ``rule: <CODE>`` and ``cases:``, a list of:

``name``       what the case shows (the test id is ``<CODE>-<name>``);
``page``       ``bad`` or ``good``: the example of the rule page's ``## Bad`` or ``## Good`` section,
               read from the page (:func:`schemalint.rule_docs.page_examples`, with the CLI
               arguments of its ``<!-- args: -->`` comment): the page is the one copy; or
``tool``       the file's content as a YAML/JSON value, written as ``<name>.json`` (or
``text``       the file's content as is, for input that is not JSON, written as ``<name>.json``);
``source``     a non-file source instead (``module:attr``; with ``python_path``, relative to the repo);
``targets``    provider targets (``--target``), optional;
``args``       further CLI arguments, optional;
``expected``   the diagnostics of ``<CODE>`` that ``schemalint check FILE --select <CODE>`` must
               report, in order: ``code``, ``pointer``, ``severity`` and a ``message`` substring;
               ``[]`` for a passing case. A traffic rule's (SL4xx) file is recorded traffic, run
               through ``schemalint replay FILE --select <CODE>`` instead.

Every SL rule has at least one failing and one passing case
(:func:`test_every_rule_has_a_failing_and_a_passing_case`). Diff checks (SDxxx) have their
base/revision pairs in ``tests/diff_checks/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemalint.rule_docs import PageExample, page_examples
from schemalint.rules.registry import all_rules
from tests.conftest import ROOT, cli

CASES = Path(__file__).parent / "cases"
PAGES = ROOT / "rules"


def page_example(code: str, which: str) -> PageExample:
    """The first example of the ``## Bad`` (``which="bad"``) or ``## Good`` section of ``code``'s page."""
    (page,) = PAGES.glob(f"{code}-*.md")
    examples = page_examples(page.read_text(encoding="utf-8"), which.capitalize())
    assert examples, f"{page.name}: no example under ## {which.capitalize()}"
    return examples[0]


def _load_cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(CASES.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert doc["rule"] == path.stem, f"{path.name}: rule {doc['rule']!r} does not match the file name"
        out.extend((doc["rule"], case) for case in doc["cases"])
    return out


ALL_CASES = _load_cases()


def test_every_rule_has_a_failing_and_a_passing_case() -> None:
    codes = {r.code for r in all_rules() if r.code.startswith("SL")}
    failing = {code for code, case in ALL_CASES if case["expected"]}
    passing = {code for code, case in ALL_CASES if not case["expected"]}
    assert not codes - failing, f"rules without a failing case: {sorted(codes - failing)}"
    assert not codes - passing, f"rules without a passing case: {sorted(codes - passing)}"
    assert not {code for code, _ in ALL_CASES} - codes, "case files for rules that do not exist"


def _run(code: str, case: dict[str, Any], tmp_path: Path) -> list[dict[str, Any]]:
    args: list[str] = []
    if "page" in case:
        example = page_example(code, case["page"])
        path = tmp_path / f"{case['name']}.json"
        path.write_text(example.body, encoding="utf-8")
        args += [str(path), *example.args]
    elif "source" in case:
        args.append(case["source"])
    else:
        path = tmp_path / f"{case['name']}.json"
        text = case["text"] if "text" in case else json.dumps(case["tool"], indent=2, ensure_ascii=False)
        path.write_text(text, encoding="utf-8")
        args.append(str(path))
    if "python_path" in case:
        args += ["--python-path", str(ROOT / case["python_path"])]
    for target in case.get("targets", ()):
        args += ["--target", target]
    args += case.get("args", [])
    command = "replay" if code.startswith("SL4") else "check"  # traffic rules: recorded traffic, in replay
    proc = cli(command, *args, "--select", code, "--format", "json", "--fail-on", "never")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr
    return [d for d in json.loads(proc.stdout)["diagnostics"] if d["code"] == code]


@pytest.mark.parametrize(("code", "case"), ALL_CASES, ids=[f"{c}-{case['name']}" for c, case in ALL_CASES])
def test_rule_case(code: str, case: dict[str, Any], tmp_path: Path) -> None:
    got = _run(code, case, tmp_path)
    want = case["expected"]
    assert len(got) == len(want), f"expected {len(want)} {code} diagnostics, got {len(got)}: {got}"
    for g, w in zip(got, want, strict=True):
        assert g["code"] == w["code"]
        assert g["pointer"] == w["pointer"], g
        assert g["severity"] == w["severity"], g
        assert w["message"] in g["message"], g


def test_no_case_copies_its_pages_example() -> None:
    """The page's Bad and Good examples are named (``page: bad``), never copied into a case file:
    a copy would go stale when the page's example is edited."""
    copies = []
    for code, case in ALL_CASES:
        if "page" in case:
            assert case["page"] in ("bad", "good"), f"{code}-{case['name']}: page is bad or good"
            continue
        for which in ("bad", "good"):
            example = page_example(code, which)
            same_text = "text" in case and case["text"] == example.body
            same_value = "tool" in case and example.lang == "json" and json.loads(example.body) == case["tool"]
            if same_text or same_value:
                copies.append(f"{code}-{case['name']}")
    assert not copies, f"cases that copy their page's example instead of `page: bad|good`: {copies}"
    assert sum("page" in case for _, case in ALL_CASES) >= 2 * len({code for code, _ in ALL_CASES})
