"""What the MCP rules (SL330-SL333) share: the protocol revisions a tool is checked against.

``--target mcp`` means the latest revision; ``mcp@2025-11-25`` (or ``target =
["mcp@2025-11-25"]`` in the configuration) adds an older one (:func:`schemalint.targets.mcp_revisions`).
Each MCP rule reports for the revisions whose text it enforces and names them in its message.
Source: the provider-facts rows ``mcp.*`` (:mod:`schemalint.provider_facts`).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.targets import mcp_revisions


def revisions_for(tool: Tool, ctx: Context) -> tuple[str, ...]:
    """The MCP revisions ``tool`` is checked against, oldest first (the latest when none is named)."""
    return mcp_revisions(ctx.targets_for(tool))


def named(revisions: Iterable[str]) -> str:
    """``"MCP 2025-06-18, 2025-11-25"`` for messages."""
    return "MCP " + ", ".join(revisions)
