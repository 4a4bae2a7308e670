"""``schemalint probe``: call each tool's runtime validator with calls its advertised schema admits.

Runs the omission probes and the generated probes of :mod:`schemalint.probe` for every
tool whose runtime contract has a callable validator (pydantic models and functions)
(:func:`schemalint.api_commands.probe_tools`), prints per-tool results with timings, and
reports SL107 diagnostics. Exit codes: 0 nothing refused, 1 a refusal, crash or timeout,
2 usage/import error.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from schemalint.cli._common import (
    EXIT_FINDINGS,
    PythonPathOption,
    check_level,
    config_or_fail,
    fail,
    fails_at,
    format_option,
)
from schemalint.report import ViewFormat


def probe(
    sources: Annotated[list[str], typer.Argument(help="module:attr Python sources (or files/directories; "
                                                  "only tools with a callable validator are probed).")],
    python_path: PythonPathOption = None,
    time_limit: Annotated[
        float, typer.Option("--time-limit", help="Seconds per tool and per probe kind.", min=0.05)
    ] = 2.0,
    max_examples: Annotated[
        int, typer.Option("--max-examples", help="Generated calls per tool (0: omission probes only).", min=0)
    ] = 50,
    output_format: Annotated[ViewFormat, format_option("Output format.")] = "text",
    fail_on: Annotated[
        str, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                          "error, warning, info or never.")
    ] = "warning",
) -> None:
    """Probe runtime validators: omission probes, then generated calls (fixed seed).

    Examples:

      schemalint probe shop_tools: --python-path examples/pydantic

      schemalint probe app.tools:TOOLS --max-examples 200 --time-limit 5 --format json
    """
    from schemalint.api import SourceError
    from schemalint.api_commands import probe_tools
    from schemalint.config import FAIL_LEVELS, ConfigError
    from schemalint.report import get_reporter

    check_level(fail_on, FAIL_LEVELS)
    cfg = config_or_fail(None)
    try:
        result = probe_tools(sources, python_path=cfg.import_roots(python_path), time_limit=time_limit,
                             max_examples=max_examples)
    except (SourceError, ConfigError) as exc:
        raise fail(str(exc)) from None
    get_reporter(output_format, "render_probe")(result, sys.stdout)
    if fails_at(result.diagnostics, fail_on):
        raise typer.Exit(EXIT_FINDINGS)
