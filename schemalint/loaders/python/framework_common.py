"""Helpers shared by the framework recognizers (MCP servers, OpenAI Agents, LangChain).

Nothing here imports a framework; pydantic is imported inside the functions that need it.
"""

from __future__ import annotations

import copy
import functools
import threading
from collections.abc import Awaitable, Callable
from typing import Any

MAX_PROBE_ROUNDS = 8
# pydantic error types meaning "a required key was omitted" (models / call signatures)
MISSING_TYPES = frozenset({"missing", "missing_argument", "missing_keyword_only_argument"})


def run_async(make: Callable[[], Awaitable[Any]], timeout: float) -> Any:
    """Run the coroutine ``make()`` to completion within ``timeout`` seconds and return its result.

    Uses ``anyio.run`` in the current thread, or in a fresh thread when an event loop is
    already running here (a caller inside async code). Raises ``TimeoutError`` when the
    time limit passes, and whatever the coroutine raises otherwise.
    """
    import anyio

    async def guarded() -> Any:
        with anyio.fail_after(timeout):
            return await make()

    try:
        import asyncio

        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(guarded)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = anyio.run(guarded)
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box.get("value")


def closure_var(fn: Any, name: str) -> Any:
    """The value of the free variable ``name`` captured by function ``fn``, or ``None``."""
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None)
    if code is None or not cells:
        return None
    for var, cell in zip(code.co_freevars, cells, strict=False):
        if var == name:
            try:
                return cell.cell_contents
            except ValueError:  # empty cell
                return None
    return None


def _pydantic_errors(exc: BaseException) -> list[dict[str, Any]] | None:
    """The ``errors()`` of a pydantic ValidationError found on ``exc`` or its cause chain."""
    seen = 0
    cur: BaseException | None = exc
    while cur is not None and seen < 10:
        errors = getattr(cur, "errors", None)
        if callable(errors) and type(cur).__name__ == "ValidationError":
            try:
                return list(errors())
            except Exception:
                return None
        cur = cur.__cause__ or cur.__context__
        seen += 1
    return None


def refused_when_omitted(validate: Callable[[Any], Any]) -> tuple[str, ...]:
    """Instance paths the runtime validator refuses a call for omitting, found by probing it.

    Calls ``validate({})`` and reads pydantic's ``missing`` / ``missing_argument`` errors;
    each missing key found is then filled with ``{}`` and the call repeated, so keys required inside nested
    objects are found too (at most :data:`MAX_PROBE_ROUNDS` rounds). Only the runtime's
    own validator is called. Returns JSON pointers such as ``("/artifact",
    "/presentation/x")``, sorted; an empty tuple when the validator accepts ``{}`` or
    raises something other than a pydantic ``ValidationError``.
    """
    from schemalint.loaders.python.phases import phase

    with phase("probes"):
        return _refused_when_omitted(validate)


def _refused_when_omitted(validate: Callable[[Any], Any]) -> tuple[str, ...]:
    from schemalint.model import join_pointer

    found: set[str] = set()
    args: dict[str, Any] = {}
    for _ in range(MAX_PROBE_ROUNDS):
        try:
            validate(copy.deepcopy(args))
        except Exception as exc:
            errors = _pydantic_errors(exc)
        else:
            break
        if not errors:
            break
        new = False
        for err in errors:
            loc = err.get("loc") or ()
            if err.get("type") not in MISSING_TYPES or not loc or not all(isinstance(p, str) for p in loc):
                continue
            pointer = join_pointer("", *loc)
            if pointer in found:
                continue
            found.add(pointer)
            new = True
            _set_path(args, list(loc), {})
        if not new:
            break
    return tuple(sorted(found))


def _set_path(target: dict[str, Any], path: list[str], value: Any) -> None:
    cur = target
    for key in path[:-1]:
        nxt = cur.get(key)
        if not isinstance(nxt, dict):
            nxt = {}
            cur[key] = nxt
        cur = nxt
    cur.setdefault(path[-1], value)


def inline_root_ref(schema: Any) -> Any:
    """Copy the ``$defs`` entry a root ``$ref`` points to onto the root (as MCP servers do)."""
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    defs = schema.get("$defs")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and isinstance(defs, dict):
        target = defs.get(ref[len("#/$defs/"):])
        if isinstance(target, dict):
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            return {**target, **siblings}
    return schema


def type_schema(tp: Any, mode: str = "validation", by_alias: bool = True) -> dict[str, Any] | None:
    """JSON schema of the Python type ``tp`` in pydantic ``mode`` (``None`` if pydantic cannot)."""
    from pydantic import TypeAdapter

    from schemalint.loaders.python.phases import phase

    with phase("schema rendering"):
        try:
            return TypeAdapter(tp).json_schema(mode=mode, by_alias=by_alias)  # type: ignore[arg-type]
        except Exception:
            return None


def relative_file(file: str) -> str:
    """``file`` relative to the working directory when it lies inside it, else as given."""
    import os

    try:
        rel = os.path.relpath(file)
    except ValueError:  # another drive on Windows
        return file
    return file if rel.startswith("..") else rel.replace(os.sep, "/")


def definition_site(obj: Any) -> tuple[str | None, int | None]:
    """``(file, line)`` where the class or function ``obj`` is defined (decorators and
    ``functools.wraps`` wrappers unwrapped; the line of the ``def``/``class`` statement past
    any decorators), or ``(None, None)``.

    The file is relative to the working directory when inside it. Never raises.
    """
    import inspect

    target = obj
    try:
        if callable(obj) and not inspect.isclass(obj):
            target = inspect.unwrap(obj)
        file = inspect.getsourcefile(target)
    except Exception:  # TypeError for builtins, OSError, a broken __wrapped__ chain
        return None, None
    if not file:
        return None, None
    line: int | None = None
    try:
        lines, line = inspect.getsourcelines(target)
    except Exception:
        code = getattr(target, "__code__", None)
        line = getattr(code, "co_firstlineno", None)
    else:  # past the decorators, to the def/class statement itself
        for offset, text in enumerate(lines):
            if text.lstrip().startswith(("def ", "async def ", "class ")):
                line += offset
                break
    return relative_file(file), line or None


_FUNCTION_ATTRS = ("fn", "func", "coroutine", "__wrapped__", "on_invoke_tool", "function")


def tool_function(member: Any, name: str) -> Any:
    """The Python function behind the tool ``name`` of the recognised object ``member`` (a
    framework tool object or an MCP server), or ``None``.

    Framework objects keep it under different attributes: LangChain ``StructuredTool.func``/
    ``.coroutine``, MCP SDK and FastMCP ``Tool.fn`` in the server's tool manager, an OpenAI
    Agents ``FunctionTool`` built by ``@function_tool`` (``on_invoke_tool`` wraps it, so the
    module is searched by name instead; see :func:`def_line`).
    """
    import inspect

    candidates = [member]
    manager = getattr(member, "_tool_manager", None)
    tools = getattr(manager, "_tools", None)
    if isinstance(tools, dict) and name in tools:
        candidates.insert(0, tools[name])
    for candidate in candidates:
        for attr in _FUNCTION_ATTRS:
            try:
                fn = getattr(candidate, attr, None)
            except Exception:
                continue
            if inspect.isfunction(fn) or inspect.ismethod(fn):
                return fn
    return None


def def_line(file: str, name: str) -> int | None:
    """The line where the tool ``name`` is written in the Python file ``file``, or ``None``: the
    first ``def name``/``async def name``/``class name`` statement (its own line, after its
    decorators), else the first dict literal holding ``"name": "<name>"`` (a tool written as a
    plain dict, e.g. ``{"name": name, "inputSchema": ...}`` or an OpenAI ``function`` object).
    The file is parsed once per process (a module of a thousand tools is not parsed a thousand
    times)."""
    definitions, literals, _ = _sites(file)
    return definitions.get(name) or literals.get(name)


def assignment_line(file: str, attr: str) -> int | None:
    """The line of the first module-level assignment to ``attr`` (``TOOLS = [...]``,
    ``TOOLS: list = ...``) in the Python file ``file``, or ``None``."""
    return _sites(file)[2].get(attr)


@functools.lru_cache(maxsize=256)
def _sites(file: str) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """``(def/class lines, "name" dict-literal lines, module-level assignment lines)`` by name."""
    import ast

    try:
        with open(file, "rb") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}, {}, {}
    found: dict[str, int] = {}
    literals: dict[str, int] = {}
    assigned: dict[str, int] = {}

    def first(table: dict[str, int], key: str, line: int) -> None:
        table[key] = min(table.get(key, line), line)

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first(found, node.name, node.lineno)
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == "name" and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)):
                    first(literals, value.value, node.lineno)
    for stmt in tree.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(
            stmt, ast.AnnAssign) else []
        for target in targets:
            if isinstance(target, ast.Name):
                first(assigned, target.id, stmt.lineno)
    return found, literals, assigned
