"""SL330 mcp-schema-dialect: an MCP tool schema's ``$schema`` that clients refuse or fetch.

Sources (provider-facts rows): ``mcp.default-dialect`` (MCP 2025-11-25 basic/index.mdx "JSON Schema
Usage", SEP-1613, restated in 2026-07-28: no ``$schema`` means 2020-12; implementations MUST support
2020-12 and MUST "handle unsupported dialects gracefully by returning an appropriate error");
``mcp.draft07-refused`` (clients whose validator knows only 2020-12 refuse a tool declaring
draft-07: "JSON Schema declares an unsupported dialect", nataliapc/mcp-openmsx#22, 2026-09-15, and
several reports like it); ``mcp.unknown-schema-id`` (a ``$schema`` that is no meta-schema's id is
fetched by some clients; a failed fetch of ``https://json-schema.org/draft-07/schema`` dropped most
of a server's tools, executeautomation/mcp-playwright#109 / PR #219, 2026-05-12).

For the root ``$schema`` of ``inputSchema`` and ``outputSchema``:

- a URI that names no known dialect: an error (checked as 2020-12, the MCP default);
- a loose spelling of a meta-schema id (``http://json-schema.org/draft-07/schema`` without ``#``,
  ``https://`` for draft-07): a warning naming the dialect it was checked as;
- an exact id of a dialect other than 2020-12: a warning, for revisions 2025-11-25 and later
  (2025-06-18 states no dialect).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.provider._mcp import named, revisions_for
from schemalint.schema.dialect import MCP_DIALECT, META_SCHEMA_IDS, dialect_of


class McpSchemaDialect(ProviderRule):
    """A ``$schema`` an MCP client cannot use as given: unknown, loosely spelled, or not 2020-12."""

    severity = E
    keywords = frozenset({"$schema"})  # only a declared $schema is checked (Rule.keywords)
    facts = ("mcp.default-dialect", "mcp.draft07-refused", "mcp.unknown-schema-id")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        revisions = revisions_for(tool, ctx)
        yield from self._one(tool.advertised, tool.schema_pointer, "inputSchema", revisions)
        if tool.output_schema is not None:
            yield from self._one(tool.output_schema, tool.origin.pointer + "/outputSchema", "outputSchema",
                                 revisions)

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
