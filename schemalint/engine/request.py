"""One value for one check: what ``schemalint check`` parses its options into, handed to the API.

The command builds a :class:`CheckRequest` from its options, as they were given, and calls
:func:`check_request`; an API caller builds the same value. :func:`check_request` resolves the
request against its configuration (sources, exclude, target, dialect, python-path and baseline
of ``[tool.schemalint]``), checks it (:func:`schemalint.engine.check`) and, when asked, records
the findings as a baseline; :func:`write_summary` is the first round of a registry scan in
shards. What a caller gets this way is what the command prints: the same notes (``no tool
definitions found``, the hint about a folder of modules), the same baseline file, the same
errors (each with the message the command prints, without the ``schemalint: error:`` prefix).

A new option of ``check`` is one field here (with its default, so every caller stays valid) and
the code that reads it, in its own module; the command passes the option to the field.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.model import CheckResult
    from schemalint.rules.base import Rule
    from schemalint.rules.facts import CatalogFacts


class RequestError(ValueError):
    """A request that cannot be run as given (``jobs`` below 1, an unknown target or dialect, a
    source or summary that cannot be used); the message names the option and what to do."""


@dataclass(frozen=True)
class CheckRequest:
    """Everything one check is asked to do, as the options give it (sequences as tuples).

    ``sources``: files, directories, globs, ``module:attr``, ``file.ts:EXPORT`` (already chosen
    between the command line and the configuration's ``sources``: see ``configured_only``).
    ``config``: the :class:`~schemalint.config.Config` (``None``: none, root = working directory).
    ``exclude``: globs added to the configuration's. ``targets``: provider profiles
    (comma-separated values split; empty: the configuration's ``target``). ``dialect``: a dialect
    name, alias or metaschema URI (``None``: the configuration's). ``python_path``: import roots
    added to the configuration's. ``select``/``extend_select``/``ignore``: rule selectors as for
    :func:`schemalint.engine.check`. ``mcp_stdio``/``mcp_url``/``mcp_headers``/``mcp_cwd``: MCP
    servers to list. ``previous``: sources of an earlier revision. ``baseline``: the baseline
    file to apply (``None``: the configuration's, unless ``no_baseline``). ``write_baseline``:
    record the findings in this file instead (no baseline is applied; the file is checked
    against the write policy of :mod:`schemalint.safe_write` before the run and written after it).
    ``jobs``, ``scan``, ``stream``, ``catalog``, ``rules``: as for :func:`schemalint.engine.check`.
    ``configured_only``: the sources were named on the command line under ``scan`` (the
    pre-commit hook): only those inside the configuration's ``sources`` are checked.
    ``summaries``: shard summary files or directories (``--summaries``), whose merged facts the
    catalog-wide rules read; ``facts``: those facts already merged. ``fail_rule``: testing aid,
    the rule that raises on every tool (``--fail-rule``). ``fail_on``: the least severity that
    fails the check (``error``, ``warning``, ``info``, ``never``; ``None``: the configuration's
    ``fail-on``, else ``error``), decided in ``CheckResult.fails``.
    """

    sources: tuple[str, ...] = ()
    config: Config | None = None
    exclude: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    dialect: str | None = None
    python_path: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    mcp_stdio: tuple[str, ...] = ()
    mcp_url: tuple[str, ...] = ()
    mcp_headers: Mapping[str, str] | None = field(default=None, hash=False)
    mcp_cwd: str | None = None
    previous: tuple[str, ...] = ()
    baseline: str | None = None
    no_baseline: bool = False
    write_baseline: str | None = None
    jobs: int | None = None
    scan: bool = False
    configured_only: bool = False
    stream: bool | None = None
    catalog: bool = True
    summaries: tuple[str, ...] = ()
    facts: CatalogFacts | None = field(default=None, hash=False)
    rules: tuple[Rule, ...] | None = None
    fail_rule: str | None = None
    fail_on: str | None = None

    def with_(self, **changes: Any) -> CheckRequest:
        """A copy with ``changes`` (field name -> value)."""
        return replace(self, **changes)

    @property
    def cfg(self) -> Config:
        """The configuration, or an empty one rooted at the working directory."""
        from schemalint.config import Config

        return self.config if self.config is not None else Config()

    def baseline_file(self) -> str | None:
        """The baseline file to apply: :func:`baseline_to_apply` of this request's options."""
        return baseline_to_apply(self.cfg, self.baseline, no_baseline=self.no_baseline,
                                 write_baseline=self.write_baseline)

    def reads(self) -> list[str]:
        """The files this run reads that an output must never replace: the sources, ``previous``
        and ``baseline`` that are files, and the configuration file."""
        return run_reads(self.cfg, [*self.sources, *self.previous, *([self.baseline] if self.baseline else [])])

    def own_outputs(self) -> list[str]:
        """schemalint's own outputs under the sources (the baseline applied or written, the
        configured baseline and snapshot directory): they hold copies of tool definitions and must
        not be linted as a second definition of each tool."""
        cfg = self.cfg
        own = [p for p in (self.baseline_file(), self.write_baseline) if p]
        if isinstance(cfg.baseline, str) and cfg.baseline:
            own.append(cfg.resolve_path(cfg.baseline))
        snapshot_dir = cfg.raw.get("snapshot-dir")
        if isinstance(snapshot_dir, str) and snapshot_dir:
            own.append(cfg.resolve_path(snapshot_dir))
        return [os.path.normpath(p) for p in own]

    def servers(self) -> bool:
        """Whether the request lists MCP servers besides its sources."""
        return bool(self.mcp_stdio or self.mcp_url)


def baseline_to_apply(cfg: Config, baseline: str | None, *, no_baseline: bool = False,
                      write_baseline: str | None = None) -> str | None:
    """The baseline file a run applies: none when it writes one (``write_baseline``) or under
    ``no_baseline``, else ``baseline`` (the option), else the configuration's ``baseline``
    (resolved against its root). Shared by ``check`` (:meth:`CheckRequest.baseline_file`) and
    ``replay`` (:func:`schemalint.commands.replay_run.run_replay`)."""
    if write_baseline is not None or no_baseline:
        return None
    if baseline is not None:
        return baseline
    return cfg.resolve_path(cfg.baseline) if cfg.baseline else None


def settle(result: CheckResult, cfg: Config, reads: Sequence[str], *, write_baseline: str | None,
           fail_on: str | None) -> CheckResult:
    """The last step of a run that may write a baseline: with ``write_baseline``, record the
    findings there (:meth:`Baseline.from_findings <schemalint.engine.baseline.Baseline.from_findings>`,
    never over one of ``reads``), set ``result.baseline_written`` to the number of entries and
    ``result.fails`` to ``False``; else set ``result.fails``: a finding at least as severe as
    ``fail_on`` (default: the configuration's ``fail-on``, else ``error``). Returns ``result``.
    Raises :class:`~schemalint.safe_write.WriteRefused` (the baseline cannot be written there).
    Shared by ``check`` (:func:`check_request`) and ``replay``."""
    from schemalint.model import fails_at

    if write_baseline is not None:
        from schemalint.engine.baseline import Baseline

        recorded = Baseline.from_findings(result.diagnostics, result.fingerprints)
        write_output(write_baseline, recorded.dumps(), "baseline", cfg, reads)
        result.baseline_written = len(recorded.entries)
        result.fails = False
    else:
        result.fails = fails_at(result.diagnostics, fail_on or cfg.fail_on or "error")
    return result


def run_reads(cfg: Config, paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The files a run reads that an output must never replace: those of ``paths`` (sources,
    ``previous``, the baseline, logs) that are files, and the configuration file of ``cfg``."""
    reads = [os.fspath(p) for p in paths if os.path.isfile(p)]
    if cfg.path is not None:
        reads.append(str(cfg.path))
    return reads


def check_level(value: str | None, levels: Sequence[str]) -> None:
    """Raise :class:`RequestError` unless ``value`` (a ``--fail-on`` value, ``None`` when not given)
    is one of ``levels``: :data:`schemalint.config.FAIL_LEVELS` (check, replay, probe) or
    :data:`schemalint.diff.result.FAIL_LEVELS` (diff)."""
    if value is not None and value not in levels:
        raise RequestError(f"unknown --fail-on {value!r}; choose from {', '.join(levels)}")


def validated(request: CheckRequest) -> CheckRequest:
    """``request`` with its targets defaulted from the configuration and its dialect normalised.
    Raises :class:`RequestError` for an unknown ``fail_on``, ``jobs`` below 1, an unknown target
    or dialect."""
    from schemalint.config import FAIL_LEVELS
    from schemalint.schema.dialect import DIALECTS, normalize_dialect
    from schemalint.targets import TargetError, parse_targets

    check_level(request.fail_on, FAIL_LEVELS)
    if request.jobs is not None and request.jobs < 1:
        raise RequestError(f"--jobs must be at least 1, not {request.jobs}")
    targets = request.targets or tuple(request.cfg.target)
    try:
        parse_targets(targets)
    except TargetError as exc:
        raise RequestError(str(exc)) from None
    dialect = request.dialect
    if dialect is not None:
        chosen = normalize_dialect(dialect)
        if chosen is None:
            raise RequestError(f"unknown --dialect {dialect!r}; choose from {', '.join(DIALECTS)} "
                               "(aliases such as draft7 or a metaschema URI are accepted too)")
        dialect = chosen
    return request.with_(targets=targets, dialect=dialect)


def check_request(request: CheckRequest) -> CheckResult:
    """Run the check ``request`` asks for and return its :class:`~schemalint.model.CheckResult`.

    With ``write_baseline``, the findings are recorded there (:meth:`Baseline.from_findings
    <schemalint.engine.baseline.Baseline.from_findings>`) and ``CheckResult.baseline_written``
    holds the number of entries; else ``CheckResult.fails`` says whether a finding is at least as
    severe as ``fail_on`` (the command's exit status 1). Raises :class:`RequestError` (see :func:`validated`; a summary
    file that cannot be read), :class:`~schemalint.safe_write.WriteRefused` (the baseline cannot
    be written there, or the write failed), and what :func:`schemalint.engine.check` raises.
    """
    from schemalint.engine import check
    from schemalint.model import CheckResult

    request = validated(request)
    cfg = request.cfg
    reads = request.reads()
    if request.write_baseline is not None:
        check_output(request.write_baseline, "baseline", cfg, reads)
    sources = list(request.sources)
    if request.configured_only and cfg.sources:
        sources = within_sources(sources, cfg)
        if not sources and not request.servers():
            return CheckResult(diagnostics=[], files=0, tools=0, elapsed=0.0, fails=False, notes=[
                "none of the files named lies in the configured `sources`; nothing to check"])
    facts = read_summaries(request.summaries) if request.summaries else request.facts
    if request.fail_rule:
        from schemalint.rules.base import FAIL_RULE_ENV

        os.environ[FAIL_RULE_ENV] = request.fail_rule  # read by the rule runner, here and in --jobs workers
    result = check(
        sources,
        exclude=[*cfg.exclude, *request.exclude, *request.own_outputs()],
        targets=request.targets,
        mcp_stdio=request.mcp_stdio,
        mcp_url=request.mcp_url,
        mcp_headers=request.mcp_headers,
        mcp_cwd=request.mcp_cwd,
        previous=request.previous,
        dialect=request.dialect or cfg.dialect,
        python_path=cfg.import_roots(list(request.python_path)),
        select=request.select,
        extend_select=request.extend_select,
        ignore=request.ignore,
        config=cfg,
        baseline=request.baseline_file(),
        rules=request.rules,
        jobs=request.jobs,
        scan=request.scan,
        stream=request.stream,
        facts=facts,
        catalog=request.catalog,
    )
    return settle(result, cfg, reads, write_baseline=request.write_baseline, fail_on=request.fail_on)


def write_summary(request: CheckRequest, target: str | os.PathLike[str]) -> dict[str, Any]:
    """The first round of a registry scan in shards (``--summary-out``): the catalog summary of the
    request's files (:func:`schemalint.engine.summarise`) written to ``target`` through the one
    write policy (never onto a file the run reads, a file that is not a shard summary, a device, a
    link out of the project); returned. Raises :class:`RequestError` when the request lists MCP
    servers, :class:`~schemalint.safe_write.WriteRefused`, and
    :class:`~schemalint.errors.SourceError` for a source that is not files."""
    import orjson

    from schemalint.engine import summarise

    if request.servers():
        raise RequestError("--summary-out reads files only, not MCP servers")
    request = validated(request)
    reads = request.reads()
    check_output(target, "shard summary", request.cfg, reads)
    sources = list(request.sources)
    if request.configured_only and request.cfg.sources:
        sources = within_sources(sources, request.cfg)
    summary = summarise(sources, exclude=[*request.cfg.exclude, *request.exclude], scan=request.scan)
    write_output(target, orjson.dumps(summary).decode() + "\n", "shard summary", request.cfg, reads)
    return summary


def read_summaries(paths: Sequence[str | os.PathLike[str]]) -> CatalogFacts:
    """``--summaries``: the merged :class:`~schemalint.rules.facts.CatalogFacts` of the summary files
    (a directory stands for its ``*.json`` files, sorted by name). Raises :class:`RequestError`
    naming the file that cannot be read or is not a summary."""
    from pathlib import Path

    import orjson

    from schemalint.rules.facts import SummaryError, merge_summaries
    from schemalint.safe_read import UnreadableFile, read_text

    files = [f for p in map(Path, paths) for f in (sorted(p.glob("*.json")) if p.is_dir() else [p])]
    loaded = []
    for f in files:
        try:
            loaded.append(orjson.loads(read_text(f)))
        except UnreadableFile as exc:
            raise RequestError(f"{f}: cannot read the summary: {exc.reason}") from None
        except OSError as exc:
            raise RequestError(f"{f}: cannot read the summary: {exc.strerror or exc}") from None
        except orjson.JSONDecodeError as exc:
            raise RequestError(f"{f}: not a schemalint shard summary: {exc}") from None
    if not loaded:
        raise RequestError("--summaries: no summary file found")
    try:
        return merge_summaries(loaded)
    except SummaryError as exc:
        raise RequestError(f"--summaries: {exc}") from None


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


def _is_ours(what: str) -> Any:
    """How a previous output of the kind ``what`` (``baseline``, ``shard summary``) is recognised
    by its first bytes."""
    if what == "baseline":
        from schemalint.engine.baseline import is_baseline_text

        return is_baseline_text
    from schemalint.rules.facts import is_summary_text

    return is_summary_text


def check_output(target: str | os.PathLike[str], what: str, cfg: Config, reads: Sequence[str]) -> None:
    """Raise :class:`~schemalint.safe_write.WriteRefused` when the write policy of
    :mod:`schemalint.safe_write` refuses ``target`` as the ``what`` (``baseline``, ``shard summary``)
    of a run reading ``reads`` in the project of ``cfg`` (checked before the run: fail fast)."""
    from schemalint import safe_write

    safe_write.check_output(target, what=what, is_ours=_is_ours(what), reads=reads, project=cfg.project)


def write_output(target: str | os.PathLike[str], text: str, what: str, cfg: Config, reads: Sequence[str]) -> None:
    """Write ``text`` to ``target`` through :func:`schemalint.safe_write.write_output` (checked again
    at write time, then atomically). Raises :class:`~schemalint.safe_write.WriteRefused` when
    refused or when the write fails (the message names the file and the reason)."""
    from schemalint import safe_write

    try:
        safe_write.write_output(target, text, what=what, is_ours=_is_ours(what), reads=reads, project=cfg.project)
    except safe_write.WriteRefused:
        raise
    except OSError as exc:
        raise safe_write.WriteRefused(f"{target}: cannot write the {what}: {exc.strerror or exc}") from None
