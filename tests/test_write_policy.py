"""One write policy for every path a user names for output (issue 25; docs/security.md).

``--write-baseline`` (check, replay) and ``--summary-out`` go through
:func:`schemalint.safe_write.write_output`: a README, a link out of the project, a device or FIFO,
a source of the run are refused (exit 2, one line, nothing written); a previous output of the same
kind, an empty file and a new path are written, atomically. Real files, links, a real FIFO and
``/dev/null``; the CLI in subprocesses.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from schemalint.engine.baseline import is_baseline_text
from schemalint.rules.facts import is_summary_text
from schemalint.safe_write import WriteRefused, check_output, write_output
from tests.conftest import cli

TOOL = {"name": "s", "description": "S.", "inputSchema": {"type": "object", "properties": {"q": {"type": "strin"}}}}
README = "# My project\n\nHand-written; schemalint must never replace it.\n"
OPENAI_LOG = {"model": "m", "tools": [{"type": "function", "function": {"name": "f", "description": "d",
                                                                        "parameters": {"type": "object"}}}],
              "messages": [{"role": "user", "content": "hi"}]}

OUTPUTS: dict[str, tuple[tuple[str, ...], str, Callable[[bytes], bool]]] = {
    # name: (command up to the output option, the source file it reads, recogniser of its output)
    "check --write-baseline": (("check", "tools.json", "--write-baseline"), "tools.json", is_baseline_text),
    "check --summary-out": (("check", "tools.json", "--summary-out"), "tools.json", is_summary_text),
    "replay --write-baseline": (("replay", "log.json", "--write-baseline"), "log.json", is_baseline_text),
}


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    (project / "tools.json").write_text(json.dumps(TOOL))
    (project / "log.json").write_text(json.dumps(OPENAI_LOG))
    (project / "README.md").write_text(README)
    (project / "schemalint.toml").write_text("")
    return project


def _refused(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("schemalint: error: "), proc.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def _no_temporaries(directory: Path) -> None:
    assert not [p.name for p in directory.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_a_readme_a_source_and_a_link_out_are_refused(tmp_path: Path, output: str) -> None:
    command, source, _ = OUTPUTS[output]
    project = _project(tmp_path)
    outside = tmp_path / "outside.txt"
    outside.write_text("a file outside the project\n")
    (project / "out-link.json").symlink_to(outside)
    (project / "elsewhere").symlink_to(tmp_path, target_is_directory=True)
    source_before = (project / source).read_bytes()

    _refused(cli(*command, "README.md", cwd=project), "README.md", "not a schemalint")
    _refused(cli(*command, source, cwd=project), "a file this run reads")
    _refused(cli(*command, "out-link.json", cwd=project), "symbolic link", "out of the project")
    _refused(cli(*command, "elsewhere/new.json", cwd=project), "symbolic link", "out of the project")

    assert (project / "README.md").read_text() == README
    assert (project / source).read_bytes() == source_before
    assert outside.read_text() == "a file outside the project\n"
    assert not (tmp_path / "new.json").exists()
    _no_temporaries(project)


@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_a_fifo_and_a_device_are_refused(tmp_path: Path, output: str) -> None:
    command, _, _ = OUTPUTS[output]
    project = _project(tmp_path)
    fifo = project / "out.json"
    os.mkfifo(fifo)
    _refused(cli(*command, "out.json", cwd=project, timeout=60), "a FIFO", "not a regular file")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    before = os.stat(os.devnull)
    _refused(cli(*command, os.devnull, cwd=project, timeout=60), "character device")
    after = os.stat(os.devnull)
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    _no_temporaries(project)


@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_a_previous_output_an_empty_file_and_a_link_inside_are_written(tmp_path: Path, output: str) -> None:
    command, _, recognise = OUTPUTS[output]
    project = _project(tmp_path)
    (project / "store").mkdir()
    (project / "store" / "out.json").write_text("")  # made with touch/mktemp: accepted
    (project / "link.json").symlink_to("store/out.json")
    for _ in range(2):  # the second run replaces what the first wrote
        proc = cli(*command, "link.json", cwd=project)
        assert proc.returncode == 0, proc.stderr
    assert (project / "link.json").is_symlink()
    assert recognise((project / "store" / "out.json").read_bytes())
    assert json.loads((project / "store" / "out.json").read_text())
    _no_temporaries(project / "store")


# --- the policy itself, on real files ----------------------------------------------------------

def _check(target: Path, project: Path, reads: tuple[Path, ...] = ()) -> None:
    check_output(target, what="baseline", is_ours=is_baseline_text, reads=reads, project=project)


def test_the_policy_on_each_kind_of_target(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    outside = tmp_path / "o"
    outside.mkdir()
    (outside / "precious.json").write_text('{"schemalint_baseline": 1, "entries": []}')
    (project / "in.json").symlink_to(outside / "precious.json")  # a baseline, but out of the project
    (project / "dangling.json").symlink_to(outside / "new.json")
    (project / "sub").symlink_to(outside, target_is_directory=True)
    for name in ("in.json", "dangling.json", "sub/x.json"):
        with pytest.raises(WriteRefused, match="symbolic link that leads out of the project"):
            _check(project / name, project)
    with pytest.raises(WriteRefused, match="a directory"):
        _check(outside, project)
    # A path the user names outside the project, with no link of the project on the way, is theirs.
    _check(outside / "precious.json", project)
    _check(outside / "fresh.json", project)
    big = project / "big.json"
    big.write_text(" " * 100_000 + '{"schemalint_baseline": 1}')  # the marker beyond the bytes read
    with pytest.raises(WriteRefused, match="not a schemalint baseline"):
        _check(big, project)
    source = project / "tools.json"
    source.write_text("{}")
    (project / "alias.json").symlink_to("tools.json")
    with pytest.raises(WriteRefused, match="a file this run reads"):
        _check(project / "alias.json", project, reads=(source,))


def test_write_output_replaces_atomically_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "baseline.json"
    target.write_text('{"schemalint_baseline": 1, "entries": []}\n')
    target.chmod(0o640)
    inode = target.stat().st_ino
    write_output(target, '{"schemalint_baseline": 1, "entries": [1]}\n', what="baseline",
                 is_ours=is_baseline_text, project=tmp_path)
    assert target.read_text().endswith("[1]}\n")
    assert target.stat().st_ino != inode  # a new file renamed over the old one, not rewritten in place
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    _no_temporaries(tmp_path)


# --- file names are never options --------------------------------------------------------------

HOSTILE = "--write-baseline=x.json"

SOURCE_COMMANDS: dict[str, tuple[tuple[str, ...], str]] = {
    # name: (the command line, with HOSTILE after `--`), what its output must show
    "check": (("check", "--", HOSTILE), "SL001"),
    "show": (("show", "s", "--", HOSTILE), f"{HOSTILE} at /"),
    "snapshot": (("snapshot", "--dir", "snaps", "--", HOSTILE), "1 written"),
    "diff": (("diff", "--", HOSTILE, "-x.json"), "-x.json"),
    "probe": (("probe", "--", HOSTILE), ""),
    "replay": (("replay", "--", "--config=evil.json"), "f"),
}


@pytest.mark.parametrize("command", sorted(SOURCE_COMMANDS))
def test_every_word_after_double_dash_is_a_source(tmp_path: Path, command: str) -> None:
    args, shown = SOURCE_COMMANDS[command]
    (tmp_path / HOSTILE).write_text(json.dumps(TOOL))
    (tmp_path / "-x.json").write_text(json.dumps(dict(TOOL, description="Changed.")))
    (tmp_path / "--config=evil.json").write_text(json.dumps(OPENAI_LOG))
    (tmp_path / "evil.json").write_text('fail-on = "never"\n')
    proc = cli(*args, cwd=tmp_path)
    assert "Traceback" not in proc.stderr
    assert "No such option" not in proc.stderr and proc.returncode in (0, 1), (proc.returncode, proc.stderr)
    assert shown in proc.stdout, proc.stdout
    assert not (tmp_path / "x.json").exists()


def test_an_option_word_after_double_dash_says_why(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps(TOOL))
    line = _refused(cli("check", "--scan", "--", "--fail-on", "warning", "tools.json", cwd=tmp_path))
    assert "--fail-on: no such file or directory" in line and "[tool.schemalint]" in line


@pytest.mark.parametrize("target", ["README.md", "tools.json", "out-link.json", "elsewhere/new.json", "fifo",
                                    "/dev/null", "schemalint.toml", "baseline.json", "empty.json", "new.json"])
def test_the_python_api_baseline_write_refuses_what_the_cli_refuses(tmp_path: Path, target: str) -> None:
    """``Baseline.write`` goes through the same policy as ``check --write-baseline``: the same
    targets are refused (nothing written) or written, by the API and by the CLI."""
    from schemalint.api import check
    from schemalint.engine.baseline import Baseline

    def prepared(root: Path) -> Path:
        project = _project(root)
        (project / "out-link.json").symlink_to(root / "outside.json")
        (project / "elsewhere").symlink_to(root, target_is_directory=True)
        os.mkfifo(project / "fifo")
        (project / "baseline.json").write_text('{"schemalint_baseline": 1, "entries": []}\n')
        (project / "empty.json").write_text("")
        return project

    def state(project: Path) -> dict[str, bytes | None]:
        names = ["README.md", "tools.json", "schemalint.toml", "baseline.json", "empty.json", "new.json"]
        return {n: (project / n).read_bytes() if (project / n).is_file() else None for n in names} | {
            "outside": (project.parent / "outside.json").read_bytes() if (project.parent / "outside.json").exists()
            else None, "elsewhere": (project.parent / "new.json").read_bytes()
            if (project.parent / "new.json").exists() else None}

    (tmp_path / "cli").mkdir()
    (tmp_path / "api").mkdir()
    cli_project, api_project = prepared(tmp_path / "cli"), prepared(tmp_path / "api")
    ran = cli("check", "tools.json", "--write-baseline", target, cwd=cli_project, timeout=60)
    assert ran.returncode in (0, 2) and "Traceback" not in ran.stderr, ran.stderr
    cli_refused = ran.returncode == 2

    before = state(api_project)
    result = check([str(api_project / "tools.json")])
    baseline = Baseline.from_findings(result.diagnostics, result.fingerprints)
    path = target if target.startswith("/") else api_project / target
    try:
        baseline.write(path, reads=[api_project / "tools.json", api_project / "schemalint.toml"],
                       project=api_project)
    except WriteRefused as exc:
        api_refused = True
        assert str(target) in str(exc)
        assert state(api_project) == before  # nothing written anywhere
    else:
        api_refused = False
        assert Baseline.read(path).entries == baseline.entries
    assert api_refused == cli_refused, (target, ran.stderr)
    assert api_refused == (target not in ("baseline.json", "empty.json", "new.json"))


@pytest.mark.parametrize("kind", ["fifo", "device", "file"])
def test_the_job_summary_is_appended_only_to_a_regular_file(tmp_path: Path, kind: str) -> None:
    """``GITHUB_STEP_SUMMARY`` naming a FIFO (no reader) or a device neither hangs the run nor
    writes to the device: the summary is skipped with a message; a regular file is appended to."""
    project = _project(tmp_path)
    target = {"fifo": project / "summary.fifo", "device": Path("/dev/null"), "file": project / "summary.md"}[kind]
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "file":
        target.write_text("earlier step\n")
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(target)}
    proc = cli("check", "tools.json", "--format", "github", cwd=project, env=env, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    if kind == "file":
        text = target.read_text()
        assert text.startswith("earlier step\n") and "| error |" in text
    else:
        assert "cannot append the job summary" in proc.stderr, proc.stderr


@pytest.mark.parametrize("name", ["..", ".", "dir/"])
def test_a_stdin_filename_naming_no_file_is_refused(tmp_path: Path, name: str) -> None:
    proc = cli("check", "-", "--stdin-filename", name, input=json.dumps(TOOL), cwd=tmp_path, timeout=60)
    _refused(proc, "--stdin-filename", "names no file")
    assert list(tmp_path.iterdir()) == []
