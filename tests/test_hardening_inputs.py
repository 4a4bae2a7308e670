"""Hostile inputs never end in a traceback (issue 18, "Tracebacks").

Every input is generated here, in a temporary directory, and bounded in size; every run is a
real subprocess of the CLI. A bad file is a located SL000 diagnostic for ``check`` and one
``schemalint: error:`` line (exit 2) for ``diff``/``snapshot``; JSON and SARIF output stays
valid UTF-8 JSON.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import cli

OK_TOOL = '{"name":"s","description":"S.","inputSchema":{"type":"object"}}'
BIG = "9" * 5000  # beyond Python's default int/str conversion limit (4,300 digits)
SURROGATE_JSON = ('{"name":"s\\ud800","description":"S \\ud800.","inputSchema":{"type":"object",'
                  '"properties":{"\\udc00x":{"type":"string"}},"required":["\\ud800"]}}')
BIG_JSON = ('{"name":"s","description":"S.","inputSchema":{"type":"object","properties":'
            '{"x":{"type":"integer","maximum":' + BIG + '}}}}')

BAD_FILES = {
    "bigint.json": BIG_JSON,
    "bigint.jsonl": OK_TOOL + "\n" + BIG_JSON + "\n",
    "bigint.yaml": "name: s\ndescription: S.\ninputSchema:\n  type: object\n  properties:\n"
                   f"    x: {{type: integer, maximum: {BIG}}}\n",
    "unknown_tag.yaml": "name: s\ndescription: !foo S.\ninputSchema: {type: object}\n",
    "bad_float.yaml": "name: s\ndescription: S.\ninputSchema: {type: object, properties: "
                      "{x: {type: number, maximum: !!float notafloat}}}\n",
    "bad_int.yaml": "name: s\ninputSchema: {type: object, properties: {x: {maximum: !!int zz}}}\n",
    "bad_timestamp.yaml": "name: s\ndescription: S.\ninputSchema: {type: object, properties: "
                          "{x: {type: string, default: !!timestamp 2020-13-45}}}\n",
    "bad_timestamp2.yaml": "name: s\ndescription: S.\ninputSchema: {type: object, properties: "
                           "{x: {type: string, default: !!timestamp nope}}}\n",
    "recursive.yaml": "name: s\ndescription: S.\ninputSchema: &a {type: object, properties: {x: *a}}\n",
    "recursive_list.yaml": "- &a [*a]\n",
}
READABLE_FILES = {
    "surrogate.json": SURROGATE_JSON,
    "surrogate.jsonl": SURROGATE_JSON + "\n",
    "date_key.yaml": "name: s\ninputSchema: {type: object, properties: {2020-01-01: {type: string}}}\n",
}


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and "Error:" not in proc.stderr.replace("error:", ""), proc.stderr


def assert_json(stdout: str) -> object:
    data = stdout.encode("utf-8")  # valid UTF-8 (no lone surrogate reached the output)
    return json.loads(data.decode("utf-8"))


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    no_traceback(proc)
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("schemalint: error: "), proc.stderr
    return lines[0]


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_a_located_sl000_in_every_format(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(BAD_FILES[name], encoding="utf-8")
    proc = cli("check", name, "--format", "json", cwd=tmp_path)
    no_traceback(proc)
    report = assert_json(proc.stdout)
    assert isinstance(report, dict)
    sl000 = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert sl000 and all(d["line"] and d["column"] for d in sl000), report["diagnostics"]
    proc = cli("check", name, "--format", "sarif", cwd=tmp_path)
    no_traceback(proc)
    sarif = assert_json(proc.stdout)
    assert isinstance(sarif, dict)
    results = sarif["runs"][0]["results"]
    assert any(r["ruleId"] == "SL000" and r["locations"][0]["physicalLocation"]["region"]["startLine"]
               for r in results)
    for fmt in ("text", "github"):
        proc = cli("check", name, "--format", fmt, cwd=tmp_path)
        no_traceback(proc)
        assert proc.returncode == 1 and "SL000" in proc.stdout


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_a_bad_file_is_one_line_for_diff_and_snapshot(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(BAD_FILES[name], encoding="utf-8")
    (tmp_path / "ok.json").write_text(OK_TOOL)
    line = one_line_error(cli("diff", "ok.json", name, cwd=tmp_path))
    assert f"{name}:" in line
    one_line_error(cli("diff", "ok.json", name, "--format", "json", cwd=tmp_path))
    one_line_error(cli("snapshot", name, "--dir", "snaps", cwd=tmp_path))
    assert not (tmp_path / "snaps").exists()


@pytest.mark.parametrize("name", sorted(READABLE_FILES))
def test_lone_surrogates_and_odd_keys_keep_every_output_valid(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(READABLE_FILES[name], encoding="utf-8")
    (tmp_path / "ok.json").write_text(OK_TOOL)
    for fmt in ("json", "sarif"):
        proc = cli("check", name, "--format", fmt, cwd=tmp_path)
        no_traceback(proc)
        assert_json(proc.stdout)
    for fmt in ("text", "github"):
        no_traceback(cli("check", name, "--format", fmt, cwd=tmp_path))
    proc = cli("diff", "ok.json", name, "--format", "json", cwd=tmp_path)
    no_traceback(proc)
    assert proc.returncode in (0, 1)
    assert_json(proc.stdout)
    no_traceback(cli("diff", "ok.json", name, cwd=tmp_path))
    proc = cli("snapshot", name, "--dir", "snaps", cwd=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 0
    for snap in (tmp_path / "snaps").glob("*.json"):
        json.loads(snap.read_bytes().decode("utf-8"))
    assert cli("snapshot", name, "--dir", "snaps", "--check", cwd=tmp_path).returncode == 0
    proc = cli("check", name, "--write-baseline", "b.json", cwd=tmp_path)
    no_traceback(proc)
    json.loads((tmp_path / "b.json").read_bytes().decode("utf-8"))
    proc = cli("check", name, "--baseline", "b.json", "--format", "json", cwd=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 0 and assert_json(proc.stdout)


# --- configuration and baseline files ----------------------------------------------------------

CONFIGS = {
    "invalid_utf8": b'sources = ["\xff\xfe"]\n',
    "deep_array": b"x = " + b"[" * 10_000 + b"]" * 10_000 + b"\n",
    "deep_inline_table": b"x = " + b"{a = " * 10_000 + b"1" + b"}" * 10_000 + b"\n",
}


@pytest.mark.parametrize("kind", sorted(CONFIGS))
@pytest.mark.parametrize("command", ["check", "snapshot"])
def test_a_broken_config_is_one_line_naming_it(tmp_path: Path, kind: str, command: str) -> None:
    (tmp_path / "schemalint.toml").write_bytes(CONFIGS[kind])
    (tmp_path / "t.json").write_text(OK_TOOL)
    args = ["check", "t.json"] if command == "check" else ["snapshot", "t.json", "--dir", "snaps"]
    line = one_line_error(cli(*args, cwd=tmp_path))
    # bytes that are not UTF-8 are named as such by the bounded read (schemalint.safe_read), with the place
    assert "schemalint.toml" in line and ("invalid TOML" in line or "invalid UTF-8 (byte 0xff at line 1" in line)


BASELINES = {
    "huge_integer": '{"schemalint_baseline": 1, "entries": [{"code": "SL001", "file": "t.json", "tool": "s", '
                    '"path": "", "count": ' + BIG + '}]}',
    "deep": '{"schemalint_baseline": 1, "entries": ' + "[" * 100_000 + "]" * 100_000 + "}",
    "huge_version": '{"schemalint_baseline": ' + BIG + ', "entries": []}',
}


@pytest.mark.parametrize("kind", sorted(BASELINES))
@pytest.mark.parametrize("fmt", ["text", "sarif"])
def test_a_hostile_baseline_is_one_line(tmp_path: Path, kind: str, fmt: str) -> None:
    (tmp_path / "t.json").write_text(OK_TOOL)
    (tmp_path / "bl.json").write_text(BASELINES[kind])
    line = one_line_error(cli("check", "t.json", "--baseline", "bl.json", "--format", fmt, cwd=tmp_path))
    assert "bl.json" in line


def test_a_baseline_with_a_lone_surrogate_is_read_and_reported_validly(tmp_path: Path) -> None:
    """A ``\\ud800`` escape is valid JSON and what --write-baseline writes for such a tool name:
    the baseline is read, and the stale entry is reported in valid UTF-8 JSON."""
    (tmp_path / "t.json").write_text(OK_TOOL)
    (tmp_path / "bl.json").write_text('{"schemalint_baseline": 1, "entries": [{"code": "SL001", "file": '
                                      '"t.json", "tool": "s\\ud800", "path": "", "message": "\\udfff"}]}')
    for fmt in ("json", "sarif"):
        proc = cli("check", "t.json", "--baseline", "bl.json", "--format", fmt, cwd=tmp_path)
        no_traceback(proc)
        assert "\\ud800" in proc.stdout
        assert_json(proc.stdout)
    no_traceback(cli("check", "t.json", "--baseline", "bl.json", cwd=tmp_path))


# --- deep schemas ------------------------------------------------------------------------------

def deep_tool(depth: int, leaf: str, description: str = "D.") -> str:
    """A tool whose schema nests ``depth`` properties, built as text (no recursion)."""
    head = '{"type":"object","properties":{"p":' * depth
    tail = "}}" * depth
    return ('{"name":"d","description":"' + description + '","inputSchema":' + head
            + '{"type":"' + leaf + '"}' + tail + "}")


def test_twenty_thousand_nested_properties_in_snapshot_and_diff(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text(deep_tool(20_000, "object"))
    (tmp_path / "same.json").write_text(deep_tool(20_000, "object"))
    (tmp_path / "changed.json").write_text(deep_tool(20_000, "string"))
    proc = cli("check", "deep.json", "--format", "json", cwd=tmp_path, timeout=300)
    no_traceback(proc)
    assert_json(proc.stdout)
    line = one_line_error(cli("snapshot", "deep.json", "--dir", "snaps", cwd=tmp_path, timeout=300))
    assert "nests more than 1,000 levels" in line
    assert not (tmp_path / "snaps").exists()
    proc = cli("diff", "deep.json", "same.json", "--format", "json", cwd=tmp_path, timeout=300)
    no_traceback(proc)
    assert proc.returncode == 0 and assert_json(proc.stdout)
    line = one_line_error(cli("diff", "deep.json", "changed.json", cwd=tmp_path, timeout=300))
    assert "not classified" in line


def test_show_of_twenty_thousand_nested_properties_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text(deep_tool(20_000, "object"))
    for fmt in ("text", "json"):
        line = one_line_error(cli("show", "d", "deep.json", "--format", fmt, cwd=tmp_path, timeout=300))
        assert "tool 'd' (deep.json)" in line and "nests more than 1,000 levels" in line


@pytest.mark.parametrize("where", ["key", "pattern", "enum", "description"])
def test_a_lone_surrogate_in_a_schema_is_an_sl001_finding_not_a_crash(tmp_path: Path, where: str) -> None:
    prop = {"key": '"k\\ud800":{"type":"string"}',
            "pattern": '"k":{"type":"string","pattern":"^a\\ud800+$","examples":["a\\ud800"]}',
            "enum": '"k":{"type":"string","enum":["x\\ud800","y"],"default":"x\\ud800"}',
            "description": '"k":{"type":"string","description":"Valid options are \'a\\ud800\' and \'b\'."}',
            }[where]
    (tmp_path / "t.json").write_text('{"name":"s","description":"S \\ud800.","inputSchema":{"type":"object",'
                                     '"properties":{' + prop + '}}}')
    proc = cli("check", "t.json", "--format", "json", cwd=tmp_path)
    no_traceback(proc)
    report = assert_json(proc.stdout)
    assert isinstance(report, dict)
    found = [(d["code"], d["pointer"], d["message"]) for d in report["diagnostics"]]
    assert not [c for c, _, _ in found if c == "SL999"], found
    assert [p for c, p, m in found if c == "SL001" and "lone surrogate" in m
            and p.startswith("/inputSchema/properties/k")], found
    proc = cli("snapshot", "t.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_a_schema_just_under_the_render_depth_is_snapshotted(tmp_path: Path) -> None:
    (tmp_path / "t.json").write_text(deep_tool(400, "object"))  # 800 JSON levels
    proc = cli("snapshot", "t.json", "--dir", "snaps", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "u.json").write_text(deep_tool(400, "string"))
    proc = cli("diff", "t.json", "u.json", "--format", "json", cwd=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 1 and assert_json(proc.stdout)


# --- git ----------------------------------------------------------------------------------------

def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def odd_repo(tmp_path: Path) -> Path:
    """A repository whose tools/ holds a non-UTF-8 file name, a name with a newline and a
    symbolic link, plus a Python source that prints at import."""
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "t@example.invalid")
    git(repo, "config", "user.name", "t")
    (repo / "tools" / "s.json").write_text(OK_TOOL)
    (repo / "tools").joinpath(b"bad\xff.json".decode("utf-8", "surrogateescape")).write_text(
        OK_TOOL.replace('"s"', '"n"'))
    (repo / "tools" / "new\nline.json").write_text(OK_TOOL.replace('"s"', '"m"'))
    (repo / "outside.json").write_text(OK_TOOL.replace('"s"', '"o"'))
    (repo / "tools" / "link.json").symlink_to("../outside.json")
    (repo / "noisy.py").write_text('print("hello from import")\n'
                                   'TOOLS = [{"name": "py", "description": "P.", "parameters": {"type": "object"}}]\n')
    (repo / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools", "noisy:TOOLS"]\n'
                                         'python-path = ["."]\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    return repo


def quiet_worktree(repo: Path) -> None:
    """The working tree's module stops printing (uncommitted): only the base revision prints at
    import (the working-tree import belongs to another change: a child process for imports)."""
    (repo / "noisy.py").write_text(
        'TOOLS = [{"name": "py", "description": "P.", "parameters": {"type": "object"}}]\n')


def test_git_odd_names_symlinks_and_no_change(odd_repo: Path) -> None:
    quiet_worktree(odd_repo)
    for args in (["diff", "--base", "HEAD"], ["diff", "--base", "HEAD", "--format", "json"],
                 ["diff", "--base", "HEAD", "tools", "--format", "json"],
                 ["diff", "HEAD:tools", "tools", "--format", "json"]):
        proc = cli(*args, cwd=odd_repo)
        no_traceback(proc)
        assert proc.returncode in (0, 1), proc.stderr
        if "json" in args:
            report = assert_json(proc.stdout)
            assert isinstance(report, dict)
            names = {t["tool"] for t in report["tools"]}
            assert {"s", "n", "m"} <= names
            assert all(t["status"] in ("identical", "added") for t in report["tools"]), report["tools"]
    proc = cli("diff", "--base", "HEAD", "--format", "json", cwd=odd_repo)
    assert "hello from import" not in proc.stdout


def test_git_shallow_clone(odd_repo: Path, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{odd_repo}", str(clone)], check=True,
                   capture_output=True)
    quiet_worktree(clone)
    proc = cli("diff", "--base", "HEAD", "--format", "json", cwd=clone)
    no_traceback(proc)
    assert proc.returncode in (0, 1) and assert_json(proc.stdout)
    line = one_line_error(cli("diff", "--base", "HEAD~1", cwd=clone))
    assert "HEAD~1" in line


def test_printing_module_at_both_sides_leaves_the_report_clean(odd_repo: Path) -> None:
    """A module that prints at import, at the base revision and in the working tree alike: the
    imports run in worker processes, so stdout holds only the report and the print goes to stderr."""
    proc = cli("diff", "--base", "HEAD", "--format", "json", cwd=odd_repo)
    no_traceback(proc)
    assert proc.returncode in (0, 1) and assert_json(proc.stdout)
    assert "hello from import" not in proc.stdout
