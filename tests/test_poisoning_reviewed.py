"""Hand-reviewed verdicts of the tool-poisoning family (SL5xx) on the real corpus and repositories.

``tests/fixtures/poisoning_reviewed.json`` holds ``findings`` (every SL5xx finding on
``../shared/corpus``, checked as one catalog, and on each ``../shared/repos/<dir>``, checked one
directory at a time, with a verdict true/false/debatable and a reason) and
``reviewed_near_misses`` (strings reviewed as not poisoning: an earlier version reported them, or
the patterns come closest to them). The test fails when a finding appears that nobody reviewed,
when a true one disappears, when a reviewed near miss is reported again, or when the precision
of the reviewed findings drops below 90%.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from tests.conftest import CORPUS, ROOT, SHARED, needs_shared

FIXTURE = ROOT / "tests" / "fixtures" / "poisoning_reviewed.json"
REPOS = SHARED / "repos"

Key = tuple[str, str, str, str]

# one pytest-xdist worker runs the module: the corpus and repositories are checked once (reported)
pytestmark = pytest.mark.xdist_group("poisoning-reviewed-corpus")


def _key(entry: dict[str, Any]) -> Key:
    return entry["file"], entry["tool"], entry["pointer"], entry["code"]


def _fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def reported() -> set[Key]:
    out: set[Key] = set()
    runs = [CORPUS, *sorted(p for p in REPOS.iterdir() if p.is_dir())]
    for source in runs:
        result = check([str(source)], select=["SL5"])
        for d in result.diagnostics:
            assert d.code.startswith("SL5"), d
            assert "could not check" not in d.message, d.message  # an exception is never a finding
            rel = Path(d.file).resolve().relative_to(SHARED.resolve()).as_posix()
            out.add((rel, d.tool or "", d.pointer, d.code))
    return out


def test_fixture_is_well_formed() -> None:
    data = _fixture()
    entries = data["findings"] + data["reviewed_near_misses"]
    assert data["reviewed_near_misses"], "the near misses are the guard against a noisy first run"
    for e in entries:
        assert set(e) == {"file", "tool", "pointer", "code", "verdict", "reason"}, e
        assert e["verdict"] in ("true", "false", "debatable"), e
        assert e["code"].startswith("SL5") and e["reason"].strip(), e
    for e in data["reviewed_near_misses"]:
        assert e["verdict"] == "false", e
    assert len({_key(e) for e in entries}) == len(entries), "an entry is listed twice"


@needs_shared
def test_no_unreviewed_finding(reported: set[Key]) -> None:
    reviewed = {_key(e) for e in _fixture()["findings"]}
    unreviewed = sorted(reported - reviewed)
    assert not unreviewed, ("SL5xx findings nobody reviewed; review each and add it to "
                            f"{FIXTURE.name} with a verdict: {unreviewed[:20]}")


@needs_shared
def test_true_findings_stay_and_near_misses_stay_quiet(reported: set[Key]) -> None:
    data = _fixture()
    lost = [e for e in data["findings"] if e["verdict"] == "true" and _key(e) not in reported]
    assert not lost, f"true findings no longer reported: {lost}"
    back = [e for e in data["reviewed_near_misses"] if _key(e) in reported]
    assert not back, f"strings reviewed as not poisoning are reported again: {back}"


@needs_shared
def test_precision_of_the_reviewed_findings(reported: set[Key]) -> None:
    verdicts = {_key(e): e["verdict"] for e in _fixture()["findings"]}
    judged = [verdicts[k] for k in reported if k in verdicts and verdicts[k] != "debatable"]
    if judged:
        precision = judged.count("true") / len(judged)
        assert precision >= 0.9, f"precision {precision:.0%} on {len(judged)} reviewed findings"
