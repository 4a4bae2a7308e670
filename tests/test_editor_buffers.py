"""The editor's two building blocks without a client: a buffer laid over its file for one check
(nothing written, every engine route sees it), and the span a diagnostic gets in the buffer."""

from __future__ import annotations

import json
from pathlib import Path

from schemalint.config import load_config
from schemalint.editor.checking import check_buffer
from schemalint.editor.ranges import span
from schemalint.loaders.files.documents import read_source_bytes
from schemalint.loaders.files.overlay import overlaid, overlay_bytes

TOOL = {"name": "f", "description": "Find a thing.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}


def test_a_buffer_is_read_in_place_of_the_file_and_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps([TOOL]))
    before = path.read_bytes()
    broken = json.loads(json.dumps(TOOL))
    broken["inputSchema"]["required"] = ["q", "missing"]
    cfg = load_config(start=tmp_path)
    result = check_buffer(str(path), json.dumps([broken]), cfg)
    assert [d.code for d in result.diagnostics] == ["SL003"]
    assert path.read_bytes() == before
    assert overlay_bytes(path) is None, "the overlay ends with the check"
    assert check_buffer(str(path), path.read_text(), cfg).diagnostics == []


def test_the_overlay_matches_any_spelling_of_the_path_and_nests(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text("[]")
    (tmp_path / "link.json").symlink_to(path)
    with overlaid({str(path): "outer"}):
        assert read_source_bytes(tmp_path / "link.json") == b"outer"
        with overlaid({str(tmp_path / "." / "a.json"): "inner"}):
            assert read_source_bytes(path) == b"inner"
        assert read_source_bytes(path) == b"outer"
    assert read_source_bytes(path) == b"[]"


def _at(text: str, token: str) -> tuple[int, int, int, int]:
    """The 1-based place of ``token``'s first occurrence and the 0-based span it should get."""
    for row, line in enumerate(text.splitlines()):
        col = line.find(token)
        if col >= 0:
            return row + 1, col + 1, col, col + len(token)
    raise AssertionError(token)


def test_spans_cover_the_token_at_the_diagnostic() -> None:
    text = '{\n  "required": ["q", "missing"],\n  "n": 12, "s": "a\\"b"\n}\n'
    for token in ('"missing"', "12", '"a\\"b"', '"required"'):
        line, col, start, end = _at(text, token)
        assert span(text, line, col) == (line - 1, start, line - 1, end), token
    yaml = "tools:\n  - name: find thing  # comment\n    inputSchema: {}\n"
    line, col, start, _ = _at(yaml, "find thing")
    assert span(yaml, line, col) == (1, start, 1, start + len("find thing")), "comment and trailing blanks left out"
    line, col, start, _ = _at(yaml, "inputSchema")
    assert span(yaml, line, col) == (2, start, 2, start + len("inputSchema")), "a key up to its colon"
    assert span(text, None, None) == (0, 0, 0, 1)       # no place: the first line
    assert span(text, 99, 1)[0] == len(text.splitlines()) - 1  # past the end: the last line


def test_columns_count_utf16_units() -> None:
    text = '{"d": "\U0001F600", "x": 1}'
    # the emoji is one code point but two UTF-16 units, so "x" starts two units later
    assert span(text, 1, 12) == (0, 12, 0, 15)
