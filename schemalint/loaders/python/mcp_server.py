"""MCP servers: what ``tools/list`` really returns vs what ``tools/call`` really validates.

Supported server objects (recognized by class, without importing any framework first):

* the official SDK v2 ``mcp.server.mcpserver.MCPServer`` (``mcp>=2``),
* the official SDK v1 ``mcp.server.fastmcp.FastMCP`` (``mcp<2``),
* the official SDK low-level ``mcp.server.lowlevel.Server`` (listing only: its
  ``tools/call`` validation is whatever the handler does, so no runtime contract),
* the standalone ``fastmcp`` package's ``FastMCP``.

The *advertised* side of each tool is the ``tools/list`` answer received by a real
client session connected to the server in memory (``mcp.Client(server)``,
``create_connected_server_and_client_session`` for v1, ``fastmcp.Client(server)``),
``inputSchema`` and ``outputSchema`` included. The *runtime* side is the argument
validation the server applies on ``tools/call`` before the tool body runs:

* official SDK: ``FuncMetadata.validate_arguments`` / ``pre_parse_json`` +
  ``arg_model.model_validate`` (JSON strings for non-``str`` arguments are parsed first);
* fastmcp: pydantic's validator of the function's call signature (context and injected
  dependencies removed), in strict JSON mode when the server sets
  ``strict_input_validation``; the body is never called.

Output side (``Contract.output``): the JSON schema of the tool's return type in pydantic
*serialization* mode, i.e. the shape of ``structuredContent`` the server produces (the
official SDK dumps with ``mode="json", by_alias=True``; fastmcp with the serializer's
defaults, field names), next to the advertised ``outputSchema`` (``Tool.output_schema``),
which the official SDK derives in *validation* mode (fastmcp 4: serialization mode, so the
two agree there). A serializer that changes a field's
type or a computed field makes the two differ; the official client then refuses the
result ("Invalid structured content").

``load_stdio`` starts any MCP server command as a subprocess and lists its tools over
stdio with the official client (no runtime contract: the server is a black box).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shlex
from collections.abc import Callable, Iterator
from typing import Any

from schemalint.errors import SourceError
from schemalint.loaders.python.extras import require
from schemalint.loaders.python.framework_common import (
    inline_root_ref,
    refused_when_omitted,
    run_async,
    type_schema,
)
from schemalint.loaders.python.phases import phase
from schemalint.model import Contract, Origin, Tool, join_pointer

FORMAT = "mcp-server"

FRAMEWORK_TYPES = (("mcp.", ("FastMCP", "MCPServer")), ("fastmcp", ("FastMCP",)))
"""Module prefix and class names of the server objects (a recognizer hook, see
:mod:`schemalint.loaders.python.python_source`)."""
LIST_TIMEOUT = 30.0
STDIO_TIMEOUT = 30.0


def server_kind(obj: Any) -> str | None:
    """``"mcp2"``, ``"mcp1"``, ``"lowlevel"``, ``"fastmcp"`` or ``None``, by the object's class only."""
    if isinstance(obj, type):
        return None
    for cls in type(obj).__mro__:
        module = getattr(cls, "__module__", "") or ""
        name = cls.__name__
        if module.startswith("mcp.server.mcpserver") and name == "MCPServer":
            return "mcp2"
        if module.startswith("mcp.server.fastmcp") and name == "FastMCP":
            return "mcp1"
        if module.startswith("mcp.server.lowlevel") and name == "Server":
            return "lowlevel"
        if module.startswith("fastmcp.") and name == "FastMCP":
            return "fastmcp"
    return None


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """Tools of an MCP server object, or ``None`` when ``obj`` is not an MCP server.

    Lists the tools through a real in-memory client session and attaches, per tool, the
    runtime contract of the server's ``tools/call`` argument validation. Raises
    :class:`~schemalint.errors.SourceError` when the listing fails or exceeds
    :data:`LIST_TIMEOUT` seconds, and :class:`~schemalint.loaders.python.extras.MissingExtraError`
    when the client side is not installed.
    """
    kind = server_kind(obj)
    if kind is None:
        return None
    lister = {"mcp2": _list_mcp2, "mcp1": _list_mcp1, "lowlevel": _list_lowlevel, "fastmcp": _list_fastmcp}[kind]
    try:
        with _quiet_server_logs(), phase("schema rendering"):
            listed, runtimes = run_async(lambda: lister(obj), LIST_TIMEOUT)
    except SourceError:
        raise
    except TimeoutError:
        raise SourceError(
            f"{source}: listing the MCP server's tools took longer than {LIST_TIMEOUT:.0f}s"
        ) from None
    except Exception as exc:
        raise SourceError(
            f"{source}: listing the MCP server's tools failed: {type(exc).__name__}: {exc}"
        ) from None
    return [_tool(wire, source, runtimes.get(wire.get("name"))) for wire in listed]


@contextlib.contextmanager
def _quiet_server_logs() -> Iterator[None]:
    """Silence the in-process server's INFO logs ("Processing request of type ...") while listing."""
    loggers = [logging.getLogger(name) for name in ("mcp", "fastmcp", "FastMCP")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def _tool(wire: dict[str, Any], source: str, runtime: Contract | None) -> Tool:
    name = wire.get("name")
    name = name if isinstance(name, str) else ""
    return Tool(
        name=name,
        description=wire.get("description"),
        advertised=wire.get("inputSchema"),
        origin=Origin(source, join_pointer("/tools", name), FORMAT),
        schema_path=None,
        runtime=runtime,
        output_schema=wire.get("outputSchema"),
        raw=wire,
    )


def _wire(tool: Any) -> dict[str, Any]:
    """A listed tool as the JSON object the client received (camelCase keys, nulls dropped)."""
    if isinstance(tool, dict):
        return tool
    return dict(tool.model_dump(mode="json", by_alias=True, exclude_none=True))


def _contract(
    validate: Callable[[Any], Any], input_schema: Any, output_schema: Any
) -> Contract:
    return Contract(
        input=input_schema,
        output=output_schema,
        validate=validate,
        refused_when_omitted=refused_when_omitted(validate),
    )


# -- official SDK ------------------------------------------------------------------


async def _list_mcp2(server: Any) -> tuple[list[dict[str, Any]], dict[str, Contract]]:
    require("mcp", "listing the tools of an MCP server")
    from mcp import Client

    async with Client(server) as client:
        listed = await _all_pages(client)
    return listed, _official_runtimes(server, listed, v1=False)


MAX_PAGES = 1000
"""Most ``tools/list`` pages read from one server (a server that always answers with a cursor)."""


async def _all_pages(client: Any, stopped: list[int] | None = None) -> list[dict[str, Any]]:
    """Every tool of a ``tools/list``, following the cursor: ``client`` is an ``mcp`` >= 2 ``Client``
    (``next_cursor``) or an ``mcp`` 1.x ``ClientSession`` (``nextCursor``), over any transport (in
    memory, stdio, Streamable HTTP). At most :data:`MAX_PAGES` pages, so a server that always answers
    with a cursor cannot loop forever; when that limit stops the paging, the number of pages read is
    appended to ``stopped`` (the caller says so)."""
    listed: list[dict[str, Any]] = []
    cursor = None
    for _ in range(MAX_PAGES):
        page = await client.list_tools(cursor=cursor) if cursor else await client.list_tools()
        listed.extend(_wire(t) for t in page.tools)
        cursor = page.next_cursor if hasattr(page, "next_cursor") else getattr(page, "nextCursor", None)
        if not cursor:
            break
    else:
        if stopped is not None:
            stopped.append(MAX_PAGES)
    return listed


async def _list_lowlevel(server: Any) -> tuple[list[dict[str, Any]], dict[str, Contract]]:
    """A low-level ``Server``: ``mcp`` >= 2 lists it with ``mcp.Client``; ``mcp`` 1.x, which has no
    ``Client``, with the in-memory session its own tests use. No runtime contract either way (the
    handler's validation is its own)."""
    require("mcp", "listing the tools of an MCP server")
    try:
        from mcp import Client  # noqa: F401  (mcp >= 2)
    except ImportError:
        memory = require("mcp.shared.memory", "listing the tools of an MCP server")
        async with memory.create_connected_server_and_client_session(server) as session:
            return await _all_pages(session), {}
    return await _list_mcp2(server)


async def _list_mcp1(server: Any) -> tuple[list[dict[str, Any]], dict[str, Contract]]:
    memory = require("mcp.shared.memory", "listing the tools of an MCP server")
    async with memory.create_connected_server_and_client_session(server._mcp_server) as session:
        listed = await _all_pages(session)
    return listed, _official_runtimes(server, listed, v1=True)


def _official_runtimes(server: Any, listed: list[dict[str, Any]], *, v1: bool) -> dict[str, Contract]:
    """Runtime contracts of an MCPServer / v1 FastMCP: its func_metadata argument validation.

    A listed tool that the server's own tool manager does not hold (a subclass whose ``list_tools``
    and ``call_tool`` route to other servers it keeps as attributes, a dispatcher) is followed to the
    tools of that name, among the official servers reachable through the server's attributes, whose
    argument schema is the one listed (several, e.g. one per mode the dispatcher chooses between: a
    call must pass each); when none is found, the tool is recorded as unreached
    (:func:`unreached_runtimes`), never left silently without a runtime side. Measured on
    dbt-labs/dbt-mcp, whose ``DbtMCP`` lists the 38 tools of a single- or a multi-project server."""
    out: dict[str, Contract] = {}
    unreached: dict[str, str] = {}
    own = {info.name: info for info in _held_infos(server)}
    others: list[Any] | None = None
    for wire in listed:
        name = wire.get("name")
        if not isinstance(name, str):
            continue
        info = own.get(name)
        if info is None:
            if others is None:
                others = _attribute_servers(server)
            found = [i for other in others for i in _held_infos(other)
                     if i.name == name and getattr(i, "parameters", None) == wire.get("inputSchema")]
            metas = [m for m in (getattr(i, "fn_metadata", None) for i in found) if m is not None]
            if not metas or len(metas) != len(found):
                unreached[name] = _why_official_unreached(type(server).__name__, len(others))
                continue
        else:
            metas = [getattr(info, "fn_metadata", None)]
            if metas[0] is None:
                unreached[name] = (f"it is a {type(info).__name__} without argument metadata; only its advertised "
                                   "schema was checked")
                continue
        validators = [_official_validator(m, v1=v1) for m in metas]
        out[name] = _contract(
            validators[0] if len(validators) == 1 else _every(validators),
            metas[0].arg_model.model_json_schema(by_alias=True),
            _official_output(metas[0]),
        )
    _UNREACHED[id(server)] = unreached
    return out


def _held_infos(server: Any) -> list[Any]:
    """The tool objects an official server's own tool manager holds (``[]`` without one)."""
    manager = getattr(server, "_tool_manager", None)
    try:
        return list(manager.list_tools()) if manager is not None else []
    except Exception:
        return []


def _attribute_servers(server: Any, depth: int = 0, seen: set[int] | None = None) -> list[Any]:
    """Official MCP servers (``MCPServer``, v1 ``FastMCP``) held in the attributes of ``server``
    (its instance ``__dict__``, also inside lists, tuples and dict values), through up to three
    levels; ``server`` itself is not included."""
    seen = {id(server)} if seen is None else seen
    if depth >= 3:
        return []
    values: list[Any] = []
    for value in list(getattr(server, "__dict__", {}).values()):
        if isinstance(value, (list, tuple)):
            values.extend(value)
        elif isinstance(value, dict):
            values.extend(value.values())
        else:
            values.append(value)
    out: list[Any] = []
    for value in values:
        if id(value) in seen or server_kind(value) not in ("mcp1", "mcp2"):
            continue
        seen.add(id(value))
        out.append(value)
        out.extend(_attribute_servers(value, depth + 1, seen))
    return out


def _every(validators: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """One validator that accepts a call only when each of ``validators`` does (the first refusal is
    raised): the tools of the same name and argument schema held by several servers a dispatcher
    chooses between, so a refusal found is one of them."""
    def validate(arguments: Any) -> Any:
        result = None
        for index, check in enumerate(validators):
            got = check(arguments)
            result = got if index == 0 else result
        return result

    return validate


def _why_official_unreached(cls: str, servers: int) -> str:
    return (f"the {cls} lists it but its own tool manager does not hold it (a list_tools of its own), and none "
            f"of the {servers} MCP server(s) held in its attributes has a tool of that name with the listed "
            "argument schema; only its advertised schema was checked")


def _official_validator(meta: Any, *, v1: bool) -> Callable[[Any], Any]:
    def validate(arguments: Any) -> Any:
        if not v1 and hasattr(meta, "validate_arguments"):
            return meta.validate_arguments(arguments)
        parsed = meta.pre_parse_json(arguments)
        return meta.arg_model.model_validate(parsed)

    return validate


def _official_output(meta: Any) -> Any:
    """Serialization-mode schema of the structured result, or ``None`` for unstructured tools."""
    if getattr(meta, "output_schema", None) is None:
        return None
    model = getattr(meta, "output_model", None)
    if model is None:
        return None
    adapter_for = getattr(meta, "_output_adapter", None)
    try:
        adapter = adapter_for(model) if callable(adapter_for) else None
        schema = adapter.json_schema(mode="serialization") if adapter is not None else None
    except Exception:
        schema = None
    if schema is None:
        schema = type_schema(model, mode="serialization")
    return inline_root_ref(schema)


# -- fastmcp -------------------------------------------------------------------------


async def _list_fastmcp(server: Any) -> tuple[list[dict[str, Any]], dict[str, Contract]]:
    require("mcp", "listing the tools of a fastmcp server")
    client_mod = require("fastmcp.client", "listing the tools of a fastmcp server")
    listed: list[dict[str, Any]] = []
    async with client_mod.Client(server) as client:
        listed.extend(_wire(t) for t in await client.list_tools())
    runtimes: dict[str, Contract] = {}
    unreached: dict[str, str] = {}
    listings: dict[int, dict[str, Any]] = {}
    for tool in await _fastmcp_tools(server):
        found, owner = await _fastmcp_own_tool(tool, server, listings)
        strict = bool(getattr(owner, "strict_input_validation", False))
        contract = _fastmcp_contract(found, strict)
        if contract is not None:
            runtimes[tool.name] = contract
        else:
            unreached[tool.name] = _why_unreached(found)
    listed_names = {w.get("name") for w in listed}
    _UNREACHED[id(server)] = {k: v for k, v in unreached.items() if k in listed_names}
    _HELD[id(server)] = sorted(set(runtimes) | set(unreached))
    return listed, runtimes


_UNREACHED: dict[int, dict[str, str]] = {}
_HELD: dict[int, list[str]] = {}


def held_tools(server: Any) -> list[str]:
    """The names of the tools a fastmcp ``server`` holds (its own ``list_tools()``/``get_tools()``,
    before any filter its ``tools/list`` applies), as seen by the last listing; taken once."""
    return _HELD.pop(id(server), [])


def holds_tools(server: Any) -> bool:
    """Whether the last listing of a fastmcp ``server`` found tools it holds (:func:`held_tools`,
    without taking the record)."""
    return bool(_HELD.get(id(server)))


def unreached_runtimes(server: Any) -> dict[str, str]:
    """The tools of ``server`` (listed by :func:`tools_from_object`) whose runtime side could not
    be reached, each with the reason: taken once (the record is dropped)."""
    return _UNREACHED.pop(id(server), {})


async def _fastmcp_tools(server: Any) -> list[Any]:
    """The tools a fastmcp server serves, as tool objects (fastmcp 3 and later: ``list_tools()``;
    fastmcp 2: ``get_tools()``, a dict keyed by the served name, mounted servers' tools included)."""
    getter = getattr(server, "get_tools", None)
    if getter is not None and not hasattr(server, "list_tools"):
        got = await getter()
        return [t.model_copy(update={"name": k}) if getattr(t, "name", k) != k else t for k, t in got.items()] \
            if isinstance(got, dict) else list(got)
    import inspect

    lister = server.list_tools
    # fastmcp 3 and later: without the server's middleware, which may filter what a client is shown
    # (the served names are the same; the filter is reported by held_tools when it hides them all)
    quiet = "run_middleware" in inspect.signature(lister).parameters
    got = await (lister(run_middleware=False) if quiet else lister())
    return list(got.values()) if isinstance(got, dict) else list(got)


async def _fastmcp_own_tool(tool: Any, server: Any, listings: dict[int, dict[str, Any]],
                            depth: int = 0) -> tuple[Any, Any]:
    """The tool object holding the function a served tool validates with, and its server.

    A tool of a mounted server (``mount``) is listed by the parent as a wrapper that forwards
    ``tools/call`` to the child (fastmcp 3 and later: ``_server`` and ``_original_name``); it is
    followed to the child's own tool, through any depth of mounts. A tool imported with
    ``import_server`` is a copy that keeps its function. When no function is reached (a proxy to a
    remote server, a tool class of its own), the last tool object reached and its server."""
    if getattr(tool, "fn", None) is not None:
        return tool, server
    child = getattr(tool, "_server", None)
    original = getattr(tool, "_original_name", None)
    if child is None or not isinstance(original, str) or depth > 16:
        return tool, server
    if id(child) not in listings:
        listings[id(child)] = {t.name: t for t in await _fastmcp_tools(child)}
    inner = listings[id(child)].get(original)
    if inner is None:
        return tool, child
    return await _fastmcp_own_tool(inner, child, listings, depth + 1)


def _why_unreached(tool: Any) -> str:
    """Why a fastmcp tool (the last object reached from the served one) has no runtime side, in
    words naming the tool's class."""
    cls = type(tool).__name__
    if getattr(tool, "fn", None) is not None:
        return (f"its function's signature gives no argument validator schemalint can call ({cls}); only its "
                "advertised schema was checked")
    if "proxy" in cls.lower() or "proxy" in type(tool).__module__:
        return (f"it is a {cls}: tools/call is forwarded to another server, whose validation cannot be reached "
                "without calling the tool; only its advertised schema was checked (check that server's own "
                "module:attr for its runtime side)")
    return (f"it is a {cls} with no function schemalint can follow to its validator; only its advertised schema "
            "was checked")


def _fastmcp_contract(tool: Any, strict: bool) -> Contract | None:
    """The call-signature validator fastmcp applies to a FunctionTool, without its body."""
    fn = getattr(tool, "fn", None)
    if fn is None:
        return None  # a transformed / proxied tool: no local validator to read
    from fastmcp.utilities.types import get_cached_typeadapter
    from pydantic_core import SchemaValidator, to_json

    injected: str | None = None
    try:
        from fastmcp.server.dependencies import without_injected_parameters
    except ImportError:
        # fastmcp 2 before 2.12 validates with the whole function's adapter and supplies its Context
        # argument itself (FunctionTool.run): the same adapter, less that argument.
        adapter = get_cached_typeadapter(fn)
        injected = _context_argument(fn)
        arguments_schema = _without_argument(_arguments_only(adapter.core_schema), injected)
    else:
        adapter = get_cached_typeadapter(without_injected_parameters(fn))
        arguments_schema = _arguments_only(adapter.core_schema)
    if arguments_schema is None:
        return None
    validator = SchemaValidator(arguments_schema)

    def validate(arguments: Any) -> Any:
        if strict:
            return validator.validate_json(to_json(arguments), strict=True)
        return validator.validate_python(arguments)

    try:
        input_schema = adapter.json_schema(mode="validation")
    except Exception:
        input_schema = None
    if injected is not None and isinstance(input_schema, dict):
        properties = {k: v for k, v in (input_schema.get("properties") or {}).items() if k != injected}
        required = [k for k in input_schema.get("required") or () if k != injected]
        input_schema = {**input_schema, "properties": properties, "required": required}
    return _contract(validate, input_schema, _fastmcp_output(tool))


def _context_argument(fn: Any) -> str | None:
    """The name of the argument of ``fn`` that fastmcp fills with its ``Context`` (fastmcp 2's own
    ``find_kwarg_by_type``), or ``None``."""
    from fastmcp import Context
    from fastmcp.utilities.types import find_kwarg_by_type

    return find_kwarg_by_type(fn, kwarg_type=Context)


def _without_argument(core: Any, name: str | None) -> Any:
    """An arguments core schema (:func:`_arguments_only`) without the argument ``name`` (a copy;
    ``core`` itself when ``name`` is ``None`` or absent). Measured with fastmcp 2.7.0 (pinned by
    qdrant/mcp-server-qdrant), which has no ``without_injected_parameters``: before, loading the
    server failed with an ImportError reported as an environment fault."""
    if name is None or not isinstance(core, dict):
        return core
    if core.get("type") == "definitions" and isinstance(core.get("schema"), dict):
        return {**core, "schema": _without_argument(core["schema"], name)}
    arguments = core.get("arguments_schema")
    if core.get("type") != "arguments" or not isinstance(arguments, list):
        return core
    return {**core, "arguments_schema": [a for a in arguments if not (isinstance(a, dict) and a.get("name") == name)]}


def _arguments_only(core: Any) -> Any:
    """A copy of a function's core schema with the ``call`` node replaced by its arguments."""
    if not isinstance(core, dict):
        return None
    if core.get("type") == "call":
        return core.get("arguments_schema")
    if core.get("type") == "definitions" and isinstance(core.get("schema"), dict):
        inner = _arguments_only(core["schema"])
        return None if inner is None else {**core, "schema": inner}
    inner_schema = core.get("schema")
    if isinstance(inner_schema, dict):  # a wrapper (function-after, ...) around the call
        return _arguments_only(inner_schema)
    return None


def _fastmcp_output(tool: Any) -> Any:
    advertised = getattr(tool, "output_schema", None)
    return_type = getattr(tool, "return_type", None)
    if not isinstance(advertised, dict) or return_type is None:
        return None
    # fastmcp dumps results with the serializer's defaults: field names, not aliases
    schema = type_schema(return_type, mode="serialization", by_alias=False)
    if schema is None:
        return None
    if advertised.get("x-fastmcp-wrap-result"):
        defs = schema.pop("$defs", None)
        wrapped: dict[str, Any] = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
        if defs:
            wrapped["$defs"] = defs
        return wrapped
    return inline_root_ref(schema)


# -- stdio -----------------------------------------------------------------------------


def load_stdio(command: str, *, timeout: float | None = None, cwd: str | None = None) -> list[Tool]:
    """Start ``command`` (a shell-style string) as an MCP server over stdio and list its tools.

    The official client performs the handshake and pages through ``tools/list``; the
    process is stopped afterwards, with every process it started: the server runs in its
    own session (killed as a group) and carries a marker in its environment, by which
    descendants that left the group (``setsid``) are found and killed too (Linux ``/proc``).
    Its stderr is kept in memory, the last 64 KiB only. Lines on its stdout that are not
    JSON-RPC are counted and named in the message. Tools carry no runtime contract.
    ``timeout``: seconds (default: the import time limit, 30 s, see
    :func:`schemalint.bridge.client.import_time_limit`). Raises :class:`SourceError`
    (exit 2) when the command is empty or cannot be started, the server exits or
    misbehaves, or the time passes; the message includes the server's stderr. Raises
    :class:`~schemalint.loaders.python.extras.MissingExtraError` when ``mcp`` is not installed.
    """
    from schemalint.bridge.client import import_time_limit
    from schemalint.textsafe import visible

    limit = timeout if timeout is not None else import_time_limit()
    shown = visible(command)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise SourceError(f"--mcp-stdio {shown!r}: cannot split the command: {exc}") from None
    if not argv:
        raise SourceError("--mcp-stdio: the command is empty")
    require("mcp", "--mcp-stdio (listing an MCP server's tools over stdio)")
    from schemalint.bridge.reaper import before_spawn

    before_spawn()  # a descendant that detaches and clears its environment is still found
    label = f"mcp-stdio:{command}"
    marker = os.urandom(8).hex()
    garbage = _GarbageCounter()
    with _BoundedErrlog() as errlog, _quiet_client_logs(garbage):
        try:
            listed = run_async(lambda: _watched(garbage, _list_stdio(argv, errlog.file, cwd, marker)), limit)
            garbage.raise_unparseable(shown)
        except TimeoutError:
            garbage.raise_unparseable(shown)
            raise SourceError(
                f"--mcp-stdio {shown!r}: no tools/list answer within {limit:g}s" + garbage.note()
                + interpreter_note(argv) + errlog.tail()
            ) from None
        except SourceError:
            raise
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            garbage.raise_unparseable(shown)
            raise SourceError(
                f"--mcp-stdio {shown!r}: the server could not be started or listed: "
                f"{visible(_describe(exc))}" + garbage.note() + interpreter_note(argv) + errlog.tail()
            ) from None
        finally:
            _kill_marked(marker)
    return [_tool(wire, label, None) for wire in listed]


def interpreter_note(argv: list[str]) -> str:
    """One line for a server that failed, when its command starts with a bare ``python``/``python3``
    that PATH resolves to another Python than the one running schemalint (a virtual environment
    that is installed but not activated): which interpreter ran, and the command to write
    instead. Empty otherwise."""
    import re
    import shutil
    import sys

    if not argv or os.sep in argv[0] or not re.fullmatch(r"python(3(\.\d+)?)?(\.exe)?", argv[0]):
        return ""
    ran = shutil.which(argv[0])
    from pathlib import Path

    if ran is None or Path(ran).parent.absolute() == Path(sys.executable).parent.absolute():
        return ""
    instead = " ".join(shlex.quote(a) for a in [sys.executable, *argv[1:]])
    return (f"\n`{argv[0]}` ran {ran} (the first on PATH), not the Python that runs schemalint "
            f"({sys.executable}); to run the server there write --mcp-stdio {shlex.quote(instead)}, "
            "or activate that virtual environment")


_MARKER_VAR = "SCHEMALINT_MCP_STDIO_RUN"


def _kill_marked(marker: str) -> None:
    """SIGKILL every process whose environment holds ``SCHEMALINT_MCP_STDIO_RUN=marker``
    (the server and whatever it started, detached or not), and their process groups."""
    import signal

    from schemalint.bridge.reaper import proc_files

    needle = f"{_MARKER_VAR}={marker}".encode()
    me = os.getpid()
    for pid, env in proc_files("environ"):
        if pid != me and needle in env.split(b"\0"):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


class _BoundedErrlog:
    """A pipe for the server's stderr, drained in a thread that keeps the last 64 KiB."""

    def __enter__(self) -> _BoundedErrlog:
        from schemalint.bridge.client import _StderrTail

        read_fd, write_fd = os.pipe()
        self.reader = os.fdopen(read_fd, "rb")
        self.file = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self.drain = _StderrTail(self.reader)
        return self

    def tail(self) -> str:
        """The captured stderr as the end of a message (unsafe characters made visible)."""
        with contextlib.suppress(Exception):
            self.file.flush()
        self.drain.thread.join(0.2)
        text = self.drain.text()
        return "\nserver stderr:\n" + text if text else "\n(the server wrote nothing to stderr)"

    def __exit__(self, *exc: Any) -> None:
        with contextlib.suppress(Exception):
            self.file.close()


class _GarbageCounter(logging.Handler):
    """Counts the client's "Failed to parse JSONRPC message" records (lines that are not JSON-RPC).

    A line the SDK could not parse that looks like a JSON-RPC message (a JSON object naming
    ``"jsonrpc"``: a lone ``\\ud800`` escape, a number out of range) is the server's answer
    lost: it is kept in ``unparseable`` (pydantic's error, which gives line and column, and the
    start of the line) and :func:`_watched` stops the listing at once.
    """

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.count = 0
        self.unparseable: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if "parse" in str(record.msg).lower():
            self.count += 1
            exc = record.exc_info[1] if record.exc_info else None
            errors = getattr(exc, "errors", None)
            with contextlib.suppress(Exception):
                first: dict[str, Any] = errors()[0] if callable(errors) else {}
                line = first.get("input")
                if (self.unparseable is None and isinstance(line, str) and line.lstrip().startswith("{")
                        and '"jsonrpc"' in line[:1000]):
                    self.unparseable = f"{first.get('msg')} (the line starts {line[:80]!r})"

    def raise_unparseable(self, shown: str) -> None:
        """Raise :class:`SourceError` when a JSON-RPC message from the server could not be parsed."""
        if self.unparseable is not None:
            from schemalint.textsafe import visible

            raise SourceError(f"--mcp-stdio {shown!r}: the server wrote a JSON-RPC message on stdout that "
                              f"cannot be parsed: {visible(self.unparseable)}" + self.note()) from None

    def note(self) -> str:
        return (f"; the server wrote {self.count} line(s) to stdout that are not JSON-RPC messages"
                if self.count else "")


@contextlib.contextmanager
def _quiet_client_logs(handler: logging.Handler) -> Iterator[None]:
    """While listing, the mcp client's log records go to ``handler`` only (no tracebacks on stderr)."""
    lg = logging.getLogger("mcp")
    saved = (lg.handlers[:], lg.propagate, lg.level)
    lg.handlers[:] = [handler]
    lg.propagate = False
    lg.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        lg.handlers[:], lg.propagate = saved[0], saved[1]
        lg.setLevel(saved[2])


async def _watched(garbage: _GarbageCounter, listing: Any) -> list[dict[str, Any]]:
    """Await ``listing``, given up as soon as ``garbage`` saw an unparseable JSON-RPC message
    (the SDK drops it, and would wait for the answer until the time limit)."""
    import anyio

    listed: list[dict[str, Any]] = []
    async with anyio.create_task_group() as group:
        async def watch() -> None:
            while garbage.unparseable is None:
                await anyio.sleep(0.05)
            group.cancel_scope.cancel()

        group.start_soon(watch)
        listed = await listing
        group.cancel_scope.cancel()
    return listed


async def _list_stdio(argv: list[str], errlog: Any, cwd: str | None, marker: str) -> list[dict[str, Any]]:
    import mcp
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {**os.environ, _MARKER_VAR: marker}
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env, cwd=cwd)
    if hasattr(mcp, "Client"):  # mcp >= 2
        async with mcp.Client(stdio_client(params, errlog=errlog)) as client:
            return await _all_pages(client)
    from mcp import ClientSession  # mcp 1.x

    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as opened:
        session: Any = opened
        await session.initialize()
        return await _all_pages(session)


def _describe(exc: BaseException) -> str:
    """One line for an exception, unwrapping exception groups to their first leaf."""
    seen = 0
    while getattr(exc, "exceptions", None) and seen < 10:  # an ExceptionGroup
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
        seen += 1
    text = str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {text}"
