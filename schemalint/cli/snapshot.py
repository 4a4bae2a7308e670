"""``schemalint snapshot``: write (or ``--check``) one snapshot file per tool. See docs/diff.md."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from schemalint.cli import EXIT_FINDINGS, app, fail
from schemalint.cli_options import ConfigOption, ExcludeOption, PythonPathOption


@app.command()
def snapshot(
    sources: Annotated[
        list[str] | None,
        typer.Argument(
            help="Files, directories, globs or module:attr sources. Default: `sources` from "
            "[tool.schemalint].",
            show_default=False,
        ),
    ] = None,
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
    config: ConfigOption = None,
) -> None:
    """Snapshot the definition each tool shows the model: <dir>/<tool>.json, key order kept.

    Examples:

      schemalint snapshot tools/ --dir tool-snapshots

      schemalint snapshot --check            # CI / pre-commit: fail when snapshots are stale

    Exit codes: 0 up to date (or written), 1 stale with --check, 2 error (nothing written).
    """
    from schemalint.cli_options import exit_now
    from schemalint.config import ConfigError, load_config, resolve_sources
    from schemalint.diff.compare import DiffError
    from schemalint.diff.snapshot import check_snapshots, plan_snapshots, write_snapshots
    from schemalint.diff.sources import load_worktree

    try:
        cfg = load_config(config)
    except ConfigError as exc:
        raise fail(str(exc)) from None
    if directory is None:
        configured = cfg.raw.get("snapshot-dir")
        if configured is not None and not isinstance(configured, str):
            raise fail(f"{cfg.path}: `snapshot-dir` must be a string, got {configured!r}")
        if not configured:
            raise fail("no snapshot directory: give --dir DIR or set `snapshot-dir` in [tool.schemalint]")
        directory = cfg.root / configured
    srcs = list(sources or []) or resolve_sources(cfg)
    if not srcs:
        raise fail("no sources given and none configured in [tool.schemalint] `sources`")
    try:
        if directory.exists() and not directory.is_dir():
            raise DiffError(f"{directory} exists and is not a directory; choose another --dir")
        _refuse_sources_inside(srcs, directory)
        tools = load_worktree(srcs, exclude=[*cfg.exclude, *(exclude or [])], python_path=cfg.import_roots(python_path))
        tools = _drop_own_snapshots(tools, directory)
        plan = plan_snapshots(tools, ", ".join(srcs))
        if check:
            problems = check_snapshots(plan, directory)
        else:
            report = write_snapshots(plan, directory)
    except DiffError as exc:
        raise fail(str(exc)) from None
    out = sys.stdout
    if check:
        from schemalint.diff.checks.sd401_rug_pull import stale_snapshot_pulls
        from schemalint.diff.selection import diff_filter

        stale = [(p.filename, p.tool) for p in problems if p.kind == "stale" and p.tool]
        pulls = stale_snapshot_pulls(stale, directory, tools, diff_filter(cfg))  # SD401 when selected
        for p in problems:
            if p.filename in pulls:
                out.write(f"{directory / p.filename}: SD401 rug-pull: {pulls[p.filename].message}\n")
            what = {"missing": "missing", "stale": "stale", "orphaned": "orphaned (no such tool any more)"}[
                p.kind
            ]
            out.write(f"{directory / p.filename}: {what}\n{p.diff}")
            if not p.diff.endswith("\n"):
                out.write("\n")
        if problems:
            import shlex

            given = " ".join(shlex.quote(s) for s in sources or [])
            command = f"schemalint snapshot {given + ' ' if given else ''}--dir {shlex.quote(str(directory))}"
            out.write(
                f"\n{len(problems)} snapshot problem(s) in {directory} ({len(plan)} tools); run "
                f"`{command}` and commit the result\n"
            )
            exit_now(EXIT_FINDINGS)
            raise typer.Exit(EXIT_FINDINGS)
        out.write(f"{len(plan)} snapshot(s) up to date in {directory}\n")
        exit_now(0)
        return
    out.write(
        f"{directory}: {len(report.written)} written, {len(report.unchanged)} unchanged, "
        f"{len(report.removed)} removed ({len(plan)} tools)\n"
    )
    for filename in report.kept:
        out.write(f"{directory / filename}: kept: a snapshot of a tool that no longer exists, written "
                  "before schemalint recorded its snapshots; delete it if it is yours to delete\n")
    exit_now(0)


def _refuse_sources_inside(sources: list[str], directory: Path) -> None:
    """:class:`DiffError` when a path source is ``directory`` or lies inside it (``snapshot tools
    --dir tools``): snapshots would overwrite or remove the source files."""
    from schemalint.diff.compare import DiffError
    from schemalint.loaders.sources import is_python_source
    from schemalint.safe_write import is_within, resolved

    target = resolved(directory)
    for source in sources:
        if is_python_source(source) or not os.path.lexists(source):
            continue
        if is_within(resolved(source), target):
            raise DiffError(f"--dir {directory} holds the source {source}; snapshots need a directory of "
                            "their own (e.g. --dir tool-snapshots)")


def _drop_own_snapshots(tools: list[Any], directory: Path) -> list[Any]:
    """``tools`` without those read from schemalint's own snapshots in ``directory`` (a source
    such as ``.`` that holds the snapshot directory); :class:`DiffError` for a tool read from any
    other file inside ``directory``: it is not dropped, the directory is not the snapshots' own."""
    from schemalint.diff.compare import DiffError
    from schemalint.diff.snapshot import existing_snapshots, ownership
    from schemalint.safe_write import is_within, resolved

    target = resolved(directory)
    inside: dict[str, Path | None] = {}  # by file: resolving once per tool cost more than the rendering
    for file in {t.origin.file for t in tools}:
        path = resolved(file)
        inside[file] = path if is_within(path, target) else None
    if not any(inside.values()):
        return tools
    own = ownership(directory, existing_snapshots(directory))
    for file, found in inside.items():
        if found is not None and not (found.parent == target and own.owns(found.name)):
            raise DiffError(f"{file}: a tool definition inside --dir {directory}, which is not a snapshot "
                            "schemalint wrote; snapshots need a directory of their own (move it out or "
                            "choose another --dir)")
    return [t for t in tools if inside[t.origin.file] is None]
