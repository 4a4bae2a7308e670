"""``schemalint snapshot``: write (or ``--check``) one snapshot file per tool. See docs/diff.md.

The work, the summary printed and the exit decision are :func:`schemalint.api_commands.run_snapshot`'s;
this module parses options and prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from schemalint.cli._common import (
    EXIT_FINDINGS,
    EXIT_OK,
    SOURCES_HELP,
    ConfigOption,
    ExcludeOption,
    McpHeaderOption,
    McpStdioOption,
    McpUrlOption,
    PythonPathOption,
    call_api,
    config_or_fail,
    finish,
    mcp_headers,
    sources_argument,
)


def snapshot(
    sources: Annotated[list[str] | None, sources_argument(
        f"{SOURCES_HELP} Default: `sources` from [tool.schemalint].")] = None,
    directory: Annotated[
        Path | None,
        typer.Option(
            "--dir",
            help="Snapshot directory: one <tool>.json per tool. Default: "
            "`snapshot-dir` from [tool.schemalint].",
        ),
    ] = None,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Write nothing; exit 1 with a unified diff when a snapshot is "
            "stale, missing or belongs to a tool that no longer exists.",
        ),
    ] = False,
    exclude: ExcludeOption = None,
    python_path: PythonPathOption = None,
    mcp_stdio: McpStdioOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    config: ConfigOption = None,
) -> None:
    """Snapshot the definition each tool shows the model: <dir>/<tool>.json, key order kept.

    Examples:

      schemalint snapshot tools/ --dir tool-snapshots

      schemalint snapshot --check            # CI / pre-commit: fail when snapshots are stale

      schemalint snapshot --mcp-url https://example.com/mcp --dir approved   # a server you do not own

    Exit codes: 0 up to date (or written), 1 stale with --check, 2 error (nothing written).
    """
    from schemalint.api_commands import SnapshotRequest, run_snapshot

    run = call_api(run_snapshot, SnapshotRequest(
        sources=tuple(sources or ()), directory=directory, check=check, exclude=tuple(exclude or ()),
        python_path=tuple(python_path or ()), mcp_stdio=tuple(mcp_stdio or ()), mcp_url=tuple(mcp_url or ()),
        mcp_headers=mcp_headers(mcp_header), config=config_or_fail(config)))
    for note in run.notes:
        sys.stderr.write(f"schemalint: note: {note}\n")
    sys.stdout.write(run.text())
    for warning in run.warnings:
        sys.stderr.write(f"schemalint: warning: {warning}\n")
    finish(EXIT_FINDINGS if run.fails else EXIT_OK)
