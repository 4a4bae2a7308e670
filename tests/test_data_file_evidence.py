"""Data files of a web front end shaped like tools need more evidence than their shape
(schemalint/loaders/files/evidence.py, docs/shape-rules.md "Data files of a web front end").

Real shapes: the leaderboard-like file is built from the fake MCP server of gemini-cli in
../shared/repos (a server record with its tools, as a page would hold it); the measurement that
no tool file of ../shared/repos or the corpus is held back walks every data file in a web
front end's folder there and loads it as ``check`` does.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from schemalint.loaders.files.documents import TOOL_FILE_SUFFIXES, read_document
from schemalint.loaders.files.evidence import held_back, tool_file_by_name, ui_folder
from schemalint.loaders.formats.json_tools import load_document_tools
from tests.conftest import CORPUS, REPOS, cli, cli_json, needs_repos, needs_shared

# A page's record of MCP servers and their tools, with faults a tool file would be reported for
# (an empty description, a schema without type): the shape of a leaderboard's data.
LEADERBOARD: list[dict[str, Any]] = [
    {"server": "files", "rank": 1, "score": 0.71, "stars": 1200,
     "tools": [{"name": "read_file", "description": "",
                "inputSchema": {"properties": {"path": {"type": "string"}}}},
               {"name": "write_file", "description": "Write a file.",
                "inputSchema": {"type": "object", "properties": {"path": {}, "text": {"type": "string"}}}}]},
    {"server": "search", "rank": 2, "score": 0.64, "stars": 310,
     "tools": [{"name": "search", "description": "", "inputSchema": {"properties": {"q": {}}}}]},
]

REAL_TOOL = {"tools": [{"name": "get_weather", "description": "Current weather for a city.",
                        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}},
                                        "required": ["city"]}}]}


def _project(tmp_path: Path) -> Path:
    (tmp_path / "web" / "src" / "data").mkdir(parents=True)
    (tmp_path / "web" / "src" / "data" / "tools-data.json").write_text(json.dumps(LEADERBOARD, indent=2))
    (tmp_path / "tools.json").write_text(json.dumps(REAL_TOOL, indent=2))
    return tmp_path


def test_leaderboard_data_under_web_is_held_back_with_a_note(tmp_path: Path) -> None:
    project = _project(tmp_path)
    code, report = cli_json("check", ".", cwd=project)
    assert code == 0, report["diagnostics"]
    assert report["summary"]["tools"] == 1  # tools.json at the root is still checked
    assert not [d for d in report["diagnostics"] if "tools-data.json" in d["file"]]
    notes = " ".join(report["summary"].get("notes", []))
    assert "3 tool-shaped object(s) in 1 data file(s) of a web front end were not checked" in notes, notes
    assert "web/src/data/tools-data.json" in notes and "under web/" in notes
    # the text report says it too
    text = cli("check", ".", cwd=project)
    assert text.returncode == 0 and "were not checked" in text.stdout + text.stderr


def test_named_file_or_configured_source_is_checked(tmp_path: Path) -> None:
    project = _project(tmp_path)
    code, report = cli_json("check", "web/src/data/tools-data.json", cwd=project)
    assert code == 1 and report["summary"]["tools"] == 3
    (project / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools.json", '
                                            '"web/src/data/tools-data.json"]\n')
    code, report = cli_json("check", cwd=project)
    assert code == 1 and report["summary"]["tools"] == 4


@pytest.mark.parametrize("name, content", [
    ("mcp.json", LEADERBOARD),                                      # name says it holds tools
    ("tools/servers.json", LEADERBOARD),                           # a tools/ folder
    ("request.json", {"model": "gpt-4.1", "tools": [               # a request envelope
        {"type": "function", "name": "f", "parameters": {"properties": {"a": {}}}}]}),
    ("answer.json", {"jsonrpc": "2.0", "id": 1, "result": LEADERBOARD[0]}),  # a tools/list answer
    ("declared.json", {"$schema": "https://example.org/mcp-tools.schema.json", "tools": LEADERBOARD[0]["tools"]}),
])
def test_evidence_beyond_shape_keeps_a_file_in_a_web_folder_checked(tmp_path: Path, name: str,
                                                                     content: Any) -> None:
    target = tmp_path / "public" / name
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(content))
    _code, report = cli_json("check", ".", cwd=tmp_path)
    assert report["summary"]["tools"] >= 1, (name, report)
    assert "not checked" not in " ".join(report["summary"].get("notes", []))


def test_outside_web_folders_a_shape_is_enough(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "tools-data.json").write_text(json.dumps(LEADERBOARD))
    code, report = cli_json("check", ".", cwd=tmp_path)
    assert code == 1 and report["summary"]["tools"] == 3


def test_streamed_json_lines_in_a_web_folder_are_held_back_too(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from schemalint.engine import pipeline

    (tmp_path / "static").mkdir()
    lines = "\n".join(json.dumps(t) for s in LEADERBOARD for t in s["tools"]) + "\n"
    (tmp_path / "static" / "catalog.jsonl").write_text(lines * 400)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "JSONL_STREAM_BYTES", 1000)  # streamed in batches, as a large file is
    monkeypatch.setattr(pipeline, "BATCH_LINES", 100)
    assert pipeline.streams_lines("static/catalog.jsonl")
    groups = list(pipeline.iter_groups("static/catalog.jsonl", False, {}))
    assert len(groups) == 12
    assert all(g.tools == [] and g.held is not None for g in groups)
    assert sum(g.held[1] for g in groups if g.held) == 1200
    named = list(pipeline.iter_groups("static/catalog.jsonl", True, {}))
    assert sum(len(g.tools) for g in named) == 1200


def test_folders_judged_as_written_not_above_the_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert ui_folder("web/src/data/x.json") == "web"
    assert ui_folder("../www/x.json") == "www"
    assert ui_folder("src/x.json") is None
    assert ui_folder("web.json") is None
    # an absolute path outside the working directory: only below its repository root
    repo = tmp_path / "var" / "www" / "project"
    (repo / ".git").mkdir(parents=True)
    (repo / "data").mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert ui_folder(str(repo / "data" / "x.json")) is None
    assert ui_folder(str(repo / "frontend" / "x.json")) == "frontend"
    assert tool_file_by_name("web/tools/a.json") and tool_file_by_name("web/x.tools.json")
    assert not tool_file_by_name("web/tools-data.json")


@needs_repos
def test_real_fake_server_shape_held_only_under_a_web_folder(tmp_path: Path) -> None:
    """gemini-cli's fake MCP server (56 tools) stays a tool file under assets/test-servers/, and the
    same bytes in a site's public/ folder are a page's data."""
    source = REPOS / "google-gemini__gemini-cli/packages/test-utils/assets/test-servers/google-workspace.json"
    if not source.is_file():
        pytest.skip(f"{source} is not in this copy of ../shared/repos")
    for folder, _expected in (("assets/test-servers", 56), ("site/public/data", 0)):
        target = tmp_path / folder / "google-workspace.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    _code, report = cli_json("check", ".", "--select", "SL001", cwd=tmp_path)
    assert report["summary"]["tools"] == 56
    assert "56 tool-shaped object(s) in 1 data file(s)" in " ".join(report["summary"]["notes"])


def _held_in(root: Path) -> tuple[int, int, list[str]]:
    """(files in a web folder, tools in them, files held back) under ``root``, as ``check`` judges
    them with paths relative to ``root``."""
    files = tools = 0
    held: list[str] = []
    here = os.getcwd()
    os.chdir(root)
    try:
        for dirpath, dirnames, filenames in os.walk("."):
            dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules")]
            for filename in filenames:
                path = os.path.join(dirpath, filename)[2:]
                if not filename.lower().endswith(TOOL_FILE_SUFFIXES) or ui_folder(path) is None:
                    continue
                files += 1
                doc = read_document(path)
                found = load_document_tools(doc)
                tools += len(found)
                if held_back(path, False, doc.values, found) is not None:
                    held.append(path)
    finally:
        os.chdir(here)
    return files, tools, held


@needs_repos
def test_no_tool_file_of_the_real_repositories_is_held_back() -> None:
    looked = 0
    for repo in sorted(p for p in REPOS.iterdir() if p.is_dir()):
        files, _tools, held = _held_in(repo)
        looked += files
        assert held == [], (repo.name, held)
    assert looked > 20  # the sets do hold data files in web folders (front ends of the samples: 33)


@needs_shared
def test_no_tool_file_of_the_corpus_is_held_back() -> None:
    _files, _tools, held = _held_in(CORPUS)
    assert held == []


# -- the same rule in every command: diff (both sides, --base, REV:PATH) and snapshot --------------

def _changed(project: Path) -> None:
    """Both files of :func:`_project` changed: the page's data and the real tool."""
    board = json.loads(json.dumps(LEADERBOARD))
    board[0]["tools"][0]["inputSchema"]["properties"]["path"]["type"] = "integer"
    (project / "web" / "src" / "data" / "tools-data.json").write_text(json.dumps(board, indent=2))
    real = json.loads(json.dumps(REAL_TOOL))
    real["tools"][0]["inputSchema"]["properties"]["city"]["type"] = "integer"
    (project / "tools.json").write_text(json.dumps(real, indent=2))


def _git(project: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", *args], cwd=project, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"})


def _diff_tools(report: dict[str, Any]) -> set[str]:
    return {c["tool"] for c in report["changes"]}


def test_diff_of_two_folders_holds_back_web_data_as_check_does(tmp_path: Path) -> None:
    _project(tmp_path / "old")
    new = _project(tmp_path / "new")
    _changed(new)
    proc = cli("diff", "old", "new", "--format", "json", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert _diff_tools(report) == {"get_weather"}, report["changes"]
    assert "3 tool-shaped object(s) in 1 data file(s) of a web front end were not checked" in proc.stderr
    # named, the file is read as check reads a named file
    proc = cli("diff", "old/web/src/data/tools-data.json", "new/web/src/data/tools-data.json", "--format",
                   "json", cwd=tmp_path)
    assert _diff_tools(json.loads(proc.stdout)) == {"read_file"}


def test_diff_base_and_rev_path_hold_back_web_data_on_both_sides(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(project, "commit", "-q", "-m", "one")
    _changed(project)
    proc = cli("diff", "--base", "HEAD", ".", "--format", "json", cwd=project)
    assert _diff_tools(json.loads(proc.stdout)) == {"get_weather"}, proc.stdout + proc.stderr
    proc = cli("diff", "HEAD:./", ".", "--format", "json", cwd=project)
    assert _diff_tools(json.loads(proc.stdout)) == {"get_weather"}, proc.stdout + proc.stderr
    assert "(HEAD:./web/src/data/tools-data.json, under web/)" in proc.stderr, proc.stderr
    assert "(web/src/data/tools-data.json, under web/)" in proc.stderr


def test_snapshot_holds_back_web_data_as_check_does(tmp_path: Path) -> None:
    project = _project(tmp_path)
    proc = cli("snapshot", ".", "--dir", "approved", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (project / "approved").glob("*.json")) == ["get_weather.json"]
    assert "were not checked" in proc.stderr
    proc = cli("snapshot", "--check", ".", "--dir", "approved", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
