"""``schemalint probe`` as a request and its run: each tool's runtime validator called with calls its
advertised schema admits, and whether the run fails (docs/pydantic-and-probes.md).

``schemalint probe`` parses its options into one :class:`ProbeRequest` and hands it to
:func:`run_probe`, which checks that something can be probed (a source besides MCP servers over a
transport, whose ``tools/call`` validation cannot be reached without calling their tools; the
generator's libraries when calls are to be generated), probes (:func:`probe_tools`: the omission
probes and the generated probes of :mod:`schemalint.probe`) and decides: a :class:`ProbeRun`
holds the result the reporters render, the notes, and whether the command exits 1. An API
caller building the same request gets the same run.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemalint.commands.reading import CommandRequest
from schemalint.model import Diagnostic

if TYPE_CHECKING:
    from schemalint.probe import ProbeResult as PhaseResult
    from schemalint.probe import RunBudget


@dataclass(frozen=True)
class ProbeRequest(CommandRequest):
    """Everything one probe run is asked to do, as the options give it (sequences as tuples).

    ``sources``: ``module:attr`` Python sources, TypeScript modules, files, directories, globs
    (only tools with a callable validator are probed). ``mcp_stdio``/``mcp_url``/``mcp_headers``:
    MCP servers, listed but not probed. ``python_path``: import roots added to the
    configuration's; ``exclude``: added to its ``exclude``. ``time_limit``: seconds per tool and
    probe kind; ``max_examples``: generated calls per tool (0: omission probes only);
    ``run_budget``: seconds shared by all tools' probes. ``fail_on``: ``error``, ``warning``,
    ``info`` or ``never``. ``config``: the :class:`~schemalint.config.Config` (``None``: none).
    """

    sources: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    time_limit: float = 2.0
    max_examples: int = 50
    run_budget: float = 30.0
    fail_on: str = "warning"


@dataclass
class ProbeRun:
    """What :func:`run_probe` found: the ``result`` the reporters render (``render_probe``), the
    ``notes`` for the user (the servers listed but not probed), and ``fails``: a diagnostic at
    least as severe as ``fail_on`` (exit 1)."""

    result: ProbeResult
    notes: list[str] = field(default_factory=list)
    fails: bool = False


def run_probe(request: ProbeRequest) -> ProbeRun:
    """Run the probes ``request`` asks for. Raises :class:`~schemalint.engine.request.RequestError`
    (an unknown ``fail_on``; nothing but MCP servers over a transport, with the ``module:attr``
    source to give instead; the generator's libraries missing while ``max_examples`` asks for
    generated calls; headers without a URL) and :class:`~schemalint.errors.SourceError` (a source
    that cannot be loaded)."""
    from schemalint.commands.reading import mcp_servers, request_error
    from schemalint.config import FAIL_LEVELS
    from schemalint.engine.request import check_level
    from schemalint.model import fails_at

    check_level(request.fail_on, FAIL_LEVELS)
    cfg = request.cfg
    servers = mcp_servers(request.mcp_stdio, request.mcp_url, request.mcp_headers, cfg, configured=False)
    if not request.sources and not servers:
        raise request_error("give the module:attr Python sources (or files) to probe")
    if not request.sources:
        raise request_error(_nothing_to_probe(servers.stdio, servers.names()[len(servers.stdio):]))
    if request.max_examples:
        _require_generator()
    result = probe_tools(request.sources, python_path=cfg.import_roots(list(request.python_path)),
                         time_limit=request.time_limit, max_examples=request.max_examples,
                         exclude=[*cfg.exclude, *request.exclude], run_budget=request.run_budget,
                         **servers.load_kwargs())
    notes = []
    if servers:
        n = sum(1 for row in result.rows if row.file.startswith(("mcp-stdio:", "mcp-url:")))
        notes.append(f"{n} tool(s) listed by {', '.join(servers.labels())} not probed: an MCP server over stdio "
                     "or HTTP shows its advertised side only")
    return ProbeRun(result, notes, fails_at(result.diagnostics, request.fail_on))


@dataclass
class ProbeRow:
    """One tool of a probe run. ``omission`` is ``None`` when the tool has no callable validator
    (not probed); ``generated`` is ``None`` when no calls were generated (``max_examples=0`` or the
    omission probe hit its time limit)."""

    tool: str
    file: str
    omission: PhaseResult | None = None
    generated: PhaseResult | None = None
    generated_repeats_omission_findings: bool = False
    budget_stopped: bool = False
    """The run's probe budget stopped this tool's probes (:class:`schemalint.probe.RunBudget`)."""

    def to_json(self) -> dict[str, Any]:
        """The row of ``probe --format json``'s ``tools``."""
        if self.omission is None:
            return {"tool": self.tool, "file": self.file, "probed": False}
        return {
            "tool": self.tool, "file": self.file, "probed": True,
            "omission": _phase_json(self.omission),
            "generated": _phase_json(self.generated) if self.generated is not None else None,
            "generated_repeats_omission_findings": self.generated_repeats_omission_findings,
            "budget_stopped": self.budget_stopped,
        }


@dataclass
class ProbeResult:
    """Outcome of :func:`probe_tools`: one row per tool loaded, the diagnostics (the loaders'
    SL000, then SL107 per tool) and the seconds the probes took."""

    rows: list[ProbeRow] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    elapsed: float = 0.0
    budget: RunBudget | None = None
    """The run's probe budget and what it stopped (``None``: not probed through :func:`probe_tools`)."""

    @property
    def probed(self) -> int:
        """How many tools had a callable validator."""
        return sum(1 for r in self.rows if r.omission is not None)

    def to_json(self) -> dict[str, Any]:
        """The ``probe --format json`` document."""
        return {"version": 1, "tools": [r.to_json() for r in self.rows],
                "diagnostics": [d.to_json() for d in self.diagnostics],
                "summary": {"tools": len(self.rows), "probed": self.probed, "seconds": round(self.elapsed, 3),
                            **({"budget": {"seconds": self.budget.seconds, "tools_stopped": self.budget.cut,
                                           "calls_not_made": self.budget.not_made}} if self.budget else {})}}


def _phase_json(result: PhaseResult) -> dict[str, Any]:
    return {
        "calls": result.calls,
        "seconds": round(result.elapsed, 4),
        "timed_out": result.timed_out,
        "problems": list(result.problems),
        "refusals": [{
            "kind": r.kind,
            "instance_path": r.instance_path,
            "call": r.call,
            "status": r.outcome.status,
            "error_type": r.outcome.error_type,
            "message": r.message,
            "error_paths": r.error_paths,
        } for r in result.refusals],
    }


def probe_tools(sources: Sequence[str], *, python_path: Sequence[str] = (), time_limit: float = 2.0,
                max_examples: int = 50, mcp_stdio: Sequence[str] = (), mcp_url: Sequence[str] = (),
                mcp_headers: Mapping[str, str] | None = None, mcp_cwd: str | None = None,
                exclude: Sequence[str] = (), run_budget: float | None = None) -> ProbeResult:
    """Load ``sources`` and probe every tool whose runtime contract has a callable validator:
    the omission probes, then ``max_examples`` generated calls (fixed seed) unless the omission
    probes hit ``time_limit`` (seconds per tool and probe kind). Generated refusals whose errors
    the omission probes already found are dropped (the row says so). The tools of the MCP
    servers ``mcp_stdio``/``mcp_url`` (:func:`schemalint.api.load`) have no runtime contract: rows
    that are not probed. ``exclude``: fnmatch patterns of paths skipped in files, directories and
    globs, as in ``check``. ``run_budget``: seconds shared by the probes of all tools
    (:class:`schemalint.probe.RunBudget`, default :data:`~schemalint.probe.DEFAULT_RUN_BUDGET`): a tool
    gets what is left over the tools left, at most ``time_limit`` per probe kind; the tools it
    stopped are counted in :attr:`ProbeResult.budget`. Raises :class:`~schemalint.errors.SourceError` when a
    source cannot be loaded."""
    from schemalint.api import load
    from schemalint.probe import DEFAULT_RUN_BUDGET, RunBudget, generated_probe, omission_probe
    from schemalint.rules.contract.sl107_probe_refusal import ProbeRefusal

    loaded = load(sources, exclude=exclude, python_path=python_path, mcp_stdio=mcp_stdio, mcp_url=mcp_url,
                  mcp_headers=mcp_headers, mcp_cwd=mcp_cwd)
    rule = ProbeRefusal()
    started = time.perf_counter()
    probed = sum(1 for t in loaded.tools if t.runtime is not None and t.runtime.validate is not None)
    budget = RunBudget(DEFAULT_RUN_BUDGET if run_budget is None else run_budget, probed)
    result = ProbeResult(diagnostics=list(loaded.diagnostics), budget=budget)
    from schemalint import progress

    progress.phase("probing tools", len(loaded.tools))
    for tool in loaded.tools:
        progress.advance()
        validate = tool.runtime.validate if tool.runtime is not None else None
        row = ProbeRow(tool.name, tool.origin.file)
        result.rows.append(row)
        if validate is None:
            continue
        # the tool's share: half for the omission probes, what they leave for the generated calls
        share = budget.share(time_limit * (2 if max_examples else 1))
        start = time.monotonic()
        first = min(share / 2 if max_examples else share, time_limit)
        row.omission = omitted = omission_probe(tool.advertised, validate, time_limit=time_limit, budget=first)
        second = min(max(share - (time.monotonic() - start), 0.0), time_limit)
        if max_examples and not omitted.timed_out:
            row.generated = generated_probe(tool.advertised, validate, max_examples=max_examples,
                                            time_limit=time_limit, budget=second)
        row.budget_stopped = budget.spent(
            tool.name, time_limit, (omitted, first), (row.generated, second),
            skipped=max_examples if max_examples and omitted.timed_out and first < time_limit else 0)
        result.diagnostics.extend(rule.diagnostics(tool, omitted, time_limit))
        if row.generated is not None:
            known = {e for r in omitted.refusals for e in r.outcome.errors}
            new = [r for r in row.generated.refusals if not r.outcome.errors or not r.outcome.errors <= known]
            row.generated_repeats_omission_findings = len(new) < len(row.generated.refusals)
            row.generated.refusals[:] = new
            result.diagnostics.extend(rule.diagnostics(tool, row.generated, time_limit))
    result.elapsed = time.perf_counter() - started
    # Every diagnostic with its file and line, as check gives them: the pointer's line in a
    # tool file, the definition's line of a module or server source.
    from schemalint.engine import locate_diagnostics
    from schemalint.engine.sites import locate_sources

    located = locate_diagnostics(result.diagnostics, loaded.documents)
    result.diagnostics = locate_sources(located, loaded.tools, loaded.documents, None)
    return result


def _require_generator() -> None:
    """Raise :class:`~schemalint.engine.request.RequestError` when generated probes cannot run
    (hypothesis or hypothesis-jsonschema missing): a probe that could not run is not a pass, for
    any source kind (the generator is Python whichever runtime answers the calls, Node's zod
    included)."""
    import importlib.util

    missing = [m for m in ("hypothesis", "hypothesis_jsonschema") if importlib.util.find_spec(m) is None]
    if missing:
        from schemalint.commands.reading import request_error
        from schemalint.distribution import extra_install_line

        raise request_error(f"generated probes need {' and '.join(m.replace('_', '-') for m in missing)}, which "
                            "this installation of schemalint lacks (for every source kind: the calls are generated "
                            "here, whatever runtime answers them); install them with: "
                            f"{extra_install_line('pydantic')}; or run the omission probes only with --max-examples 0")


def _nothing_to_probe(commands: list[str], urls: list[str]) -> str:
    """The one-line error of a probe given only MCP servers over a transport: what is missing, and
    the ``module:attr`` source to give instead when a command runs a Python file or module."""
    given = [*(f"--mcp-stdio {c!r}" for c in commands), *(f"--mcp-url {u!r}" for u in urls)]
    suggestions = [m for m in map(_python_module_of, commands) if m]
    instead = (f"; to probe it, give the server object as a module:attr source: schemalint probe {suggestions[0]}:"
               if suggestions else "; to probe a Python server, give its server object as a module:attr source "
               "(schemalint probe myapp.server:mcp)")
    return (f"nothing to probe: {', '.join(given)} shows the advertised side only (an MCP server over stdio or "
            f"HTTP has no runtime validator schemalint can call without calling its tools){instead}")


def _python_module_of(command: str) -> str | None:
    """The module a ``python FILE.py`` / ``python -m MODULE`` command runs, as importable from the working
    directory (``examples.mcp_server.server``), or ``None``."""
    import os
    import re
    import shlex

    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if len(argv) < 2 or not re.fullmatch(r"python[0-9.]*(\.exe)?", os.path.basename(argv[0])):
        return None
    if argv[1] == "-m" and len(argv) > 2:
        module = argv[2]
    elif argv[1].endswith(".py") and os.path.isfile(argv[1]):
        relative = os.path.relpath(os.path.abspath(argv[1][:-3]))
        module = relative.replace(os.sep, ".")
    else:
        return None
    return module if all(part.isidentifier() for part in module.split(".")) else None
