"""The 2026 cases (tests/cases2026): one self-written reproduction per public report of 2026 of a
tool schema refused or broken by a provider, client or SDK (issue 27). Scored like the shared cases
(tests/cases2026_score.py); the kinds another branch of issue 27 covers (``needs``) are counted and
printed, not asserted, until it is merged."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.cases2026_score import CASES, MAP, score
from tests.conftest import ROOT, cli

_FORMATS = {"openai", "anthropic", "gemini", "mcp", "anthropic-request", "schema-pair", "output-pair", "mcp-session"}


def _cases() -> list[tuple[str, dict]]:
    return [(p.name, json.loads(p.read_text())) for p in sorted(CASES.glob("*.json"))]


@pytest.mark.parametrize(("name", "case"), _cases(), ids=lambda v: v if isinstance(v, str) else "")
def test_case_files_are_well_formed(name: str, case: dict) -> None:
    assert case["source"].startswith("https://github.com/"), name
    assert str(case["reported"]).startswith("2026"), name
    assert case["format"] in _FORMATS, name
    assert all(e["rule"] in MAP for e in case["expected"]), name
    assert ("clean" in name) == (case["expected"] == []), name


def test_at_least_thirty_reports_with_clean_twins() -> None:
    cases = [c for _, c in _cases()]
    reports = {c["source"] for c in cases if "derived" not in c}
    assert len(reports) >= 30, len(reports)
    assert sum(1 for c in cases if not c["expected"]) >= 3


def test_the_2026_cases_are_found_at_the_right_place(capsys: pytest.CaptureFixture[str]) -> None:
    totals = score(cli, echo=True)  # each case as `schemalint ARGS`, in-process (tests/conftest.py)
    out = capsys.readouterr().out
    print(out)  # the per-case table, for the log
    assert totals["fp"] == 0, totals["fps"]
    assert totals["hit"] >= 0.9 * totals["total"], totals["misses"]


def test_the_score_script_prints_its_usage_without_an_argument() -> None:
    script = str(ROOT / "tests" / "cases2026_score.py")
    missing = subprocess.run([sys.executable, script], capture_output=True, text=True, timeout=60)
    assert (missing.returncode, missing.stdout) == (2, "")
    assert missing.stderr.startswith("usage: python tests/cases2026_score.py SCHEMALINT_BIN") and \
        "Traceback" not in missing.stderr
    helped = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True, timeout=60)
    assert (helped.returncode, helped.stdout.startswith("usage: "), helped.stderr) == (0, True, "")
