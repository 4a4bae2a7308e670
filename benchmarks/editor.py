"""Language-server latency: from ``didOpen``/``didChange`` to ``publishDiagnostics``, against
``schemalint check FILE`` on the same file in the same run (a ratio, so a loaded machine's load
hits both alike). Called by ``benchmarks/run.py --editor``; runnable alone:
``python benchmarks/editor.py [MB ...]`` (default 1 and 20).

The catalogs are the synthetic ones of run.py (seeded), grown to about the given size in MB.
A change re-checks the whole buffer, so its latency is one check plus the debounce
(schemalint.editor.lsp.DEBOUNCE_SECONDS) plus the protocol; the figure to watch is the ratio.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run import synthetic_tool  # noqa: E402


def write_catalog_of_size(path: Path, megabytes: float, seed: int = 5) -> int:
    """Write a JSON catalog of synthetic tools of about ``megabytes`` MB to ``path``; return the count."""
    import random

    rng = random.Random(seed)
    tools, size, limit = [], 2, int(megabytes * 1_000_000)
    while size < limit:
        tool = synthetic_tool(rng, len(tools))
        size += len(json.dumps(tool, indent=2)) + 2
        tools.append(tool)
    path.write_text(json.dumps(tools, indent=2) + "\n")
    return len(tools)


async def _lsp_latencies(path: Path, runs: int) -> tuple[list[float], list[float], list[float]]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pygls.uris import from_fs_path

    client = LanguageClient("bench", "1")
    arrived: asyncio.Queue[float] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        arrived.put_nowait(time.perf_counter())

    await client.start_io(sys.executable, "-m", "schemalint", "server", cwd=str(path.parent))
    uri = from_fs_path(str(path)) or ""
    text = path.read_text()
    opens, changes, hovers = [], [], []
    try:
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(),
                                                             root_uri=from_fs_path(str(path.parent))))
        client.initialized(types.InitializedParams())
        for run in range(runs):
            started = time.perf_counter()
            client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
                uri=uri, language_id="json", version=1, text=text)))
            await asyncio.sleep(0.2)  # the check has started in the server's checking thread
            asked = time.perf_counter()
            await client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
            hovers.append(time.perf_counter() - asked)
            opens.append(await asyncio.wait_for(arrived.get(), 600) - started)
            edited = text.replace('"description": "', f'"description": "edit {run} ', 1)
            started = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)]))
            changes.append(await asyncio.wait_for(arrived.get(), 600) - started)
            client.text_document_did_close(types.DidCloseTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=uri)))
            await asyncio.wait_for(arrived.get(), 60)  # the close clears the diagnostics
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    return opens, changes, hovers


def _cli_seconds(path: Path, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "schemalint", "check", path.name, "--format", "json"],
                       cwd=path.parent, stdout=subprocess.DEVNULL, check=False)
        out.append(time.perf_counter() - started)
    return out


def editor_rows(sizes_mb: list[float], runs: int, work: Path) -> list[tuple[str, float, float, float, float]]:
    """``(label, open seconds, change seconds, CLI seconds, hover seconds during a check)`` per
    catalog size, medians of ``runs``: the hover is asked while the open's check runs, so it shows
    whether the server stays responsive during a long check."""
    rows = []
    for mb in sizes_mb:
        path = work / f"catalog-{mb:g}mb.json"
        count = write_catalog_of_size(path, mb)
        opens, changes, hovers = asyncio.run(_lsp_latencies(path, runs))
        cli = _cli_seconds(path, runs)
        row = (f"{mb:g} MB catalog ({count:,} tools)", statistics.median(opens), statistics.median(changes),
               statistics.median(cli), statistics.median(hovers))
        print(f"  {row[0]:<34} open {row[1]:7.2f} s  change {row[2]:7.2f} s  check CLI {row[3]:7.2f} s  "
              f"change/CLI {row[2] / row[3]:5.2f}x  hover during a check {row[4]:6.3f} s", flush=True)
        rows.append(row)
    return rows


if __name__ == "__main__":
    sizes = [float(a) for a in sys.argv[1:]] or [1.0, 20.0]
    with tempfile.TemporaryDirectory(prefix="schemalint-editor-bench-") as tmp:
        editor_rows(sizes, 3, Path(tmp))
