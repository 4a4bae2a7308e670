"""Start-up guards (issue 9): what `schemalint check` on one small file imports and builds.

Start-up time is a budget (`benchmarks/run.py`: check on one small file <= 1.3x a bare typer
no-op CLI). Timing it in a test would be flaky, so these tests assert its causes instead, from
a real subprocess: the modules `python -X importtime -m schemalint ...` reports, and the
commands typer turns into click commands before it parses anything.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SMALL = "examples/mcp/get_me.snap"  # one MCP tool, JSON

# Heavy libraries no `check` of a JSON file needs: the other commands', the optional
# frameworks', the YAML parser, jsonschema's pure-Python validator and its registries.
HEAVY = ("deepdiff", "hypothesis", "hypothesis_jsonschema", "mcp", "fastmcp", "agents", "openai",
         "langchain_core", "jsonschema", "referencing", "jsonschema_specifications", "rich", "yaml")
# schemalint modules that only other commands, other formats or other sources use.
OWN_LAZY = ("schemalint.diff", "schemalint.probe", "schemalint.show", "schemalint.rule_docs",
            "schemalint.loaders.python.python_source", "schemalint.loaders.python.mcp_server",
            "schemalint.loaders.python.pydantic_models", "schemalint.loaders.python.openai_agents",
            "schemalint.loaders.python.langchain_tools", "schemalint.report.json_report",
            "schemalint.report.sarif", "schemalint.report.github", "schemalint.schema.draft7",
            "schemalint.report.jsonl", "schemalint.engine.stream", "schemalint.rules.facts",
            "schemalint.fix")  # --fix, --unsafe-fixes and --diff only


RUN = ("import atexit, runpy, sys\n"
       "atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr))\n"
       "sys.argv = ['schemalint', *sys.argv[1:]]\n"
       "runpy.run_module('schemalint', run_name='__main__', alter_sys=True)\n")


def importtime_modules(*args: str) -> set[str]:
    """Every module ``python -X importtime -m schemalint *args`` imports (run from the repo root).

    ``-X importtime`` does not see modules loaded with ``importlib.import_module`` (reporters,
    ``module:attr`` sources), so the modules left in ``sys.modules`` at exit are added.
    """
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", RUN, *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    lines = proc.stderr.splitlines()
    names = {line.rsplit("|", 1)[1].strip() for line in lines
             if line.startswith("import time:") and line.count("|") == 2}
    names.update(next(line for line in reversed(lines) if line.startswith("MODULES ")).split()[1:])
    assert "schemalint.cli" in names, proc.stderr[-2000:]
    return names


def tops(names: set[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


def typer_noop_imports() -> set[str]:
    """Top-level packages a bare typer no-op CLI imports (typer >= 0.16 brings pydantic)."""
    code = ("import sys, typer\napp = typer.Typer()\n@app.command()\ndef main() -> None:\n    pass\n"
            "try:\n    app([])\nexcept SystemExit:\n    pass\n"
            "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    return set(proc.stdout.split())


def under(names: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {n for n in names if any(n == p or n.startswith(p + ".") for p in prefixes)}


def test_check_of_one_json_file_imports_no_heavy_library() -> None:
    names = importtime_modules("check", SMALL)
    assert "schemalint.api" in names and "schemalint.report.text" in names  # it did run the check
    forbidden = set(HEAVY) - typer_noop_imports()
    assert not (tops(names) & forbidden), sorted(tops(names) & forbidden)
    # pydantic only ever comes from typer itself
    if "pydantic" not in typer_noop_imports():
        assert "pydantic" not in tops(names)
    assert not under(names, OWN_LAZY), sorted(under(names, OWN_LAZY))


def test_check_imports_only_the_rules_that_can_report() -> None:
    """Lazy rule loading: the MCP file's check imports the target-free rules and the rules of the
    ``mcp`` profile, not other profiles' provider rules, and (no runtime contract) no contract rule
    nor the contract helpers (``schema.shapes``), nor the traffic rules."""
    from schemalint.rules.catalog import CATALOG

    names = importtime_modules("check", SMALL)
    loaded = {n for n in names if n.startswith("schemalint.rules.") and ".sl" in n}
    expected = {e.path.split(":")[0] for e in CATALOG
                if not e.runtime and not e.traffic and (not e.targets or "mcp" in e.targets)}
    assert loaded == expected
    assert not under(names, ("schemalint.rules.traffic",))  # the SL4xx rules run only in replay
    assert "schemalint.rules.provider.sl311_openai_strict_unsupported_keyword" not in names
    assert not under(names, ("schemalint.rules.contract", "schemalint.schema.shapes"))
    # another profile brings its rules; a runtime contract brings the contract rules
    names = importtime_modules("check", SMALL, "examples/zod/contracts.json", "--target", "gemini",
                               "--fail-on", "never")
    assert "schemalint.rules.provider.sl313_gemini_unsupported_keyword" in names
    assert "schemalint.rules.contract.sl101_required_drift" in names
    assert "schemalint.rules.provider.sl311_openai_strict_unsupported_keyword" not in names


def test_sarif_describes_every_rule() -> None:
    """SARIF lists every rule's metadata, so that check imports every rule module."""
    from schemalint.rules.catalog import CATALOG

    names = importtime_modules("check", SMALL, "--format", "sarif")
    assert {e.path.split(":")[0] for e in CATALOG} <= names


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_check_imports_only_the_reporter_it_uses(fmt: str) -> None:
    names = importtime_modules("check", SMALL, "--format", fmt, "--fail-on", "never")
    reporters = {"schemalint.report.text", "schemalint.report.json_report", "schemalint.report.sarif",
                 "schemalint.report.github"}
    used = "schemalint.report.json_report" if fmt == "json" else "schemalint.report.sarif"
    assert names & reporters == {used}


def test_version_imports_neither_rules_nor_loaders() -> None:
    names = importtime_modules("--version")
    assert not under(names, ("schemalint.api", "schemalint.rules", "schemalint.loaders", "schemalint.report.text"))
    assert not (tops(names) & (set(HEAVY) | {"pydantic", "orjson", "jsonschema_rs", "tomllib"}))


BUILT = (
    "import sys\n"
    "import typer.main\n"
    "built = []\n"
    "real = typer.main.get_command_from_info\n"
    "def spy(*args, **kw):\n"
    "    cmd = real(*args, **kw)\n"
    "    built.append(cmd.name)\n"
    "    return cmd\n"
    "typer.main.get_command_from_info = spy\n"
    "from schemalint.cli import main\n"
    "sys.argv = ['schemalint', *sys.argv[1:]]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('BUILT', ' '.join(built), file=sys.stderr)\n"
)


def built_commands(*args: str) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """The commands typer builds for ``schemalint *args`` (through :func:`schemalint.cli.main`)."""
    proc = subprocess.run([sys.executable, "-c", BUILT, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    line = [x for x in proc.stderr.splitlines() if x.startswith("BUILT")][-1]
    return line.split()[1:], proc


ALL_COMMANDS = {"check", "diff", "probe", "replay", "rules", "rule", "show", "snapshot"}


def test_check_builds_only_the_check_command() -> None:
    built, proc = built_commands("check", SMALL, "--fail-on", "error")
    assert built == ["check"]
    assert proc.returncode == 0 and "1 file(s), 1 tool(s)" in proc.stdout


@pytest.mark.parametrize("args", [("check", SMALL), ("check", "--scan", "--", SMALL)])
def test_the_hooks_check_builds_no_command_and_imports_no_pydantic(args: tuple[str, ...]) -> None:
    """``check`` with only file names (and ``--scan``), the pre-commit hooks' command line, is run
    without typer's parsing (:func:`schemalint.cli._plain_check`): no click command is built and
    pydantic, which typer imports to convert parameters, is not imported; with one more option
    (``--fail-on error``, the default) typer parses and pydantic comes with it."""
    built, proc = built_commands(*args)
    assert built == []
    assert proc.returncode == 0 and "1 file(s), 1 tool(s)" in proc.stdout
    assert "pydantic" not in tops(importtime_modules(*args))
    if "pydantic" in typer_noop_imports():
        assert "pydantic" in tops(importtime_modules(args[0], "--fail-on", "error", *args[1:]))


def untimed(text: str) -> str:
    """``text`` without the run's duration (``in 0.08 s`` of the text report's summary line)."""
    return re.sub(r" in [0-9.]+ s\b", " in _ s", text)


def test_the_hooks_check_reports_as_typer_does(tmp_path: Path) -> None:
    """The command lines :func:`schemalint.cli._plain_check` runs without typer give what typer's
    parsing of the same line gives (``--fail-on`` at its default makes typer parse it): exit code,
    standard output and error, on findings, a clean file, a file that holds no tool (``--scan``
    skips it), a missing file, file names after ``--`` that look like options, and no file at all
    (``sources`` from the configuration)."""
    from tests.conftest import cli

    (tmp_path / "bad.json").write_text(json.dumps({"tools": [{"name": "get weather", "description": "x",
                                                              "parameters": {"type": "object", "required": ["a"]}}]}))
    (tmp_path / "-x.json").write_text((ROOT / SMALL).read_text())
    (tmp_path / "data.json").write_text('{"rows": [1, 2]}')
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["bad.json"]\n')
    lines = [("check", "bad.json"), ("check", str(ROOT / SMALL)), ("check", "--scan", "--", "data.json", "bad.json"),
             ("check", "missing.json"), ("check", "--", "-x.json"), ("check",), ("check", "--scan"),
             ("check", "bad.json", "--scan", "data.json")]
    codes = set()
    for line in lines:
        plain = cli(*line, cwd=tmp_path)
        parsed = cli(*line[:1], "--fail-on", "error", *line[1:], cwd=tmp_path)
        assert (plain.returncode, *map(untimed, (plain.stdout, plain.stderr))) == (
            parsed.returncode, *map(untimed, (parsed.stdout, parsed.stderr))), line
        codes.add(plain.returncode)
    assert codes == {0, 1, 2}


@pytest.mark.parametrize("args", [(), ("--help",), ("--version",), ("chek",), ("--", "check")])
def test_without_a_known_command_every_command_is_built(args: tuple[str, ...]) -> None:
    built, _ = built_commands(*args)
    assert set(built) >= ALL_COMMANDS


def test_help_and_unknown_commands_still_list_every_command() -> None:
    help_out = subprocess.run([sys.executable, "-m", "schemalint", "--help"], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
    assert help_out.returncode == 0
    for name in ALL_COMMANDS:
        assert f"  {name} " in help_out.stdout, name
    typo = subprocess.run([sys.executable, "-m", "schemalint", "chek"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert typo.returncode == 2 and "No such command 'chek'" in typo.stderr and "check" in typo.stderr


@pytest.mark.parametrize("name", sorted(ALL_COMMANDS))
def test_each_command_runs_alone(name: str) -> None:
    built, proc = built_commands(name, "--help")
    assert built == [name]
    assert f"Usage: schemalint {name} " in proc.stdout


def test_main_restores_the_registered_commands() -> None:
    from schemalint import cli

    before = list(cli.app.registered_commands)
    argv = sys.argv
    sys.argv = ["schemalint", "rules", "--help"]
    try:
        with pytest.raises(SystemExit):
            cli.main()
    finally:
        sys.argv = argv
    assert cli.app.registered_commands == before


@pytest.mark.parametrize(("args", "name"), [
    (["check", "x.json"], "check"),
    (["--version"], None),
    ([], None),
    (["--help", "diff"], "diff"),
    (["--", "check"], None),
])
def test_invoked_command(args: list[str], name: str | None) -> None:
    from schemalint.cli import _invoked_command

    assert _invoked_command(args) == name


def test_check_of_one_plain_schema_does_not_load_the_native_metaschema_validator(tmp_path: Path) -> None:
    # SL001 judges a plainly valid draft-07 schema in Python (schema.dialect.plainly_valid_draft07)
    names = importtime_modules("check", SMALL)
    assert "schemalint.rules.shape.sl001_invalid_schema" in names
    assert "jsonschema_rs" not in tops(names)
    # a schema with a `pattern` (the metaschema checks its regex format) is left to the native validator
    tool = tmp_path / "tool.snap"
    tool.write_text('{"name": "t", "description": "Find it.", "inputSchema": {"type": "object", '
                    '"properties": {"q": {"type": "string", "pattern": "^a"}}}}')
    assert "jsonschema_rs" in tops(importtime_modules("check", str(tool)))
