"""OpenAI Agents SDK function tools and openai.pydantic_function_tool, with the real SDKs."""

import json

import pytest

pytest.importorskip("agents")
pytest.importorskip("openai")

from agents import Agent, function_tool
from pydantic import BaseModel

from schemalint.loaders.python.openai_agents import tools_from_object

CALLS: list[str] = []


class Spec(BaseModel):
    x: int
    label: str = "a"


@function_tool
def present(artifact: str, presentation: Spec, mode: str = "fast") -> str:
    """Present an answer.

    Args:
        artifact: the artifact id
        presentation: how to show it
    """
    CALLS.append("present")
    return artifact


def _fresh_tool():
    @function_tool
    def record(title: str, name: str) -> str:
        """Record a result. Pass a short `name` for tracking."""
        CALLS.append("record")
        return title

    return record


def test_strict_function_tool_advertised_vs_runtime():
    [tool] = tools_from_object(present, "m:present")
    assert tool.origin.format == "openai-agents"
    assert tool.strict and tool.raw["strict"] is True
    # strict transform: every property required (defaults too), additionalProperties false
    assert tool.advertised["required"] == ["artifact", "presentation", "mode"]
    assert tool.advertised["additionalProperties"] is False
    assert tool.advertised["properties"]["presentation"]["required"] == ["x", "label"]
    # the runtime (params_pydantic_model) needs only the keys without defaults
    assert tool.runtime.refused_when_omitted == ("/artifact", "/presentation", "/presentation/x")
    assert tool.runtime.input["required"] == ["artifact", "presentation"]
    CALLS.clear()
    tool.runtime.validate({"artifact": "a", "presentation": {"x": 1}})
    with pytest.raises(Exception, match="artifact"):
        tool.runtime.validate({"presentation": {"x": 1}})
    assert CALLS == []


def test_schema_edited_after_creation_is_drift():
    """Incident 2: a flag deletes `name` from the advertised schema; the SDK still requires it."""
    tool_obj = _fresh_tool()
    params = tool_obj.params_json_schema
    del params["properties"]["name"]
    params["required"].remove("name")
    [tool] = tools_from_object(tool_obj, "m:record")
    assert "name" not in tool.advertised["properties"]
    assert "/name" in tool.runtime.refused_when_omitted
    with pytest.raises(Exception, match="name"):
        tool.runtime.validate({"title": "t"})  # the call the advertised schema describes
    assert "`name`" in tool.description


def test_agent_lists_its_function_tools():
    agent = Agent(name="a", tools=[present, _fresh_tool()])
    tools = tools_from_object(agent, "m:agent")
    assert [t.name for t in tools] == ["present", "record"]


def test_non_strict_function_tool():
    @function_tool(strict_mode=False)
    def lookup(key: str, limit: int = 3) -> str:
        """Look `key` up."""
        return key

    [tool] = tools_from_object(lookup, "m:lookup")
    assert tool.raw["strict"] is False and not tool.strict
    assert tool.advertised["required"] == ["key"]
    assert tool.runtime.refused_when_omitted == ("/key",)


def test_pydantic_function_tool_chat_and_responses():
    import openai

    class GetWeather(BaseModel):
        """Weather for a city."""

        city: str
        unit: str = "c"

    chat = openai.pydantic_function_tool(GetWeather)
    [tool] = tools_from_object(chat, "m:chat")
    assert tool.origin.format == "openai-chat"
    assert tool.name == "GetWeather" and tool.strict
    assert tool.advertised["required"] == ["city", "unit"]  # to_strict_json_schema
    assert tool.runtime.refused_when_omitted == ("/city",)
    tool.runtime.validate({"city": "Oslo", "unit": "c"})
    with pytest.raises(Exception, match="city"):
        tool.runtime.validate({"unit": "c"})
    responses = openai.pydantic_responses_function_tool(GetWeather)
    [rtool] = tools_from_object(responses, "m:responses")
    assert rtool.origin.format == "openai-responses"
    assert json.dumps(rtool.advertised) == json.dumps(tool.advertised)


def test_plain_dicts_and_other_objects_are_not_mine():
    assert tools_from_object({"type": "function", "function": {"name": "x"}}, "m") is None
    assert tools_from_object(object(), "m") is None


AGENTS_MODULE = '''
from agents import Agent, AgentOutputSchema, RunContextWrapper, function_tool
from pydantic import BaseModel


class AppContext(BaseModel):
    user_id: str


class Address(BaseModel):
    city: str


class Weather(BaseModel):
    summary: str
    where: Address


class Report(BaseModel):
    text: str


class SearchArgs(BaseModel):
    query: str


@function_tool
def get_weather(ctx: RunContextWrapper[AppContext], city: str) -> str:
    """Get the current weather for a city."""
    return city


@function_tool
def search(args: SearchArgs) -> str:
    """Search the notes."""
    return args.query


writer = Agent(name="writer", output_type=AgentOutputSchema(Report))
assistant = Agent[AppContext](name="assistant", tools=[get_weather, search], output_type=Weather,
                              handoffs=[writer])
'''


def _agents_module(tmp_path, monkeypatch, name):
    (tmp_path / f"{name}.py").write_text(AGENTS_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_module_with_agents_loads_each_tool_once_and_no_output_or_context_model(tmp_path, monkeypatch):
    from schemalint.loaders.python.python_source import load_python_source

    module = _agents_module(tmp_path, monkeypatch, "h4_agents_app")
    tools = load_python_source(f"{module}:")
    # a module that holds framework tools: its models are their data (SearchArgs is search's
    # argument type; Weather, its Address and Report are outputs; AppContext is the context), not
    # tools (measured on openai-agents-python's examples: every such model was a false SL007)
    assert sorted(t.name for t in tools) == ["get_weather", "search"]
    names = [t.name for t in load_python_source(f"{module}:assistant")]
    assert names == ["get_weather", "search"]
    # a model named directly is still loaded
    assert [t.name for t in load_python_source(f"{module}:Weather")] == ["Weather"]


def test_snapshot_of_an_agents_module_does_not_see_two_tools_named(tmp_path, monkeypatch):
    from tests.conftest import cli

    module = _agents_module(tmp_path, monkeypatch, "h4_agents_snap")
    out = tmp_path / "snaps"
    proc = cli("snapshot", f"{module}:", "--python-path", str(tmp_path), "--dir", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "two tools named" not in proc.stderr
    snapshots = sorted(p.name for p in out.iterdir() if p.suffix == ".json")
    assert snapshots == ["get_weather.json", "search.json"]


def test_module_with_an_agent_and_only_its_output_model_has_no_tools(tmp_path, monkeypatch):
    from schemalint.loaders.python.python_source import load_python_source

    (tmp_path / "h4_agents_plain.py").write_text(
        "from agents import Agent\nfrom pydantic import BaseModel\n\n\n"
        "class Plan(BaseModel):\n    steps: list[str]\n\n\n"
        "planner = Agent(name='planner', output_type=Plan)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert load_python_source("h4_agents_plain:") == []


_MIXED = """
from contextlib import asynccontextmanager, contextmanager
from typing import Generic, TypeVar

from agents import function_tool
from pydantic import BaseModel

T = TypeVar("T")


class Box(BaseModel, Generic[T]):
    item: T


IntBox = Box[int]


class Forecast(BaseModel):
    summary: str


@function_tool
def forecast(city: str) -> Forecast:
    \"\"\"The forecast for a city.\"\"\"
    return Forecast(summary=city)


@contextmanager
def local_server():
    yield "http://localhost"


@asynccontextmanager
async def lifespan(app: object):
    yield {}
"""


def test_module_data_models_generics_and_context_managers_are_not_tools(tmp_path, monkeypatch):
    """Kinds of false tool measured on public Python tool code (openai-agents-python examples,
    modelcontextprotocol/python-sdk snippets): a tool's return model, pydantic's cached
    parametrised generic (`Box[int]` in the module namespace), @contextmanager functions."""
    from schemalint.loaders.python.python_source import load_python_source

    (tmp_path / "h8_mixed.py").write_text(_MIXED)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert [t.name for t in load_python_source("h8_mixed:")] == ["forecast"]
    assert [t.name for t in load_python_source("h8_mixed:Forecast")] == ["Forecast"]  # named: loaded
    (tmp_path / "h8_models_only.py").write_text(
        "from pydantic import BaseModel\n\n\nclass Order(BaseModel):\n    sku: str\n")
    assert [t.name for t in load_python_source("h8_models_only:")] == ["Order"]  # models alone: tools


WEATHER_MODULE = '''
from pydantic import BaseModel
from agents import Agent, function_tool


class Weather(BaseModel):
    city: str
    conditions: str


@function_tool
def get_weather(city: str) -> Weather:
    """Get the weather for a city."""
    return Weather(city=city, conditions="Sunny")


agent = Agent(name="weather", instructions="Answer.", tools=[get_weather])
'''


@pytest.mark.parametrize("exports", ["", '\n__all__ = ["Weather", "get_weather", "agent"]\n',
                                     '\n__all__ = ["Weather", "get_weather"]\n'])
def test_function_tool_return_model_is_not_a_tool(tmp_path, exports):
    """A model used only as a ``@function_tool``'s return type is data (issue 13), also when the
    module exports it in ``__all__``."""
    from tests.conftest import cli

    (tmp_path / "weather_agent.py").write_text(WEATHER_MODULE + exports)
    proc = cli("snapshot", "weather_agent:", "--python-path", ".", "--dir", "snaps", cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (tmp_path / "snaps").glob("*.json")) == ["get_weather.json"]
    proc = cli("check", "weather_agent:", "--python-path", ".", "--format", "json", cwd=tmp_path, timeout=120)
    report = json.loads(proc.stdout)
    assert proc.returncode == 0 and not any(d["code"] == "SL007" for d in report["diagnostics"]), proc.stdout
