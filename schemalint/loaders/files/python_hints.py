"""What to write for Python code a user names as a path: the ``module:attr`` source of its tools.

A Python tool source is an object imported by name (``module:attr``, docs/pydantic-and-probes.md);
a ``.py`` file is never parsed as data and a directory walk never imports one. A user's first
try is often the file (``schemalint check src/server.py``) or the folder (``schemalint check .``);
these helpers read the files as text (nothing is imported) for the objects a tool framework
creates at module level (``mcp = FastMCP(...)``, ``server = Server(...)``, an ``Agent``, a list
of tools) and name the source to give, with the folder to put on ``--python-path`` when the
package root is not the working directory.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

_SERVER = re.compile(
    r"^(?P<name>[A-Za-z_]\w*)\s*(?::[^=\n]+)?=\s*(?:[\w.]+\.)?"
    r"(?P<kind>FastMCP|McpServer|Server|Agent|MCPServer)\(", re.MULTILINE)
_SUBCLASS = re.compile(
    r"^class\s+(?P<name>[A-Za-z_]\w*)\((?:[^)\n]*,\s*)?(?:[\w.]+\.)?(?:FastMCP|McpServer|Server|MCPServer)\b",
    re.MULTILINE)
"""A project's own server class (``class QdrantMCPServer(FastMCP):``), whose instance at module level
is the server (measured on qdrant/mcp-server-qdrant: ``mcp = QdrantMCPServer(...)``; before, the
folder note named a pydantic model of the project instead)."""
_FACTORY = re.compile(
    r"^(?:async[ \t]+)?def[ \t]+(?P<name>[A-Za-z_]\w*)\([^)]*\)[ \t]*->[ \t]*[\"']?(?:[\w.]+\.)?"
    r"(?P<kind>FastMCP|MCPServer|Server)\b", re.MULTILINE)
"""A module-level function that returns a server (a factory, ``def create_server() -> FastMCP``):
named as ``module:create_server``, the loader calls it or names the arguments it needs."""
_NESTED = re.compile(r"^[ \t]+(?P<target>[\w.]+)[ \t]*(?::[^=\n]+)?=[ \t]*(?:[\w.]+\.)?"
                     r"(?P<kind>\w*FastMCP|MCPServer)\(", re.MULTILINE)
"""A server created inside a function or class body (``self.mcp = FastMCP(...)``): no module-level
object to name. Measured on sitbon/magg (``self.mcp = ProxyFastMCP(...)`` in a manager class):
before, the folder note named a settings model of the project."""
_TOOL_DECORATOR = re.compile(r"^@(?P<name>[A-Za-z_]\w*)\.tool\b", re.MULTILINE)
_BARE_TOOL = re.compile(r"^@tool\b", re.MULTILINE)
_TOOL_IMPORT = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\(?[^\n]*?,[ \t]*)?tool\b", re.MULTILINE)
"""Functions decorated with a framework's bare ``@tool`` (``from langchain_core.tools import tool``):
each is a tool object at module level, so the source is the module (``functions:``). Measured on
NousResearch/Hermes-Function-Calling (before: the folder note named a pydantic model of another
module)."""
_MODEL = re.compile(r"^class\s+(?P<name>[A-Za-z_]\w*)\((?:[\w.]*\.)?BaseModel\)", re.MULTILINE)
_SKIPPED = frozenset({".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", "build", "dist",
                      "tests", "test", "docs", "examples", ".mypy_cache"})
MAX_BYTES = 512 * 1024


def module_name(path: str) -> tuple[str, str]:
    """``(dotted module, import root)`` of the Python file ``path``: the package folders above it
    (those holding ``__init__.py``, or a namespace package the file imports itself by: see
    :func:`_imports_own_folder`) make the module's dotted name; the first folder above them is
    the root to put on ``--python-path`` (``"."`` for the working directory)."""
    folder, filename = os.path.split(os.path.normpath(path))
    parts = [] if filename == "__init__.py" else [filename[:-3]]
    text: str | None = None
    while folder:
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            text = _read(path) if text is None else text
            if not _imports_own_folder(text, folder, parts[-1] if parts else ""):
                break
        folder, package = os.path.split(folder)
        parts.insert(0, package)
    root = os.path.relpath(folder or ".") if folder else "."
    return ".".join(parts), root


def _imports_own_folder(text: str, folder: str, own: str) -> bool:
    """Whether Python ``text`` (a module of ``folder``, which has no ``__init__.py``) imports a
    sibling module through the folder's name (``from excel_tools.helpers import x`` in
    ``src/excel_tools/server.py``): an implicit namespace package (PEP 420), so its parent folder is
    the import root. The sibling must exist and not be the module itself (``own``): a folder named
    ``mcp`` whose ``server.py`` imports the ``mcp`` library's ``mcp.server`` is not one."""
    package = os.path.basename(folder)
    if not package.isidentifier():
        return False
    pattern = rf"^[ \t]*(?:from|import)[ \t]+{re.escape(package)}\.(\w+)"
    for match in re.finditer(pattern, text, re.MULTILINE):
        sub = match.group(1)
        sibling = os.path.join(folder, sub)
        if sub != own and (os.path.isfile(sibling + ".py") or os.path.isdir(sibling)):
            return True
    return False


def server_subclasses(texts: list[str]) -> frozenset[str]:
    """The names of the classes that ``texts`` (Python sources) derive from a server class (:data:`_SUBCLASS`)."""
    return frozenset(m.group("name") for text in texts for m in _SUBCLASS.finditer(text))


def _own_servers(text: str, subclasses: frozenset[str]) -> list[re.Match[str]]:
    """Module-level instances of the project's own server classes in ``text``."""
    if not subclasses:
        return []
    kinds = "|".join(sorted(re.escape(n) for n in subclasses))
    return list(re.finditer(rf"^(?P<name>[A-Za-z_]\w*)\s*(?::[^=\n]+)?=\s*(?:[\w.]+\.)?(?:{kinds})\(", text,
                            re.MULTILINE))


def tool_objects(text: str, subclasses: frozenset[str] = frozenset()) -> list[str]:
    """Names of the module-level objects in Python ``text`` that hold tools, most likely first: a
    server or agent created at module level (``mcp = FastMCP(...)``, or an instance of one of
    ``subclasses``, the project's own server classes: :func:`server_subclasses`), the object whose
    ``.tool`` decorates functions, then pydantic models."""
    found: list[str] = []
    for match in (*_SERVER.finditer(text), *_own_servers(text, subclasses), *_TOOL_DECORATOR.finditer(text)):
        if match.group("name") not in found:
            found.append(match.group("name"))
    if not found and _decorated_tools(text):
        found.append("")  # the module: its decorated functions are the tools
    for match in _MODEL.finditer(text):
        if match.group("name") not in found:
            found.append(match.group("name"))
    return found


def _decorated_tools(text: str) -> bool:
    """Whether Python ``text`` decorates functions with a bare ``@tool`` it imports (:data:`_BARE_TOOL`)."""
    return bool(_BARE_TOOL.search(text)) and bool(_TOOL_IMPORT.search(text))


def _read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def _sibling_subclasses(path: str) -> frozenset[str]:
    """:func:`server_subclasses` of the Python files beside ``path`` (its package, at most 200 files)."""
    folder = os.path.dirname(path) or "."
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(".py"))[:200]
    except OSError:
        return frozenset()
    return server_subclasses([_read(os.path.join(folder, n)) for n in names])


def source_for(path: str, subclasses: frozenset[str] | None = None) -> str | None:
    """The ``module:attr`` source (with ``--python-path ROOT`` when needed) for the Python file
    ``path``, or ``None`` when it creates no object that holds tools. ``subclasses``: the project's
    own server classes (default: those defined beside ``path``)."""
    names = tool_objects(_read(path), _sibling_subclasses(path) if subclasses is None else subclasses)
    if not names:
        return None
    module, root = module_name(path)
    return f"{module}:{names[0]}" + ("" if root == "." else f" --python-path {root}")


def python_file_message(path: str) -> str:
    """The error for a ``.py`` file named as a source (it would otherwise be parsed as JSON)."""
    suggestion = source_for(path)
    module, root = module_name(path)
    example = suggestion or f"{module}:OBJECT" + ("" if root == "." else f" --python-path {root}")
    found = ""
    if suggestion:
        found = (" (its functions decorated with @tool are the tools)" if suggestion.split(" ")[0].endswith(":")
                 else " (it creates that object at module level)")
    elsewhere = ""
    if suggestion is None:
        near = directory_hint(root, limit=2000)
        elsewhere = f" ({near.split('e.g. ', 1)[1]} names one found under {root})" if near else ""
    return (f"{path} is a Python file: schemalint imports Python tools by the object that holds them, named "
            f"module:attr, not by the file's path; try: schemalint check {example}{found}{elsewhere}. "
            + environment_advice(_read(path), root))


def missing_imports(text: str, root: str) -> list[str]:
    """The top-level modules the Python source ``text`` imports (absolute imports, anywhere in
    it, in order) that this environment cannot import: not in the standard library, not a module
    or package under ``root`` (the project's own), and not found by ``importlib.util.find_spec``.
    Nothing is imported. A source that does not parse gives ``[]``."""
    import ast
    import importlib.util
    import sys

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module.split(".")[0])
    missing: list[str] = []
    for name in dict.fromkeys(names):
        if name in sys.stdlib_module_names or name == "__future__":
            continue
        if os.path.isfile(os.path.join(root, name + ".py")) or os.path.isdir(os.path.join(root, name)):
            continue
        try:
            if importlib.util.find_spec(name) is not None:
                continue
        except (ImportError, ValueError):
            pass
        missing.append(name)
    return missing


def environment_advice(text: str, root: str) -> str:
    """What to install before the module can be imported, from what its source ``text`` imports
    (:func:`missing_imports`): the schemalint extra that brings a framework it lacks
    (``langchain_core``: ``[langchain]``; :data:`schemalint.loaders.python.extras.EXTRA_FOR_MODULE`),
    the project's own dependencies for any other module, or only where to run it when nothing is
    missing; under pre-commit, its hook advice. Never an extra the module does not need."""
    from schemalint.loaders.python.extras import EXTRA_FOR_MODULE, IN_PRE_COMMIT, in_pre_commit, install_hint

    missing = missing_imports(text, root)
    if not missing:
        return "Run it in the project's environment (where its own imports resolve)"
    names = ", ".join(f"`{m}`" for m in missing)
    if in_pre_commit():
        return f"It imports {names}, not installed {IN_PRE_COMMIT}"
    lines = dict.fromkeys(install_hint(m) for m in missing if m in EXTRA_FOR_MODULE)
    todo = [f"install with: {line}" for line in lines if line]
    others = [m for m in missing if m not in EXTRA_FOR_MODULE]
    if others:
        todo.append("install the project's own dependencies (" + ", ".join(f"`{m}`" for m in others)
                    + ": no schemalint extra brings " + ("it" if len(others) == 1 else "them") + ")")
    return f"It imports {names}, not installed here: run it in the project's environment, or " + "; and ".join(todo)


def _built_elsewhere(directory: str, texts: list[tuple[str, str]]) -> str | None:
    """The note for a folder whose servers are built by a factory (named ``module:factory``) or
    inside a function or class (named by file and line, with what to write), else ``None``."""
    for path, text in texts:
        match = _FACTORY.search(text)
        if match:
            module, root = module_name(path)
            extra = "" if root == "." else f" --python-path {root}"
            return (f"{directory} holds no module-level MCP server, but {os.path.relpath(path)} builds one in "
                    f"{match.group('name')}(), read only when named (a module is never imported implicitly): "
                    f"schemalint check {module}:{match.group('name')}{extra}")
    for path, text in texts:
        match = _NESTED.search(text)
        if match:
            line = text.count("\n", 0, match.start()) + 1
            return (f"{directory} holds no module-level MCP server or tool: {os.path.relpath(path)}:{line} creates "
                    f"one inside a function or class (`{match.group('target')} = {match.group('kind')}(...)`); "
                    "check a module that builds it and names the server (e.g. schemalint_tools.py: `mcp = "
                    "...`, then `schemalint check schemalint_tools:mcp`), or list the running server with "
                    "--mcp-stdio \"CMD\"")
    return None


def fastmcp_json_source(directory: str) -> tuple[str, str] | None:
    """``(source, config file)`` for the server a FastMCP project configuration names (``fastmcp.json``
    or ``NAME.fastmcp.json`` in ``directory`` or a folder below it, two levels at most): its
    ``source.path`` file as ``module:entrypoint`` with ``--python-path`` when the import root is not
    the working directory; without ``entrypoint``, the file's first server object (fastmcp looks for
    ``mcp``, ``server`` or ``app``). Read as text, nothing imported; ``None`` when there is none.
    Measured on ClickHouse/mcp-clickhouse (``{"source": {"path": "mcp_clickhouse/mcp_server.py",
    "entrypoint": "mcp"}}``)."""
    import json

    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED and not d.startswith("."))
        if os.path.relpath(dirpath, directory).count(os.sep) >= 2:
            dirnames[:] = []
        for filename in sorted(filenames):
            if filename != "fastmcp.json" and not filename.endswith(".fastmcp.json"):
                continue
            config = os.path.join(dirpath, filename)
            try:
                with open(config, encoding="utf-8") as handle:
                    data = json.loads(handle.read(MAX_BYTES))
                source = data.get("source") if isinstance(data, dict) else None
                path = source.get("path") if isinstance(source, dict) else None
            except (OSError, ValueError):
                continue
            if not isinstance(path, str) or not path.endswith(".py"):
                continue
            file = os.path.normpath(os.path.join(dirpath, path))
            if not os.path.isfile(file):
                continue
            entry = source.get("entrypoint") if isinstance(source, dict) else None
            if not isinstance(entry, str) or not entry.isidentifier():
                names = tool_objects(_read(file))
                entry = next((n for n in ("mcp", "server", "app") if n in names), names[0] if names else "mcp")
            module, root = module_name(file)
            extra = "" if root == "." else f" --python-path {root}"
            return f"{module}:{entry}{extra}", os.path.relpath(config)
    return None


def directory_hint(directory: str, excluded: Callable[[str], bool] | None = None, limit: int = 10_000) -> str | None:
    """A note for a directory whose walk found no tool definitions but which holds Python modules
    that create tool-holding objects at module level (tests, docs and examples folders left
    out, and the paths ``excluded`` says so): modules are imported only when named, so the note names
    the likeliest source. ``None`` when none is found (at most ``limit`` files looked at)."""
    looked = 0
    texts: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED and not d.startswith("."))
        for filename in sorted(filenames):
            looked += 1
            if not filename.endswith(".py") or filename.startswith("test_"):
                continue
            path = os.path.join(dirpath, filename)
            if excluded is not None and excluded(path):
                continue
            texts.append((path, _read(path)))
        if looked >= limit:
            break
    declared = fastmcp_json_source(directory)
    if declared:
        return (f"{directory} holds {declared[1]}, which names the project's server, read only when named as "
                f"module:attr (a module is never imported implicitly): schemalint check {declared[0]}")
    subclasses = server_subclasses([text for _p, text in texts])
    candidates: list[tuple[int, str, str]] = []
    for path, text in texts:
        names = tool_objects(text, subclasses)
        if names:
            servers = (bool(_SERVER.search(text)) or bool(_own_servers(text, subclasses))
                       or bool(_TOOL_DECORATOR.search(text)) or _decorated_tools(text))
            candidates.append((0 if servers else 1, path, names[0]))
    if not candidates:
        return None
    candidates.sort(key=lambda c: (c[0], c[1].count(os.sep), c[1]))
    if candidates[0][0] > 0:  # no module creates a server or tools at module level
        built = _built_elsewhere(directory, texts)
        if built:
            return built
    suggestion = source_for(candidates[0][1], subclasses)
    return (f"{directory} holds {len(candidates)} Python module(s) that define tools, servers or models, which are "
            "read only when named as module:attr (a module is never imported implicitly): e.g. schemalint "
            f"check {suggestion}")
