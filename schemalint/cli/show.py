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
    config_or_fail,
    fail,
    format_option,
    read_what,
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

    A tool read from --mcp-stdio or --mcp-url has the advertised side only.
    """
    from schemalint.api import SourceError, load
    from schemalint.config import ConfigError
    from schemalint.report import get_reporter
    from schemalint.show import build_view, find_tools_named

    cfg = config_or_fail(config)
    srcs, servers = read_what(sources, mcp_stdio, mcp_url, mcp_header, cfg)
    try:
        loaded = load(srcs, exclude=cfg.exclude, python_path=cfg.import_roots(python_path), **servers.load_kwargs())
    except (ConfigError, SourceError) as exc:
        raise fail(str(exc)) from None
    matches = find_tools_named(loaded.tools, tool)
    if not matches:
        names = sorted({t.name for t in loaded.tools})
        import difflib

        close = difflib.get_close_matches(tool, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise fail(f"no tool named {tool!r} in {', '.join([*srcs, *servers.names()])} ({len(names)} tools){hint}")
    from schemalint.diff.render import MAX_RENDER_DEPTH, nesting_depth

    for t in matches:  # to_draft7, json and rich recurse per level: refuse what would overflow
        parts = [t.advertised] + ([t.runtime.input, t.runtime.output] if t.runtime else [])
        if any(nesting_depth(p, MAX_RENDER_DEPTH) > MAX_RENDER_DEPTH for p in parts):
            raise fail(f"tool {t.name!r} ({t.origin.file}): its schema nests more than "
                       f"{MAX_RENDER_DEPTH:,} levels deep; it is not shown")
    get_reporter(output_format, "render_shows")([build_view(t) for t in matches], sys.stdout)
