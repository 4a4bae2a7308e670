"""How much evidence a data file needs before the tool-shaped objects in it are checked.

Tools are found by their shape anywhere in a JSON/YAML document
(:mod:`schemalint.loaders.formats.json_tools`). A shape alone is weak evidence in one place: the data
files of a web front end. A page that lists tools (a leaderboard, a catalogue, a demo) keeps them
as ``{name, description, inputSchema}`` records, copied or written by hand, under ``web/``,
``public/``, ``static/``, ``frontend/`` and the like; they are what a page shows, not definitions
a model is sent, and their findings are noise. So a file found by a directory walk or a glob
**inside a web front end's folder** (:data:`UI_FOLDERS`, a folder of the path as the user wrote it, or
below the repository root for a path outside the working directory) has its tool-shaped objects
checked only with one of these, else they are held back and counted in the summary's note:

- it was named: on the command line or in ``sources`` of the configuration;
- its name or folder says it holds tools (:func:`tool_file_by_name`: ``tools.json``,
  ``*.tools.json``, ``*-tools.yaml``, ``mcp.json``, a file directly inside ``tools/``);
- its content says it is sent to or answered by a model or a tool server: a schemalint manifest,
  a request with a ``model`` or ``messages`` beside its tools, a JSON-RPC ``tools/list`` answer, a
  provider's wire shape (OpenAI's ``{"type": "function"}``, Gemini's ``functionDeclarations``,
  Bedrock's ``toolSpec``), a VS Code ``languageModelTools`` list, recorded traffic, or a top-level
  ``$schema`` that names tools or MCP.

Everywhere else a shape is enough, as before: files of the real repositories read for this rule
(``../shared/repos``: fake MCP servers under ``assets/test-servers/``, cassettes, fixtures,
benchmark data) lose no tool. Policy and measurements: docs/shape-rules.md, "Data files of a web
front end".
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.model import Tool

UI_FOLDERS = frozenset({
    "web", "www", "public", "static", "site", "website", "frontend", "front-end", "webapp", "web-app",
    "webui", "web-ui", "ui", "pages", "_site", ".next", ".nuxt", ".svelte-kit", ".output", ".vitepress",
    ".docusaurus",
})
"""Folders that hold a web front end or the files it serves (framework conventions: Next.js
``public/`` and ``.next/``, Vite/Astro/SvelteKit ``public/``/``static/``, Jekyll ``_site/``, the
``web/``/``frontend/``/``ui/`` folder of a repository that also has a back end). ``assets`` is not
one: tool servers keep fixtures there (gemini-cli's ``test-servers``)."""

TOOL_FILE_NAMES = frozenset({
    "tools.json", "tools.yaml", "tools.yml", "tools.jsonl", "functions.json", "mcp.json", "server.json",
    "tool.specs.json",
})
TOOL_DIRS = frozenset({"tools", "tool-definitions"})
TOOL_NAME_ENDINGS = (".tools.json", "-tools.json", "_tools.json", ".tools.yaml", ".tools.yml", ".snap")

WIRE_FORMATS = frozenset({"openai-chat", "openai-responses", "gemini", "gemini-json", "bedrock", "manifest"})
"""Formats recognised by a provider's own wrapper (``type: function``, ``functionDeclarations``,
``toolSpec``) or schemalint's manifest: written to be sent, not shown."""

_REQUEST_KEYS = ("model", "messages", "tool_choice", "toolConfig", "tool_config", "anthropic_version")


def tool_file_by_name(path: str) -> bool:
    """True when ``path``'s name or folder says it holds tool definitions: a file directly inside a
    ``tools/`` or ``tool-definitions/`` folder, ``tools.json``/``.yaml``/``.jsonl``, ``*.tools.json``,
    ``*-tools.json``, ``*_tools.json``, ``mcp.json``, ``server.json``, ``functions.json``,
    ``tool.specs.json``, a schemalint snapshot (``*.snap``). Case is ignored."""
    parts = path.replace("\\", "/").lower().split("/")
    base = parts[-1]
    if len(parts) > 1 and parts[-2] in TOOL_DIRS:
        return True
    return base in TOOL_FILE_NAMES or base.endswith(TOOL_NAME_ENDINGS)


@lru_cache(maxsize=4096)
def _repository_root(directory: str) -> str | None:
    probe = directory
    while True:
        if os.path.exists(os.path.join(probe, ".git")):
            return probe
        parent = os.path.dirname(probe)
        if parent == probe:
            return None
        probe = parent


def _judged_folders(path: str) -> list[str]:
    """The folders of ``path`` that count for :func:`ui_folder`: those written in a relative path
    (``..`` left out), those below the working directory for an absolute path under it, else those
    below the repository root (the nearest folder with ``.git``), else none: a checkout kept under
    ``/var/www`` does not make every file a page's."""
    norm = path.replace("\\", "/")
    if not os.path.isabs(norm):
        return [p for p in norm.split("/")[:-1] if p not in ("", ".", "..")]
    here = os.getcwd()
    if norm.startswith(here.rstrip("/") + "/"):
        return os.path.relpath(norm, here).replace("\\", "/").split("/")[:-1]
    root = _repository_root(os.path.dirname(norm))
    if root is None:
        return []
    return os.path.relpath(norm, root).replace("\\", "/").split("/")[:-1]


def ui_folder(path: str) -> str | None:
    """The web front-end folder (:data:`UI_FOLDERS`, case ignored) that ``path`` lies in, or ``None``."""
    for part in _judged_folders(path):
        if part.lower() in UI_FOLDERS:
            return part
    return None


def content_evidence(values: Sequence[tuple[int | None, Any]], tools: Sequence[Tool]) -> bool:
    """True when a document's content (its parsed ``values``) says its tools are sent to or
    answered by a model or a tool server (the list in the module docstring); ``tools`` are the
    tools found in it by shape."""
    if any(t.origin.format in WIRE_FORMATS for t in tools):
        return True
    for _line, value in values[:1000]:
        if not isinstance(value, Mapping):
            continue
        if isinstance(value.get("tools"), list) and any(k in value for k in _REQUEST_KEYS):
            return True
        result = value.get("result")
        if value.get("jsonrpc") == "2.0" and isinstance(result, Mapping) and "tools" in result:
            return True
        if "languageModelTools" in value or (isinstance(value.get("contributes"), Mapping) and \
                "languageModelTools" in value["contributes"]):
            return True
        schema = value.get("$schema")
        if isinstance(schema, str) and any(w in schema.lower() for w in ("tool", "mcp", "function")):
            return True
    return False


def held_back(path: str, explicit: bool, values: Sequence[tuple[int | None, Any]], tools: Sequence[Tool],
              traffic: bool | Callable[[], bool] = False) -> str | None:
    """The web front-end folder for which ``tools`` (found by shape in the file ``path``) are held
    back, unchecked, or ``None`` when they are checked (see the module docstring). ``explicit``:
    the file was named as a source; ``values``: its parsed values; ``traffic``: it holds recorded
    traffic (:func:`schemalint.traffic.detect.holds_traffic`), or a function answering that, asked
    only for a file that would otherwise be held back. Never raises."""
    if not tools or explicit or tool_file_by_name(path):
        return None
    folder = ui_folder(path)
    if folder is None or (traffic() if callable(traffic) else traffic) or content_evidence(values, tools):
        return None
    return folder


Held = tuple[str, int, str]
"""A data file whose tool-shaped objects were held back: ``(path, count, folder)`` (:func:`held_note`)."""


def select_tools(path: str, explicit: bool, values: Sequence[tuple[int | None, Any]], tools: list[Tool],
                 traffic: bool | Callable[[], bool] = False) -> tuple[list[Tool], Held | None]:
    """The rule every command applies to the tools found by shape in one data file (``check``, its
    streamed route, ``diff`` on both sides, ``snapshot``): ``(tools, None)`` when they are checked,
    ``([], (path, count, folder))`` when they are held back (:func:`held_back`; the arguments are
    its). Never raises."""
    folder = held_back(path, explicit, values, tools, traffic)
    if folder is None:
        return tools, None
    return [], (path, len(tools), folder)


def held_note(held: Sequence[Held]) -> str:
    """The summary's note for files whose tool-shaped objects were held back: ``held`` holds
    ``(path, count, folder)`` per file."""
    tools = sum(n for _p, n, _f in held)
    first, _n, folder = held[0]
    first = os.path.normpath(first)
    more = f" and {len(held) - 1} more" if len(held) > 1 else ""
    return (f"{tools} tool-shaped object(s) in {len(held)} data file(s) of a web front end were not checked "
            f"({first}{more}, under {folder}/): nothing but their shape says they are tool definitions "
            "(name, folder, a request or tools/list envelope); name such a file as a source, or in `sources` "
            "of the configuration, to check it")
