"""pydantic-ai function tools: the ``ToolDefinition`` sent to the model vs the validator of a call.

An ``pydantic_ai.Agent`` stands for the function tools registered on it (``@agent.tool``,
``@agent.tool_plain``, ``tools=[...]``: its function toolset), and a ``pydantic_ai.Tool`` for
itself. Advertised = ``tool.tool_def.parameters_json_schema`` (with its ``description`` and
``strict``), the definition pydantic-ai hands to every model provider. Runtime = the tool's
``function_schema.validator`` (a pydantic-core ``SchemaValidator`` of the function's arguments,
``RunContext`` left out), which pydantic-ai runs on the model's arguments before the function;
the function is never called. Not read: a ``prepare`` function that rewrites the definition per
run, toolsets other than the agent's own function tools (MCP servers, deferred tools), and the
output tool (``final_result``) built from ``output_type``, whose model is read as data. Measured
on pydantic/pydantic-ai's examples (``bank_support``: before, the agent was "not a tool source"
and the module's output model was loaded as a tool with an SL007).
"""

from __future__ import annotations

from typing import Any

from schemalint.loaders.python.framework_common import refused_when_omitted
from schemalint.model import Contract, Origin, Tool, join_pointer

FORMAT = "pydantic-ai"

FRAMEWORK_TYPES = (("pydantic_ai", ("Agent", "Tool")),)
"""Module prefix and class names of this framework's objects (a recognizer hook, see
:mod:`schemalint.loaders.python.python_source`)."""


def _class_is(obj: Any, prefix: str, name: str) -> bool:
    return not isinstance(obj, type) and any(
        (getattr(cls, "__module__", "") or "").startswith(prefix) and cls.__name__ == name
        for cls in type(obj).__mro__)


def is_agent(obj: Any) -> bool:
    """True for a ``pydantic_ai.Agent`` instance (by class, without importing pydantic-ai)."""
    return _class_is(obj, "pydantic_ai.", "Agent")


def is_tool(obj: Any) -> bool:
    """True for a ``pydantic_ai.Tool`` instance."""
    return _class_is(obj, "pydantic_ai.", "Tool")


def members(obj: Any) -> list[Any] | None:
    """Recognizer hook: the ``Tool`` objects of an agent's own function toolset, ``None`` for
    anything else."""
    if not is_agent(obj):
        return None
    toolset = getattr(obj, "_function_toolset", None)
    tools = getattr(toolset, "tools", None)
    return list(tools.values()) if isinstance(tools, dict) else []


def may_hold_no_tools(obj: Any) -> bool:
    """Recognizer hook: an agent without function tools (output only) is not a wrong source."""
    return is_agent(obj)


def data_types(obj: Any) -> list[Any]:
    """Recognizer hook: an agent's ``output_type`` and dependencies type are data, not tools."""
    if not is_agent(obj):
        return []
    out = []
    for attr in ("output_type", "_deps_type", "deps_type"):
        value = getattr(obj, attr, None)
        if isinstance(value, type):
            out.append(value)
    return out


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """The tool for a ``pydantic_ai.Tool``, or ``None`` for anything else."""
    if not is_tool(obj):
        return None
    definition = obj.tool_def
    name = str(definition.name)
    advertised = definition.parameters_json_schema
    raw: dict[str, Any] = {"name": name, "description": definition.description, "parameters": advertised}
    if definition.strict is not None:
        raw["strict"] = definition.strict
    return [Tool(
        name=name,
        description=definition.description,
        advertised=advertised,
        origin=Origin(source, join_pointer("/tools", name), FORMAT),
        schema_path=None,
        runtime=_runtime(obj),
        raw=raw,
    )]


def _runtime(tool: Any) -> Contract | None:
    schema = getattr(tool, "function_schema", None)
    validator = getattr(schema, "validator", None)
    if validator is None:
        return None

    def validate(arguments: Any) -> Any:
        return validator.validate_python(arguments)

    return Contract(input=getattr(schema, "json_schema", None), validate=validate,
                    refused_when_omitted=refused_when_omitted(validate))
