"""Recognizer for Python values that hold tool definitions as plain data.

Many projects keep their tools as Python literals (``TOOLS = [{"type": "function", ...}]``)
and pass them to an SDK as they are. Such a dict is read exactly like a JSON document:
tools are found by shape (:func:`schemalint.loaders.formats.json_tools.find_tools`).

The dict is first copied as JSON would carry it (:func:`plain_copy`), without recursion and
without losing a tool to what JSON cannot hold: a value that is not JSON (an object as a
``default``, a set) stays in the copy and the runtime bridge replaces it by a stand-in naming
its class (:func:`schemalint.bridge.protocol.jsonable`), a container that holds itself is cut
where it repeats, and each of these is reported with the tool (an ``SL000`` diagnostic that
names the JSON pointer), never dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.bridge.protocol import NotJson
from schemalint.loaders.formats.json_tools import find_tools
from schemalint.model import Tool, escape_token

MAX_PLAIN_NODES = 2_000_000
"""Most containers copied from one Python value (a shared sub-dict reached many times is copied
each time, so a small object graph can stand for a huge JSON text); past it the rest is cut."""

MAX_PLAIN_DEPTH = 10_000
"""Deepest nesting copied; deeper parts become a placeholder (the bridge carries 200 levels)."""

_KEY_TEXT = {True: "true", False: "false", None: "null"}


def _key(key: Any) -> str:
    """A dict key as ``json.dumps`` writes it (``1`` -> ``"1"``, ``True`` -> ``"true"``)."""
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, bool):
        return _KEY_TEXT[key]
    if isinstance(key, int | float):
        return repr(float(key)) if isinstance(key, float) else str(int(key))
    cls = type(key)
    return f"<non-JSON key: {cls.__module__}.{cls.__qualname__}>"


def _spell(trail: Any) -> str:
    tokens: list[str] = []
    while trail is not None:
        trail, token = trail
        tokens.append(escape_token(token))
    return "".join("/" + t for t in reversed(tokens)) or "(root)"


def plain_copy(obj: Any) -> Any:
    """``obj`` as JSON would carry it: mappings as dicts (keys as strings), lists and tuples as
    lists, scalars and other objects as they are. Iterative (any depth without recursion).

    A container that holds itself (``d["self"] = d``) is replaced where it repeats by a
    :class:`~schemalint.bridge.protocol.NotJson` placeholder naming the pointer it refers back
    to; parts deeper than :data:`MAX_PLAIN_DEPTH` or beyond :data:`MAX_PLAIN_NODES` containers
    likewise. Never raises.
    """
    def open_container(value: Any) -> Any:
        return {} if isinstance(value, Mapping) else []

    if not isinstance(obj, Mapping | list | tuple):
        return obj
    root = open_container(obj)
    # A depth-first walk with an explicit stack: the containers above the one being copied are
    # the last one taken at each smaller depth (`path`), so a cycle is a child already on it.
    # Pointers are kept as (parent trail, token) links and spelled out only for a cycle's message
    # (building each one would cost the square of the depth).
    stack: list[tuple[Any, Any, Any, int]] = [(obj, root, None, 0)]
    path: list[int] = []
    on_path: dict[int, Any] = {}
    count = 1
    while stack:
        source, copy, trail, depth = stack.pop()
        while len(path) > depth:
            on_path.pop(path.pop(), None)
        path.append(id(source))
        on_path[id(source)] = trail
        items = ((_key(k), v) for k, v in source.items()) if isinstance(source, Mapping) else \
            ((str(i), v) for i, v in enumerate(source))
        children: list[tuple[Any, Any, Any, int]] = []
        for token, value in items:
            where = (trail, token)
            if isinstance(value, Mapping | list | tuple):
                if id(value) in on_path:
                    child: Any = NotJson("<cycle>", f"cycle: refers back to {_spell(on_path[id(value)])}")
                elif depth + 1 > MAX_PLAIN_DEPTH:
                    child = NotJson("<cut: nested too deeply>", f"nested more than {MAX_PLAIN_DEPTH} levels")
                elif count >= MAX_PLAIN_NODES:
                    child = NotJson("<cut: too large>", f"more than {MAX_PLAIN_NODES:,} objects and arrays")
                else:
                    count += 1
                    child = open_container(value)
                    children.append((value, child, where, depth + 1))
            else:
                child = value
            if isinstance(copy, dict):
                copy[token] = child
            else:
                copy.append(child)
        stack.extend(reversed(children))
    return root


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """The tools inside the dict ``obj`` (copied as an SDK would send it: :func:`plain_copy`),
    or ``None`` when ``obj`` is not a dict or holds no tool definition."""
    if not isinstance(obj, Mapping):
        return None
    tools = list(find_tools(plain_copy(obj), source))
    return tools or None
