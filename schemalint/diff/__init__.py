"""Snapshots and diffs of advertised tool definitions between revisions.

* :mod:`~schemalint.diff.render`: the canonical rendering (snapshot bytes);
* :mod:`~schemalint.commands.diff_compare`: bytes -> meaning -> classified changes per tool;
* :mod:`~schemalint.diff.classify`: deepdiff locations -> the check module of each keyword;
* :mod:`~schemalint.diff.checks`: the table of diff checks and one module per keyword group;
* :mod:`~schemalint.commands.diff_selection`: select/ignore/severity/suppressions for SD codes;
* :mod:`~schemalint.commands.diff_sources`: the two sides (files, directories, ``REV:PATH``, ``--base``);
* :mod:`~schemalint.commands.snapshot`: ``schemalint snapshot`` (write / ``--check``);
* the reports are :mod:`schemalint.report` (the same reporters as `check`).

deepdiff is imported only when two tools differ in meaning. The names below other than the
rendering's are imported on first use: importing one module of this package (``snapshot --check``
needs the rendering, not the classification) does not import the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Imported here, not on first use: importing the module schemalint.diff.render sets the
# package's ``render`` to that module, which this import sets back to the function.
from schemalint.diff.render import render, snapshot_filename

if TYPE_CHECKING:
    from schemalint.diff.errors import DiffError
    from schemalint.diff.result import Change, DiffResult, ToolDiff

__all__ = ["Change", "DiffError", "DiffResult", "ToolDiff", "render", "snapshot_filename"]

_HOME = {"Change": "result", "DiffError": "errors", "DiffResult": "result", "ToolDiff": "result"}


def __getattr__(name: str) -> Any:
    """The names of :data:`__all__`, from their modules (PEP 562); ``AttributeError`` for others."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
