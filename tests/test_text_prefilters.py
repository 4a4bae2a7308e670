"""The cheap pre-filters of the text rules and of traffic detection say "no" only where the full
test finds nothing (issue 19): each is checked against the test it stands in for, on generated
texts built from the very pieces the test looks for, and on the shared corpus."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.traffic import detect
from tests.conftest import CORPUS, REPOS, needs_shared

_MARKER_PIECES = [*detect.MARKERS, *(a for a, narrower in detect._ANCHORS for a in (a, *narrower)),
                  '"', "_", ":", "tool", "tools", "function", "call", "Call", "/", "s", " ", "\n", "x"]


def test_every_marker_holds_an_anchor_and_a_narrower_one() -> None:
    for marker in detect.MARKERS:
        anchors = [(a, narrower) for a, narrower in detect._ANCHORS if a in marker]
        assert anchors, marker
        for _, narrower in anchors:
            assert not narrower or any(n in marker for n in narrower), marker


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_MARKER_PIECES), max_size=160))
def test_has_marker_is_the_substring_test(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert detect.has_marker(text) == any(m in text for m in detect.MARKERS)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["tool_", "function", "tool_c", "functionC"]), st.integers(60, 200),
       st.sampled_from([None, *detect.MARKERS]), st.integers(0, 300))
def test_has_marker_past_the_occurrence_bound(anchor: str, count: int, marker: str | None, at: int) -> None:
    # more occurrences of an anchor than are looked at one by one: the narrower scans decide
    parts = [f"{anchor}x{i} " for i in range(count)]
    if marker is not None:
        parts.insert(min(at, len(parts)), marker)
    text = "".join(parts)
    assert detect.has_marker(text) == any(m in text for m in detect.MARKERS)


@needs_shared
def test_has_marker_on_the_corpus_and_repos() -> None:
    seen = holding = 0
    for base in (CORPUS, REPOS):
        for path in sorted(base.rglob("*")):
            if path.suffix not in (".json", ".snap", ".jsonl", ".yaml", ".yml") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            found = detect.has_marker(text)
            assert found == any(m in text for m in detect.MARKERS), path
            seen += 1
            holding += found
    assert seen > 500 and holding > 50  # both answers occur
