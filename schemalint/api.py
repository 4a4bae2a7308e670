"""The public Python API: load sources, run the rules, locate diagnostics.

The CLI is a thin layer over :func:`load` and :func:`check`, the check engine's entry points
(:mod:`schemalint.engine`, where the route reads top to bottom), published here. ``schemalint
check`` parses its options into one :class:`CheckRequest` and hands it to :func:`check_request`,
which resolves it against the configuration, checks, and writes the baseline when asked: an API
caller building the same request gets the command's result, notes and baseline file. A registry
scan in shards: :func:`summarise` each shard, :func:`schemalint.rules.facts.merge_summaries` the
summaries in order, then ``check(shard, facts=merged)`` each shard (docs/performance.md).
"""

from __future__ import annotations

from schemalint.engine import (
    FREEZE_TOOLS,
    LoadResult,
    check,
    load,
    load_document_tools,
    locate_diagnostics,
    problem_diagnostic,
    summarise,
)
from schemalint.engine.request import (
    CheckRequest,
    RequestError,
    check_request,
    read_summaries,
    write_summary,
)
from schemalint.errors import SourceError
from schemalint.model import CheckResult

__all__ = ["FREEZE_TOOLS", "CheckRequest", "CheckResult", "LoadResult", "RequestError", "SourceError", "check",
           "check_request", "load", "load_document_tools", "locate_diagnostics", "problem_diagnostic",
           "read_summaries", "summarise", "write_summary"]
