"""``schemalint probe``: call each tool's runtime validator with calls its advertised schema admits.

Runs the omission probes and the generated probes of :mod:`schemalint.probe` for every
tool whose runtime contract has a callable validator (pydantic models and functions)
(:func:`schemalint.api_commands.probe_tools`), prints per-tool results with timings, and
reports SL107 diagnostics. Exit codes: 0 nothing refused, 1 a refusal, crash or timeout,
2 usage/import error.

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
    check_level,
    config_or_fail,
    fail,
    fails_at,
    format_option,
    mcp_servers,
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
    """
    from schemalint.api import SourceError
    from schemalint.api_commands import probe_tools
    from schemalint.config import FAIL_LEVELS, ConfigError
    from schemalint.report import get_reporter

    check_level(fail_on, FAIL_LEVELS)
    cfg = config_or_fail(None)
    servers = mcp_servers(mcp_stdio, mcp_url, mcp_header, cfg, configured=False)
    if not sources and not servers:
        raise fail("give the module:attr Python sources (or files) to probe")
    if not sources:
        raise fail(_nothing_to_probe(servers.stdio, servers.names()[len(servers.stdio):]))
    if max_examples:
        _require_generator()
    try:
        result = probe_tools(sources, python_path=cfg.import_roots(python_path), time_limit=time_limit,
                             max_examples=max_examples, exclude=[*cfg.exclude, *(exclude or [])],
                             run_budget=run_budget, **servers.load_kwargs())
    except (SourceError, ConfigError) as exc:
        raise fail(str(exc)) from None
    if servers:
        n = sum(1 for row in result.rows if row.file.startswith(("mcp-stdio:", "mcp-url:")))
        typer.echo(f"schemalint: note: {n} tool(s) listed by {', '.join(servers.labels())} not probed: an MCP "
                   "server over stdio or HTTP shows its advertised side only", err=True)
    get_reporter(output_format, "render_probe")(result, sys.stdout)
    if fails_at(result.diagnostics, fail_on):
        raise typer.Exit(EXIT_FINDINGS)


def _require_generator() -> None:
    """Exit 2 when generated probes cannot run (hypothesis or hypothesis-jsonschema missing):
    a probe that could not run is not a pass, for any source kind (the generator is Python
    whichever runtime answers the calls, Node's zod included)."""
    import importlib.util

    missing = [m for m in ("hypothesis", "hypothesis_jsonschema") if importlib.util.find_spec(m) is None]
    if missing:
        from schemalint.distribution import extra_install_line

        raise fail(f"generated probes need {' and '.join(m.replace('_', '-') for m in missing)}, which this "
                   f"installation of schemalint lacks (for every source kind: the calls are generated here, "
                   f"whatever runtime answers them); install them with: {extra_install_line('pydantic')}; "
                   "or run the omission probes only with --max-examples 0")


def _nothing_to_probe(commands: list[str], urls: list[str]) -> str:
    """The one-line error of a probe given only MCP servers over a transport: what is missing, and
    the ``module:attr`` source to give instead when a command runs a Python file or module."""
    given = [*(f"--mcp-stdio {c!r}" for c in commands), *(f"--mcp-url {u!r}" for u in urls)]
    suggestions = [m for m in map(_python_module_of, commands) if m]
    instead = (f"; to probe it, give the server object as a module:attr source: schemalint probe {suggestions[0]}:"
               if suggestions else "; to probe a Python server, give its server object as a module:attr source "
               "(schemalint probe myapp.server:mcp)")
    return (f"nothing to probe: {', '.join(given)} shows the advertised side only (an MCP server over stdio or "
            f"HTTP has no runtime validator schemalint can call without calling its tools){instead}")


def _python_module_of(command: str) -> str | None:
    """The module a ``python FILE.py`` / ``python -m MODULE`` command runs, as importable from the working
    directory (``examples.mcp_server.server``), or ``None``."""
    import os
    import re
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if len(argv) < 2 or not re.fullmatch(r"python[0-9.]*(\.exe)?", os.path.basename(argv[0])):
        return None
    if argv[1] == "-m" and len(argv) > 2:
        module = argv[2]
    elif argv[1].endswith(".py") and os.path.isfile(argv[1]):
        relative = os.path.relpath(os.path.abspath(argv[1][:-3]))
        module = relative.replace(os.sep, ".")
    else:
        return None
    return module if all(part.isidentifier() for part in module.split(".")) else None
