"""``schemalint replay``: lint recorded traffic and replay its tool calls (docs/traffic.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated

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
    guard_output,
    run_reads,
    split_csv,
    write_user_output,
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
    reads = run_reads(cfg, [*logs, *(tools or []), *([baseline_file] if baseline_file else [])])
    if write_baseline is not None:
        guard_output(write_baseline, "baseline", cfg, reads)
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
        write_user_output(write_baseline, recorded.dumps(), "baseline", cfg, reads)
        typer.echo(f"schemalint: wrote {len(result.diagnostics)} finding(s) to {write_baseline}", err=True)
        return
    write_report(output_format, result, sys.stdout)
    finish(EXIT_FINDINGS if fails_at(result.diagnostics, fail_level) else EXIT_OK)


class _progress:
    """Progress of the bytes read while the logs are replayed (:mod:`schemalint.progress`: on a
    terminal only, unless asked)."""

    def __enter__(self) -> Callable[[int, int], Callable[[int], None]] | None:
        from schemalint import progress

        return self.start if progress.wanted() else None

    def start(self, total: int, files: int) -> Callable[[int], None]:
        from schemalint import progress

        progress.phase(f"replaying {files} file(s), bytes read", total or None)
        return progress.advance

    def __exit__(self, *exc: object) -> None:
        from schemalint import progress

        progress.stop()
