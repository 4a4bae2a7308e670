"""Reporters: one module per format, each rendering every result it applies to onto a stream.

Each reporter module (``text``, ``json_report``, ``sarif``, ``github``, ``jsonl``) has ``render`` for
a :class:`~schemalint.api.CheckResult`; all but ``jsonl`` also have ``render_diff`` for a
:class:`~schemalint.diff.result.DiffResult`; ``text`` and ``json_report`` also render ``show``'s
:class:`~schemalint.show.ToolView` list (``render_shows``) and a
:class:`~schemalint.api_commands.ProbeResult` (``render_probe``).

``CheckFormat``, ``DiffFormat`` and ``ViewFormat`` (``show``, ``probe``) are the ``--format``
choices (typer validates them and lists them in help); ``REPORTERS`` maps a format name to its
module. The CLI imports only the reporter it uses.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, Literal, get_args

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.diff.result import DiffResult

CheckFormat = Literal["text", "json", "sarif", "github", "jsonl"]
DiffFormat = Literal["text", "json", "sarif", "github"]
ViewFormat = Literal["text", "json"]
"""The formats of ``show`` and ``probe``."""

REPORTERS: dict[str, str] = {name: f"schemalint.report.{'json_report' if name == 'json' else name}"
                             for name in get_args(CheckFormat)}
DIFF_FORMATS: tuple[str, ...] = get_args(DiffFormat)
VIEW_FORMATS: tuple[str, ...] = get_args(ViewFormat)


def get_reporter(name: str, kind: str = "render") -> Callable[..., Any]:
    """The function ``kind`` (``render``, ``render_diff``, ``render_shows``, ``render_probe``) of
    format ``name``'s reporter; raises ``KeyError`` for an unknown format, ``AttributeError`` for a
    format that does not render that kind of result."""
    render: Callable[..., Any] = getattr(importlib.import_module(REPORTERS[name]), kind)
    return render


def write_report(name: str, result: CheckResult, stream: IO[str], **options: Any) -> None:
    """Render the check ``result`` with reporter ``name`` onto ``stream``, each finding repeated in
    copies of its tool once (:func:`schemalint.report.copies.fold_copies`)."""
    from schemalint.report.copies import fold_copies

    get_reporter(name)(fold_copies(result), stream, **options)


def write_diff_report(name: str, result: DiffResult, stream: IO[str]) -> None:
    """Render the diff ``result`` with reporter ``name`` (one of :data:`DIFF_FORMATS`) onto ``stream``."""
    get_reporter(name, "render_diff")(result, stream)
