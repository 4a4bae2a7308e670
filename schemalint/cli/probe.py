"""``schemalint probe``: call each tool's runtime validator with calls its advertised schema admits.

Runs the omission probes and the generated probes of :mod:`schemalint.probe` for every
tool whose runtime contract has a callable validator (pydantic models and functions)
(:func:`schemalint.api_commands.run_probe`, which also decides the exit status), prints per-tool
results with timings, and reports SL107 diagnostics. Exit codes: 0 nothing refused, 1 a refusal,
crash or timeout, 2 usage/import error.

An MCP server reached over a transport (``--mcp-stdio``, ``--mcp-url``) shows its advertised side
only: its ``tools/call`` validation cannot be reached without calling its tools. Probing only such
servers is an error (exit 2) that says so and names the ``module:attr`` source to give instead
when the command runs a Python file or module; next to other sources, their tools are listed as
not probed.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from schemalint.cli._common import (
    EXIT_FINDINGS,
    MODULE_SOURCES_HELP,
    ExcludeOption,
    McpHeaderOption,
    PythonPathOption,
    call_api,
    config_or_fail,
    format_option,
    mcp_headers,
    mcp_stdio_option,
    mcp_url_option,
)
from schemalint.report import ViewFormat


def probe(
    sources: Annotated[list[str] | None, typer.Argument(help=f"Sources to probe: {MODULE_SOURCES_HELP}, or files, "
                                                         "directories and globs (only tools with a callable validator "
                                                         "are probed).",
                                                         show_default=False)] = None,
    python_path: PythonPathOption = None,
    mcp_stdio: Annotated[list[str] | None, mcp_stdio_option(
        "An MCP server command to list over stdio (repeatable): advertised side only, nothing to probe; "
        "give a Python server as module:attr instead.")] = None,
    mcp_url: Annotated[list[str] | None, mcp_url_option(
        "An MCP server to list over Streamable HTTP (repeatable): advertised side only, nothing to probe.")] = None,
    mcp_header: McpHeaderOption = None,
    exclude: ExcludeOption = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", help="Seconds per tool and per probe kind.", min=0.05)
    ] = 2.0,
    max_examples: Annotated[
        int, typer.Option("--max-examples", help="Generated calls per tool (0: omission probes only).", min=0)
    ] = 50,
    run_budget: Annotated[
        float, typer.Option("--run-budget", help="Seconds shared by the probes of all tools (each tool gets what "
                            "is left over the tools left, at most --time-limit per probe kind); the tools it "
                            "stops are counted in the summary.", min=0.0)
    ] = 30.0,
    output_format: Annotated[ViewFormat, format_option("Output format.")] = "text",
    fail_on: Annotated[
        str, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                          "error, warning, info or never.")
    ] = "warning",
) -> None:
    """Probe runtime validators: omission probes, then generated calls (fixed seed).

    Examples:

      schemalint probe shop_tools: --python-path examples/pydantic

      schemalint probe app.tools:TOOLS --max-examples 200 --time-limit 5 --format json

    Exit codes: 0 nothing refused; 1 a refusal, crash or timeout (at or above --fail-on); 2 usage or
    import error.
    """
    from schemalint.api_commands import ProbeRequest, run_probe
    from schemalint.report import get_reporter

    run = call_api(run_probe, ProbeRequest(
        sources=tuple(sources or ()), python_path=tuple(python_path or ()), mcp_stdio=tuple(mcp_stdio or ()),
        mcp_url=tuple(mcp_url or ()), mcp_headers=mcp_headers(mcp_header), exclude=tuple(exclude or ()),
        time_limit=time_limit, max_examples=max_examples, run_budget=run_budget, fail_on=fail_on,
        config=config_or_fail(None)))
    for note in run.notes:
        typer.echo(f"schemalint: note: {note}", err=True)
    get_reporter(output_format, "render_probe")(run.result, sys.stdout)
    if run.fails:
        raise typer.Exit(EXIT_FINDINGS)
