"""``schemalint replay`` as a request and its run: recorded traffic read, its declared tools linted,
its tool calls replayed, the baseline applied or written, and whether the run fails (docs/traffic.md).

``schemalint replay`` parses its options into one :class:`ReplayRequest` and hands it to
:func:`run_replay`, which resolves it against the configuration (``fail-on``, ``baseline``,
``exclude``, ``target``, ``dialect``, ``python-path``), checks the baseline file to write against
the write policy before reading anything, replays (:func:`schemalint.commands.replay.replay`) and
records the findings when asked. An API caller building the same request gets the same run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.model import CheckResult

Progress = Callable[[int, int], Callable[[int], None]]
"""Called with the total bytes and the file count; returns the function called with each chunk read."""


@dataclass(frozen=True)
class ReplayRequest:
    """Everything one replay is asked to do, as the options give it (sequences as tuples).

    ``logs``: recorded traffic (files, directories, globs). ``tools``: the project's tool sources
    the traffic is compared with and replayed against. ``fail_on``: ``error``, ``warning``,
    ``info`` or ``never`` (``None``: the configuration's ``fail-on``, else ``error``). ``targets``:
    provider profiles (empty: the configuration's). ``exclude``, ``python_path``: added to the
    configuration's. ``select``/``extend_select``/``ignore``: rule selectors (the SL4xx rules are
    added unless ``select`` is given). ``baseline``: the baseline file to apply (``None``: the
    configuration's, unless ``no_baseline``). ``write_baseline``: record the findings in this file
    instead (no baseline applied). ``config``: the :class:`~schemalint.config.Config` (``None``: none).
    """

    logs: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    fail_on: str | None = None
    targets: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    python_path: tuple[str, ...] = ()
    baseline: str | None = None
    no_baseline: bool = False
    write_baseline: str | None = None
    config: Config | None = None


@dataclass
class ReplayRun:
    """What :func:`run_replay` found: the ``result`` the reporters of ``check`` render (with
    ``write_baseline``, ``result.baseline_written`` holds the entries recorded), and ``fails``: a
    diagnostic at least as severe as the request's fail level (exit 1; never when writing a baseline)."""

    result: CheckResult
    fails: bool = False


def run_replay(request: ReplayRequest, progress: Progress | None = None) -> ReplayRun:
    """Run the replay ``request`` asks for; ``progress``: as for :func:`schemalint.commands.replay.replay`.
    Raises :class:`~schemalint.engine.request.RequestError` (an unknown ``fail_on``),
    :class:`~schemalint.safe_write.WriteRefused` (the baseline cannot be written there),
    :class:`~schemalint.targets.TargetError`, and what :func:`~schemalint.commands.replay.replay` raises."""
    from schemalint.commands.reading import configuration
    from schemalint.commands.replay import replay
    from schemalint.config import FAIL_LEVELS
    from schemalint.engine.request import baseline_to_apply, check_level, check_output, run_reads, settle

    check_level(request.fail_on, FAIL_LEVELS)
    cfg = configuration(request.config)
    baseline = baseline_to_apply(cfg, request.baseline, no_baseline=request.no_baseline,
                                 write_baseline=request.write_baseline)
    reads = run_reads(cfg, [*request.logs, *request.tools, *([baseline] if baseline else [])])
    if request.write_baseline is not None:
        check_output(request.write_baseline, "baseline", cfg, reads)
    result = replay(request.logs, tools=request.tools, python_path=cfg.import_roots(list(request.python_path)),
                    exclude=[*cfg.exclude, *request.exclude], targets=request.targets or cfg.target,
                    dialect=cfg.dialect, select=request.select or None, extend_select=request.extend_select,
                    ignore=request.ignore, config=cfg, baseline=baseline, progress=progress, require_traffic=True)
    settle(result, cfg, reads, write_baseline=request.write_baseline, fail_on=request.fail_on)
    return ReplayRun(result, bool(result.fails))
