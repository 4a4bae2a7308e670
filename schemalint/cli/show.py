"""``schemalint show TOOL [SOURCES...]``: the advertised schema next to the runtime's."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from schemalint.cli._common import (
    SOURCES_HELP,
    ConfigOption,
    McpHeaderOption,
    McpStdioOption,
    McpUrlOption,
    PythonPathOption,
    call_api,
    config_or_fail,
    format_option,
    mcp_headers,
    sources_argument,
)
from schemalint.report import ViewFormat


def show(
    tool: Annotated[str, typer.Argument(help="Name of the tool to show.")],
    sources: Annotated[
        list[str] | None, sources_argument(f"Where to look. {SOURCES_HELP} Default: `sources` from "
                                           "[tool.schemalint].")
    ] = None,
    output_format: Annotated[ViewFormat, format_option("Output format.")] = "text",
    python_path: PythonPathOption = None,
    mcp_stdio: McpStdioOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    config: ConfigOption = None,
) -> None:
    """Show a tool's advertised schema and runtime input schema side by side (both as draft-07),
    with differing lines marked, and a table of required keys per instance path:
    advertised / runtime input / runtime output / probed.

    Examples:

      schemalint show present_answer examples/zod/contracts.json

      schemalint show present_answer --mcp-stdio "python examples/mcp_server/server.py"

    A tool read from --mcp-stdio or --mcp-url has the advertised side only. A keyword draft-07
    spells otherwise ($defs, prefixItems, dependentRequired) is shown in draft-07's spelling
    with a note above the panel naming what the tool sends.
    """
    from schemalint.api_commands import ShowRequest, run_show
    from schemalint.report import get_reporter

    views = call_api(run_show, ShowRequest(
        tool, sources=tuple(sources or ()), python_path=tuple(python_path or ()), mcp_stdio=tuple(mcp_stdio or ()),
        mcp_url=tuple(mcp_url or ()), mcp_headers=mcp_headers(mcp_header), config=config_or_fail(config)))
    get_reporter(output_format, "render_shows")(views, sys.stdout)
