"""Trial findings of issue 15 on a FastMCP server project, with real parts: a real FastMCP
server module run with ``python -m`` over stdio, real git repositories and the real pre-commit
running ``repo: local`` hooks with ``language: system`` (docs/ci.md, "Python modules and MCP
servers: a local hook")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import cli
from tests.test_diff_precommit import PRE_COMMIT, git, init_repo

pytest.importorskip("mcp", reason="needs the mcp SDK (schemalint[mcp])")
pytestmark = pytest.mark.skipif(
    PRE_COMMIT is None or shutil.which("git") is None, reason="needs pre-commit (test extra) and git"
)

SERVER = '''\
try:
    from mcp.server.mcpserver import MCPServer as FastMCP  # mcp 2.x
except ImportError:
    from mcp.server.fastmcp import FastMCP  # mcp 1.x

mcp = FastMCP("demo")


@mcp.tool()
def ping(host: str) -> str:
    """Ping a host."""
    return host


def main() -> None:
    mcp.run()


if __name__ == "__main__":
    main()
'''

LATE = SERVER.replace('@mcp.tool()\ndef ping', 'def _ping').replace(
    "def main() -> None:\n", "def main() -> None:\n    mcp.tool()(_ping)\n")

LOCAL_HOOKS = """\
repos:
  - repo: local
    hooks:
      - id: schemalint-snapshot
        name: schemalint snapshot --check
        entry: schemalint snapshot --check
        language: system
        pass_filenames: false
        always_run: true
      - id: schemalint-diff
        name: schemalint diff --base HEAD
        entry: schemalint diff --base HEAD --fail-on breaking
        language: system
        files: '(?i)\\.(json|py)$'
        pass_filenames: false
"""

CONFIG = '[tool.schemalint]\nmcp-stdio = ["python -m pkg.server"]\nsnapshot-dir = "tool-snapshots"\n'


def _env(**extra: str) -> dict[str, str]:
    """This interpreter's bin first on PATH: `python` has mcp and `schemalint` is installed there."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "PRE_COMMIT_COLOR": "never", **extra}
    env.pop("VIRTUAL_ENV", None)
    return env


def _schemalint(project: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return cli(*args, cwd=project, env=_env(**env), timeout=300)


def _project(tmp_path: Path, server: str = SERVER, config: str = CONFIG) -> Path:
    project = init_repo(tmp_path / "project")
    (project / "pkg").mkdir()
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "server.py").write_text(server)
    (project / "pyproject.toml").write_text(config)
    return project


def _commit(project: Path, message: str, home: Path) -> subprocess.CompletedProcess[str]:
    git(project, "add", "-A")
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=project, capture_output=True, text=True,
                          env=_env(PRE_COMMIT_HOME=str(home)), timeout=900)


def test_local_system_hooks_block_a_new_required_parameter(tmp_path: Path) -> None:
    assert PRE_COMMIT is not None
    project = _project(tmp_path)
    (project / ".pre-commit-config.yaml").write_text(LOCAL_HOOKS)
    wrote = _schemalint(project, "snapshot")
    assert wrote.returncode == 0, wrote.stderr
    assert (project / "tool-snapshots" / "ping.json").is_file()
    home = tmp_path / "pc-home"
    installed = subprocess.run([PRE_COMMIT, "install"], cwd=project, capture_output=True, text=True,
                               env=_env(PRE_COMMIT_HOME=str(home)))
    assert installed.returncode == 0, installed.stderr
    first = _commit(project, "server and snapshots", home)
    assert first.returncode == 0, first.stdout + first.stderr

    # a comment-only change: nothing the model sees changes; diff has only servers: it passes
    server = project / "pkg" / "server.py"
    server.write_text(server.read_text().replace("def main", "# started by `python -m pkg.server`\ndef main"))
    comment = _commit(project, "a comment", home)
    said = comment.stdout + comment.stderr
    assert comment.returncode == 0, said
    assert "covered by `schemalint snapshot --check`" in said or "Passed" in said

    # a new required parameter is blocked by snapshot --check, with the snapshot's diff
    server.write_text(server.read_text().replace("def ping(host: str)", "def ping(host: str, count: int)"))
    blocked = _commit(project, "count is now required", home)
    said = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0, said
    assert "tool-snapshots/ping.json: stale" in said and '"count"' in said
    assert git(project, "log", "--format=%s").split("\n")[0] == "a comment"


def test_diff_with_only_servers_configured_passes_with_one_line(tmp_path: Path) -> None:
    project = _project(tmp_path)
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "one")
    proc = _schemalint(project, "diff", "--base", "HEAD", "--fail-on", "breaking")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1
    assert "compares files and Python modules" in proc.stdout and "schemalint-snapshot" in proc.stdout
    # with nothing configured at all it is still an error
    (project / "pyproject.toml").write_text("[tool.schemalint]\n")
    bare = _schemalint(project, "diff", "--base", "HEAD")
    assert bare.returncode == 2 and "no sources given" in bare.stderr


def test_check_reads_around_a_source_that_is_the_snapshot_dir(tmp_path: Path) -> None:
    project = _project(tmp_path, config=CONFIG + 'sources = ["tool-snapshots/"]\n')
    wrote = _schemalint(project, "snapshot", "--mcp-stdio", "python -m pkg.server")
    assert wrote.returncode == 0, wrote.stderr
    ok = _schemalint(project, "snapshot", "--check")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "1 snapshot(s) up to date" in ok.stdout  # ping once: the snapshots were not read as tools
    assert ": left out: it is inside the snapshot directory" in ok.stderr
    # a writing run still refuses, and never suggests the refused directory itself
    refused = _schemalint(project, "snapshot")
    assert refused.returncode == 2
    assert "holds the source tool-snapshots" in refused.stderr
    assert "--dir tool-snapshots)" not in refused.stderr and "e.g. --dir snapshots" in refused.stderr


def test_snapshot_warns_when_git_ignores_what_it_wrote(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / ".gitignore").write_text("build/\n*.json\n")
    proc = _schemalint(project, "snapshot")
    assert proc.returncode == 0, proc.stderr
    assert "1 of the 1 snapshot(s) in" in proc.stderr and ".gitignore:2: *.json" in proc.stderr
    git(project, "add", "-A")
    assert "ping.json" not in git(project, "diff", "--cached", "--name-only")  # what the warning is about
    (project / ".gitignore").write_text("build/\n")
    again = _schemalint(project, "snapshot")
    assert again.returncode == 0 and "ignored by git" not in again.stderr


def test_stdio_findings_point_at_the_module_file(tmp_path: Path) -> None:
    bad = SERVER.replace('"""Ping a host."""\n', "")  # no description: a finding on the tool
    project = _project(tmp_path, server=bad)
    proc = _schemalint(project, "check", "--format", "json")
    import json

    found = json.loads(proc.stdout)
    diags = found["diagnostics"] if isinstance(found, dict) else found
    assert diags, proc.stdout
    paths = {d.get("path") or d["file"] for d in diags}
    assert paths == {"pkg/server.py"}, paths
    line = bad.splitlines().index("def ping(host: str) -> str:") + 1
    assert {d["line"] for d in diags if d.get("tool") == "ping"} == {line}


def test_server_registering_tools_in_main_names_mcp_stdio(tmp_path: Path) -> None:
    project = _project(tmp_path, server=LATE)
    proc = _schemalint(project, "check", "pkg.server:mcp")
    assert proc.returncode == 2
    assert "answered 0 tools at import" in proc.stderr and "--mcp-stdio 'python -m pkg.server'" in proc.stderr
    assert "not a tool source schemalint knows" not in proc.stderr


def test_mcp_installed_but_wrong_api_shows_the_import_error(tmp_path: Path) -> None:
    project = _project(tmp_path, server="from mcp.server import no_such_name_zz  # noqa\n")
    (project / "pkg" / "old.py").write_text("import mcp.no_such_module_zz\n")
    proc = _schemalint(project, "check", "pkg.old:mcp")
    assert proc.returncode == 2
    assert "No module named 'mcp.no_such_module_zz'" in proc.stderr
    assert "pip install 'schemalint[mcp]'" not in proc.stderr


def test_inside_pre_commit_the_hint_is_the_local_hook(tmp_path: Path) -> None:
    project = _project(tmp_path)
    proc = _schemalint(project, "check", "no_such_project_zz.server:mcp", PRE_COMMIT="1")
    assert proc.returncode == 2
    assert "`repo: local` hook with `language: system`" in proc.stderr
    outside = _schemalint(project, "check", "no_such_project_zz.server:mcp")
    assert "language: system" not in outside.stderr
