"""Configuration files in real temporary projects: discovery, validation, selection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ci_rules import TEST_RULES, openai_tool

from schemalint.api import check
from schemalint.config import ConfigError, load_config
from schemalint.engine.selection import enabled_codes
from schemalint.model import Severity
from tests.conftest import cli


def make_project(tmp_path: Path, pyproject: str, *, name: str = "pyproject.toml") -> Path:
    (tmp_path / name).write_text(pyproject)
    (tmp_path / "tools").mkdir(exist_ok=True)
    props = {"query": {"type": "string"}, "limit": {"type": "integer", "description": "max"}}
    (tmp_path / "tools" / "ok.json").write_text(json.dumps([openai_tool("search", props)], indent=2))
    return tmp_path


def load(tmp_path: Path, text: str, name: str = "pyproject.toml"):
    make_project(tmp_path, text, name=name)
    return load_config(start=tmp_path, rules=TEST_RULES)


def config_error(tmp_path: Path, text: str, name: str = "pyproject.toml") -> str:
    with pytest.raises(ConfigError) as info:
        load(tmp_path, text, name)
    return str(info.value)


# ----------------------------------------------------------------- discovery


def test_found_walking_up_and_relative_sources(tmp_path: Path) -> None:
    make_project(tmp_path, '[project]\nname = "x"\n[tool.schemalint]\nsources = ["tools"]\n')
    (tmp_path / "tools" / "bad.json").write_text('{"tools": [')
    sub = tmp_path / "deep" / "er"
    sub.mkdir(parents=True)
    proc = cli("check", "--format", "json", cwd=sub)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["files"] == 2
    unreadable = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert len(unreadable) == 1 and unreadable[0]["file"].endswith("tools/bad.json")


def test_pyproject_without_table_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\n')
    inner = tmp_path / "pkg"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "inner"\n')
    cfg = load_config(start=inner)
    assert cfg.path == tmp_path / "pyproject.toml"
    assert cfg.root == tmp_path.resolve()


def test_schemalint_toml_wins_and_explicit_config_overrides(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\ntarget = ["gemini"]\n')
    (tmp_path / "schemalint.toml").write_text('target = ["openai-strict"]\n')
    assert load_config(start=tmp_path).target == ["openai-strict"]
    other = tmp_path / "ci.toml"
    other.write_text('[tool.schemalint]\ntarget = ["mcp"]\n')
    assert load_config(other).target == ["mcp"]


def test_explicit_missing_config_exits_2(tmp_path: Path) -> None:
    proc = cli("check", "--config", "nope.toml", "x.json", cwd=tmp_path)
    assert proc.returncode == 2
    assert "nope.toml" in proc.stderr and "Traceback" not in proc.stderr


# ----------------------------------------------------------------- validation errors (exit 2)


@pytest.mark.parametrize(
    ("body", "needles"),
    [
        ('srcs = ["tools"]', ["tool.schemalint.srcs", "unknown key", "did you mean `sources`"]),
        ('python_path = ["src"]', ["tool.schemalint.python_path", "did you mean `python-path`"]),
        ("sources = 3", ["tool.schemalint.sources", "list of strings"]),
        ('fail-on = "sometimes"', ["tool.schemalint.fail-on", "error, warning, info, never"]),
        ('select = ["SL0", "SL9999"]', ["tool.schemalint.select", "SL9999", "no rule code"]),
        ('ignore = ["undescribed-proprety"]',
         ["tool.schemalint.ignore", "did you mean `undescribed-property`"]),
        ('[tool.schemalint.severity]\nSL990 = "fatal"', ["tool.schemalint.severity.SL990", "fatal"]),
        ('[tool.schemalint.severity]\nXX1 = "info"',
         ["tool.schemalint.severity.XX1", "unknown rule selector"]),
        ('[tool.schemalint.options.SL990]\nmin_lenght = 3', ["options.SL990.min_lenght", "min_length"]),
        ('[tool.schemalint.options.SL990]\nmin_length = "3"', ["options.SL990.min_length", "an integer"]),
        ('[tool.schemalint.options.SL990]\nmin_length = true', ["options.SL990.min_length", "an integer"]),
        ('[tool.schemalint.options.SL990]\nskip = [1]', ["options.SL990.skip", "a list of strings"]),
        ('[tool.schemalint.options.SL991]\nx = 1', ["options.SL991.x", "has no option", "none"]),
        ('[tool.schemalint.options.SL123]\nx = 1', ["options.SL123", "unknown rule"]),
        ('[[tool.schemalint.per-tool-ignores]]\ntools = ["a"]\nrules = ["SL990"]',
         ["per-tool-ignores[0].reason", "reason"]),
        ('[[tool.schemalint.per-tool-ignores]]\ntools = ["a"]\nrules = ["SL990"]\nreason = "  "',
         ["per-tool-ignores[0].reason"]),
        ('[[tool.schemalint.per-tool-ignores]]\nrules = ["SL990"]\nreason = "r"',
         ["per-tool-ignores[0].tools"]),
        ('[[tool.schemalint.per-file-ignores]]\nfiles = ["x"]\nreason = "r"', ["per-file-ignores[0].rules"]),
        ('[[tool.schemalint.per-file-ignores]]\nfiles = ["x"]\nrules = ["SL99"]\nreason = "r"\nwhy = 1',
         ["per-file-ignores[0].why", "unknown key"]),
        ('[[tool.schemalint.per-file-ignores]]\nfiles = ["x"]\nrules = ["SL7"]\nreason = "r"',
         ["per-file-ignores[0].rules", "SL7"]),
    ],
)
def test_bad_values_name_file_and_key(tmp_path: Path, body: str, needles: list[str]) -> None:
    message = config_error(tmp_path, "[tool.schemalint]\n" + body + "\n")
    assert str(tmp_path / "pyproject.toml") in message
    for needle in needles:
        assert needle in message, message


def test_schemalint_toml_keys_are_top_level(tmp_path: Path) -> None:
    message = config_error(tmp_path, 'sources = ["tools"]\nbogus = 1\n', name="schemalint.toml")
    assert "`bogus`" in message and "schemalint.toml" in message


def test_invalid_toml_and_cli_exit_2(tmp_path: Path) -> None:
    make_project(tmp_path, "[tool.schemalint]\nsources = [\n")
    proc = cli("check", cwd=tmp_path)
    assert proc.returncode == 2
    assert "invalid TOML" in proc.stderr and "pyproject.toml" in proc.stderr


def test_cli_unknown_rule_code_in_config_exits_2(tmp_path: Path) -> None:
    make_project(tmp_path, '[tool.schemalint]\nsources = ["tools"]\nignore = ["SL0", "SL9876"]\n')
    proc = cli("check", cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout
    assert "tool.schemalint.ignore" in proc.stderr and "SL9876" in proc.stderr
    assert str(tmp_path / "pyproject.toml") in proc.stderr
    assert "Traceback" not in proc.stderr
    make_project(tmp_path, '[tool.schemalint]\nsources = ["tools"]\n')
    proc = cli("check", "tools", "--select", "SL8", cwd=tmp_path)
    assert proc.returncode == 2 and "--select" in proc.stderr


def test_cli_config_values_are_used(tmp_path: Path) -> None:
    # `select` keeps the outcome independent of the other rule families.
    make_project(tmp_path, '[tool.schemalint]\nsources = ["tools"]\nselect = ["SL000"]\nfail-on = "never"\n')
    (tmp_path / "tools" / "bad.json").write_text("[")
    proc = cli("check", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"]["by_code"] == {"SL000": 1}
    assert cli("check", "--fail-on", "error", cwd=tmp_path).returncode == 1
    make_project(tmp_path, '[tool.schemalint]\nsources = ["tools"]\nselect = ["SL000"]\n'
                 'ignore = ["unreadable-source"]\n')
    proc = cli("check", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["diagnostics"] == []
    proc = cli("check", "--format", "json", "--select", "SL000", cwd=tmp_path)
    assert proc.returncode == 1, "--select replaces the configured selection, ignore included"
    proc = cli("check", "--format", "json", "--extend-select", "SL000", cwd=tmp_path)
    assert proc.returncode == 1, "--extend-select re-enables a configured ignore"
    make_project(tmp_path, '[tool.schemalint]\nsources = ["tools"]\nselect = ["SL000"]\n')
    assert cli("check", cwd=tmp_path).returncode == 1
    assert cli("check", "--ignore", "SL0", cwd=tmp_path).returncode == 0


# ----------------------------------------------------------------- selection semantics


@pytest.mark.parametrize(
    ("select", "extend", "ignore", "expected"),
    [
        (None, [], [], {"SL000", "SL990", "SL991"}),
        (["SL99"], [], [], {"SL990", "SL991"}),
        (["SL99"], [], ["SL991"], {"SL990"}),
        (["SL991"], [], ["SL99"], {"SL991"}),  # the longer selector wins
        (["SL99"], [], ["SL99"], set()),  # ties go to ignore
        (["ALL"], [], ["open-object"], {"SL000", "SL990"}),
        (["SL000"], ["undescribed-property"], [], {"SL000", "SL990"}),
        (["sl9"], [], ["SL"], {"SL990", "SL991"}),  # case-insensitive codes
    ],
)
def test_longest_match_wins(select, extend, ignore, expected) -> None:
    assert set(enabled_codes(TEST_RULES, select, extend, ignore)) == expected


def tools_dir(tmp_path: Path) -> Path:
    (tmp_path / "tools" / "legacy").mkdir(parents=True)
    (tmp_path / "tools" / "a.json").write_text(json.dumps([
        openai_tool("search", {"query": {"type": "string"}, "id": {"type": "string"}}),
        openai_tool("present_answer", {"artifact": {"type": "string"}, "presentation": {"type": "object"}}),
    ], indent=2))
    (tmp_path / "tools" / "legacy" / "old.json").write_text(json.dumps([
        openai_tool("old_tool", {"x": {"type": "string"}}),
    ], indent=2))
    return tmp_path


def run(tmp_path: Path, toml: str, **kwargs):
    (tmp_path / "pyproject.toml").write_text("[tool.schemalint]\n" + toml)
    cfg = load_config(start=tmp_path, rules=TEST_RULES)
    return check([str(tmp_path / "tools")], config=cfg, rules=TEST_RULES, **kwargs)


def test_severity_override_and_options(tmp_path: Path) -> None:
    tools_dir(tmp_path)
    plain = run(tmp_path, "")
    assert {(d.tool, d.instance_path) for d in plain.diagnostics} == {
        ("search", "/query"), ("present_answer", "/artifact"), ("present_answer", "/presentation"),
        ("old_tool", "/x")}
    assert {d.severity for d in plain.diagnostics} == {Severity.WARNING}
    graded = run(tmp_path, '[tool.schemalint.severity]\nSL9 = "info"\nundescribed-property = "error"\n')
    assert {d.severity for d in graded.diagnostics} == {Severity.ERROR}, "the rule name beats the prefix"
    opts = run(tmp_path, '[tool.schemalint.options.undescribed-property]\nskip = ["id", "query", "x"]\n')
    assert {d.instance_path for d in opts.diagnostics} == {"/artifact", "/presentation"}
    targeted = run(tmp_path, "", targets=["openai-strict"])
    assert {d.code for d in targeted.diagnostics} == {"SL990", "SL991"}


def test_per_tool_and_per_file_ignores(tmp_path: Path) -> None:
    tools_dir(tmp_path)
    result = run(tmp_path, """
[[tool.schemalint.per-tool-ignores]]
tools = ["present_*"]
rules = ["undescribed-property"]
reason = "runtime accepts both since #412"

[[tool.schemalint.per-file-ignores]]
files = ["tools/legacy"]
rules = ["ALL"]
reason = "frozen legacy definitions"

[[tool.schemalint.per-tool-ignores]]
tools = ["search"]
files = ["elsewhere/*.json"]
rules = ["SL990"]
reason = "only elsewhere"
""")
    assert [(d.tool, d.instance_path) for d in result.diagnostics] == [("search", "/query")]
    assert result.suppressed == 3
    assert len(result.unused_suppressions) == 1 and "per-tool-ignores[1]" in result.unused_suppressions[0]
    assert any("per-tool-ignores[1]" in n and "matched no finding" in n for n in result.notes)


def test_snapshot_dir_is_accepted_without_importing_the_cli(tmp_path: Path) -> None:
    """The Python API's ``load_config`` accepts ``snapshot-dir`` in a fresh interpreter that never
    imported ``schemalint.cli`` (the key used to be registered by the CLI module at import)."""
    import subprocess
    import sys

    (tmp_path / "schemalint.toml").write_text('sources = ["tools"]\nsnapshot-dir = "tool-snapshots"\n')
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from schemalint.config import load_config\n"
        f"cfg = load_config(Path({str(tmp_path / 'schemalint.toml')!r}))\n"
        "assert not any(m == 'schemalint.cli' or m.startswith('schemalint.cli.') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('schemalint.cli'))\n"
        "print(cfg.raw['snapshot-dir'])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "tool-snapshots"
