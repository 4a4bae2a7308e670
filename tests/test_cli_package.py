"""The front door (issue 14): the CLI package's lazy command table, the shared checks, and the
command API the CLI calls (schemalint.api_commands), used here without the CLI."""

from __future__ import annotations

import importlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from schemalint.report import DIFF_FORMATS, VIEW_FORMATS, CheckFormat
from tests.conftest import ROOT, cli

EXAMPLES = ROOT / "examples"


def test_every_command_in_the_table_resolves_to_a_function() -> None:
    from schemalint.cli import COMMANDS

    assert list(COMMANDS) == ["check", "diff", "probe", "replay", "rules", "rule", "show", "snapshot", "server", "mcp"]
    for name, target in COMMANDS.items():
        module, _, func = target.partition(":")
        assert callable(getattr(importlib.import_module(module), func)), name


@pytest.mark.parametrize("name", ["check", "rules", "show"])
def test_running_a_command_imports_only_its_own_module(name: str) -> None:
    code = ("import sys\nfrom schemalint.cli import main\n"
            f"sys.argv = ['schemalint', {name!r}, '--help']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print('CLI', *sorted(m for m in sys.modules if m.startswith('schemalint.cli.')), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    line = [x for x in proc.stderr.splitlines() if x.startswith("CLI")][-1]
    own = "rules" if name == "rules" else name
    assert line.split()[1:] == ["schemalint.cli._common", f"schemalint.cli.{own}"], proc.stderr[-2000:]


# the choices are the report module's lists (a new format is named there only); `rules` has its own
@pytest.mark.parametrize(("command", "choices"), [
    (["check", "examples"], "|".join(get_args(CheckFormat))),
    (["diff", "a", "b"], "|".join(DIFF_FORMATS)),
    (["show", "x"], "|".join(VIEW_FORMATS)),
    (["probe", "x:"], "|".join(VIEW_FORMATS)),
    (["rules"], "text|markdown|json"),
    (["replay", "examples/traffic"], "|".join(get_args(CheckFormat))),
])
def test_format_is_a_choice_shown_in_help_and_refused_by_typer(command: list[str], choices: str) -> None:
    help_text = cli(command[0], "--help").stdout
    assert f"<{choices}>" in help_text
    refused = cli(*command, "--format", "xml")
    assert refused.returncode == 2 and "'xml' is not one of" in refused.stderr
    assert all(f"'{c}'" in refused.stderr for c in choices.split("|"))
    assert not refused.stdout


@pytest.mark.parametrize("command", [["check", "examples"], ["diff", "a", "b"], ["probe", "x:"],
                                     ["replay", "examples/traffic"]])
def test_unknown_fail_on_level_is_refused_the_same_way(command: list[str]) -> None:
    proc = cli(*command, "--fail-on", "fatal")
    assert proc.returncode == 2
    assert proc.stderr.startswith("schemalint: error: unknown --fail-on 'fatal'; choose from ")


@pytest.mark.parametrize("command", [["check"], ["show", "x"], ["snapshot", "--dir", "snaps"],
                                     ["diff", "--base", "HEAD"]])
def test_no_sources_is_one_message_for_every_command(command: list[str], tmp_path: Path) -> None:
    config = tmp_path / "schemalint.toml"
    config.write_text("[tool.schemalint]\n", encoding="utf-8")
    proc = cli(*command, "--config", str(config), cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    message = "schemalint: error: no sources given and none configured in [tool.schemalint] `sources`"
    if command[0] == "diff":  # what the schemalint-diff hook prints in a project without `sources`
        assert proc.stderr.startswith(message + "; name them after --base HEAD"), proc.stderr
        assert "the schemalint-diff pre-commit hook reads them from there" in proc.stderr
    else:
        assert proc.stderr == message + "\n"


def test_probe_tools_without_the_cli() -> None:
    from schemalint.api_commands import probe_tools

    result = probe_tools(["shop_tools:"], python_path=[str(EXAMPLES / "pydantic")], max_examples=5)
    assert result.rows and result.probed == sum(1 for r in result.rows if r.omission is not None)
    doc = result.to_json()
    assert doc["summary"]["tools"] == len(result.rows) and doc["summary"]["probed"] == result.probed
    assert {d.code for d in result.diagnostics} <= {"SL000", "SL107"}
    assert any(d.code == "SL107" for d in result.diagnostics)  # the examples hold faulty models
    out = io.StringIO()
    from schemalint.report.json_report import render_probe

    render_probe(result, out)
    assert json.loads(out.getvalue()) == json.loads(json.dumps(doc, default=repr))


def test_command_api_imports_no_cli() -> None:
    code = ("import sys, schemalint.api_commands, schemalint.report.text, schemalint.report.github\n"
            "print('CLI', *sorted(m for m in sys.modules if m.startswith('schemalint.cli')))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.stdout.split() == ["CLI"], proc.stdout + proc.stderr


def test_diff_tools_chooses_the_sides(tmp_path: Path) -> None:
    from schemalint.api_commands import diff_tools
    from schemalint.commands.diff_compare import DiffError
    from schemalint.config import load_config

    cfg = load_config(start=tmp_path)
    old = str(EXAMPLES / "openai" / "strict_tools.json")
    same = diff_tools([old, old], cfg=cfg)
    assert same.old_label == old and not same.fails("bytes")
    with pytest.raises(DiffError, match="give OLD and NEW"):
        diff_tools([old], cfg=cfg)
    with pytest.raises(DiffError, match="with --mcp-stdio give only OLD"):
        diff_tools([old, old], cfg=cfg, mcp_stdio=["python server.py"])
    with pytest.raises(DiffError, match="no sources given"):
        diff_tools([], cfg=cfg, base="HEAD")


def test_snapshot_api_writes_checks_and_refuses_a_source_inside(tmp_path: Path) -> None:
    from schemalint.api_commands import snapshot, snapshot_directory
    from schemalint.commands.diff_compare import DiffError
    from schemalint.config import load_config

    cfg = load_config(start=tmp_path)
    with pytest.raises(DiffError, match="no snapshot directory"):
        snapshot_directory(cfg, None)
    source = str(EXAMPLES / "openai" / "strict_tools.json")
    snaps = tmp_path / "snaps"
    written = snapshot([source], snaps, cfg=cfg)
    assert written.report is not None and written.report.written and not written.problems
    checked = snapshot([source], snaps, cfg=cfg, check=True)
    assert checked.report is None and checked.problems == [] and checked.plan == written.plan
    (snaps / "extra.json").write_text('{"name": "x"}', encoding="utf-8")
    with pytest.raises(DiffError, match="holds the source"):
        snapshot([str(snaps)], snaps, cfg=cfg)
