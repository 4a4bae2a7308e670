"""SL333 mcp-annotations: MCP tool annotations that are malformed or contradict each other.

In MCP's ``ToolAnnotations`` (provider-facts row ``mcp.annotation-defaults``), ``annotations`` is an object whose
``title`` is a string and whose hints are booleans; ``readOnlyHint`` (default false) says the tool
does not modify its environment, and ``destructiveHint`` (default true) and ``idempotentHint``
(default false) are "meaningful only when readOnlyHint == false". So:

- ``annotations`` not an object, or a hint that is not a boolean (``"true"``, ``1``; ``null`` is read as
  absent, as the Python SDK writes it without ``exclude_none``): an error; SDK
  clients parse ``tools/list`` with the specification's schema and refuse the whole list;
- ``readOnlyHint: true`` with ``destructiveHint: true`` stated: a warning; the two contradict, and
  clients differ on which one they honour (a confirmation prompt for a read-only tool, or no prompt
  for a destructive one). SDK helpers that fill every hint with its default produce it.

All revisions (annotations exist since 2025-03-26). ``check`` reports these; ``diff`` reports
changed annotations (SD208, SD209).

Source: rules/SL333-mcp-annotations.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from schemalint.model import Tool, join_pointer
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.fixes import SAFE, Fix, boolean_hint
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.provider._mcp import named, revisions_for


class McpAnnotations(ProviderRule):
    """Malformed or contradictory ``annotations`` of an MCP tool."""

    severity = E
    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(SAFE, "a hint written as the string \"true\" or \"false\" becomes that boolean: hints constrain no "
              "call and the string's meaning is not in doubt; contradicting hints have no fix", boolean_hint)
    facts = ("mcp.annotation-defaults",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        raw = tool.raw
        if not isinstance(raw, Mapping) or "annotations" not in raw:
            return
        notes = raw["annotations"]
        at = join_pointer(tool.origin.pointer, "annotations")
        revs = named(revisions_for(tool, ctx))
        if notes is None:
            return
        if not isinstance(notes, Mapping):
            yield ProfileFault("mcp", E, None, "shape",
                          f"`annotations` is {json.dumps(notes)[:40]}, not an object; SDK clients parse tools/list "
                          f"with the specification's schema and refuse the whole list ({revs})",
                          'write an object, e.g. {"readOnlyHint": true}', file_pointer=at)
            return
        hints = tuple(value("mcp.annotation-defaults"))
        for key in hints:
            if notes.get(key) is not None and not isinstance(notes[key], bool):
                # null: what a dump of a Python SDK model without exclude_none writes; the SDK omits it
                yield ProfileFault("mcp", E, None, f"type-{key}",
                              f"`annotations.{key}` is {json.dumps(notes[key])[:40]}, not a boolean; SDK clients "
                              f"parse tools/list with the specification's schema and refuse the whole list ({revs})",
                              f"write {key} as true or false", file_pointer=join_pointer(at, key))
        if notes.get("title") is not None and not isinstance(notes["title"], str):
            yield ProfileFault("mcp", E, None, "type-title",
                          f"`annotations.title` is {json.dumps(notes['title'])[:40]}, not a string; SDK clients "
                          f"refuse the whole tools/list ({revs})", "write the title as a string",
                          file_pointer=join_pointer(at, "title"))
        if notes.get("readOnlyHint") is True and notes.get("destructiveHint") is True:
            yield ProfileFault("mcp", W, None, "read-only-destructive",
                          "`annotations` says both readOnlyHint: true and destructiveHint: true; a read-only tool "
                          "cannot be destructive (destructiveHint is meaningful only when readOnlyHint is false), "
                          f"and clients differ on which hint they honour ({revs})",
                          "drop destructiveHint from a read-only tool (or set readOnlyHint false if it modifies "
                          "anything); check helpers that fill every hint with its default",
                          file_pointer=join_pointer(at, "destructiveHint"))
