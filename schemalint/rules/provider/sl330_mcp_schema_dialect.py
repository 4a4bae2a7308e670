"""SL330 mcp-schema-dialect: an MCP tool schema's ``$schema`` that clients refuse or fetch.

Source: rules/SL330-mcp-schema-dialect.md, section "Source" (the one place it is written).

For the root ``$schema`` of ``inputSchema`` and ``outputSchema``:

- a URI that names no known dialect: an error (checked as 2020-12, the MCP default);
- a loose spelling of a meta-schema id (``http://json-schema.org/draft-07/schema`` without ``#``,
  ``https://`` for draft-07): a warning naming the dialect it was checked as;
- an exact id of a dialect other than 2020-12: a warning, for revisions 2025-11-25 and later
  (2025-06-18 states no dialect). Where a server library wrote that ``$schema`` into every tool it
  lists (:attr:`~schemalint.model.Origin.listed_by`: the TypeScript SDK 1, fastmcp), the warning is
  given once per module and dialect, at the first such tool, naming the library, the schema roles
  and the tools: their authors cannot change it tool by tool (rows ``mcp-ts-sdk.lists-draft07``,
  ``fastmcp-ts.lists-draft07``).

And, in an ``outputSchema`` read as 2020-12, a tuple closed with ``items: false`` beside
``prefixItems`` (zod 4's rendering of ``z.tuple``): a warning, every revision. Row
``mcp.draft07-tuple-reading``: a client that validates ``structuredContent`` with draft-07 semantics
ignores ``prefixItems`` and applies ``items: false`` to every element, so every result holding the
tuple fails ("boolean schema is false", Cursor, ScriptedAlchemy/agent-bundle#563, 2026-09-04). The
same shape in an ``inputSchema`` is not reported: no client was seen validating arguments that way.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.model import FILE, Diagnostic, Tool
from schemalint.provider_facts import fact
from schemalint.rules.base import Context
from schemalint.rules.fixes import SAFE, Fix, exact_schema_id
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.provider._mcp import named, revisions_for
from schemalint.schema.dialect import MCP_DIALECT, META_SCHEMA_IDS, dialect_of
from schemalint.schema.index import index_schema

LIBRARY_WROTE = "tools/list writes that `$schema`"
"""What the message of a declared-dialect warning on a ``$schema`` a server library wrote says: no
edit of a tool's definition fixes it (``Fix.unfixable``)."""


class McpSchemaDialect(ProviderRule):
    """A ``$schema`` an MCP client cannot use as given: unknown, loosely spelled, or not 2020-12."""

    severity = E
    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(SAFE, "a loose meta-schema id becomes the exact id of the dialect the schema was already read as, and "
              "a tuple's `items: false` becomes the `maxItems` that says the same in 2020-12; an unknown id or "
              "another dialect has no fix", exact_schema_id, unfixable=lambda d: LIBRARY_WROTE in d.message)
    keywords = frozenset({"$schema", "prefixItems"})  # a declared $schema, a 2020-12 tuple (Rule.keywords)
    facts = ("mcp.default-dialect", "mcp.draft07-refused", "mcp.unknown-schema-id", "mcp.draft07-tuple-reading",
             "mcp-ts-sdk.lists-draft07", "fastmcp-ts.lists-draft07")

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        """:meth:`ProviderRule.check_tool`, with the warning about a library's ``$schema`` made a
        finding about the module (no tool, no pointer): it speaks for every tool the library
        listed, and a baseline entry keeps matching it when tools are added, renamed or moved."""
        found = super().check_tool(tool, ctx)
        if tool.origin.listed_by is None:
            return found
        return [dataclasses.replace(d, tool=None, pointer=tool.origin.pointer) if LIBRARY_WROTE in d.message else d
                for d in found]

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        revisions = revisions_for(tool, ctx)
        yield from self._one(tool, tool.advertised, tool.schema_pointer, "inputSchema", revisions)
        if tool.output_schema is not None:
            yield from self._one(tool, tool.output_schema, tool.origin.pointer + "/outputSchema", "outputSchema",
                                 revisions)
            yield from self._closed_tuples(tool.output_schema, tool.origin.pointer + "/outputSchema", revisions)
        yield from self._library_written(tool, revisions, ctx)

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

    def _one(self, tool: Tool, schema: Any, base: str, what: str, revisions: tuple[str, ...]) -> Iterator[ProfileFault]:
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
        newer = _newer(revisions)
        if choice.dialect == MCP_DIALECT or not newer or tool.origin.listed_by is not None:
            return  # a library's $schema is said once for its tools (_library_written)
        yield ProfileFault(
            "mcp", W, None, "declared",
            f"the {what} declares {choice.dialect}; MCP's default dialect is {MCP_DIALECT}, and clients "
            "whose validator knows only 2020-12 refuse the tool (\"JSON Schema declares an unsupported "
            f"dialect\") ({named(newer)})",
            f"generate the schema as 2020-12 (zod 4 toJSONSchema's default, pydantic's) and drop the "
            f"{choice.dialect} `$schema`. A server library may write it into every tool (the MCP TypeScript SDK 1 "
            "does, typescript-sdk#2084; SDK 2 lists 2020-12): `schemalint check` on the server's module says "
            "so once, with what changes it",
            file_pointer=at,
        )

    def _library_written(self, tool: Tool, revisions: tuple[str, ...], ctx: Context) -> Iterator[ProfileFault]:
        """The declared-dialect warning for the tools of ``tool``'s file that its server library
        (:attr:`~schemalint.model.Origin.listed_by`) wrote so: one per dialect, at the first such
        tool in catalog order (its first schema that declares it), naming the library, the schema
        roles and the tools (rows ``mcp-ts-sdk.lists-draft07``, ``fastmcp-ts.lists-draft07``)."""
        library = tool.origin.listed_by
        newer = _newer(revisions)
        if library is None or not newer:
            return
        mine = _declared_by_role(tool)
        if not mine:
            return
        groups = ctx.memo(("SL330 written alike", tool.origin.file, library),
                          lambda: _written_alike(tool, ctx.catalog, ctx), FILE)
        if not any(t is tool for tools, _ in groups.values() for t in tools):
            groups = _written_alike(tool, (tool,), ctx)  # a tool checked without its catalog
        for dialect, (tools, roles) in groups.items():
            own = [role for role, d in mine if d == dialect]
            if not own or tools[0] is not tool:
                continue  # said at the first
            role = own[0]
            shown = " and ".join(r for r in ("inputSchema", "outputSchema") if r in roles)
            yield ProfileFault(
                "mcp", W, None, "declared",
                f"this server's {shown} declare{'s' if ' and ' not in shown else ''} {dialect}: {library}'s "
                f"{LIBRARY_WROTE} into every schema it converts, here in {_tools_named(tools)}, reported once "
                f"for the module; MCP's default dialect is {MCP_DIALECT}, and clients whose validator knows only "
                f"2020-12 refuse these tools (\"JSON Schema declares an unsupported dialect\") ({named(newer)})",
                _library_hint(library, dialect),
                file_pointer=tool.schema_pointer + "/$schema" if role == "inputSchema"
                else tool.origin.pointer + "/outputSchema/$schema",
            )


def _declared_by_role(tool: Tool) -> list[tuple[str, str]]:
    """``[(role, dialect)]``: the schemas of ``tool`` (``inputSchema``, then ``outputSchema``) whose
    exact or loosely spelled ``$schema`` names a known dialect other than MCP's default."""
    out = []
    for role, schema in (("inputSchema", tool.advertised), ("outputSchema", tool.output_schema)):
        if isinstance(schema, Mapping) and isinstance(schema.get("$schema"), str):
            declared = dialect_of(schema, None, MCP_DIALECT)
            if not declared.unknown and declared.dialect != MCP_DIALECT:
                out.append((role, declared.dialect))
    return out


def _written_alike(tool: Tool, catalog: Iterable[Tool], ctx: Context) -> dict[str, tuple[list[Tool], set[str]]]:
    """Per declared dialect, the tools of ``catalog`` in ``tool``'s file listed by its library that
    declare it and are checked for a revision that makes 2020-12 the default, in catalog order,
    with the schema roles that declare it."""
    by_dialect: dict[str, tuple[list[Tool], set[str]]] = {}
    origin = tool.origin
    for other in catalog:
        if other.origin.file != origin.file or other.origin.listed_by != origin.listed_by:
            continue
        declared = _declared_by_role(other)
        if not declared or not _newer(revisions_for(other, ctx)):
            continue
        for role, dialect in declared:
            tools, roles = by_dialect.setdefault(dialect, ([], set()))
            if not tools or tools[-1] is not other:
                tools.append(other)
            roles.add(role)
    return by_dialect


def _newer(revisions: tuple[str, ...]) -> tuple[str, ...]:
    """The revisions that make 2020-12 the default dialect (2025-11-25 and later, SEP-1613)."""
    return tuple(r for r in revisions if r >= "2025-11-25")


def _tools_named(group: tuple[Tool, ...], shown: int = 3) -> str:
    """``"5 tools (`a`, `b`, `c` and 2 more)"``; ``"1 tool (`a`)"``."""
    names = ", ".join(f"`{t.name}`" for t in group[:shown])
    more = f" and {len(group) - shown} more" if len(group) > shown else ""
    return f"{len(group)} tool{'s' if len(group) != 1 else ''} ({names}{more})"


def _library_hint(library: str, dialect: str) -> str:
    """What the author of a tool whose ``$schema`` ``library`` wrote can do (rows
    ``mcp-ts-sdk.lists-draft07``, ``fastmcp-ts.lists-draft07``)."""
    baseline = "or keep this one warning in a baseline (`check --write-baseline`; it names the module, not a tool)"
    if library == "@modelcontextprotocol/sdk":
        row = fact("mcp-ts-sdk.lists-draft07")
        return (f"no `registerTool` argument changes what SDK 1 writes ({row.source}). The TypeScript SDK 2 "
                "(`@modelcontextprotocol/server`) lists zod schemas as 2020-12; an SDK 1 server can wrap its "
                "tools/list handler and drop `$schema` from schemas that read the same in 2020-12 (zod objects "
                f"without tuples do); {baseline}")
    if library == "fastmcp":
        return ("the tools' definitions do not write this: fastmcp converts parameters with xsschema, which gives "
                f"{dialect} for zod 3 and, from xsschema 0.4, for zod 4 too (0.3 gave zod 4's 2020-12); drop "
                f"`$schema` in the server's tools/list answer where the schemas read the same in 2020-12, {baseline}")
    return (f"the `$schema` comes from {library}, not from the tools' definitions: a version of {library} that "
            f"lists 2020-12 removes it; {baseline}")
