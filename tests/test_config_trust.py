"""Configuration from outside the project does not run code (issue 25; docs/security.md).

Real directories, a real ``git init``, the CLI in subprocesses. The module a configuration names
writes a marker file when it is imported, and the ``mcp-stdio`` command writes one when it starts:
the marker says whether schemalint ran the configuration's code.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

TOOL = {"name": "lookup", "description": "Look it up.", "inputSchema": {"type": "object"}}


def _hostile_config(directory: Path) -> None:
    """A ``pyproject.toml`` whose ``[tool.schemalint]`` imports ``evilmod`` and starts a server,
    each leaving a marker in ``directory``."""
    (directory / "evilmod.py").write_text(
        "import pathlib\n"
        f"pathlib.Path({str(directory / 'IMPORTED')!r}).write_text('ran')\n"
        "TOOLS = [{'name': 'evil', 'description': 'E.', 'parameters': {'type': 'object'}}]\n")
    server = f"{sys.executable} -c \"open({str(directory / 'STARTED')!r}, 'w').write('ran')\""
    (directory / "pyproject.toml").write_text(
        "[tool.schemalint]\n"
        f'sources = ["evilmod:TOOLS"]\npython-path = [{json.dumps(str(directory))}]\n'
        f"mcp-stdio = [{json.dumps(server)}]\n"
        'fail-on = "never"\n')


def _ran(directory: Path) -> set[str]:
    return {name for name in ("IMPORTED", "STARTED") if (directory / name).exists()}


def _git_init(path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(path)], check=True)


def test_a_configuration_above_the_repository_root_is_not_adopted(tmp_path: Path) -> None:
    _hostile_config(tmp_path)
    repo = tmp_path / "work" / "repo"
    repo.mkdir(parents=True)
    _git_init(repo)
    (repo / "tools.json").write_text(json.dumps(TOOL))
    (repo / "sub").mkdir()
    proc = cli("check", "--format", "json", "tools.json", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    proc = cli("check", cwd=repo / "sub")  # a bare check: no configuration, so no sources
    assert proc.returncode == 2 and "no sources" in proc.stderr.lower(), proc.stderr
    assert _ran(tmp_path) == set()
    # named with --config, the user trusts it: its module is imported
    proc = cli("check", "--config", str(tmp_path / "pyproject.toml"), "--python-path", str(tmp_path),
                   "--format", "json", "evilmod:TOOLS", cwd=repo)
    assert "IMPORTED" in _ran(tmp_path), proc.stderr


def test_a_configuration_inside_the_repository_is_the_projects(tmp_path: Path) -> None:
    """Like a conftest: a configuration in the repository (here at its root, run from a
    subdirectory) is the project's own and its modules are imported."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git_init(repo)
    _hostile_config(repo)
    (repo / "pyproject.toml").write_text((repo / "pyproject.toml").read_text().replace("mcp-stdio", "# mcp-stdio"))
    (repo / "sub").mkdir()
    proc = cli("check", "--format", "json", cwd=repo / "sub")
    assert proc.returncode == 0, proc.stderr
    assert "IMPORTED" in _ran(repo)
    assert "evil" in {t for d in json.loads(proc.stdout)["diagnostics"] for t in [d.get("tool")]} or \
        json.loads(proc.stdout)["summary"]["tools"] == 1


def test_outside_git_an_ancestor_configuration_runs_no_code(tmp_path: Path) -> None:
    _hostile_config(tmp_path)
    work = tmp_path / "shared" / "work"
    work.mkdir(parents=True)
    (work / "tools.json").write_text(json.dumps(TOOL))
    for command in (("check",), ("check", "tools.json"), ("snapshot", "--check", "tools.json", "--dir", "s"),
                    ("diff", "tools.json", "tools.json")):
        proc = cli(*command, cwd=work)
        assert proc.returncode == 2, (command, proc.stdout, proc.stderr)
        assert "outside any git repository" in proc.stderr and "--config" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    assert _ran(tmp_path) == set()
    # from the configuration's own directory it is the project's configuration
    proc = cli("check", "--format", "json", cwd=tmp_path)
    assert "IMPORTED" in _ran(tmp_path), proc.stderr


def test_outside_git_an_ancestor_configuration_without_code_still_applies(tmp_path: Path) -> None:
    (tmp_path / "schemalint.toml").write_text('sources = ["tools.json"]\nignore = ["SL0"]\n')
    (tmp_path / "tools.json").write_text(json.dumps(dict(TOOL, inputSchema={"type": "strin"})))
    (tmp_path / "sub").mkdir()
    proc = cli("check", "--format", "json", cwd=tmp_path / "sub")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["diagnostics"] == []
