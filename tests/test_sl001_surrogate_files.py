"""SL001 skips its lone-surrogate test for tools read from a file whose text cannot hold one
(:func:`schemalint.loaders.files.documents.may_hold_lone_surrogates`,
:data:`schemalint.rules.shape.sl001_invalid_schema.SURROGATES`, the rule's file screen). That is
only a speed-up if no string parsed from such a text holds a lone surrogate: checked on generated
JSON and YAML texts (escaped, raw, paired and lone surrogates among them), on every file of the
shared corpus, and through both check routes (in memory and streamed), which must find the
surrogate a file holds.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.engine import check, load
from schemalint.engine.pipeline import screen
from schemalint.loaders.files.documents import may_hold_lone_surrogates, parse_text
from schemalint.rules.shape.sl001_invalid_schema import SURROGATES, _lone_surrogate
from tests.conftest import examples, needs_shared


def _cleared(documents: Any) -> frozenset[str]:
    """The files SL001's screen clears, as every route computes them."""
    return screen([SURROGATES], {path: doc.text for path, doc in documents.items()})[SURROGATES.name]


_PIECES = st.sampled_from(["a", "é", "\ud800", "\udfff", "\ud83d\ude00", "\U0001f600", "\\", "u", "d8", "\\ud",
                           "~", "/", "\u200b", "\n"])
_TEXT = st.lists(_PIECES, max_size=6).map("".join) | st.text(max_size=6)
_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=10,
)


def _texts(value: Any) -> list[tuple[str, str]]:
    """``value`` written as JSON (ASCII-escaped and raw) and as YAML, as (file name, text)."""
    out = [("t.json", json.dumps(value)), ("t.json", json.dumps(value, ensure_ascii=False))]
    with contextlib.suppress(yaml.YAMLError):
        out.append(("t.yaml", yaml.safe_dump(value, allow_unicode=False)))
    return out


@settings(max_examples=examples(300), deadline=None)
@given(_JSON)
def test_a_text_said_to_hold_no_lone_surrogate_parses_to_none(value: Any) -> None:
    for name, text in _texts(value):
        doc = parse_text(name, text)
        parsed = [v for _, v in doc.values]
        if not may_hold_lone_surrogates(text):
            assert all(_lone_surrogate(v) is None for v in parsed), (name, text)


def test_the_text_test_answers_maybe_for_every_spelling_of_a_surrogate() -> None:
    for text in ['{"a": "\\ud800"}', '{"a": "\\uDFFF"}', '{"a": "x\\\\ud800"}', 'a: "\\U0000d800"',
                 '{"a": "\ud800"}', '{"\\udc00": 1}', '{"a": "\\ud83d\\ude00"}']:
        assert may_hold_lone_surrogates(text), text
    for text in ['{"a": "\\u00e9 \\u200b"}', '{"a": "plain"}', '{"a": "é \U0001f600"}',
                 '{"a": "\\ucafe \\ud7ff \\ue000"}']:
        assert not may_hold_lone_surrogates(text), text


def _catalog(tmp_path: Path) -> Path:
    root = tmp_path / "cat"
    root.mkdir()
    for i in range(70):  # above the in-memory route's small-catalog bound: the streamed route is taken too
        schema = {"type": "object", "properties": {"k": {"type": "string", "description": f"Key {i}."}}}
        (root / f"t{i:02}.json").write_text(json.dumps({"name": f"t{i}", "description": "T.", "inputSchema": schema}))
    (root / "t33.json").write_text('{"name":"s","description":"S.","inputSchema":{"type":"object",'
                                   '"properties":{"k":{"type":"string","enum":["x\\ud800"]}}}}')
    return root


@pytest.mark.parametrize("stream", [False, True])
def test_both_routes_find_the_surrogate_of_the_one_file_that_holds_one(tmp_path: Path, stream: bool) -> None:
    root = _catalog(tmp_path)
    found = [(d.file, d.pointer) for d in check([str(root)], stream=stream).diagnostics
             if d.code == "SL001" and "lone surrogate" in d.message]
    assert found == [(str(root / "t33.json"), "/inputSchema/properties/k/enum/0")]
    free = _cleared(load([str(root)]).documents)
    assert len(free) == 69 and str(root / "t33.json") not in free


@needs_shared
def test_corpus_files_said_to_hold_no_lone_surrogate_hold_none(corpus_loaded: Any) -> None:
    loaded = corpus_loaded
    free = _cleared(loaded.documents)
    assert len(free) > len(loaded.documents) // 2  # the skip is real
    for tool in loaded.tools:
        if tool.origin.file in free:
            assert _lone_surrogate(tool.advertised) is None and _lone_surrogate(tool.output_schema) is None, tool.name
