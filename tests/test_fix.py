"""``schemalint check --fix / --unsafe-fixes / --diff`` (issue 30, docs/fix.md).

Each fix: a before/after pair run through the real CLI on a file in a temporary directory, the
lines the fix does not touch byte-identical, a second run that changes nothing (idempotence) and a
re-check clean of the rule. Then the formats (JSON styles and line endings, YAML comments and
anchors, JSON Lines), the write policy, baselines and ignores, --diff, code sources left alone, and
the editor API (:func:`schemalint.fix.edits_for`).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import cli


def _openai(params: dict[str, Any], name: str = "find_pets") -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": name, "description": "Finds pets by tag.",
                                              "parameters": params}}]


def _mcp(schema: dict[str, Any], name: str = "find_pets") -> list[dict[str, Any]]:
    return [{"name": name, "description": "Finds pets by tag.", "inputSchema": schema}]


def _codes(path: Path, *args: str) -> list[str]:
    proc = cli("check", str(path), *args, "--format", "json", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    return [d["code"] for d in json.loads(proc.stdout)["diagnostics"]]


def _kept_lines(before: str, after: str) -> None:
    """Every line of ``before`` that is in no changed hunk is in ``after``, byte for byte and in order."""
    import difflib

    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    kept = sum(size for _, _, size in matcher.get_matching_blocks())
    changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")
    assert kept + changed >= len(a)
    assert changed <= 12, f"the fix moved {changed} lines:\n" + "".join(difflib.unified_diff(a, b))


# (id, tool document, --target, --unsafe-fixes?, rule, what the fixed schema must say)
CASES: list[tuple[str, Any, str, bool, str, Any]] = [
    ("SL309-openai-any-items", _openai({"type": "object", "properties": {"tags": {"type": "array"}},
                                        "required": ["tags"]}), "openai", False, "SL309",
     ("/0/function/parameters/properties/tags/items", {})),
    ("SL309-gemini-string-items", [{"name": "find_pets", "description": "Finds pets by tag.", "parameters": {
        "type": "OBJECT", "properties": {"tags": {"type": "ARRAY"}}, "required": ["tags"]}}], "gemini", True,
     "SL309", ("/0/parameters/properties/tags/items", {"type": "STRING"})),
    ("SL307-close-declared-object", _openai({"type": "object", "properties": {"tag": {"type": "string"}},
                                             "required": ["tag"]}), "openai-strict", False, "SL307",
     ("/0/function/parameters/additionalProperties", False)),
    ("SL307-map-unsafe", _openai({"type": "object", "properties": {"tag": {"type": "string"}}, "required": ["tag"],
                                  "additionalProperties": {"type": "string"}}), "openai-strict", True, "SL307",
     ("/0/function/parameters/additionalProperties", False)),
    ("SL308-require-all-nullable", _openai({"type": "object", "properties": {
        "tag": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["tag"],
        "additionalProperties": False}), "openai-strict", True, "SL308",
     ("/0/function/parameters/properties/limit/type", ["integer", "null"])),
    ("SL311-drop-annotation", _openai({"type": "object", "properties": {"tag": {
        "type": "string", "format": "uri"}}, "required": ["tag"], "additionalProperties": False}),
     "openai-strict", True, "SL311", ("/0/function/parameters/properties/tag", {"type": "string"})),
    ("SL313-drop-title", [{"name": "find_pets", "description": "Finds pets by tag.", "parameters": {
        "type": "OBJECT", "properties": {"tag": {"type": "STRING", "examples": ["cat"], "title": "Tag"}},
        "required": ["tag"]}}], "gemini", False, "SL313",
     ("/0/parameters/properties/tag", {"type": "STRING", "title": "Tag"})),
    ("SL314-nullable-form", [{"name": "find_pets", "description": "Finds pets by tag.", "parameters": {
        "type": "object", "properties": {"tag": {"type": ["string", "null"]}}, "required": ["tag"]}}], "gemini",
     False, "SL314", ("/0/parameters/properties/tag", {"type": "string", "nullable": True})),
    ("SL314-nullable-in-json-schema-unsafe", _mcp({"type": "object", "properties": {"tag": {
        "anyOf": [{"type": "string"}, {"type": "null"}], "default": None}}}), "gemini", True, "SL314",
     ("/0/inputSchema/properties/tag/nullable", True)),
    ("SL314-type-name", [{"name": "find_pets", "description": "Finds pets by tag.", "parameters": {
        "type": "object", "properties": {"limit": {"type": "float"}}, "required": ["limit"]}}], "gemini",
     False, "SL314", ("/0/parameters/properties/limit/type", "number")),
    ("SL003-unsafe-required-entry", _mcp({"type": "object", "properties": {"tag": {"type": "string"}},
                                          "required": ["tag", "tga"]}), "mcp", True, "SL003",
     ("/0/inputSchema/required", ["tag"])),
    ("SL316-ref-siblings", _openai({"type": "object", "properties": {"place": {
        "$ref": "#/$defs/Place", "description": "Where."}}, "required": ["place"], "additionalProperties": False,
        "$defs": {"Place": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                            "additionalProperties": False}}}), "openai-strict", False, "SL316",
     ("/0/function/parameters/properties/place", {"$ref": "#/$defs/Place"})),
]



def test_sl314_nullable_form_keeps_null_only_where_nullable_is_read(tmp_path: Path) -> None:
    """Gemini's nullable form admits ``null`` in Gemini's Schema, but an MCP file is JSON Schema,
    where ``nullable`` is an unknown keyword: there the added ``"type": "string"`` refuses the ``null``
    the ``anyOf`` let through, so plain ``--fix`` must leave the file as it is. The same union in a
    Gemini declaration is rewritten by plain ``--fix``, and the result still admits ``null`` there."""
    import jsonschema

    union = {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    mcp = tmp_path / "mcp.json"
    mcp_text = json.dumps(_mcp({"type": "object", "properties": {"pool": union}}), indent=2) + "\n"
    mcp.write_text(mcp_text)
    _, _, outcome = _fix(mcp, "gemini", "SL314", unsafe=False)
    assert mcp.read_text() == mcp_text and not outcome.written and outcome.unsafe_left
    assert jsonschema.Draft7Validator(json.loads(mcp_text)[0]["inputSchema"]).is_valid({"pool": None})

    gemini = tmp_path / "gemini.json"
    decl = {"functionDeclarations": [{"name": "find_pets", "description": "Finds pets by tag.",
                                      "parameters": {"type": "object", "properties": {"pool": union}}}]}
    gemini.write_text(json.dumps([decl], indent=2) + "\n")
    _, _, outcome = _fix(gemini, "gemini", "SL314", unsafe=False)
    assert outcome.written == [str(gemini)]
    pool = json.loads(gemini.read_text())[0]["functionDeclarations"][0]["parameters"]["properties"]["pool"]
    assert pool["type"] == "string" and pool["nullable"] is True


def test_sl003_leaves_a_required_key_a_description_asks_for(tmp_path: Path) -> None:
    """A ``required`` entry that a description above it names (the tool's, here) is a parameter the
    author forgot to declare: removing the entry would leave the description asking for a key the
    schema no longer expects (SL201 on a closed object), so SL003 offers no fix there. The typo
    twin (``tga``, named nowhere) is fixed by the SL003 pair above."""
    doc = [{"name": "book", "description": "Book a table; `party_size` says for how many.",
            "inputSchema": {"type": "object", "properties": {"time": {"type": "string"}},
                            "required": ["time", "party_size"]}}]
    path = tmp_path / "tools.json"
    before = json.dumps(doc, indent=2) + "\n"
    path.write_text(before)
    first, last, outcome = _fix(path, "mcp", "SL003", unsafe=True)
    assert "SL003" in [d.code for d in first.diagnostics]
    assert path.read_text() == before and not outcome.written
    assert "SL003" in [d.code for d in last.diagnostics]

def _at(doc: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


def _fix(path: Path, target: str, code: str | None, *, unsafe: bool, diff: bool = False) -> Any:
    """``check PATH --target TARGET --select CODE --fix`` in this process: (first, last result, outcome)."""
    from schemalint.api import check
    from schemalint.fix.run import check_and_fix
    from schemalint.targets import parse_targets

    def run(files: Any = None) -> Any:
        return check(files or [str(path)], targets=[target], select=[code] if code else None, jobs=1, catalog=False)

    return check_and_fix(run, unsafe=unsafe, diff=diff, targets=parse_targets([target]), project=str(path.parent))


@pytest.mark.parametrize(("name", "doc", "target", "unsafe", "code", "expected"), CASES, ids=[c[0] for c in CASES])
def test_fix_pair(tmp_path: Path, name: str, doc: Any, target: str, unsafe: bool, code: str,
                  expected: tuple[str, Any]) -> None:
    path = tmp_path / "tools.json"
    before = json.dumps(doc, indent=2) + "\n"
    path.write_text(before)
    first, last, outcome = _fix(path, target, code, unsafe=False)
    assert code in [d.code for d in first.diagnostics]
    if unsafe:  # safe --fix alone leaves an unsafe fix, says so and writes nothing
        assert path.read_text() == before and outcome.unsafe_left and not outcome.written
        first, last, outcome = _fix(path, target, code, unsafe=True)
    after = path.read_text()
    assert outcome.written == [str(path)] and outcome.fixed[code] >= 1
    pointer, value = expected
    assert _at(json.loads(after), pointer) == value, after
    _kept_lines(before, after)
    assert code not in [d.code for d in last.diagnostics], after
    stat = path.stat()
    again = _fix(path, target, code, unsafe=True)
    assert code not in [d.code for d in again[0].diagnostics]
    assert not again[2].written and again[2].total == 0
    assert path.read_text() == after and path.stat().st_mtime_ns == stat.st_mtime_ns


def test_cli_fix_summary_and_idempotence(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_openai({"type": "object", "properties": {"tags": {"type": "array"}},
                                        "required": ["tags", "ghost"]}), indent=2) + "\n")
    proc = cli("check", str(path), "--target", "openai", "--fix")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # SL003 (unsafe fix only) remains, an error
    assert "fixed 1 diagnostic(s) in 1 file(s), 1 remaining" in proc.stderr, proc.stderr
    assert "1 diagnostic(s) have only an unsafe fix: add --unsafe-fixes" in proc.stderr
    assert "SL003" in proc.stdout and "SL309" not in proc.stdout
    proc = cli("check", str(path), "--target", "openai", "--unsafe-fixes")
    assert proc.returncode == 0 and "fixed 1 diagnostic(s) in 1 file(s), 0 remaining" in proc.stderr, proc.stderr
    text = path.read_text()
    proc = cli("check", str(path), "--target", "openai", "--fix", "--unsafe-fixes")
    assert proc.returncode == 0 and "fixed 0 diagnostic(s) in 0 file(s), 0 remaining" in proc.stderr
    assert path.read_text() == text


def test_json_styles_and_line_endings_are_kept(tmp_path: Path) -> None:
    doc = _openai({"type": "object", "properties": {"tags": {"type": "array", "description": "Tags, é."}},
                   "required": ["tags"]})
    for style, text in {
        "four-crlf": json.dumps(doc, indent=4, ensure_ascii=False).replace("\n", "\r\n") + "\r\n",
        "tabs-no-final-newline": json.dumps(doc, indent="\t", ensure_ascii=False),
        "one-line": json.dumps(doc, ensure_ascii=False) + "\n",
        "compact": json.dumps(doc, separators=(",", ":"), ensure_ascii=False),
    }.items():
        path = tmp_path / f"{style}.json"
        path.write_bytes(text.encode())
        proc = cli("check", str(path), "--target", "openai", "--select", "SL309", "--fix")
        assert proc.returncode == 0, proc.stderr
        after = path.read_bytes().decode()
        assert json.loads(after)[0]["function"]["parameters"]["properties"]["tags"]["items"] == {}
        assert after.endswith("\r\n") == text.endswith("\r\n") and after.endswith("\n") == text.endswith("\n")
        if "\r\n" in text:
            assert after.count("\r\n") == after.count("\n")
        assert after.count("\n") - text.count("\n") <= 1, style
        if style == "compact":
            assert ',"items":{}' in after
        if style.startswith("tabs"):
            assert '\t\t\t\t\t\t"items": {}' in after, after


YAML = """\
# tools for the pet shop
- name: find_pets        # the search
  description: Finds pets by tag.
  inputSchema: &schema
    type: object
    properties:
      tags:
        type: array    # a list of tags
    required: [tags]
- name: find_pets_again
  description: Finds pets by tag, again.
  inputSchema: *schema
"""


def test_yaml_round_trip_keeps_comments_and_anchors(tmp_path: Path) -> None:
    pytest.importorskip("ruamel.yaml")
    path = tmp_path / "tools.yaml"
    path.write_text(YAML)
    proc = cli("check", str(path), "--target", "openai", "--select", "SL309", "--fix")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    after = path.read_text()
    assert "# tools for the pet shop" in after and "# the search" in after and "# a list of tags" in after
    assert "&schema" in after and "*schema" in after
    assert "required: [tags]" in after
    import yaml

    loaded = yaml.safe_load(after)
    assert loaded[0]["inputSchema"]["properties"]["tags"]["items"] == {}
    assert loaded[1]["inputSchema"]["properties"]["tags"]["items"] == {}
    _kept_lines(YAML, after)
    assert "SL309" not in _codes(path, "--target", "openai", "--select", "SL309")


def test_json_lines_keep_one_record_per_line(tmp_path: Path) -> None:
    records = [{"name": f"tool_{i}", "description": "Does one thing.", "parameters": {
        "type": "object", "properties": {"xs": {"type": "array"}}, "required": ["xs"]}} for i in range(3)]
    lines = [json.dumps(r) for r in records]
    lines[1] = json.dumps({"name": "clean", "description": "Clean.", "parameters": {"type": "object",
                                                                                      "properties": {}}})
    text = "\n".join(lines) + "\n"
    path = tmp_path / "tools.jsonl"
    path.write_text(text)
    proc = cli("check", str(path), "--target", "openai", "--select", "SL309", "--fix")
    assert proc.returncode == 0, proc.stderr
    after = path.read_text().splitlines()
    assert len(after) == 3 and after[1] == lines[1]
    assert all(json.loads(line)["parameters"]["properties"]["xs"]["items"] == {} for line in (after[0], after[2]))


def test_diff_prints_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    text = json.dumps(_openai({"type": "object", "properties": {"tags": {"type": "array"}}}), indent=2) + "\n"
    path.write_text(text)
    proc = cli("check", str(path), "--target", "openai", "--diff")
    assert proc.returncode == 1, proc.stderr
    assert path.read_text() == text
    assert f"--- a/{str(path).lstrip('/')}" in proc.stdout and '+            "items": {}' in proc.stdout, proc.stdout
    cli("check", str(path), "--target", "openai", "--fix")
    clean = cli("check", str(path), "--target", "openai", "--diff")
    assert clean.returncode == 0 and clean.stdout == "", clean.stdout + clean.stderr


def test_clean_file_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_openai({"type": "object", "properties": {}}), indent=2))
    before = path.stat().st_mtime_ns
    os.utime(path, ns=(before - 10**9, before - 10**9))
    proc = cli("check", str(path), "--target", "openai", "--fix")
    assert proc.returncode == 0
    assert path.stat().st_mtime_ns == before - 10**9


def test_ignored_and_baselined_findings_are_not_fixed(tmp_path: Path) -> None:
    tools = _openai({"type": "object", "properties": {"tags": {"type": "array"}}}, name="a") + _openai(
        {"type": "object", "properties": {"ids": {"type": "array"}}}, name="b")
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(tools, indent=2) + "\n")
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["openai"]\n'
                                             '[[tool.schemalint.per-tool-ignores]]\ntools = ["a"]\nrules = ["SL309"]\n'
                                             'reason = "kept open on purpose"\n')
    proc = cli("check", "tools.json", "--fix", cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    fixed = json.loads(path.read_text())
    assert "items" not in fixed[0]["function"]["parameters"]["properties"]["tags"], "an ignored finding was fixed"
    assert fixed[1]["function"]["parameters"]["properties"]["ids"]["items"] == {}
    # a baselined finding is not fixed either
    path.write_text(json.dumps(tools, indent=2) + "\n")
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["openai"]\n')
    cli("check", "tools.json", "--write-baseline", "baseline.json", cwd=tmp_path)
    proc = cli("check", "tools.json", "--baseline", "baseline.json", "--fix", cwd=tmp_path)
    assert json.loads(path.read_text()) == tools, proc.stderr


def test_link_out_of_the_project_is_not_written(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    target = outside / "tools.json"
    text = json.dumps(_openai({"type": "object", "properties": {"tags": {"type": "array"}}}), indent=2)
    target.write_text(text)
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[tool.schemalint]\n")
    (project / "tools.json").symlink_to(target)
    proc = cli("check", "tools.json", "--target", "openai", "--fix", cwd=project)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "not fixed" in proc.stderr and "leads out" in proc.stderr and target.read_text() == text
    assert "fixed 0 diagnostic(s) in 0 file(s)" in proc.stderr, proc.stderr


def test_write_source_refuses_a_file_not_read(tmp_path: Path) -> None:
    from schemalint.safe_write import WriteRefused, write_source

    readme = tmp_path / "README.md"
    readme.write_text("hello")
    with pytest.raises(WriteRefused):
        write_source(readme, "x", sources=[str(tmp_path / "tools.json")], project=tmp_path)
    assert readme.read_text() == "hello"


def test_code_sources_are_left_with_a_hint(tmp_path: Path) -> None:
    pytest.importorskip("pydantic")
    (tmp_path / "models.py").write_text(
        "from pydantic import BaseModel\n\n\nclass Search(BaseModel):\n    \"\"\"Search pets.\"\"\"\n\n"
        "    query: str\n    limit: int = 10\n")
    before = (tmp_path / "models.py").read_text()
    proc = cli("check", "models:Search", "--python-path", ".", "--target", "openai-strict", "--fix",
                   "--unsafe-fixes", cwd=tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Python/TypeScript sources were left" in proc.stderr, proc.stderr
    assert 'in the Pydantic model: model_config = ConfigDict(extra="forbid")' in proc.stdout, proc.stdout
    assert (tmp_path / "models.py").read_text() == before


def test_target_fix_converges(tmp_path: Path) -> None:
    """Several rules' fixes together, for one target: the re-check is clean of every fixable rule."""
    doc = _openai({"type": "object", "title": "Args", "properties": {
        "tags": {"type": "array"}, "limit": {"type": "integer", "minimum": 1},
        "where": {"type": "object", "properties": {"city": {"type": "string"}}}}, "required": ["tags", "ghost"]})
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(doc, indent=2) + "\n")
    for target in ("openai-strict", "gemini", "anthropic-strict"):
        path.write_text(json.dumps(doc, indent=2) + "\n")
        proc = cli("check", str(path), "--target", f"={target}", "--fix", "--unsafe-fixes",
                       "--format", "json", "--fail-on", "never")
        assert "Traceback" not in proc.stderr and "stopped after" not in proc.stderr, proc.stderr
        from schemalint.fix.plan import fix_of

        left = [d for d in json.loads(proc.stdout)["diagnostics"] if fix_of(d["code"]) is not None]
        text = path.read_text()
        assert not edits_for_all(left, text, path), (target, left)


def edits_for_all(diagnostics: list[dict[str, Any]], text: str, path: Path) -> list[Any]:
    """The fix actions still offered for ``diagnostics`` (report dicts) on ``text``."""
    from schemalint.fix import edits_for
    from schemalint.model import Diagnostic, Severity

    diags = [Diagnostic(code=d["code"], name=d["name"], severity=Severity(d["severity"]), tool=d["tool"],
                        file=d["file"], pointer=d["pointer"], message=d["message"], line=d["line"])
             for d in diagnostics]
    return edits_for(diags, text, "json", path=str(path))


def test_edits_for_is_the_language_server_api(tmp_path: Path) -> None:
    """The function the language server calls for code actions: one action per fixable diagnostic,
    with its safety, as offsets into the buffer; applying an action's edits gives the fixed text."""
    from schemalint.editor.checking import check_paths, workspace_config
    from schemalint.fix import edits_for
    from schemalint.fix.jsontext import apply_edits

    doc = _openai({"type": "object", "properties": {"tags": {"type": "array"}, "n": {"type": "integer"}},
                   "required": ["tags", "nope"]})
    path = tmp_path / "tools.json"
    text = json.dumps(doc, indent=2) + "\n"
    path.write_text(text)
    result = check_paths([str(path)], workspace_config(tmp_path), targets=["openai"])
    codes = sorted(d.code for d in result.diagnostics)
    assert "SL309" in codes and "SL003" in codes, codes
    actions = edits_for(result.diagnostics, text, "json", path=str(path))
    by_code = {a.diagnostic.code: a for a in actions}
    assert by_code["SL309"].safe and not by_code["SL003"].safe
    assert by_code["SL309"].title.startswith("SL309: add")
    for action in actions:
        for edit in action.edits:
            assert 0 <= edit.start <= edit.end <= len(text)
        fixed = json.loads(apply_edits(text, action.edits))
        assert fixed != doc
    fixed = json.loads(apply_edits(text, by_code["SL309"].edits))
    assert fixed[0]["function"]["parameters"]["properties"]["tags"]["items"] == {}
    assert edits_for(result.diagnostics, "not json", "json", path=str(path)) == []


def test_nullable_forms() -> None:
    """SL308's nullable form: a JSON Schema type list, an anyOf branch, a wrapped $ref; none for a
    type dialect (BFCL's "float"), whose finding is SL001's (found on the corpus: the fix turned one
    dialect finding per file into one invalid type list per property)."""
    from schemalint.rules.fixes import MISSING, nullable

    assert nullable({"type": "string", "enum": ["a"]}) == {"type": ["string", "null"], "enum": ["a", None]}
    assert nullable({"anyOf": [{"type": "string"}]}) == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert nullable({"$ref": "#/$defs/A"}) == {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}
    assert nullable({"type": ["string", "null"]}) == {"type": ["string", "null"]}
    assert nullable({"type": "float"}) is MISSING and nullable({"type": ["dict"]}) is MISSING
    assert nullable({"description": "untyped"}) is MISSING


def test_fix_refuses_standard_input() -> None:
    """``-`` is a private temporary copy: fixing it would change nothing the user has, so it is refused."""
    proc = cli("check", "-", "--fix", input="[]", timeout=120)
    assert proc.returncode == 2 and "standard input" in proc.stderr, proc.stderr


def test_an_object_whose_branches_declare_properties_is_not_closed(tmp_path: Path) -> None:
    """``additionalProperties: false`` beside a ``oneOf`` whose branches declare properties would
    refuse every call the branches allow (it sees only sibling ``properties``): SL307 offers no fix
    there (the branches themselves may be closed: each declares its properties)."""
    import jsonschema

    schema = {"type": "object", "properties": {"change": {"type": "object", "oneOf": [
        {"properties": {"id": {"type": "string"}}, "required": ["id"]},
        {"properties": {"name": {"type": "string"}}, "required": ["name"]}]}},
        "required": ["change"], "additionalProperties": False}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_openai(schema), indent=2) + "\n")
    before = path.read_bytes()
    proc = cli("check", str(path), "--target", "openai-strict", "--fix", "--unsafe-fixes", "--select", "SL307")
    assert "SL307" in proc.stdout, proc.stdout + proc.stderr
    after = json.loads(path.read_text())
    fixed = after[0]["function"]["parameters"]
    assert "additionalProperties" not in fixed["properties"]["change"]
    jsonschema.validate({"change": {"id": "x"}}, fixed)  # calls the branches allow still pass
    jsonschema.validate({"change": {"name": "y"}}, fixed)
    assert json.loads(before)[0]["function"]["parameters"]["properties"]["change"] == {
        **fixed["properties"]["change"], "oneOf": schema["properties"]["change"]["oneOf"]}
    # and the finding left does not advise the edit the fix declines
    hints = [d["hint"] for d in json.loads(cli("check", str(path), "--target", "openai-strict", "--select", "SL307",
                                               "--format", "json", "--fail-on", "never").stdout)["diagnostics"]
             if d["pointer"].endswith("/properties/change")]
    assert hints and all("do not close this object" in h and "`oneOf` declares" in h for h in hints), hints


def test_code_action_titles_name_their_node(tmp_path: Path) -> None:
    """Two fixes of one rule in one file never share a title (each names its tool and schema node),
    and SL308's title lists at most three property names: a code action is one short line."""
    from schemalint.editor.checking import check_paths, workspace_config
    from schemalint.fix import edits_for

    props = {f"p{i}": {"type": "string", "default": f"v{i}"} for i in range(6)}
    doc = _openai({"type": "object", "properties": props, "required": [], "additionalProperties": False})
    path = tmp_path / "tools.json"
    text = json.dumps(doc, indent=2) + "\n"
    path.write_text(text)
    result = check_paths([str(path)], workspace_config(tmp_path), targets=["openai-strict"])
    actions = edits_for(result.diagnostics, text, "json", path=str(path), targets=_spec("openai-strict"))
    titles = [a.title for a in actions]
    assert len([t for t in titles if t.startswith("SL311")]) == 6, titles
    assert len(set(titles)) == len(titles), titles
    assert any("/properties/p3/default" in t and "`find_pets`" in t for t in titles), titles
    sl308 = next(t for t in titles if t.startswith("SL308"))
    assert "`p0`, `p1`, `p2` and 3 more" in sl308 and "`p5`" not in sl308, sl308


def _spec(target: str) -> Any:
    from schemalint.targets import parse_targets

    return parse_targets([f"={target}"])


def test_a_removed_default_moves_into_the_description(tmp_path: Path) -> None:
    """SL311's safe fix keeps what the default said: ``Default: <value>.`` ends the description (and
    a default the description already states is not repeated), so the description rules see no new
    mismatch and SL201 reads the value as a value. A default too long to restate is only removed,
    and that is unsafe."""
    props = {"mode": {"type": "string", "default": "fast_scan",
                      "description": "The scan mode. Use 'fast_scan' to skip hashing"},
             "limit": {"type": "integer", "default": 10, "description": "Items per page, default 10."},
             "blob": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"],
                      "additionalProperties": False, "default": {"k": "x" * 100}}}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_openai({"type": "object", "properties": props, "required": list(props),
                                        "additionalProperties": False}), indent=2) + "\n")
    before = _codes(path, "--target", "=openai-strict")
    assert before.count("SL311") == 3 and "SL201" not in before and "SL203" not in before, before
    proc = cli("check", str(path), "--target", "=openai-strict", "--fix", "--fail-on", "never")
    assert "1 diagnostic(s) have only an unsafe fix" in proc.stderr, proc.stderr
    fixed = json.loads(path.read_text())[0]["function"]["parameters"]["properties"]
    assert fixed["mode"]["description"] == 'The scan mode. Use \'fast_scan\' to skip hashing. Default: "fast_scan".'
    assert fixed["limit"]["description"] == "Items per page, default 10." and "default" not in fixed["limit"]
    assert "default" in fixed["blob"]
    assert _codes(path, "--target", "=openai-strict") == ["SL311"]
    cli("check", str(path), "--target", "=openai-strict", "--fix", "--unsafe-fixes", "--fail-on", "never")
    assert "default" not in json.loads(path.read_text())[0]["function"]["parameters"]["properties"]["blob"]
    assert _codes(path, "--target", "=openai-strict") == []


ONE_OF_CASES: list[tuple[list[Any], bool]] = [
    ([{"type": "string"}, {"type": "integer"}], True),
    ([{"type": "integer"}, {"type": "number"}], False),
    ([{"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "string"}}, "required": ["kind", "x"]},
      {"type": "object", "properties": {"kind": {"enum": ["b", "c"]}}, "required": ["kind"]}], True),
    ([{"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}, "required": ["kind"]},
      {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}], False),
    ([{"type": "object", "properties": {"x": {"type": "string"}}},
      {"type": "object", "properties": {"y": {"type": "string"}}}], False),
]
"""(branches, no value can match two of them): the ``oneOf`` -> ``anyOf`` rewrite is safe exactly then."""


@pytest.mark.parametrize(("branches", "safe"), ONE_OF_CASES)
def test_one_of_becomes_any_of(tmp_path: Path, branches: list[Any], safe: bool) -> None:
    """SL311 rewrites ``oneOf`` as ``anyOf`` with the same branches: safe when no value can match two
    branches (different types, a discriminator with disjoint values), unsafe otherwise. The values
    that both accept are the same in the safe cases (checked with jsonschema on sample values)."""
    import jsonschema

    schema = {"type": "object", "properties": {"v": {"oneOf": branches}}, "required": ["v"],
              "additionalProperties": False}
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_openai(schema), indent=2) + "\n")
    cli("check", str(path), "--target", "=openai-strict", "--fix", "--select", "SL311", "--fail-on", "never")
    after = json.loads(path.read_text())[0]["function"]["parameters"]["properties"]["v"]
    assert ("anyOf" in after) == safe and ("oneOf" in after) != safe, after
    cli("check", str(path), "--target", "=openai-strict", "--fix", "--unsafe-fixes", "--select", "SL311",
            "--fail-on", "never")
    after = json.loads(path.read_text())[0]["function"]["parameters"]["properties"]["v"]
    assert after == {"anyOf": branches}
    if safe:
        samples = ["s", 1, 1.5, {"kind": "a", "x": "s"}, {"kind": "b"}, {"kind": "c"}, {"kind": "a"}, None]
        for value in samples:
            one = jsonschema.Draft202012Validator({"oneOf": branches}).is_valid(value)
            anyof = jsonschema.Draft202012Validator({"anyOf": branches}).is_valid(value)
            assert one == anyof, value


def test_reported_time_is_the_whole_fix_run(tmp_path: Path) -> None:
    """The time ``check --fix`` reports is the run's, every round included (it read 0.00 s, the time
    of the last in-memory re-check)."""
    import re
    import time

    path = tmp_path / "tools.json"
    tools = _openai({"type": "object", "properties": {"tags": {"type": "array"}}}) * 400
    for i, tool in enumerate(tools):
        tool["function"]["name"] = f"tool_{i}"
    path.write_text(json.dumps(tools, indent=2))
    started = time.perf_counter()
    proc = cli("check", str(path), "--target", "=openai", "--fix")
    wall = time.perf_counter() - started
    reported = re.search(r" in ([0-9.]+) s", proc.stdout)
    assert reported is not None, proc.stdout
    # the run's own time is most of the call's (the last re-check alone was a small part of it)
    assert float(reported.group(1)) >= 0.5 * wall, (reported.group(0), wall)


def test_gemini_fixes_never_write_an_object_without_properties(tmp_path: Path) -> None:
    """Gemini refuses an OBJECT without properties (SL306) as it refuses what SL313/SL314 report, so
    no fix writes one: a map's `additionalProperties` stays, `object` is not added beside a union of
    objects, and a `oneOf` whose branches share no type is not made an `anyOf` SL314 would report.
    Shapes from MCP servers (a nullable map, a string-or-object label, a list of object variants)."""
    obj = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"],
           "additionalProperties": False}
    props = {
        "mapping": {"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}],
                    "default": None},
        "labels": {"type": "array", "items": {"oneOf": [{"type": "string"}, obj]}},
        "comments": {"type": "array", "items": {"anyOf": [obj, {**obj, "properties": {"line": {"type": "integer"}}}]}},
        "count": {"type": ["integer", "null"]},
    }
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_mcp({"type": "object", "properties": props}), indent=2) + "\n")
    before = _codes(path, "--target", "=gemini")
    assert "SL314" in before and "SL313" in before, before
    cli("check", str(path), "--target", "=gemini", "--fix", "--unsafe-fixes", "--fail-on", "never")
    after = _codes(path, "--target", "=gemini")
    fixed = json.loads(path.read_text())[0]["inputSchema"]["properties"]
    assert after.count("SL306") <= before.count("SL306"), (before, after)
    assert after.count("SL314") <= before.count("SL314") and "oneOf" in fixed["labels"]["items"]
    assert fixed["count"] == {"type": "integer", "nullable": True}
    assert "additionalProperties" in fixed["mapping"]["anyOf"][0] and "type" not in fixed["comments"]["items"]


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf", "allOf"])
def test_no_empty_properties_beside_branches_that_declare_them(tmp_path: Path, keyword: str) -> None:
    """SL306 writes ``"properties": {}`` on an object without properties (safe), never beside a
    union or ``allOf`` whose branches declare the properties (nor a branch that is a ``$ref``): an
    empty ``properties`` there says the object takes no argument. The finding stays, and its hint
    says what to do instead; an object in the same file without branches is fixed."""
    branches = [{"properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"anyOf": [{"properties": {"b": {"type": "integer"}}}]}]
    doc = [*_openai({"type": "object", keyword: branches}, "pick"),
           *_openai({"type": "object", keyword: [{"$ref": "#/$defs/A"}], "$defs": {"A": {"type": "object"}}}, "ref"),
           *_openai({"type": "object", keyword: [{"required": ["a"]}]}, "bare"),
           *_openai({"type": "object"}, "ping")]
    path = tmp_path / "tools.json"
    before = json.dumps(doc, indent=2) + "\n"
    path.write_text(before)
    proc = cli("check", str(path), "--target", "openai", "--fix", "--select", "SL306", "--format", "json",
               "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    after = json.loads(path.read_text())
    assert [("properties" in t["function"]["parameters"]) for t in after] == [False, False, True, True]
    assert after[3]["function"]["parameters"]["properties"] == {} == after[2]["function"]["parameters"]["properties"]
    _kept_lines(before, path.read_text())
    left = json.loads(proc.stdout)["diagnostics"]
    assert sorted(d["tool"] for d in left) == ["pick", "ref"]
    assert all("declare the properties its branches declare" in d["hint"] for d in left), left
    again = path.read_text()
    cli("check", str(path), "--target", "openai", "--fix", "--select", "SL306", "--fail-on", "never")
    assert path.read_text() == again


@pytest.mark.parametrize(("branches", "safe"), ONE_OF_CASES)
def test_ollama_one_of_becomes_the_any_of_it_keeps(tmp_path: Path, branches: list[Any], safe: bool) -> None:
    """SL324: Ollama's ToolProperty keeps ``anyOf`` and drops ``oneOf``, so a property's ``oneOf`` is
    rewritten as ``anyOf`` (safe with disjoint branches, unsafe otherwise, as for SL311); a ``oneOf``
    at the root of the parameters is left (Ollama keeps no union there), and so is the file's other
    text, byte for byte; a second run changes nothing and the re-check has no SL324 for the property."""
    schema = {"type": "object", "properties": {"v": {"oneOf": branches}}, "required": ["v"],
              "oneOf": [{"required": ["v"]}, {"required": ["w"]}]}
    path = tmp_path / "tools.json"
    before = json.dumps(_openai(schema), indent=2) + "\n"
    path.write_text(before)
    args = ("check", str(path), "--target", "ollama", "--select", "SL324", "--fail-on", "never", "--format", "json")
    cli(*args, "--fix")
    fixed = json.loads(path.read_text())[0]["function"]["parameters"]
    assert ("anyOf" in fixed["properties"]["v"]) == safe, fixed
    cli(*args, "--fix", "--unsafe-fixes")
    after = path.read_text()
    fixed = json.loads(after)[0]["function"]["parameters"]
    assert list(fixed["properties"]["v"]) == ["anyOf"]  # a branch's `const` is dropped too (unsafe, Ollama drops it)
    assert len(fixed["properties"]["v"]["anyOf"]) == len(branches)
    assert fixed["oneOf"] == schema["oneOf"]
    _kept_lines(before, after)
    left = json.loads(cli(*args).stdout)["diagnostics"]
    assert [d["pointer"] for d in left] == ["/0/function/parameters/oneOf"]
    cli(*args, "--fix", "--unsafe-fixes")
    assert path.read_text() == after


@pytest.mark.parametrize(("description", "meaning"), [
    ("The due date. Pass null to clear it; omit to keep it.", "Pass null to clear it"),
    ("Maximum number of results; null means no limit.", "null means no limit"),
    ("Timeout in seconds. Use None to wait forever.", "Use None to wait forever"),
    ("If null, every status is listed.", "If null, every status is listed"),
    ("Path to a client certificate, or 'null' for none.", "Path to a client certificate, or 'null' for none"),
    ("Maximum number of results. Default null (all results).", None),
    ("Pass null or omit to use the server's default.", None),
    ("The district, or 'null' if not specified.", None),
    ("Rows to skip. Removes rows with null values first.", None),
    ("How many; none of them by default.", None),
])
def test_require_all_keeps_what_null_means(tmp_path: Path, description: str, meaning: str | None) -> None:
    """SL308's fix makes an optional property required and nullable, so the runtime must read null as
    "not given". When the property's description gives null another meaning ("pass null to clear",
    "null means no limit"), that would change what null does: the object is left byte for byte and the
    finding's hint quotes the words and says why. A description that says null is the default or
    stands for "not given" (and the English "none") is no such meaning: the object is fixed."""
    schema = {"type": "object", "properties": {
        "id": {"type": "string"}, "limit": {"type": ["integer", "null"], "description": description},
        "tag": {"type": "string"}}, "required": ["id"], "additionalProperties": False}
    path = tmp_path / "tools.json"
    before = json.dumps(_openai(schema), indent=2) + "\n"
    path.write_text(before)
    args = ("check", str(path), "--target", "openai-strict", "--select", "SL308", "--format", "json",
            "--fail-on", "never")
    proc = cli(*args, "--fix", "--unsafe-fixes")
    left = json.loads(proc.stdout)["diagnostics"]
    if meaning is None:
        fixed = json.loads(path.read_text())[0]["function"]["parameters"]
        assert fixed["required"] == ["id", "limit", "tag"] and fixed["properties"]["tag"]["type"] == ["string", "null"]
        assert left == []
        return
    assert path.read_text() == before
    assert [d["code"] for d in left] == ["SL308"]
    assert f'gives null a meaning of its own ("{meaning}")' in left[0]["hint"], left[0]["hint"]
    assert "'not given'" in left[0]["hint"]


COMPACT_LAYOUT = """\
[
{i}{{
{i}{i}"type": "function",
{i}{i}"function": {{
{i}{i}{i}"name": "search",
{i}{i}{i}"description": "Search the catalog.",
{i}{i}{i}"strict": true,
{i}{i}{i}"parameters": {{
{i}{i}{i}{i}"type": "object",
{i}{i}{i}{i}"properties": {{
{i}{i}{i}{i}{i}"query": {{"type": "string", "description": "What to look for."}},
{i}{i}{i}{i}{i}"limit": {{"type": ["integer", "null"], "description": "How many."}}
{i}{i}{i}{i}}},
{i}{i}{i}{i}"additionalProperties": false
{i}{i}{i}}}
{i}{i}}}
{i}}}
]
"""


@pytest.mark.parametrize("unit", ["  ", "    ", "\t"])
def test_a_new_value_follows_the_files_own_layout(tmp_path: Path, unit: str) -> None:
    """A file that writes short arrays and leaf objects on one line gets the `required` array the
    SL308 fix adds on one line too, indented with the file's unit; a file that spreads every
    container (json.dumps indent) gets it spread, as before."""
    path = tmp_path / "compact.json"
    text = COMPACT_LAYOUT.format(i=unit)
    path.write_text(text)
    proc = cli("check", str(path), "--target", "openai-strict", "--unsafe-fixes")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    after = path.read_text()
    assert f'{unit * 4}"additionalProperties": false,\n{unit * 4}"required": ["query", "limit"]\n' in after, after
    assert '"query": {"type": ["string", "null"], "description": "What to look for."},' in after
    assert after.count("\n") == text.count("\n") + 1

    spread = tmp_path / "spread.json"
    spread.write_text(json.dumps(json.loads(text), indent=len(unit) if unit != "\t" else "\t") + "\n")
    proc = cli("check", str(spread), "--target", "openai-strict", "--unsafe-fixes")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert spread.read_text() == json.dumps(json.loads(spread.read_text()), indent=len(unit) if unit != "\t"
                                            else "\t") + "\n"
    assert json.loads(spread.read_text())[0]["function"]["parameters"]["required"] == ["query", "limit"]
