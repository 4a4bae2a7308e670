"""The cheap screens of the description rules drop no finding (issue 33).

SL201, when plain-word mentions are not wanted (``plain=False``, the usual case), reads the objects of
instructions only in the sentences that hold a quote, a code span, ``_`` or lowerCamel
(:data:`~schemalint.rules.description.mentions.imperatives._RE_MARKED`); SL204 runs an offer pattern
only when the words it needs are in the text (:data:`~schemalint.rules.description.claims._OFFER_WORDS`).
Both screens are tested against the unscreened analysis on every description string of the shared
corpus and on the inputs of the paraphrase suite (``tests/fixtures/description_paraphrases.json``), and
on hand-written sentences at each edge of the screen.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from schemalint.rules.description import claims
from schemalint.rules.description.mentions import description_sites, extract_mentions
from schemalint.rules.description.mentions.records import Mention

SUITE_PATH = "tests/fixtures/description_paraphrases.json"

Text = tuple[str, bool, bool, tuple[str, ...]]
"""(description, is_value, property_level, level): the arguments of the analysis that the screen reads."""


def _named(text: str, is_value: bool, property_level: bool, level: tuple[str, ...], *, plain: bool) -> list[Mention]:
    """The non-plain mentions of ``text`` (the ones SL201 can report) with plain mentions wanted or not."""
    found = extract_mentions(text, is_value=is_value, property_level=property_level, level=level, plain=plain)
    return [m for m in found if not m.plain]


def _disagreements(texts: set[Text]) -> list[tuple[Text, list[Mention], list[Mention]]]:
    """The texts whose non-plain mentions differ between the screened (``plain=False``) and the
    unscreened (``plain=True``: every sentence read) analysis."""
    out = []
    for t in sorted(texts):
        screened = _named(*t, plain=False)
        full = _named(*t, plain=True)
        if screened != full:
            out.append((t, screened, full))
    return out


def _suite_texts() -> set[Text]:
    from tests.conftest import ROOT

    suite = json.loads((ROOT / SUITE_PATH).read_text())
    out: set[Text] = set()
    for e in suite["positives"] + suite["twins"]:
        level = tuple(e["properties"])
        out.add((e["text"], False, e["where"] != "tool", level))
        if e["where"] != "tool":
            out.add((e["tool_description"], False, False, level))
    return out


def _corpus_texts(tools: Any) -> set[Text]:
    out: set[Text] = set()
    for tool in tools:
        for site in description_sites(tool):
            out.add((site.text, site.is_value, not site.of_tool, site.level))
    return out


@pytest.fixture(scope="module")
def corpus_texts(corpus_loaded: Any) -> set[Text]:
    """Every description string of the shared corpus with the arguments the screens read."""
    return _corpus_texts(corpus_loaded.tools)


def test_screen_keeps_every_named_mention_of_the_paraphrase_suite() -> None:
    texts = _suite_texts()
    assert len(texts) > 300
    # the suite names parameters in every form: the comparison is not of empty lists
    assert sum(1 for t in texts if _named(*t, plain=True)) > 150
    assert _disagreements(texts) == []


def test_screen_keeps_every_named_mention_of_the_corpus(corpus_texts: set[Text]) -> None:
    texts = corpus_texts
    assert len(texts) > 10_000
    assert _disagreements(texts) == []


@pytest.mark.parametrize("text", [
    "Create it. Then pass the `priority` too.",
    "Create it. Always include 'priority' in the call.",
    'Create it. Always include "priority" in the call.',
    "Create it. Then set include_archived too.",
    "Create it. Then set dryRun too.",
    "Don't create it twice. Always include the `owner`.",
])
def test_screen_edges(text: str) -> None:
    """A name at each edge of the screen (a code span, each quote, snake_case, lowerCamel, after a
    sentence the screen skips) is found in a tool description with and without it."""
    full = _named(text, False, False, (), plain=True)
    assert full, text
    assert _named(text, False, False, (), plain=False) == full


def test_screen_skips_sentences_of_plain_words_only() -> None:
    """The screen does drop what it is for: the plain-word object of a sentence with no mark, in a
    text that has one elsewhere (so the whole text is read)."""
    text = "Don't guess. Include mode."
    assert [m.token for m in extract_mentions(text, plain=True)] == ["mode"]
    assert extract_mentions(text, plain=False) == []


def _type_offer_disagreements(texts: set[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    screened = {t: claims.read_type_offers(t, t.lower()) for t in texts}
    with monkeypatch.context() as m:
        m.setattr(claims, "_OFFER_WORDS", {k: () for k in claims._OFFER_WORDS})  # every pattern runs
        return [t for t in sorted(texts) if claims.read_type_offers(t, t.lower()) != screened[t]]


def test_type_offer_screen_on_the_paraphrase_suite_and_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {t[0] for t in _suite_texts()} | {
        "Pass null to search everything.", "A list of tags.", "An object with the filters.", "true or false",
        "TRUE or FALSE", "Or NULL.", "Provide a Dictionary of headers.", "Send a MAP from ids to names.",
        "Ein Objekt: accepts an array of ids ſo.", "Accepts a liſt of ids.",
    }
    found = {t: claims.read_type_offers(t) for t in texts}
    assert sum(1 for v in found.values() if v) >= 8  # the edges each offer a type
    assert [c.value for c in claims.read_type_offers("Accepts a liſt of ids.")] == ["array"]  # re.I folds ſ
    assert _type_offer_disagreements(texts, monkeypatch) == []


def test_type_offer_screen_on_the_corpus(corpus_texts: set[Text], monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {t[0] for t in corpus_texts}
    assert sum(1 for t in texts if claims.read_type_offers(t)) > 100
    assert _type_offer_disagreements(texts, monkeypatch) == []


def _corpus_sentences(texts: set[Text]) -> list[str]:
    from schemalint.rules.description.mentions.imperatives import sentence_spans

    return sorted({t[0][lo:hi] for t in texts for lo, hi in sentence_spans(t[0])})


def _tokens(sentence: str) -> list[Any]:
    from schemalint.rules.description.mentions import imperatives

    return [imperatives._Tok(m) for m in imperatives._RE_TOKEN.compiled().finditer(sentence)]


def test_later_verb_screen_on_the_corpus_and_the_suite(corpus_texts: set[Text],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The verb finder skips its per-token pass in a sentence with no clause-initial verb, no lead word
    and none of the words a later verb follows (:data:`~.imperatives._LATER_VERB_AFTER`): on every
    sentence of the corpus and of the paraphrase suite it finds what the full pass finds."""
    from schemalint.rules.description.mentions import imperatives

    sentences = [
        *_corpus_sentences(corpus_texts | _suite_texts()),
        "Always include `x`.", "You must pass `x`.", "Remember to include `x`.", "Try by passing `x`.",
        "Get it and put `x` there.", "Quickly send `x`.", "Tickets, then pass `x`.", "It will return `About`.",
    ]
    screened = {s: imperatives._verbs(_tokens(s)) for s in sentences}
    with monkeypatch.context() as m:
        m.setattr(imperatives, "_SCREEN_LATER", False)
        full = {s: imperatives._verbs(_tokens(s)) for s in sentences}
    assert [s for s in sentences if screened[s] != full[s]] == []
    # both sides of the screen are exercised: sentences it skips, and later verbs the pass finds
    skipped = [s for s in sentences if not full[s][1] and not any(imperatives._lead(t) for t in _tokens(s))
               and imperatives._LATER_VERB_AFTER.isdisjoint(t.low for t in _tokens(s))]
    assert len(skipped) > 1000
    assert sum(1 for s in sentences if set(full[s][0]) - set(full[s][1])) > 300


def test_sentences_without_verbs_are_remembered_exactly(corpus_texts: set[Text]) -> None:
    """A sentence in which no verb was found is not read again in the run (:data:`~.imperatives._IDLE`):
    every description of the corpus gives the same mentions when each is read in a fresh run as when
    all were read before in one run (the table full of other descriptions' sentences)."""
    from schemalint.model import RunContext, running
    from schemalint.rules.description.mentions import imperatives

    texts = sorted(corpus_texts)

    def read(t: Text) -> list[Mention]:
        return extract_mentions(t[0], is_value=t[1], property_level=t[2], level=t[3], plain=True)

    fresh = []
    for t in texts:
        with running(RunContext()):
            fresh.append(read(t))
    with running(RunContext()) as run:
        for t in reversed(texts):
            read(t)
        idle = run.table(imperatives._IDLE, set, "run")
        assert len(idle) > 3000  # the table is used
        assert [read(t) for t in texts] == fresh
    assert sum(1 for f in fresh if f) > 1000


@pytest.mark.parametrize(("text", "names", "want", "unscreened"), [
    ("Create it. Include mode.", frozenset(), [], ["mode"]),
    ("Create it. Include mode.", frozenset({"mode"}), ["mode"], ["mode"]),
    ("Create it. Include mode.", frozenset({"other"}), [], ["mode"]),
    ("Create it. Then set dry2Run too.", frozenset(), ["dry2Run"], ["dry2Run"]),
    ("Create it. Then set `dry` too.", frozenset(), ["dry"], ["dry"]),
])
def test_plain_name_screen_edges(text: str, names: frozenset[str], want: list[str], unscreened: list[str]) -> None:
    """With ``plain_names``, a sentence that can hold only plain mentions is read only when it holds
    one of the names; a name of another form (lowerCamel with a digit, a code span) is still found."""
    assert [m.token for m in extract_mentions(text, plain=True, plain_names=names)] == want
    assert [m.token for m in extract_mentions(text, plain=True)] == unscreened


def test_plain_name_screen_keeps_a_plain_mention_of_another_definition() -> None:
    """SL202 reports a plain mention of a name another definition declares, screen or no screen."""
    from schemalint.loaders.formats.json_tools import find_tools
    from schemalint.model import RunContext, running
    from schemalint.rules.base import Context
    from schemalint.rules.description import mentions

    def raw(props: list[str]) -> dict[str, Any]:
        return {"name": "t", "description": "Find things. Include mode. Pass `a`.", "parameters": {
            "type": "object", "properties": {p: {"type": "string"} for p in props}}}

    tools = [*find_tools([raw(["a"])], "one.json"), *find_tools([raw(["a", "mode"])], "two.json")]
    with running(RunContext()):
        found = list(mentions._analyse(tools[0], Context(catalog=tools)))
    assert [(f.mention.token, f.mention.plain, f.removed_in) for f in found] == [
        ("mode", True, "another definition of `t` (two.json)")]


def test_plain_name_screen_on_the_corpus(corpus_loaded: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """SL201/SL202 read the sentences of plain words only for the names a plain mention can be reported
    for (:func:`~schemalint.rules.description.mentions._plain_names`): every corpus tool gets the findings
    of the unscreened analysis, and the screen does skip sentences."""
    from schemalint.model import RunContext, running
    from schemalint.rules.base import Context
    from schemalint.rules.description import mentions
    from schemalint.rules.description.mentions import imperatives

    tools = corpus_loaded.tools
    ctx = Context(catalog=tools)
    read = [0]
    verbs = imperatives._verbs

    def counted(*args: Any) -> Any:
        read[0] += 1
        return verbs(*args)

    def findings() -> tuple[list[list[Any]], int]:
        read[0] = 0
        with running(RunContext()), monkeypatch.context() as m:
            m.setattr(imperatives, "_verbs", counted)
            return [list(mentions._analyse(t, ctx)) for t in tools], read[0]

    screened, fewer = findings()
    with monkeypatch.context() as m:
        m.setattr(imperatives, "_SCREEN_PLAIN", False)
        full, more = findings()
    assert screened == full
    assert sum(len(found) for found in full) > 30
    assert more - fewer > 1000, (more, fewer)
