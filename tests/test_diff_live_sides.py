"""A diff whose sides are read differently (a snapshot directory, a live MCP server, a Python
``module:attr``, a TypeScript module, ``--base`` in a real git repository) compares one
rendering: an edited description or a new optional property is SD301 / SD202, never a spurious
SD212 for the input schema, and every pointer is relative to the rendered definition
(``/inputSchema/...`` for MCP tools, as in a JSON tool file)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, TS_EXAMPLE, needs_node, run_cli

SERVER = ROOT / "examples" / "mcp_server" / "server.py"
OLD_DOC = '"""Add the numbers `a` and `b`."""'
NEW_DOC = '"""Add the two numbers `a` and `b`; `c` is added too."""'


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True).stdout


def edit_server(path: Path) -> None:
    """Edit the description of `add` and give it a new optional parameter `c`."""
    text = path.read_text(encoding="utf-8")
    assert OLD_DOC in text and "def add(a: float, b: float)" in text
    text = text.replace(OLD_DOC, NEW_DOC)
    text = text.replace("def add(a: float, b: float)", "def add(a: float, b: float, c: float = 0)")
    path.write_text(text, encoding="utf-8")


def diff_json(*args: str, cwd: Path | None = None) -> dict[str, Any]:
    proc = run_cli("diff", *args, "--format", "json", "--fail-on", "never", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def add_changes(report: dict[str, Any]) -> list[tuple[str, str]]:
    tools = {t["tool"]: t for t in report["tools"]}
    assert tools["add"]["status"] == "changed", tools["add"]
    assert all(t["status"] == "identical" for name, t in tools.items() if name != "add"), tools
    return sorted((c["code"], c["pointer"]) for c in tools["add"]["changes"])


EXPECTED = [("SD202", "/inputSchema/properties/c"), ("SD301", "/description")]


def test_snapshot_against_live_stdio_server(tmp_path: Path) -> None:
    server = tmp_path / "server.py"
    shutil.copy(SERVER, server)
    command = f'"{sys.executable}" "{server}"'
    snaps = tmp_path / "snaps"
    proc = run_cli("snapshot", "--dir", str(snaps), "--mcp-stdio", command)
    assert proc.returncode == 0, proc.stderr
    unchanged = diff_json(str(snaps), "--mcp-stdio", command)
    assert {t["status"] for t in unchanged["tools"]} == {"identical"}
    edit_server(server)
    assert add_changes(diff_json(str(snaps), "--mcp-stdio", command)) == EXPECTED
    # the other way round (the server's listing as OLD is not possible; a snapshot of it is)
    snaps2 = tmp_path / "snaps2"
    assert run_cli("snapshot", "--dir", str(snaps2), "--mcp-stdio", command).returncode == 0
    report = diff_json(str(snaps), str(snaps2))
    assert add_changes(report) == EXPECTED


def test_snapshot_against_python_module_source(tmp_path: Path) -> None:
    shutil.copy(SERVER, tmp_path / "server.py")
    snaps = tmp_path / "snaps"
    proc = run_cli("snapshot", "server:mcp", "--python-path", str(tmp_path), "--dir", str(snaps))
    assert proc.returncode == 0, proc.stderr
    edit_server(tmp_path / "server.py")
    report = diff_json(str(snaps), "server:mcp", "--python-path", str(tmp_path))
    assert add_changes(report) == EXPECTED
    # and the module as OLD, the snapshots as NEW: the pointers are the same
    snaps2 = tmp_path / "snaps2"
    assert run_cli("snapshot", "server:mcp", "--python-path", str(tmp_path), "--dir", str(snaps2)).returncode == 0
    shutil.copy(SERVER, tmp_path / "server.py")
    report = diff_json("server:mcp", str(snaps2), "--python-path", str(tmp_path))
    assert add_changes(report) == EXPECTED


def test_base_head_python_module_in_git_repo(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    shutil.copy(SERVER, root / "server.py")
    (root / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["server:mcp"]\npython-path = ["."]\n')
    git(root, "add", "-A")
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "v1")
    edit_server(root / "server.py")
    report = diff_json("--base", "HEAD", cwd=root)
    assert add_changes(report) == EXPECTED


def test_pydantic_source_pointers_are_relative_to_the_rendering(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(
        "from pydantic import BaseModel\n\n\nclass Search(BaseModel):\n"
        '    """Search the notes."""\n\n    query: str\n')
    snaps = tmp_path / "snaps"
    proc = run_cli("snapshot", "models:Search", "--python-path", str(tmp_path), "--dir", str(snaps))
    assert proc.returncode == 0, proc.stderr
    rendered = json.loads((snaps / "Search.json").read_text())
    assert "parameters" in rendered
    (tmp_path / "models.py").write_text(
        "from pydantic import BaseModel\n\n\nclass Search(BaseModel):\n"
        '    """Search the notes by text."""\n\n    query: str\n    limit: int = 10\n')
    report = diff_json(str(snaps), "models:Search", "--python-path", str(tmp_path))
    changes = sorted((c["code"], c["pointer"]) for c in report["tools"][0]["changes"])
    # pydantic puts the docstring into the schema as well: both descriptions changed
    assert changes == [("SD202", "/parameters/properties/limit"), ("SD301", "/description"),
                       ("SD301", "/parameters/description")]


@needs_node
def test_base_head_typescript_mcp_server(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    (root / ".gitignore").write_text("node_modules\n")
    shutil.copy(TS_EXAMPLE / "package.json", root / "package.json")
    source = root / "mcp-server.ts"
    shutil.copy(TS_EXAMPLE / "src" / "mcp-server.ts", source)
    (root / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["mcp-server.ts:server"]\n')
    git(root, "add", "-A")
    git(root, "-c", "commit.gpgsign=false", "commit", "-q", "-m", "v1")
    text = source.read_text(encoding="utf-8")
    old = 'description: "List the reports the user can open.",'
    assert old in text
    text = text.replace(old, 'description: "List the reports the user may open.",')
    text = text.replace("limit: z.number().int().default(20) }",
                        'limit: z.number().int().default(20), lang: z.string().optional() }')
    source.write_text(text, encoding="utf-8")
    report = diff_json("--base", "HEAD", cwd=root)
    tools = {t["tool"]: t for t in report["tools"]}
    assert tools["render_report"]["status"] == "identical"
    changes = sorted((c["code"], c["pointer"]) for c in tools["list_reports"]["changes"])
    assert changes == [("SD202", "/inputSchema/properties/lang"), ("SD301", "/description")]


@pytest.mark.parametrize("value", [None, "x"])
def test_rendered_schema_path_of_every_shape(value: Any) -> None:
    from schemalint.diff.render import rendered_fields_at, rendered_schema_path
    from schemalint.model import Origin, Tool

    schema = {"type": "object", "properties": {"q": {"type": "string", "default": value}}}
    bare = Tool("t", "d", schema, Origin("m.py", "", "pydantic"))
    assert rendered_schema_path(bare) == "/parameters"
    live = Tool("t", "d", schema, Origin("mcp-url:x", "/tools/t", "mcp-server"),
                raw={"name": "t", "inputSchema": json.loads(json.dumps(schema))})
    assert (rendered_schema_path(live), rendered_fields_at(live)) == ("/inputSchema", "")
    wrapped = Tool("t", "d", schema, Origin("lc", "/tools/t", "langchain"),
                   raw={"type": "function", "function": {"name": "t", "parameters": schema}})
    assert (rendered_schema_path(wrapped), rendered_fields_at(wrapped)) == ("/function/parameters", "/function")
    chat = Tool("t", "d", schema, Origin("f.json", "/0", "openai-chat"), schema_path="/function/parameters",
                raw={"type": "function", "function": {"name": "t", "parameters": schema}})
    assert rendered_schema_path(chat) == "/function/parameters"
