"""Snapshots written before the ``snapshot --check`` speed-up (issue 19) still read as up to date.

``tests/data/snapshot-compat/snaps`` was written by ``schemalint snapshot`` at main d14daeb (before
the rendering skipped its depth walk and typed the values level by level) from the tool files in
``tests/data/snapshot-compat/sources``: copies of six examples, and two files written for this test:
floats the standard library and orjson spell differently (``1e-05`` / ``0.00001``, ``1e+16``),
non-ASCII text and escapes, empty and nested containers, 64-bit integers, forty levels of nesting,
and what orjson refuses to read or write (a 70-bit integer, which it reads as a float, in a file that
a lone surrogate keeps it from reading). NaN and Infinity were there too until a tool holding one was
refused a snapshot (tests/test_non_json_values.py).
Every byte of those files must still be the rendering, and a change of one key must still be found.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli

DATA = ROOT / "tests" / "data" / "snapshot-compat"


@pytest.fixture()
def compat(tmp_path: Path) -> Path:
    """A copy of the sources and of the old snapshots in ``tmp_path`` (the test edits them)."""
    shutil.copytree(DATA / "sources", tmp_path / "sources")
    shutil.copytree(DATA / "snaps", tmp_path / "snaps")
    return tmp_path


def _snapshot_files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def test_old_snapshots_are_up_to_date_and_left_untouched(compat: Path) -> None:
    before = _snapshot_files(compat / "snaps")
    assert len(before) == 25  # 24 snapshots and the record (names only: an older record, no hashes)
    checked = cli("snapshot", "sources", "--dir", "snaps", "--check", cwd=compat)
    assert (checked.returncode, checked.stdout, checked.stderr) == (0, "24 snapshot(s) up to date in snaps\n", "")
    mtimes = {p.name: p.stat().st_mtime_ns for p in (compat / "snaps").iterdir()}
    written = cli("snapshot", "sources", "--dir", "snaps", cwd=compat)
    assert written.returncode == 0, written.stderr
    assert written.stdout.startswith("snaps: 0 written, 24 unchanged, 0 removed (24 tools)\n")
    after = _snapshot_files(compat / "snaps")
    record = after.pop(".schemalint-snapshots").decode()  # migrated: the same names, each with its hash
    assert after == {k: v for k, v in before.items() if k != ".schemalint-snapshots"}
    assert sorted(line.split("  sha256:")[0] for line in record.splitlines() if not line.startswith("#")) == \
        sorted(n for n in before if n != ".schemalint-snapshots")
    assert {p.name: p.stat().st_mtime_ns for p in (compat / "snaps").iterdir() if p.name.endswith(".json")} == \
        {k: v for k, v in mtimes.items() if k.endswith(".json")}


def test_a_one_key_change_in_a_source_is_found(compat: Path) -> None:
    source = compat / "sources" / "tools.json"
    text = source.read_text(encoding="utf-8")
    assert text.count('"minimum": 1e-05') == 1
    source.write_text(text.replace('"minimum": 1e-05', '"minimum": 2e-05'), encoding="utf-8")
    proc = cli("snapshot", "sources", "--dir", "snaps", "--check", cwd=compat)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == (
        "snaps/floats.json: stale\n"
        "--- a/snaps/floats.json\n"
        "+++ b/snaps/floats.json\n"
        "@@ -6,7 +6,7 @@\n"
        '     "properties": {\n'
        '       "ratio": {\n'
        '         "type": "number",\n'
        '-        "minimum": 1e-05,\n'
        '+        "minimum": 2e-05,\n'
        '         "maximum": 1e+16,\n'
        '         "multipleOf": 0.5,\n'
        '         "default": -0.0\n'
        "\n"
        "1 snapshot problem(s) in snaps (24 tools); run `schemalint snapshot sources --dir snaps` and "
        "commit the result\n"
    )


@pytest.mark.parametrize(("filename", "old", "new"), [
    ("floats.json", b'"minimum": 1e-05', b'"minimum": 0.00001'),  # orjson's spelling of the same float
    ("floats.json", b"1e+16", b"1e16"),
    ("odd_numbers.json", b"  1180591620717411303424", b"  1.1805916207174113e+21"),  # as orjson reads it
    ("lone_surrogate.json", b'"name": "lone_surrogate",\n  "description"',
     b'"description": "half a pair: \\ud800 here",\n  "name": "lone_surrogate",\n  "x"'),
    ("text.json", "ключ".encode(), b"\\u043a\\u043b\\u044e\\u0447"),  # the same text, ASCII-escaped
    ("deep.json", b'"leaf"', b'"leaf "'),
    ("shapes.json", b'"properties": {}', b'"properties": {\n      }'),
])
def test_a_one_key_change_in_a_snapshot_is_found(compat: Path, filename: str, old: bytes, new: bytes) -> None:
    path = compat / "snaps" / filename
    data = path.read_bytes()
    assert data.count(old) == 1
    path.write_bytes(data.replace(old, new))
    proc = cli("snapshot", "sources", "--dir", "snaps", "--check", cwd=compat)
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith(f"snaps/{filename}: stale\n--- a/snaps/{filename}\n+++ b/snaps/{filename}\n")
    assert "\n1 snapshot problem(s) in snaps (24 tools); run" in proc.stdout


def test_a_missing_and_an_orphaned_snapshot_are_found(compat: Path) -> None:
    (compat / "snaps" / "deep.json").unlink()
    (compat / "sources" / "odd.json").unlink()  # its two tools are gone: their snapshots are orphaned
    proc = cli("snapshot", "sources", "--dir", "snaps", "--check", cwd=compat)
    assert proc.returncode == 1, proc.stderr
    headers = [line for line in proc.stdout.splitlines() if line.startswith("snaps/")]
    assert headers == ["snaps/deep.json: missing", "snaps/lone_surrogate.json: orphaned (no such tool any more)",
                       "snaps/odd_numbers.json: orphaned (no such tool any more)"]
    assert "\n3 snapshot problem(s) in snaps (22 tools); run" in proc.stdout


def test_the_snapshot_directory_is_read_as_before(tmp_path: Path) -> None:
    """:func:`existing_snapshots` reads the directory with ``os.scandir`` and plain reads: the
    files and texts :class:`pathlib.Path` gives, in its order; entries that are no file skipped."""
    from schemalint.commands.snapshot import existing_snapshots

    def reference(directory: Path) -> dict[str, str]:
        return {p.name: p.read_bytes().decode("utf-8", errors="replace") for p in sorted(directory.iterdir())
                if p.name.endswith(".json") and not p.name.startswith(".") and p.is_file() and not p.is_symlink()}

    (tmp_path / "b.json").write_text('{"name": "b"}\n')
    (tmp_path / "A.json").write_bytes(b'{"name": "\xff"}\n')  # not UTF-8
    (tmp_path / "big.json").write_bytes(b"x" * 3_000_000)  # more than one read
    (tmp_path / ".hidden.json").write_text("{}")
    (tmp_path / "notes.txt").write_text("{}")
    (tmp_path / "dir.json").mkdir()
    os.symlink("b.json", tmp_path / "link.json")
    os.symlink("nowhere.json", tmp_path / "broken.json")
    os.symlink("loop.json", tmp_path / "loop.json")
    got = existing_snapshots(tmp_path)
    assert got == reference(tmp_path)
    assert list(got) == ["A.json", "b.json", "big.json"]  # a symbolic link is never read as a snapshot
    assert existing_snapshots(tmp_path / "absent") == {}


def _deep_tool(name: str, depth: int) -> str:
    return ('{"name":"' + name + '","inputSchema":' + '{"type":"object","properties":{"p":' * depth
            + '{"type":"string"}' + "}}" * depth + "}")


@pytest.mark.parametrize(("names", "error"), [
    (["z_deep", "b", "B", "a_deep"], "tool 'a_deep' (tools.json): its definition nests more than 1,000 levels"),
    (["z_deep", "b", "B"], "tools 'B' and 'b' differ only in letter case"),
    (["z_deep", "a_deep"], "tool 'a_deep' (tools.json): its definition nests more than 1,000 levels"),
])
def test_the_first_refusal_by_tool_name_is_reported(tmp_path: Path, names: list[str], error: str) -> None:
    """The tools are rendered in the order they were read, yet the refusal named is the one of
    the first tool by name, as when they were rendered by name (a too-deep definition, two
    names that differ only in letter case)."""
    tools = [_deep_tool(n, 1100) if n.endswith("_deep") else '{"name":"' + n + '","inputSchema":{}}' for n in names]
    (tmp_path / "tools.json").write_text('{"tools":[' + ",".join(tools) + "]}")
    for check in ([], ["--check"]):
        proc = cli("snapshot", "tools.json", "--dir", "snaps", *check, cwd=tmp_path, timeout=300)
        assert proc.returncode == 2 and proc.stdout == ""
        assert proc.stderr.startswith(f"schemalint: error: {error}") and proc.stderr.count("\n") == 1, proc.stderr
    assert not (tmp_path / "snaps").exists()


def test_snapshot_texts_are_read_one_at_a_time(tmp_path: Path) -> None:
    """``--check`` lists the directory once and reads each snapshot when it compares it: a file
    removed since the listing reads as absent, and membership never reads a file."""
    from schemalint.commands.snapshot import SnapshotTexts, existing_snapshots

    for name in ("a.json", "b.json", "c.json"):
        (tmp_path / name).write_text(f'"{name}"\n')
    texts = SnapshotTexts(tmp_path)
    (tmp_path / "b.json").unlink()
    (tmp_path / "c.json").write_text("changed\n")
    (tmp_path / "d.json").write_text("new\n")
    assert list(texts) == ["a.json", "b.json", "c.json"] and len(texts) == 3
    assert "b.json" in texts and "d.json" not in texts
    assert texts.read("a.json") == '"a.json"\n' and texts.read("b.json") is None and texts.read("d.json") is None
    assert texts["c.json"] == "changed\n" and texts.get("b.json") is None
    with pytest.raises(KeyError):
        texts["b.json"]
    assert existing_snapshots(tmp_path) == {"a.json": '"a.json"\n', "c.json": "changed\n", "d.json": "new\n"}
