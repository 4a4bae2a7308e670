"""SD401 rug-pull: the description or a schema of a tool changed between the two sides.

The changes themselves are reported by their own checks (SD301, SD1xx, SD2xx, SD110); SD401
is one change per tool that says *that* what the model is told changed after the reviewed
revision or snapshot, so a team can fail on it (or route it to a reviewer) for servers it does
not own. Off by default. "Rug pull": Invariant Labs, "MCP Security Notification: Tool Poisoning
Attacks" (April 2025); OWASP MCP Top 10 (MCP03:2025 Tool Poisoning).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from schemalint.diff.checks import check
from schemalint.diff.checks._common import same_meaning
from schemalint.diff.render import rendered_fields_at, rendered_schema_path
from schemalint.diff.result import Change
from schemalint.model import Tool

if TYPE_CHECKING:
    from schemalint.engine.selection import RuleFilter


def rug_pull(old: Tool, new: Tool, *, old_label: str, new_label: str, base: str = "") -> Change | None:
    """The SD401 change for two definitions of one tool, or ``None`` when neither its description
    nor its input or output schema changed in meaning. ``base``: where the tool's fields live
    in the new definition (``/function`` for OpenAI chat tools)."""
    parts = []
    if old.description != new.description:
        parts.append("description")
    if not same_meaning(old.advertised, new.advertised):
        parts.append("input schema")
    if not same_meaning(old.output_schema, new.output_schema):
        parts.append("output schema")
    if not parts:
        return None
    pointer = f"{base}/description" if parts[0] == "description" else (rendered_schema_path(new) or "")
    return Change(
        check("rug-pull"),
        new.name,
        pointer,
        f"the {' and '.join(parts)} of tool `{new.name}` changed between {old_label} and {new_label}",
        hint="what the model is told about this tool is no longer what was reviewed: read the new "
        "definition before it reaches the model, then approve it (commit the new snapshot)",
        file=new.origin.file,
    )


def stale_snapshot_pulls(
    stale: Sequence[tuple[str, str]], directory: Path, tools: Sequence[Tool], rule_filter: RuleFilter
) -> dict[str, Change]:
    """SD401 for ``snapshot --check``: ``{file name: change}`` for the stale snapshots (``(file
    name, tool name)`` pairs in ``directory``) whose tool's description or schema moved.

    Empty unless ``rule_filter`` selects SD401; per-file/per-tool ignores apply. A snapshot that
    cannot be read is left to the unified diff ``--check`` prints anyway.
    """
    if not rule_filter.rule_enabled("SD401"):
        return {}
    from schemalint.loaders.files.documents import read_document
    from schemalint.loaders.formats.json_tools import load_document_tools

    by_name = {t.name: t for t in tools}
    out: dict[str, Change] = {}
    for filename, name in stale:
        new = by_name.get(name)
        doc = read_document(str(directory / filename))
        if doc.problems:
            continue
        old = load_document_tools(doc)
        if new is None or len(old) != 1:
            continue
        change = rug_pull(old[0], new, old_label=f"the snapshot {filename}", new_label="the sources",
                          base=rendered_fields_at(new))
        if change is not None and rule_filter.suppression_for(change) is None:
            out[filename] = change
    return out
