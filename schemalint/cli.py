"""Command-line interface (typer). Thin: parse options, call :mod:`schemalint.api`, report.

Exit codes (DESIGN.md): 0 nothing at or above ``--fail-on``; 1 diagnostics at or
above it; 2 usage or configuration error, missing path, failed import.
Heavy modules are imported inside the commands so that start-up stays fast.
"""

import contextlib
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from schemalint import __version__
from schemalint.cli_options import ConfigOption, ExcludeOption, PythonPathOption, exit_now

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

app = typer.Typer(
    name="schemalint",
    help=(
        "Lint and diff the contracts of LLM tools.\n\n"
        "schemalint loads every tool definition it finds (OpenAI, Anthropic, Gemini, MCP, "
        "contract manifests, Python models), checks the advertised JSON schema against the "
        "runtime validator and provider limits, and diffs advertised schemas between revisions.\n\n"
        "Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage/config error."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"schemalint {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Lint and diff the contracts of LLM tools."""


def fail(message: str) -> typer.Exit:
    """Print ``schemalint: error: message`` to stderr and return the exit-2 exception to raise."""
    from schemalint.textsafe import visible_lines

    typer.echo(f"schemalint: error: {visible_lines(message)}", err=True)
    return typer.Exit(EXIT_USAGE)


def _split_csv(values: list[str] | None) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


def _report_formats() -> str:
    from schemalint.report import REPORTERS

    return ", ".join(REPORTERS)


@app.command()
def check(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files, directories, globs or module:attr Python sources. "
            "Default: `sources` from [tool.schemalint] in pyproject.toml.",
            show_default=False,
        ),
    ] = None,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help=f"Report format: {_report_formats()}.")
    ] = "text",
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                                 "error, warning, info or never. Default: `fail-on` from the "
                                 "configuration, else error.", show_default=False)
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option("--target", "-t", help="Provider profile(s) to check against, comma-separated "
                     "(openai, openai-strict, anthropic, anthropic-strict, gemini, gemini-json, mcp, "
                     "bedrock, ollama, all). Adds to the targets inferred from each tool's format; "
                     "prefix with = to replace them (--target =openai)."),
    ] = None,
    exclude: ExcludeOption = None,
    select: Annotated[
        list[str] | None, typer.Option("--select", help="Only these rule codes, names or code prefixes "
                                       "(comma-separated; replaces the configured select).")
    ] = None,
    extend_select: Annotated[
        list[str] | None, typer.Option("--extend-select", help="Also run these rules (adds to select).")
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option("--ignore", help="Skip these rule codes, names or code prefixes "
                                       "(adds to the configured ignore).")
    ] = None,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="Treat every schema as this dialect "
                                 "(draft-07, 2019-09, 2020-12) instead of reading $schema.")
    ] = None,
    python_path: PythonPathOption = None,
    mcp_stdio: Annotated[
        list[str] | None, typer.Option("--mcp-stdio", help="Start this MCP server command (quoted, e.g. "
                                       "\"python server.py\") over stdio and lint the tools it lists "
                                       "(repeatable; needs schemalint[mcp]).")
    ] = None,
    previous: Annotated[
        list[str] | None,
        typer.Option("--previous", help="File, directory or snapshot dir of an earlier revision "
                     "(repeatable); SL202 reports descriptions that still ask for a parameter it had."),
    ] = None,
    config: ConfigOption = None,
    baseline: Annotated[
        Path | None, typer.Option("--baseline", help="Hide the findings recorded in this baseline file "
                                  "(default: `baseline` from the configuration); stale entries are reported.")
    ] = None,
    no_baseline: Annotated[
        bool, typer.Option("--no-baseline", help="Ignore the configured baseline and report every finding.")
    ] = False,
    write_baseline: Annotated[
        Path | None, typer.Option("--write-baseline", help="Record today's findings in this file "
                                  "(JSON, sorted) and exit 0; use it with --baseline in CI.")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Processes for the per-tool rules. Default: 1 for "
                                 "small catalogs, every CPU above 2,000 files, 2,000 tools or 50 MB. Output is "
                                 "the same for any value.", show_default=False)
    ] = None,
    scan: Annotated[
        bool, typer.Option("--scan", help="Treat the files named as found by a directory scan (the pre-commit "
                           "hook passes changed files): one that does not parse and does not look like a tool "
                           "file is skipped without a diagnostic (docs/shape-rules.md, SL000).")
    ] = False,
    fail_rule: Annotated[
        str | None, typer.Option("--fail-rule", hidden=True, help="Testing aid: make this rule raise on every "
                                 "tool, to see an SL999 internal-error report.")
    ] = None,
) -> None:
    """Lint tool definitions and report diagnostics.

    Examples:

      schemalint check                      # sources from [tool.schemalint]

      schemalint check tools/ --format json

      schemalint check openai_tools.json --target openai-strict --fail-on warning

      schemalint check --mcp-stdio "python server.py"

      schemalint check --write-baseline schemalint-baseline.json   # adopt on a repo with findings

      schemalint check --baseline schemalint-baseline.json --format sarif > schemalint.sarif
    """
    from schemalint.api import SourceError
    from schemalint.api import check as run_check
    from schemalint.config import FAIL_LEVELS, ConfigError, load_config, resolve_sources
    from schemalint.engine.baseline import BaselineError
    from schemalint.report import REPORTERS, write_report

    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}")
    if output_format not in REPORTERS:
        raise fail(f"unknown --format {output_format!r}; choose from {', '.join(REPORTERS)}")
    if fail_on is not None and fail_on not in FAIL_LEVELS:
        raise fail(f"unknown --fail-on {fail_on!r}; choose from {', '.join(FAIL_LEVELS)}")
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        raise fail(str(exc)) from None
    fail_level = fail_on or cfg.fail_on or "error"
    srcs = list(sources or []) or ([] if mcp_stdio else resolve_sources(cfg))
    if not srcs and not mcp_stdio:
        raise fail("no sources given and none configured in [tool.schemalint] `sources`")
    from schemalint.targets import TargetError, parse_targets

    targets = _split_csv(target) or cfg.target
    try:
        parse_targets(targets)
    except TargetError as exc:
        raise fail(str(exc)) from None
    if dialect is not None:
        from schemalint.schema.dialect import DIALECTS, normalize_dialect

        chosen = normalize_dialect(dialect)
        if chosen is None:
            raise fail(f"unknown --dialect {dialect!r}; choose from {', '.join(DIALECTS)} "
                       "(aliases such as draft7 or a metaschema URI are accepted too)")
        dialect = chosen
    own_outputs: list[str] = []
    if write_baseline is not None:
        refusal = _refuse_baseline_target(write_baseline, srcs, cfg, previous or (), baseline)
        if refusal:
            raise fail(refusal)
        own_outputs.append(os.path.normpath(write_baseline))
    baseline_file: str | None = None
    if write_baseline is None and not no_baseline:
        if baseline is not None:
            baseline_file = str(baseline)
        elif cfg.baseline:
            baseline_file = cfg.resolve_path(cfg.baseline)
    if fail_rule:
        from schemalint.rules.base import FAIL_RULE_ENV

        os.environ[FAIL_RULE_ENV] = fail_rule  # read by the rule runner, here and in --jobs workers
    try:
        result = run_check(
            srcs,
            exclude=[*cfg.exclude, *(exclude or []), *_own_files(cfg, baseline_file), *own_outputs],
            targets=targets,
            mcp_stdio=mcp_stdio or [],
            previous=previous or (),
            dialect=dialect or cfg.dialect,
            python_path=cfg.import_roots(python_path),
            select=_split_csv(select) or None,
            extend_select=_split_csv(extend_select),
            ignore=_split_csv(ignore),
            config=cfg,
            baseline=baseline_file,
            jobs=jobs,
            scan=scan,
        )
    except (SourceError, ConfigError, BaselineError) as exc:
        raise fail(str(exc)) from None
    if write_baseline is not None:
        from schemalint.engine.baseline import Baseline

        recorded = Baseline.from_findings(result.diagnostics, result.fingerprints)
        try:
            recorded.write(write_baseline)
        except OSError as exc:
            raise fail(f"{write_baseline}: cannot write baseline: {exc.strerror or exc}") from None
        n = len(recorded.entries)
        typer.echo(f"schemalint: wrote {len(result.diagnostics)} finding(s) as {n} "
                   f"baseline entr{'y' if n == 1 else 'ies'} to {write_baseline}", err=True)
        return
    if result.tools == 0 and not result.diagnostics:
        result.notes.append("no tool definitions found in " + ", ".join([*srcs, *(mcp_stdio or [])]))
    write_report(output_format, result, sys.stdout)
    worst = result.worst()
    code = 0
    if fail_level != "never" and worst is not None:
        from schemalint.model import Severity

        if worst.rank >= Severity.parse(fail_level).rank:
            code = EXIT_FINDINGS
    exit_now(code)  # the result still holds the catalog: leave without freeing it
    if code:
        raise typer.Exit(code)


def _refuse_baseline_target(target: Path, sources: list[str], cfg: Any, previous: Any,
                            baseline: Path | None) -> str | None:
    """Why ``--write-baseline target`` must not be written (one line), or ``None``: it is (through
    symlinks) a source file, the configuration, a ``--previous`` or ``--baseline`` file, or an
    existing file that is not a schemalint baseline (the guard of :mod:`schemalint.safe_write`)."""
    from schemalint.engine.baseline import may_overwrite
    from schemalint.safe_write import WriteRefused, refuse_overwrite

    reads = [s for s in [*sources, *previous] if os.path.isfile(s)]
    if cfg.path is not None:
        reads.append(str(cfg.path))
    if baseline is not None:
        reads.append(str(baseline))
    try:
        refuse_overwrite(target, reads, "baseline")
    except WriteRefused as exc:
        return str(exc)
    if not may_overwrite(target):
        return (f"{target}: exists and is not a schemalint baseline; refusing to overwrite it "
                "(remove it first or choose another path)")
    return None


def _own_files(cfg: Any, baseline_file: str | None) -> list[str]:
    """schemalint's own outputs under the sources (the snapshot directory, the baseline file): they
    hold copies of tool definitions and must not be linted as a second definition of each tool."""
    own = [baseline_file] if baseline_file else []
    if isinstance(cfg.baseline, str) and cfg.baseline:
        own.append(cfg.resolve_path(cfg.baseline))
    snapshot_dir = cfg.raw.get("snapshot-dir")
    if isinstance(snapshot_dir, str) and snapshot_dir:
        own.append(cfg.resolve_path(snapshot_dir))
    return [os.path.normpath(p) for p in own]


def _invoked_command(args: list[str]) -> str | None:
    """The subcommand name in ``args`` (the words after the program name): the first word that is
    not an option, since the group's own options (--version, --help) take no value; else ``None``."""
    for arg in args:
        if arg == "--":
            return None
        if not arg.startswith("-"):
            return arg
    return None


def _tolerate_lone_surrogates() -> None:
    """Write a string that UTF-8 cannot encode (a lone surrogate such as ``"\\ud800"`` read from
    a ``\\u`` escape in a tool file) as its ``\\ud800`` escape instead of failing with
    ``UnicodeEncodeError``: in JSON and SARIF reports it stays a valid JSON escape (the output is
    valid UTF-8 JSON), in text it is readable. Other characters are written as before."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a closed or replaced stream
                reconfigure(errors="backslashreplace")


def main() -> None:
    """Console-script entry point.

    Typer turns every registered command into a click command (signature, type hints, one
    parameter object per option) before it parses anything; one process runs one command, so
    when the command line names one, only that command is built (start-up time is a budget).
    Anything else (no command, --help, --version, a misspelt name) builds all of them, so that
    help and "No such command" list every command. Raises ``SystemExit`` like any typer app; an
    ``OSError`` no command handled (the output cannot be written) ends the process with exit 2.
    """
    from typer.main import get_command_name

    name = _invoked_command(sys.argv[1:])
    registered = app.registered_commands
    chosen = [c for c in registered
              if c.callback is not None and (c.name or get_command_name(c.callback.__name__)) == name]
    if chosen:
        app.registered_commands = chosen
    _tolerate_lone_surrogates()
    try:
        app()
    except OSError as exc:  # e.g. the output cannot be written (a full disk): exit 2, not a traceback
        from schemalint.textsafe import visible_lines

        sys.stderr.write(f"schemalint: error: {visible_lines(str(exc))}\n")
        sys.stderr.flush()
        os._exit(2)  # not SystemExit: the interpreter would fail again flushing the same stdout
    finally:
        app.registered_commands = registered


# Each command lives in its own module; importing it registers it on `app`.
from schemalint import cli_diff, cli_probe, cli_rules, cli_show, cli_snapshot  # noqa: E402,F401
