"""Snapshots and diffs of advertised tool definitions between revisions.

* :mod:`~schemalint.diff.render`: the canonical rendering (snapshot bytes);
* :mod:`~schemalint.diff.compare`: bytes -> meaning -> classified changes per tool;
* :mod:`~schemalint.diff.classify`: deepdiff locations -> the check module of each keyword;
* :mod:`~schemalint.diff.checks`: the table of diff checks and one module per keyword group;
* :mod:`~schemalint.diff.selection`: select/ignore/severity/suppressions for SD codes;
* :mod:`~schemalint.diff.sources`: the two sides (files, directories, ``REV:PATH``, ``--base``);
* :mod:`~schemalint.diff.snapshot`: ``schemalint snapshot`` (write / ``--check``);
* the reports are :mod:`schemalint.report` (the same reporters as `check`).

deepdiff is imported only when two tools differ in meaning.
"""

from schemalint.diff.compare import DiffError, compare_tools
from schemalint.diff.render import render, snapshot_filename
from schemalint.diff.result import Change, DiffResult, ToolDiff

__all__ = ["Change", "DiffError", "DiffResult", "ToolDiff", "compare_tools", "render", "snapshot_filename"]
