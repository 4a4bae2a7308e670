"""The JSON Lines report of ``check`` (``--format jsonl``): one diagnostic per line.

Each line is one compact JSON object with exactly the fields of a diagnostic in the JSON report
(:meth:`schemalint.model.Diagnostic.to_json`: ``code``, ``name``, ``severity``, ``tool``, ``file``,
``pointer``, ``line``, ``column``, ``instance_path``, ``message``, ``hint``; ``copies`` when the
finding repeats in copies of its tool, :mod:`schemalint.report.copies`), in the JSON report's
order: the check sorts the whole run's diagnostics first, then the lines are written one by one
(nothing else is built in memory), so a reader can consume them as they come. There is
deliberately **no summary line**:
the output of several runs over shards of a catalog, concatenated (``cat``), is the output of one
run over all of them, and every line has the same shape, so ``wc -l`` counts findings and
``jq``/``grep``/``sort`` need no special case. The run's counts and the catalog-wide rules' state
are what ``--summary-out`` writes (docs/performance.md, "Registry scale").
Non-ASCII text is kept (UTF-8), as in the JSON report.
"""

from __future__ import annotations

import json
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.model import Diagnostic


def line(diagnostic: Diagnostic) -> str:
    """One diagnostic as a line of JSON (no newline): compact, keys in the JSON report's order,
    non-ASCII kept. orjson writes it unless it cannot encode a value (a lone surrogate: then
    ``json`` with the same separators)."""
    import orjson

    data = diagnostic.to_json()
    try:
        return orjson.dumps(data).decode()
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def render(result: CheckResult, stream: IO[str], **_: object) -> None:
    """Write every diagnostic of ``result`` to ``stream``, one line each, in report order."""
    write = stream.write
    for d in result.diagnostics:
        write(line(d) + "\n")
