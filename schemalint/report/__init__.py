"""Reporters: each turns a :class:`~schemalint.api.CheckResult` into text on a stream.

``REPORTERS`` maps a ``--format`` name to ``"module:function"``; the CLI builds its
choices from it and imports only the reporter it uses.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import IO, Any

REPORTERS: dict[str, str] = {
    "text": "schemalint.report.text:render",
    "json": "schemalint.report.json_report:render",
    "sarif": "schemalint.report.sarif:render",
    "github": "schemalint.report.github:render",
}


def get_reporter(name: str) -> Callable[..., Any]:
    """The render function for format ``name``; raises ``KeyError`` for an unknown one."""
    module, _, func = REPORTERS[name].partition(":")
    return getattr(importlib.import_module(module), func)


def write_report(name: str, result: Any, stream: IO[str], **options: Any) -> None:
    """Render ``result`` with reporter ``name`` onto ``stream``."""
    get_reporter(name)(result, stream, **options)
