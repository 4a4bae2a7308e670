"""The language server in the seeded fuzz (issue 25): mutants of tool files through a real client.

``schemalint server`` is started as a subprocess and driven by pygls's own client over stdio.
Seeded mutants of the fuzz seeds (the kept regression inputs of ``tests/data/fuzz`` and the seed
tools of :mod:`tests.test_fuzz_commands`: a keyword given a value of the wrong kind, a subschema
nested 300 deep, YAML anchors, bytes cut short) are sent as ``didOpen`` of their own documents and
as ``didChange`` of one document. The server must never crash, never publish an ``SL999``
(an internal error is logged, never a finding), and must keep answering: after the mutants a
known file publishes the finding ``check`` reports on it, and a hover is answered. One server for
all mutants, so its share of the suite is a few seconds.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the editor extra (pygls)")

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from tests._fixtures_lsp import WEATHER_TOOL, started_server, weather_workspace
from tests.test_fuzz_commands import KEYWORDS, _nest, _seed_documents, _set_wrong

SEED = 25
MUTANTS = 12
WRONG_VALUES: list[Any] = [{"x": 1}, [{"a": 1}], [["x"]], [None], "x", 0, -1, None, True, 1.5, [], {}, 10**40,
                           "\ud800", "\x00", {"$ref": "#"}, {"$ref": "#/$defs/missing"}]


def mutants(seed: int = SEED, count: int = MUTANTS) -> list[tuple[str, str]]:
    """``count`` seeded mutants as ``(suffix, text)``: JSON or YAML documents of the fuzz seeds
    with one keyword set to a wrong value (or a deep subschema), some cut short."""
    rng = random.Random(seed)
    seeds = [(name, data) for name, data in _seed_documents() if not name.endswith(".jsonl")]
    out: list[tuple[str, str]] = []
    for i in range(count):
        _name, data = seeds[i % len(seeds)]
        value = json.loads(data)
        wrong = _nest(300) if i % 5 == 4 else rng.choice(WRONG_VALUES)
        value = _set_wrong(value, [rng.randrange(8) for _ in range(rng.randrange(6))], rng.choice(KEYWORDS), wrong)
        suffix = ".yaml" if i % 3 == 2 else ".json"
        text = json.dumps(value) if suffix == ".json" else "seed: &a " + json.dumps(value) + "\nagain: *a\n"
        if i % 4 == 3:
            text = text[: len(text) * 2 // 3]  # cut short: not JSON any more
        out.append((suffix, text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")))
    return out


async def _drive(workspace: Path) -> dict[str, Any]:
    client = LanguageClient("schemalint-fuzz", "1")
    published: list[tuple[str, list[types.Diagnostic]]] = []
    logs: list[str] = []
    events: dict[str, asyncio.Event] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published.append((params.uri, list(params.diagnostics)))
        events.setdefault(params.uri, asyncio.Event()).set()

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        logs.append(params.message)

    async with started_server(client, workspace):
        def open_doc(path: Path, text: str, version: int = 1) -> str:
            uri = from_fs_path(str(path)) or ""
            client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
                uri=uri, language_id="json" if path.suffix == ".json" else "yaml", version=version, text=text)))
            return uri

        cases = mutants()
        edited = workspace / "tools" / "edited.json"
        edited.write_text(json.dumps([WEATHER_TOOL]))
        edited_uri = open_doc(edited, edited.read_text())
        for i, (suffix, text) in enumerate(cases):
            path = workspace / "tools" / f"mutant{i}{suffix}"
            path.write_text("[]")  # the file on disk; the buffer holds the mutant
            open_doc(path, text)
            if suffix == ".json":
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=edited_uri, version=i + 2),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
            await asyncio.sleep(0.05)
        await asyncio.sleep(2)  # the debounced checks of the mutants run
        good = workspace / "tools" / "weather.json"
        good_uri = open_doc(good, good.read_text())
        event = events.setdefault(good_uri, asyncio.Event())
        await asyncio.wait_for(event.wait(), 120)
        after = [d for uri, ds in published if uri == good_uri for d in ds]
        # answered (None: no diagnostic there) within the time, or wait_for raises
        hover = await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=good_uri),
            position=types.Position(line=0, character=1))), 60)
        alive = client._server is not None and client._server.returncode is None
        return {"published": published, "logs": logs, "after": after, "hover": hover,
                "alive": alive, "mutant_uris": {from_fs_path(str(workspace / "tools" / f"mutant{i}{s}"))
                                                for i, (s, _) in enumerate(cases)} | {edited_uri}}


def test_mutants_sent_to_the_language_server_never_crash_it_nor_publish_sl999(tmp_path: Path) -> None:
    seen = asyncio.run(_drive(weather_workspace(tmp_path)))
    codes = [str(d.code) for uri, ds in seen["published"] for d in ds]
    assert "SL999" not in codes, "an internal error is never published as a finding"
    assert not [m for m in seen["logs"] if "Traceback" in m and "internal error" not in m], seen["logs"]
    assert seen["alive"], "the server process is still running"
    assert any(str(d.code) == "SL003" for d in seen["after"]), "it keeps answering: the known finding arrives"
    mutant_reports = [uri for uri, _ in seen["published"] if uri in seen["mutant_uris"]]
    print(f"lsp fuzz figures: {MUTANTS} mutants, {len(mutant_reports)} publications for them, "
          f"{len(codes)} diagnostics, {sum(c == 'SL000' for c in codes)} SL000, 0 SL999")
    assert mutant_reports, "the mutants were checked (something was published for them)"
