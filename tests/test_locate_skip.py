"""The JSON locator skips containers that hold no wanted pointer without changing any position."""

from __future__ import annotations

import json

from schemalint.engine.locate import locate


def test_skipped_containers_do_not_shift_positions() -> None:
    doc = {"question": [{"role": "user", "content": "a [tricky] {text} \\\" here"}] * 50,
           "function": [{"name": "f",
                         "parameters": {"type": "dict", "properties": {"a": {"type": "float"}}}}],
           "after": {"x": [1, 2, {"y": "}"}]}}
    text = json.dumps(doc, indent=1)
    pointers = ["/function/0/parameters/properties/a/type", "/after/x/2/y", "/function/0/missing"]
    pos = locate(text, "json", pointers)
    lines = text.splitlines()
    line, col = pos[pointers[0]]
    assert lines[line - 1][col - 1:].startswith('"type": "float"')
    line, col = pos[pointers[1]]
    assert lines[line - 1][col - 1:].startswith('"y"')
    line, col = pos[pointers[2]]  # missing key: the longest existing prefix, the function object
    assert lines[line - 1][col - 1:].startswith("{")


def test_deep_unwanted_container_falls_back_to_tokenizing() -> None:
    deep = "[" * 5000 + "]" * 5000
    text = '{"deep": ' + deep + ', "want": 1}'
    assert locate(text, "json", ["/want"]) == {"/want": (1, text.index('"want"') + 1)}


def test_container_wanted_for_its_start_only_is_skipped_exactly() -> None:
    # /tools/0 and /tools/2 are wanted whole (as a tool object's findings are): the scan skips their
    # contents, and what follows them lands where it is, as does a key repeated later in the file
    tools = [{"name": "a", "description": "x } ] { [ \" y", "parameters": {"type": "object"}},
             {"name": "b", "parameters": {"properties": {"q": {"type": "strin"}}}},
             {"name": "c", "nested": [[{"deep": "}"}]]}]
    text = json.dumps({"tools": tools, "after": {"tools": 1}}, indent=2)
    pointers = ["/tools/0", "/tools/2", "/tools/1/parameters/properties/q/type", "/after/tools", "/tools/2/nope"]
    pos = locate(text, "json", pointers)
    lines = text.splitlines()

    def at(pointer: str) -> str:
        line, col = pos[pointer]
        return lines[line - 1][col - 1:]

    assert at("/tools/0").startswith("{") and lines[pos["/tools/0"][0]].strip() == '"name": "a",'
    assert at("/tools/2") == "{" and lines[pos["/tools/2"][0]].strip() == '"name": "c",'
    assert at("/tools/1/parameters/properties/q/type").startswith('"type": "strin"')
    assert at("/after/tools").startswith('"tools": 1')
    assert pos["/tools/2/nope"] == pos["/tools/2"]  # a missing key: its longest existing prefix


def test_wanted_container_that_does_not_decode_is_tokenized() -> None:
    # not JSON the C decoder takes (a trailing comma): the scan reads it token by token instead
    text = '{"tools": [{"name": "a", "x": [1, 2,],}, {"name": "b"}]}'
    pos = locate(text, "json", ["/tools/0", "/tools/1/name"])
    assert pos == {"/tools/0": (1, text.index('{"name": "a"') + 1), "/tools/1/name": (1, text.index('"name": "b"') + 1)}


def test_located_diagnostic_keeps_every_other_field() -> None:
    from dataclasses import fields, replace

    from schemalint.engine.findings import _at
    from schemalint.model import Diagnostic, Severity

    d = Diagnostic("SL001", "invalid-schema", Severity.WARNING, "t", "f.json", "/tools/0", "m", "/a", "h",
                   3, None, "p.py", "definition")
    moved = _at(d, 7, 9)
    assert [getattr(moved, f.name) for f in fields(Diagnostic)] == \
        [getattr(replace(d, line=7, column=9), f.name) for f in fields(Diagnostic)]
