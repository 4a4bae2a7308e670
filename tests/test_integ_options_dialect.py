"""Integration: rule options declared by every rule reach it from a real pyproject.toml;
``--dialect`` and the ``dialect`` key reject unknown values."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from schemalint.rules.registry import all_rules
from tests.conftest import ROOT, cli

LONG_DESCRIPTION = "Search the archive. " * 60  # 1200 characters: above OpenAI's 1024


def _project(tmp_path: Path, pyproject: str | None) -> Path:
    tools = [{"type": "function", "function": {
        "name": "search", "description": LONG_DESCRIPTION,
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}}]
    (tmp_path / "tools.json").write_text(json.dumps(tools))
    if pyproject is not None:
        (tmp_path / "pyproject.toml").write_text(pyproject)
    return tmp_path


def _codes(tmp_path: Path) -> list[str]:
    proc = cli("check", "tools.json", "--format", "json", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [d["code"] for d in json.loads(proc.stdout)["diagnostics"]]


def test_provider_limit_overridden_in_pyproject_changes_verdict(tmp_path: Path) -> None:
    for sub in "abc":
        (tmp_path / sub).mkdir()
    assert "SL302" in _codes(_project(tmp_path / "a", None))
    raised = _project(tmp_path / "b", '[tool.schemalint]\n\n[tool.schemalint.options.SL302]\nmax_length = 2048\n')
    assert "SL302" not in _codes(raised)
    by_name = _project(tmp_path / "c",
                       '[tool.schemalint]\n\n[tool.schemalint.options.description-too-long]\nmax_length = 100\n')
    assert "SL302" in _codes(by_name)


def test_tool_count_limit_from_config(tmp_path: Path) -> None:
    tools = [{"type": "function", "function": {"name": f"t{i}", "description": "Does one thing well.",
                                               "parameters": {"type": "object", "properties": {}}}}
             for i in range(5)]
    (tmp_path / "tools.json").write_text(json.dumps(tools))
    assert "SL321" not in _codes(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.schemalint.options.SL321]\nopenai_max_tools = 4\n")
    assert "SL321" in _codes(tmp_path)


def test_wrong_option_type_is_a_config_error(tmp_path: Path) -> None:
    _project(tmp_path, '[tool.schemalint.options.SL302]\nmax_length = "long"\n')
    proc = cli("check", "tools.json", cwd=tmp_path)
    assert proc.returncode == 2
    assert "max_length" in proc.stderr and "integer" in proc.stderr


def _option_calls(path: Path) -> set[str]:
    """Option keys a rule module reads with ``self.option(ctx, "key")`` or ``ctx.option(...)``."""
    keys: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "option":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and not arg.value.startswith("SL"):
                    keys.add(arg.value)
    return keys


def test_every_option_a_rule_reads_is_declared() -> None:
    declared = {r.code: set(r.options) for r in all_rules()}
    for path in sorted((ROOT / "schemalint" / "rules").glob("*/sl[0-9]*.py")):
        code = "SL" + path.name[2:5]
        used = _option_calls(path)
        assert used <= declared.get(code, set()), f"{path.name} reads undeclared options {used - declared[code]}"
    assert declared["SL302"] == {"max_length"} and declared["SL006"] == {"pattern", "mcp_server_name"}


@pytest.mark.parametrize("value", ["draft-99", "latest"])
def test_unknown_dialect_exits_2_with_known_list(tmp_path: Path, value: str) -> None:
    _project(tmp_path, None)
    proc = cli("check", "tools.json", "--dialect", value, cwd=tmp_path)
    assert proc.returncode == 2
    assert value in proc.stderr and "draft-07" in proc.stderr and "2020-12" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_dialect_alias_accepted_and_config_checked(tmp_path: Path) -> None:
    _project(tmp_path, None)
    assert cli("check", "tools.json", "--dialect", "draft7", cwd=tmp_path).returncode in (0, 1)
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ndialect = "draft-3"\n')
    proc = cli("check", "tools.json", cwd=tmp_path)
    assert proc.returncode == 2 and "dialect" in proc.stderr and "draft-04" in proc.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ndialect = "draft7"\n')
    assert cli("check", "tools.json", cwd=tmp_path).returncode in (0, 1)
