"""``schemalint mcp``: schemalint as an MCP server (stdio) for coding agents.

An agent that writes tool definitions lists this server's tools and calls them: ``check`` (lint
files of the workspace), ``diff`` (what changed between two files or directories), ``show`` (a
tool's advertised schema beside its runtime one), ``rule`` (a rule's page: why a finding
matters and how to fix it) and ``rules`` (the catalog). Each has typed input and a typed
``outputSchema`` (pydantic models below), and its own definitions pass ``schemalint check`` at
every target (tests/test_editor_agent.py lists them over stdio and checks them).

Trust (docs/security.md): the server answers only for paths inside the workspace it was started
in (symlinks resolved); it never imports a Python or TypeScript module or starts a server that
the call names. Module sources and servers run only when the call names no path and the
workspace configuration lists them, as ``schemalint check`` run in the workspace would.

Source: the MCP specification 2025-11-25, "Tools" (structured content and output schemas),
https://modelcontextprotocol.io/specification/2025-11-25/server/tools (seen 2026-12-02).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field

INSTRUCTIONS = (
    "schemalint lints the contracts of LLM tools (function calling, MCP): the advertised JSON schema "
    "against the runtime validator, provider limits, and what descriptions ask for. Call `check` on the "
    "tool files you write, read a finding's page with `rule`, and `diff` two revisions of a tool file."
)


class DiagnosticRecord(BaseModel):
    """One diagnostic, as ``schemalint check --format json`` reports it."""

    code: str = Field(description="Rule code, such as SL101.")
    name: str = Field(description="Rule name, such as required-drift.")
    severity: str = Field(description="error, warning or info.")
    tool: str = Field(description="Name of the tool the finding is about; empty when none.")
    file: str = Field(description="File the finding is in, relative to the workspace.")
    line: int = Field(description="1-based line of the finding; 0 when it has no line.")
    column: int = Field(description="1-based column of the finding; 0 when it has no column.")
    pointer: str = Field(description="JSON pointer (RFC 6901) into the file.")
    message: str = Field(description="What is wrong.")
    hint: str = Field(description="How to fix it; empty when there is no hint.")


class CheckReport(BaseModel):
    """What ``check`` returns."""

    tools: int = Field(description="Number of tool definitions checked.")
    files: int = Field(description="Number of files read.")
    findings: list[DiagnosticRecord] = Field(description="The diagnostics, in report order.")
    notes: list[str] = Field(description="Remarks about the run (files skipped, nothing found).")


class Change(BaseModel):
    """One classified change of ``diff``."""

    code: str = Field(description="Diff check code, such as SD103.")
    kind: str = Field(description="breaking, compatible, description or security.")
    severity: str = Field(description="error, warning or info.")
    tool: str = Field(description="Name of the changed tool.")
    pointer: str = Field(description="JSON pointer of the change inside the tool.")
    message: str = Field(description="What changed.")


class DiffReport(BaseModel):
    """What ``diff`` returns."""

    changes: list[Change] = Field(description="Every change of every tool, in tool order.")
    counts: dict[str, int] = Field(description="Number of changes per kind.")
    notes: list[str] = Field(description="Remarks about the comparison.")


class ToolView(BaseModel):
    """What ``show`` returns for one tool."""

    tool: str = Field(description="The tool's name.")
    file: str = Field(description="Where the tool is defined.")
    view: str = Field(description="The advertised and runtime schemas side by side, as text.")


class ShowReport(BaseModel):
    """What ``show`` returns: every tool of that name found."""

    views: list[ToolView] = Field(description="One entry per definition with that name.")


class RulePage(BaseModel):
    """What ``rule`` returns."""

    code: str = Field(description="Rule code.")
    name: str = Field(description="Rule name.")
    page: str = Field(description="The rule's page (Markdown): what it catches, why, examples, how to fix.")


class RuleEntry(BaseModel):
    """One row of the rule catalog."""

    code: str = Field(description="Rule code.")
    name: str = Field(description="Rule name.")
    severity: str = Field(description="Default severity.")
    summary: str = Field(description="One line about what the rule catches.")


class RuleCatalog(BaseModel):
    """What ``rules`` returns."""

    rules: list[RuleEntry] = Field(description="Every check rule, by code.")


class WorkspaceError(ValueError):
    """A path outside the workspace, or a source this server will not import."""


class Workspace:
    """The directory the server answers for (``root``, symlinks resolved) and its configuration."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root).resolve()

    def inside(self, path: str) -> str:
        """``path`` (relative to the root, or absolute) as a path relative to the root. Raises
        :class:`WorkspaceError` for a path that resolves outside the root (``..``, a symlink out),
        a ``module:attr`` source, a glob or a missing path."""
        from schemalint.loaders.files.sources import is_module_source

        if is_module_source(path) and not os.path.exists(self.root / path):
            raise WorkspaceError(f"{path}: a module source; this server imports modules only when the workspace "
                                 "configuration names them (call without paths)")
        full = (self.root / path).resolve()
        if full != self.root and self.root not in full.parents:
            raise WorkspaceError(f"{path}: outside the workspace {self.root}")
        if not full.exists():
            raise WorkspaceError(f"{path}: no such file or directory in the workspace")
        return str(full)

    def relative(self, path: str) -> str:
        try:
            return os.path.relpath(path, self.root)
        except ValueError:
            return path

    def config(self) -> Any:
        from schemalint.config import load_config

        return load_config(start=self.root)


def _check(ws: Workspace, paths: list[str], targets: list[str], select: list[str]) -> CheckReport:
    from schemalint.config import resolve_sources
    from schemalint.editor.checking import check_paths
    from schemalint.targets import parse_targets

    cfg = ws.config()
    chosen = [ws.inside(p) for p in paths] if paths else [
        s if ":" in s and not os.path.exists(s) else str(cfg.root / s) for s in resolve_sources(cfg)]
    if not chosen:
        raise WorkspaceError("no paths given and the workspace configuration names no sources")
    if targets:
        parse_targets(targets)
    result = check_paths(chosen, cfg, targets=targets, select=select or None)
    findings = [DiagnosticRecord(code=d.code, name=d.name, severity=d.severity.value, tool=d.tool or "",
                        file=ws.relative(d.location_file) if os.path.isabs(d.location_file) else d.location_file,
                        line=d.line or 0, column=d.column or 0, pointer=d.pointer, message=d.message,
                        hint=d.hint or "") for d in result.diagnostics]
    return CheckReport(tools=result.tools, files=result.files, findings=findings, notes=list(result.notes))


def _diff(ws: Workspace, old: str, new: str) -> DiffReport:
    from schemalint.api_commands import diff_tools

    result = diff_tools([ws.inside(old), ws.inside(new)], cfg=ws.config())
    changes = [Change(code=c.check.code, kind=c.kind, severity=c.check.severity.value, tool=c.tool,
                      pointer=c.pointer, message=c.message) for c in result.changes]
    return DiffReport(changes=changes, counts=result.counts_by_kind(), notes=list(result.notes))


def _show(ws: Workspace, tool: str, paths: list[str]) -> ShowReport:
    import io

    from schemalint.api import load
    from schemalint.report import get_reporter
    from schemalint.show import build_view, find_tools_named

    cfg = ws.config()
    chosen = [ws.inside(p) for p in paths]
    loaded = load(chosen, exclude=cfg.exclude, python_path=cfg.import_roots(None))
    views = []
    for found in find_tools_named(loaded.tools, tool):
        view = build_view(found)
        out = io.StringIO()
        get_reporter("text", "render_shows")([view], out)
        views.append(ToolView(tool=found.name, file=ws.relative(found.origin.file), view=out.getvalue()))
    if not views:
        raise WorkspaceError(f"no tool named {tool!r} in {', '.join(paths)}")
    return ShowReport(views=views)


def _rule(code: str) -> RulePage:
    from schemalint.rule_docs import diff_checks, fallback_page, page_text
    from schemalint.rules.registry import find_rule

    rule: Any = find_rule(code)
    if rule is None:
        wanted = code.strip().lower()
        rule = next((c for c in diff_checks() if wanted in (c.code.lower(), c.name)), None)
    if rule is None:
        raise WorkspaceError(f"no rule {code!r}; call `rules` for the catalog")
    return RulePage(code=rule.code, name=rule.name, page=page_text(rule) or fallback_page(rule))


def _rules(prefix: str = "") -> RuleCatalog:
    from schemalint.rule_docs import page_field
    from schemalint.rules.registry import all_rules

    wanted = prefix.strip().upper()
    return RuleCatalog(rules=[RuleEntry(code=r.code, name=r.name, severity=r.severity.value,
                                        summary=page_field(r, "summary"))
                              for r in all_rules() if r.code.upper().startswith(wanted)])


def build_server(root: str | os.PathLike[str]) -> Any:
    """The MCP server answering for the workspace ``root`` (an ``MCPServer`` of the official SDK,
    ``FastMCP`` on SDK 1.x). Raises ``ImportError`` when the ``mcp`` package is missing."""
    try:
        from mcp.server.mcpserver import MCPServer as Server
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:  # the SDK's 1.x releases
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined,unused-ignore]
        from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[no-redef,import-not-found,unused-ignore]
    from mcp.types import ToolAnnotations

    from schemalint.api import SourceError
    from schemalint.config import ConfigError
    from schemalint.diff.errors import DiffError
    from schemalint.targets import TargetError

    expected = (WorkspaceError, SourceError, ConfigError, DiffError, TargetError)

    def answer(work: Any, *args: Any) -> Any:
        """``work(*args)``; a failure the caller can act on (a path outside the workspace, a
        missing file, an unknown rule) is a tool error with that message, not a crash."""
        try:
            return work(*args)
        except expected as exc:
            raise ToolError(str(exc)) from None

    ws = Workspace(root)
    server = Server(name="schemalint", instructions=INSTRUCTIONS)
    read_only = ToolAnnotations.model_validate(  # the wire names: SDK 1.x and 2.x both read them
        {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False})

    @server.tool(annotations=read_only)
    def check(
        paths: Annotated[list[str] | None, Field(description="Files or directories inside the workspace; null: "
                                                             "the sources the workspace configuration names.")] = None,
        targets: Annotated[list[str] | None, Field(description="Provider targets such as openai-strict or gemini; "
                                                               "null: the configured ones.")] = None,
        select: Annotated[list[str] | None, Field(description="Rule codes or prefixes to run (SL1, SL201); null: "
                                                              "every configured rule.")] = None,
    ) -> CheckReport:
        """Lint the tool definitions in the given workspace files (JSON, YAML, JSON Lines, MCP
        snapshots) and return every diagnostic with its rule, file, line, JSON pointer and hint."""
        return answer(_check, ws, paths or [], targets or [], select or [])

    @server.tool(annotations=read_only)
    def diff(
        old: Annotated[str, Field(description="The earlier tool file or directory, inside the workspace.")],
        new: Annotated[str, Field(description="The later tool file or directory, inside the workspace.")],
    ) -> DiffReport:
        """Compare the advertised schemas of two tool files and classify each change as breaking,
        compatible, description-only or security-relevant."""
        return answer(_diff, ws, old, new)

    @server.tool(annotations=read_only)
    def show(
        tool: Annotated[str, Field(description="The name of the tool to show.")],
        paths: Annotated[list[str], Field(description="Files or directories inside the workspace to look in.")],
    ) -> ShowReport:
        """Show a tool's advertised schema beside its runtime input schema, with the keys each side
        requires."""
        return answer(_show, ws, tool, paths)

    @server.tool(annotations=read_only)
    def rule(code: Annotated[str, Field(description="A rule code or name, such as SL101 or required-drift.")]
             ) -> RulePage:
        """Return a rule's page: what it catches, why it matters, examples and how to fix it."""
        return answer(_rule, code)

    @server.tool(annotations=read_only)
    def rules(
        prefix: Annotated[str | None, Field(description="Only the rules whose code starts with this, such as SL3 "
                                                        "for the provider rules; null: every rule.")] = None,
    ) -> RuleCatalog:
        """List the check rules with their code, name, default severity and summary."""
        return answer(_rules, prefix or "")

    close_arguments(server)
    return server


def close_arguments(server: Any) -> None:
    """Make every tool's advertised arguments schema one that every provider target accepts in
    strict mode: the root closed (``additionalProperties: false``) and every property listed in
    ``required`` (the optional ones are nullable, so a model sends ``null`` for "not given").
    The arguments model the SDK validates calls with ignores unknown keys and keeps its defaults,
    so the advertised contract is the stricter one and every call it allows is accepted.
    The SDK builds the schema from the function signature and offers no hook for this, so the
    registered tools are edited after registration.

    One target cannot be met together with strict mode: Gemini's ``parameters`` field (a subset
    of OpenAPI 3.0) refuses ``additionalProperties`` and type unions, which strict mode demands;
    MCP clients that hand tools to Gemini use ``parametersJsonSchema`` (target ``gemini-json``),
    which accepts these schemas (docs/editors.md)."""
    manager = getattr(server, "_tool_manager", None)
    for tool in manager.list_tools() if manager is not None else ():
        schema = tool.parameters
        schema["additionalProperties"] = False
        schema["required"] = list(schema.get("properties", {}))
        for prop in schema.get("properties", {}).values():
            # every key is sent, so a default is never applied on the model's side (and OpenAI
            # strict mode does not take the keyword); the arguments model keeps it for old clients
            prop.pop("default", None)


def serve(root: str | os.PathLike[str]) -> None:
    """Run the MCP server for ``root`` on standard input and output until the client closes it."""
    build_server(root).run("stdio")
