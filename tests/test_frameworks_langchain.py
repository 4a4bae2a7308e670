"""LangChain tools: convert_to_openai_tool output vs the args_schema that validates."""

from typing import Annotated

import pytest

pytest.importorskip("langchain_core")

from langchain_core.tools import InjectedToolCallId, StructuredTool, tool
from pydantic import BaseModel, Field

from schemalint.loaders.python.langchain_tools import tools_from_object
from tests.conftest import load_case, needs_shared


@needs_shared
def test_case_020_validation_alias_dropped_by_langchain():
    case = load_case("020")
    namespace: dict = {}
    exec(compile(case["python"], "case-020", "exec"), namespace)
    args_schema = namespace["ConvertArgs"]
    expected = case["tools"]
    lc_tool = StructuredTool.from_function(
        func=lambda **kwargs: "converted",
        name=expected["name"],
        description=expected["description"],
        args_schema=args_schema,
    )
    [t] = tools_from_object(lc_tool, "case020:tool")
    assert t.origin.format == "langchain"
    assert t.name == expected["name"] and t.description == expected["description"]
    # what convert_to_openai_tool sends: a no-argument tool
    assert t.advertised == expected["advertised"]
    # what validates: `ext` required
    assert t.runtime.input["required"] == expected["runtime_input"]["required"]
    assert set(t.runtime.input["properties"]) == set(expected["runtime_input"]["properties"])
    assert t.runtime.refused_when_omitted == ("/ext",)
    with pytest.raises(Exception, match="ext"):
        t.runtime.validate({})  # the call the advertised schema describes
    with pytest.raises(Exception, match="ext"):
        t.runtime.validate({"file_suffix": "pdf"})  # the field name is not accepted either
    assert t.runtime.validate({"ext": "pdf"}) == {"file_suffix": "pdf"}


def test_decorated_tool_with_defaults_and_injected_argument():
    calls: list[str] = []

    @tool
    def search(query: str, tool_call_id: Annotated[str, InjectedToolCallId], limit: int = 5) -> str:
        """Search docs for `query`."""
        calls.append(query)
        return query

    [t] = tools_from_object(search, "m:search")
    assert t.advertised == {
        "properties": {"query": {"type": "string"}, "limit": {"default": 5, "type": "integer"}},
        "required": ["query"],
        "type": "object",
    }
    # the injected call id is LangChain's business, not a hidden parameter
    assert t.runtime.refused_when_omitted == ("/query",)
    assert "tool_call_id" not in t.runtime.input["properties"]
    t.runtime.validate({"query": "q"})
    with pytest.raises(Exception, match="query"):
        t.runtime.validate({"limit": 2})
    assert calls == []


def test_args_schema_with_constraint_the_model_sees():
    class Args(BaseModel):
        path: str = Field(description="file to read", min_length=1)

    t_obj = StructuredTool.from_function(func=lambda path: path, name="read", description="Read a file.",
                                         args_schema=Args)
    [t] = tools_from_object(t_obj, "m:read")
    path = t.advertised["properties"]["path"]
    assert path == {"description": "file to read", "minLength": 1, "type": "string"}
    with pytest.raises(Exception, match="at least 1"):
        t.runtime.validate({"path": ""})


def test_not_a_langchain_tool():
    assert tools_from_object(object(), "m") is None
    assert tools_from_object(StructuredTool, "m") is None
