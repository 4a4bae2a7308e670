"""Command-line interface (typer). Thin: parse options, call :mod:`schemalint.api`, report.

Exit codes (DESIGN.md): 0 nothing at or above ``--fail-on``; 1 diagnostics at or
above it; 2 usage or configuration error, missing path, failed import.
Heavy modules are imported inside the commands so that start-up stays fast.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from schemalint import __version__

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
    typer.echo(f"schemalint: error: {message}", err=True)
    return typer.Exit(EXIT_USAGE)


def _split_csv(values: list[str] | None) -> list[str]:
    out: list[str] = []
    for v in values or []:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return out


FAIL_LEVELS = ("error", "warning", "info", "never")


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
        str, typer.Option("--format", "-f", help="Report format: text or json.")
    ] = "text",
    fail_on: Annotated[
        str, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                          "error, warning, info or never.")
    ] = "error",
    target: Annotated[
        list[str] | None,
        typer.Option("--target", "-t", help="Provider profile(s) to check against, comma-separated "
                     "(openai, openai-strict, anthropic, anthropic-strict, gemini, gemini-json, mcp, "
                     "bedrock, ollama, all). Adds to the targets inferred from each tool's format; "
                     "prefix with = to replace them (--target =openai)."),
    ] = None,
    exclude: Annotated[
        list[str] | None, typer.Option("--exclude", help="Glob of paths to skip (repeatable).")
    ] = None,
    select: Annotated[
        list[str] | None, typer.Option("--select", help="Only these rule codes, names or code prefixes.")
    ] = None,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="Treat every schema as this dialect "
                                 "(draft-07, 2019-09, 2020-12) instead of reading $schema.")
    ] = None,
    python_path: Annotated[
        list[str] | None, typer.Option("--python-path", help="Extra import root for module:attr sources.")
    ] = None,
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
    config: Annotated[
        Path | None, typer.Option("--config", help="Configuration file (default: nearest "
                                  "schemalint.toml or pyproject.toml with [tool.schemalint]).")
    ] = None,
) -> None:
    """Lint tool definitions and report diagnostics.

    Examples:

      schemalint check                      # sources from [tool.schemalint]

      schemalint check tools/ --format json

      schemalint check openai_tools.json --target openai-strict --fail-on warning

      schemalint check --mcp-stdio "python server.py"
    """
    from schemalint.api import SourceError
    from schemalint.api import check as run_check
    from schemalint.config import ConfigError, load_config, resolve_sources
    from schemalint.report import REPORTERS, write_report

    if output_format not in REPORTERS:
        raise fail(f"unknown --format {output_format!r}; choose from {', '.join(REPORTERS)}")
    if fail_on not in FAIL_LEVELS:
        raise fail(f"unknown --fail-on {fail_on!r}; choose from {', '.join(FAIL_LEVELS)}")
    try:
        cfg = load_config(config)
    except ConfigError as exc:
        raise fail(str(exc)) from None
    srcs = list(sources or []) or ([] if mcp_stdio else resolve_sources(cfg))
    if not srcs and not mcp_stdio:
        raise fail("no sources given and none configured in [tool.schemalint] `sources`")
    from schemalint.targets import TargetError, parse_targets

    targets = _split_csv(target) or cfg.target
    try:
        parse_targets(targets)
    except TargetError as exc:
        raise fail(str(exc)) from None
    try:
        result = run_check(
            srcs,
            exclude=[*cfg.exclude, *(exclude or [])],
            targets=targets,
            dialect=dialect,
            python_path=python_path or [],
            select=_split_csv(select) or None,
            mcp_stdio=mcp_stdio or [],
            previous=previous or (),
        )
    except SourceError as exc:
        raise fail(str(exc)) from None
    if result.tools == 0 and not result.diagnostics:
        result.notes.append("no tool definitions found in " + ", ".join([*srcs, *(mcp_stdio or [])]))
    write_report(output_format, result, sys.stdout)
    worst = result.worst()
    if fail_on != "never" and worst is not None:
        from schemalint.model import Severity

        if worst.rank >= Severity.parse(fail_on).rank:
            raise typer.Exit(EXIT_FINDINGS)


def main() -> None:
    """Console-script entry point."""
    app()


# Each command lives in its own module; importing it registers it on `app`.
from schemalint import cli_diff, cli_probe, cli_show, cli_snapshot  # noqa: E402,F401
