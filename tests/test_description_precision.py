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

import pytest

from schemalint.api import check
from tests.conftest import CORPUS, ROOT, needs_shared

FIXTURE = ROOT / "tests" / "fixtures" / "sl201_reviewed.json"


def _token(message: str) -> str:
    for marker in (" presents `", " asks for `", " writes `", " documents `"):
        if marker in message:
            return message.split(marker, 1)[1].split("`", 1)[0]
    return message


@pytest.fixture(scope="module")
def corpus_findings() -> set[tuple[str, str, str]]:
    # The whole corpus is one catalog: tool names and other definitions of a tool
    # (SL202) depend on it, as in `schemalint check ../shared/corpus`.
    result = check([str(CORPUS)], select=["SL201", "SL202"])
    out = set()
    for d in result.diagnostics:
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
