"""``schemalint snapshot``: write (or ``--check``) one snapshot file per tool. See docs/diff.md.

The work is :func:`schemalint.api_commands.snapshot`; this module parses options and prints.
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
    config_or_fail,
    fail,
    finish,
    read_what,
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
    from schemalint.api_commands import snapshot as take_snapshot
    from schemalint.api_commands import snapshot_directory
    from schemalint.diff.errors import DiffError

    cfg = config_or_fail(config)
    try:
        directory = snapshot_directory(cfg, directory)
    except DiffError as exc:
        raise fail(str(exc)) from None
    srcs, servers = read_what(sources, mcp_stdio, mcp_url, mcp_header, cfg)
    try:
        run = take_snapshot(srcs, directory, cfg=cfg, check=check, exclude=exclude or [],
                            python_path=python_path or [], **servers.load_kwargs())
    except DiffError as exc:
        raise fail(str(exc)) from None
    out = sys.stdout
    for note in run.notes:
        sys.stderr.write(f"schemalint: note: {note}\n")
    if check:
        for p in run.problems:
            if p.filename in run.pulls:
                out.write(f"{directory / p.filename}: SD401 rug-pull: {run.pulls[p.filename].message}\n")
            what = {"missing": "missing", "stale": "stale", "orphaned": "orphaned (no such tool any more)"}[
                p.kind
            ]
            out.write(f"{directory / p.filename}: {what}\n{p.diff}")
            if not p.diff.endswith("\n"):
                out.write("\n")
        if run.problems:
            import shlex

            given = " ".join([*(shlex.quote(s) for s in sources or []), *(servers.options() if mcp_stdio or mcp_url
                                                                          else [])])
            command = f"schemalint snapshot {given + ' ' if given else ''}--dir {shlex.quote(str(directory))}"
            out.write(
                f"\n{len(run.problems)} snapshot problem(s) in {directory} ({len(run.plan)} tools); run "
                f"`{command}` and commit the result\n"
            )
            finish(EXIT_FINDINGS)
        out.write(f"{len(run.plan)} snapshot(s) up to date in {directory}\n")
        finish(EXIT_OK)
        return
    report = run.report
    assert report is not None  # written: not --check
    out.write(
        f"{directory}: {len(report.written)} written, {len(report.unchanged)} unchanged, "
        f"{len(report.removed)} removed ({len(run.plan)} tools)\n"
    )
    ignored = ignored_by_git([directory / f for f in sorted(run.plan)])
    if ignored is not None:
        sys.stderr.write(f"schemalint: warning: {ignored}\n")
    for filename in report.kept:
        out.write(f"{directory / filename}: kept: a snapshot of a tool that no longer exists, which "
                  "schemalint cannot prove it wrote (.schemalint-snapshots has no content hash for it, as "
                  "older versions wrote, or its bytes changed since); delete it if it is yours to delete\n")
    finish(EXIT_OK)


def ignored_by_git(paths: list[Path]) -> str | None:
    """When ``paths`` lie in a git work tree and git ignores some of them: how many and the
    pattern that ignores the first (``git check-ignore -v --stdin``, one call); else ``None``
    (no git, not a work tree, nothing ignored)."""
    import subprocess

    if not paths:
        return None
    cwd = paths[0].parent
    try:
        from schemalint.loaders.git.commands import git_env

        done = subprocess.run(["git", "check-ignore", "-v", "--stdin"], cwd=cwd, capture_output=True, text=True,
                              input="".join(f"{p.resolve()}\n" for p in paths), timeout=30, check=False,
                              env=git_env())
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:  # 1: nothing ignored; 128: not a work tree
        return None
    lines = [line for line in done.stdout.splitlines() if "\t" in line]
    if not lines:
        return None
    import re

    m = re.match(r"(.*):(\d+):(.*)\t", lines[0])  # "<source>:<line>:<pattern>\t<path>"
    rule = f"{m.group(1)}:{m.group(2)}: {m.group(3)}" if m else lines[0].partition("\t")[0]
    return (f"{len(lines)} of the {len(paths)} snapshot(s) in {paths[0].parent} are ignored by git ({rule}); "
            "`git add` skips them silently: change that rule or add them with `git add -f`")
