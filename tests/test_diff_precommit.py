"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit in real git repositories.

The schemalint working tree (tracked + untracked, not ignored files) is copied into a
temporary git repository and committed, because pre-commit installs hooks from a
repository whose hook file is committed; this works the same from a fresh clone in CI.

pre-commit builds the hook's virtual environment (``pip install`` of schemalint, ~40 s) once
per repository and ``rev``: every run here names the same copy at the same ``rev`` (the README
snippet's release tag, given to the copy's commit) and shares one PRE_COMMIT_HOME, so the
module builds it once. (``pre-commit try-repo`` would build it again, in a throw-away store, on
every call: the hooks are run with ``pre-commit run`` and from ``git commit`` instead.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli, needs_node

PRE_COMMIT = shutil.which("pre-commit", path=str(Path(sys.executable).parent)) or shutil.which("pre-commit")

pytestmark = [
    pytest.mark.skipif(PRE_COMMIT is None or shutil.which("git") is None,
                       reason="needs pre-commit (test extra) and git"),
    # one pytest-xdist worker runs the module, so the module's hook environment is built once
    pytest.mark.xdist_group("pre-commit-hook-env"),
]

TOOL = {
    "name": "search",
    "description": "Search issues.",
    "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
}


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True)
    return proc.stdout


def init_repo(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "commit.gpgsign", "false")
    return path


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A committed copy of the schemalint working tree (what try-repo installs the hooks from)."""
    dest = init_repo(tmp_path_factory.mktemp("hookrepo") / "schemalint")
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listed):
        src = ROOT / rel
        if not src.is_file() or rel.startswith(".venv/"):
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "schemalint under test")
    git(dest, "tag", readme_rev())
    return dest


def readme_rev() -> str:
    """The release tag the README's hook snippet names as ``rev``."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("```yaml\nrepos:")
    rev = re.search(r"rev: (v\d+\.\d+\.\d+)\b", readme[start: readme.index("```", start + 7)])
    assert rev, "the README's hook snippet names a release tag as rev"
    return rev.group(1)


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def _env(home: Path) -> dict[str, str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env.pop("VIRTUAL_ENV", None)
    return env


def run_hook(project: Path, hook_repo: Path, home: Path, hook: str) -> subprocess.CompletedProcess[str]:
    """``pre-commit run HOOK --all-files`` with a config naming ``hook_repo`` at the README's tag
    (its HEAD commit)."""
    assert PRE_COMMIT is not None
    rev = readme_rev()
    config = project / ".pre-commit-config.yaml"
    config.write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {rev}\n    hooks:\n"
        "      - id: schemalint\n      - id: schemalint-snapshot\n"
    )
    git(project, "add", config.name)
    return subprocess.run(
        [PRE_COMMIT, "run", hook, "--all-files", "--verbose"],
        cwd=project,
        capture_output=True,
        text=True,
        env=_env(home),
        timeout=600,
    )


def test_schemalint_hook_passes_then_fails(tmp_path: Path, hook_repo: Path, pre_commit_home: Path) -> None:
    project = init_repo(tmp_path / "project")
    (project / "tools.json").write_text(json.dumps([TOOL], indent=2) + "\n")
    (project / "package.json").write_text('{"name": "not-a-tool-file"}\n')
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "clean tools")
    ok = run_hook(project, hook_repo, pre_commit_home, "schemalint")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "Passed" in ok.stdout

    broken = dict(TOOL, inputSchema={"type": "object", "properties": {}, "required": "query"})
    (project / "tools.json").write_text(json.dumps([broken], indent=2) + "\n")
    (project / "broken.json").write_text('{"name": "x", "inputSchema": {\n')
    (project / "get_me.snap").write_text('{"name": "get_me", "inputSchema": {"type": "object",\n')
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "broken tools")
    bad = run_hook(project, hook_repo, pre_commit_home, "schemalint")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Failed" in bad.stdout and "broken.json" in bad.stdout
    assert "get_me.snap" in bad.stdout  # .snap files are selected too (they were skipped by types: json)


def test_hostile_file_names_are_files(tmp_path: Path, hook_repo: Path, pre_commit_home: Path) -> None:
    """Files named like options reach `schemalint check --scan --` as files: the errors in them
    and beside them still fail the hook, no baseline is written, no configuration is taken from
    them. Before the entry ended with `--`, `--write-baseline=x.json` made the run pass and wrote
    x.json, and `--config=evil.json` switched the batch's rules off."""
    project = init_repo(tmp_path / "project")
    broken = dict(TOOL, inputSchema={"type": "object", "properties": {}, "required": "query"})
    (project / "tools.json").write_text(json.dumps([broken], indent=2) + "\n")
    (project / "--write-baseline=x.json").write_text(json.dumps([broken], indent=2) + "\n")
    (project / "--config=evil.json").write_text(json.dumps([broken], indent=2) + "\n")
    (project / "-x.json").write_text(json.dumps([broken], indent=2) + "\n")
    (project / "evil.json").write_text('fail-on = "never"\nselect = []\n')  # a configuration, if taken as one
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "files named like options")
    done = run_hook(project, hook_repo, pre_commit_home, "schemalint")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    for name in ("tools.json", "--write-baseline=x.json", "--config=evil.json", "-x.json"):
        assert f"{name}:" in done.stdout, (name, done.stdout)
    assert not (project / "x.json").exists()
    assert "wrote" not in done.stdout + done.stderr


def test_snapshot_hook_passes_then_fails(tmp_path: Path, hook_repo: Path, pre_commit_home: Path) -> None:
    project = init_repo(tmp_path / "project")
    (project / "pyproject.toml").write_text(
        '[tool.schemalint]\nsources = ["tools"]\nsnapshot-dir = "tool-snapshots"\n'
    )
    (project / "tools").mkdir()
    (project / "tools" / "search.json").write_text(json.dumps(TOOL, indent=2) + "\n")
    proc = cli("snapshot", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert (project / "tool-snapshots" / "search.json").is_file()
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "tools and their snapshots")
    ok = run_hook(project, hook_repo, pre_commit_home, "schemalint-snapshot")
    assert ok.returncode == 0, ok.stdout + ok.stderr

    changed = dict(TOOL, description="Search issues and pull requests.")
    (project / "tools" / "search.json").write_text(json.dumps(changed, indent=2) + "\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "edit the description, forget the snapshot")
    bad = run_hook(project, hook_repo, pre_commit_home, "schemalint-snapshot")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "stale" in bad.stdout and '+  "description": "Search issues and pull requests."' in bad.stdout
    snap = json.loads((project / "tool-snapshots" / "search.json").read_text())
    assert snap["description"] == "Search issues.", "--check must not write"


def test_hook_files_are_what_check_reads() -> None:

    import yaml

    from schemalint.loaders.files.documents import TOOL_FILE_SUFFIXES

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    pattern = re.compile(hooks["schemalint"]["files"])
    assert "types_or" not in hooks["schemalint"]  # `types: [json, yaml]` skipped .snap and .jsonl
    for suffix in TOOL_FILE_SUFFIXES:
        assert pattern.search(f"dir/tools{suffix}") and pattern.search(f"TOOLS{suffix.upper()}"), suffix
    for other in ("server.py", "pyproject.toml", "README.md", "tools.json.bak", "snap"):
        assert not pattern.search(other), other
    diff_files = re.compile(hooks["schemalint-diff"]["files"])
    assert diff_files.search("app/tools.py") and diff_files.search("tools.snap")
    from schemalint.loaders.files.sources import TYPESCRIPT_SUFFIXES

    ts_files = re.compile(hooks["schemalint-typescript"]["files"])
    for suffix in (*TOOL_FILE_SUFFIXES, *TYPESCRIPT_SUFFIXES):  # diff reads every source kind
        assert diff_files.search(f"src/tools{suffix}"), suffix
    for suffix in TYPESCRIPT_SUFFIXES:
        assert ts_files.search(f"src/tools{suffix}") and ts_files.search(f"SRC/TOOLS{suffix.upper()}"), suffix
    assert not ts_files.search("tools.json") and hooks["schemalint-typescript"]["pass_filenames"] is False
    assert hooks["schemalint-diff"]["pass_filenames"] is False
    assert PRE_COMMIT is not None
    valid = subprocess.run([PRE_COMMIT, "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                           capture_output=True, text=True)
    assert valid.returncode == 0, valid.stdout + valid.stderr


def _readme_config(hook_repo: Path) -> str:
    """The README's pre-commit snippet with only `repo:` pointed at the local copy; its `rev`, a
    release tag, is given to the copy's commit (as the release tag is to the released commit)."""
    readme = (ROOT / "README.md").read_text()
    start = readme.index("```yaml\nrepos:")
    snippet = readme[start + len("```yaml\n"): readme.index("```", start + 7)]
    assert f"rev: {readme_rev()}" in snippet and git(hook_repo, "tag", "--points-at", "HEAD").split() == [readme_rev()]
    return snippet.replace("https://github.com/schemalint/schemalint", str(hook_repo))


def _commit(project: Path, message: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "PRE_COMMIT_HOME": os.environ["PRE_COMMIT_HOME"], "PRE_COMMIT_COLOR": "never"}
    env.pop("VIRTUAL_ENV", None)
    git(project, "add", "-A")
    return subprocess.run(["git", "commit", "-q", "-m", message], cwd=project, capture_output=True, text=True,
                          env=env, timeout=900)


def test_readme_snippet_as_an_installed_hook_on_real_commits(tmp_path: Path, hook_repo: Path,
                                                               pre_commit_home: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    assert PRE_COMMIT is not None
    monkeypatch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
    project = init_repo(tmp_path / "project")
    (project / ".pre-commit-config.yaml").write_text(_readme_config(hook_repo))
    (project / "pyproject.toml").write_text(
        '[tool.schemalint]\nsources = ["tools"]\nexclude = ["tools/vendor"]\nsnapshot-dir = "snaps"\n')
    (project / "tools").mkdir()
    (project / "tools" / "search.json").write_text(json.dumps(TOOL, indent=2) + "\n")
    assert cli("snapshot", cwd=project).returncode == 0
    installed = subprocess.run([PRE_COMMIT, "install"], cwd=project, capture_output=True, text=True,
                               env=_env(pre_commit_home))
    assert installed.returncode == 0, installed.stderr
    first = _commit(project, "tools, snapshots and hooks")  # the first commit: diff --base HEAD has no HEAD
    assert first.returncode == 0, first.stdout + first.stderr

    # data files that hold no tools pass, inside the sources and outside them
    (project / "tools" / "labels.yaml").write_text("labels: [bug, feature]\nowners: {bug: alice}\n")
    (project / "package.json").write_text('{"name": "web", "version": "1.0.0"}\n')
    (project / ".github").mkdir()
    (project / ".github" / "dependabot.yml").write_text("version: 2\nupdates: []\n")
    data = _commit(project, "data files")
    assert data.returncode == 0, data.stdout + data.stderr

    # a broken .snap outside the configured sources is not this project's tool file: it passes
    (project / "fixtures").mkdir()
    (project / "fixtures" / "recorded.snap").write_text('{"name": "get_me", "inputSchema": {\n')
    (project / "tools" / "vendor").mkdir()
    (project / "tools" / "vendor" / "theirs.snap").write_text('{"name": "x", "inputSchema": {\n')  # excluded
    outside = _commit(project, "fixtures")
    assert outside.returncode == 0, outside.stdout + outside.stderr

    # a broken .snap inside the sources is blocked
    (project / "tools" / "get_me.snap").write_text('{"name": "get_me", "inputSchema": {"type": "object",\n')
    blocked = _commit(project, "a broken snapshot")
    assert blocked.returncode != 0
    said = blocked.stdout + blocked.stderr  # git commit shows the hooks' output on stderr
    assert "schemalint check" in said and "tools/get_me.snap" in said and "Failed" in said
    assert "SL000" in said
    (project / "tools" / "get_me.snap").unlink()

    # a breaking change (a new required property) is blocked by schemalint-diff
    breaking = dict(TOOL, inputSchema={"type": "object", "properties": {
        "query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query", "limit"]})
    (project / "tools" / "search.json").write_text(json.dumps(breaking, indent=2) + "\n")
    proc = cli("snapshot", cwd=project)
    assert proc.returncode == 0
    refused = _commit(project, "limit is now required")
    assert refused.returncode != 0
    assert "SD103 required-added" in refused.stdout + refused.stderr, refused.stdout + refused.stderr
    log = git(project, "log", "--format=%s")
    assert log.split("\n")[0] == "fixtures"  # the blocked commits were not made


CLEAN_TS = """import { tool } from "ai";
import { z } from "zod";

export const TOOLS = {
  present_answer: tool({
    description: "Show the final answer to the user: the artifact and how to present it.",
    inputSchema: z.object({
      artifact: z.string().describe("Path of the artifact to show."),
      presentation: z.object({ title: z.string().describe("Heading shown above the artifact.") }),
    }),
    execute: async ({ artifact }) => ({ shown: artifact }),
  }),
};
"""


@needs_node
def test_typescript_hooks_block_an_sl101_commit(tmp_path: Path, hook_repo: Path, pre_commit_home: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A TypeScript project (examples/typescript's packages): schemalint-typescript and
    schemalint-diff installed with the real pre-commit; a commit that wraps a key in
    z.preprocess (SL101 with zod 4.4.3: dropped from `required`, still refused) is blocked."""
    assert PRE_COMMIT is not None
    monkeypatch.setenv("PRE_COMMIT_HOME", str(pre_commit_home))
    project = init_repo(tmp_path / "web")
    example = ROOT / "examples" / "typescript"
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(example / name, project / name)
    (project / "node_modules").symlink_to((example / "node_modules").resolve())
    (project / ".gitignore").write_text("node_modules\n")
    (project / "src").mkdir()
    (project / "src" / "tools.ts").write_text(CLEAN_TS)
    (project / "schemalint.toml").write_text('sources = ["src/tools.ts:TOOLS"]\n')
    rev = readme_rev()  # the environment the other tests built
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {rev}\n    hooks:\n"
        "      - id: schemalint-typescript\n      - id: schemalint-diff\n")
    installed = subprocess.run([PRE_COMMIT, "install"], cwd=project, capture_output=True, text=True,
                               env=_env(pre_commit_home))
    assert installed.returncode == 0, installed.stderr
    first = _commit(project, "clean tools")
    assert first.returncode == 0, first.stdout + first.stderr

    drifting = CLEAN_TS.replace(
        "presentation: z.object(",
        "presentation: z.preprocess((v: unknown) => (typeof v === \"string\" ? JSON.parse(v) : v), z.object(",
    ).replace('artifact.") }),\n    }),', 'artifact.") })),\n    }),')
    assert drifting != CLEAN_TS
    (project / "src" / "tools.ts").write_text(drifting)
    blocked = _commit(project, "accept a JSON string")
    said = blocked.stdout + blocked.stderr
    assert blocked.returncode != 0, said
    assert "SL101" in said and "src/tools.ts" in said, said
    assert "git worktree add failed" not in said, said
    assert git(project, "log", "--format=%s").strip() == "clean tools"


def test_fixing_hook_and_diff_hook_do_not_block_each_other(tmp_path: Path, hook_repo: Path,
                                                          pre_commit_home: Path) -> None:
    """The documented pair `schemalint-fix` + `schemalint-diff` with `target = ["openai-strict"]`: the
    fixing hook closes an object that declares properties (SL307's safe fix), which the diff hook reads
    as SD213 (strict decoding sends only declared keys), not as the breaking SD106. A commit whose file
    gets fixed fails once, pre-commit saying the file was modified; added again, it is committed. A hand
    edit that breaks a caller (a new required property) is still blocked by the diff hook."""
    assert PRE_COMMIT is not None
    project = init_repo(tmp_path / "project")
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hook_repo}\n    rev: {readme_rev()}\n    hooks:\n"
        "      - id: schemalint-fix\n      - id: schemalint-diff\n")
    (project / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\ntarget = ["openai-strict"]\n')
    (project / "tools").mkdir()
    tool = {"type": "function", "function": {"name": "find_pets", "description": "Finds pets by tag.",
                                             "parameters": {"type": "object", "properties": {
                                                 "tag": {"type": "string"}}, "required": ["tag"]}}}
    path = project / "tools" / "pets.json"
    path.write_text(json.dumps([tool], indent=2) + "\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "--no-verify", "-m", "tools written before the hooks")
    installed = subprocess.run([PRE_COMMIT, "install"], cwd=project, capture_output=True, text=True,
                               env=_env(pre_commit_home))
    assert installed.returncode == 0, installed.stderr
    tool["function"]["description"] = "Finds pets by tag (case-insensitive)."
    path.write_text(json.dumps([tool], indent=2) + "\n")

    def commit(message: str) -> tuple[int, str]:
        env = {**_env(pre_commit_home), "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
        git(project, "add", "-A")
        proc = subprocess.run(["git", "commit", "-q", "-m", message], cwd=project, capture_output=True, text=True,
                              env=env, timeout=900)
        return proc.returncode, proc.stdout + proc.stderr

    code, said = commit("say the tag is case-insensitive")
    assert code != 0 and "files were modified by this hook" in said, said
    assert "SD106" not in said, said
    fixed = json.loads(path.read_text())[0]["function"]["parameters"]
    assert fixed["additionalProperties"] is False
    code, said = commit("say the tag is case-insensitive")
    assert code == 0, said
    assert git(project, "log", "-1", "--format=%s").strip() == "say the tag is case-insensitive"
    shown = json.loads(git(project, "show", "HEAD:tools/pets.json"))
    assert shown[0]["function"]["parameters"]["additionalProperties"] is False

    fixed["properties"]["limit"] = {"type": "integer"}
    fixed["required"] = ["tag", "limit"]
    path.write_text(json.dumps([dict(tool, function=dict(tool["function"], parameters=fixed))], indent=2) + "\n")
    code, said = commit("limit is now required")
    assert code != 0 and "SD103 required-added" in said, said
