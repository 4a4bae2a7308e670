"""Every command line the README documents runs as written in a checkout of this repository
(issue 32), and the command lines of docs/ pages whose files exist in it: in a committed copy of
the working tree with an `origin/main` ref (what a clone has), with the virtual environment's
`bin` first on PATH (an activated environment, as the README's note says). A documented command
may report findings (exit 1: the examples hold faults on purpose) but never exit 2 (a usage
error, a missing file, two tools of one name) or print a traceback.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import NODE_MISSING, ROOT, cli

pytestmark = pytest.mark.xdist_group("documented-commands")

OUTPUTS = {"--write-baseline", "--summary-out", "--dir", ">", "--summaries", "-o", "--output"}
"""Options whose value is a file the command writes (need not exist before)."""
NOT_PATHS = {"--base", "--mcp-url", "--target", "-t", "--format", "-f", "--select", "--ignore", "--fail-on"}


def documented_lines(page: Path) -> list[str]:
    """The ``schemalint ...`` lines of the sh/bash/console blocks of ``page``."""
    lines = []
    for block in re.findall(r"```(?:sh|bash|console|shell)\n(.*?)```", page.read_text(), re.S):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line.startswith("schemalint "):
                lines.append(line)
    return lines


def _missing_paths(line: str, cwd: Path) -> list[str]:
    words = shlex.split(line, comments=True)
    missing = []
    for before, phrase in zip(["", *words], words, strict=False):
        for word in (phrase.split() if before == "--mcp-stdio" else [phrase]):
            if word.startswith(("-", "http:", "https:")) or before in OUTPUTS | NOT_PATHS or word in ("|", ">"):
                continue
            path = word.split(":", 1)[0] if ":" in word and not word.startswith("http") else word
            if ("/" in path or re.search(r"\.(json|jsonl|ya?ml|snap|ts|py)$", path)) and not (cwd / path).exists():
                missing.append(path)
    return missing


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed copy of the working tree with ``origin/main`` at its commit."""
    dest = tmp_path_factory.mktemp("docs") / "schemalint"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file() and not rel.startswith(".venv/"):
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    for folder in ("examples/typescript", "examples/typescript/zod-fixed"):  # npm packages: git-ignored
        modules = ROOT / folder / "node_modules"
        if modules.is_dir() and (dest / folder).is_dir():
            (dest / folder / "node_modules").symlink_to(modules.resolve())
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "docs"],
                 ["update-ref", "refs/remotes/origin/main", "HEAD"]):
        subprocess.run(["git", *args], cwd=dest, env=env, check=True, capture_output=True)
    return dest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def http_port(checkout: Path) -> Iterator[int]:
    """The example MCP server over Streamable HTTP, as the README's comment starts it."""
    pytest.importorskip("mcp")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "examples/mcp_server/server.py", "--http", str(port)], cwd=checkout,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # until the server accepts (it imports the mcp SDK: many seconds on a loaded machine); one
        # that never does fails here, not as a refused connection in the documented command
        deadline = time.monotonic() + 180
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, f"the example server exited with {server.returncode}"
            assert time.monotonic() < deadline, "the example server did not accept connections within 180 s"
            time.sleep(0.2)
        yield port
    finally:
        server.kill()
        server.wait()


def _run(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "NO_COLOR": "1"}
    env.pop("SCHEMALINT_SHARED", None)
    return subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL,
                          env=env, timeout=600)


README_LINES = documented_lines(ROOT / "README.md")


@pytest.mark.parametrize("line", README_LINES, ids=[re.sub(r"\s+#.*", "", x)[:60] for x in README_LINES])
def test_readme_usage_line_runs_here(line: str, checkout: Path, request: pytest.FixtureRequest) -> None:
    if ".ts:" in line and NODE_MISSING:
        pytest.skip(NODE_MISSING)
    if "--mcp-stdio" in line or "--mcp-url" in line:
        pytest.importorskip("mcp")
    if "--mcp-url" in line:
        line = line.replace(":8000/", f":{request.getfixturevalue('http_port')}/")
    assert not _missing_paths(line, checkout), "a README line names a file this repository does not have"
    proc = _run(line, checkout)
    assert proc.returncode in (0, 1), f"{line}\nexit {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr and "error:" not in proc.stderr, proc.stderr
    # a server (`schemalint server`, `schemalint mcp`) speaks only when a client talks to it: here its
    # input is closed at once, so it must end cleanly (tests/test_editor_*.py drive them with clients)
    serves = shlex.split(line)[1] in ("server", "mcp")
    assert proc.stdout.strip() or "snapshot" in line or serves, "the command printed nothing"


def test_the_readme_documents_the_commands() -> None:
    commands = {shlex.split(x)[1] for x in README_LINES}
    assert {"check", "show", "probe", "diff", "replay", "snapshot", "rules"} <= commands


DOC_LINES = [(page.relative_to(ROOT).as_posix(), line) for page in sorted((ROOT / "docs").glob("*.md"))
             for line in documented_lines(page)]


@pytest.mark.parametrize(("page", "line"), DOC_LINES, ids=[f"{p}:{x[:50]}" for p, x in DOC_LINES])
def test_docs_command_line_runs_where_its_files_exist(page: str, line: str, checkout: Path) -> None:
    missing = _missing_paths(line, checkout)
    if missing:
        pytest.skip(f"{page}: illustrates a user's files ({', '.join(missing)}), which this repository has not")
    proc = _run(line, checkout)
    assert proc.returncode in (0, 1), f"{page}: {line}\nexit {proc.returncode}\n{proc.stderr[-3000:]}"
    assert "Traceback" not in proc.stderr, proc.stderr


def test_a_bare_python_server_command_names_the_interpreter_that_ran(checkout: Path, tmp_path: Path) -> None:
    """`--mcp-stdio "python server.py"` when PATH's python is not schemalint's (a virtual
    environment installed but not activated): the message says which ran and what to write."""
    pytest.importorskip("mcp")
    other = tmp_path / "bin"
    other.mkdir()
    # another interpreter first on PATH: one without the mcp SDK, as a system Python is
    (other / "python").write_text("#!/bin/sh\nexec /usr/bin/env -i PATH=/usr/bin:/bin python3 -I -S \"$@\"\n")
    (other / "python").chmod(0o755)
    env = {**os.environ, "PATH": f"{other}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    proc = subprocess.run([sys.executable, "-m", "schemalint", "check", "--mcp-stdio",
                           "python examples/mcp_server/server.py"], cwd=checkout, capture_output=True, text=True,
                          env=env, timeout=300)
    assert proc.returncode == 2
    assert f"`python` ran {other / 'python'} (the first on PATH)" in proc.stderr, proc.stderr
    assert f"write --mcp-stdio '{sys.executable} examples/mcp_server/server.py'" in proc.stderr
    fixed = subprocess.run([sys.executable, "-m", "schemalint", "check", "--mcp-stdio",
                            f"{sys.executable} examples/mcp_server/server.py"], cwd=checkout, capture_output=True,
                           text=True, env=env, timeout=300)
    assert fixed.returncode in (0, 1) and "3 tool(s)" in fixed.stdout, fixed.stderr  # the line it suggests works


@pytest.mark.parametrize("command", ["check", "diff", "probe", "replay", "show", "snapshot", "rules", "rule"])
def test_help_prints_examples_verbatim_at_any_width(command: str) -> None:
    """Every indented example line of a command's docstring is one line of its --help, even on a
    40-column terminal (click re-wrapped them mid-quote, so a copied example broke)."""
    import importlib
    import inspect

    from schemalint.cli import COMMANDS

    module, _, func = COMMANDS[command].partition(":")
    doc = inspect.cleandoc(getattr(importlib.import_module(module), func).__doc__ or "")
    examples = [line.strip() for line in doc.splitlines() if line.startswith("  schemalint ")]
    # click reads COLUMNS when it formats the help, so the in-process runner gives what a process
    # started with it prints (probe still runs in a process: conftest.NEEDS_A_PROCESS)
    env = {**os.environ, "COLUMNS": "40", "TERM": "dumb"}
    proc = cli(command, "--help", env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "[OPTIONS]" not in proc.stdout.splitlines()[0], "the help was not formatted for 40 columns"
    shown = {line.strip() for line in proc.stdout.splitlines()}
    for example in examples:
        assert example in shown, f"{command} --help re-wrapped: {example}"
    if command in ("check", "diff", "probe", "snapshot"):
        assert examples, f"{command}: no examples in its help"


@pytest.mark.parametrize("command", ["check", "diff", "probe", "replay", "snapshot"])
def test_help_states_the_exit_codes(command: str) -> None:
    """Every command that decides an exit status by what it found says its codes in --help (0, 1,
    and 2 for a usage or input error), and check shows --fix and --diff among its examples."""
    text = " ".join(cli(command, "--help").stdout.split())
    said = text.partition("Exit codes:")[2]
    assert said, f"{command} --help: no exit codes"
    assert all(f"{code} " in said[:400] for code in ("0", "1", "2")), said[:400]
    if command == "check":
        examples = [line.strip() for line in cli(command, "--help").stdout.splitlines()
                    if line.strip().startswith("schemalint check")]
        assert any(" --fix" in e for e in examples) and any(" --diff" in e for e in examples), examples
        assert "--unsafe-fixes" in " ".join(examples)
