"""The composite action (`action.yml`) and the workflow in docs/ci.md: valid against the GitHub
Actions schemas `check-jsonschema` ships, current action versions, and the commands they run
work on a real git repository (issue 15)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT

CHECK_JSONSCHEMA = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent)) or shutil.which(
    "check-jsonschema")
needs_validator = pytest.mark.skipif(CHECK_JSONSCHEMA is None, reason="needs check-jsonschema (test extra)")

CURRENT = {"actions/checkout": "v6", "actions/setup-python": "v6", "github/codeql-action/upload-sarif": "v4"}
"""Majors that run on Node 24 / are not deprecated in December 2026 (docs/ci.md cites the notices)."""


def _workflow_from_docs() -> str:
    text = (ROOT / "docs/ci.md").read_text()
    start = text.index("```yaml\nname: schemalint\n")
    return text[start + len("```yaml\n"): text.index("```", start + 7)]


@needs_validator
def test_action_metadata_is_valid(tmp_path: Path) -> None:
    proc = subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.github-actions",
                           str(ROOT / "action.yml")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    broken = tmp_path / "action.yml"  # the validator does refuse what GitHub refuses
    broken.write_text((ROOT / "action.yml").read_text().replace("using: composite", "using: compsite"))
    assert subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.github-actions", str(broken)],
                          capture_output=True).returncode == 1


@needs_validator
def test_documented_workflow_is_valid(tmp_path: Path) -> None:
    workflow = tmp_path / "schemalint.yml"
    workflow.write_text(_workflow_from_docs())
    proc = subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.github-workflows", str(workflow)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _uses(text: str) -> list[str]:
    return re.findall(r"uses:\s*([\w./-]+@[\w.]+)", text)


def test_current_action_versions_permissions_and_full_history() -> None:
    workflow = yaml.safe_load(_workflow_from_docs())
    assert workflow["permissions"] == {"contents": "read", "security-events": "write", "actions": "read"}
    steps = workflow["jobs"]["schemalint"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    assert any("diff --base origin/${{ github.base_ref }}" in s.get("run", "") for s in steps)
    for text in (_workflow_from_docs(), (ROOT / "action.yml").read_text()):
        for use in _uses(text):
            name, _, version = use.partition("@")
            if name in CURRENT:
                assert version == CURRENT[name], use


def _bash(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, capture_output=True, text=True, env=env,
                          timeout=600)


def test_the_action_steps_run_on_a_pull_request_checkout(tmp_path: Path) -> None:
    """The `run` scripts of action.yml, executed by bash with the environment the runner gives
    them (inputs as env, GITHUB_OUTPUT), in a clone with a base branch and a breaking change."""
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    steps = {s.get("name"): s for s in action["runs"]["steps"]}
    repo = tmp_path / "repo"
    repo.mkdir()
    genv = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@e"}
    for args in (["init", "-q", "-b", "main"], ["config", "commit.gpgsign", "false"]):
        subprocess.run(["git", *args], cwd=repo, check=True, env=genv)
    (repo / "schemalint.toml").write_text('sources = ["tools.json"]\n')
    tool = '{"name": "search", "description": "Search.", "inputSchema": {"type": "object", ' \
           '"properties": {"q": {"type": "string"}, "n": {"type": "integer"}}, "required": ["q"%s]}}\n'
    (repo / "tools.json").write_text(tool % "")
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=genv)
    subprocess.run(["git", "commit", "-q", "-m", "base"], cwd=repo, check=True, env=genv)
    subprocess.run(["git", "update-ref", "refs/remotes/origin/main", "HEAD"], cwd=repo, check=True, env=genv)
    (repo / "tools.json").write_text(tool % ', "n"')
    out = tmp_path / "github_output"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_OUTPUT": str(out), "GITHUB_ACTION_PATH": str(ROOT), "ARGS": "", "FAIL_ON": "error"}
    env.pop("GITHUB_STEP_SUMMARY", None)
    sarif = _bash(steps["SARIF for code scanning"]["run"], repo, env)
    assert sarif.returncode == 0, sarif.stderr
    assert "file=schemalint.sarif" in out.read_text() and (repo / "schemalint.sarif").read_text().startswith("{")
    diff = _bash(steps["Changes against the base branch"]["run"], repo,
                 {**env, "BASE": "", "BASE_REF": "main", "FAIL_ON": "breaking"})
    assert diff.returncode == 1 and "SD103 required-added" in diff.stdout, diff.stdout + diff.stderr
    check = _bash(steps["Annotate the pull request"]["run"], repo, env)
    assert check.returncode == 0, check.stdout + check.stderr
    assert _bash(steps["Fail on the changes the diff reported"]["run"], repo, env).returncode == 1


def test_action_args_quotes_diff_usage_error_and_sarif_category(tmp_path: Path) -> None:
    """The action's own scripts (issue 32): `args` split as a shell splits them (a quoted
    `--mcp-stdio "python server.py"` is one argument), the final step tells a diff that could not
    run from changes at or above --fail-on, and the SARIF category follows `args` unless given."""
    pytest.importorskip("mcp")
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    steps = {s.get("name"): s for s in action["runs"]["steps"]}
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "mcp_server", repo / "srv")
    out = tmp_path / "github_output"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_OUTPUT": str(out), "GITHUB_ACTION_PATH": str(ROOT), "FAIL_ON": "error", "CATEGORY": "",
           "ARGS": '--mcp-stdio "python srv/server.py" --target openai'}
    env.pop("GITHUB_STEP_SUMMARY", None)
    sarif = _bash(steps["SARIF for code scanning"]["run"], repo, env)
    assert sarif.returncode == 0, sarif.stderr
    import json

    log = json.loads((repo / "schemalint.sarif").read_text())
    assert log["runs"][0]["results"], "the server's tools were listed and checked"
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines())
    assert outputs["category"] == 'schemalint --mcp-stdio "python srv/server.py" --target openai'
    out.write_text("")
    assert _bash(steps["SARIF for code scanning"]["run"], repo, {**env, "CATEGORY": "api-tools"}).returncode == 0
    assert "category=api-tools\n" in out.read_text()
    out.write_text("")
    annotate = _bash(steps["Annotate the pull request"]["run"], repo, env)
    assert "::" in annotate.stdout and "unrecognized" not in annotate.stderr.lower(), annotate.stderr

    # a diff that cannot run (no git repository here: exit 2) is not "changes at or above --fail-on"
    diff = _bash(steps["Changes against the base branch"]["run"], repo,
                 {**env, "BASE": "", "BASE_REF": "main", "FAIL_ON": "breaking"})
    assert diff.returncode == 2, diff.stdout + diff.stderr
    code = dict(line.split("=", 1) for line in out.read_text().splitlines())["exit-code"]
    final = _bash(steps["Fail on the changes the diff reported"]["run"], repo,
                  {**env, "CODE": code, "FAIL_ON": "breaking"})
    assert final.returncode == 1
    assert "could not run (exit 2" in final.stdout and "changes at or above" not in final.stdout
    final = _bash(steps["Fail on the changes the diff reported"]["run"], repo,
                  {**env, "CODE": "1", "FAIL_ON": "breaking"})
    assert "changes at or above --fail-on breaking" in final.stdout
