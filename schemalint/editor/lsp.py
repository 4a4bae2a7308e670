"""``schemalint server``: the language server (LSP over stdio, built on pygls).

What it does, in the order an editor sees it (docs/editors.md):

- A tool file (JSON, YAML, JSON Lines, ``.snap``) is checked from its unsaved buffer when it is
  opened and, debounced by :data:`DEBOUNCE_SECONDS`, after each change; a run whose buffer
  changed again before it finished is dropped, and runs still waiting are cancelled.
- The configured Python and TypeScript module sources are checked when a ``.py``/``.ts``/``.js``
  file is saved, never on a keystroke: they import user code (in the worker processes and time
  limits of the CLI, docs/security.md).
- Each diagnostic's range spans the key or value its JSON pointer names
  (:mod:`schemalint.editor.ranges`); its code links to the rule page; hovering it shows the page.
- The configuration is found per workspace folder as the CLI finds it, and read again when a
  ``pyproject.toml`` or ``schemalint.toml`` changes (every open document is then re-checked).
- A file in which no tool definition is found publishes no diagnostics.
- An exception in a check is logged (``window/logMessage``) for that document, never published
  as a finding, and the server keeps serving; internal errors of single rules (SL999) are logged
  the same way.

Sources: Language Server Protocol 3.17 (textDocument/publishDiagnostics, hover,
workspace/didChangeWatchedFiles), https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/
(seen 2026-12-02); pygls 2 (https://pygls.readthedocs.io/, seen 2026-12-02).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from schemalint import __version__
from schemalint.editor.checking import (
    SOURCE_SUFFIXES,
    TOOL_FILE_SUFFIXES,
    Checked,
    QuickFix,
    checked_buffer,
    checked_paths,
    module_sources,
    workspace_config,
)
from schemalint.editor.ranges import Positions, span

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.model import Diagnostic

DEBOUNCE_SECONDS = 0.3
"""How long the buffer must rest before it is checked (a burst of keystrokes is one check)."""

CONFIG_NAMES = ("pyproject.toml", "schemalint.toml")
INTERNAL_ERROR = "SL999"
UNREADABLE = "SL000"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}

log = logging.getLogger(__name__)


def uri_path(uri: str) -> str | None:
    """The file system path of a ``file:`` URI, or ``None`` for another scheme (an unsaved
    "untitled:" buffer has no configuration or place on disk and is not checked)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return os.path.normpath(unquote(parsed.path))


@dataclass
class _Published:
    """The diagnostics last published for one document, kept for hover."""

    version: int | None
    text: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    lsp: list[types.Diagnostic] = field(default_factory=list)
    fixes: list[QuickFix | None] = field(default_factory=list)
    fix_all: tuple[int, int, str] | None = None


class SchemalintServer(LanguageServer):
    """The language server: pygls does the protocol; this class holds the per-workspace
    configurations, the pending runs and what was last published."""

    def __init__(self) -> None:
        super().__init__("schemalint", __version__)
        self.executor = _checker()
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.published: dict[str, _Published] = {}
        self.configs: dict[str, Config] = {}
        self.source_uris: set[str] = set()

    # -- configuration -------------------------------------------------------------------

    def folder_for(self, path: str) -> str:
        """The workspace folder holding ``path`` (the longest match), else the file's directory."""
        best = ""
        for folder in self.workspace.folders.values():
            root = uri_path(folder.uri)
            if root and (path == root or path.startswith(root.rstrip(os.sep) + os.sep)) and len(root) > len(best):
                best = root
        if not best and self.workspace.root_path:
            root = os.path.normpath(self.workspace.root_path)
            if path.startswith(root.rstrip(os.sep) + os.sep):
                best = root
        return best or os.path.dirname(path)

    def config_for(self, folder: str) -> Config:
        """The configuration of ``folder``, read once until a configuration file changes.
        Raises :class:`schemalint.config.ConfigError` for an invalid one."""
        cfg = self.configs.get(folder)
        if cfg is None:
            cfg = workspace_config(folder)
            self.configs[folder] = cfg
        return cfg

    # -- running -------------------------------------------------------------------------

    def log_error(self, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=message))

    def schedule(self, uri: str, delay: float) -> None:
        """Check ``uri``'s buffer after ``delay`` seconds, cancelling a run that still waits."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.get_event_loop().create_task(self._check_later(uri, delay))

    async def _check_later(self, uri: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
        except asyncio.CancelledError:
            return
        document = self.workspace.get_text_document(uri)
        path = uri_path(uri)
        if path is None or not path.endswith(TOOL_FILE_SUFFIXES) or not os.path.isfile(path):
            return
        version, text = document.version, document.source
        try:
            cfg = self.config_for(self.folder_for(path))
            result = await self.run_job(checked_buffer, path, text, cfg)
        except asyncio.CancelledError:
            return
        except Exception as exc:
            self.log_error(f"schemalint: {path}: the check failed: {type(exc).__name__}: {exc}")
            return
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]
        current = self.workspace.get_text_document(uri)
        if current.version != version:
            return  # the buffer changed while it was checked: a newer run follows
        found = self.diagnostics_for(result, path, text)
        by_id = {id(d): result.fixes.get(i) for i, d in enumerate(result.diagnostics)}
        self.publish(uri, version, text, found, [by_id.get(id(d)) for d in found], result.fix_all)

    async def run_job(self, job: Any, *args: Any) -> Checked:
        """``job(*args)`` in the checking process. A process that died (a crash in native code, a
        module that exits) is replaced before the error is raised, so the next run works."""
        loop = asyncio.get_event_loop()
        try:
            result: Checked = await loop.run_in_executor(self.executor, job, *args)
        except concurrent.futures.process.BrokenProcessPool:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = _checker()
            raise
        return result

    def diagnostics_for(self, result: Checked, path: str | None, text: str | None = None) -> list[Diagnostic]:
        """The diagnostics of ``result`` to publish (for ``path``; all when ``None``); internal
        errors are logged instead of published. When no tool was found, nothing is published,
        except the unreadable-file findings (SL000) of a buffer that does not parse but looks like
        a tool file (``text``: the buffer), the CLI's policy for files that do not parse
        (:func:`schemalint.loaders.files.documents.looks_like_tool_file`): a tool file that
        breaks while it is typed shows why, a ``package.json`` stays silent."""
        if result.tools == 0:
            from schemalint.loaders.files.documents import looks_like_tool_file

            if path is None or text is None or not looks_like_tool_file(path, text):
                return []
            return [d for d in result.diagnostics if d.code == UNREADABLE
                    and os.path.realpath(d.location_file) == os.path.realpath(path)]
        kept = []
        for d in result.diagnostics:
            if d.code == INTERNAL_ERROR:
                self.log_error(f"schemalint: {d.location_file}: internal error in a rule: {d.message}")
                continue
            if path is None or os.path.realpath(d.location_file) == os.path.realpath(path):
                kept.append(d)
        return kept

    def publish(self, uri: str, version: int | None, text: str, found: list[Diagnostic],
                fixes: list[QuickFix | None] | None = None, fix_all: tuple[int, int, str] | None = None) -> None:
        lines = text.splitlines()
        lsp = [to_lsp(d, lines) for d in found]
        self.published[uri] = _Published(version, text, found, lsp, fixes or [None] * len(found), fix_all)
        params = types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=lsp)
        self.text_document_publish_diagnostics(params)

    async def check_sources(self, saved_path: str) -> None:
        """Re-check the configured module sources of the folder holding ``saved_path`` and
        publish their diagnostics per file (clearing files that have none left)."""
        folder = self.folder_for(saved_path)
        try:
            cfg = self.config_for(folder)
            sources = module_sources(cfg)
            if not sources:
                return
            result = await self.run_job(checked_paths, sources, cfg)
        except Exception as exc:
            self.log_error(f"schemalint: checking the module sources of {folder} failed: {type(exc).__name__}: {exc}")
            return
        by_file: dict[str, list[Diagnostic]] = {}
        for d in self.diagnostics_for(result, None):
            where = d.location_file if os.path.isabs(d.location_file) else os.path.join(str(cfg.root), d.location_file)
            if os.path.isfile(where):
                by_file.setdefault(from_fs_path(os.path.normpath(where)) or where, []).append(d)
        for uri in self.source_uris - set(by_file):
            self.publish(uri, None, "", [])
        for uri, found in by_file.items():
            path = uri_path(uri) or ""
            try:
                text = self.workspace.get_text_document(uri).source
            except OSError:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            self.publish(uri, None, text, found)
        self.source_uris = set(by_file)

    def recheck_open_documents(self) -> None:
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, 0)


def _checker() -> concurrent.futures.ProcessPoolExecutor:
    """The one process that runs the checks. A check is pure-Python work that holds the
    interpreter lock for seconds on a large catalog; in a thread it would stall the protocol
    (a hover waited 3 s during a 20 MB check). One process, reused: the engine's per-run state and
    the buffer overlay are process-wide, and a check that imports user code runs once at a time.
    Started with ``spawn``: forking a process that runs an event loop and threads is unsafe."""
    return concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))


def to_lsp(d: Diagnostic, lines: list[str]) -> types.Diagnostic:
    """One schemalint diagnostic as an LSP diagnostic over the buffer's ``lines``: the range of its key or
    value, the severity mapped, the code linked to its page, the hint appended to the message."""
    from schemalint.rule_docs import help_uri
    from schemalint.rules.registry import find_rule

    sl, sc, el, ec = span(lines, d.line, d.column)
    message = d.message if not d.hint else f"{d.message}\nhint: {d.hint}"
    if d.tool:
        message = f"{d.tool}: {message}"
    rule = find_rule(d.code)
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)),
        message=message,
        severity=_SEVERITY.get(d.severity.value, types.DiagnosticSeverity.Warning),
        code=d.code,
        code_description=types.CodeDescription(href=help_uri(rule)) if rule is not None else None,
        source="schemalint",
        data={"pointer": d.pointer, "name": d.name},
    )


FIX_ALL_KIND = "source.fixAll.schemalint"
"""The code action kind of "apply every safe fix" (a ``source.fixAll`` kind, as editors run on save)."""


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _workspace_edit(uri: str, positions: Positions, edits: tuple[tuple[int, int, str], ...]) -> types.WorkspaceEdit:
    text_edits = []
    for start, end, new_text in edits:
        (sl, sc), (el, ec) = positions.at(start), positions.at(end)
        text_edits.append(types.TextEdit(range=types.Range(start=types.Position(line=sl, character=sc),
                                                            end=types.Position(line=el, character=ec)),
                                         new_text=new_text))
    return types.WorkspaceEdit(changes={uri: text_edits})


def code_actions(uri: str, published: _Published, within: types.Range,
                 only: Sequence[str] | None = None) -> list[types.CodeAction]:
    """The code actions for ``within`` of a published document: a quick fix per diagnostic there
    that has a fix (the safe ones preferred, the unsafe ones titled so), and "fix all safe" over the
    whole buffer. ``only``: the kinds the client asked for (LSP ``CodeActionContext.only``)."""
    def wanted(kind: str) -> bool:
        return not only or any(kind == k or kind.startswith(k + ".") for k in only)

    positions = Positions(published.text)
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix):
        for lsp, fix in zip(published.lsp, published.fixes, strict=True):
            if fix is None or not _overlaps(lsp.range, within):
                continue
            actions.append(types.CodeAction(
                title=fix.title if fix.safe else f"{fix.title} (unsafe: changes what the model may send)",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp],
                is_preferred=fix.safe,
                edit=_workspace_edit(uri, positions, fix.edits)))
    if published.fix_all is not None and wanted(FIX_ALL_KIND):
        safe = sum(1 for f in published.fixes if f is not None and f.safe)
        actions.append(types.CodeAction(
            title=f"schemalint: fix all safe ({safe})",
            kind=FIX_ALL_KIND,
            edit=_workspace_edit(uri, positions, (published.fix_all,))))
    return actions


def _contains(rng: types.Range, pos: types.Position) -> bool:
    start, end = (rng.start.line, rng.start.character), (rng.end.line, rng.end.character)
    return start <= (pos.line, pos.character) <= end


def build_server() -> SchemalintServer:
    """A server with every feature registered (a new one per call, so tests can start several)."""
    server = SchemalintServer()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SchemalintServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SchemalintServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: SchemalintServer, params: types.DidSaveTextDocumentParams) -> None:
        path = uri_path(params.text_document.uri)
        if path is None:
            return
        if os.path.basename(path) in CONFIG_NAMES:
            ls.configs.clear()
            ls.recheck_open_documents()
        elif path.endswith(SOURCE_SUFFIXES):
            await ls.check_sources(path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SchemalintServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = ls.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        if uri not in ls.source_uris:
            ls.published.pop(uri, None)
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: SchemalintServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(os.path.basename(uri_path(c.uri) or "") in CONFIG_NAMES for c in params.changes):
            ls.configs.clear()
            ls.recheck_open_documents()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: SchemalintServer, params: types.DidChangeConfigurationParams) -> None:
        ls.configs.clear()
        ls.recheck_open_documents()

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]),
    )
    def code_action(ls: SchemalintServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        published = ls.published.get(uri)
        if published is None or not any(published.fixes):
            return None
        try:
            current = ls.workspace.get_text_document(uri)
            if current.version != published.version or current.source != published.text:
                return None  # the buffer moved on: the offsets of these fixes no longer hold
        except Exception:
            return None
        return code_actions(uri, published, params.range, params.context.only)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SchemalintServer, params: types.HoverParams) -> types.Hover | None:
        from schemalint.rule_docs import fallback_page, page_text
        from schemalint.rules.registry import find_rule

        published = ls.published.get(params.text_document.uri)
        if published is None:
            return None
        pages = []
        for d, lsp in zip(published.diagnostics, published.lsp, strict=True):
            if not _contains(lsp.range, params.position):
                continue
            rule = find_rule(d.code)
            if rule is not None:
                pages.append(page_text(rule) or fallback_page(rule))
        if not pages:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown,
                                                        value="\n\n---\n\n".join(dict.fromkeys(pages))))

    return server


def serve(_args: Any = None) -> None:
    """Run the language server on standard input and output until the client exits; the checking
    process is stopped with it (a check still running is abandoned)."""
    server = build_server()
    try:
        server.start_io()
    finally:
        server.executor.shutdown(wait=False, cancel_futures=True)
