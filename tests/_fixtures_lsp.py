"""What the language-server tests share: the weather tool file and a started server.

``WEATHER_TOOL`` declares ``city`` and requires ``city`` and ``units`` (so ``check`` reports SL003
on it); :func:`weather_workspace` writes it as ``tools/weather.json`` in a project whose
configuration names ``tools`` as its sources. :func:`started_server` runs ``python -m schemalint
server`` in a workspace and drives it with pygls's own client over stdio (imported here: a test
module that uses it skips first when the editor extra is missing).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

WEATHER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city", "units"],
        },
    },
}


def weather_workspace(root: Path) -> Path:
    """``root`` made a project: ``pyproject.toml`` with ``sources = ["tools"]`` and
    ``tools/weather.json`` holding ``[WEATHER_TOOL]`` (indented by 2); returns ``root``."""
    (root / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["tools"]\n')
    (root / "tools").mkdir()
    (root / "tools" / "weather.json").write_text(json.dumps([WEATHER_TOOL], indent=2) + "\n")
    return root


@asynccontextmanager
async def started_server(client: Any, workspace: Path, env: Mapping[str, str] | None = None) -> AsyncIterator[Any]:
    """``client`` (a ``pygls.lsp.client.LanguageClient`` whose features are registered) connected to
    a ``schemalint server`` started in ``workspace`` (environment: this one plus ``env``) and
    initialised with ``workspace`` as its one folder; shut down, exited and stopped on leaving."""
    from lsprotocol import types
    from pygls.uris import from_fs_path

    await client.start_io(sys.executable, "-m", "schemalint", "server", cwd=str(workspace),
                          env={**os.environ, **(env or {})})
    try:
        root = from_fs_path(str(workspace)) or ""
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root,
            workspace_folders=[types.WorkspaceFolder(uri=root, name="ws")]))
        client.initialized(types.InitializedParams())
        yield client
    finally:
        try:
            await asyncio.wait_for(client.shutdown_async(None), 10)
            client.exit(None)
        finally:
            await client.stop()
