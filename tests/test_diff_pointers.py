"""Every pointer a diff reports exists on the side it names; ``nullable`` is read per format; the JSON
report leaves ``before``/``after`` out for a side that does not have the key.

The sides are real git revisions (a repository in a temporary folder, diffed as ``REV:PATH`` both
ways) and the real revision series of ../shared/corpus, in both directions."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from schemalint.commands.diff_compare import compare_tools
from schemalint.commands.diff_sources import load_worktree
from schemalint.diff.render import shown_definition
from tests.conftest import CORPUS, cli_json, needs_shared

OLD_REV, NEW_REV = "HEAD~1:tools.json", "HEAD:tools.json"


def _git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, check=True)


def _repo(tmp_path: Path, old: Any, new: Any) -> Path:
    """A git repository whose tools.json is ``old`` in the first commit and ``new`` in the second."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "config", "commit.gpgsign", "false")
    for doc in (old, new):
        (repo / "tools.json").write_text(json.dumps(doc, indent=2))
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", "tools")
    return repo


def _resolves(document: Any, pointer: str) -> bool:
    value = document
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False
    return True


def _both_ways(tmp_path: Path, old: Any, new: Any) -> list[tuple[int, dict[str, Any], Any, Any]]:
    """``diff`` of the two revisions, old->new then new->old: ``(exit, report, old doc, new doc)``; every
    change's pointer is checked to exist in the document of the side its ``file`` names."""
    repo = _repo(tmp_path, old, new)
    out = []
    for (a, doc_a), (b, doc_b) in (((OLD_REV, old), (NEW_REV, new)), ((NEW_REV, new), (OLD_REV, old))):
        code, report = cli_json("diff", a, b, "--fail-on", "breaking", cwd=repo)
        assert code in (0, 1), report
        for change in report["changes"]:
            side = {a: doc_a, b: doc_b}[change["file"]]
            tools = side if isinstance(side, list) else side["functionDeclarations"]
            tool = next(t for t in tools if t["name"] == change["tool"])
            assert _resolves(tool, change["pointer"]), (a, b, change)
        out.append((code, report, doc_a, doc_b))
    return out


def _mcp(prop: dict[str, Any], **extra: Any) -> list[dict[str, Any]]:
    return [{"name": "pick", "description": "Picks one.",
             "inputSchema": {"type": "object", "properties": {"x": prop}, **extra}}]


def _gemini(prop: dict[str, Any]) -> dict[str, Any]:
    return {"functionDeclarations": [{"name": "pick", "description": "Picks one.",
                                      "parameters": {"type": "object", "properties": {"x": prop}}}]}


def _codes(report: dict[str, Any]) -> list[tuple[str, str]]:
    return sorted((c["code"], c["pointer"]) for c in report["changes"])


def test_nullable_is_an_annotation_in_json_schema(tmp_path: Path) -> None:
    """MCP schemas are JSON Schema: ``nullable`` constrains nothing (jsonschema agrees), so adding or
    removing it is SD212 and the diff exits 0 both ways."""
    old, new = {"type": "string"}, {"type": "string", "nullable": True}
    for schema in (old, new):
        assert not jsonschema.Draft202012Validator(schema).is_valid(None)
    (fwd, back) = _both_ways(tmp_path, _mcp(old), _mcp(new))
    for code, report, _, _ in (fwd, back):
        assert code == 0
        assert _codes(report) == [("SD212", "/inputSchema/properties/x/nullable")]
    assert "before" not in fwd[1]["changes"][0] and fwd[1]["changes"][0]["after"] is True
    assert back[1]["changes"][0]["before"] is True and "after" not in back[1]["changes"][0]


def test_nullable_admits_null_in_a_gemini_schema(tmp_path: Path) -> None:
    """A Gemini ``parameters`` schema is OpenAPI 3.0: ``nullable: true`` admits null, so adding it widens
    the type (SD204) and removing it narrows it (SD104, exit 1)."""
    (fwd, back) = _both_ways(tmp_path, _gemini({"type": "string"}), _gemini({"type": "string", "nullable": True}))
    assert fwd[0] == 0 and _codes(fwd[1]) == [("SD204", "/parameters/properties/x/type")]
    assert back[0] == 1 and _codes(back[1]) == [("SD104", "/parameters/properties/x/type")]


def test_a_type_written_beside_a_nullable_union_refuses_null_in_json_schema(tmp_path: Path) -> None:
    """What SL314's Gemini fix writes, in an MCP tool: ``type: string`` beside ``anyOf [string, null]``
    refuses null there (``nullable`` does not admit it), so it is SD104 plus SD212 for ``nullable``."""
    union = {"anyOf": [{"type": "string"}, {"type": "null"}]}
    fixed = {**union, "type": "string", "nullable": True}
    assert jsonschema.Draft202012Validator(union).is_valid(None)
    assert not jsonschema.Draft202012Validator(fixed).is_valid(None)
    (fwd, back) = _both_ways(tmp_path, _mcp(union), _mcp(fixed))
    assert fwd[0] == 1 and _codes(fwd[1]) == [("SD104", "/inputSchema/properties/x/type"),
                                              ("SD212", "/inputSchema/properties/x/nullable")]
    assert back[0] == 0 and _codes(back[1]) == [("SD204", "/inputSchema/properties/x/type"),
                                                ("SD212", "/inputSchema/properties/x/nullable")]


@pytest.mark.parametrize(("old", "new"), [
    # a property that becomes optional-or-null with a new default (pydantic's Optional[str] = "b")
    ({"type": "string", "default": "a"}, {"anyOf": [{"type": "string"}, {"type": "null"}], "default": "b"}),
    ({"type": "string"}, {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}),
    # the default moves into the branch, with the same value and with another
    ({"type": "string", "default": "a"}, {"anyOf": [{"type": "string", "default": "a"}, {"type": "null"}]}),
    ({"type": "string", "default": "a"}, {"anyOf": [{"type": "string", "default": "b"}, {"type": "null"}]}),
    # a bound written beside the union, not in its branch
    ({"type": "string", "minLength": 2}, {"anyOf": [{"type": "string"}, {"type": "null"}], "minLength": 1}),
    ({"type": "string", "minLength": 2, "title": "X"},
     {"oneOf": [{"type": "string", "maxLength": 9}, {"type": "integer"}], "minLength": 1}),
])
def test_a_schema_that_becomes_a_union_is_reported_at_pointers_that_exist(
        tmp_path: Path, old: dict[str, Any], new: dict[str, Any]) -> None:
    """Both ways, every pointer exists on its side (checked in :func:`_both_ways`: the old code said
    ``/anyOf/0/default`` and ``/anyOf/0/minLength``, which neither side has), and no change twice."""
    for _, report, doc_a, doc_b in _both_ways(tmp_path, _mcp(old), _mcp(new)):
        seen = [(c["code"], c["pointer"]) for c in report["changes"]]
        assert len(seen) == len(set(seen)), seen
        before = doc_a[0]["inputSchema"]["properties"]["x"].get("default", "absent")
        after = doc_b[0]["inputSchema"]["properties"]["x"].get("default", "absent")
        at_top = [c for c in report["changes"] if c["pointer"] == "/inputSchema/properties/x/default"]
        # a default moved unchanged into a branch is reported once, where it now stands (in the branch)
        x_after = doc_b[0]["inputSchema"]["properties"]["x"]
        branches = x_after.get("anyOf", x_after.get("oneOf", []))
        moved_in = after == "absent" != before and any("default" in b for b in branches)
        assert len(at_top) == (before != after and not moved_in)
        if moved_in:
            [moved] = [c["message"] for c in report["changes"] if c["code"] == "SD210"]
            assert moved.startswith("default of `x` moved into its `anyOf` branch 0"), moved


def test_tool_level_removals_point_into_the_old_side(tmp_path: Path) -> None:
    """An annotation or ``_meta`` only the old revision has is reported at the old revision's file."""
    old = [{"name": "pick", "description": "Picks one.", "annotations": {"readOnlyHint": True},
            "_meta": {"k": 1}, "inputSchema": {"type": "object", "properties": {}}}]
    new = [{"name": "pick", "description": "Picks one.", "inputSchema": {"type": "object"}}]
    (fwd, back) = _both_ways(tmp_path, old, new)
    files = {c["pointer"]: c["file"] for c in fwd[1]["changes"]}
    assert files["/annotations/readOnlyHint"] == OLD_REV and files["/_meta"] == OLD_REV
    assert {c["pointer"]: c["file"] for c in back[1]["changes"]}["/annotations/readOnlyHint"] == OLD_REV


def test_added_and_removed_tools_leave_the_absent_side_out(tmp_path: Path) -> None:
    one = [{"name": "a", "description": "A.", "inputSchema": {"type": "object"}}]
    two = [*one, {"name": "b", "description": "B.", "inputSchema": {"type": "object"}}]
    (fwd, back) = _both_ways(tmp_path, one, two)
    [added] = [c for c in fwd[1]["changes"] if c["code"] == "SD201"]
    [removed] = [c for c in back[1]["changes"] if c["code"] == "SD101"]
    assert "before" not in added and "after" in added
    assert "after" not in removed and "before" in removed


GITHUB = CORPUS / "github-mcp-server"
K8S = CORPUS / "kubernetes-mcp-server" / "revisions" / "toolsets-full-tools"


def _corpus_pairs() -> list[tuple[Path, Path]]:
    gd = [GITHUB / r["dir"] for r in json.loads((GITHUB / "revisions" / "index.json").read_text())["revisions"]]
    kf = [K8S / r["file"] for r in json.loads((K8S / "index.json").read_text())["revisions"]]
    pairs = [*itertools.pairwise(gd), *itertools.pairwise(kf)]
    return pairs + [(b, a) for a, b in pairs]


@needs_shared
def test_every_corpus_pointer_exists_on_its_side() -> None:
    """The real revision series, both directions: each change's pointer exists in the rendering of the
    side it names (``side``, and the file of that side)."""
    checked = 0
    for a, b in _corpus_pairs():
        result = compare_tools(load_worktree([str(a)]), load_worktree([str(b)]), old_label=a.name, new_label=b.name)
        for tool in result.tools:
            for c in tool.changes:
                side = tool.old if c.side == "old" else tool.new
                assert side is not None and c.file == side.origin.file, (a.name, b.name, c)
                assert _resolves(shown_definition(side), c.pointer), (a.name, b.name, c)
                checked += 1
    assert checked > 1000


def test_a_description_inside_the_branch_a_schema_is_wrapped_into_is_seen(tmp_path: Path) -> None:
    """A schema wrapped into a union whose kept branch carries its own description: the model reads
    that text, so it is SD301 at the branch (the branch was compared with its text left out)."""
    plain = {"type": "string"}
    wrapped = {"oneOf": [{"type": "string", "description": "The user's login"}, {"type": "integer"}]}
    (fwd, back) = _both_ways(tmp_path, _mcp(plain), _mcp(wrapped))
    assert _codes(fwd[1]) == [("SD211", "/inputSchema/properties/x/oneOf/1"),
                              ("SD301", "/inputSchema/properties/x/oneOf/0/description")]
    assert _codes(back[1]) == [("SD109", "/inputSchema/properties/x/oneOf/1"),
                               ("SD301", "/inputSchema/properties/x/oneOf/0/description")]
