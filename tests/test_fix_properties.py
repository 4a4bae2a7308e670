"""Properties of ``--fix`` on real and generated tool files (issue 30), bounded to a few seconds.

For a file and a target: fix with ``--unsafe-fixes`` to the fixed point, then check. The fix never
raises and never produces an internal error (SL999); it leaves the file valid JSON, JSON Lines or
YAML; it never adds a diagnostic of a rule that was not there for that tool; and a second fix
changes nothing. The real files are a sample of the shared corpus (copied to a temporary
directory: the corpus is read-only); the generated ones are tool schemas built from the keywords the
fixes touch, written in several JSON styles.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, needs_shared

TARGETS = ("openai-strict", "gemini", "anthropic-strict", "openai")


def _fix_and_check(path: Path, target: str) -> tuple[Any, Any, Any]:
    from schemalint.api import check
    from schemalint.fix.run import check_and_fix
    from schemalint.targets import parse_targets

    def run(files: Any = None) -> Any:
        return check(files or [str(path)], targets=[f"={target}"], jobs=1, catalog=False)

    return check_and_fix(run, unsafe=True, targets=parse_targets([f"={target}"]), project=str(path.parent))


def _valid(path: Path) -> None:
    """The file parses as it did (a .json file of JSON Lines, as datasets write them, stays JSON Lines)."""
    from schemalint.loaders.files.documents import parse_text

    doc = parse_text(str(path), path.read_text(encoding="utf-8"))
    assert not [p for p in doc.problems if p.severity == "error"], doc.problems


def _key(d: Any, jsonl: bool) -> tuple[Any, ...]:
    """A diagnostic's place that a fix does not move: its tool and rule (a JSON Lines record's line
    too: records keep their lines, and a dataset repeats tool names across records)."""
    return (d.line if jsonl else None, d.tool, d.code)


def _assert_properties(path: Path, target: str) -> None:
    from collections import Counter

    from schemalint.loaders.files.documents import parse_text

    jsonl = parse_text(str(path), path.read_text(encoding="utf-8")).kind == "jsonl"
    first, last, _ = _fix_and_check(path, target)
    assert "SL999" not in {d.code for d in [*first.diagnostics, *last.diagnostics]}
    _valid(path)
    before = Counter(_key(d, jsonl) for d in first.diagnostics)
    after = Counter(_key(d, jsonl) for d in last.diagnostics)
    added = sorted((k, n - before[k]) for k, n in after.items() if n > before[k])
    assert not added, f"--fix added diagnostics that were not there ((line, tool, rule), how many): {added[:5]}"
    text = path.read_text(encoding="utf-8")
    _, _, again = _fix_and_check(path, target)
    assert again.total == 0 and path.read_text(encoding="utf-8") == text, "a second --fix changed the file"


def _corpus_sample() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    files = [p for p in sorted(CORPUS.rglob("*")) if p.is_file() and p.suffix in (".json", ".jsonl", ".snap")
             and "revisions" not in p.parts and p.name != "index.json" and p.stat().st_size < 60_000]
    return files[:: max(1, len(files) // 40)]


@needs_shared
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(min_value=0, max_value=10_000), target=st.sampled_from(TARGETS))
def test_corpus_files(tmp_path: Path, index: int, target: str) -> None:
    sample = _corpus_sample()
    if not sample:
        pytest.skip("no corpus files")
    source = sample[index % len(sample)]
    import tempfile

    copy = Path(tempfile.mkdtemp(dir=tmp_path)) / source.name
    shutil.copyfile(source, copy)
    _assert_properties(copy, target)


MARKERS = ('"default"', '"float"', '"dict"', '"oneOf"', '"minimum"', '"maximum"', '"additionalProperties"', "null")
"""What the fixes move or rename (a default, a dialect's type, a union, a bound, a map): the records
that carry one are the ones a fix could leave in a state another rule reports."""


def _corpus_records(per_file: int = 4, largest: int = 6_000) -> list[str]:
    """Records of the corpus's JSON Lines datasets (BFCL, ACEBench: ``.json`` files of one record per
    line) that carry a :data:`MARKERS` keyword, ``per_file`` of each file spread over it, each at most
    ``largest`` characters: real tool definitions in the shapes the fixes touch, few enough to fix in
    seconds."""
    out: list[str] = []
    for path in sorted(CORPUS.rglob("*.json")):
        if "revisions" in path.parts or not path.is_file() or path.stat().st_size < 100_000:
            continue
        with path.open(encoding="utf-8", errors="replace") as fh:
            head = fh.readline()
            if not head.startswith("{") or not head.rstrip().endswith("}"):
                continue  # one JSON document, not a dataset of records
            lines = [head, *fh]
        picked = [line for line in lines if len(line) <= largest and any(m in line for m in MARKERS)]
        out.extend(picked[:: max(1, len(picked) // per_file)][:per_file])
    return out


@needs_shared
@pytest.mark.parametrize("target", ["openai-strict", "gemini", "anthropic-strict"])
def test_corpus_records(tmp_path: Path, target: str) -> None:
    """The records of :func:`_corpus_records` in one JSON Lines file (records keep their lines), fixed
    for ``target`` with unsafe fixes: no diagnostic is added on any record, the file stays JSON Lines,
    and a second fix changes nothing."""
    records = _corpus_records()
    if not records:
        pytest.skip("no JSON Lines datasets in the corpus")
    path = tmp_path / "records.json"
    path.write_text("".join(r if r.endswith("\n") else r + "\n" for r in records), encoding="utf-8")
    _assert_properties(path, target)


_SCALAR = st.sampled_from([{"type": "string"}, {"type": "integer", "minimum": 1}, {"type": ["string", "null"]},
                           {"type": "string", "format": "uri", "title": "T"}, {"type": "array"},
                           {"type": "number", "examples": [1.5]}, {"type": "float"},
                           {"anyOf": [{"type": "string"}, {"type": "null"}]}, {"$ref": "#/$defs/D", "description": "d"},
                           {"type": "string", "pattern": "^a(?=b)"}, {"type": "object"},
                           {"type": "array", "items": {"type": "string"}, "maxItems": 3}])


@st.composite
def _schema(draw: Any) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=0, max_size=4, unique=True))
    props = {n: draw(_SCALAR) for n in names}
    if draw(st.booleans()) and names:
        props[names[0]] = {"type": "object", "properties": {"x": draw(_SCALAR)}}
    schema: dict[str, Any] = {"type": "object", "properties": props,
                              "$defs": {"D": {"type": "object", "properties": {"k": {"type": "string"}}}}}
    required = draw(st.lists(st.sampled_from([*names, "ghost"]), unique=True, max_size=3))
    if required:
        schema["required"] = required
    if draw(st.booleans()):
        schema["title"] = "Args"
    return schema


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schema=_schema(), target=st.sampled_from(TARGETS),
       style=st.sampled_from([2, 4, "\t", None, "compact"]), crlf=st.booleans())
def test_generated_schemas(tmp_path_factory: pytest.TempPathFactory, schema: dict[str, Any], target: str,
                           style: Any, crlf: bool) -> None:
    tools = [{"type": "function", "function": {"name": "tool_a", "description": "Does one thing.",
                                               "parameters": schema}}]
    text = json.dumps(tools, separators=(",", ":")) if style == "compact" else json.dumps(tools, indent=style)
    if crlf:
        text = text.replace("\n", "\r\n") + "\r\n"
    path = tmp_path_factory.mktemp("gen") / "tools.json"
    path.write_bytes(text.encode())
    _assert_properties(path, target)
    after = path.read_bytes().decode()
    assert ("\r\n" in after) == ("\r\n" in text) and after.endswith("\r\n") == text.endswith("\r\n")


@needs_shared
@pytest.mark.parametrize("target", ["openai-strict", "gemini", "anthropic-strict"])
def test_a_safe_fix_is_never_a_breaking_change(tmp_path: Path, target: str) -> None:
    """What the fixing hook writes never makes the diff hook fail: the records of
    :func:`_corpus_records`, one file each, fixed for ``target`` with the safe fixes only, then
    ``diff`` of the originals and the fixed files for the same target reports no breaking change (a
    safe fix keeps every call the model may send; an object closed for a strict target is SD213)."""
    records = _corpus_records(per_file=2)
    if not records:
        pytest.skip("no JSON Lines datasets in the corpus")
    from collections import Counter

    from schemalint.api import check, load

    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    for i, record in enumerate(records):
        (old / f"r{i:03}.json").write_text(record.rstrip("\n") + "\n", encoding="utf-8")
    tools = load([str(old)]).tools
    # datasets repeat a tool name across records: keep the files whose names are the sides' only ones
    # (the diff pairs a name with the same name; two files of one name are reported per file)
    seen = Counter(t.name for t in tools)
    for path in {Path(t.origin.file) for t in tools if seen[t.name] > 1}:
        path.unlink()
    assert len(list(old.iterdir())) >= 20
    shutil.copytree(old, new)
    from schemalint.commands.diff_run import diff_tools
    from schemalint.config import Config
    from schemalint.fix.run import check_and_fix
    from schemalint.targets import parse_targets

    def run(files: Any = None) -> Any:
        return check(files or [str(new)], targets=[f"={target}"], jobs=1, catalog=False)

    _, _, outcome = check_and_fix(run, unsafe=False, targets=parse_targets([f"={target}"]), project=str(tmp_path))
    assert outcome.written, "the safe fixes changed no record: the test would prove nothing"
    result = diff_tools([str(old), str(new)], cfg=Config(), targets=[f"={target}"])
    breaking = [(c.tool, c.check.code, c.pointer, c.message) for t in result.tools for c in t.changes
                if c.check.kind == "breaking"]
    assert not breaking, breaking[:5]
