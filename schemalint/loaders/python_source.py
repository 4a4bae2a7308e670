"""``module:attr`` sources: import a Python object and hand it to the recognizers.

Minimal version from the ``frameworks`` branch (the ``pydantic`` branch owns the full
one): ``load_python_source`` imports ``module:attr`` and asks each recognizer in
:data:`RECOGNIZERS` in turn; the first that does not answer ``None`` wins. A list,
tuple or dict of objects is handled element by element.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

from schemalint.loaders.sources import SourceError
from schemalint.model import Tool

# "module:function" of each recognizer: tools_from_object(obj, source) -> list[Tool] | None
RECOGNIZERS: tuple[str, ...] = (
    "schemalint.loaders.mcp_server:tools_from_object",
    "schemalint.loaders.openai_agents:tools_from_object",
    "schemalint.loaders.langchain_tools:tools_from_object",
)


def _recognizer(spec: str) -> Any:
    module, _, func = spec.partition(":")
    return getattr(importlib.import_module(module), func)


def import_object(source: str, python_path: Sequence[str] = ()) -> Any:
    """Import ``module:attr`` (``attr`` may be dotted or empty) with ``python_path`` prepended.

    Raises :class:`SourceError` when the module or attribute cannot be imported; a
    missing framework module names the schemalint extra that installs it.
    """
    from schemalint.loaders.extras import install_hint

    module_name, _, attr = source.partition(":")
    added = [p for p in (*python_path, ".") if p not in sys.path]
    sys.path[:0] = added
    try:
        try:
            obj: Any = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            hint = install_hint(exc.name or "") if exc.name and exc.name != module_name else None
            extra = f"; install it with: {hint}" if hint else ""
            raise SourceError(f"{source}: cannot import {module_name!r}: {exc}{extra}") from None
        except Exception as exc:
            raise SourceError(
                f"{source}: importing {module_name!r} failed: {type(exc).__name__}: {exc}"
            ) from None
        for part in filter(None, attr.split(".")):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                raise SourceError(f"{source}: {module_name!r} has no attribute {attr!r}") from None
        return obj
    finally:
        for p in added:
            if p in sys.path:
                sys.path.remove(p)


def tools_from_any(obj: Any, source: str, pointer_prefix: str = "") -> list[Tool] | None:
    """Ask every recognizer about ``obj``; for a list/tuple/dict, about each element."""
    for spec in RECOGNIZERS:
        tools = _recognizer(spec)(obj, source)
        if tools is not None:
            return list(tools)
    items: list[Any] | None = None
    if isinstance(obj, (list, tuple)):
        items = list(obj)
    elif isinstance(obj, dict):
        items = list(obj.values())
    if items is None:
        return None
    out: list[Tool] = []
    found = False
    for item in items:
        tools = tools_from_any(item, source)
        if tools is not None:
            found = True
            out.extend(tools)
    return out if found else None


def load_python_source(source: str, python_path: Sequence[str] = ()) -> list[Tool]:
    """Tools defined by the Python object ``module:attr``.

    Raises :class:`SourceError` when the object cannot be imported or no recognizer
    knows what it is.
    """
    obj = import_object(source, python_path)
    tools = tools_from_any(obj, source)
    if tools is None:
        raise SourceError(
            f"{source}: {type(obj).__name__} object is not a tool source schemalint recognizes "
            "(MCP server, OpenAI Agents FunctionTool, openai.pydantic_function_tool, LangChain tool)"
        )
    return tools
