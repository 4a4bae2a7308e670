"""The shortcuts of the run loop and of SL001 outside the description analyses give what the work
they replace gives (issue 33): each is compared with the plain computation, on crafted edge cases,
on generated values and on the shared corpus (skipped when ``../shared`` is absent). Real files,
real rules."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import schemalint.rules.shape.sl001_invalid_schema as sl001
from schemalint.api import check
from schemalint.loaders.files.documents import may_hold_lone_surrogates
from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.poisoning.chars import INVISIBLE_CLASS, may_hold_invisibles
from schemalint.schema import dialect
from schemalint.schema.nonjson import YamlBinary, YamlSet, has_null_value, non_json_values
from tests.conftest import CORPUS, examples, needs_shared


def _fields(diags: list[Diagnostic]) -> list[dict[str, Any]]:
    return [dataclasses.asdict(d) for d in diags]


def _write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return str(path)


# ---------------------------------------------------------------------------- SL001: the reading kept with a verdict

_BAD = [
    {"type": "dict", "properties": {"a": {"type": "float"}, "b": {"type": "String"}}},
    {"type": "object", "properties": {"a": {"type": "STRING"}, "b": {"type": ["string", "tuple"]}}},
    {"type": "object", "properties": {"a": {"type": "string", "minLength": -1}, "b": "string"}, "required": "a"},
    {"type": "object", "properties": {"a": {"type": "string", "required": True}}},
    {"type": "object", "properties": {"a": {"type": ["string", "string"]}, "b": {"items": [{"type": "Int"}]}}},
    {"type": "object", "properties": {"a": {"anyOf": [{"type": "strin"}, {"type": 3}]}}},
]


def _openai(name: str, schema: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": "A tool.", "parameters": schema}}


def _gemini(name: str, schema: Any) -> dict[str, Any]:
    return {"name": name, "description": "A tool.", "parameters": schema}


def _sl001_apart(monkeypatch: pytest.MonkeyPatch, paths: list[str]) -> tuple[list[Any], list[Any]]:
    """SL001's findings on ``paths`` as shipped, then with every schema judged and read on its own
    (no verdict key: nothing is kept from one tool for another)."""
    kept = _fields(check(paths, select=["SL001"], jobs=1).diagnostics)
    with monkeypatch.context() as m:
        m.setattr(sl001, "_verdict_key", lambda encoded, tool, dialect: None)
        apart = _fields(check(paths, select=["SL001"], jobs=1).diagnostics)
    return kept, apart


def test_sl001_reading_kept_with_the_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # each invalid schema under several names (so several definitions with one verdict key), in an
    # OpenAI file, a Gemini file (upper-case types are its spelling: another reading) and a file
    # written in the type dialect (summarised per file)
    openai = _write(tmp_path, "openai.json", [_openai(f"t{i}_{n}", s) for n in range(2) for i, s in enumerate(_BAD)])
    gemini = _write(tmp_path, "gemini.json", {"functionDeclarations": [
        _gemini(f"g{i}_{n}", s) for n in range(2) for i, s in enumerate(_BAD)]})
    dialect_file = _write(tmp_path, "bfcl.json", [_openai(f"d{n}", _BAD[0]) for n in range(3)])
    paths = [openai, gemini, dialect_file]
    kept, apart = _sl001_apart(monkeypatch, paths)
    assert kept == apart
    assert sum(d["file"] == openai for d in kept) >= 2 * len(_BAD)
    assert any(d["file"] == dialect_file and "dialect" in d["message"] for d in kept)
    gemini_messages = {d["message"] for d in kept if d["file"] == gemini}
    openai_messages = {d["message"] for d in kept if d["file"] == openai}
    assert gemini_messages != openai_messages  # "STRING" is reported in one format only


def test_sl001_reading_is_not_kept_for_a_value_json_cannot_hold(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    # NaN beside null: orjson writes both as null, so neither schema is keyed; the NaN is reported
    # on its own, and the error at its pointer is not reported twice
    text = ('[' + ",".join(json.dumps(_openai(f"t{i}", {"type": "object", "properties": {
        "a": {"type": "float", "minimum": "MIN"}, "b": {"type": "float"}}})).replace('"MIN"', value)
        for i, value in enumerate(["NaN", "null", "NaN", "null"])) + ']')
    path = tmp_path / "nan.json"
    path.write_text(text)
    kept, apart = _sl001_apart(monkeypatch, [str(path)])
    assert kept == apart
    assert any("NaN" in d["message"] for d in kept)


@needs_shared
def test_sl001_reading_kept_on_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    kept, apart = _sl001_apart(monkeypatch, [str(CORPUS)])
    assert len(kept) > 100
    assert kept == apart


def _old_leaf_errors(errors: Any) -> list[Any]:
    """SL001's leaf errors as first written (the deepest branch chosen by ``max`` with a key)."""
    out: list[Any] = []
    stack = list(errors)[::-1]
    while stack:
        err = stack.pop()
        context = getattr(err.kind, "context", None) if getattr(err.kind, "name", "") in ("anyOf", "oneOf") \
            else None
        if context:
            depth = len(list(err.instance_path))
            branches = [list(b) for b in context if b]
            best = max(branches, key=lambda b: max(len(list(e.instance_path)) for e in b), default=[])
            if best and max(len(list(e.instance_path)) for e in best) > depth:
                stack.extend(best[::-1])
                continue
        out.append(err)
    return out


def _leaves(errors: list[Any]) -> list[tuple[Any, ...]]:
    return [(tuple(e.instance_path), tuple(e.schema_path), e.message) for e in errors]


def test_sl001_leaf_errors_choose_the_branch_max_chose() -> None:
    pytest.importorskip("jsonschema_rs")
    schemas = [*_BAD,
               {"items": [{"type": "String"}, {"properties": {"x": {"type": 1}}}]},
               {"anyOf": [{"type": "x"}, {"items": {"type": "y"}}], "oneOf": [{"required": 1}]},
               {"properties": {"a": {"items": {"additionalProperties": {"type": "q"}}}}}]
    if CORPUS.is_dir():  # the corpus's invalid schemas too
        from schemalint.api import load

        schemas += [t.advertised for t in load([str(CORPUS / "bfcl")]).tools[:400] if isinstance(t.advertised, dict)]
    branched = 0
    for name in ("draft-07", "2020-12"):
        validator = dialect.fast_validator(name)
        for schema in schemas:
            errors = list(validator.iter_errors(schema))
            branched += any(getattr(e.kind, "name", "") in ("anyOf", "oneOf") for e in errors)
            assert _leaves(sl001._leaf_errors(errors)) == _leaves(_old_leaf_errors(errors))
    assert branched > 3


# ---------------------------------------------------------------------------- SL001: values JSON cannot hold

_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=2),
                    st.sampled_from([math.nan, math.inf, -math.inf, 1.5, 0.0, -2.0]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner, inner),
    st.dictionaries(st.sampled_from(["type", "enum", "default", "a/b", "x~"]), inner, max_size=3)), max_leaves=12)


@settings(max_examples=examples(500), deadline=None)
@given(_VALUES)
def test_sl001_non_json_screen_is_exact(value: Any) -> None:
    assert sl001._non_json(value, sl001._encoded(value)) == non_json_values(value)


@pytest.mark.parametrize("value", [
    {"enum": [1.0, math.nan]}, {"a": {"b": [(1, -math.inf)]}}, {"default": None, "minimum": math.inf},
    {"default": None}, {"x": b"\x00\x01"}, {"x": {1, 2}}, {"x": YamlBinary("AAE=", 2)}, {"x": YamlSet({"a": None})},
    {math.nan: 1, "default": None}, {1.5: None}, {"x": [None] * 3}, {"deep": [[[[[[math.nan]]]]]]},
])
def test_sl001_non_json_screen_on_edge_values(value: Any) -> None:
    assert sl001._non_json(value, sl001._encoded(value)) == non_json_values(value)


# ---------------------------------------------------------------------------- the dialect chosen, kept by its strings

@pytest.mark.parametrize("override", [None, "", "7", "draft-2020-12", "nonsense"])
@pytest.mark.parametrize("default", ["draft-07", "2020-12"])
def test_dialect_choice_kept_is_the_choice_made(override: str | None, default: str) -> None:
    declared_values: list[Any] = [None, 7, "", "http://json-schema.org/draft-07/schema#",
                                  "http://json-schema.org/draft-07/schema", "https://json-schema.org/draft/2020-12/schema",
                                  "https://json-schema.org/draft/2019-09/schema#", "urn:unknown", "draft-04",
                                  YamlBinary("urn:unknown", 3)]
    for declared in declared_values:
        schema = {} if declared is None else {"$schema": declared}
        fresh = dialect._choose(declared if isinstance(declared, str) else None, override, default)
        for _ in range(2):  # made, then kept
            assert dialect.dialect_of(schema, override, default) == fresh
    assert dialect.dialect_of(True, override, default) == dialect._choose(None, override, default)


def test_dialect_choice_of_a_str_subclass_is_not_kept() -> None:
    declared = YamlBinary("urn:x-not-kept", 3)
    choice = dialect.dialect_of({"$schema": declared})
    assert choice.unknown and choice.declared == "urn:x-not-kept"
    assert (declared, None, dialect.DEFAULT_DIALECT) not in dialect._CHOICES


# ---------------------------------------------------------------------------- the run loop's steps

class _Counting(Rule):
    """A per-definition rule (reusing SL007's code) that counts its calls and may refuse sharing."""

    code = "SL007"
    name = "missing-description"
    severity = Severity.WARNING
    per_definition = True

    def __init__(self) -> None:
        self.calls: list[str] = []

    def check_tool(self, tool: Tool, ctx: Context) -> Any:
        self.calls.append(tool.origin.file)
        yield self.diag(tool, "", "seen")


class _Unshared(_Counting):
    def shares_definition(self, tool: Tool, ctx: Context) -> bool:
        return not tool.origin.file.endswith("b.json")


def test_run_loop_asks_a_rule_that_overrides_sharing(tmp_path: Path) -> None:
    tool = {"name": "t", "description": "T.", "inputSchema": {"type": "object"}}
    files = [_write(tmp_path, name, {"tools": [tool]}) for name in ("a.json", "b.json", "c.json", "d.json")]
    shared, unshared = _Counting(), _Unshared()
    one = check(files, rules=[shared], jobs=1)
    two = check(files, rules=[unshared], jobs=1)
    assert shared.calls == [files[0]]  # the base shares_definition: the first copy only
    assert unshared.calls == [files[0], files[1]]  # b.json is checked on its own, c and d share a's
    assert [d.file for d in one.diagnostics] == [d.file for d in two.diagnostics] == files


# ---------------------------------------------------------------------------- a null value in an encoding

_NULL_PATTERN = re.compile(rb"[:,\[]null")
"""What :func:`has_null_value` replaces: the pattern the run loop and SL001 searched with."""


@settings(max_examples=examples(500), deadline=None)
@given(_VALUES, st.integers(0, 12), st.integers(0, 12))
def test_null_value_search_is_the_pattern_search(value: Any, start: int, cut: int) -> None:
    import orjson

    encoded = orjson.dumps([value, "null", {"k": "[null"}, None][: 1 + cut % 4])
    end = max(len(encoded) - cut, 0)
    assert has_null_value(encoded, start, end) == bool(_NULL_PATTERN.search(encoded, start, end))
    assert has_null_value(encoded) == bool(_NULL_PATTERN.search(encoded))


@pytest.mark.parametrize("text", [b"", b"null", b"[null]", b'{"a":null}', b'["null"]', b'{"a":"x:null"}',
                                  b"[1,null]", b'[{},null]', b'{"nullable":true}', b'[{"a":1},null]'])
def test_null_value_search_on_edge_encodings(text: bytes) -> None:
    for start in range(0, 3):
        for end in (None, len(text), max(len(text) - 1, 0), max(len(text) - 6, 0)):
            found = _NULL_PATTERN.search(text, start) if end is None else _NULL_PATTERN.search(text, start, end)
            expected = found is not None
            assert has_null_value(text, start, end) == expected, (text, start, end)


# ---------------------------------------------------------------------------- the file screens of SL001 and SL501

_OLD_SURROGATES = re.compile("[\ud800-\udfff]|\\\\(?:u|U0000)[dD][89abcdefABCDEF]")
"""The pattern SL001's file screen searched a file's whole text with."""


def _old_invisibles(text: str) -> bool:
    """SL501's file screen as first written: the character class searched in the whole text."""
    if re.search(f"[{INVISIBLE_CLASS}]", text):
        return True
    escaped = re.compile(r"\\u(?:200[b-f]|206[0-9]|202[a-e]|2060|feff|db40)"
                         r"|\\U(?:0000200[b-f]|0000206[0-9]|0000202[a-e]|0000feff|000e00)", re.I)
    return escaped.search(text) is not None


_FRAGMENTS = st.sampled_from([
    "a", "{", '"', " ", "\n", "\\", "\\u", "\\U", "\\U0000", "d8", "D9", "db40", "dc41", "Dfff", "200b", "feff",
    "\ud800", "\udc00", "\udfff", "\ud7ff", "\ue000", "\u200a", "\u200b", "\u200f", "\u2010", "\u2029", "\u202a",
    "\u202e", "\u202f", "\u205f", "\u2060", "\u2061", "\u2065", "\u2066", "\u2069", "\u206a", "\ufefe", "\ufeff",
    "\uffff", "\U000dffff", "\U000e0000", "\U000e0041", "\U000e007f", "\U000e0080", "\U000f0000", "é", "—", "“",
    "漢", "\U0001f600", "\u00e2\u0080\u008b",
])


@settings(max_examples=examples(1500), deadline=None)
@given(st.lists(_FRAGMENTS, max_size=12))
def test_file_screens_find_what_their_patterns_found(parts: list[str]) -> None:
    text = "".join(parts)
    assert may_hold_lone_surrogates(text) == (_OLD_SURROGATES.search(text) is not None)
    assert may_hold_invisibles(text) == _old_invisibles(text)


def test_file_screens_on_a_long_text() -> None:
    filler = "x" * 70_000 + "é"  # non-ASCII: the encoded route
    for needle, surrogate, invisible in [("", False, False), ("\udc01", True, False), ("\\uDBFF", True, False),
                                         ("\U000e0061", False, True), ("\u2068", False, True),
                                         ("\\u2068", False, True), ("\u2067\ud801", True, True)]:
        text = filler + needle + filler
        assert may_hold_lone_surrogates(text) is surrogate, needle
        assert may_hold_invisibles(text) is invisible, needle
