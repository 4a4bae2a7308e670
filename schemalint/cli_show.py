"""``schemalint show TOOL [SOURCES...]``: the advertised schema next to the runtime's."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from schemalint.cli import app, fail
from schemalint.cli_options import ConfigOption, PythonPathOption


@app.command()
def show(
    tool: Annotated[str, typer.Argument(help="Name of the tool to show.")],
    sources: Annotated[
        list[str] | None,
        typer.Argument(help="Where to look (default: `sources` from [tool.schemalint]).", show_default=False),
    ] = None,
    output_format: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
    python_path: PythonPathOption = None,
    config: ConfigOption = None,
) -> None:
    """Show a tool's advertised schema and runtime input schema side by side (both as draft-07),
    with differing lines marked, and a table of required keys per instance path:
    advertised / runtime input / runtime output / probed.

    Example: schemalint show present_answer examples/zod/contracts.json
    """
    from schemalint.api import SourceError, load
    from schemalint.config import ConfigError, load_config, resolve_sources
    from schemalint.show import build_view, find_tools_named, render_text

    if output_format not in ("text", "json"):
        raise fail(f"unknown --format {output_format!r}; choose text or json")
    try:
        cfg = load_config(config)
        srcs = list(sources or []) or resolve_sources(cfg)
        if not srcs:
            raise fail("no sources given and none configured in [tool.schemalint] `sources`")
        loaded = load(srcs, exclude=cfg.exclude, python_path=cfg.import_roots(python_path))
    except (ConfigError, SourceError) as exc:
        raise fail(str(exc)) from None
    matches = find_tools_named(loaded.tools, tool)
    if not matches:
        names = sorted({t.name for t in loaded.tools})
        import difflib

        close = difflib.get_close_matches(tool, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise fail(f"no tool named {tool!r} in {', '.join(srcs)} ({len(names)} tools){hint}")
    from schemalint.diff.render import MAX_RENDER_DEPTH, nesting_depth

    for t in matches:  # to_draft7, json and rich recurse per level: refuse what would overflow
        parts = [t.advertised] + ([t.runtime.input, t.runtime.output] if t.runtime else [])
        if any(nesting_depth(p, MAX_RENDER_DEPTH) > MAX_RENDER_DEPTH for p in parts):
            raise fail(f"tool {t.name!r} ({t.origin.file}): its schema nests more than "
                       f"{MAX_RENDER_DEPTH:,} levels deep; it is not shown")
    views = [build_view(t) for t in matches]
    if output_format == "json":
        payload = [v.to_json() for v in views]
        json.dump(payload[0] if len(payload) == 1 else payload, sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
        return
    for i, view in enumerate(views):
        if i:
            typer.echo()
        render_text(view, sys.stdout)
