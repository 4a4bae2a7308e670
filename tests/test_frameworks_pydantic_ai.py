"""pydantic-ai agents (session h28f, issue 28): an ``Agent`` stands for its function tools, read from
the ``ToolDefinition`` pydantic-ai sends and validated with the tool's own ``function_schema``
validator. Real agents (the built-in ``test`` model: no provider, no network) in a tmp module.
Measured on pydantic/pydantic-ai's ``bank_support`` example: before, the agent was "not a tool
source" and the module's output model was loaded as a tool (SL007)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pydantic_ai")

from tests._fixtures_cli import run_cli_here

AGENT = '''\
from pydantic import BaseModel, Field, model_validator
from pydantic_ai import Agent, RunContext


class Answer(BaseModel):
    text: str


class Window(BaseModel):
    start: int
    end: int | None = None

    @model_validator(mode="after")
    def end_needed(self):
        if self.end is None:
            raise ValueError("end is required")
        return self


support = Agent("test", deps_type=int, output_type=Answer)


@support.tool
def balance(ctx: RunContext[int], include_pending: bool) -> str:
    """Return the customer's balance."""
    return str(ctx.deps)


@support.tool_plain
def history(window: Window) -> str:
    """List transactions in a window."""
    return str(window.start)
'''


def test_an_agents_function_tools_are_read_with_their_runtime_side(tmp_path: Path) -> None:
    (tmp_path / "bank_agent.py").write_text(AGENT)
    proc = run_cli_here("check", "bank_agent:", "--python-path", str(tmp_path), "--format", "json", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert report["summary"]["tools"] == 2, proc.stdout + proc.stderr  # not the output model Answer
    assert report["summary"]["tools_by_format"] == {"pydantic-ai": 2}
    found = {(d["tool"], d["code"]) for d in report["diagnostics"]}
    assert ("history", "SL107") in found, found  # the model validator refuses what the schema allows
    assert not any(t == "balance" for t, _c in found), found  # RunContext is not an argument
    assert not any(t == "Answer" for t, _c in found)


def test_a_named_agent_is_a_source(tmp_path: Path) -> None:
    (tmp_path / "bank_named.py").write_text(AGENT)
    proc = run_cli_here("check", "bank_named:support", "--python-path", str(tmp_path), cwd=tmp_path)
    assert "2 tool(s)" in proc.stdout, proc.stdout + proc.stderr
    assert "not a tool source" not in proc.stderr
