"""Where a diagnostic points a reader when its ``file`` is not a file (docs/ci.md, "Locations").

A Python source (``module:attr``) names the module's file and the line of the ``class``/``def``
that defines the tool (:attr:`schemalint.model.Origin.path`, set by the loaders). A tool with no
file behind it (a server listed over stdio or HTTP, an import that failed) falls back, in order:

1. a file named in the ``--mcp-stdio`` command that exists under the working directory
   (``python examples/mcp_server/server.py``), at the ``def`` of the tool's name in it when it is
   a Python file, else line 1;
2. the configuration file at the line of the key that names the server (``mcp-stdio``,
   ``mcp-url``) or else of ``sources``;
3. none: the reporters then use the source label itself (SARIF: URL-quoted, so it is a relative
   path and never a URI scheme, which GitHub code scanning refuses).

Only :attr:`Diagnostic.path`, ``line`` and ``column`` change; ``file`` (the source label, which
baselines, suppressions and fingerprints use) never does.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Container, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.config import Config
    from schemalint.model import Diagnostic, Tool

_SERVER_KEY = re.compile(r'^\s*["\']?(mcp-stdio|mcp-url|mcp_stdio|mcp_url)["\']?\s*=', re.M)
_SOURCES_KEY = re.compile(r'^\s*["\']?sources["\']?\s*=', re.M)
_SECTION = re.compile(r"^\s*\[\s*tool\.schemalint\s*\]", re.M)


def config_site(cfg: Config | None) -> tuple[str, int] | None:
    """``(file, line)`` of the configuration key that names the sources (see the module doc),
    the file relative to the working directory where it lies inside it; ``None`` without a
    configuration file. Never raises."""
    path = getattr(cfg, "path", None)
    if path is None:
        return None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    start = 0
    if path.name == "pyproject.toml":
        section = _SECTION.search(text)
        if section is None:
            return None
        start = section.start()
    line = 1 + text.count("\n", 0, start)
    for pattern in (_SERVER_KEY, _SOURCES_KEY):
        m = pattern.search(text, start)
        if m is not None:
            line = 1 + text.count("\n", 0, m.start())
            break
    from schemalint.loaders.python.framework_common import relative_file

    return relative_file(str(path)), line


def module_file(module: str) -> str | None:
    """The file of the dotted ``module`` (``pkg.server`` -> ``.../pkg/server.py``), found on the
    working directory, ``$PYTHONPATH`` and ``sys.path`` without importing it or its packages
    (``importlib.util.find_spec`` of a submodule imports the parents); ``None`` when not found."""
    import importlib.machinery

    roots = [os.getcwd(), *[p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p], *sys.path]
    head, *rest = module.split(".")
    try:
        spec = importlib.machinery.PathFinder.find_spec(head, [r for r in roots if isinstance(r, str)])
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if not rest:
        return spec.origin if spec.origin and os.path.isfile(spec.origin) else None
    folders = list(spec.submodule_search_locations or [])
    for i, part in enumerate(rest):
        last = i == len(rest) - 1
        nxt: list[str] = []
        for folder in folders:
            package = os.path.join(folder, part)
            if last and os.path.isfile(package + ".py"):
                return package + ".py"
            if os.path.isdir(package):
                if last and os.path.isfile(os.path.join(package, "__main__.py")):
                    return os.path.join(package, "__main__.py")  # what `python -m package` runs
                nxt.append(package)
        folders = nxt
    return None


def command_site(label: str, tool: str | None) -> tuple[str, int] | None:
    """For ``mcp-stdio:COMMAND``: the file of ``-m MODULE`` (:func:`module_file`), else the first
    word of COMMAND that is an existing file under the working directory, at the ``def``/``class``
    of ``tool`` when it is a Python file, else line 1."""
    if not label.startswith("mcp-stdio:"):
        return None
    try:
        words = shlex.split(label.partition(":")[2])
    except ValueError:
        return None
    from schemalint.loaders.python.framework_common import def_line, relative_file

    module = words[words.index("-m") + 1] if "-m" in words[:-1] else None
    found = module_file(module) if module else None
    for word in [found] if found else words[1:] if len(words) > 1 else words:
        if not os.path.isfile(word):
            continue
        rel = relative_file(word)
        if rel.startswith("/") or rel.startswith(".."):
            continue
        line = def_line(word, tool) if tool and word.endswith(".py") else None
        return rel, line or 1
    return None


def locate_sources(diagnostics: Sequence[Diagnostic], tools: Sequence[Tool], documents: Container[str],
                   cfg: Config | None) -> list[Diagnostic]:
    """``diagnostics`` with :attr:`~schemalint.model.Diagnostic.path` (and the line, where the
    diagnostic had none) set for every one whose ``file`` is not a file read as a document
    (``documents``: a container of the paths read). Returns a new list."""
    out = list(diagnostics)
    pending = [i for i, d in enumerate(out) if d.path is None and d.file not in documents
               and not os.path.isfile(d.file)]
    if not pending:
        return out
    sites: dict[tuple[str, str | None], tuple[str, int | None]] = {}
    for t in tools:
        if t.origin.path:
            sites.setdefault((t.origin.file, t.name), (t.origin.path, t.origin.path_line))
            sites.setdefault((t.origin.file, None), (t.origin.path, None))
    fallback: list[tuple[str, int] | None] = []  # computed once, when first needed
    for i in pending:
        d = out[i]
        site = sites.get((d.file, d.tool)) or sites.get((d.file, None)) or command_site(d.file, d.tool)
        if site is None:
            if not fallback:
                fallback.append(config_site(cfg))
            site = fallback[0]
        if site is None:
            continue
        path, line = site
        out[i] = replace(d, path=path, line=d.line or line)
    return out
