"""Calling the functions that only register tools on a server (``register_tools()``), when safe.

A server whose module defines ``def register_tools(): @mcp.tool() ...`` and calls it only from
``main()`` lists no tool at import. Such a function is called by schemalint when its source shows
that calling it can do nothing but register tools: it takes no required argument, and every
statement of its body (read with :mod:`ast`, never run to find out) is one of

* a docstring or ``pass``;
* a function definition decorated with the server's tool decorator (``@mcp.tool``, ``@mcp.tool(...)``);
* a call (possibly awaited) of the server's ``tool``, ``add_tool``, ``mount`` or ``import_server``
  whose arguments are names, attributes, constants, or ``X.from_function(...)`` of those;
* a call, without arguments, of another function of the module that passes the same test.

Anything else (an ``if`` on settings, a client that connects, a ``main()`` that starts the server or
parses ``sys.argv``) leaves the function uncalled, and the message names it with the module to write.
Measured: GongRzhe/Office-Word-MCP-Server's ``register_tools()`` passes (54 tools); the ``setup()`` of
rilldata/rill's MCP server calls ``maybe_import_viz_server()``, which reads ``OPENAI_API_KEY`` in an
``if``, and is left uncalled; dbt-labs/dbt-mcp's ``register_*_tools(dbt_mcp, config)`` need arguments.
"""

from __future__ import annotations

import ast
import inspect
import sys
from typing import Any

CALLED_METHODS = frozenset({"tool", "add_tool", "mount", "import_server"})
"""Server methods a registering body may call."""


def _plain(node: ast.AST) -> bool:
    """A name, an attribute of a name, a constant, or ``X.from_function(<plain>...)``."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _plain(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "from_function":
        return _plain(node.func.value) and _arguments_plain(node)
    return False


def _arguments_plain(call: ast.Call) -> bool:
    return all(_plain(a) for a in call.args) and all(_plain(k.value) for k in call.keywords)


def _server_method(func: ast.AST, attr: str, methods: frozenset[str]) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr in methods and isinstance(func.value, ast.Name)
            and func.value.id == attr)


def _safe_body(fn: ast.FunctionDef | ast.AsyncFunctionDef, attr: str, defs: dict[str, ast.AST],
               seen: set[str]) -> bool:
    args = fn.args
    required = len(args.posonlyargs) + len(args.args) - len(args.defaults)
    if required > 0 or any(d is None for d in args.kw_defaults):
        return False
    seen.add(fn.name)
    for index, stmt in enumerate(fn.body):
        if isinstance(stmt, ast.Pass):
            continue
        if index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
                and isinstance(stmt.value.value, str):
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if stmt.decorator_list and all(
                    _server_method(d.func if isinstance(d, ast.Call) else d, attr, frozenset({"tool"}))
                    and (not isinstance(d, ast.Call) or _arguments_plain(d)) for d in stmt.decorator_list):
                continue
            return False
        value = stmt.value if isinstance(stmt, ast.Expr) else None
        value = value.value if isinstance(value, ast.Await) else value
        if not isinstance(value, ast.Call):
            return False
        if _server_method(value.func, attr, CALLED_METHODS) and _arguments_plain(value):
            continue
        callee = value.func.id if isinstance(value.func, ast.Name) else None
        if callee is None or value.args or value.keywords or callee not in defs:
            return False
        target = defs[callee]
        if callee not in seen and not (isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef))
                                       and _safe_body(target, attr, defs, seen)):
            return False
    return True


def safe_to_call(module: str, attr: str, names: list[str]) -> bool:
    """Whether each function of ``names`` in the imported ``module`` only registers tools on its
    attribute ``attr`` (the tests in this module's docstring). ``False`` when the source cannot be
    read. Never raises."""
    try:
        origin = getattr(sys.modules.get(module), "__file__", None)
        if not origin or not str(origin).endswith(".py") or not names:
            return False
        with open(origin, encoding="utf-8", errors="replace") as handle:
            tree = ast.parse(handle.read())
    except Exception:
        return False
    defs: dict[str, ast.AST] = {s.name: s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for name in names:
        node = defs.get(name)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not _safe_body(node, attr, defs, set()):
            return False
    return True


def call_registering(module: str, names: list[str], time_limit: float = 30.0) -> None:
    """Call each function of ``names`` in the imported ``module`` without arguments (an ``async``
    one in its own event loop). Raises whatever the function raises, ``TimeoutError`` past
    ``time_limit`` seconds."""
    from schemalint.loaders.python.framework_common import run_async

    namespace: Any = sys.modules[module]
    for name in names:
        fn = getattr(namespace, name)
        if inspect.iscoroutinefunction(fn):
            run_async(fn, time_limit)
        else:
            fn()
