"""SL330 mcp-schema-dialect: an MCP tool schema's ``$schema`` that clients refuse or fetch.

Source: rules/SL330-mcp-schema-dialect.md, section "Source" (the one place it is written).

For the root ``$schema`` of ``inputSchema`` and ``outputSchema``:

- a URI that names no known dialect: an error (checked as 2020-12, the MCP default);
- a loose spelling of a meta-schema id (``http://json-schema.org/draft-07/schema`` without ``#``,
  ``https://`` for draft-07): a warning naming the dialect it was checked as;
- an exact id of a dialect other than 2020-12: a warning, for revisions 2025-11-25 and later
  (2025-06-18 states no dialect).

And, in an ``outputSchema`` read as 2020-12, a tuple closed with ``items: false`` beside
``prefixItems`` (zod 4's rendering of ``z.tuple``): a warning, every revision. Row
``mcp.draft07-tuple-reading``: a client that validates ``structuredContent`` with draft-07 semantics
ignores ``prefixItems`` and applies ``items: false`` to every element, so every result holding the
tuple fails ("boolean schema is false", Cursor, ScriptedAlchemy/agent-bundle#563, 2026-09-04). The
same shape in an ``inputSchema`` is not reported: no client was seen validating arguments that way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import SAFE, Fix, exact_schema_id
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.provider._mcp import named, revisions_for
from schemalint.schema.dialect import MCP_DIALECT, META_SCHEMA_IDS, dialect_of
from schemalint.schema.index import index_schema


class McpSchemaDialect(ProviderRule):
    """A ``$schema`` an MCP client cannot use as given: unknown, loosely spelled, or not 2020-12."""

    severity = E
    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(SAFE, "a loose meta-schema id becomes the exact id of the dialect the schema was already read as, and "
              "a tuple's `items: false` becomes the `maxItems` that says the same in 2020-12; an unknown id or "
              "another dialect has no fix", exact_schema_id)
    keywords = frozenset({"$schema", "prefixItems"})  # a declared $schema, a 2020-12 tuple (Rule.keywords)
    facts = ("mcp.default-dialect", "mcp.draft07-refused", "mcp.unknown-schema-id", "mcp.draft07-tuple-reading")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        revisions = revisions_for(tool, ctx)
        yield from self._one(tool.advertised, tool.schema_pointer, "inputSchema", revisions)
        if tool.output_schema is not None:
            yield from self._one(tool.output_schema, tool.origin.pointer + "/outputSchema", "outputSchema",
                                 revisions)
            yield from self._closed_tuples(tool.output_schema, tool.origin.pointer + "/outputSchema", revisions)

    def _closed_tuples(self, schema: Any, base: str, revisions: tuple[str, ...]) -> Iterator[ProfileFault]:
        """``prefixItems`` + ``items: false`` in an output schema read as 2020-12 (row
        ``mcp.draft07-tuple-reading``)."""
        if not isinstance(schema, dict) or dialect_of(schema, None, MCP_DIALECT).dialect != MCP_DIALECT:
            return
        for node in index_schema(schema).having("prefixItems"):
            prefix = node.schema.get("prefixItems")
            if node.schema.get("items") is not False or not isinstance(prefix, list):
                continue
            where = f"`{node.pointer}`" if node.pointer else "the outputSchema root"
            yield ProfileFault(
                "mcp", W, None, f"tuple{node.pointer}",
                f"the tuple at {where} is closed with `items: false` beside `prefixItems`; a client that "
                "validates structuredContent with draft-07 semantics ignores `prefixItems` and applies "
                "`items: false` to every element, so every result holding the tuple is refused (\"boolean "
                f"schema is false\", seen in Cursor) ({named(revisions)})",
                f"drop `items: false` and bound the tuple with `\"maxItems\": {len(prefix)}`: 2020-12 clients "
                "still check each position, draft-07 ones accept the tuple",
                instance_path=node.instance_path,
                file_pointer=f"{base}{node.pointer}/items",
            )

    def _one(self, schema: Any, base: str, what: str, revisions: tuple[str, ...]) -> Iterator[ProfileFault]:
        if not isinstance(schema, Mapping) or not isinstance(schema.get("$schema"), str):
            return
        choice = dialect_of(schema, None, MCP_DIALECT)
        shown = json.dumps(choice.declared, ensure_ascii=False)
        at = base + "/$schema"
        if choice.unknown:
            yield ProfileFault(
                "mcp", E, None, "unknown",
                f"the {what}'s `$schema` is {shown}, which names no JSON Schema dialect; it was checked as "
                f"{choice.dialect} (the MCP default), while MCP clients must answer an unsupported dialect "
                f"with an error and refuse the tool ({named(revisions)})",
                f'use "{META_SCHEMA_IDS[MCP_DIALECT]}" or remove `$schema` (2020-12 is the default)',
                file_pointer=at,
            )
            return
        if not choice.exact:
            yield ProfileFault(
                "mcp", W, None, "loose",
                f"the {what}'s `$schema` is {shown}, not the id of the {choice.dialect} meta-schema "
                f"({META_SCHEMA_IDS[choice.dialect]}); it was checked as {choice.dialect}, but validators "
                "look meta-schemas up by exact id and some clients fetch an unknown one (a failed fetch "
                f"dropped most of a server's tools) ({named(revisions)})",
                f'write the exact id "{META_SCHEMA_IDS[choice.dialect]}", or remove `$schema`',
                file_pointer=at,
            )
        newer = tuple(r for r in revisions if r >= "2025-11-25")
        if choice.dialect != MCP_DIALECT and newer:
            yield ProfileFault(
                "mcp", W, None, "declared",
                f"the {what} declares {choice.dialect}; MCP's default dialect is {MCP_DIALECT}, and clients "
                "whose validator knows only 2020-12 refuse the tool (\"JSON Schema declares an unsupported "
                f"dialect\") ({named(newer)})",
                "generate the schema as 2020-12 (zod 4 toJSONSchema's default, pydantic's) and drop the "
                "draft-07 `$schema`",
                file_pointer=at,
            )
