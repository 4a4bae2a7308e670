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
    call_api,
    config_or_fail,
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

    Exit codes: 0 nothing at or above --fail-on; 1 diagnostics at or above it; 2 usage,
    configuration or input error (a missing path, named files that hold no recorded traffic).
    """
    from schemalint.api_commands import ReplayRequest, run_replay
    from schemalint.report import write_report

    request = ReplayRequest(
        logs=tuple(logs), tools=tuple(tools or ()), fail_on=fail_on, targets=tuple(split_csv(target)),
        exclude=tuple(exclude or ()), select=tuple(split_csv(select)) or None,
        extend_select=tuple(split_csv(extend_select)), ignore=tuple(split_csv(ignore)),
        python_path=tuple(python_path or ()), baseline=None if baseline is None else str(baseline),
        no_baseline=no_baseline, write_baseline=None if write_baseline is None else str(write_baseline),
        config=config_or_fail(config))
    with _progress() as progress:
        run = call_api(run_replay, request, progress)
    if run.result.baseline_written is not None:
        typer.echo(f"schemalint: wrote {len(run.result.diagnostics)} finding(s) to {write_baseline}", err=True)
        return
    write_report(output_format, run.result, sys.stdout)
    finish(EXIT_FINDINGS if run.fails else EXIT_OK)


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
