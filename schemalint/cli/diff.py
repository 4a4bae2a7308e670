"""``schemalint diff``: compare tool definitions between two revisions. See docs/diff.md."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from schemalint.cli import EXIT_FINDINGS, app, fail
from schemalint.cli_options import (
    ConfigOption,
    ExcludeOption,
    ExtendSelectOption,
    IgnoreOption,
    PythonPathOption,
    SelectOption,
    exit_now,
    split_csv,
)


@app.command()
def diff(
    paths: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="OLD NEW | [SOURCES...]",
            help="Without --base: OLD and NEW, each a file, a directory of tool files or "
            "snapshots, or REV:PATH (read with git). With --base: the sources to compare "
            "(default: `sources` from [tool.schemalint]).",
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
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="Report format: text, json or github.")
    ] = "text",
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
    mcp_stdio: Annotated[
        list[str] | None,
        typer.Option("--mcp-stdio", help="NEW side: the tools this MCP server command lists over stdio "
                     "(quoted, repeatable; needs schemalint[mcp]); give only OLD (e.g. the approved snapshots)."),
    ] = None,
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

    Each change is a diff check (SDxxx, `schemalint rules`); --select/--ignore and the
    configuration's select, ignore, severity and per-file/per-tool ignores apply to them.

    Exit codes: 0 nothing at or above --fail-on, 1 changes at or above it, 2 error.
    """
    from schemalint.diff.compare import DiffError, compare_tools
    from schemalint.diff.report import FORMATS, render
    from schemalint.diff.result import FAIL_LEVELS
    from schemalint.diff.sources import ParsedFiles, load_base, load_side, load_worktree

    if output_format not in FORMATS:
        raise fail(f"unknown --format {output_format!r}; choose from {', '.join(FORMATS)}")
    if fail_on not in FAIL_LEVELS:
        raise fail(f"unknown --fail-on {fail_on!r}; choose from {', '.join(FAIL_LEVELS)}")
    from schemalint.config import ConfigError, load_config, resolve_sources
    from schemalint.diff.selection import diff_filter

    try:
        cfg = load_config(config)
        selection = diff_filter(
            cfg, select=split_csv(select) or None, extend_select=split_csv(extend_select), ignore=split_csv(ignore)
        )
    except ConfigError as exc:
        raise fail(str(exc)) from None
    args = list(paths or [])
    notes: list[str] = []
    reuse = ParsedFiles()  # the second side parses only the files that differ from the first
    roots = cfg.import_roots(python_path)
    try:
        if mcp_stdio:
            if base is not None or len(args) != 1:
                raise fail("with --mcp-stdio give only OLD (a file, directory or REV:PATH), not --base or NEW")
            from schemalint.api import load
            from schemalint.loaders.sources import SourceError

            old = load_side(args[0], python_path=roots, reuse=reuse)
            try:
                new = load([], mcp_stdio=mcp_stdio).tools
            except SourceError as exc:
                raise fail(str(exc)) from None
            old_label, new_label = args[0], " + ".join(f"mcp-stdio {c!r}" for c in mcp_stdio)
        elif base is None:
            if len(args) != 2:
                raise fail("give OLD and NEW (files, directories or REV:PATH), or --base REV [SOURCES...]")
            old_label, new_label = args
            old = load_side(args[0], python_path=roots, reuse=reuse)
            new = load_side(args[1], python_path=roots, reuse=reuse)
        else:
            srcs = args or resolve_sources(cfg)
            if not srcs:
                raise fail("no sources given and none configured in [tool.schemalint] `sources`")
            excl = [*cfg.exclude, *(exclude or [])]
            old = load_base(base, srcs, exclude=excl, python_path=roots, notes=notes, reuse=reuse)
            new = load_worktree(srcs, exclude=excl, python_path=roots, reuse=reuse)
            old_label, new_label = base, "working tree"
        del reuse  # the bytes of the first side's files
        result = compare_tools(old, new, old_label=old_label, new_label=new_label, selection=selection)
    except DiffError as exc:
        raise fail(str(exc)) from None
    result.notes.extend(notes)
    if not old and not new:
        result.notes.append("no tool definitions found on either side")
    render(result, output_format, sys.stdout)
    code = EXIT_FINDINGS if result.fails(fail_on) else 0
    exit_now(code)
    if code:
        raise typer.Exit(code)
