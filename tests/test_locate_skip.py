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
