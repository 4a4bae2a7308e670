"""``schemalint server`` (the language server) and ``schemalint mcp`` (the MCP server for coding
agents): both speak over standard input and output and run until their client closes them
(docs/editors.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from schemalint.cli._common import fail


def server() -> None:
    """Run the language server (LSP over stdio) for editors.

    Tool files (JSON, YAML, JSON Lines, .snap) are checked as they are edited; the configured
    Python and TypeScript sources when a source file is saved. docs/editors.md has the set-up
    for VS Code, Neovim, Helix and Zed.

    Needs the `editor` extra: pip install 'schemalint[editor]'.
    """
    try:
        from schemalint.editor.lsp import serve
    except ImportError as exc:
        raise fail(f"schemalint server needs the `editor` extra (pygls): pip install 'schemalint[editor]' ({exc})") \
            from None
    serve()


def mcp(
    root: Annotated[
        Path | None,
        typer.Option("--root", help="The workspace the server answers for (default: the working directory). "
                                    "Paths outside it are refused.", file_okay=False, exists=True),
    ] = None,
) -> None:
    """Run schemalint as an MCP server (stdio) for coding agents.

    Tools: check, diff, show, rule, rules; each with typed input and output schemas. Only paths
    inside the workspace are read; modules and servers run only when the workspace configuration
    names them (docs/security.md).

    Needs the `mcp` extra: pip install 'schemalint[mcp]'.
    """
    try:
        from schemalint.editor.agent import serve
    except ImportError as exc:
        raise fail(f"schemalint mcp needs the `mcp` extra: pip install 'schemalint[mcp]' ({exc})") from None
    serve(root or Path.cwd())
