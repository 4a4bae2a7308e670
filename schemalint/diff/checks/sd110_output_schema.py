"""SD110 output-schema-changed: every breaking or compatible change of a tool's ``outputSchema``.

The direction of compatibility is reversed for the consumer of a result (a wider output
type can break the code that reads it), so no output change is called compatible: each is
reported as SD110 with the input-side check it would have been named in the message.
Description changes keep their own check (SD301). MCP specification 2025-06-18, server/tools
(``outputSchema``, ``structuredContent``).
"""

from __future__ import annotations

from schemalint.diff.checks import DiffCheck, check


def as_output(chk: DiffCheck, message: str) -> tuple[DiffCheck, str]:
    """``(check, message)`` for a change found in an output schema."""
    if chk.kind in ("breaking", "compatible"):
        return check("output-schema-changed"), f"output schema: {message} ({chk.name})"
    return chk, message
