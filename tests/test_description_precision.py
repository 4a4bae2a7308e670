"""Hand-reviewed SL201/SL202 verdicts on the real corpus must keep their precision.

``tests/fixtures/sl201_reviewed.json`` lists ``{file, tool, token, verdict, note}``
(file relative to the corpus). "true" entries were judged real defects and must stay
flagged; "false" entries were flagged by an earlier heuristic and judged wrong. Any
finding on a reviewed tool that is not in the fixture counts as a false alarm, so a
heuristic change that adds findings there must come with a review.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from tests.conftest import CORPUS, CORPUS_CHECKED_GROUP, ROOT, needs_shared

FIXTURE = ROOT / "tests" / "fixtures" / "sl201_reviewed.json"

# The corpus findings are read from the shared in-memory check of the corpus (every rule: a rule's
# findings do not depend on which other rules run, and the catalog is the whole corpus either way),
# so the module runs on the pytest-xdist worker that computes it.
pytestmark = pytest.mark.xdist_group(CORPUS_CHECKED_GROUP)


def _token(message: str) -> str:
    for marker in (" presents `", " asks for `", " writes `", " documents `"):
        if marker in message:
            return message.split(marker, 1)[1].split("`", 1)[0]
    return message


@pytest.fixture(scope="module")
def corpus_findings(corpus_checked: Any) -> set[tuple[str, str, str]]:
    # The whole corpus is one catalog: tool names and other definitions of a tool
    # (SL202) depend on it, as in `schemalint check ../shared/corpus`.
    out = set()
    for d in corpus_checked.diagnostics:
        if d.code not in ("SL201", "SL202"):
            continue
        rel = Path(d.file).resolve().relative_to(CORPUS.resolve()).as_posix()
        out.add((rel, d.tool or "", _token(d.message)))
    return out


@needs_shared
def test_reviewed_fixture_shape() -> None:
    entries = json.loads(FIXTURE.read_text())
    assert len({(e["file"], e["tool"]) for e in entries}) >= 40
    for e in entries:
        assert e["verdict"] in ("true", "false") and e["note"]
        assert (CORPUS / e["file"]).is_file(), e["file"]


@needs_shared
def test_reviewed_precision(corpus_findings: set[tuple[str, str, str]]) -> None:
    entries = json.loads(FIXTURE.read_text())
    verdict = {(e["file"], e["tool"], e["token"]): e["verdict"] for e in entries}
    reviewed_tools = {(e["file"], e["tool"]) for e in entries}
    flagged = {f for f in corpus_findings if (f[0], f[1]) in reviewed_tools}
    missing = [k for k, v in verdict.items() if v == "true" and k not in flagged]
    assert not missing, f"reviewed true findings no longer flagged: {missing}"
    true_pos = sum(1 for f in flagged if verdict.get(f) == "true")
    precision = true_pos / len(flagged)
    unreviewed = sorted(f for f in flagged if f not in verdict)
    wrong = sorted(f for f in flagged if verdict.get(f) == "false")
    assert precision >= 0.9, f"precision {precision:.2f}; false alarms {wrong}; unreviewed {unreviewed}"


@needs_shared
def test_every_corpus_finding_is_reviewed(corpus_findings: set[tuple[str, str, str]]) -> None:
    """The whole corpus output is covered by the review (so the precision figure is the corpus one)."""
    entries = json.loads(FIXTURE.read_text())
    verdict = {(e["file"], e["tool"], e["token"]) for e in entries}
    unreviewed = sorted(corpus_findings - verdict)
    assert len(unreviewed) <= max(2, len(corpus_findings) // 10), unreviewed


CLAIMS_FIXTURE = ROOT / "tests" / "fixtures" / "description_claims_reviewed.json"
CLAIM_CODES = ["SL203", "SL204", "SL205", "SL206"]


def _property(message: str) -> str:
    return message.split("property `", 1)[1].split("`", 1)[0]


@pytest.fixture(scope="module")
def claim_findings(corpus_checked: Any) -> set[tuple[str, str, str, str]]:
    out = set()
    for d in corpus_checked.diagnostics:
        if d.code not in CLAIM_CODES:
            continue
        rel = Path(d.file).resolve().relative_to(CORPUS.resolve()).as_posix()
        out.add((rel, d.tool or "", d.code, _property(d.message)))
    return out


@needs_shared
def test_claims_review_precision(claim_findings: set[tuple[str, str, str, str]]) -> None:
    """SL203-SL206 on the corpus: every finding reviewed (stratified: every unique finding of each
    rule that fires), reviewed true ones still flagged, false ones not, warnings >= 80% precise."""
    entries = json.loads(CLAIMS_FIXTURE.read_text())
    for e in entries:
        assert e["verdict"] in ("true", "false", "debatable") and e["note"]
        assert (CORPUS / e["file"]).is_file(), e["file"]
    verdict = {(e["file"], e["tool"], e["code"], e["property"]): e["verdict"] for e in entries}
    missing = [k for k, v in verdict.items() if v == "true" and k not in claim_findings]
    assert not missing, f"reviewed true findings no longer flagged: {missing}"
    wrong = [k for k, v in verdict.items() if v == "false" and k in claim_findings]
    assert not wrong, f"reviewed false alarms flagged again: {wrong}"
    unreviewed = sorted(claim_findings - set(verdict))
    assert len(unreviewed) <= max(2, len(claim_findings) // 10), unreviewed
    for code in CLAIM_CODES:
        mine = [f for f in claim_findings if f[2] == code]
        if mine:
            true = sum(1 for f in mine if verdict.get(f) == "true")
            assert true / len(mine) >= 0.8, (code, true, len(mine))


REPOS_FIXTURE = ROOT / "tests" / "fixtures" / "description_repos_reviewed.json"


def _token_or_empty(message: str) -> str:
    token = _token(message)
    return "" if token == message else token


@needs_shared
def test_description_rules_on_real_repositories() -> None:
    """SL2xx on ../shared/repos (code nobody here wrote): every finding is reviewed, all true."""
    repos = CORPUS.parent / "repos"
    if not repos.is_dir():
        pytest.skip(f"no {repos}")
    entries = json.loads(REPOS_FIXTURE.read_text())
    verdict = {(e["file"], e["tool"], e["code"], e["property"], e["token"]): e["verdict"] for e in entries}
    result = check(sorted(str(d) for d in repos.iterdir() if d.is_dir()), select=["SL2"])
    found = {
        (Path(d.file).resolve().relative_to(repos.resolve()).as_posix(), d.tool or "", d.code,
         _property(d.message) if "property `" in d.message else "", _token_or_empty(d.message))
        for d in result.diagnostics
    }
    assert found == {k for k, v in verdict.items() if v == "true"}
