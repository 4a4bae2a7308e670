"""SL331 mcp-output-schema-root: an MCP ``outputSchema`` whose root is not ``type: "object"``.

An error for the revisions that restrict the root (provider-facts row ``mcp.output-root-object``:
2025-06-18, 2025-11-25; SDK clients parse ``tools/list`` with that schema, so one such tool makes
the whole list fail); nothing for 2026-07-28 alone (row ``mcp.output-any-root``, ``--target mcp``):
check ``--target mcp@2025-11-25`` to know what clients of the older revisions do with it.

Source: rules/SL331-mcp-output-schema-root.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule
from schemalint.rules.provider._mcp import named, revisions_for


class McpOutputSchemaRoot(ProviderRule):
    """``outputSchema`` root other than ``type: "object"`` under a revision that requires it."""

    severity = E
    facts = ("mcp.output-root-object", "mcp.output-any-root")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        out = tool.output_schema
        if out is None:
            return
        strict = tuple(r for r in revisions_for(tool, ctx) if r in value("mcp.output-root-object"))
        if not strict:
            return
        if isinstance(out, Mapping):
            if out.get("type") == "object":
                return
            kind = f"has type {json.dumps(out['type'])}" if "type" in out else "has no `type`"
        else:
            kind = f"is {json.dumps(out)[:40]}, not a schema object"
        verb = "require" if len(strict) > 1 else "requires"
        yield ProfileFault(
            "mcp", E, None, "root",
            f"the outputSchema {kind}; {named(strict)} {verb} type \"object\" at its root, and SDK clients "
            "of those revisions refuse the whole tools/list when one tool breaks it (allowed from "
            "2026-07-28, SEP-2106)",
            'wrap the result in an object, e.g. {"type": "object", "properties": {"items": <this schema>}, '
            '"required": ["items"]}, and return {"items": ...} as structuredContent',
            file_pointer=tool.origin.pointer + "/outputSchema",
        )
