"""LangChain tools: what ``convert_to_openai_tool`` sends vs the ``args_schema`` that validates.

Any ``langchain_core.tools.BaseTool`` instance (``@tool`` functions, ``StructuredTool``,
``BaseTool`` subclasses) is recognized. Advertised = ``convert_to_openai_tool(tool)
["function"]["parameters"]``, the schema chat models' ``bind_tools`` send (it is built
from ``tool_call_schema``, which drops injected arguments and, as shared case 020 shows,
fields whose validation alias differs from their name). Runtime = the tool's own input
parsing (``BaseTool._parse_input``: ``args_schema`` validation), with arguments LangChain
injects itself (``InjectedToolArg``, ``InjectedToolCallId``, ``InjectedState`` ...) left
out, since the model never supplies them. Tools whose ``args_schema`` is a plain JSON
schema dict, or that take a single string, have no runtime validator to compare.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from schemalint.loaders.python.framework_common import refused_when_omitted
from schemalint.model import Contract, Origin, Tool, join_pointer

FORMAT = "langchain"

FRAMEWORK_TYPES = (("langchain", ("BaseTool", "StructuredTool", "Tool")),)
"""Module prefix and class names of this framework's tools (a recognizer hook, see
:mod:`schemalint.loaders.python.python_source`)."""


def _is_langchain_tool(obj: Any) -> bool:
    return not isinstance(obj, type) and any(
        (getattr(cls, "__module__", "") or "").startswith("langchain_core.tools")
        and cls.__name__ == "BaseTool"
        for cls in type(obj).__mro__
    )


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """The tool for a LangChain ``BaseTool`` instance, or ``None`` for anything else."""
    if not _is_langchain_tool(obj):
        return None
    from langchain_core.utils.function_calling import convert_to_openai_tool

    wire = convert_to_openai_tool(obj)
    function = wire.get("function", {})
    name = str(function.get("name", getattr(obj, "name", "")))
    return [
        Tool(
            name=name,
            description=function.get("description"),
            advertised=function.get("parameters"),
            origin=Origin(source, join_pointer("/tools", name), FORMAT),
            schema_path=None,
            runtime=_runtime(obj),
            raw=wire,
        )
    ]


def _injected_keys(model: Any) -> set[str]:
    """Field names and aliases of arguments LangChain injects itself (never sent by the model).

    A field is injected when its annotation, or the ``Annotated`` metadata pydantic moved
    to ``FieldInfo.metadata``, is (an instance of) ``InjectedToolArg``.
    """
    try:
        from langchain_core.tools.base import InjectedToolArg, _is_injected_arg_type
    except ImportError:  # a langchain_core without these helpers
        return set()

    def marks(item: Any) -> bool:
        if isinstance(item, type):
            return issubclass(item, InjectedToolArg)
        return isinstance(item, InjectedToolArg)

    keys: set[str] = set()
    for field_name, field in model.model_fields.items():
        try:
            injected = _is_injected_arg_type(field.annotation) or any(marks(m) for m in field.metadata)
        except Exception:
            injected = False
        if injected:
            keys.add(field_name)
            for alias in (field.alias, field.validation_alias):
                if isinstance(alias, str):
                    keys.add(alias)
    return keys


def _runtime(tool: Any) -> Contract | None:
    model = getattr(tool, "args_schema", None)
    if not (isinstance(model, type) and hasattr(model, "model_json_schema")):
        return None
    injected = _injected_keys(model)
    validate = _validator(tool, injected)
    schema = model.model_json_schema()
    if injected and isinstance(schema.get("properties"), dict):
        schema = dict(schema)
        schema["properties"] = {k: v for k, v in schema["properties"].items() if k not in injected}
        if isinstance(schema.get("required"), list):
            schema["required"] = [k for k in schema["required"] if k not in injected]
    return Contract(input=schema, validate=validate, refused_when_omitted=refused_when_omitted(validate))


def _validator(tool: Any, injected: set[str]) -> Callable[[Any], Any]:
    def validate(arguments: Any) -> Any:
        try:
            # a call id, as a real tool call has one (InjectedToolCallId is filled from it)
            return tool._parse_input(copy.copy(arguments), "call_schemalint_probe")
        except Exception as exc:
            errors = getattr(exc, "errors", None)
            if injected and callable(errors):
                own = [e for e in errors() if not (e.get("loc") and e["loc"][0] in injected)]
                if not own:
                    return arguments  # only injected arguments were missing: LangChain supplies them
            raise

    return validate
