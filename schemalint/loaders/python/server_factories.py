"""MCP servers built by a function (a *server factory*): ``def create_server() -> FastMCP``.

Many servers have no module-level server object: a function builds it, often from settings
(``async def create_dbt_mcp(config: Config) -> FastMCP`` in dbt-labs/dbt-mcp). Such a function is
recognised by its return annotation (an official ``MCPServer``/v1 ``FastMCP``/low-level ``Server``
or a ``fastmcp`` ``FastMCP``, by class module and name, as
:func:`~schemalint.loaders.python.mcp_server.server_kind` does for objects). Named directly
(``module:create_server``), a factory that needs no argument is called, as ``fastmcp run
server.py:create_server`` calls it, and its server is checked; one that needs arguments is an
error naming them and the two-line module to write. Before, the factory was read as a function tool
("pydantic cannot validate its arguments ... fix the definition"), and a module holding only a
factory was "not a tool source".
"""

from __future__ import annotations

import inspect
import os
import types
from typing import Any

from schemalint.errors import SourceError

_SERVER_CLASSES = (("mcp.server.mcpserver", "MCPServer"), ("mcp.server.fastmcp", "FastMCP"),
                   ("mcp.server.lowlevel", "Server"), ("fastmcp", "FastMCP"))
FACTORY_TIME_LIMIT = 30.0
"""Seconds a called factory may take (an ``async`` one runs in its own event loop)."""


def _is_server_class(cls: Any) -> bool:
    if not isinstance(cls, type):
        return False
    for klass in cls.__mro__:
        module = getattr(klass, "__module__", "") or ""
        if any(module.startswith(prefix) and klass.__name__ == name for prefix, name in _SERVER_CLASSES):
            return True
    return False


def returns_server(obj: Any) -> bool:
    """Whether ``obj`` is a function (sync or async) whose return annotation is an MCP server class
    (a string annotation is looked up in the function's globals). Never raises."""
    if not isinstance(obj, types.FunctionType):
        return False
    try:
        annotation = inspect.signature(obj).return_annotation
    except (TypeError, ValueError):
        return False
    if isinstance(annotation, str):
        head = annotation.split("[", 1)[0].strip()
        found: Any = obj.__globals__.get(head.split(".", 1)[0])
        for part in head.split(".")[1:]:
            found = getattr(found, part, None)
        annotation = found
    annotation = getattr(annotation, "__origin__", annotation)  # FastMCP[Any]
    return _is_server_class(annotation)


def required_parameters(fn: Any) -> list[str]:
    """The names of ``fn``'s parameters that have no default (``*args``/``**kwargs`` excluded)."""
    kinds = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty and p.kind not in kinds]


def wrapper_text(fn: Any, source: str) -> str:
    """The module a user writes to check the server ``fn`` builds, as one line of text."""
    module, _, name = source.partition(":")
    args = ", ".join(f"{p}=..." for p in required_parameters(fn))
    call = f"{name}({args})"
    if inspect.iscoroutinefunction(fn):
        return (f"schemalint_tools.py: `import asyncio; from {module} import {name}; "
                f"mcp = asyncio.run({call})`, then `schemalint check schemalint_tools:mcp`")
    return (f"schemalint_tools.py: `from {module} import {name}; mcp = {call}`, then "
            f"`schemalint check schemalint_tools:mcp`")


def build_server(fn: Any, source: str) -> Any:
    """The server the factory ``fn`` (named as ``source``) returns, called without arguments.

    Raises :class:`SourceError` when ``fn`` needs arguments (naming them, its line and the module
    to write), when it raises, or when it takes longer than :data:`FACTORY_TIME_LIMIT` seconds."""
    from schemalint.loaders.python.framework_common import run_async

    required = required_parameters(fn)
    site = _site(fn)
    if required:
        raise SourceError(
            f"{source}: {fn.__name__}() ({site}) builds an MCP server but needs argument(s) "
            f"{', '.join(required)}, which schemalint cannot know; check a module that calls it, e.g. "
            f"{wrapper_text(fn, source)} (for the running server without a runtime side: --mcp-stdio CMD)")
    try:
        if inspect.iscoroutinefunction(fn):
            return run_async(fn, FACTORY_TIME_LIMIT)
        return fn()
    except TimeoutError:
        raise SourceError(f"{source}: {fn.__name__}() ({site}) did not return a server within "
                          f"{FACTORY_TIME_LIMIT:.0f}s") from None
    except Exception as exc:
        raise SourceError(f"{source}: calling the server factory {fn.__name__}() ({site}) raised "
                          f"{type(exc).__name__}: {exc}") from None


def factories_in(module: types.ModuleType) -> list[Any]:
    """The server factories defined in ``module`` itself (not imported into it), in source order."""
    found = [v for v in vars(module).values()
             if returns_server(v) and getattr(v, "__module__", None) == module.__name__]
    return sorted(found, key=lambda f: f.__code__.co_firstlineno)


def factories_message(source: str, module: types.ModuleType) -> str | None:
    """The error for a module that holds no tool but defines server factories, or ``None``."""
    found = factories_in(module)
    if not found:
        return None
    first = found[0]
    named = ", ".join(f"{f.__name__}() ({_site(f)})" for f in found[:3])
    name = f"{module.__name__}:{first.__name__}"
    how = (f"check {name}" if not required_parameters(first)
           else f"check a module that calls it with its arguments, e.g. {wrapper_text(first, name)}")
    return (f"{source}: the module holds no tool or server object, but builds an MCP server in {named}: "
            f"{how}")


def _site(fn: Any) -> str:
    code = getattr(fn, "__code__", None)
    if code is None:
        return "?"
    path = code.co_filename
    rel = os.path.relpath(path) if not os.path.relpath(path).startswith("..") else path
    return f"{rel}:{code.co_firstlineno}"


__all__ = ["build_server", "factories_in", "factories_message", "required_parameters", "returns_server",
           "wrapper_text"]
