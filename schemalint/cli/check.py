"""``schemalint check``: lint tool definitions and report diagnostics (README.md, docs/ci.md)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from schemalint.cli._common import (
    EXIT_FINDINGS,
    EXIT_OK,
    SOURCES_HELP,
    BaselineOption,
    ConfigOption,
    ExcludeOption,
    ExtendSelectOption,
    IgnoreOption,
    McpHeaderOption,
    McpStdioOption,
    McpUrlOption,
    NoBaselineOption,
    PythonPathOption,
    SelectOption,
    WriteBaselineOption,
    call_api,
    config_or_fail,
    fail,
    finish,
    format_option,
    read_what,
    sources_argument,
    split_csv,
)
from schemalint.report import CheckFormat
from schemalint.schema.dialect import DIALECTS
from schemalint.targets import MCP_REVISIONS, PROFILES

if TYPE_CHECKING:
    from schemalint.api import CheckRequest
    from schemalint.fix.run import FixRequest


FailOnOption = Annotated[
    str | None, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                             "error, warning, info or never. Default: `fail-on` from the "
                             "configuration, else error.", show_default=False)
]

TargetOption = Annotated[
    list[str] | None,
    typer.Option("--target", "-t", help="Provider profile(s) to check against, comma-separated "
                 f"({', '.join([*PROFILES, 'all'])}; "
                 f"{' or '.join('mcp@' + r for r in MCP_REVISIONS[:-1])} for an older MCP revision, "
                 "mcp alone meaning the latest). Adds to the targets inferred from each tool's format; "
                 "prefix with = to replace them (--target =openai)."),
]

DialectOption = Annotated[
    str | None, typer.Option("--dialect", help="Treat every schema as this dialect "
                             f"({', '.join(DIALECTS)}) instead of reading $schema.")
]

PreviousOption = Annotated[
    list[str] | None,
    typer.Option("--previous", help="File, directory or snapshot dir of an earlier revision "
                 "(repeatable); SL202 reports descriptions that still ask for a parameter it had."),
]

JobsOption = Annotated[
    int | None, typer.Option("--jobs", "-j", help="Processes that load and check shares of the files (a "
                             "large file may be cut between them; a streamed run's gathering pass too). Default: 1 "
                             "up to 2,000 files, 2,000 tools and 50 MB; above, one per CPU this process may use "
                             "(its affinity mask and cgroup CPU quota). Output is the same "
                             "for any value.", show_default=False)
]

SummaryOutOption = Annotated[
    Path | None, typer.Option("--summary-out", metavar="FILE", help="Registry scan in shards, first round: "
                              "write this shard's catalog summary (tool names, origins, property names, SL001's "
                              "dialect counts; JSON) to FILE and check nothing. docs/performance.md, "
                              "\"Registry scale\".")
]

SummariesOption = Annotated[
    list[Path] | None, typer.Option("--summaries", metavar="FILE|DIR", help="Registry scan in shards, second "
                                    "round: every shard's summary (repeatable, in the order one run would read "
                                    "the shards' files; a directory: its *.json by name). The catalog-wide rules "
                                    "then see the whole registry: the shards' outputs together are one run's.")
]

ScanOption = Annotated[
    bool, typer.Option("--scan", help="Treat the files named as found by a directory scan (the pre-commit "
                       "hook passes changed files): one that does not parse and does not look like a tool "
                       "file is skipped without a diagnostic (docs/shape-rules.md, SL000), and when the "
                       "configuration names `sources`, only the files inside them are checked.")
]

StdinFilenameOption = Annotated[
    str | None, typer.Option("--stdin-filename", metavar="NAME", help="With the source `-` (standard input): "
                             "the file name the input is reported under, whose suffix chooses the format "
                             "(.json, .yaml, .jsonl; default stdin.json). Baselines and per-file ignores match "
                             "this name.")
]

StatisticsOption = Annotated[
    bool, typer.Option("--statistics", help="Print the number of diagnostics per rule (most first) instead "
                       "of the diagnostics, as ruff does: text lines `COUNT  CODE  name  severity`, or with "
                       "--format json a list of {code, name, severity, count}. The exit code is as without it.")
]

FailRuleOption = Annotated[
    str | None, typer.Option("--fail-rule", hidden=True, help="Testing aid: make this rule raise on every "
                             "tool, to see an SL999 internal-error report.")
]


def check(
    sources: Annotated[list[str] | None, sources_argument(
        f"{SOURCES_HELP} Default: `sources` from [tool.schemalint] in pyproject.toml.")] = None,
    output_format: Annotated[CheckFormat, format_option("Report format.")] = "text",
    fail_on: FailOnOption = None,
    target: TargetOption = None,
    exclude: ExcludeOption = None,
    select: SelectOption = None,
    extend_select: ExtendSelectOption = None,
    ignore: IgnoreOption = None,
    dialect: DialectOption = None,
    python_path: PythonPathOption = None,
    mcp_stdio: McpStdioOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    previous: PreviousOption = None,
    config: ConfigOption = None,
    baseline: BaselineOption = None,
    no_baseline: NoBaselineOption = False,
    write_baseline: WriteBaselineOption = None,
    jobs: JobsOption = None,
    summary_out: SummaryOutOption = None,
    summaries: SummariesOption = None,
    scan: ScanOption = False,
    stdin_filename: StdinFilenameOption = None,
    statistics: StatisticsOption = False,
    fix: Annotated[bool, typer.Option("--fix", help="Apply the safe fixes of the diagnostics to the tool files "
                                      "read (JSON, JSON Lines, YAML; format kept), re-checking until nothing changes. "
                                      "docs/fix.md.")] = False,
    unsafe_fixes: Annotated[bool, typer.Option("--unsafe-fixes", help="With --fix or --diff: apply the unsafe "
                                               "fixes too (they change what a call may hold).")] = False,
    show_diff: Annotated[bool, typer.Option("--diff", help="Print the unified diff --fix would write and change "
                                            "nothing; exit 1 when something is to fix.")] = False,
    watch: Annotated[
        bool, typer.Option("--watch", help="Check, then check again each time a source file, the configuration or "
                           "the baseline changes, until Ctrl-C (docs/watch.md). Needs the watchfiles library "
                           "(the [watch] extra).")
    ] = False,
    fail_rule: FailRuleOption = None,
) -> None:
    """Lint tool definitions and report diagnostics.

    Examples:

      schemalint check                      # sources from [tool.schemalint]

      schemalint check tools/ --format json

      schemalint check openai_tools.json --target openai-strict --fail-on warning

      schemalint check --mcp-stdio "python server.py"

      schemalint check --mcp-url http://127.0.0.1:8000/mcp

      schemalint check --write-baseline schemalint-baseline.json   # adopt on a repo with findings

      schemalint check --baseline schemalint-baseline.json --format sarif > schemalint.sarif

      schemalint check tools/ --target openai-strict --diff      # what --fix would write

      schemalint check tools/ --target openai-strict --fix       # apply the safe fixes

      schemalint check tools/ --target openai-strict --fix --unsafe-fixes

    Exit codes: 0 nothing at or above --fail-on (also after --write-baseline); 1 diagnostics at or
    above it (with --fix: those that remain; with --diff: something to fix); 2 usage, configuration
    or input error (an unknown option value, a missing path, a failed import).
    """
    from schemalint.api import CheckRequest

    cfg = config_or_fail(config)
    srcs, servers = read_what(sources, mcp_stdio, mcp_url, mcp_header, cfg)
    request = CheckRequest(
        sources=tuple(srcs), config=cfg, exclude=tuple(exclude or ()), targets=tuple(split_csv(target)),
        dialect=dialect, python_path=tuple(python_path or ()), select=tuple(split_csv(select)) or None,
        extend_select=tuple(split_csv(extend_select)), ignore=tuple(split_csv(ignore)),
        mcp_stdio=tuple(servers.stdio), mcp_url=tuple(servers.urls), mcp_headers=servers.headers,
        mcp_cwd=servers.cwd, previous=tuple(previous or ()), baseline=_path(baseline), no_baseline=no_baseline,
        write_baseline=_path(write_baseline), jobs=jobs, scan=scan, configured_only=scan and bool(sources),
        summaries=tuple(map(str, summaries or ())), fail_rule=fail_rule, fail_on=fail_on,
        catalog=False,  # the report does not read it: a run in several jobs may load in its workers
    )
    if watch:
        _watch(request, writes=write_baseline is not None or summary_out is not None)
    if summary_out is not None:
        _write_summary(request, summary_out)
        return
    fixing = _fixing(request, fix, unsafe_fixes, show_diff, split_csv(target) or cfg.target)
    result = _run(request, stdin_filename, fixing)
    code = _report(result, fixing, output_format, statistics=statistics, write_baseline=write_baseline)
    if code is not None:
        finish(code)  # the result still holds the catalog: leave without freeing it


def _write_summary(request: CheckRequest, target: Path) -> None:
    """``--summary-out``: the first round of a registry scan written to ``target``, and a line on
    standard error saying what it holds (:func:`schemalint.api.write_summary`)."""
    summary = _api_call("write_summary", request, target)
    typer.echo(f"schemalint: wrote the summary of {len(summary['tools'])} tool(s) in "
               f"{len(summary['files'])} file(s) to {target}", err=True)


def _fixing(request: CheckRequest, fix: bool, unsafe_fixes: bool, show_diff: bool,
            targets: Sequence[str]) -> FixRequest | None:
    """The :class:`~schemalint.fix.run.FixRequest` of ``--fix``/``--unsafe-fixes``/``--diff``
    (``targets``: the run's target profiles), or ``None`` for a check that fixes nothing (which
    does not import the fix machinery). Exit 2 when standard input is among the sources."""
    if not (fix or unsafe_fixes or show_diff):
        return None
    from schemalint.fix.run import FixRequest

    fixing = FixRequest.of(fix, unsafe_fixes, show_diff, targets, request.cfg.root)
    if "-" in request.sources:
        raise fail("--fix, --unsafe-fixes and --diff edit files; standard input (`-`) has none to edit")
    return fixing


def _run(request: CheckRequest, stdin_filename: str | None, fixing: FixRequest | None) -> Any:
    """The :class:`~schemalint.api.CheckResult` of ``request``: standard input (``-``) read into a
    temporary copy and reported under ``stdin_filename`` (:func:`_stdin_as`), the run repeated
    until nothing is left to fix when ``fixing``."""
    with _stdin_as(request, stdin_filename) as (request, as_named):
        def run_request(sources: Sequence[str]) -> Any:
            return _api_call("check_request", request.with_(sources=tuple(sources)))

        return as_named((run_request if fixing is None else fixing.wrap(run_request))(request.sources))


def _report(result: Any, fixing: FixRequest | None, output_format: str, *, statistics: bool,
            write_baseline: Path | None) -> int | None:
    """Print ``result``: the baseline written (exit code ``None``: leave normally), what ``--fix``
    or ``--diff`` did, the counts of ``--statistics``, or the report in ``output_format``; returns
    the exit code (1 when the result fails, else 0)."""
    if result.baseline_written is not None:
        n = result.baseline_written
        typer.echo(f"schemalint: wrote {len(result.diagnostics)} finding(s) as {n} "
                   f"baseline entr{'y' if n == 1 else 'ies'} to {write_baseline}", err=True)
        return None
    if fixing is not None and (code := fixing.report(result, sys.stdout, sys.stderr)) is not None:
        return code
    if statistics:
        write_statistics(result.diagnostics, output_format, sys.stdout)
        from schemalint.report.copies import copies_count, fold_copies

        if repeats := copies_count(fold_copies(result).diagnostics):
            typer.echo(f"schemalint: these counts include {repeats} finding(s) in repeated copies of a tool, "
                       "which the report folds into the first copy's entry", err=True)
    else:
        from schemalint.report import write_report

        write_report(output_format, result, sys.stdout)
    return EXIT_FINDINGS if result.fails else EXIT_OK


def _path(value: Path | None) -> str | None:
    """An option's path as the request holds it."""
    return None if value is None else str(value)


def _api_call(name: str, *args: Any) -> Any:
    """``schemalint.api.<name>(*args)`` through :func:`~schemalint.cli._common.call_api` (exit 2 with
    the message of an error the user can act on)."""
    from schemalint import api

    return call_api(getattr(api, name), *args)


STDIN_LIMIT = 256 << 20
"""Bytes read from standard input at most (the source `-`)."""


@contextmanager
def _stdin_as(request: CheckRequest, name: str | None) -> Iterator[tuple[CheckRequest, Callable[[Any], Any]]]:
    """The source ``-``: ``request`` with it replaced by a private temporary copy of standard input
    named like ``name`` (so its suffix chooses the parser), and the function that reports a result's
    findings under ``name`` (default ``stdin.json``) instead; the copy is removed on leaving.
    Without ``-``, the request as it is (``--stdin-filename`` is then an error)."""
    srcs = list(request.sources)
    if "-" not in srcs:
        if name is not None:
            raise fail("--stdin-filename names the source `-` (standard input), which is not among the sources")
        yield request, lambda result: result
        return
    import tempfile

    if srcs.count("-") > 1:
        raise fail("the source `-` (standard input) can be given once")
    data = sys.stdin.buffer.read(STDIN_LIMIT + 1)
    if len(data) > STDIN_LIMIT:
        raise fail(f"standard input holds more than {STDIN_LIMIT >> 20} MiB; name a file instead")
    shown = name or "stdin.json"
    base = os.path.basename(shown)
    if base in ("", ".", ".."):
        raise fail(f"--stdin-filename {name!r} names no file; give a file name such as tools.json")
    with tempfile.TemporaryDirectory(prefix="schemalint-stdin-") as folder:
        path = os.path.join(folder, base)
        with open(path, "wb") as fh:
            fh.write(data)
        yield (request.with_(sources=tuple(path if s == "-" else s for s in srcs)),
               lambda result: _report_stdin_as(result, path, shown))


def _report_stdin_as(result: Any, path: str, name: str) -> Any:
    """``result`` with the diagnostics, fingerprints and notes of the temporary copy ``path`` renamed
    to ``name``."""
    from dataclasses import replace

    result.diagnostics = [replace(d, file=name) if d.file == path else d for d in result.diagnostics]
    result.fingerprints = [replace(f, file=name) if os.path.abspath(f.file) == os.path.abspath(path) else f
                           for f in result.fingerprints]
    result.notes = [n.replace(path, name) for n in result.notes]
    return result


def write_statistics(diagnostics: Sequence[Any], output_format: str, out: Any) -> None:
    """``--statistics``: diagnostics counted per rule, most first (then by code). ``text``: one line
    per rule, ``COUNT  CODE  name  severity``; ``json``: a list of ``{code, name, severity, count}``.
    Raises ``typer.Exit(2)`` for another format (a count is no SARIF result or annotation)."""
    from collections import Counter

    if output_format not in ("text", "json"):
        raise fail(f"--statistics prints text or json, not {output_format}")
    counts = Counter((d.code, d.name) for d in diagnostics)
    levels: dict[str, set[str]] = {}
    for d in diagnostics:  # a rule's severity can differ per target or override: name each one seen
        levels.setdefault(d.code, set()).add(d.severity.value)
    order = {"error": 0, "warning": 1, "info": 2}
    rows = [((code, name, "/".join(sorted(levels[code], key=lambda v: order.get(v, 3)))), count)
            for (code, name), count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0]))]
    if output_format == "json":
        import json

        out.write(json.dumps([{"code": c, "name": n, "severity": sev, "count": k} for (c, n, sev), k in rows],
                             indent=2) + "\n")
        return
    width = len(f"{rows[0][1]}") if rows else 1
    for (code, name, severity), count in rows:
        out.write(f"{count:>{width}}  {code:<6} {name}  {severity}\n")


def _watch(request: CheckRequest, *, writes: bool) -> None:
    """``--watch``: :func:`schemalint.commands.watch.watch_check` over the sources of ``request``
    (validated first: an error is reported once, not by each child), the configuration file,
    ``--previous``, the baseline and the import roots; exits with its code (0 on Ctrl-C)."""
    from schemalint.commands.watch import WatchError, child_argv, watch_check, watched_paths
    from schemalint.engine.request import validated

    srcs, cfg = list(request.sources), request.cfg
    if writes or "-" in srcs:
        raise fail("--watch only reports: it cannot be used with --write-baseline, --summary-out or `-`")
    call_api(validated, request)
    named = [*request.previous, *([request.baseline] if request.baseline else [])]
    extra = [*named, *cfg.import_roots(list(request.python_path)), *([str(cfg.path)] if cfg.path else []),
             *([cfg.resolve_path(cfg.baseline)] if isinstance(cfg.baseline, str) and cfg.baseline else [])]
    try:
        raise typer.Exit(watch_check(child_argv(sys.argv[1:]), watched_paths(srcs, extra, cfg.root)))
    except WatchError as exc:
        raise fail(str(exc)) from None

