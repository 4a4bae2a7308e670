"""A Python framework is one recognizer module plus a row in ``RECOGNIZERS``: the dispatcher
(:mod:`schemalint.loaders.python.python_source`) asks each recognizer's hooks (``members``,
``data_types``, ``may_hold_no_tools``, ``FRAMEWORK_TYPES``) and names no framework itself. Shown with a
framework written here (a real package on ``sys.path``, real pydantic models), loaded through the
same dispatcher as the built-in ones."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from schemalint.loaders.python import python_source

_FRAMEWORK = '''
"""A toy framework: a Crew holds Task objects; a Task's result model is data, not a tool."""
from pydantic import BaseModel


class Task:
    def __init__(self, name, args, result):
        self.name, self.args, self.result = name, args, result


class Crew:
    def __init__(self, *tasks, hosted=False):
        self.tasks, self.hosted = list(tasks), hosted
'''

_RECOGNIZER = '''
"""The recognizer of the toy framework: one module, its hooks beside tools_from_object."""
from schemalint.model import Origin, Tool

FRAMEWORK_TYPES = (("toyfw", ("Crew", "Task")),)


def _is(obj, name):
    return not isinstance(obj, type) and any(
        c.__module__.startswith("toyfw") and c.__name__ == name for c in type(obj).__mro__)


def tools_from_object(obj, source):
    if not _is(obj, "Task"):
        return None
    schema = obj.args.model_json_schema()
    return [Tool(name=obj.name, description="", advertised=schema, raw={"name": obj.name, "parameters": schema},
                 origin=Origin(file=source, pointer="", format="toy"))]


def members(obj):
    return list(obj.tasks) if _is(obj, "Crew") else None


def data_types(obj):
    if _is(obj, "Crew"):
        return [t.result for t in obj.tasks]
    return [obj.result] if _is(obj, "Task") else []


def may_hold_no_tools(obj):
    return _is(obj, "Crew") and obj.hosted
'''

_APP = '''
from pydantic import BaseModel
from toyfw import Crew, Task


class Query(BaseModel):
    text: str


class Answer(BaseModel):
    body: str


search = Task("search", Query, Answer)
crew = Crew(search, Task("lookup", Query, Answer))
'''


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "toyfw.py").write_text(textwrap.dedent(_FRAMEWORK), encoding="utf-8")
    (tmp_path / "toy_recognizer.py").write_text(textwrap.dedent(_RECOGNIZER), encoding="utf-8")
    (tmp_path / "toy_app.py").write_text(textwrap.dedent(_APP), encoding="utf-8")
    (tmp_path / "toy_hosted.py").write_text("from toyfw import Crew\ncrew = Crew(hosted=True)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(python_source, "RECOGNIZERS", ("toy_recognizer:tools_from_object", *python_source.RECOGNIZERS))
    python_source.recognizers.cache_clear()
    yield tmp_path
    python_source.recognizers.cache_clear()
    for name in ("toyfw", "toy_recognizer", "toy_app", "toy_hosted"):
        sys.modules.pop(name, None)


def test_a_new_framework_is_one_module_and_a_row(toy: Path) -> None:
    tools = python_source.load_python_source("toy_app:", [str(toy)])
    # the crew's tasks once each (also module attributes), the models are its data: not tools
    assert sorted(t.name for t in tools) == ["lookup", "search"]


def test_a_container_the_recognizer_expands_is_read_through_it(toy: Path) -> None:
    tools = python_source.load_python_source("toy_app:crew", [str(toy)])
    assert [t.name for t in tools] == ["search", "lookup"]


def test_a_framework_object_that_may_hold_no_tools_is_no_error(toy: Path) -> None:
    assert python_source.load_python_source("toy_hosted:", [str(toy)]) == []


def test_without_its_row_the_framework_is_unknown(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(python_source, "RECOGNIZERS", python_source.RECOGNIZERS[1:])
    python_source.recognizers.cache_clear()
    from schemalint.errors import SourceError

    with pytest.raises(SourceError, match="not a tool source schemalint knows"):
        python_source.load_python_source("toy_app:crew", [str(toy)])


def test_the_dispatcher_names_no_framework() -> None:
    """The dispatcher's expansion and data-type steps name no framework (no module, class or helper
    of one): they ask the recognizers' hooks. The table of recognizers and the error messages may."""
    import inspect

    for step in (python_source._expand, python_source._data_types, python_source.module_members,
                 python_source._is_framework_tool):
        code = inspect.getsource(step)
        body = code.split('"""')[-1] if '"""' in code else code
        for word in ("agent", "Agent", "langchain", "FastMCP", "mcp_server", "function_tool"):
            assert word not in body, (step.__name__, word)
