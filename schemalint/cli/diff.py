"""``schemalint diff``: compare tool definitions between two revisions. See docs/diff.md."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from schemalint.cli._common import (
    EXIT_FINDINGS,
    EXIT_OK,
    MODULE_SOURCES_HELP,
    ConfigOption,
    ExcludeOption,
    ExtendSelectOption,
    IgnoreOption,
    McpHeaderOption,
    PythonPathOption,
    SelectOption,
    call_api,
    config_or_fail,
    finish,
    format_option,
    mcp_headers,
    mcp_stdio_option,
    mcp_url_option,
    split_csv,
)
from schemalint.report import DiffFormat


def diff(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="OLD NEW | [SOURCES...]",
            help="Without --base: OLD and NEW, each a file, a directory of tool files or "
            f"snapshots, a glob, REV:PATH (read with git), or {MODULE_SOURCES_HELP}; REV:file.ts:EXPORT too. "
            "With --base: the sources to compare (default: `sources` from [tool.schemalint]).",
            show_default=False,
        ),
    ] = None,
    base: Annotated[
        str | None,
        typer.Option(
            "--base",
            help="Compare the sources at this git revision with the "
            "working tree (uncommitted changes included).",
        ),
    ] = None,
    output_format: Annotated[DiffFormat, format_option("Report format.")] = "text",
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            help="Exit 1 when there is a change at this level: breaking "
            "(a call valid before may be refused), meaning (any change of meaning), bytes "
            "(any byte the model sees), or never.",
        ),
    ] = "breaking",
    select: SelectOption = None,
    extend_select: ExtendSelectOption = None,
    ignore: IgnoreOption = None,
    target: Annotated[
        list[str] | None,
        typer.Option("--target", "-t", help="Provider profile(s) the tools are sent to, as for check (default: "
                     "`target` from [tool.schemalint]). For a tool sent to a strict one (openai-strict, "
                     "anthropic-strict), an object that declares properties closed with `additionalProperties: "
                     "false` is SD213 (compatible), not SD106: strict decoding sends only declared keys."),
    ] = None,
    mcp_stdio: Annotated[
        list[str] | None,
        mcp_stdio_option("NEW side: the tools this MCP server command lists over stdio (quoted, repeatable; "
                         "needs schemalint[mcp]); give only OLD (e.g. the approved snapshots). Default with "
                         "only OLD: `mcp-stdio` and `mcp-url` from [tool.schemalint]."),
    ] = None,
    mcp_url: Annotated[
        list[str] | None,
        mcp_url_option("NEW side: the tools the MCP server at this http(s) URL lists over Streamable HTTP "
                       "(repeatable, with --mcp-stdio too; needs schemalint[mcp]); give only OLD."),
    ] = None,
    mcp_header: McpHeaderOption = None,
    exclude: ExcludeOption = None,
    python_path: PythonPathOption = None,
    config: ConfigOption = None,
) -> None:
    """Diff tool definitions: identical bytes, same meaning, or changed (every change classified).

    Examples:

      schemalint diff old_tools.json new_tools.json

      schemalint diff HEAD~1:tools/ tools/ --format json

      schemalint diff --base origin/main --fail-on breaking

      schemalint diff snapshots/ --mcp-stdio "npx some-server" --select SD401

      schemalint diff snapshots/ --mcp-url https://example.com/mcp --select SD401

    Each change is a diff check (SDxxx, `schemalint rules`); --select/--ignore and the
    configuration's select, ignore, severity and per-file/per-tool ignores apply to them.

    Exit codes: 0 nothing at or above --fail-on, 1 changes at or above it, 2 error.
    """
    from schemalint.api_commands import DiffRequest, run_diff
    from schemalint.report import write_diff_report

    run = call_api(run_diff, DiffRequest(
        paths=tuple(paths or ()), base=base, fail_on=fail_on, select=tuple(split_csv(select)) or None,
        extend_select=tuple(split_csv(extend_select)), ignore=tuple(split_csv(ignore)),
        mcp_stdio=tuple(mcp_stdio or ()), mcp_url=tuple(mcp_url or ()), mcp_headers=mcp_headers(mcp_header),
        exclude=tuple(exclude or ()), python_path=tuple(python_path or ()), targets=tuple(split_csv(target)),
        config=config_or_fail(config)))
    if run.result is None:
        sys.stdout.write(f"{run.message}\n")
    else:
        write_diff_report(output_format, run.result, sys.stdout)
    finish(EXIT_FINDINGS if run.fails else EXIT_OK)
