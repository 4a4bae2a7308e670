"""SL331 mcp-output-schema-root: an MCP ``outputSchema`` whose root is not ``type: "object"``.

An error for the revisions that restrict the root (provider-facts row ``mcp.output-root-object``:
2025-06-18, 2025-11-25; SDK clients parse ``tools/list`` with that schema, so one such tool makes
the whole list fail). A warning for 2026-07-28 alone (row ``mcp.output-any-root``, ``--target mcp``):
that revision allows any root, but deployed clients still validating against the 2025 revisions
leave such a tool out (row ``mcp-clients.output-root-object``: Claude Code, Cursor).

Source: rules/SL331-mcp-output-schema-root.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.provider._mcp import named, revisions_for


class McpOutputSchemaRoot(ProviderRule):
    """``outputSchema`` root other than ``type: "object"`` under a revision that requires it."""

    severity = E
    facts = ("mcp.output-root-object", "mcp.output-any-root", "mcp-clients.output-root-object")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        out = tool.output_schema
        if out is None:
            return
        revisions = revisions_for(tool, ctx)
        if not revisions:
            return
        if isinstance(out, Mapping):
            if out.get("type") == "object":
                return
            kind = f"has type {json.dumps(out['type'])}" if "type" in out else "has no `type`"
        else:
            kind = f"is {json.dumps(out)[:40]}, not a schema object"
        strict = tuple(r for r in revisions if r in value("mcp.output-root-object"))
        if strict:
            verb = "require" if len(strict) > 1 else "requires"
            yield ProfileFault(
                "mcp", E, None, "root",
                f"the outputSchema {kind}; {named(strict)} {verb} type \"object\" at its root, and SDK clients "
                "of those revisions refuse the whole tools/list when one tool breaks it (allowed from "
                "2026-07-28, SEP-2106)", _HINT, file_pointer=tool.origin.pointer + "/outputSchema")
            return
        yield ProfileFault(
            "mcp", W, None, "root",
            f"the outputSchema {kind}; {named(revisions)} allows any root (SEP-2106), but clients that still "
            "validate tools/list against the 2025 revisions leave the tool out: Claude Code (2026-05) and Cursor "
            "did not load such tools", _HINT, file_pointer=tool.origin.pointer + "/outputSchema")


_HINT = ('wrap the result in an object, e.g. {"type": "object", "properties": {"items": <this schema>}, '
         '"required": ["items"]}, and return {"items": ...} as structuredContent')
