"""``schemalint check``: lint tool definitions and report diagnostics (README.md, docs/ci.md)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
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
    check_level,
    config_or_fail,
    fail,
    fails_at,
    finish,
    format_option,
    guard_output,
    read_what,
    run_reads,
    sources_argument,
    split_csv,
    write_user_output,
)
from schemalint.report import CheckFormat
from schemalint.schema.dialect import DIALECTS
from schemalint.targets import MCP_REVISIONS, PROFILES

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.rules.facts import CatalogFacts


def check(
    sources: Annotated[list[str] | None, sources_argument(
        f"{SOURCES_HELP} Default: `sources` from [tool.schemalint] in pyproject.toml.")] = None,
    output_format: Annotated[CheckFormat, format_option("Report format.")] = "text",
    fail_on: Annotated[
        str | None, typer.Option("--fail-on", help="Exit 1 when a diagnostic is at least this severe: "
                                 "error, warning, info or never. Default: `fail-on` from the "
                                 "configuration, else error.", show_default=False)
    ] = None,
    target: Annotated[
        list[str] | None,
        typer.Option("--target", "-t", help="Provider profile(s) to check against, comma-separated "
                     f"({', '.join([*PROFILES, 'all'])}; "
                     f"{' or '.join('mcp@' + r for r in MCP_REVISIONS[:-1])} for an older MCP revision, "
                     "mcp alone meaning the latest). Adds to the targets inferred from each tool's format; "
                     "prefix with = to replace them (--target =openai)."),
    ] = None,
    exclude: ExcludeOption = None,
    select: SelectOption = None,
    extend_select: ExtendSelectOption = None,
    ignore: IgnoreOption = None,
    dialect: Annotated[
        str | None, typer.Option("--dialect", help="Treat every schema as this dialect "
                                 f"({', '.join(DIALECTS)}) instead of reading $schema.")
    ] = None,
    python_path: PythonPathOption = None,
    mcp_stdio: McpStdioOption = None,
    mcp_url: McpUrlOption = None,
    mcp_header: McpHeaderOption = None,
    previous: Annotated[
        list[str] | None,
        typer.Option("--previous", help="File, directory or snapshot dir of an earlier revision "
                     "(repeatable); SL202 reports descriptions that still ask for a parameter it had."),
    ] = None,
    config: ConfigOption = None,
    baseline: BaselineOption = None,
    no_baseline: NoBaselineOption = False,
    write_baseline: WriteBaselineOption = None,
    jobs: Annotated[
        int | None, typer.Option("--jobs", "-j", help="Processes that load and check shares of the files (a "
                                 "large file may be cut between them; a streamed run's gathering pass too). Default: 1 "
                                 "for small catalogs, every CPU above 2,000 files, 2,000 tools or 50 MB. Output is "
                                 "the same for any value.", show_default=False)
    ] = None,
    summary_out: Annotated[
        Path | None, typer.Option("--summary-out", metavar="FILE", help="Registry scan in shards, first round: "
                                  "write this shard's catalog summary (tool names, origins, property names, SL001's "
                                  "dialect counts; JSON) to FILE and check nothing. docs/performance.md, "
                                  "\"Registry scale\".")
    ] = None,
    summaries: Annotated[
        list[Path] | None, typer.Option("--summaries", metavar="FILE|DIR", help="Registry scan in shards, second "
                                        "round: every shard's summary (repeatable, in the order one run would read "
                                        "the shards' files; a directory: its *.json by name). The catalog-wide rules "
                                        "then see the whole registry: the shards' outputs together are one run's.")
    ] = None,
    scan: Annotated[
        bool, typer.Option("--scan", help="Treat the files named as found by a directory scan (the pre-commit "
                           "hook passes changed files): one that does not parse and does not look like a tool "
                           "file is skipped without a diagnostic (docs/shape-rules.md, SL000), and when the "
                           "configuration names `sources`, only the files inside them are checked.")
    ] = False,
    stdin_filename: Annotated[
        str | None, typer.Option("--stdin-filename", metavar="NAME", help="With the source `-` (standard input): "
                                 "the file name the input is reported under, whose suffix chooses the format "
                                 "(.json, .yaml, .jsonl; default stdin.json). Baselines and per-file ignores match "
                                 "this name.")
    ] = None,
    statistics: Annotated[
        bool, typer.Option("--statistics", help="Print the number of diagnostics per rule (most first) instead "
                           "of the diagnostics, as ruff does: text lines `COUNT  CODE  name  severity`, or with "
                           "--format json a list of {code, name, severity, count}. The exit code is as without it.")
    ] = False,
    fix: Annotated[bool, typer.Option("--fix", help="Apply the safe fixes of the diagnostics to the tool files "
                                      "read (JSON, JSON Lines, YAML; format kept), re-checking until nothing changes. "
                                      "docs/fix.md.")] = False,
    unsafe_fixes: Annotated[bool, typer.Option("--unsafe-fixes", help="With --fix or --diff: apply the unsafe "
                                               "fixes too (they change what a call may hold).")] = False,
    show_diff: Annotated[bool, typer.Option("--diff", help="Print the unified diff --fix would write and change "
                                            "nothing; exit 1 when something is to fix.")] = False,
    fail_rule: Annotated[
        str | None, typer.Option("--fail-rule", hidden=True, help="Testing aid: make this rule raise on every "
                                 "tool, to see an SL999 internal-error report.")
    ] = None,
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
    """
    from schemalint.api import SourceError
    from schemalint.api import check as run_check
    from schemalint.config import FAIL_LEVELS, ConfigError
    from schemalint.engine.baseline import BaselineError
    from schemalint.report import write_report

    if jobs is not None and jobs < 1:
        raise fail(f"--jobs must be at least 1, not {jobs}")
    check_level(fail_on, FAIL_LEVELS)
    cfg = config_or_fail(config)
    fail_level = fail_on or cfg.fail_on or "error"
    srcs, servers = read_what(sources, mcp_stdio, mcp_url, mcp_header, cfg)
    if scan and sources and cfg.sources:
        srcs = within_sources(srcs, cfg)
        if not srcs and not servers:  # an empty report in the format asked for, exit 0
            from schemalint.model import CheckResult
            from schemalint.report import write_report as write_empty

            write_empty(output_format, CheckResult(diagnostics=[], files=0, tools=0, elapsed=0.0, notes=[
                "none of the files named lies in the configured `sources`; nothing to check"]), sys.stdout)
            return
    from schemalint.targets import TargetError, parse_targets

    targets = split_csv(target) or cfg.target
    try:
        parse_targets(targets)
    except TargetError as exc:
        raise fail(str(exc)) from None
    if dialect is not None:
        from schemalint.schema.dialect import normalize_dialect

        chosen = normalize_dialect(dialect)
        if chosen is None:
            raise fail(f"unknown --dialect {dialect!r}; choose from {', '.join(DIALECTS)} "
                       "(aliases such as draft7 or a metaschema URI are accepted too)")
        dialect = chosen
    own_outputs: list[str] = []
    reads = run_reads(cfg, [*srcs, *(previous or ()), *([str(baseline)] if baseline is not None else [])])
    if write_baseline is not None:
        guard_output(write_baseline, "baseline", cfg, reads)
        own_outputs.append(os.path.normpath(write_baseline))
    baseline_file: str | None = None
    if write_baseline is None and not no_baseline:
        if baseline is not None:
            baseline_file = str(baseline)
        elif cfg.baseline:
            baseline_file = cfg.resolve_path(cfg.baseline)
    if summary_out is not None:
        _write_summary(summary_out, srcs, bool(servers), cfg, exclude or [], scan, reads)
        return
    facts = _read_summaries(summaries) if summaries else None
    if fail_rule:
        from schemalint.rules.base import FAIL_RULE_ENV

        os.environ[FAIL_RULE_ENV] = fail_rule  # read by the rule runner, here and in --jobs workers
    stdin_dir = None
    if "-" in srcs:
        srcs, stdin_dir, stdin_path = _stdin_source(srcs, stdin_filename)
    elif stdin_filename is not None:
        raise fail("--stdin-filename names the source `-` (standard input), which is not among the sources")
    from schemalint.fix.run import FixRequest

    fixing = FixRequest.of(fix, unsafe_fixes, show_diff, targets, cfg.root)
    try:
        result = (run_check if fixing is None else fixing.wrap(run_check))(
            srcs,
            exclude=[*cfg.exclude, *(exclude or []), *_own_files(cfg, baseline_file), *own_outputs],
            targets=targets,
            **servers.load_kwargs(),
            previous=previous or (),
            dialect=dialect or cfg.dialect,
            python_path=cfg.import_roots(python_path),
            select=split_csv(select) or None,
            extend_select=split_csv(extend_select),
            ignore=split_csv(ignore),
            config=cfg,
            baseline=baseline_file,
            jobs=jobs,
            scan=scan,
            facts=facts,
            catalog=False,  # the report does not read it: a run in several jobs may load in its workers
        )
    except (SourceError, ConfigError, BaselineError) as exc:
        raise fail(str(exc)) from None
    if stdin_dir is not None:
        _report_stdin_as(result, stdin_path, stdin_filename or "stdin.json")
        stdin_dir.cleanup()
    if write_baseline is not None:
        from schemalint.engine.baseline import Baseline

        recorded = Baseline.from_findings(result.diagnostics, result.fingerprints)
        write_user_output(write_baseline, recorded.dumps(), "baseline", cfg, reads)
        n = len(recorded.entries)
        typer.echo(f"schemalint: wrote {len(result.diagnostics)} finding(s) as {n} "
                   f"baseline entr{'y' if n == 1 else 'ies'} to {write_baseline}", err=True)
        return
    if result.tools == 0 and not result.diagnostics:
        result.notes.append("no tool definitions found in " + ", ".join([*srcs, *servers.names()]))
        from schemalint.loaders.files.sources import modules_hint

        for source in srcs:
            hint = modules_hint(source, [*cfg.exclude, *(exclude or [])]) if os.path.isdir(source) else None
            if hint:
                result.notes.append(hint)
    if fixing is not None and (code := fixing.report(result, sys.stdout, sys.stderr)) is not None:
        finish(code)
    if statistics:
        write_statistics(result.diagnostics, output_format, sys.stdout)
    else:
        write_report(output_format, result, sys.stdout)
    # the result still holds the catalog: leave without freeing it
    finish(EXIT_FINDINGS if fails_at(result.diagnostics, fail_level) else EXIT_OK)


STDIN_LIMIT = 256 << 20
"""Bytes read from standard input at most (the source `-`)."""


def _stdin_source(srcs: list[str], name: str | None) -> tuple[list[str], Any, str]:
    """``srcs`` with ``-`` replaced by a private temporary copy of standard input named like
    ``name`` (so its suffix chooses the parser); the directory is removed after the check."""
    import tempfile

    if srcs.count("-") > 1:
        raise fail("the source `-` (standard input) can be given once")
    data = sys.stdin.buffer.read(STDIN_LIMIT + 1)
    if len(data) > STDIN_LIMIT:
        raise fail(f"standard input holds more than {STDIN_LIMIT >> 20} MiB; name a file instead")
    base = os.path.basename(name or "stdin.json") or "stdin.json"
    folder = tempfile.TemporaryDirectory(prefix="schemalint-stdin-")
    path = os.path.join(folder.name, base)
    with open(path, "wb") as fh:
        fh.write(data)
    return [path if s == "-" else s for s in srcs], folder, path


def _report_stdin_as(result: Any, path: str, name: str) -> None:
    """Diagnostics and fingerprints of the temporary copy ``path`` renamed to ``name``."""
    from dataclasses import replace

    result.diagnostics = [replace(d, file=name) if d.file == path else d for d in result.diagnostics]
    result.fingerprints = [replace(f, file=name) if os.path.abspath(f.file) == os.path.abspath(path) else f
                           for f in result.fingerprints]


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


def within_sources(paths: Sequence[str], cfg: Config) -> list[str]:
    """The ``paths`` (files named on the command line, e.g. by pre-commit) that lie inside a
    configured source: under a configured directory, equal to a configured file, or matching a
    configured glob (relative to the configuration root). A path outside the configuration's
    project (its root directory) is kept: the configuration does not speak for it. ``module:attr``
    sources hold no files; ``exclude`` is applied later, as for every source. Order kept."""
    import fnmatch

    roots: list[str] = []
    globs: list[str] = []
    for source in cfg.sources:
        if any(ch in source for ch in "*?["):
            globs.append(source)
            continue
        candidate = cfg.root / source
        if candidate.exists():
            roots.append(os.path.abspath(candidate))
    kept = []
    project = str(cfg.root.resolve()).rstrip(os.sep) + os.sep
    for path in paths:
        absolute = os.path.abspath(path)
        if not os.path.realpath(absolute).startswith(project):
            kept.append(path)
            continue
        rel = cfg.relative(path)
        if any(absolute == root or absolute.startswith(root.rstrip(os.sep) + os.sep) for root in roots) or any(
                fnmatch.fnmatch(rel, pattern) for pattern in globs):
            kept.append(path)
    return kept


def _write_summary(target: Path, sources: list[str], servers: bool, cfg: Config, exclude: list[str],
                   scan: bool, reads: list[str]) -> None:
    """``--summary-out``: :func:`schemalint.api.summarise` of the shard's files written to ``target``
    through the one write policy (:func:`~schemalint.cli._common.write_user_output`: never onto a
    file the run reads, a file that is not a shard summary, a device, a link out of the project);
    a source that is not files (a module, a server) is an error."""
    import orjson

    from schemalint.api import SourceError, summarise

    if servers:
        raise fail("--summary-out reads files only, not MCP servers")
    guard_output(target, "shard summary", cfg, reads)
    try:
        summary = summarise(sources, exclude=[*cfg.exclude, *exclude], scan=scan)
    except SourceError as exc:
        raise fail(str(exc)) from None
    write_user_output(target, orjson.dumps(summary).decode() + "\n", "shard summary", cfg, reads)
    typer.echo(f"schemalint: wrote the summary of {len(summary['tools'])} tool(s) in {len(summary['files'])} "
               f"file(s) to {target}", err=True)


def _read_summaries(paths: Sequence[Path]) -> CatalogFacts:
    """``--summaries``: the merged :class:`~schemalint.rules.facts.CatalogFacts` of the summary files
    (a directory stands for its ``*.json`` files, sorted by name). Exits 2 naming the file that
    cannot be read or is not a summary."""
    import orjson

    from schemalint.rules.facts import SummaryError, merge_summaries

    files = [f for p in paths for f in (sorted(p.glob("*.json")) if p.is_dir() else [p])]
    loaded = []
    from schemalint.safe_read import UnreadableFile, read_text

    for f in files:
        try:
            loaded.append(orjson.loads(read_text(f)))
        except UnreadableFile as exc:
            raise fail(f"{f}: cannot read the summary: {exc.reason}") from None
        except OSError as exc:
            raise fail(f"{f}: cannot read the summary: {exc.strerror or exc}") from None
        except orjson.JSONDecodeError as exc:
            raise fail(f"{f}: not a schemalint shard summary: {exc}") from None
    if not loaded:
        raise fail("--summaries: no summary file found")
    try:
        return merge_summaries(loaded)
    except SummaryError as exc:
        raise fail(f"--summaries: {exc}") from None


def _own_files(cfg: Config, baseline_file: str | None) -> list[str]:
    """schemalint's own outputs under the sources (the snapshot directory, the baseline file): they
    hold copies of tool definitions and must not be linted as a second definition of each tool."""
    own = [baseline_file] if baseline_file else []
    if isinstance(cfg.baseline, str) and cfg.baseline:
        own.append(cfg.resolve_path(cfg.baseline))
    snapshot_dir = cfg.raw.get("snapshot-dir")
    if isinstance(snapshot_dir, str) and snapshot_dir:
        own.append(cfg.resolve_path(snapshot_dir))
    return [os.path.normpath(p) for p in own]
