"""Every diagnostic names a file and a line (issue 15, "Locations for every source").

Python sources (pydantic models, MCP server modules, OpenAI Agents and LangChain tools) point
at the module file and the line of the tool's ``class``/``def``; a server listed over stdio
points at the script its command names, or the configuration key that names it. GitHub code
scanning refuses a whole SARIF upload when one result lacks an artifact location (the OASIS
schema allows it, so schema validation cannot catch this): these tests read every result.
"""

from __future__ import annotations

import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, cli

AGENTS = '''\
from agents import function_tool


@function_tool
def lookup(key: str, limit: int = 3) -> str:
    return key
'''

LANGCHAIN = '''\
from langchain_core.tools import tool


@tool
def lc_lookup(key: str, limit: int = 3) -> str:
    """Look a key up."""
    return key
'''

MCP = '''\
from mcp.server.mcpserver import MCPServer

mcp = MCPServer("x")


@mcp.tool()
def m_lookup(key: str, limit: int = 3) -> str:
    return key


if __name__ == "__main__":
    mcp.run()
'''


def _results(proc: Any) -> list[dict[str, Any]]:
    assert proc.returncode in (0, 1), proc.stderr
    results: list[dict[str, Any]] = json.loads(proc.stdout)["runs"][0]["results"]
    return results


def _assert_uploadable(results: list[dict[str, Any]]) -> None:
    for r in results:
        uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert uri, r
        assert not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", uri), f"{uri!r} has a URI scheme: {r}"


def test_every_sarif_result_of_the_repository_configuration_has_a_file() -> None:
    results = _results(cli("check", "--format", "sarif", "--fail-on", "never"))
    assert len(results) > 30
    _assert_uploadable(results)
    python = [r for r in results if r["properties"].get("tool") in ("SetStock", "CreateCoupon")]
    assert python and all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                          == "examples/pydantic/shop_tools.py" for r in python)


def test_every_sarif_result_of_the_examples_and_the_example_server_has_a_file() -> None:
    pytest.importorskip("mcp")
    results = _results(cli("check", "examples", "examples.mcp_server.server:mcp", "--format", "sarif"))
    _assert_uploadable(results)
    server = [r for r in results if r["properties"].get("tool") == "present_answer"
              and "mcp_server" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]]
    assert server
    source = (ROOT / "examples/mcp_server/server.py").read_text().splitlines()
    for r in server:
        line = r["locations"][0]["physicalLocation"]["region"]["startLine"]
        assert source[line - 1].startswith("def present_answer("), (line, source[line - 1])


def _def_line(path: Path, name: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1)
                if re.match(rf"(async )?def {name}\(", text))


@pytest.mark.parametrize(("module", "text", "tool", "extra"), [
    ("loc_agents", AGENTS, "lookup", "agents"),
    ("loc_langchain", LANGCHAIN, "lc_lookup", "langchain_core"),
    ("loc_mcp", MCP, "m_lookup", "mcp"),
])
def test_framework_tools_point_at_their_def(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str,
                                            text: str, tool: str, extra: str) -> None:
    pytest.importorskip(extra)
    from schemalint.loaders.python.python_source import load_python_source

    (tmp_path / f"{module}.py").write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    source = f"{module}:mcp" if module == "loc_mcp" else f"{module}:"
    [found] = [t for t in load_python_source(source) if t.name == tool]
    assert found.origin.path == f"{module}.py"
    assert found.origin.path_line == _def_line(tmp_path / f"{module}.py", tool)
    assert found.origin.line is None  # rules group tools by (file, line): unchanged
    sys.modules.pop(module, None)


def test_undescribed_framework_tools_in_text_json_github_and_sarif(tmp_path: Path) -> None:
    pytest.importorskip("agents")
    pytest.importorskip("mcp")
    (tmp_path / "loc_agents2.py").write_text(AGENTS)
    (tmp_path / "loc_mcp2.py").write_text(MCP)
    args = ("check", "loc_agents2:", "loc_mcp2:mcp", "--python-path", ".")
    text = cli(*args, cwd=tmp_path).stdout
    assert f"loc_agents2.py:{_def_line(tmp_path / 'loc_agents2.py', 'lookup')}:1: warning SL007" in text
    assert f"loc_mcp2.py:{_def_line(tmp_path / 'loc_mcp2.py', 'm_lookup')}:1: warning SL007" in text
    report = json.loads(cli(*args, "--format", "json", cwd=tmp_path).stdout)
    by_tool = {d["tool"]: d for d in report["diagnostics"]}
    assert by_tool["lookup"]["file"] == "loc_agents2:lookup"  # the source, as baselines know it
    assert by_tool["lookup"]["path"] == "loc_agents2.py"
    assert by_tool["m_lookup"]["path"] == "loc_mcp2.py"
    assert by_tool["m_lookup"]["line"] == _def_line(tmp_path / "loc_mcp2.py", "m_lookup")
    github = cli(*args, "--format", "github", cwd=tmp_path).stdout
    assert f"::warning file=loc_mcp2.py,line={by_tool['m_lookup']['line']},col=1,title=SL007" in github
    _assert_uploadable(_results(cli(*args, "--format", "sarif", cwd=tmp_path)))


def test_stdio_server_points_at_its_script_and_else_at_the_configuration(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    (tmp_path / "srv.py").write_text(MCP)
    proc = cli("check", "--mcp-stdio", f"{sys.executable} srv.py", "--format", "json", cwd=tmp_path)
    [d] = json.loads(proc.stdout)["diagnostics"]
    assert (d["path"], d["line"]) == ("srv.py", _def_line(tmp_path / "srv.py", "m_lookup"))
    # run as a module: the module's file, found without importing it
    module = cli("check", "--mcp-stdio", f"{sys.executable} -m srv", "--format", "json", cwd=tmp_path)
    [d] = json.loads(module.stdout)["diagnostics"]
    assert (d["path"], d["line"]) == ("srv.py", _def_line(tmp_path / "srv.py", "m_lookup"))
    # no file in the command; the configuration's `sources` line is the location
    (tmp_path / "pyproject.toml").write_text(textwrap.dedent("""\
        [project]
        name = "x"

        [tool.schemalint]
        sources = []
        """))
    command = f"{sys.executable} -c \"import runpy; runpy.run_path('srv.py', run_name='__main__')\""
    results = _results(cli("check", "--mcp-stdio", command, "--format", "sarif", cwd=tmp_path))
    [r] = results
    location = r["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "pyproject.toml"
    assert location["region"]["startLine"] == 5


def test_a_diagnostic_without_any_file_gets_a_relative_label_uri() -> None:
    from schemalint.report.sarif import _label_uri

    assert _label_uri("mcp-stdio:npx some-server") == ("mcp-stdio%3Anpx%20some-server", "%SRCROOT%")


PLAIN_DICTS = '''\
import json


def search(query):  # a function of a tool's name wins over a dict naming it
    return query


TOOLS = [
    {"name": "alpha", "inputSchema": {"type": "object"}},
    {
        "type": "function",
        "function": {"name": "beta", "parameters": {"type": "object"}},
    },
    {"name": "search", "inputSchema": {"type": "object"}},
]

NAMES = ["gamma", "delta"]
BUILT: list = [{"name": n, "inputSchema": {"type": "object"}} for n in NAMES]
'''


def test_tools_written_as_plain_dicts_point_at_their_dict_else_at_the_assignment(tmp_path: Path) -> None:
    (tmp_path / "loc_plain.py").write_text(PLAIN_DICTS)
    lines = PLAIN_DICTS.splitlines()

    def line_of(text: str) -> int:
        return next(i for i, line in enumerate(lines, 1) if text in line)

    proc = cli("check", "loc_plain:TOOLS", "loc_plain:BUILT", "--python-path", ".", "--format", "json",
                   "--select", "SL007", cwd=tmp_path)
    found = {d["tool"]: (d["path"], d["line"]) for d in json.loads(proc.stdout)["diagnostics"]}
    assert found == {
        "alpha": ("loc_plain.py", line_of('"alpha"')),
        "beta": ("loc_plain.py", line_of('"beta"')),  # the function object's own dict
        "search": ("loc_plain.py", line_of("def search")),
        "gamma": ("loc_plain.py", line_of("BUILT")),  # built at run time: where the list is assigned
        "delta": ("loc_plain.py", line_of("BUILT")),
    }, proc.stderr
