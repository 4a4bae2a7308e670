"""``schemalint diff``: compare tool definitions between two revisions. See docs/diff.md."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from schemalint.cli import EXIT_FINDINGS, app, fail
from schemalint.cli_options import ConfigOption, ExcludeOption, PythonPathOption, exit_now


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
    exclude: ExcludeOption = None,
    python_path: PythonPathOption = None,
    config: ConfigOption = None,
) -> None:
    """Diff tool definitions: identical bytes, same meaning, or changed (every change classified).

    Examples:

      schemalint diff old_tools.json new_tools.json

      schemalint diff HEAD~1:tools/ tools/ --format json

      schemalint diff --base origin/main --fail-on breaking

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
    args = list(paths or [])
    notes: list[str] = []
    reuse = ParsedFiles()  # the second side parses only the files that differ from the first
    try:
        if base is None:
            if len(args) != 2:
                raise fail("give OLD and NEW (files, directories or REV:PATH), or --base REV [SOURCES...]")
            old_label, new_label = args
            from schemalint.config import ConfigError, load_config

            try:
                roots = load_config(config).import_roots(python_path)
            except ConfigError as exc:
                raise fail(str(exc)) from None
            old = load_side(args[0], python_path=roots, reuse=reuse)
            new = load_side(args[1], python_path=roots, reuse=reuse)
        else:
            from schemalint.config import ConfigError, load_config, resolve_sources

            try:
                cfg = load_config(config)
            except ConfigError as exc:
                raise fail(str(exc)) from None
            srcs = args or resolve_sources(cfg)
            if not srcs:
                raise fail("no sources given and none configured in [tool.schemalint] `sources`")
            excl = [*cfg.exclude, *(exclude or [])]
            roots = cfg.import_roots(python_path)
            old = load_base(base, srcs, exclude=excl, python_path=roots, notes=notes, reuse=reuse)
            new = load_worktree(srcs, exclude=excl, python_path=roots, reuse=reuse)
            old_label, new_label = base, "working tree"
        del reuse  # the bytes of the first side's files
        result = compare_tools(old, new, old_label=old_label, new_label=new_label)
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
