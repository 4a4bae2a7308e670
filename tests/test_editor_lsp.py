"""``schemalint server``: a real LSP client (pygls's own) drives the language server over stdio.

Each test starts ``python -m schemalint server`` as a subprocess in a temporary workspace and
speaks the protocol to it: open, change (debounced, stale runs dropped), save of a Python
source, hover, a configuration change, a crashing rule. The published diagnostics are compared
with ``schemalint check FILE --format json`` on the same content.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the editor extra (pygls)")

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from tests._fixtures_cli import run_cli_here
from tests._fixtures_lsp import WEATHER_TOOL, started_server, weather_workspace

REPO = Path(__file__).resolve().parent.parent

class Session:
    """A started server, the diagnostics and log messages it sent, per URI."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.versions: dict[str, int | None] = {}
        self.logs: list[str] = []
        self.events: dict[str, asyncio.Event] = {}

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self.versions[params.uri] = params.version
            self.events.setdefault(params.uri, asyncio.Event()).set()

        @client.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(params: types.LogMessageParams) -> None:
            self.logs.append(params.message)

    async def published(self, uri: str, timeout: float = 60) -> list[types.Diagnostic]:
        event = self.events.setdefault(uri, asyncio.Event())
        await asyncio.wait_for(event.wait(), timeout)
        event.clear()
        return self.diagnostics[uri]

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = from_fs_path(str(path))
        assert uri
        lang = "json" if path.suffix in (".json", ".snap") else "yaml"
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id=lang, version=version, text=path.read_text() if text is None else text)))
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def _session(workspace: Path, body: Any, env: dict[str, str] | None = None) -> Any:
    client = LanguageClient("schemalint-test", "1")
    session = Session(client)
    async with started_server(client, workspace, env):
        return await body(session)


def run(workspace: Path, body: Any, env: dict[str, str] | None = None) -> Any:
    return asyncio.run(_session(workspace, body, env))


def cli_json(workspace: Path, name: str) -> list[dict[str, Any]]:
    """``schemalint check NAME --format json`` from ``workspace`` (run in this process), its diagnostics."""
    out = run_cli_here("check", name, "--format", "json", cwd=workspace)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)["diagnostics"]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return weather_workspace(tmp_path)


def _key(d: types.Diagnostic) -> tuple[str, int, int]:
    return str(d.code), d.range.start.line + 1, d.range.start.character + 1


def test_open_publishes_what_check_reports_on_the_same_content(workspace: Path) -> None:
    path = workspace / "tools" / "weather.json"

    async def body(s: Session) -> list[types.Diagnostic]:
        return await s.published(s.open(path))

    found = run(workspace, body)
    expected = cli_json(workspace, "tools/weather.json")
    assert expected, "the fixture must hold a finding"
    assert sorted(_key(d) for d in found) == sorted((e["code"], e["line"], e["column"]) for e in expected)
    sl003 = next(d for d in found if d.code == "SL003")
    assert sl003.severity == types.DiagnosticSeverity.Error
    assert sl003.source == "schemalint"
    assert sl003.code_description is not None
    assert sl003.code_description.href.endswith("SL003-required-not-in-properties.md")
    lines = path.read_text().splitlines()
    covered = lines[sl003.range.start.line][sl003.range.start.character:sl003.range.end.character]
    assert covered == '"units"', "the range spans the JSON value the pointer names"


def test_unsaved_changes_are_checked_and_stale_runs_dropped(workspace: Path) -> None:
    path = workspace / "tools" / "weather.json"
    fixed = json.loads(json.dumps(WEATHER_TOOL))
    fixed["function"]["parameters"]["required"] = ["city"]

    async def body(s: Session) -> tuple[list[types.Diagnostic], int | None, float]:
        uri = s.open(path)
        assert any(d.code == "SL003" for d in await s.published(uri))
        # a burst of edits: only the last version's diagnostics arrive
        for version in range(2, 7):
            s.change(uri, json.dumps([WEATHER_TOOL if version < 6 else fixed], indent=2), version)
        started = time.monotonic()
        found = await s.published(uri)
        return found, s.versions[uri], time.monotonic() - started

    found, version, _latency = run(workspace, body)
    assert version == 6
    assert not [d for d in found if d.code == "SL003"]
    assert "SL003" in {e["code"] for e in cli_json(workspace, "tools/weather.json")}, "nothing was written to disk"


def test_a_file_without_tools_publishes_nothing(workspace: Path) -> None:
    other = workspace / "tools" / "settings.json"
    other.write_text('{"theme": "dark", "required": ["x"]}\n')

    async def body(s: Session) -> list[types.Diagnostic]:
        return await s.published(s.open(other))

    assert run(workspace, body) == []


def test_a_tool_file_that_stops_parsing_shows_why_as_check_does(workspace: Path) -> None:
    path = workspace / "tools" / "weather.json"
    broken = '{"tools": [ {"name": '

    async def body(s: Session) -> list[types.Diagnostic]:
        uri = s.open(path)
        await s.published(uri)
        s.change(uri, broken, 2)
        return await s.published(uri)

    found = run(workspace, body)
    (workspace / "tools" / "broken.json").write_text(broken)
    expected = cli_json(workspace, "tools/broken.json")
    assert [str(d.code) for d in found] == [e["code"] for e in expected] == ["SL000"]


def test_hover_on_a_diagnostic_shows_the_rule_page(workspace: Path) -> None:
    path = workspace / "tools" / "weather.json"

    async def body(s: Session) -> types.Hover | None:
        uri = s.open(path)
        found = await s.published(uri)
        at = next(d for d in found if d.code == "SL003").range.start
        return await s.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at))

    hover = run(workspace, body)
    assert hover is not None
    assert isinstance(hover.contents, types.MarkupContent)
    assert hover.contents.value.startswith("# SL003 required-not-in-properties")


def test_a_configuration_change_rechecks_open_documents(workspace: Path) -> None:
    path = workspace / "tools" / "weather.json"
    config = workspace / "pyproject.toml"

    async def body(s: Session) -> list[types.Diagnostic]:
        uri = s.open(path)
        assert any(d.code == "SL003" for d in await s.published(uri))
        config.write_text('[tool.schemalint]\nsources = ["tools"]\nignore = ["SL003"]\n')
        s.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
            types.FileEvent(uri=from_fs_path(str(config)) or "", type=types.FileChangeType.Changed)]))
        return await s.published(uri)

    assert not [d for d in run(workspace, body) if d.code == "SL003"]


def test_a_crashing_rule_is_logged_and_the_server_keeps_serving(workspace: Path) -> None:
    from schemalint.rules.base import FAIL_RULE_ENV

    path = workspace / "tools" / "weather.json"

    async def body(s: Session) -> tuple[list[types.Diagnostic], list[types.Diagnostic], list[str]]:
        uri = s.open(path)
        first = await s.published(uri)
        s.change(uri, path.read_text().replace("Weather", "The weather"), 2)
        second = await s.published(uri)
        return first, second, s.logs

    first, second, logs = run(workspace, body, env={FAIL_RULE_ENV: "SL003"})
    assert not [d for d in first if d.code in ("SL003", "SL999")], "an internal error is never a finding"
    assert any("internal error" in m and "SL003" in m for m in logs), logs
    assert second is not None, "the server answered the next change"


def test_saving_a_python_source_checks_the_configured_modules(tmp_path: Path) -> None:
    pytest.importorskip("pydantic")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.schemalint]\nsources = ["shop:TOOLS"]\npython-path = ["."]\n')
    source = tmp_path / "shop.py"
    source.write_text(
        "from pydantic import BaseModel\n\n\n"
        "class Order(BaseModel):\n"
        "    \"\"\"Place an order. Always pass `coupon_code`.\"\"\"\n\n"
        "    item: str\n\n\n"
        "TOOLS = [Order]\n")
    uri = from_fs_path(str(source)) or ""

    async def body(s: Session) -> list[types.Diagnostic]:
        s.client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="python", version=1, text=source.read_text())))
        s.client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri)))
        return await s.published(uri, timeout=120)

    found = run(tmp_path, body)
    expected = cli_json(tmp_path, "shop:TOOLS")
    assert sorted(str(d.code) for d in found) == sorted(e["code"] for e in expected)
    assert found, "the fixture's description asks for an undeclared parameter"


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    """``edits`` applied to ``text`` as an editor applies them (UTF-16 positions; ASCII here)."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(p: types.Position) -> int:
        return starts[p.line] + p.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def test_fixes_are_code_actions_safe_ones_preferred(workspace: Path) -> None:
    """The fixes of ``check --fix`` as code actions: the safe fix (SL314: a programming-language
    type name, ``str``, renamed to the JSON Schema type it means) preferred, the unsafe one
    (dropping a ``required`` entry that names no property) offered but not preferred, and "fix all
    safe" as a ``source.fixAll`` action. Applied as the editor would, each leaves a buffer whose
    check no longer has that finding."""
    (workspace / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\ntarget = ["gemini"]\n')
    tool = json.loads(json.dumps(WEATHER_TOOL))
    tool["function"]["parameters"]["properties"]["city"]["type"] = "str"
    path = workspace / "tools" / "weather.json"
    text = json.dumps([tool], indent=2) + "\n"
    path.write_text(text)

    async def body(s: Session) -> tuple[list[types.Diagnostic], Any, Any]:
        uri = s.open(path)
        found = await s.published(uri)
        end = types.Position(line=len(text.splitlines()), character=0)
        whole = types.Range(start=types.Position(line=0, character=0), end=end)
        actions = await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=whole,
            context=types.CodeActionContext(diagnostics=[])))
        only_fix_all = await s.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=whole,
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll])))
        return found, actions, only_fix_all

    found, actions, only_fix_all = run(workspace, body)
    codes = {d.code for d in found}
    assert {"SL003", "SL314"} <= codes, codes
    quick = {a.diagnostics[0].code: a for a in actions if a.kind == types.CodeActionKind.QuickFix}
    assert quick["SL314"].is_preferred is True
    assert quick["SL003"].is_preferred is False and "unsafe" in quick["SL003"].title
    uri = next(iter(quick["SL314"].edit.changes))
    for code, action in quick.items():
        fixed = _apply(text, action.edit.changes[uri])
        json.loads(fixed)  # still JSON
        path.write_text(fixed)
        assert code not in {e["code"] for e in cli_json(workspace, "tools/weather.json")}, (code, fixed)
        path.write_text(text)
    assert [a.kind for a in only_fix_all] == ["source.fixAll.schemalint"]
    fixed_all = _apply(text, only_fix_all[0].edit.changes[uri])
    path.write_text(fixed_all)
    remaining = {e["code"] for e in cli_json(workspace, "tools/weather.json")}
    assert "SL314" not in remaining and "SL003" in remaining, "fix all applies the safe fixes only"
