"""SL006 invalid-tool-name: a tool name that is empty or that providers refuse.

Names are checked against the pattern of the provider the tool's format is written for
(its *own* requirement; ``--target`` profiles are SL301's job, see below):

=====================================  ==================================  =========
profile                                pattern                             severity
=====================================  ==================================  =========
openai, openai-strict (and legacy      ``^[a-zA-Z0-9_-]{1,64}$``            error
``function`` format), bedrock
anthropic, anthropic-strict            ``^[a-zA-Z0-9_-]{1,128}$``           error
gemini, gemini-json                    ``^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`` error
mcp                                    ``^[A-Za-z0-9._-]{1,128}$`` (SHOULD) warning
=====================================  ==================================  =========

An MCP name that passes MCP's pattern but not the portable one (a dot) is a warning:
hosts forward MCP tools to OpenAI/Anthropic, which refuse it (unless an OpenAI, Anthropic
or Bedrock target is active: SL301 then reports the name for that target). An empty name
is always an error.

Division of labour with SL301 tool-name-pattern: SL006 owns the name rule of the tool's
own format; SL301 reports only what another (requested or inferred) target adds, and is
silent on a name SL006 reports (:func:`reports_name`), so one bad name is one diagnostic.
Option ``pattern`` (``[tool.schemalint.options.SL006] pattern = "..."``)
replaces the patterns with one regular expression of your own.

An MCP name that passes both patterns but is too long for the name a host makes of it is a
warning too: Claude Code calls an MCP tool ``mcp__<server>__<name>`` and the API refuses a
name over 64 characters, so a name over 56 fails whatever the server is called (issue reports
of January to March 2026; the rule page's "Source"). Option ``mcp_server_name`` (the name users
give the server in their client configuration) makes the check exact for that name.
An Anthropic tool with ``defer_loading`` (tool search) and a name over 64 characters is an error:
the search returns it as a ``tool_reference``, whose name the API limits to 64.

Source: rules/SL006-invalid-tool-name.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, NamedTuple

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.schema.patterns import search


class NamePattern(NamedTuple):
    """A provider's tool-name pattern, the providers it stands for, and the severity of a miss."""

    regex: re.Pattern[str]
    providers: str
    severity: Severity


PORTABLE = NamePattern(re.compile(r"^[a-zA-Z0-9_-]{1,64}$"), "OpenAI and Anthropic", Severity.ERROR)
ANTHROPIC = NamePattern(re.compile(r"^[a-zA-Z0-9_-]{1,128}$"), "Anthropic", Severity.ERROR)
"""Anthropic's server limit is 128 characters (provider-facts row ``anthropic.tool-name``, observed)."""
GEMINI = NamePattern(re.compile(r"^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$"), "Gemini", Severity.ERROR)
MCP = NamePattern(re.compile(r"^[A-Za-z0-9._-]{1,128}$"), "the MCP specification (SHOULD)", Severity.WARNING)

HOST_PREFIX, HOST_SEPARATOR, HOST_NAME_LIMIT = "mcp__", "__", 64
"""How Claude Code names an MCP tool (``mcp__<server>__<tool>``; a plugin's server adds
``plugin_<plugin>_`` before the server) and the tool-name length the API then enforces."""

PROFILE_PATTERNS: dict[str, NamePattern] = {
    "openai": PORTABLE, "openai-strict": PORTABLE, "anthropic": ANTHROPIC, "anthropic-strict": ANTHROPIC,
    "bedrock": PORTABLE._replace(providers="Bedrock"), "gemini": GEMINI, "gemini-json": GEMINI, "mcp": MCP,
}
"""``--target`` profile -> tool-name pattern."""

FORMAT_PROFILE = {
    "openai-chat": "openai", "openai-responses": "openai", "function": "openai", "manifest": "openai",
    "anthropic": "anthropic", "gemini": "gemini", "gemini-json": "gemini", "mcp": "mcp",
    "docker-arguments": "mcp", "bedrock": "bedrock",
}
"""Tool format -> the profile its names are checked against without ``--target``."""


_PORTABLE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def suggest(name: str) -> str:
    """A name that passes the portable pattern, derived from ``name``."""
    fixed = re.sub(r"[^A-Za-z0-9_-]+", "_", name.strip()).strip("_")
    return (fixed or "tool")[:64]


def _problem(name: str, pattern: NamePattern) -> str:
    if len(name) > 64 and pattern not in (MCP, ANTHROPIC):
        return f"is {len(name)} characters long (at most 64)"
    if len(name) > 128:
        return f"is {len(name)} characters long (at most 128)"
    bad = sorted({c for c in name if c not in _PORTABLE_CHARS})
    if pattern is GEMINI and name[:1].isdigit():
        return "starts with a digit"
    shown = ", ".join("a space" if c == " " else repr(c) for c in bad[:5])
    return f"contains {shown}" if shown else "does not match the pattern"


class InvalidToolName(Rule):
    """A tool name is empty or breaks the name pattern of its provider (or a ``--target``).
    """

    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    options: ClassVar[Mapping[str, Any]] = {
        "pattern": "",
        "mcp_server_name": "",
    }
    regex_options: ClassVar[frozenset[str]] = frozenset({"pattern"})
    """Options that hold a regular expression: the configuration refuses one that
    :func:`schemalint.schema.patterns.search` cannot run (tool names are untrusted input)."""

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        name = tool.name
        if not name.strip():
            where = tool.field_pointer("name")
            yield self.diag(
                tool, None, "the tool has no name (or an empty one); the model cannot call it and providers "
                "refuse the request", hint="give the tool a name such as \"search_documents\"",
                file_pointer=where,
            )
            return
        custom = self.option(ctx, "pattern")
        # the name's file pointer is computed only for a diagnostic (a hot path on large catalogs)
        if isinstance(custom, str) and custom:
            where = tool.field_pointer("name")
            if search(custom, name) is False:  # ECMA-262, linear time; None: refused by the configuration
                yield self.diag(
                    tool, None, f"tool name {name!r} does not match the configured pattern {custom!r}",
                    hint="rename the tool or change the SL006 `pattern` option", file_pointer=where,
                )
            return
        home = PROFILE_PATTERNS[FORMAT_PROFILE.get(tool.origin.format, "openai")]
        if not home.regex.match(name):
            where = tool.field_pointer("name")
            severity = home.severity
            if tool.origin.format == "function" and not ctx.targets.intersection(PROFILE_PATTERNS):
                # Legacy `{name, parameters}` files (benchmarks, hand-kept lists) name no provider, and
                # their harnesses often rewrite names before sending: a warning unless --target says where.
                severity = Severity.WARNING
            if home is MCP:
                consequence = ("; MCP clients may refuse, rename or drop the tool, and hosts forwarding it "
                               "to OpenAI or Anthropic are refused")
            else:
                who = "they refuse" if " and " in home.providers else "it refuses"
                consequence = (f"; {who} the whole request (\"string does not match pattern\"), so no "
                               "tool in it can be called")
            yield self.diag(
                tool, None,
                f"tool name {name!r} {_problem(name, home)}: {home.providers} "
                + ("require " if " and " in home.providers else "requires ")
                + home.regex.pattern + consequence,
                hint=f"rename it, e.g. {suggest(name)!r}", severity=severity, file_pointer=where,
            )
            return
        if (tool.origin.format in ("mcp", "docker-arguments") and not PORTABLE.regex.match(name)
                and not any(PROFILE_PATTERNS.get(t) in (PORTABLE, ANTHROPIC, PROFILE_PATTERNS["bedrock"])
                            for t in ctx.targets_for(tool))):
            # with an OpenAI/Anthropic/Bedrock target SL301 reports the name for that target
            where = tool.field_pointer("name")
            yield self.diag(
                tool, None,
                f"tool name {name!r} {_problem(name, PORTABLE)}: valid for MCP, but a host that forwards the "
                "tool to OpenAI or Anthropic is refused (they require ^[a-zA-Z0-9_-]{1,64}$)",
                hint=f"rename it, e.g. {suggest(name)!r}", severity=Severity.WARNING, file_pointer=where,
            )
            return
        if tool.origin.format in ("mcp", "mcp-server", "docker-arguments") and PORTABLE.regex.match(name):
            yield from self._host_prefixed(tool, name, ctx)
        elif home is ANTHROPIC and len(name) > HOST_NAME_LIMIT and tool.fields.get("defer_loading") is True:
            yield self.diag(
                tool, None,
                f"tool name {name!r} is {len(name)} characters: the Messages API accepts it in `tools`, but this "
                "tool has `defer_loading`, and the tool search hands it back as a `tool_reference` whose name the "
                f"API limits to {HOST_NAME_LIMIT} (\"String should have at most 64 characters\"), so the request "
                "that loads it fails",
                hint=f"keep deferred tool names to {HOST_NAME_LIMIT} characters, e.g. {name[:HOST_NAME_LIMIT]!r}",
                file_pointer=tool.field_pointer("name"),
            )

    def _host_prefixed(self, tool: Tool, name: str, ctx: Context) -> Iterator[Diagnostic]:
        """An MCP name that Claude Code's ``mcp__<server>__`` prefix takes over 64 characters: with
        any server name when it is over 56 characters, or with the configured ``mcp_server_name``."""
        server = self.option(ctx, "mcp_server_name")
        server = server if isinstance(server, str) and server else ""
        full = len(HOST_PREFIX) + max(len(server), 1) + len(HOST_SEPARATOR) + len(name)
        if full <= HOST_NAME_LIMIT:
            return
        if server:
            made = f"`{HOST_PREFIX}{server}{HOST_SEPARATOR}{name}`, {full} characters"
        else:
            made = (f"`{HOST_PREFIX}<server>{HOST_SEPARATOR}{name}`, over {HOST_NAME_LIMIT} characters whatever "
                    "the server is called")
        room = HOST_NAME_LIMIT - len(HOST_PREFIX) - len(HOST_SEPARATOR) - max(len(server), 1)
        yield self.diag(
            tool, None,
            f"tool name {name!r} is {len(name)} characters: valid for MCP, but Claude Code calls the tool "
            f"{made}, and the API refuses a tool name over {HOST_NAME_LIMIT} (\"String should have at most 64 "
            "characters\"), which fails every request or the tool search that holds it",
            hint=f"keep MCP tool names to {room} characters or fewer"
            + (f" with the server named {server!r}" if server else " (fewer with a longer server name; set the "
               "SL006 option `mcp_server_name` to check against the name users give the server)"),
            severity=Severity.WARNING, file_pointer=tool.field_pointer("name"),
        )
