"""``schemalint probe``: call each tool's runtime validator with calls its advertised schema admits.

Runs the omission probes and the generated probes of :mod:`schemalint.probe` for every
tool whose runtime contract has a callable validator (pydantic models and functions),
prints per-tool results with timings, and reports SL107 diagnostics.
Exit codes: 0 nothing refused, 1 a refusal, crash or timeout, 2 usage/import error.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated, Any

import typer

from schemalint.cli import EXIT_FINDINGS, app, fail
from schemalint.cli_options import PythonPathOption


def _refusal_json(refusal: Any) -> dict[str, Any]:
    return {
        "kind": refusal.kind,
        "instance_path": refusal.instance_path,
        "call": refusal.call,
        "status": refusal.outcome.status,
        "error_type": refusal.outcome.error_type,
        "message": refusal.message,
        "error_paths": refusal.error_paths,
    }


def _phase_json(result: Any) -> dict[str, Any]:
    return {
        "calls": result.calls,
        "seconds": round(result.elapsed, 4),
        "timed_out": result.timed_out,
        "problems": list(result.problems),
        "refusals": [_refusal_json(r) for r in result.refusals],
    }


@app.command()
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
    output_format: Annotated[str, typer.Option("--format", "-f", help="text or json.")] = "text",
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
    from schemalint.api import SourceError, load
    from schemalint.probe import generated_probe, omission_probe
    from schemalint.rules.contract.sl107_probe_refusal import ProbeRefusal

    if output_format not in ("text", "json"):
        raise fail(f"unknown --format {output_format!r}; choose from text, json")
    if fail_on not in ("error", "warning", "info", "never"):
        raise fail(f"unknown --fail-on {fail_on!r}; choose from error, warning, info, never")
    from schemalint.config import ConfigError, load_config

    try:
        roots = load_config().import_roots(python_path)
        loaded = load(sources, python_path=roots)
    except (SourceError, ConfigError) as exc:
        raise fail(str(exc)) from None
    rule = ProbeRefusal()
    started = time.perf_counter()
    rows: list[dict[str, Any]] = []
    diagnostics = list(loaded.diagnostics)
    for tool in loaded.tools:
        validate = tool.runtime.validate if tool.runtime is not None else None
        if validate is None:
            rows.append({"tool": tool.name, "file": tool.origin.file, "probed": False})
            continue
        omitted = omission_probe(tool.advertised, validate, time_limit=time_limit)
        generated = None
        if max_examples and not omitted.timed_out:
            generated = generated_probe(tool.advertised, validate, max_examples=max_examples,
                                        time_limit=time_limit)
        diagnostics.extend(rule.diagnostics(tool, omitted, time_limit))
        if generated is not None:
            known = {e for r in omitted.refusals for e in r.outcome.errors}
            new = [r for r in generated.refusals if not r.outcome.errors or not r.outcome.errors <= known]
            duplicate = len(new) < len(generated.refusals)
            generated.refusals[:] = new
            diagnostics.extend(rule.diagnostics(tool, generated, time_limit))
        else:
            duplicate = False
        rows.append({
            "tool": tool.name, "file": tool.origin.file, "probed": True,
            "omission": _phase_json(omitted),
            "generated": _phase_json(generated) if generated is not None else None,
            "generated_repeats_omission_findings": duplicate,
        })
    elapsed = time.perf_counter() - started
    from schemalint.model import Severity

    failed = fail_on != "never" and any(d.severity.rank >= Severity.parse(fail_on).rank for d in diagnostics)
    if output_format == "json":
        json.dump({"version": 1, "tools": rows, "diagnostics": [d.to_json() for d in diagnostics],
                   "summary": {"tools": len(rows), "probed": sum(1 for r in rows if r["probed"]),
                               "seconds": round(elapsed, 3)}},
                  sys.stdout, indent=2, default=repr)
        sys.stdout.write("\n")
    else:
        _render_text(rows, diagnostics, elapsed)
    if failed:
        raise typer.Exit(EXIT_FINDINGS)


def _render_text(rows: list[dict[str, Any]], diagnostics: list[Any], elapsed: float) -> None:
    from rich.console import Console
    from rich.markup import escape as markup_escape
    from rich.table import Table

    from schemalint.textsafe import visible

    def escape(text: str) -> str:
        return markup_escape(visible(text))

    console = Console(file=sys.stdout, highlight=False, soft_wrap=True, emoji=False,
                      width=None if sys.stdout.isatty() else 160)
    table = Table(title="runtime probes (calls / time)", title_justify="left")
    for column in ("tool", "omission", "generated", "refused"):
        table.add_column(column, justify="left" if column in ("tool", "refused") else "right", no_wrap=True)
    for row in rows:
        if not row["probed"]:
            table.add_row(escape(row["tool"]), "-", "-", "not probed (no callable validator)")
            continue
        om, gen = row["omission"], row["generated"]
        kinds = [r["kind"] + (f" {r['instance_path']}" if r["instance_path"] else "")
                 for phase in (om, gen) if phase for r in phase["refusals"]]
        if row["generated_repeats_omission_findings"]:
            kinds.append("generated (same errors)")
        table.add_row(escape(row["tool"]), _cell(om), _cell(gen) if gen else "-",
                      escape(", ".join(kinds) or "none"))
    console.print(table)
    for d in diagnostics:
        console.print(f"{escape(d.file)}: {d.severity.value} {d.code} {d.name} [{escape(d.tool or '')}]"
                      + (f" at {escape(d.instance_path)}" if d.instance_path else ""))
        console.print(f"  {escape(d.message)}")
        if d.hint:
            console.print(f"  hint: {escape(d.hint)}")
    probed = sum(1 for r in rows if r["probed"])
    console.print(f"{probed} of {len(rows)} tool(s) probed in {elapsed:.2f} s; "
                  f"{len(diagnostics)} diagnostic(s)")


def _cell(phase: dict[str, Any]) -> str:
    text = f"{phase['calls']} / {phase['seconds'] * 1000:.1f} ms"
    return text + " (time limit)" if phase["timed_out"] else text
