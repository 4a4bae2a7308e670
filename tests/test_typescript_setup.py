"""TypeScript sources without Node: how a source is recognised, and the CI set-up that installs
the example's npm packages (the tests that run Node are in tests/test_typescript.py)."""

from __future__ import annotations

import re

from tests.conftest import ROOT

AGENT = "examples/typescript/src/agent.ts"


def test_source_specs() -> None:
    from schemalint.loaders.files.sources import is_python_source, split_typescript_source

    assert split_typescript_source(f"{AGENT}:AGENT_TOOLS") == (AGENT, "AGENT_TOOLS")
    assert split_typescript_source(AGENT) == (AGENT, "")
    assert split_typescript_source("src/t.mts:$tools.all") == ("src/t.mts", "$tools.all")
    assert split_typescript_source("lib/x.cjs") == ("lib/x.cjs", "")
    assert split_typescript_source("tools.json") is None
    assert split_typescript_source("shop_tools:ShipOrder") is None
    # `name.ts:attr` with no such file is still a dotted Python module, as before
    assert split_typescript_source("app.ts:TOOLS") is None and is_python_source("app.ts:TOOLS")
    assert not is_python_source(f"{AGENT}:AGENT_TOOLS")


def test_ci_runs_the_readmes_test_command_with_node_required() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme.split("## Usage")[0], re.S)
    assert len(blocks) == 2, "the README keeps exactly two set-up commands"
    test_command = blocks[1]
    assert "npm ci -s --prefix examples/typescript" in test_command and "pytest" in test_command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test_command in ci.splitlines()
    assert "export SCHEMALINT_REQUIRE_NODE=1" in ci.splitlines()
