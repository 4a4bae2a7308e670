"""The YAML parse route: a text that certainly nests shallowly is parsed on the calling thread's
stack, any other on a big stack (schemalint.loaders.files.documents). The screen that decides
(``yaml_nesting_below``) must never call a deeper text shallow, both routes must give the same
document, and a tag that cannot hold its value is an SL000, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.loaders.files import documents
from schemalint.loaders.files.documents import (
    SHALLOW_YAML,
    SMALL_YAML,
    Document,
    parse_text,
    yaml_nesting_below,
)
from tests.conftest import SHARED, cli_json, examples

LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


def event_depth(text: str, loader: Any) -> int:
    """How deep collections nest in ``text`` as the parser reports them, up to its first error (a
    document nests before the error is found; that nesting is what recursion pays for)."""
    depth = deepest = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                deepest = max(deepest, depth)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        pass
    return deepest


def big_stack_route(path: str, text: str) -> Document:
    """``text`` parsed the way every long text was before the screen: on the big stack."""
    doc = Document(path=path, kind="yaml", text=text)
    documents._with_big_stack(lambda: documents._parse_yaml_on_this_stack(doc))
    return doc


def same(a: Document, b: Document) -> bool:
    """Whether two documents hold the same values and problems (compared on the big stack: a value
    nested a thousand levels deep cannot be compared on a test thread's)."""
    return bool(documents._with_big_stack(
        lambda: repr(a.values) == repr(b.values) and a.problems == b.problems and a.kind == b.kind))


TOKENS = ["- ", "-", "? ", "?", ": ", ":", "a", "b: ", "x:", "[", "]", "{", "}", ", ", "\n", "\n",
          " ", "  ", "    ", "\t", "&x ", "*x", "!!map ", "!!seq ", "--- ", "...\n", "\r", "\r\n",
          "\u2028", "\x85", "\ufeff", "'q'", '"q"', "#c", "<<: ", "|\n", ">-\n", "%TAG ! tag:x,1:\n"]


@settings(max_examples=examples(2000), deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60), st.integers(min_value=1, max_value=40))
def test_screen_never_calls_a_deeper_token_soup_shallow(tokens: list[str], limit: int) -> None:
    text = "".join(tokens)
    if yaml_nesting_below(text, limit):
        for loader in LOADERS:
            assert event_depth(text, loader) < limit, (text, loader)


def _data(leaves: Any) -> Any:
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=3)
                        | st.dictionaries(st.sampled_from(["a", "b", "c", "- d", "e: f"]), inner, max_size=3),
                        max_leaves=40)


@settings(max_examples=examples(800), deadline=None)
@given(_data(st.none() | st.booleans() | st.integers() | st.sampled_from(["s", "[x]", "a: b", "- c", ""])),
       st.sampled_from([None, True, False]), st.integers(min_value=2, max_value=6),
       st.integers(min_value=1, max_value=60))
def test_screen_never_calls_a_deeper_document_shallow(data: Any, flow: bool | None, indent: int, limit: int) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, indent=indent)
    if yaml_nesting_below(text, limit):
        for loader in LOADERS:
            assert event_depth(text, loader) < limit, (text, loader)


def test_screen_counts_compact_chains_merges_and_line_breaks() -> None:
    # each of these nests (or chains merges) 4 deep; none may pass as below 4
    for text in ("- - - - a\n", "? - - a: b\n", "[[[[a]]]]", "[a: [b: x]]\n" * 1, "{a: {b: {c: {d: 1}}}}",
                 "a: &a {x: 1}\nb: &b {<<: *a}\nc: &c {<<: *b}\nd: {<<: *c}\n", "x: 1\r- - - - a",
                 "\ufeff- - - - a", "x\u2028- - - - a"):
        assert event_depth(text, yaml.SafeLoader) <= 4 or "<<" in text
        assert not yaml_nesting_below(text, 4), text
    # an ordinary tool file is shallow whatever its length
    tool = "tools:\n- name: t{n}\n  description: 'lists files: all'\n  inputSchema:\n    type: object\n"
    assert yaml_nesting_below("".join(tool.format(n=n) for n in range(2000)), SHALLOW_YAML)


@pytest.mark.parametrize("shape", ["flow", "block", "compact"])
@pytest.mark.parametrize("depth", [SHALLOW_YAML // 4, SHALLOW_YAML - 1, SHALLOW_YAML, SHALLOW_YAML + 1,
                                   999, 1000, 1001, 3000])
def test_deep_nesting_is_read_alike_on_both_routes(shape: str, depth: int) -> None:
    if shape == "flow":
        body = "[" * depth + "1" + "]" * depth
    elif shape == "block":
        body = "".join(" " * level + "k:\n" for level in range(depth - 1)) + " " * (depth - 1) + "k: 1\n"
    else:
        body = "- " * depth + "1\n"
    text = body + "#" * SMALL_YAML + "\n"  # long enough that the screen decides the route
    assert not (yaml_nesting_below(text, SHALLOW_YAML) and depth >= SHALLOW_YAML)
    doc = parse_text("deep.yaml", text)
    assert same(doc, big_stack_route("deep.yaml", text))
    if depth > 1000 and hasattr(yaml, "CSafeLoader"):  # libyaml refuses it, on either route
        assert [p.message for p in doc.problems] == ["invalid YAML: exceeded maximum nesting depth"]
    elif depth < 1000:
        assert doc.values and not doc.problems


def test_a_shallow_long_text_takes_no_thread_and_a_deep_one_does(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = documents._with_big_stack

    def counting(fn: Any) -> Any:
        calls.append(1)
        return real(fn)

    monkeypatch.setattr(documents, "_with_big_stack", counting)
    shallow = "tools:\n" + "".join(f"- name: t{n}\n  inputSchema:\n    type: object\n" for n in range(500))
    assert len(shallow) > SMALL_YAML
    assert len(parse_text("tools.yaml", shallow).values[0][1]["tools"]) == 500
    assert calls == []
    deep = "[" * SHALLOW_YAML + "]" * SHALLOW_YAML + "#" * SMALL_YAML
    assert parse_text("deep.yaml", deep).values
    assert calls == [1]


def test_a_recursion_error_on_this_stack_is_retried_on_the_big_stack(monkeypatch: pytest.MonkeyPatch) -> None:
    # the screen is a bound on nesting; should a parse recurse more all the same, the big stack takes over
    monkeypatch.setattr(documents, "yaml_nesting_below", lambda text, limit: True)
    real = documents._parse_yaml_on_this_stack

    def shallow_only(doc: Document, deep: bool = True) -> None:
        if not deep:
            raise RecursionError
        real(doc, deep)

    monkeypatch.setattr(documents, "_parse_yaml_on_this_stack", shallow_only)
    text = "a: [1, 2]\n" + "#" * SMALL_YAML
    assert parse_text("x.yaml", text).values == [(None, {"a": [1, 2]})]


def _shared_yaml() -> list[Path]:
    return sorted(p for p in SHARED.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


@pytest.mark.skipif(not _shared_yaml(), reason=f"needs YAML files under {SHARED}")
def test_shared_yaml_files_read_alike_on_both_routes() -> None:
    differ = []
    for path in _shared_yaml():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if len(text) < SMALL_YAML or not yaml_nesting_below(text, SHALLOW_YAML):
            continue  # the route it always took
        if not same(parse_text(str(path), text), big_stack_route(str(path), text)):
            differ.append(str(path))
    assert differ == []


@pytest.mark.parametrize(("value", "shown"), [("!!bool maybe", "bool 'maybe'"), ("!!bool ''", "bool ''"),
                                              ("!!int ''", "int ''"), ("!!float ''", "float ''"),
                                              ("!!int zz", "int 'zz'"), ("!!timestamp 2020-13-45", "timestamp")])
def test_a_tag_its_value_cannot_hold_is_sl000_at_its_line(tmp_path: Path, value: str, shown: str) -> None:
    path = tmp_path / "tools.yaml"
    path.write_text(f"tools:\n  - name: a\n    description: flags\n    strict: {value}\n")
    code, report = cli_json("check", str(path))
    (diag,) = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert code == 1 and diag["file"] == str(path) and diag["line"] == 4 and diag["column"] == 13
    assert diag["message"].startswith(f"invalid YAML: cannot read {shown}")


def test_tags_are_resolved_as_without_the_cache() -> None:
    # the memo is keyed by a plain scalar's text: quoted text and later parses must not be affected
    documents._RESOLVED.clear()
    first = parse_text("a.yaml", "a: true\nb: 'true'\nc: 1.5\nd: '1.5'\ne: null\nf: ~\ng: 0x1f\n")
    again = parse_text("b.yaml", "a: true\nb: 'true'\nc: 1.5\nd: '1.5'\ne: null\nf: ~\ng: 0x1f\n")
    expected = {"a": True, "b": "true", "c": 1.5, "d": "1.5", "e": None, "f": None, "g": 31}
    assert first.values == again.values == [(None, expected)]
    assert documents._RESOLVED["true"] == "tag:yaml.org,2002:bool"
