"""Load tools from a Python object named ``module:attr`` (or a whole ``module:``).

The module is imported with the ``--python-path`` roots put in front of
``sys.path`` for the duration of the import, ``attr`` (dotted) is resolved, and the
object is handed to each *recognizer* named in :data:`RECOGNIZERS` in turn. A
recognizer is a function ``tools_from_object(obj, source: str) -> list[Tool] | None``
that returns ``None`` when ``obj`` is not of its kind. The first one that answers
wins. Containers are expanded into their members first:

- a ``list``/``tuple``/``set`` into its items, a ``dict`` into its values;
- a module into ``__all__`` when it defines one, else into its public members
  defined in that module (classes, decorated functions, instances such as a server
  object or a list of tools). Plain undecorated functions are skipped there (they are
  helpers, not tools; name one explicitly with ``module:function`` to load it), and so
  is a model class used as a field type by another collected model (a part of a tool,
  not a tool), a decorated generator function (``@contextmanager``/``@asynccontextmanager``
  lifespans and fixtures), and an attribute whose name is not an identifier (pydantic keeps
  its parametrised generics, ``Context[AppContext, Any]``, in the module's namespace). When the
  module holds framework tools (an Agents ``FunctionTool`` or ``Agent``, an MCP server, a
  LangChain tool), its pydantic model classes are the data of those tools (argument, return,
  output and context types) and are skipped too; a module of models alone is read as models;
- a framework container into what its recognizer says it holds (an OpenAI Agents ``Agent``
  into its ``FunctionTool`` objects); the classes a framework object uses as data (an agent's
  ``output_type`` or context type) are skipped: each recognizer answers for its own types
  (:class:`Recognizer`).

The same object reached twice (a module attribute that is also in an ``Agent.tools`` list)
is loaded once.

Import failures raise :class:`~schemalint.errors.SourceError` naming the
module and the original error; the CLI turns that into exit 2 without a traceback.
schemalint itself runs this only inside a worker process
(:mod:`schemalint.loaders.python.worker`, docs/runtime-bridge.md), never in its own.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import itertools
import os
import re
import sys
import types
import typing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from schemalint.errors import SourceError
from schemalint.loaders.python.set_defaults import canonical_tool
from schemalint.model import Diagnostic, Severity, Tool

RECOGNIZERS: tuple[str, ...] = (
    "schemalint.loaders.python.mcp_server:tools_from_object",
    "schemalint.loaders.python.openai_agents:tools_from_object",
    "schemalint.loaders.python.langchain_tools:tools_from_object",
    "schemalint.loaders.python.pydantic_ai_tools:tools_from_object",
    "schemalint.loaders.python.pydantic_models:tools_from_object",
    "schemalint.loaders.formats.json_objects:tools_from_object",
)
"""``module:function`` names of the recognizers, tried in order. A recognizer's module may also
answer for its own types through optional hooks beside the function (:class:`Recognizer`): a new
framework is one module plus a row here, with no edit in the dispatcher."""


@dataclass(frozen=True)
class Recognizer:
    """One framework's answers, read from its module (the hooks are optional module attributes).

    ``tools_from_object(obj, source)``: its tools for ``obj``, ``None`` when ``obj`` is not of its
    kind. ``members(obj)``: the objects a container of the framework holds that may be tools (an
    Agents ``Agent``: its function tools), ``None`` when ``obj`` is no such container.
    ``data_types(obj)``: the classes ``obj`` uses as data (argument, return, output, context types),
    never loaded as tools. ``may_hold_no_tools(obj)``: ``obj`` is of the framework and may
    legitimately hold nothing to check (a source of only those gives no tools and no error).
    ``framework_types``: ``(module prefix, class names)`` of the framework's objects: a module
    that holds one reads its pydantic models as data."""

    tools_from_object: Callable[[Any, str], list[Tool] | None]
    members: Callable[[Any], list[Any] | None] | None = None
    data_types: Callable[[Any], list[Any]] | None = None
    may_hold_no_tools: Callable[[Any], bool] | None = None
    framework_types: tuple[tuple[str, tuple[str, ...]], ...] = ()


@functools.cache
def recognizers() -> tuple[Recognizer, ...]:
    """The recognizers of :data:`RECOGNIZERS`, in order (their modules imported once)."""
    out = []
    for spec in RECOGNIZERS:
        mod_name, _, fn_name = spec.partition(":")
        module = importlib.import_module(mod_name)
        out.append(Recognizer(getattr(module, fn_name), getattr(module, "members", None),
                              getattr(module, "data_types", None), getattr(module, "may_hold_no_tools", None),
                              tuple(getattr(module, "FRAMEWORK_TYPES", ()))))
    return tuple(out)

_MAX_EXPANSION = 10_000


@contextmanager
def _import_roots(python_path: Sequence[str]) -> Iterator[None]:
    saved = list(sys.path)
    # Like `python -m`, the working directory is importable after the given roots.
    sys.path[:0] = [*(str(p) for p in python_path), os.getcwd()]
    try:
        yield
    finally:
        sys.path[:] = saved


def import_module(module: str, python_path: Sequence[str] = (), label: str | None = None) -> types.ModuleType:
    """Import ``module`` with ``python_path`` prepended to ``sys.path`` for the import.

    Raises :class:`SourceError` for any failure (not found, syntax error, an exception
    raised while the module runs, ``SystemExit``), naming ``label`` (default: the module)
    and the error.
    """
    label = label or module
    from schemalint.loaders.python.phases import phase

    with _import_roots(python_path), phase("import"):
        try:
            return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            from schemalint.loaders.python.extras import install_hint

            where = f" (import roots tried first: {', '.join(python_path)})" if python_path else ""
            extra = install_hint(exc.name or "") if exc.name and exc.name != module else None
            if extra and _installed(exc.name or ""):
                extra = None  # installed, but not what the project was written for (mcp 2.x for 1.x code)
            from schemalint.loaders.python.extras import IN_PRE_COMMIT, in_pre_commit

            missing = (exc.name or "").split(".")[0]
            dependency = bool(missing) and missing != module.split(".")[0]  # a package the module imports
            folder = (f"; `{missing}` is imported by the module: install it in the environment schemalint "
                      "runs in, or add its folder with --python-path" if dependency
                      else "; add its folder with --python-path")
            hint = (f"; {IN_PRE_COMMIT}" if in_pre_commit() and not (exc.name and _installed(exc.name))
                    else f"; install it with: {extra}" if extra else "" if exc.name and _installed(exc.name)
                    else folder)
            if module.endswith((".py", ".pyw")) and exc.name == module:  # `server.py:mcp`
                stem = module.rsplit(".", 1)[0]
                attr = label.partition(":")[2] or "..."
                hint = f"; a Python source is written module:attr, without the file suffix: `{stem}:{attr}`"
            raise SourceError(f"{label}: cannot import: ModuleNotFoundError: {exc}{where}{hint}") from None
        except SyntaxError as exc:
            loc = f" ({exc.filename}:{exc.lineno})" if exc.filename else ""
            raise SourceError(f"{label}: cannot import: SyntaxError: {exc.msg}{loc}") from None
        except BaseException as exc:  # the module's own code failed; never a traceback
            if isinstance(exc, KeyboardInterrupt):
                raise
            # an ImportError a package raises itself ("Please install the `groq` package ...") says
            # what to do; a version suffix would name a wrong cause
            api = isinstance(exc, (TypeError, AttributeError)) or (
                isinstance(exc, ImportError) and str(exc).startswith("cannot import name"))
            versions = _lacking_name(exc) or _framework_versions(module) if api else ""
            lacks = import_environment(exc)
            raise SourceError(f"{label}: cannot import: {lacks + ': ' if lacks else ''}{type(exc).__name__} raised "
                              f"while importing: {exc}{versions}") from None


def import_environment(exc: BaseException) -> str:
    """What the environment lacks when an import failed for that reason (the module's settings
    class found required values missing, the network is unreachable), else ``""``: the cause is
    named before the exception, so that it does not read as a fault of the code. Read from the
    exception's class and the frames it passed through; never raises."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename.replace("\\", "/"))
        tb = tb.tb_next
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and len(chain) < 10:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    names = {type(e).__name__ for e in chain}
    if type(exc).__name__ == "ValidationError" and any("/pydantic_settings/" in f for f in frames):
        return ("the environment lacks the module's configuration (its pydantic-settings class found required "
                "values missing: set them as environment variables or in the .env file it reads)")
    network = {"ConnectionError", "NameResolutionError", "ConnectError", "gaierror", "ConnectionRefusedError",
               "MaxRetryError", "ConnectTimeout"}
    if names & network:
        return ("the environment lacks a network service the module reaches at import (a download or a "
                "connection, which fails here)")
    return ""


def _lacking_name(exc: BaseException) -> str:
    """For ``ImportError: cannot import name 'X' from 'pkg.mod'`` where ``pkg`` is installed: the
    distribution and version that lack the name, the line that imports it, and the version the
    project's lock file (``uv.lock``, ``poetry.lock``, in the current folder or up to three above)
    pins, e.g. `` (pydantic 2.14.4, installed here, has no `eval_type_backport` in
    pydantic._internal._typing_extra, imported at src/dbt_mcp/proxy/tools.py:27; uv.lock pins
    pydantic 2.12.5: install that version ...)``. ``""`` otherwise. Measured on dbt-labs/dbt-mcp,
    whose module imports a pydantic internal: the message named dbtlabs-vortex and mcp instead. Never
    raises."""
    import re

    try:
        import importlib.metadata

        found = re.match(r"cannot import name '([^']+)' from '([^']+)'", str(exc))
        if type(exc) is not ImportError or found is None:
            return ""
        name, owner = found.groups()
        top = owner.split(".")[0]
        dists = importlib.metadata.packages_distributions().get(top) or []
        if not dists:
            return ""
        dist = dists[0]
        installed = importlib.metadata.version(dist)
        site = ""
        tb = exc.__traceback__
        while tb is not None:
            file = tb.tb_frame.f_code.co_filename
            if not file.startswith("<"):
                rel = os.path.relpath(file)
                site = f", imported at {rel if not rel.startswith('..') else file}:{tb.tb_lineno}"
            tb = tb.tb_next
        pinned = _locked_version(dist)
        advice = (f"; {pinned[0]} pins {dist} {pinned[1]}: install that version" if pinned and pinned[1] != installed
                  else "; install the version the project pins")
        return (f" ({dist} {installed}, installed here, has no `{name}` in {owner}{site}{advice}, in the "
                "environment schemalint runs in)")
    except Exception:
        return ""


def _locked_version(dist: str) -> tuple[str, str] | None:
    """``(lock file, version)`` of ``dist`` in the nearest ``uv.lock`` or ``poetry.lock`` (the
    current folder and up to three above), or ``None``."""
    import tomllib

    wanted = dist.lower().replace("_", "-")
    folder = os.path.abspath(".")
    for _ in range(4):
        for lock in ("uv.lock", "poetry.lock"):
            path = os.path.join(folder, lock)
            if not os.path.isfile(path) or os.path.getsize(path) > 50_000_000:
                continue
            with open(path, "rb") as handle:
                data = tomllib.load(handle)
            for package in data.get("package") or []:
                if str(package.get("name", "")).lower().replace("_", "-") == wanted and package.get("version"):
                    return os.path.relpath(path), str(package["version"])
        folder = os.path.dirname(folder)
    return None


def _framework_versions(module: str) -> str:
    """For an API error at import (a ``TypeError`` for an unknown keyword, an ``AttributeError``):
    the installed versions of the packages the module imports (at most three, from its own
    ``import`` statements), since the module may be written for another major version of one;
    ``""`` when none is found. Never raises."""
    try:
        import ast
        import importlib.metadata
        import importlib.util

        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return ""
        with open(spec.origin, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read(1_000_000))
        names: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.extend(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.append(node.module.split(".")[0])
        dists = importlib.metadata.packages_distributions()
        shown: list[str] = []
        for name in dict.fromkeys(names):
            if name in sys.stdlib_module_names or name not in dists:
                continue
            same = [d for d in dists[name] if d.lower().replace("-", "_") == name.lower()]
            dist = (same or dists[name])[0]
            shown.append(f"{dist} {importlib.metadata.version(dist)}")
            if len(shown) == 3:
                break
    except Exception:
        return ""
    if not shown:
        return ""
    return (f" (installed here: {', '.join(shown)}; a module written for another major version of a package it "
            "uses fails this way: install the version the project pins, in the environment schemalint runs in)")


def _installed(name: str) -> bool:
    """Whether the top package of the dotted ``name`` is installed (found without importing it)."""
    import importlib.util

    try:
        return importlib.util.find_spec(name.split(".")[0]) is not None
    except (ImportError, ValueError):
        return False


def resolve(source: str, python_path: Sequence[str] = ()) -> Any:
    """The object named by ``module:attr`` (``attr`` may be dotted or empty for the module).

    Raises :class:`SourceError` when the module cannot be imported or lacks ``attr``.
    """
    module_name, _, attr = source.partition(":")
    obj: Any = import_module(module_name, python_path, label=source)
    for part in [p for p in attr.split(".") if p]:
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SourceError(f"{source}: {module_name} has no attribute {attr!r}") from None
        except Exception as exc:
            raise SourceError(f"{source}: reading {part!r} raised {type(exc).__name__}: {exc}") from None
    return obj


def _field_types(model: Any) -> Iterator[Any]:
    """Classes named in a pydantic-like model's field annotations, at any typing depth."""
    fields = getattr(model, "model_fields", None)
    if not isinstance(fields, dict):
        return
    stack = [getattr(f, "annotation", None) for f in fields.values()]
    seen = 0
    while stack and seen < 1000:
        seen += 1
        ann = stack.pop()
        if isinstance(ann, type):
            yield ann
        stack.extend(typing.get_args(ann))


def module_members(module: types.ModuleType) -> list[tuple[str, Any]]:
    """The members of ``module`` that may be tools (see the module docstring for the rules)."""
    names = getattr(module, "__all__", None)
    if isinstance(names, (list, tuple)):
        return [(n, getattr(module, n)) for n in names if isinstance(n, str) and hasattr(module, n)]
    members: list[tuple[str, Any]] = []
    for name, value in vars(module).items():
        if name.startswith("_") or not name.isidentifier() or isinstance(value, types.ModuleType):
            continue
        if inspect.isclass(value) or inspect.isfunction(value):
            if getattr(value, "__module__", None) != module.__name__:
                continue  # imported from elsewhere
            if inspect.isfunction(value) and not hasattr(value, "__wrapped__"):
                continue  # a plain helper function
            if inspect.isfunction(value) and _is_generator(value):
                continue  # @contextmanager / @asynccontextmanager: a lifespan or fixture
        elif isinstance(value, (str, bytes, int, float, bool, type(None))) or (
            callable(value) and not hasattr(value, "__dict__")
        ):
            continue
        members.append((name, value))
    parts = {id(t) for _, v in members if inspect.isclass(v) for t in _field_types(v)}
    if any(_is_framework_tool(v) for _, v in members):
        parts.update(id(v) for _, v in members if inspect.isclass(v) and hasattr(v, "model_json_schema"))
    given = _models_given_as_schemas(module)
    by_hand = _declares_mcp_tools(module)
    parts.update(id(v) for n, v in members
                 if inspect.isclass(v) and (n in given or (by_hand and hasattr(v, "model_json_schema"))))
    return [(n, v) for n, v in members if not (inspect.isclass(v) and id(v) in parts)]


_GIVEN_AS_SCHEMA = re.compile(
    r"""["']?\b(?:inputSchema|input_schema|parameters)["']?\s*[=:]\s*([A-Za-z_]\w*)\.(?:model_json_schema|schema)\(""")


def _models_given_as_schemas(module: types.ModuleType) -> frozenset[str]:
    """Names of the models whose schema ``module``'s code hands to a tool declared there with its
    own name and description (``Tool(name=..., inputSchema=GitStatus.model_json_schema())`` in a
    low-level MCP server's ``list_tools``, ``"parameters": Query.model_json_schema()`` in an
    OpenAI tool dict): those models are input schemas, not tools (loaded as tools they had the
    class name and an empty description: measured on modelcontextprotocol/servers' git server, 12
    false SL007). Read from the module's source text; none when it cannot be read."""
    try:
        text = inspect.getsource(module)
    except (OSError, TypeError):
        return frozenset()
    return frozenset(m.group(1) for m in _GIVEN_AS_SCHEMA.finditer(text))


_MCP_TOOL_BY_HAND = re.compile(r"""\bTool\(|\binputSchema\s*=|["']inputSchema["']\s*:""")


def _declares_mcp_tools(module: types.ModuleType) -> bool:
    """Whether ``module``'s code declares MCP tools by hand (``Tool(...)`` or an ``inputSchema``
    given in code, as a low-level ``Server``'s ``list_tools`` handler does): its pydantic models are
    then the data of those tools (arguments, results), not tools (measured on
    modelcontextprotocol/servers' time server: its result models loaded as tools)."""
    try:
        text = inspect.getsource(module)
    except (OSError, TypeError):
        return False
    return bool(_MCP_TOOL_BY_HAND.search(text))


def _is_framework_tool(value: Any) -> bool:
    """True for an object of a framework a recognizer declares (:attr:`Recognizer.framework_types`:
    an OpenAI Agents ``FunctionTool``/``Agent``, an MCP server object, a LangChain tool ...), by the
    class or one of its bases, matched by module prefix and class name; nothing is imported."""
    types_ = [t for r in recognizers() for t in r.framework_types]
    for cls in type(value).__mro__:
        mod = getattr(cls, "__module__", "") or ""
        if any(mod.startswith(prefix) and cls.__name__ in names for prefix, names in types_):
            return True
    return False


def _is_generator(fn: Any) -> bool:
    try:
        inner = inspect.unwrap(fn)
    except ValueError:
        return False
    return inspect.isgeneratorfunction(inner) or inspect.isasyncgenfunction(inner)


def _is_tool_data(obj: dict[Any, Any]) -> bool:
    """True for a dict that is (or holds) tool definitions as plain data, read whole by shape."""
    from schemalint.loaders.formats.json_objects import tools_from_object

    return tools_from_object(obj, "") is not None


def _framework_members(obj: Any) -> list[Any] | None:
    """What a recognizer says the framework container ``obj`` holds (:attr:`Recognizer.members`)."""
    for r in recognizers():
        if r.members is not None:
            found = r.members(obj)
            if found is not None:
                return found
    return None


def _expand(obj: Any, source: str, depth: int = 0) -> Iterator[tuple[Any, str]]:
    if depth > 3:
        return
    held = None if isinstance(obj, (types.ModuleType, list, tuple, set, frozenset, dict)) else _framework_members(obj)
    if held is not None:
        for i, value in enumerate(held):
            yield value, f"{source}.tools[{i}]"
    elif isinstance(obj, types.ModuleType):
        for name, value in module_members(obj):
            yield from _expand(value, f"{obj.__name__}:{name}", depth + 1)
    elif isinstance(obj, (list, tuple, set, frozenset)):
        for i, value in enumerate(obj):
            yield from _expand(value, f"{source}[{i}]", depth + 1)
    elif isinstance(obj, dict) and not _is_tool_data(obj):
        for key, value in obj.items():
            yield from _expand(value, f"{source}[{key!r}]", depth + 1)
    else:
        yield obj, source


def _data_types(obj: Any) -> tuple[set[int], bool]:
    """Ids of the classes that the framework objects among ``obj`` and the module members use as
    data (:attr:`Recognizer.data_types`: argument, return, output and context types), with the
    models those use as field types: data, not tools; and whether one of them may hold no tools
    (:attr:`Recognizer.may_hold_no_tools`)."""
    candidates = [obj]
    if isinstance(obj, types.ModuleType):
        candidates.extend(v for _, v in module_members(obj))
    elif isinstance(obj, (list, tuple)):
        candidates.extend(obj)
    hooks = [r for r in recognizers() if r.data_types is not None or r.may_hold_no_tools is not None]
    found: list[Any] = []
    quiet = False
    for cand in candidates:
        for r in hooks:
            if r.data_types is not None:
                found.extend(r.data_types(cand))
            if r.may_hold_no_tools is not None and not quiet:
                quiet = r.may_hold_no_tools(cand)
    ids = {id(t) for t in found}
    ids.update(id(t) for model in found for t in _field_types(model))
    return ids, quiet


ENVIRONMENT_ERRORS = ("ModuleNotFoundError", "ImportError", "FileNotFoundError", "PermissionError",
                      "MissingExtraError", "ConnectionError", "ConnectionRefusedError", "TimeoutError")
"""Exception classes raised by what runs a source (a package, a command, a service it needs
is missing), not by the tool's definition: their ``SL000`` has ``kind: "environment"``."""


_LACKS = {"ModuleNotFoundError": "a Python package", "ImportError": "a Python package (or the version the code "
          "was written for)", "FileNotFoundError": "a command or file", "PermissionError": "a permission",
          "MissingExtraError": "a schemalint extra", "ConnectionError": "a service it connects to",
          "ConnectionRefusedError": "a service it connects to", "TimeoutError": "a service that answers in time"}


def _problem(where: str, message: str, severity: Severity = Severity.ERROR, error: str | None = None) -> Diagnostic:
    """The ``SL000`` for a member of ``where`` that could not become a tool. ``error``: the
    exception's class name when one was raised; an environment error (:data:`ENVIRONMENT_ERRORS`)
    gets ``kind: "environment"`` and a hint naming what to provide, anything else is the definition's."""
    if error in ENVIRONMENT_ERRORS:
        lacks = _LACKS.get(error or "", "something it needs")
        return Diagnostic(code="SL000", name="unreadable-source", severity=severity, tool=None, file=where,
                          pointer="", message=f"the environment lacks {lacks} ({error}): {message}",
                          kind="environment",
                          hint="the definition was not read because the environment schemalint imports it in lacks "
                          "what the message names (install the package, the command or the service, in the "
                          "environment schemalint runs in); the other tools were checked")
    return Diagnostic(code="SL000", name="unreadable-source", severity=severity, tool=None, file=where,
                      pointer="", message=message, kind="definition",
                      hint="fix the definition so that its JSON schema can be generated; the other tools "
                      "were checked")


def empty_server_message(source: str, server: Any) -> str:
    """What was seen of an MCP server whose ``tools/list`` answered no tool at import, and the
    likely causes, most likely first. A server that holds tools its listing leaves out filters them
    (configuration, environment) for certain; otherwise configuration comes before "registered
    later", the commoner cause in servers measured (docs/frameworks.md, "A server that lists no tools")."""
    from schemalint.loaders.python.mcp_server import held_tools

    module = source.partition(":")[0]
    command = f"python {module}" if module.endswith(".py") else f"python -m {module}"
    later = (f"its tools are registered later (inside main(), a start-up hook): list them from the running "
             f"server with --mcp-stdio {command!r} (or `mcp-stdio` in [tool.schemalint])")
    held = held_tools(server)
    registering = [] if held else registering_functions(module, source.partition(":")[2])
    if registering:
        name, file, line = registering[0]
        more = f" (and {', '.join(n + '()' for n, _f, _l in registering[1:4])})" if len(registering) > 1 else ""
        calls = "; ".join(f"{n}()" for n, _f, _l in registering[:4])
        attr = source.partition(":")[2] or "mcp"
        return (f"{source}: the MCP server exists, but its tools/list answered 0 tools at import: its tools are "
                f"registered inside {name}() ({file}:{line}){more}, which importing the module does not call. "
                f"List them from the running server with --mcp-stdio {command!r}, or, for their runtime side too, "
                f"check a module that calls it first, e.g. schemalint_tools.py: `from {module} import {attr}, "
                f"{', '.join(n for n, _f, _l in registering[:4])}; {calls}`, then `schemalint check "
                f"schemalint_tools:{attr}`")
    if held:
        shown = ", ".join(held[:5]) + (f" (+{len(held) - 5} more)" if len(held) > 5 else "")
        return (f"{source}: the MCP server exists and holds {len(held)} tool(s) ({shown}), but its tools/list "
                "answered 0 tools at import: the server filters what it lists, most likely by configuration "
                "(environment variables or settings read at start: service URLs, credentials, enabled tool sets, "
                "a read-only mode); set them in the environment schemalint runs in, or list the configured, "
                f"running server with --mcp-stdio {command!r}")
    return (f"{source}: the MCP server exists, but its tools/list answered 0 tools at import. Likely causes, "
            "most likely first: (1) it registers or lists tools only when configured (environment variables or "
            "settings read at import or start: service URLs, credentials, enabled tool sets): set them in the "
            f"environment schemalint runs in; (2) {later}; (3) it has no tools")


REGISTERING = frozenset({"tool", "add_tool"})
"""Methods of an MCP server object that register a tool (``@mcp.tool()``, ``mcp.add_tool(fn)``)."""


def registering_functions(module: str, attr: str) -> list[tuple[str, str, int]]:
    """The functions of the imported module ``module`` whose body registers a tool on its
    attribute ``attr`` (a ``@attr.tool`` decorator or an ``attr.tool(...)``/``attr.add_tool(...)``
    call), and that the module's own top level does not call: ``(name, file, line)`` each, in
    source order; ``[]`` when the source cannot be read. Measured on GongRzhe/Office-Word-MCP-Server,
    whose 54 tools are registered in ``register_tools()``, called from ``run_server()``: the message
    named configuration first. Never raises."""
    try:
        import ast

        origin = getattr(sys.modules.get(module), "__file__", None)
        if not attr or not origin or not str(origin).endswith(".py"):
            return []
        with open(origin, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read())
    except Exception:
        return []

    def registers(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr in REGISTERING and isinstance(node.value, ast.Name)
                and node.value.id == attr)

    def main_guard(stmt: ast.stmt) -> bool:  # `if __name__ == "__main__":` does not run at an import
        test = stmt.test if isinstance(stmt, ast.If) else None
        return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
                and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators))

    called = {n.func.id for stmt in tree.body
              if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not main_guard(stmt)
              for n in ast.walk(stmt) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    shown = os.path.relpath(origin) if not os.path.relpath(origin).startswith("..") else origin
    found = []
    for stmt in tree.body:
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) or stmt.name in called:
            continue
        for node in ast.walk(stmt):
            decorated = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                registers(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list)
            if decorated or (isinstance(node, ast.Call) and registers(node.func)):
                found.append((stmt.name, shown, stmt.lineno))
                break
    return found


_CALLED: set[tuple[str, str]] = set()


def _register_later(source: str, server: Any) -> bool:
    """Call the functions of the server's module that register its tools and that its import does
    not call, when their source shows they only register tools (docs/frameworks.md, "A server that
    lists no tools"; :mod:`schemalint.loaders.python.registering_calls`): ``True`` when they were
    called (the server is then listed again), ``False`` when there are none, one is not safe to
    call, they were called already, or the server holds tools its listing filters out."""
    from schemalint.loaders.python.mcp_server import holds_tools
    from schemalint.loaders.python.registering_calls import call_registering, safe_to_call

    module, _, attr = source.partition(":")
    if holds_tools(server) or not attr or "." in attr:
        return False
    names = _roots(module, [n for n, _f, _l in registering_functions(module, attr)])
    if not names or any((module, n) in _CALLED for n in names) or not safe_to_call(module, attr, names):
        return False
    _CALLED.update((module, n) for n in names)
    try:
        call_registering(module, names)
    except Exception as exc:
        raise SourceError(f"{source}: calling {', '.join(n + '()' for n in names)}, which register(s) the "
                          f"server's tools, raised {type(exc).__name__}: {exc}") from None
    return True


def _roots(module: str, names: list[str]) -> list[str]:
    """The functions of ``names`` that no other function of ``names`` calls (each is called once)."""
    uses = {n: getattr(getattr(getattr(sys.modules.get(module), n, None), "__code__", None), "co_names", ())
            for n in names}
    called = {m for n in names for m in names if m != n and m in uses[n]}
    return [n for n in names if n not in called]


def _unchecked(member: Any, where: str, found: list[Tool]) -> list[Diagnostic]:
    """An ``SL000`` warning (``kind: "unchecked"``) for each tool of an MCP server whose runtime
    side could not be reached (a mounted tool that could not be followed, a proxy), so that a
    contract check that did not run is never silent."""
    from schemalint.loaders.python.mcp_server import server_kind, unreached_runtimes

    if server_kind(member) is None:
        return []
    reasons = unreached_runtimes(member)
    out = []
    for tool in found:
        reason = reasons.get(tool.name)
        if reason is None or tool.runtime is not None:
            continue
        out.append(Diagnostic(
            code="SL000", name="unreadable-source", severity=Severity.WARNING, tool=tool.name, file=where,
            pointer=tool.origin.pointer, kind="unchecked",
            message=f"runtime side not reached for tool {tool.name!r}: {reason}",
            hint="the contract rules (SL101 ...) and the probes did not run for this tool"))
    return out


def _root_error(exc: BaseException) -> str:
    """The class name of the environment error (:data:`ENVIRONMENT_ERRORS`) behind ``exc``, found
    along its ``__cause__``/``__context__`` chain (a few steps) or, when a framework re-raised it as
    text only (``RuntimeError: Client failed to connect: [Errno 2] No such file or directory: 'x'``),
    in its message; else the class name of ``exc`` itself."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            break
        if type(seen).__name__ in ENVIRONMENT_ERRORS:
            return type(seen).__name__
        seen = seen.__cause__ or seen.__context__
    text = str(exc)
    for pattern, name in _ENVIRONMENT_TEXT:
        if pattern in text:
            return name
    return type(exc).__name__


_ENVIRONMENT_TEXT = (("[Errno 2] No such file or directory", "FileNotFoundError"),
                     ("No module named ", "ModuleNotFoundError"), ("[Errno 13] Permission denied", "PermissionError"),
                     ("[Errno 111] Connection refused", "ConnectionRefusedError"))


def load_python_source(
    source: str, python_path: Sequence[str] = (), problems: list[Diagnostic] | None = None
) -> list[Tool]:
    """Every tool defined by the Python object ``source`` (``module:attr``).

    ``python_path``: folders put first on ``sys.path`` while importing. Objects of no
    known kind are skipped silently inside a container; a directly named object of no
    known kind raises :class:`SourceError`, as does an import failure.
    A recognised object that cannot become a tool (a model without a JSON schema, a
    recognizer that fails) becomes an ``SL000`` diagnostic appended to ``problems``
    (when given) and the other members are still loaded. A module (or list) whose only
    members of a known kind are OpenAI Agents agents without function tools gives no tools
    and no error.
    """
    obj = resolve(source, python_path)
    from schemalint.loaders.python.server_factories import build_server, factories_message, returns_server

    if returns_server(obj):  # `module:create_server`: the server it builds, as `fastmcp run` does
        obj = build_server(obj, source)
    tried = [r.tools_from_object for r in recognizers()]
    tools: list[Tool] = []
    members = list(itertools.islice(_expand(obj, source), _MAX_EXPANSION))
    skip, quiet = _data_types(obj)
    for member, where in members:
        if id(member) in skip and member is not obj:
            continue
        skip.add(id(member))  # the same object reached twice (module attribute, Agent.tools) is one tool
        for recognize in tried:
            try:
                found = recognize(member, where)
            except Exception as exc:
                known = type(exc).__name__ == "ObjectProblem"
                message = str(exc) if known else f"could not load {where}: {type(exc).__name__}: {exc}"
                if problems is not None:
                    problems.append(_problem(where, message, error=_root_error(exc)))
                elif member is obj:
                    raise SourceError(f"{where}: {message}") from None
                break
            if found is not None:
                tools.extend(canonical_tool(with_definition_site(t, member, where)) for t in found)
                if problems is not None:
                    problems.extend(_unchecked(member, where, found))
                break
        else:
            if member is obj:
                raise SourceError(
                    f"{source}: {type(obj).__name__} is not a tool source schemalint knows "
                    "(expected a pydantic model, a function with typed arguments, an MCP server, an OpenAI "
                    "Agents FunctionTool, openai.pydantic_function_tool output, a LangChain tool, or a "
                    "list/dict/module of them)"
                )
    if not tools and quiet:
        return tools  # e.g. agents with hosted tools only, or none: nothing to check, not a wrong source
    if not tools and not found_any_problem(problems, source):
        from schemalint.loaders.python.mcp_server import server_kind

        if server_kind(obj) is not None:
            if _register_later(source, obj):
                return load_python_source(source, python_path, problems)
            raise SourceError(empty_server_message(source, obj))
        given = sorted(_models_given_as_schemas(obj)) if isinstance(obj, types.ModuleType) else []
        if given:
            names = ", ".join(given[:3]) + (f" and {len(given) - 3} more" if len(given) > 3 else "")
            raise SourceError(
                f"{source}: the module's models ({names}) are the input schemas of tools its code declares "
                "with their own names and descriptions (inputSchema=Model.model_json_schema()), most likely "
                "inside a handler that lists them at run time; check what the server lists with "
                "--mcp-stdio \"CMD\", or name one model (module:Model) to check its schema alone"
            )
        factories = factories_message(source, obj) if isinstance(obj, types.ModuleType) else None
        if factories:
            raise SourceError(factories)
        if isinstance(obj, types.ModuleType) and _declares_mcp_tools(obj):
            raise SourceError(
                f"{source}: the module declares MCP tools by hand (Tool(...) or an inputSchema in its code, "
                "most likely in a handler that lists them at run time) and its models are their data, not "
                "tools; check what the server lists with --mcp-stdio \"CMD\""
            )
        raise SourceError(
            f"{source}: {type(obj).__name__} is not a tool source schemalint knows: it holds no tool "
            "definition (expected pydantic models, functions with typed arguments, MCP servers, Agents or "
            "LangChain tools, or tool definitions as plain dicts)"
        )
    return tools


def with_definition_site(tool: Tool, member: Any, where: str) -> Tool:
    """``tool`` with :attr:`Origin.path`/``path_line`` set to where it is written, when the recognizer
    did not set them: the function behind it (:func:`~schemalint.loaders.python.framework_common.
    tool_function`), else a ``def``/``class`` of the tool's name in the module of ``where``
    (``module:attr``) or a dict literal naming the tool (:func:`~schemalint.loaders.python.
    framework_common.def_line`), else the line where ``attr`` is assigned, else that module's file
    at line 1. Unchanged when no file is known."""
    import dataclasses

    from schemalint.loaders.python.framework_common import (
        assignment_line,
        def_line,
        definition_site,
        relative_file,
        tool_function,
    )

    if tool.origin.path is not None:
        return tool
    path, line = None, None
    fn = tool_function(member, tool.name)
    if fn is not None:
        path, line = definition_site(fn)
    if path is None:
        module_name, _, attr = where.partition(":")
        module = sys.modules.get(module_name.split("[", 1)[0])
        file = getattr(module, "__file__", None)
        if isinstance(file, str) and file.endswith(".py"):
            attr = attr.split("[", 1)[0].split(".", 1)[0]
            line = def_line(file, tool.name) or (assignment_line(file, attr) if attr else None)
            path, line = relative_file(file), line or 1
    if path is None:
        return tool
    origin = dataclasses.replace(tool.origin, path=path, path_line=line)
    return dataclasses.replace(tool, origin=origin)


def found_any_problem(problems: list[Diagnostic] | None, source: str) -> bool:
    """True when loading ``source`` already recorded a problem (so "no tools" is explained)."""
    return bool(problems) and any(p.file.startswith(source.split(":")[0]) for p in problems or [])
