"""OpenAI Agents SDK function tools and the OpenAI SDK's ``pydantic_function_tool``.

Recognized objects (by class, no framework imported first):

* ``agents.FunctionTool`` (what ``@function_tool`` returns): advertised =
  ``params_json_schema`` (the SDK's strict transform applied when
  ``strict_json_schema`` is true: every property required, ``additionalProperties:
  false``), sent as a Responses-API function tool with ``strict``; runtime = the
  SDK's argument parsing, ``FuncSchema.params_pydantic_model(**arguments)``, read from
  the tool's own invoker (or rebuilt from the wrapped function). A tool whose
  ``params_json_schema`` was edited after creation therefore shows the edit as drift.
* ``agents.Agent``: each of its ``FunctionTool`` entries. In a module or a list, an agent is
  expanded into those objects (:func:`agent_function_tools`), so a tool that is also a module
  attribute is loaded once, and the agent's output and context models
  (:func:`agent_data_types`) are not loaded as tools: the recognizer hooks :func:`members`,
  :func:`data_types` and :func:`may_hold_no_tools` (``schemalint.loaders.python.python_source``).
* The dict returned by ``openai.pydantic_function_tool(Model)`` (Chat Completions) or
  ``openai.pydantic_responses_function_tool`` (Responses): advertised = its
  ``parameters`` (``to_strict_json_schema(Model)``); runtime = what ``.parse()`` does
  with the model's arguments, ``Model.model_validate_json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from schemalint.loaders.python.framework_common import closure_var, refused_when_omitted
from schemalint.model import Contract, Origin, Tool, join_pointer

FORMAT = "openai-agents"

FRAMEWORK_TYPES = (("agents.", ("FunctionTool", "Agent")),)
"""Module prefix and class names of this framework's objects (a recognizer hook read by
:mod:`schemalint.loaders.python.python_source`: a module holding one reads its pydantic models as
the data of its tools)."""


def _class_is(obj: Any, module_prefix: str, name: str) -> bool:
    return any(
        (getattr(cls, "__module__", "") or "").startswith(module_prefix) and cls.__name__ == name
        for cls in type(obj).__mro__
    )


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """Tools for an Agents SDK FunctionTool / Agent or a ``pydantic_function_tool`` dict; else ``None``."""
    if isinstance(obj, type):
        return None
    if _class_is(obj, "agents.", "FunctionTool"):
        return [_agents_tool(obj, source)]
    if _class_is(obj, "agents.", "Agent") and isinstance(getattr(obj, "tools", None), list):
        return [_agents_tool(t, source) for t in obj.tools if _class_is(t, "agents.", "FunctionTool")]
    if isinstance(obj, dict):
        fn = obj.get("function")
        if _class_is(fn, "openai.", "PydanticFunctionTool"):
            return [_pydantic_function_tool(obj, fn, fn, source, "openai-chat")]
        if _class_is(obj, "openai.", "ResponsesPydanticFunctionTool"):
            return [_pydantic_function_tool(obj, obj, obj, source, "openai-responses")]
    return None


def members(obj: Any) -> list[Any] | None:
    """Recognizer hook: the objects an ``Agent`` holds that may be tools (its ``FunctionTool``
    entries, :func:`agent_function_tools`), so that a tool also reached as a module attribute is
    loaded once; ``None`` for anything else."""
    return agent_function_tools(obj) if is_agent(obj) else None


def data_types(obj: Any) -> list[Any]:
    """Recognizer hook: the classes ``obj`` (an ``Agent`` or a ``FunctionTool``) uses as data, not as
    tools (:func:`agent_data_types`, :func:`function_tool_data_types`); ``[]`` for anything else."""
    if is_agent(obj):
        return agent_data_types(obj)
    if is_function_tool(obj):
        return function_tool_data_types(obj)
    return []


def may_hold_no_tools(obj: Any) -> bool:
    """Recognizer hook: an ``Agent`` may hold hosted tools only (nothing to check, not a wrong source)."""
    return is_agent(obj)


def is_agent(obj: Any) -> bool:
    """True for an ``agents.Agent`` instance (by class, without importing the SDK)."""
    return not isinstance(obj, type) and _class_is(obj, "agents.", "Agent")


def agent_function_tools(agent: Any) -> list[Any]:
    """The ``FunctionTool`` objects in ``agent.tools`` (the objects themselves, so that a tool
    also reached as a module attribute is recognised as the same tool)."""
    tools = getattr(agent, "tools", None)
    return [t for t in tools if _class_is(t, "agents.", "FunctionTool")] if isinstance(tools, list) else []


def _context_types(annotation: Any) -> list[Any]:
    """``X`` of ``RunContextWrapper[X]`` / ``ToolContext[X]`` annotations."""
    import typing

    origin = typing.get_origin(annotation)
    if origin is not None and getattr(origin, "__name__", "") in ("RunContextWrapper", "ToolContext"):
        return [a for a in typing.get_args(annotation) if isinstance(a, type)]
    return []


def is_function_tool(obj: Any) -> bool:
    """Whether ``obj`` is an OpenAI Agents ``FunctionTool`` (what ``@function_tool`` returns)."""
    return not isinstance(obj, type) and _class_is(obj, "agents.", "FunctionTool")


def function_tool_data_types(tool: Any) -> list[Any]:
    """Classes an Agents ``FunctionTool`` uses as data, not as tools: the ``X`` of its
    ``RunContextWrapper[X]``/``ToolContext[X]`` parameter and the classes of its function's return
    annotation (``-> Weather``, ``-> list[Weather]``). Agents SDK docs, "Tools" (function tools)."""
    import inspect
    import typing

    fn = getattr(tool, "__wrapped__", None)
    if fn is None:
        return []
    try:
        hints = typing.get_type_hints(fn)
    except Exception:
        hints = getattr(fn, "__annotations__", {}) or {}
    found: list[Any] = []
    for name, hint in hints.items():
        found.extend(_context_types(hint))
        if name == "return":
            stack, seen = [hint], 0
            while stack and seen < 200:
                seen += 1
                ann = stack.pop()
                if inspect.isclass(ann) and not typing.get_args(ann):
                    found.append(ann)
                stack.extend(typing.get_args(ann))
    return [t for t in found if inspect.isclass(t)]


def agent_data_types(agent: Any, limit: int = 200) -> list[Any]:
    """Classes ``agent`` uses as data, not as tools: its ``output_type`` (also inside an
    ``AgentOutputSchema``), its context type (``Agent[AppContext](...)``, and the ``X`` of the
    ``RunContextWrapper[X]`` first parameter of its function tools), and the same for the agents
    it hands off to. Agents SDK docs, "Agents" (output types, context)."""
    import inspect
    import typing

    found: list[Any] = []
    stack: list[Any] = [agent]
    seen: set[int] = set()
    while stack and len(seen) < limit:
        a = stack.pop()
        if id(a) in seen or not is_agent(a):
            continue
        seen.add(id(a))
        out = getattr(a, "output_type", None)
        out = getattr(out, "output_type", out)  # AgentOutputSchema(MyModel)
        found.extend(t for t in (out, *typing.get_args(out)) if isinstance(t, type))
        found.extend(t for t in typing.get_args(getattr(a, "__orig_class__", None)) if isinstance(t, type))
        for tool in agent_function_tools(a):
            found.extend(function_tool_data_types(tool))
        stack.extend(h for h in (getattr(a, "handoffs", None) or []) if is_agent(h))
        stack.extend(getattr(h, "agent", None) for h in (getattr(a, "handoffs", None) or []) if not is_agent(h))
    return [t for t in found if inspect.isclass(t)]


def _agents_model(tool: Any) -> Any:
    """The pydantic model the Agents SDK validates this tool's arguments with, or ``None``."""
    invoker = tool.on_invoke_tool
    impl = getattr(invoker, "_invoke_tool_impl", invoker)
    schema = closure_var(impl, "schema")
    if schema is None:
        prepare = closure_var(impl, "_prepare_arguments")
        schema = closure_var(prepare, "schema") if prepare is not None else None
    if schema is None:
        try:
            wrapped = tool.__wrapped__
            from agents.function_schema import function_schema

            schema = function_schema(wrapped, strict_json_schema=tool.strict_json_schema)
        except Exception:
            return None
    return getattr(schema, "params_pydantic_model", None)


def _agents_validator(model: Any) -> Callable[[Any], Any]:
    def validate(arguments: Any) -> Any:
        if not isinstance(arguments, dict):
            raise TypeError("tool arguments must be a JSON object")
        return model(**arguments) if arguments else model()

    return validate


def _agents_tool(tool: Any, source: str) -> Tool:
    name = str(tool.name)
    wire = {
        "type": "function",
        "name": name,
        "description": tool.description,
        "parameters": tool.params_json_schema,
        "strict": bool(tool.strict_json_schema),
    }
    model = _agents_model(tool)
    runtime = None
    if model is not None:
        validate = _agents_validator(model)
        runtime = Contract(
            input=model.model_json_schema(),
            validate=validate,
            refused_when_omitted=refused_when_omitted(validate),
        )
    return Tool(
        name=name,
        description=tool.description,
        advertised=tool.params_json_schema,
        origin=Origin(source, join_pointer("/tools", name), FORMAT),
        schema_path=None,
        runtime=runtime,
        output_schema=getattr(tool, "output_json_schema", None),
        raw=wire,
    )


def _pydantic_function_tool(outer: dict[str, Any], fn: Any, carrier: Any, source: str, fmt: str) -> Tool:
    model = carrier.model
    name = str(fn.get("name", ""))

    def validate(arguments: Any) -> Any:
        return model.model_validate_json(json.dumps(arguments))

    return Tool(
        name=name,
        description=fn.get("description"),
        advertised=fn.get("parameters"),
        origin=Origin(source, join_pointer("/tools", name), fmt),
        schema_path=None,
        runtime=Contract(
            input=model.model_json_schema(),
            validate=validate,
            refused_when_omitted=refused_when_omitted(validate),
        ),
        raw=dict(outer),
    )
