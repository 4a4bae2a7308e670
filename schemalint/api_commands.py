"""The Python API of the commands other than ``check``: ``diff``, ``snapshot``, ``replay``,
``probe`` and ``show``, each as the command runs it.

Each command parses its options into one frozen request value (:class:`DiffRequest`,
:class:`SnapshotRequest`, :class:`ReplayRequest`, :class:`ProbeRequest`, :class:`ShowRequest`;
every field has a default but the names a command needs) and hands it to its run function
(:func:`run_diff`, :func:`run_snapshot`, :func:`run_replay`, :func:`run_probe`, :func:`run_show`),
which resolves it against the configuration, runs it and decides: the run holds the result the
reporters of :mod:`schemalint.report` render, the notes and summaries the command prints, and
whether it exits 1. An API caller building the same request gets what the command prints.
Errors a user can fix are raised with the one-line message the CLI prints after
``schemalint: error:``: :class:`~schemalint.engine.request.RequestError` (a request that cannot
be run as given), :class:`~schemalint.errors.SourceError` (a source cannot be read or imported),
:class:`~schemalint.diff.errors.DiffError` (the sides of a diff, a snapshot directory).

The work below the runs is public too: :func:`diff_tools` (two sides compared), :func:`snapshot`
(snapshots written or compared), :func:`probe_tools` (the probes). The modules are
:mod:`schemalint.commands` (``diff_run``, ``snapshot_run``, ``replay_run``, ``probe_run``,
``show_run``); this facade sits above :mod:`schemalint.api`, which does not import it. Heavy
modules are imported inside the functions.
"""

from __future__ import annotations

from schemalint.commands.diff_run import DiffRequest, DiffRun, diff_tools, run_diff
from schemalint.commands.probe_run import ProbeRequest, ProbeResult, ProbeRow, ProbeRun, probe_tools, run_probe
from schemalint.commands.reading import NO_SOURCES, McpServers
from schemalint.commands.replay_run import ReplayRequest, ReplayRun, run_replay
from schemalint.commands.show_run import ShowRequest, run_show
from schemalint.commands.snapshot_run import (
    SnapshotRequest,
    SnapshotRun,
    run_snapshot,
    snapshot,
    snapshot_directory,
)

__all__ = ["NO_SOURCES", "DiffRequest", "DiffRun", "McpServers", "ProbeRequest", "ProbeResult", "ProbeRow",
           "ProbeRun", "ReplayRequest", "ReplayRun", "ShowRequest", "SnapshotRequest", "SnapshotRun", "diff_tools",
           "probe_tools", "run_diff", "run_probe", "run_replay", "run_show", "run_snapshot", "snapshot",
           "snapshot_directory"]
