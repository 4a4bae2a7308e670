"""``schemalint replay``: read recorded traffic, lint the tools it declares, run the SL4xx rules.

:func:`replay` streams every log (:func:`schemalint.traffic.stream.read_file`), counts calls per
tool, lints each distinct list of declared tools once with the ``check`` rules (the engine's run
loop), hands each conversation to the traffic rules and merges their repeated findings into one
with a count (:class:`~schemalint.rules.traffic._common.Witness`). The result is a
:class:`~schemalint.model.CheckResult`, so the reporters of ``check`` render it and
``--fail-on``, selection, per-file ignores and the baseline work as for ``check``.

Memory is bounded by the longest record, the distinct finding keys and the distinct declared tool
lists (at most :data:`MAX_TOOL_LISTS` are linted), not by the size of a log. This module sits in
the layer of :mod:`schemalint.api_commands` (it uses the engine and the configuration).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from schemalint.model import CheckResult, Diagnostic, Severity, Tool

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.engine.baseline import Baseline
    from schemalint.rules.traffic._common import TrafficRule

MAX_TOOL_LISTS = 1000
"""Distinct lists of declared tools linted per run; later new lists are counted in a note."""
MAX_UNMERGED = 200
"""Findings without a merge key kept per rule and file; the rest are counted in a note."""


def _signature(tools: Sequence[Tool]) -> str:
    h = hashlib.sha256()
    for t in tools:
        try:
            h.update(json.dumps(t.raw, sort_keys=True, default=repr).encode())
        except (TypeError, ValueError, RecursionError):
            h.update(repr(id(t)).encode())
        h.update(t.origin.format.encode())
    return h.hexdigest()


class _Run:
    """The state of one replay (see the module docstring)."""

    def __init__(self, cfg: Config, enabled: frozenset[str], rules: list[TrafficRule], project: dict[str, Tool],
                 targets: Sequence[str], dialect: str | None) -> None:
        from schemalint.model import RunContext
        from schemalint.rules.traffic._common import TrafficContext
        from schemalint.targets import parse_targets

        self.cfg = cfg
        self.enabled = enabled
        self.rules = rules
        self.ctx = TrafficContext(project=project, options=cfg.options)
        self.spec = parse_targets(targets)
        self.dialect = dialect
        self.run = RunContext()
        self.raw: list[Diagnostic] = []
        self.merged: dict[tuple[str, Hashable], list[Any]] = {}
        self.unmerged: Counter[tuple[str, str]] = Counter()
        self.dropped: Counter[str] = Counter()
        self.lists: set[str] = set()
        self.list_diags: dict[str, tuple[int, int]] = {}
        self.list_refused: set[str] = set()
        self.lists_skipped = 0
        self.tools = 0
        self.tools_by_format: Counter[str] = Counter()
        self.conversations = 0
        self.calls = 0
        self.results = 0
        self.by_format: Counter[str] = Counter()

    def lint_declared(self, tools: Sequence[Tool], accepted: bool = False) -> None:
        """Lint a list of declared tools with the check rules, once per distinct list.
        ``accepted``: the recorded response of this request shows the provider accepted it (see
        :meth:`finish`)."""
        if not tools:
            return
        sig = _signature(tools)
        if not accepted:
            self.list_refused.add(sig)
        if sig in self.lists:
            return
        if len(self.lists) >= MAX_TOOL_LISTS:
            self.lists_skipped += 1
            return
        self.lists.add(sig)
        from schemalint.engine.run_loop import run_rules
        from schemalint.model import running
        from schemalint.rules.base import Context
        from schemalint.rules.registry import rules_for_run

        self.tools += len(tools)
        self.tools_by_format.update(t.origin.format for t in tools)
        ctx = Context(targets=self.spec.targets, replace_targets=self.spec.replace, dialect=self.dialect,
                      catalog=list(tools), options=self.cfg.options, run=self.run)
        with running(self.run):
            active = rules_for_run(self.enabled, tools, ctx)
            start = len(self.raw)
            self.raw.extend(run_rules(active, tools, ctx))
            self.list_diags[sig] = (start, len(self.raw))

    def conversation(self, conv: Any) -> None:
        """Run the traffic rules on one conversation."""
        self.conversations += 1
        self.by_format[conv.format] += 1
        for turn in conv.turns:
            self.results += len(turn.results)
            for call in turn.calls:
                self.calls += 1
                if call.name is not None:
                    self.ctx.calls_by_tool[call.name] = self.ctx.calls_by_tool.get(call.name, 0) + 1
        if conv.declared:
            self.lint_declared(conv.declared, accepted=conv.accepted)
        self.ctx.new_conversation()
        for rule in self.rules:
            try:
                for found in rule.check_conversation(conv, self.ctx):
                    self.add(rule, found)
            except Exception as exc:  # a bug in a rule is SL999, never a finding
                self.raw.append(_internal_error(rule, exc, conv))

    def add(self, rule: TrafficRule, found: Any) -> None:
        d = found.diagnostic
        if found.key is None:
            slot = (rule.code, d.file)
            self.unmerged[slot] += 1
            if self.unmerged[slot] <= MAX_UNMERGED:
                self.raw.append(d)
            else:
                self.dropped[rule.code] += 1
            return
        entry = self.merged.get((rule.code, found.key))
        if entry is None:
            self.merged[(rule.code, found.key)] = [d, 1, rule]
        else:
            entry[1] += 1

    def finish(self) -> list[Diagnostic]:
        """The diagnostics of the run. A provider rule's error (SL3xx: "the provider refuses
        this") on a tool list that every recording of it shows accepted (HTTP 2xx, a normal
        completion) is contradicted by the traffic: it becomes an info that says so."""
        from dataclasses import replace

        out = list(self.raw)
        for sig, (start, end) in self.list_diags.items():
            if sig in self.list_refused:
                continue
            for i in range(start, end):
                d = out[i]
                if d.code.startswith("SL3") and d.severity is Severity.ERROR:
                    out[i] = replace(d, severity=Severity.INFO, message=f"{d.message}; the recorded response was "
                                     "accepted (HTTP 2xx or a normal completion), so the host this request was sent "
                                     "to did not refuse it")
        for d, count, rule in self.merged.values():
            final = rule.counted(d, count, self.ctx)
            if final is not None:
                out.append(final)
        return out


def _internal_error(rule: Any, exc: BaseException, conv: Any) -> Diagnostic:
    from schemalint.engine.run_loop import internal_error

    where = Diagnostic(code=rule.code, name=rule.name, severity=Severity.ERROR, tool=None, file=conv.file,
                       pointer=conv.pointer, message="", line=conv.line)
    return internal_error(rule, exc, where, "this recorded conversation")


def _problem(problem: Any) -> Diagnostic:
    return Diagnostic(code="SL000", name="unreadable-source", severity=Severity.ERROR, tool=None, file=problem.file,
                      pointer="", message=problem.message, line=problem.line, column=problem.column,
                      hint="fix or drop the line; the rest of the log was read")


def locate_traffic(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Fill in line and column of diagnostics that lack a column: a JSON Lines file is read again
    line by line, locating only the lines that have findings; another file is read whole."""
    from dataclasses import replace

    from schemalint import safe_read
    from schemalint.engine.locate import locate
    from schemalint.traffic.stream import MAX_LINE_BYTES, is_line_file

    by_file: dict[str, list[int]] = {}
    for i, d in enumerate(diagnostics):
        if d.column is None and os.path.isfile(d.file):
            by_file.setdefault(d.file, []).append(i)
    out = list(diagnostics)
    for path, indexes in by_file.items():
        line_mode = is_line_file(path) or all(out[i].line is not None for i in indexes)
        try:
            if line_mode:
                wanted: dict[int, list[int]] = {}
                for i in indexes:
                    wanted.setdefault(out[i].line or 1, []).append(i)
                last = max(wanted)
                with safe_read.open_regular(path, limit=None) as fh:
                    for lineno, raw in enumerate(iter(lambda: fh.readline(MAX_LINE_BYTES + 1), b""), 1):
                        if lineno > last:
                            break
                        idxs = wanted.get(lineno)
                        if not idxs:
                            continue
                        text = raw.decode("utf-8", errors="replace")
                        pos = locate(text, "json", [out[i].pointer for i in idxs], first_line=lineno)
                        for i in idxs:
                            line, col = pos.get(out[i].pointer, (lineno, 1))
                            out[i] = replace(out[i], line=line, column=col)
            else:
                text = safe_read.read_bytes(path).decode("utf-8", errors="replace")
                kind = "yaml" if path.lower().endswith((".yaml", ".yml")) else "json"
                pos = locate(text, kind, [out[i].pointer for i in indexes])
                for i in indexes:
                    line, col = pos.get(out[i].pointer, (1, 1))
                    out[i] = replace(out[i], line=line, column=col)
        except (OSError, RecursionError, ValueError):
            continue
    return out


def _no_traffic(logs: Sequence[str], files: int, unparsed: int) -> None:
    """Raise the :class:`~schemalint.errors.SourceError` that says ``logs`` (as named, ``files``
    files read, ``unparsed`` of them skipped as not parsing) hold no recorded traffic."""
    from schemalint.errors import SourceError

    named = ", ".join(logs[:5]) + (f" and {len(logs) - 5} more" if len(logs) > 5 else "")
    skipped = f"; {unparsed} of them do not parse" if unparsed else ""
    raise SourceError(
        f"no recorded traffic was found in {named} ({files} file(s) read{skipped}): replay reads requests, "
        "responses and transcripts of the OpenAI, Anthropic and Gemini APIs, MCP JSON-RPC logs, HAR captures "
        "and VCR cassettes (docs/traffic.md, \"What it reads\"); for tool definitions use `schemalint check`")


def replay(
    logs: Sequence[str],
    *,
    tools: Sequence[str] = (),
    python_path: Sequence[str] = (),
    exclude: Sequence[str] = (),
    targets: Sequence[str] = (),
    dialect: str | None = None,
    select: Sequence[str] | None = None,
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    config: Config | None = None,
    baseline: Baseline | str | os.PathLike[str] | None = None,
    progress: Callable[[int, int], Callable[[int], None]] | None = None,
    require_traffic: bool = False,
) -> CheckResult:
    """Replay the recorded traffic in ``logs`` (files, directories, globs) against its contracts.

    ``tools``: the project's sources (as for ``check``: files, ``module:attr``) whose tools the
    traffic is compared with (SL405) and replayed against (SL406, their runtime contracts).
    ``select``/``extend_select``/``ignore``/``config``/``baseline``: as :func:`schemalint.engine.check`;
    the SL4xx rules are added to the configured selection unless ``select`` is given.
    ``progress``: called once with the total bytes and file count, returning the function to call
    with each chunk of bytes read (a progress bar). ``require_traffic``: raise
    :class:`~schemalint.errors.SourceError` when the files hold no recorded traffic and nothing
    else to report (the command: a log that is not one is an input error, not a clean run;
    without it the result is empty). Raises
    :class:`~schemalint.errors.SourceError` (a missing path, a failed import, no traffic),
    :class:`~schemalint.config.ConfigError` and :class:`~schemalint.engine.baseline.BaselineError`.
    """
    from schemalint.config import Config
    from schemalint.engine import apply_baseline_to, load, select_findings
    from schemalint.engine.selection import build_filter
    from schemalint.loaders.files.sources import expand_sources
    from schemalint.model import fingerprint
    from schemalint.rules.catalog import CATALOG
    from schemalint.rules.registry import AllRules, rule_instance
    from schemalint.traffic.records import Conversation
    from schemalint.traffic.stream import is_line_file, read_file

    started = time.perf_counter()
    cfg = config if config is not None else Config()
    extra = list(extend_select) + ([] if select is not None else ["SL4"])
    rule_filter = build_filter(cfg, select=select, extend_select=extra, ignore=ignore)
    if isinstance(baseline, (str, os.PathLike)):
        from schemalint.engine.baseline import Baseline

        baseline = Baseline.read(baseline)
    project: dict[str, Tool] = {}
    tool_problems: list[Diagnostic] = []
    if tools:
        loaded_tools = load(tools, exclude=exclude, python_path=python_path)
        for tool in loaded_tools.tools:
            project.setdefault(tool.name, tool)
        # a --tools file that cannot be read is said, not silently compared with nothing
        tool_problems = [d for d in loaded_tools.diagnostics if d.code == "SL000"]
    walk_problems: list[tuple[str, str]] = []
    paths = expand_sources(logs, exclude, walk_problems, extra_suffixes=(".har",))
    traffic_rules: list[Any] = [rule_instance(e) for e in CATALOG if e.traffic and e.code in rule_filter.enabled]
    run = _Run(cfg, rule_filter.enabled, traffic_rules, project, targets, dialect)
    run.raw.extend(tool_problems)
    for where, message in walk_problems:
        run.raw.append(Diagnostic(code="SL000", name="unreadable-source", severity=Severity.WARNING, tool=None,
                                  file=where, pointer="", message=message, line=1, column=1))
    advance = None
    if progress is not None:
        total = sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
        advance = progress(total, len(paths))
    named = {os.path.normpath(s) for s in logs if os.path.isfile(s)}
    unparsed = 0
    for path in paths:
        walked = os.path.normpath(path) not in named
        try:
            for item in read_file(path, advance):
                if isinstance(item, Conversation):
                    run.conversation(item)
                elif walked and not is_line_file(path):
                    unparsed += 1  # a directory's config file with comments is not a broken log
                    break
                else:
                    run.raw.append(_problem(item))
        except OSError as exc:
            run.raw.append(Diagnostic(code="SL000", name="unreadable-source", severity=Severity.ERROR, tool=None,
                                      file=path, pointer="", message=f"cannot read: {exc.strerror or exc}",
                                      line=1, column=1))
    if require_traffic and not run.conversations and not run.raw:
        _no_traffic(logs, len(paths), unparsed)
    if any(":" in s and not os.path.exists(s) for s in tools):
        from schemalint.bridge.client import stop_workers

        stop_workers(list(project.values()))
    diagnostics, suppressed = select_findings(run.finish(), rule_filter)
    diagnostics = locate_traffic(diagnostics)
    diagnostics.sort(key=lambda d: (d.file, d.line or 0, d.column or 0, d.code, d.pointer, d.message))
    fingerprints = [fingerprint(d, cfg.relative(d.file), {}) for d in diagnostics]
    formats = ", ".join(f"{k} {v}" for k, v in sorted(run.by_format.items())) or "no traffic found"
    notes = [f"replayed {run.calls} recorded call(s) and {run.results} result(s) in {run.conversations} "
             f"conversation(s) ({formats})"]
    if project:
        notes.append(f"compared with {len(project)} tool(s) of {', '.join(tools)}")
    if unparsed:
        notes.append(f"{unparsed} file(s) found in directories that do not parse were skipped (name a file to see "
                     "why it does not parse)")
    for code, n in sorted(run.dropped.items()):
        notes.append(f"{n} more {code} finding(s) not shown (at most {MAX_UNMERGED} per file)")
    if run.lists_skipped:
        notes.append(f"{run.lists_skipped} further distinct tool list(s) were not linted (at most {MAX_TOOL_LISTS})")
    result = CheckResult(
        diagnostics=diagnostics, files=len(paths), tools=run.tools, elapsed=0.0,
        tools_by_format=dict(run.tools_by_format), notes=notes, rules=AllRules(), fingerprints=fingerprints,
        suppressed=suppressed,
        unused_suppressions=[f"{s.label} ({', '.join(s.rules)}: {s.reason})"
                             for s in rule_filter.unused_suppressions()],
    )
    if baseline is not None:
        checked = {cfg.relative(p) for p in paths}
        apply_baseline_to(result, baseline, lambda f: f in checked)
    from schemalint.engine import add_notes

    add_notes(result)
    result.elapsed = time.perf_counter() - started
    return result
