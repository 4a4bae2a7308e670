"""SL332 mcp-header: an ``x-mcp-header`` that MCP clients on Streamable HTTP must reject.

A property of ``inputSchema`` may carry ``x-mcp-header`` (provider-facts row ``mcp.header-types``), the
name of an HTTP header that mirrors the argument. Its value must be a non-empty RFC 9110 token
(``1*tchar``, so no space, colon, CR or LF), unique ignoring case within the input schema, and it
may mark only an ``integer``, ``string`` or ``boolean`` property (not ``number``) that is statically
reachable from the root through ``properties`` alone (no ``items``, composition, conditionals or
``$ref`` on the way). "Clients using the Streamable HTTP transport MUST reject tool definitions where
any x-mcp-header value violates these constraints" and exclude the tool: an error. Servers SHOULD
NOT mark secrets with it (headers are logged by proxies): a warning when the property's name looks
like a credential. Revision: 2026-07-28 only (the key is unknown to earlier revisions).

Source: rules/SL332-mcp-header.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, ptr_key, types_of, where
from schemalint.rules.provider._mcp import revisions_for
from schemalint.schema.index import SchemaNode

KEY = "x-mcp-header"
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
"""RFC 9110 section 5.6.2: ``token = 1*tchar``."""
_SECRET = re.compile(r"(pass(word|wd|phrase)?|secret|token|api[_-]?key|apikey|auth(orization)?|credential|"
                     r"cookie|session[_-]?id|private[_-]?key|bearer)", re.I)
_REVISION = "2026-07-28"


def _off_path(node: SchemaNode) -> str | None:
    """The outermost keyword other than ``properties`` on the way from the root to ``node``, or
    ``None`` when every step is a ``properties`` entry (SEP-2243 "statically reachable")."""
    found = None
    n = node
    while n.parent is not None:
        if n.keyword != "properties":
            found = n.keyword
        n = n.parent
    return found


class McpHeader(ProviderRule):
    """``x-mcp-header`` values and placements MCP 2026-07-28 clients must reject."""

    severity = E
    keywords = frozenset({KEY})  # only schemas with the key are checked (Rule.keywords)
    facts = ("mcp.header-types",)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        if _REVISION not in revisions_for(tool, ctx):
            return
        allowed = tuple(value("mcp.header-types"))
        seen: dict[str, str] = {}
        why = "Streamable HTTP clients must drop this tool (MCP 2026-07-28, SEP-2243)"
        for node in index_for(tool, ctx).having(KEY):
            header = node.schema[KEY]
            at = ptr_key(node.pointer, KEY)
            shown = json.dumps(header, ensure_ascii=False)
            if not isinstance(header, str) or not header:
                yield ProfileFault("mcp", E, at, "empty", f"{where(node)} has {KEY} {shown}, not a non-empty header "
                              f"name; {why}", "give a header name such as \"X-Region\"", node.instance_path)
                continue
            if not _TOKEN.fullmatch(header):
                bad = "a line break" if ("\r" in header or "\n" in header) else \
                    f"{json.dumps(next(c for c in header if not _TOKEN.fullmatch(c)))}"
                yield ProfileFault("mcp", E, at, "token", f"{where(node)} has {KEY} {shown}, which contains {bad}: "
                              f"an HTTP header name is a token of letters, digits and !#$%&'*+-.^_`|~ only; {why}",
                              "use letters, digits and hyphens, e.g. \"X-Tenant-Id\"", node.instance_path)
            else:
                first = seen.get(header.lower())
                if first is not None:
                    yield ProfileFault("mcp", E, at, "duplicate",
                                  f"{where(node)} has {KEY} {shown}, the same header name (ignoring case) as "
                                  f"{first}; names must be unique within the input schema; {why}",
                                  "give each property its own header name", node.instance_path)
                else:
                    seen[header.lower()] = where(node)
            off = _off_path(node)
            if off is not None:
                yield ProfileFault("mcp", E, at, "reach",
                              f"{where(node)} has {KEY} but is not reachable from the root through `properties` "
                              f"alone (its path goes through `{off}`); {why}",
                              "mark only top-level or nested-object properties, not items, union branches or "
                              "$defs", node.instance_path)
            types = types_of(node.schema)
            if len(types) != 1 or types[0] not in allowed:
                shown_type = json.dumps(node.schema["type"]) if "type" in node.schema else "no type"
                yield ProfileFault("mcp", E, at, "type",
                              f"{where(node)} has {KEY} on a property of {shown_type}; only "
                              f"{', '.join(allowed)} properties may carry it (not number); {why}",
                              "use type integer or string for the mirrored value", node.instance_path)
            name = node.token if isinstance(node.token, str) else ""
            if _SECRET.search(name):
                yield ProfileFault("mcp", W, at, "secret",
                              f"{where(node)} looks like a credential and is mirrored into the {header!r} HTTP "
                              "header, where proxies and servers log it; servers SHOULD NOT mark secrets with "
                              f"{KEY} (MCP 2026-07-28)",
                              "remove x-mcp-header from this property; pass credentials through the transport's "
                              "authorization, not tool arguments", node.instance_path)
