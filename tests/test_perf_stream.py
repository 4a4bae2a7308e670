"""The streaming check (engine/stream.py) gives exactly the in-memory check's result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check
from schemalint.engine import pipeline
from schemalint.engine import stream as streaming
from tests.conftest import CORPUS, CORPUS_CHECKED_GROUP, REPOS, ROOT, needs_repos, needs_shared


def _same(a: Any, b: Any) -> None:
    assert [d.to_json() for d in a.diagnostics] == [d.to_json() for d in b.diagnostics]
    assert a.fingerprints == b.fingerprints
    assert (a.files, a.tools, a.tools_by_format, a.notes, a.suppressed) == \
        (b.files, b.tools, b.tools_by_format, b.notes, b.suppressed)


@pytest.mark.parametrize("jobs", [1, 2])
def test_examples_streamed_as_in_memory(jobs: int) -> None:
    whole = check(["examples"], targets=["all"], extend_select=["SL5"], stream=False, jobs=1)
    streamed = check(["examples"], targets=["all"], extend_select=["SL5"], stream=True, jobs=jobs)
    assert len(whole.diagnostics) > 100 and whole.catalog and not streamed.catalog
    assert any("recorded tool traffic" in n for n in streamed.notes)  # examples/traffic, on both routes
    _same(whole, streamed)


@needs_shared
@pytest.mark.xdist_group(CORPUS_CHECKED_GROUP)
def test_corpus_streamed_as_in_memory(corpus_checked: Any) -> None:
    # many names defined in several files (SL201/SL202 "another definition"), BFCL type dialect files (SL001)
    whole = corpus_checked
    _same(whole, check([str(CORPUS)], stream=True, jobs=2))
    assert any("another definition" in d.message for d in whole.diagnostics)
    assert any("non-standard type dialect" in d.message for d in whole.diagnostics)


@needs_repos
def test_repositories_streamed_as_in_memory() -> None:
    # mostly files that hold no tools: the SL000 policy and the skipped-files note
    whole = check([str(REPOS)], stream=False, jobs=1)
    _same(whole, check([str(REPOS)], stream=True, jobs=1))
    assert whole.notes


def _tool(name: str, props: dict[str, Any], description: str = "Look it up.", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description,
            "inputSchema": {"type": "object", "properties": props, **extra}}


def _write_jsonl(path: Path) -> Path:
    s = {"type": "string"}
    lines = [
        json.dumps(_tool("search", {"query": s, "limit": {"type": "integer"}})),
        json.dumps(_tool("search", {"query": s}, "Pass `limit` to cap the results.")),  # SL202: another definition
        "",
        "{not json",
        json.dumps({"tools": [_tool("dup", {"a": s}), _tool("dup", {"b": s})]}),  # SL005 within one line
        json.dumps(_tool("p\u0430ypal_send", {"to": s})),  # Cyrillic a: SL502 against a later line's name
        json.dumps(_tool("breaker", {"to": s}, "Send.U2028Provide `amount` too.")),  # a raw U+2028 splits the line
        json.dumps(_tool("paypal_send", {"to": s})),
        json.dumps(_tool("weird", {"q": {"type": "strin"}}, "Set mode=fast.", additionalProperties=3)),
    ]
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).replace("U2028", "\u2028").encode() + b"\n")
    dialect = [json.dumps({"name": f"bfcl_{i}", "description": "Get it.",
                           "parameters": {"type": "dict", "properties": {"x": {"type": "str"}}}}) for i in range(7)]
    (path.parent / "bfcl.jsonl").write_text("\n".join(dialect) + "\n")  # SL001 summarises the file, across batches
    return path


@pytest.mark.parametrize("jobs", [1, 2])
def test_json_lines_read_line_by_line_as_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    path = _write_jsonl(tmp_path / "catalog.jsonl")
    other = tmp_path / "more" / "tools.json"
    other.parent.mkdir()
    other.write_text(json.dumps({"tools": [_tool("search", {"page": {"type": "integer"}}, "Give `limit`.")]}))
    whole = check([str(tmp_path)], targets=["all"], extend_select=["SL5"], stream=False, jobs=1)
    monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 0)
    monkeypatch.setattr(pipeline, "BATCH_LINES", 3)  # batches split the catalog between the look-alike lines
    streamed = check([str(tmp_path)], targets=["all"], extend_select=["SL5"], stream=True, jobs=jobs)
    codes = {d.code for d in whole.diagnostics}
    assert {"SL000", "SL005", "SL202", "SL502", "SL001"} <= codes, codes
    assert any(d.code == "SL000" and d.line == 8 for d in whole.diagnostics)  # U+2028 is a line break
    assert any("non-standard type dialect" in d.message for d in whole.diagnostics)
    _same(whole, streamed)
    assert streaming.should_stream([str(path)])


def test_json_lines_that_do_not_decode_or_are_blank(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad.jsonl").write_bytes(json.dumps(_tool("a", {})).encode() + b"\n{\"name\": \"\xff\"}\n")
    (tmp_path / "tools.jsonl").write_bytes(b"\n  \n")
    (tmp_path / "notes.jsonl").write_bytes(b"{oops\n")  # does not look like a tool file: skipped, with a note
    for source in ([str(tmp_path)], [str(tmp_path / "bad.jsonl"), str(tmp_path / "notes.jsonl")]):
        whole = check(source, stream=False)
        monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 0)
        streamed = check(source, stream=True)
        monkeypatch.undo()
        if len(source) > 1:  # named: reported; found by the walk, only tools.jsonl looks like a tool file
            assert any("invalid UTF-8" in d.message and d.line == 2 for d in whole.diagnostics)
        else:
            assert whole.notes and any("empty file" in d.message for d in whole.diagnostics)
        _same(whole, streamed)


def test_streaming_is_chosen_for_many_files_or_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    small = [str(ROOT / "examples" / "mcp" / "get_me.snap")]
    assert not streaming.should_stream(small)
    assert streaming.should_stream(small * (streaming.STREAM_FILES + 1))
    monkeypatch.setattr(streaming, "STREAM_BYTES", 10)
    assert streaming.should_stream(small)


def test_one_json_lines_file_shared_between_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = {"type": "string"}
    lines = [json.dumps(_tool(f"tool_{i}" if i % 7 else "same", {"q": s} if i % 2 else {"r": {"type": "strin"}},
                              "Pass `limit` here." if i % 3 == 0 else "Look it up."))
             for i in range(60)]
    lines[13] = "{broken"
    path = tmp_path / "catalog.jsonl"
    path.write_text("\n".join(lines) + "\n")
    whole = check([str(path)], targets=["all"], stream=False)
    monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 0)
    monkeypatch.setattr(pipeline, "BATCH_LINES", 4)
    used = _spy(monkeypatch, "check_parallel")
    shared = check([str(path)], targets=["all"], stream=True, jobs=2)
    assert used and used[0] is not None  # one file, checked by two workers
    assert len(whole.diagnostics) > 60
    _same(whole, shared)


def test_a_streamed_line_above_the_size_bound_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import schemalint.loaders.files.documents as documents

    path = tmp_path / "tools.jsonl"
    path.write_text(json.dumps(_tool("a", {})) + "\n" + json.dumps({"x": "y" * 300}) + "\n")
    monkeypatch.setattr(documents, "MAX_FILE_BYTES", 200)
    monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 0)
    result = check([str(path)], stream=True)
    assert [(d.code, d.message) for d in result.diagnostics] == [
        ("SL000", "cannot read file: line 2 is above the 200-byte size bound of a line: not read")]
    assert result.tools == 0


def _spy(monkeypatch: pytest.MonkeyPatch, name: str) -> list[Any]:
    """Wrap ``streaming.<name>`` so that each call's result is appended to the returned list."""
    used: list[Any] = []
    real = getattr(streaming, name)

    def spy(*args: Any) -> Any:
        used.append(real(*args))
        return used[-1]

    monkeypatch.setattr(streaming, name, spy)
    return used


def _gathered(paths: list[str], jobs: int) -> tuple[Any, list[Any]]:
    from schemalint.model import RunContext, running
    from schemalint.rules.base import Context

    run = RunContext()
    ctx = Context(catalog=(), run=run)
    with running(run):
        g = streaming.gather(paths, set(), ctx, {}, jobs)
        profiles = [ctx.targets_for(t) for t in g.representatives]
    return g, profiles


def _same_gathered(paths: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    used = _spy(monkeypatch, "_in_workers")
    (one, p1), (two, p2) = _gathered(paths, 1), _gathered(paths, 2)
    assert used and all(u is not None for u in used)  # gathered by forked workers
    assert one.facts == two.facts
    assert (one.files, one.tools, list(one.tools_by_format.items()), one.traffic, one.repeated) == \
        (two.files, two.tools, list(two.tools_by_format.items()), two.traffic, two.repeated)
    assert p1 == p2
    return one


@needs_shared
def test_corpus_gathered_by_workers_as_serially(monkeypatch: pytest.MonkeyPatch) -> None:
    from schemalint.loaders.files.sources import expand_sources

    one = _same_gathered(expand_sources([str(CORPUS)]), monkeypatch)
    assert one.facts.repeated and one.facts.dialect_files and one.tools > 19000


def test_json_lines_gathered_by_workers_as_serially(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write_jsonl(tmp_path / "catalog.jsonl")
    (tmp_path / "more.jsonl").write_text(path.read_text(encoding="utf-8-sig"), encoding="utf-8")
    monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 0)
    monkeypatch.setattr(pipeline, "BATCH_LINES", 2)  # a file's batches cut between workers
    paths = [str(path), str(tmp_path / "bfcl.jsonl"), str(tmp_path / "more.jsonl")]
    one = _same_gathered(paths, monkeypatch)
    assert one.facts.lookalikes and "search" in one.facts.repeated and one.facts.dialect_files
    chunks = streaming._share_out(paths, 8, {})
    assert sum(s[1] is not None and s[0] == str(path) for c in chunks for s in c) >= 2


def test_batches_read_by_offset_are_the_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write_jsonl(tmp_path / "catalog.jsonl")  # a byte order mark, CRLF, a raw U+2028 inside a line
    monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 0)
    lines = path.read_bytes()[3:].decode().splitlines()
    for size in (1, 2, 3, 100):
        monkeypatch.setattr(pipeline, "BATCH_LINES", size)
        groups = list(streaming.iter_groups(str(path), True, {}))
        assert [g.index for g in groups] == list(range(len(groups)))
        assert [line for g in groups for line in g.lines.values()] == lines
        assert [n for g in groups for n in g.lines] == list(range(1, len(lines) + 1))
        assert all(len(g.lines) >= size for g in groups[:-1])
        odd = list(streaming.iter_groups(str(path), True, {}, 1, 2))
        assert [g.index for g in odd] == list(range(1, len(groups), 2))
