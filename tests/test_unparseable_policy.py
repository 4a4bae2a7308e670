"""Which unparseable files get SL000 (docs/shape-rules.md, "Files that do not parse"), and JSONC."""

from __future__ import annotations

from pathlib import Path

from schemalint.api import check, load
from schemalint.loaders.files.documents import looks_like_tool_file, parse_text, strip_jsonc
from tests.conftest import cli_json

TSCONFIG = '{\n  // build settings\n  "compilerOptions": {"strict": true,},\n}\n'
CFN = "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Ref Name\n"
BROKEN_TOOL = '[{"name": "a", "inputSchema": {"type": "object",}}]\n'


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "build.json").write_text(TSCONFIG.replace("// build settings", "/* x */"))
    (tmp_path / "template.yaml").write_text(CFN)
    (tmp_path / "package-lock.json").write_text("")
    (tmp_path / "broken.json").write_text(BROKEN_TOOL)           # tool-like by content
    (tmp_path / "tools.json").write_text("{not json")            # tool-like by name
    (tmp_path / "x.snap").write_text('{"tools": [')              # schemalint snapshot name
    (tmp_path / "jest.snap").write_text("// Jest Snapshot v1\nexports[`a`] = `b`;\n")
    return tmp_path


def test_directory_scan_reports_only_tool_like_files(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    result = check([str(root)])
    sl000 = sorted(Path(d.file).name for d in result.diagnostics if d.code == "SL000")
    assert sl000 == ["broken.json", "tools.json", "x.snap"]
    assert any("4 file(s) that do not parse" in n for n in result.notes), result.notes


def test_named_source_is_always_reported_unless_scan(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    named = [str(root / "template.yaml"), str(root / "sub" / "build.json"), str(root / "package-lock.json")]
    codes = sorted((Path(d.file).name, d.severity.value) for d in check(named).diagnostics if d.code == "SL000")
    assert codes == [("build.json", "error"), ("package-lock.json", "warning"), ("template.yaml", "error")]
    assert not check(named, scan=True).diagnostics
    both = [*named, str(root / "broken.json")]
    assert [Path(d.file).name for d in check(both, scan=True).diagnostics] == ["broken.json"]


def test_hook_entry_uses_scan_and_cli_exit_codes(tmp_path: Path, repo_root: Path) -> None:
    assert "entry: schemalint check --scan" in (repo_root / ".pre-commit-hooks.yaml").read_text()
    root = _tree(tmp_path)
    code, report = cli_json("check", "--scan", str(root / "template.yaml"), str(root / "package-lock.json"))
    assert code == 0 and report["diagnostics"] == []
    code, report = cli_json("check", "--scan", str(root / "tools.json"))
    assert code == 1 and [d["code"] for d in report["diagnostics"]] == ["SL000"]


def test_looks_like_tool_file() -> None:
    assert looks_like_tool_file("a/tools.yaml", "x")
    assert looks_like_tool_file("proj/tools/weather.json", "[")
    assert not looks_like_tool_file("proj/tools/sub/tsconfig.json", "[")
    assert not looks_like_tool_file("src/Functions/Tests/Invalid.json", '{"a": 1,')
    assert looks_like_tool_file("a/weather.tools.json", "x")
    assert looks_like_tool_file("a/x.json", '{"name": "a", "parameters": {')
    assert looks_like_tool_file("a/x.yaml", "- name: a\n  inputSchema: !Ref X\n")
    assert not looks_like_tool_file("a/template.yaml", CFN.replace("Properties", "Parameters"))
    assert not looks_like_tool_file("a/tsconfig.json", TSCONFIG)
    assert not looks_like_tool_file("a/__snapshots__/x.snap", "// Jest Snapshot v1\n")


def test_jsonc_read_leniently_only_where_comments_are_allowed(tmp_path: Path) -> None:
    vscode = tmp_path / ".vscode"
    vscode.mkdir()
    mcp = vscode / "mcp.json"
    mcp.write_text('{\n  // servers\n  "servers": {"x": {"command": "a", "args": ["b",],},},\n}\n')
    assert check([str(mcp)]).diagnostics == []  # named, yet parsed: VS Code reads JSONC
    doc = parse_text(str(tmp_path / "tsconfig.json"), TSCONFIG)
    assert doc.values == [(None, {"compilerOptions": {"strict": True}})] and not doc.problems
    # a trailing comma in a tool file stays an error: providers refuse it
    assert parse_text(str(tmp_path / "tools.json"), BROKEN_TOOL).problems
    # tools inside a JSONC file are found, at unchanged line numbers
    tools_file = vscode / "tools.json"
    tools_file.write_text('// my tools\n[\n  {"name": "a", "inputSchema": {"type": "object"},},\n]\n')
    (tool,) = load([str(tools_file)]).tools
    assert tool.name == "a"


def test_strip_jsonc_keeps_strings_and_lines() -> None:
    text = '{"u": "http://a//b, ]", /* c\n */ "v": [1,],}'
    out = strip_jsonc(text)
    assert out is not None and out.count("\n") == 1 and '"http://a//b, ]"' in out
    assert strip_jsonc('{"a": 1}') is None
