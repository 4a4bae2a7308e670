"""schemalint writes only where it was told, never onto a file it reads, atomically (issue 18).

Real files in temporary directories and real runs of the CLI in subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli

TOOL = {"name": "s", "description": "S.", "inputSchema": {"type": "object"}}


def tool(name: str) -> str:
    return json.dumps({"name": name, "description": f"{name}.", "inputSchema": {"type": "object"}})


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("schemalint: error: "), proc.stderr
    return lines[0]


# --- snapshot never removes or overwrites a file it did not write ---------------------------

def test_snapshot_into_the_source_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "s.json").write_text(tool("s"))
    line = one_line_error(cli("snapshot", "tools", "--dir", "tools", cwd=tmp_path))
    assert "holds the source tools" in line
    assert (tmp_path / "tools" / "s.json").read_text() == tool("s")


def test_snapshot_dot_into_dot_is_refused(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(tool("s"))
    one_line_error(cli("snapshot", ".", "--dir", ".", cwd=tmp_path))
    assert (tmp_path / "s.json").read_text() == tool("s")
    assert not (tmp_path / ".schemalint-snapshots").exists()


def test_snapshot_dir_holding_a_source_file_through_a_symlink_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "s.json").write_text(tool("s"))
    (tmp_path / "alias").symlink_to("tools")
    one_line_error(cli("snapshot", "tools/s.json", "--dir", "alias", cwd=tmp_path))
    assert (tmp_path / "tools" / "s.json").read_text() == tool("s")


def test_a_dir_holding_tool_files_schemalint_did_not_write_is_refused(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "o.json").write_text(tool("o"))
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "s.json").write_text(tool("s"))
    line = one_line_error(cli("snapshot", "other/", "--dir", "tools", cwd=tmp_path))
    assert "s.json" in line and "did not write" in line
    assert sorted(p.name for p in (tmp_path / "tools").iterdir()) == ["s.json"]
    proc = cli("snapshot", "other/", "--dir", "tools", "--check", cwd=tmp_path)
    one_line_error(proc)


def test_a_file_at_a_snapshot_name_that_schemalint_did_not_write_is_not_overwritten(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "package.json").write_text(json.dumps([json.loads(tool("package"))]))
    (tmp_path / "snaps").mkdir()
    (tmp_path / "snaps" / "package.json").write_text('{"dependencies": {}}\n')
    line = one_line_error(cli("snapshot", "src", "--dir", "snaps", cwd=tmp_path))
    assert "package.json" in line and "not written by schemalint" in line
    assert (tmp_path / "snaps" / "package.json").read_text() == '{"dependencies": {}}\n'


def test_orphans_schemalint_wrote_are_removed_and_nothing_else(tmp_path: Path) -> None:
    src = tmp_path / "tools.json"
    src.write_text(json.dumps([json.loads(tool("a")), json.loads(tool("b"))]))
    snaps = tmp_path / "snaps"
    (tmp_path / "snaps").mkdir()
    (snaps / "notes.json").write_text('{"not": "a tool"}\n')
    (snaps / "README.md").write_text("snapshots\n")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "2 written" in proc.stdout
    manifest = (snaps / ".schemalint-snapshots").read_text().splitlines()
    assert [x.split("  ")[0] for x in manifest if not x.startswith("#")] == ["a.json", "b.json"]
    src.write_text(json.dumps([json.loads(tool("a"))]))
    proc = cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path)
    assert proc.returncode == 1 and "b.json: orphaned" in proc.stdout
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0 and "1 removed" in proc.stdout, proc.stdout + proc.stderr
    assert sorted(p.name for p in snaps.iterdir()) == [".schemalint-snapshots", "README.md", "a.json",
                                                       "notes.json"]
    assert cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path).returncode == 0


def test_snapshots_of_an_older_version_are_recognised_and_orphans_kept(tmp_path: Path) -> None:
    """A directory written before the manifest existed: up-to-date and stale snapshots are
    recognised (their bytes are exactly the rendering), an orphan is named and kept."""
    src = tmp_path / "tools.json"
    src.write_text(json.dumps([json.loads(tool("a")), json.loads(tool("b")), json.loads(tool("c"))]))
    assert cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path).returncode == 0
    (tmp_path / "snaps" / ".schemalint-snapshots").unlink()  # as the old version left it
    src.write_text(json.dumps([json.loads(tool("a")), {**json.loads(tool("b")), "description": "B2."}]))
    check = cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path)
    assert check.returncode == 1 and "b.json: stale" in check.stdout and "c.json: orphaned" in check.stdout
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "1 written, 1 unchanged, 0 removed" in proc.stdout and "c.json: kept" in proc.stdout
    assert (tmp_path / "snaps" / "c.json").exists()
    assert "B2." in (tmp_path / "snaps" / "b.json").read_text()
    (tmp_path / "snaps" / "c.json").unlink()
    assert cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path).returncode == 0


def test_a_hand_written_tool_file_under_a_configured_snapshot_dir_is_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(tool("a"))
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["."]\nsnapshot-dir = "snaps"\n')
    assert cli("snapshot", cwd=tmp_path).returncode == 0
    assert cli("snapshot", "--check", cwd=tmp_path).returncode == 0  # its own snapshots are skipped
    (tmp_path / "snaps" / "sub").mkdir()
    (tmp_path / "snaps" / "sub" / "x.json").write_text(tool("x"))
    line = one_line_error(cli("snapshot", cwd=tmp_path))
    assert "x.json" in line


def test_a_conflicted_manifest_is_an_error_not_a_removal(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(tool("a"))
    assert cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path).returncode == 0
    (tmp_path / "snaps" / ".schemalint-snapshots").write_text("<<<<<<< HEAD\na.json\n=======\n>>>>>>> x\n")
    line = one_line_error(cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path))
    assert ".schemalint-snapshots" in line
    assert (tmp_path / "snaps" / "a.json").exists()


# --- --write-baseline never writes onto a file the run reads ---------------------------------

def test_write_baseline_onto_the_source_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(tool("s"))
    line = one_line_error(cli("check", "tools.json", "--write-baseline", "tools.json", cwd=tmp_path))
    assert "tools.json" in line
    assert (tmp_path / "tools.json").read_text() == tool("s")


def test_write_baseline_through_a_symlink_onto_the_source_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(tool("s"))
    (tmp_path / "link.json").symlink_to("tools.json")
    one_line_error(cli("check", "tools.json", "--write-baseline", "link.json", cwd=tmp_path))
    assert (tmp_path / "tools.json").read_text() == tool("s")
    assert (tmp_path / "link.json").is_symlink()


def test_write_baseline_onto_the_config_or_a_file_under_a_source_dir_is_refused(tmp_path: Path) -> None:
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "a.json").write_text(tool("a"))
    (tmp_path / "tools" / "b.json").write_text(tool("b"))
    config = '[tool.schemalint]\nsources = ["tools"]\n'
    (tmp_path / "pyproject.toml").write_text(config)
    one_line_error(cli("check", "--write-baseline", "pyproject.toml", cwd=tmp_path))
    assert (tmp_path / "pyproject.toml").read_text() == config
    line = one_line_error(cli("check", "--write-baseline", "tools/b.json", cwd=tmp_path))
    assert "not a schemalint baseline" in line
    assert (tmp_path / "tools" / "b.json").read_text() == tool("b")


def test_write_baseline_replaces_a_baseline_and_follows_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps({"name": "s", "inputSchema": {"type": "object"}}))
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "baseline.json").write_text("")
    (tmp_path / "b.json").symlink_to("store/baseline.json")
    for _ in range(2):  # the second run replaces the baseline the first wrote
        proc = cli("check", "tools.json", "--write-baseline", "b.json", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "b.json").is_symlink()
    data = json.loads((tmp_path / "store" / "baseline.json").read_text())
    assert data["schemalint_baseline"] == 1 and data["entries"]
    assert cli("check", "tools.json", "--baseline", "b.json", cwd=tmp_path).returncode == 0
    assert not [p for p in (tmp_path / "store").iterdir() if p.name.endswith(".tmp")]


# --- probe leaves nothing in the project -------------------------------------------------------

def test_probe_writes_no_hypothesis_directory(tmp_path: Path) -> None:
    (tmp_path / "mt.py").write_text(textwrap.dedent('''
        from pydantic import BaseModel, Field

        class Lookup(BaseModel):
            """Look up a code."""
            code: str = Field(pattern=r"^[QZ]{3}-\\d{4}$")

        TOOLS = [Lookup]
    '''))
    proc = cli("probe", "mt:TOOLS", "--python-path", ".", "--max-examples", "20", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "__pycache__") == ["mt.py"]


# --- concurrency -----------------------------------------------------------------------------

def test_concurrent_snapshot_runs_on_one_directory(tmp_path: Path) -> None:
    tools = [json.loads(tool(f"t{i}")) for i in range(40)]
    (tmp_path / "tools.json").write_text(json.dumps([*tools, json.loads(tool("old"))]))
    assert cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path).returncode == 0
    (tmp_path / "tools.json").write_text(json.dumps(tools))  # old.json: an orphan each run wants to remove
    procs = [subprocess.Popen([sys.executable, "-m", "schemalint", "snapshot", "tools.json", "--dir", "snaps"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    results = [p.communicate(timeout=300) for p in procs]
    for p, (_out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "No such file" not in err and "Traceback" not in err
    assert sum("1 removed" in out for out, _ in results) >= 1
    assert len(list((tmp_path / "snaps").glob("*.json"))) == 40
    assert not list((tmp_path / "snaps").glob(".*.tmp"))
    assert cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path).returncode == 0


def test_a_reader_never_sees_a_partly_written_baseline(tmp_path: Path) -> None:
    """A writer process rewrites the baseline 150 times (small and large versions) while this
    process reads it: every read is valid JSON."""
    target = tmp_path / "baseline.json"
    writer = textwrap.dedent(f'''
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        from schemalint.engine.baseline import Baseline, BaselineEntry, Fingerprint
        big = Baseline([BaselineEntry(Fingerprint("SL101", f"f{{i}}.json", "t", "/p", None), 1, "n", "m" * 200)
                        for i in range(400)])
        small = Baseline([])
        small.write({str(target)!r})
        print("ready", flush=True)
        for i in range(150):
            (big if i % 2 else small).write({str(target)!r})
    ''')
    proc = subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    reads = 0
    while proc.poll() is None:
        data = json.loads(target.read_text(encoding="utf-8"))
        assert data["schemalint_baseline"] == 1
        reads += 1
    assert proc.wait(timeout=120) == 0
    assert reads > 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores file modes")
def test_an_unwritable_snapshot_dir_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(tool("a"))
    (tmp_path / "snaps").mkdir()
    (tmp_path / "snaps").chmod(0o500)
    try:
        one_line_error(cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path))
    finally:
        (tmp_path / "snaps").chmod(0o700)


# --- the snapshot record is not trusted blindly (issue 25) -------------------------------------

def _snapshot(tmp_path: Path, *names: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "tools.json").write_text("[" + ", ".join(tool(n) for n in names) + "]")
    return cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)


def test_the_record_holds_a_content_hash_per_file(tmp_path: Path) -> None:
    import hashlib

    assert _snapshot(tmp_path, "a", "b").returncode == 0
    record = (tmp_path / "snaps" / ".schemalint-snapshots").read_text().splitlines()
    rows = [line.split("  ") for line in record if not line.startswith("#")]
    assert [r[0] for r in rows] == ["a.json", "b.json"]
    for name, digest in rows:
        assert digest == "sha256:" + hashlib.sha256((tmp_path / "snaps" / name).read_bytes()).hexdigest()


def test_a_forged_record_loses_no_hand_written_file(tmp_path: Path) -> None:
    """A record listing hand-written files (with no hash, a wrong hash, or their real hash) makes
    `snapshot` remove or overwrite none of them."""
    import hashlib

    snaps = tmp_path / "snaps"
    snaps.mkdir()
    hand = {  # hand-written files a user keeps beside (or instead of) snapshots
        "notes.json": '{"todo": ["keep me"]}\n',
        "gone.json": tool("gone") + "\n",  # a tool definition, not byte-for-byte a rendering
        "a.json": '{"name": "a", "description": "My own version.", "inputSchema": {"type": "object"}}',
        "real.json": '{"name": "real", "description": "Mine.",   "inputSchema": {}}',
    }
    for name, text in hand.items():
        (snaps / name).write_text(text)
    real_hash = hashlib.sha256(hand["real.json"].encode()).hexdigest()
    (snaps / ".schemalint-snapshots").write_text(
        "notes.json\ngone.json  sha256:" + "0" * 64 + f"\na.json\nreal.json  sha256:{real_hash}\n")
    (tmp_path / "tools.json").write_text("[" + tool("a") + "]")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    line = one_line_error(proc)  # a.json is in the way: refused, nothing written
    assert "a.json" in line and "not provably written by schemalint" in line
    for name, text in hand.items():
        assert (snaps / name).read_text() == text, name
    (snaps / "a.json").unlink()  # the user moves their file out: the run goes ahead
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0 and "0 removed" in proc.stdout, proc.stdout + proc.stderr
    for name in ("notes.json", "gone.json", "real.json"):
        assert (snaps / name).read_text() == hand[name], name


def test_a_symlink_in_the_record_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "a.json").write_text("precious\n")
    (outside / "b.json").write_text(tool("b"))
    project = tmp_path / "project"
    snaps = project / "snaps"
    snaps.mkdir(parents=True)
    (snaps / "a.json").symlink_to(outside / "a.json")
    (snaps / "b.json").symlink_to(outside / "b.json")
    (snaps / ".schemalint-snapshots").write_text("a.json\nb.json\n")
    line = one_line_error(_snapshot(project, "a"))
    assert "symbolic link" in line
    assert (outside / "a.json").read_text() == "precious\n" and (snaps / "a.json").is_symlink()
    (snaps / "a.json").unlink()
    proc = _snapshot(project, "a")  # b.json, a link and an orphan, is neither followed nor removed
    assert proc.returncode == 0, proc.stderr
    assert (outside / "b.json").read_text() == tool("b") and (snaps / "b.json").is_symlink()
    assert (snaps / "a.json").is_file() and not (snaps / "a.json").is_symlink()
    # the record itself as a link out: refused, the link's target untouched
    (outside / "record").write_text("precious\n")
    (snaps / ".schemalint-snapshots").unlink()
    (snaps / ".schemalint-snapshots").symlink_to(outside / "record")
    one_line_error(_snapshot(project, "a"))
    assert (outside / "record").read_text() == "precious\n"


def test_a_snapshot_dir_linking_out_of_the_project_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    (project / "schemalint.toml").write_text('snapshot-dir = "snaps"\n')
    (project / "snaps").symlink_to(outside, target_is_directory=True)
    (project / "tools.json").write_text(tool("a"))
    line = one_line_error(cli("snapshot", "tools.json", cwd=project))
    assert "leading out of the project" in line
    assert list(outside.iterdir()) == []


def test_an_old_record_without_hashes_is_migrated_and_nothing_removed(tmp_path: Path) -> None:
    """A record written by an older schemalint (names only): its snapshots are exact renderings and
    are replaced when stale, an orphan is kept with a message, the new record has hashes."""
    assert _snapshot(tmp_path, "a", "b", "c").returncode == 0
    record = tmp_path / "snaps" / ".schemalint-snapshots"
    record.write_text("# schemalint snapshots\na.json\nb.json\nc.json\n")
    (tmp_path / "tools.json").write_text("[" + tool("a") + ", " + tool("b").replace("b.", "B.") + "]")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "1 written, 1 unchanged, 0 removed" in proc.stdout and "c.json: kept" in proc.stdout
    assert "no content hash" in proc.stdout
    assert (tmp_path / "snaps" / "c.json").exists()
    rows = [line for line in record.read_text().splitlines() if not line.startswith("#")]
    assert rows[:2] == [r for r in rows if "  sha256:" in r] and [r.split("  ")[0] for r in rows[:2]] == [
        "a.json", "b.json"]
    assert rows[2:] == ["c.json"]  # kept, and still listed without a hash: not provably schemalint's
