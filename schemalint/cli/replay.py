"""``schemalint replay``: lint recorded traffic and replay its tool calls (docs/traffic.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from schemalint.cli._common import (
    EXIT_FINDINGS,
    EXIT_OK,
    BaselineOption,
    ConfigOption,
    ExcludeOption,
    ExtendSelectOption,
    IgnoreOption,
    NoBaselineOption,
    PythonPathOption,
    SelectOption,
    WriteBaselineOption,
    check_level,
    config_or_fail,
    fail,
    fails_at,
    finish,
    format_option,
    split_csv,
)
from schemalint.report import CheckFormat


def replay(
    logs: Annotated[list[str], typer.Argument(help="Recorded traffic: request/response bodies, transcripts, MCP "
                                              "JSON-RPC logs; files (JSON, JSON Lines, YAML cassettes), "
                                              "directories or globs.", show_default=False)],
    tools: Annotated[
        list[str] | None, typer.Option("--tools", help="The project's tool sources (files, directories, "
                                       "module:attr; repeatable) to compare the traffic with and replay its calls "
                                       "against (their runtime validators).")
    ] = None,
    output_format: Annotated[CheckFormat, format_option("Report format.")] = "text",
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                                 "error, warning, info or never. Default: `fail-on` from the "
                                 "configuration, else error.", show_default=False)
    ] = None,
    target: Annotated[
        list[str] | None, typer.Option("--target", "-t", help="Provider profile(s) the declared tools are "
                                       "checked against, as for check.")
    ] = None,
    exclude: ExcludeOption = None,
    select: SelectOption = None,
    extend_select: ExtendSelectOption = None,
    ignore: IgnoreOption = None,
    python_path: PythonPathOption = None,
    config: ConfigOption = None,
    baseline: BaselineOption = None,
    no_baseline: NoBaselineOption = False,
    write_baseline: WriteBaselineOption = None,
) -> None:
    """Read recorded traffic, lint the tools it declares and replay its tool calls.

    Every request, transcript and MCP log is read (JSON Lines streams line by line); the tools
    a record declares are linted as by check; the SL4xx rules judge its calls and results.

    Examples:

      schemalint replay logs/requests.jsonl

      schemalint replay traces/ --tools tools.json --format json

      schemalint replay mcp-session.jsonl --tools myserver.tools:TOOLS --fail-on warning
    """
    from schemalint.api import SourceError
    from schemalint.commands.replay import replay as run_replay
    from schemalint.config import FAIL_LEVELS, ConfigError
    from schemalint.engine.baseline import BaselineError
    from schemalint.report import write_report
    from schemalint.targets import TargetError

    check_level(fail_on, FAIL_LEVELS)
    cfg = config_or_fail(config)
    fail_level = fail_on or cfg.fail_on or "error"
    baseline_file: str | None = None
    if write_baseline is None and not no_baseline:
        if baseline is not None:
            baseline_file = str(baseline)
        elif cfg.baseline:
            baseline_file = cfg.resolve_path(cfg.baseline)
    if write_baseline is not None:
        from schemalint.safe_write import WriteRefused, refuse_overwrite

        try:
            refuse_overwrite(write_baseline, [*logs, *(tools or [])], "baseline")
        except WriteRefused as exc:
            raise fail(str(exc)) from None
    with _progress() as progress:
        try:
            result = run_replay(
                logs, tools=tools or [], python_path=cfg.import_roots(python_path),
                exclude=[*cfg.exclude, *(exclude or [])], targets=split_csv(target) or cfg.target,
                dialect=cfg.dialect, select=split_csv(select) or None, extend_select=split_csv(extend_select),
                ignore=split_csv(ignore), config=cfg, baseline=baseline_file, progress=progress,
            )
        except (SourceError, ConfigError, BaselineError, TargetError) as exc:
            raise fail(str(exc)) from None
    if write_baseline is not None:
        from schemalint.engine.baseline import Baseline

        recorded = Baseline.from_findings(result.diagnostics, result.fingerprints)
        try:
            recorded.write(write_baseline)
        except OSError as exc:
            raise fail(f"{write_baseline}: cannot write baseline: {exc.strerror or exc}") from None
        typer.echo(f"schemalint: wrote {len(result.diagnostics)} finding(s) to {write_baseline}", err=True)
        return
    write_report(output_format, result, sys.stdout)
    finish(EXIT_FINDINGS if fails_at(result.diagnostics, fail_level) else EXIT_OK)


class _progress:
    """A rich progress bar on stderr while the logs are read, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.bar: Any = None

    def __enter__(self) -> Callable[[int, int], Callable[[int], None]] | None:
        if not sys.stderr.isatty():
            return None
        return self.start

    def start(self, total: int, files: int) -> Callable[[int], None]:
        from rich.console import Console
        from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn(f"replaying {files} file(s)"), BarColumn(), DownloadColumn(),
                            TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        self.bar.start()
        task = self.bar.add_task("read", total=total or None)
        bar = self.bar
        return lambda n: bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
