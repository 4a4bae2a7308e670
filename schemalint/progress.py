"""Progress of long work (check over many files, probe, snapshot, diff of revisions, replay).

Shown on a terminal only: on standard error, when it is a terminal, outside CI (``CI`` unset)
and with ``TERM`` other than ``dumb``; nothing is written to a pipe, a file or a CI log unless
asked (``SCHEMALINT_PROGRESS=1``: then one plain line per phase and at most one count line every
5 s; ``SCHEMALINT_PROGRESS=0`` turns it off everywhere). On a terminal it is one transient line
drawn by rich (spinner, phase, count, bar, elapsed time), gone before the command prints its
report: the first write to standard output or standard error stops it.

Lower layers call :func:`phase` and :func:`advance`, which do nothing until the CLI calls
:func:`install` (rich is imported only then); a forked worker's calls do nothing either (only the
process that installed the display draws it).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, TextIO

_display: _Display | None = None
_owner = 0


def wanted(stream: TextIO | None = None) -> bool:
    """Whether progress is shown on ``stream`` (default: standard error); see the module docstring."""
    asked = os.environ.get("SCHEMALINT_PROGRESS", "")
    if asked in ("0", "1"):
        return asked == "1"
    stream = stream or sys.stderr
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


def install(stream: TextIO | None = None) -> bool:
    """Turn progress on for this process when :func:`wanted`; returns whether it is on."""
    global _display, _owner
    stream = stream or sys.stderr
    if not wanted(stream):
        return False
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    _display = _Display(stream, live=tty)
    _owner = os.getpid()
    return True


def phase(text: str, total: int | None = None) -> None:
    """Start a phase (``"reading files"``) of ``total`` steps (``None``: unknown)."""
    if _display is not None and os.getpid() == _owner:
        _display.phase(text, total)


def advance(steps: int = 1) -> None:
    """Count ``steps`` more steps of the current phase."""
    if _display is not None and os.getpid() == _owner:
        _display.advance(steps)


def stop() -> None:
    """Remove the progress line (the report follows); a later :func:`phase` draws it again."""
    if _display is not None:
        _display.stop()


class _StopOnWrite:
    """Stands in for ``sys.stdout``/``sys.stderr`` while the line is drawn: the first write stops
    it, puts the stream back and goes through, so no output is mixed with the line."""

    def __init__(self, stream: TextIO, display: _Display) -> None:
        self._stream = stream
        self._display = display

    def write(self, text: str) -> int:
        self._display.stop()
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Display:
    def __init__(self, stream: TextIO, *, live: bool) -> None:
        self.stream = stream
        self.live = live
        self.progress: Any = None
        self.task: Any = None
        self.text = ""
        self.total: int | None = None
        self.done = 0
        self.last_line = 0.0
        self.saved: tuple[Any, Any] | None = None

    def phase(self, text: str, total: int | None) -> None:
        self.text, self.total, self.done = text, total, 0
        if not self.live:
            self._line(force=True)
            return
        if self.progress is None:
            self._start()
        self.progress.update(self.task, description=text, total=total, completed=0)

    def advance(self, steps: int) -> None:
        self.done += steps
        if not self.live:
            self._line(force=False)
        elif self.progress is not None:
            self.progress.update(self.task, completed=self.done)

    def _line(self, *, force: bool) -> None:
        now = time.monotonic()
        if not force and now - self.last_line < 5:
            return
        self.last_line = now
        count = f" {self.done:,}/{self.total:,}" if self.total else (f" {self.done:,}" if self.done else "")
        self.stream.write(f"schemalint: {self.text}{count}\n")
        self.stream.flush()

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        console = Console(file=self.stream, stderr=True)
        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True,
                                 redirect_stdout=False, redirect_stderr=False)
        self.task = self.progress.add_task(self.text, total=self.total)
        self.progress.start()
        self.saved = (sys.stdout, sys.stderr)
        sys.stdout = _StopOnWrite(sys.stdout, self)
        sys.stderr = _StopOnWrite(sys.stderr, self)

    def stop(self) -> None:
        if self.progress is None:
            return
        progress, self.progress = self.progress, None
        if self.saved is not None:
            sys.stdout, sys.stderr = self.saved
            self.saved = None
        progress.stop()
