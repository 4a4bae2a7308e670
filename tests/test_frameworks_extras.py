"""Optional extras, lazy framework imports, and module:attr sources through the CLI."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli


def _run_without(modules: list[str], *cli_args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run the CLI in a subprocess where importing each of ``modules`` fails (as if not installed),
    in schemalint and in the worker process that imports Python sources (a ``sitecustomize`` on
    ``PYTHONPATH`` blocks them in every Python process started)."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as blocker:
        Path(blocker, "sitecustomize.py").write_text(
            "import sys\n" f"for name in {modules!r}:\n" "    sys.modules[name] = None\n")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([blocker, os.environ.get("PYTHONPATH", "")])}
        code = (
            "import sys\n"
            "from schemalint.cli import main\n"
            f"sys.argv = ['schemalint', *{list(cli_args)!r}]\n"
            "main()\n"
        )
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, timeout=120,
                              env=env)


def test_mcp_stdio_without_mcp_names_the_extra():
    proc = _run_without(["mcp"], "check", "--mcp-stdio", f'"{sys.executable}" server.py')
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    # the packages of the [mcp] extra, from the installed metadata: a line that works without
    # a PyPI release of schemalint (issue 32)
    line = proc.stderr[proc.stderr.index("pip install"):]
    assert "'mcp>=1.10'" in line and "'pydantic>=2.7'" in line and "'hypothesis-jsonschema>=0.23'" in line
    assert line.rstrip().endswith("(schemalint's [mcp] extra)")


def test_module_needing_langchain_without_it_names_the_extra(tmp_path: Path):
    (tmp_path / "lc_tools.py").write_text(textwrap.dedent("""
        from langchain_core.tools import tool

        @tool
        def ping(host: str) -> str:
            "Ping `host`."
            return host
    """))
    proc = _run_without(["langchain_core"], "check", "lc_tools:ping", "--python-path", str(tmp_path))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "'langchain-core>=0.3'" in proc.stderr and "[langchain] extra" in proc.stderr
    assert "lc_tools:ping" in proc.stderr


def test_cli_start_imports_no_framework():
    code = (
        "import sys\n"
        "import schemalint.cli, schemalint.api, schemalint.loaders.python.python_source\n"
        "import schemalint.loaders.python.mcp_server, schemalint.loaders.python.openai_agents\n"
        "import schemalint.loaders.python.langchain_tools\n"
        "heavy = ('mcp', 'fastmcp', 'agents', 'openai', 'langchain_core', 'pydantic')\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_mixed_list_of_framework_tools_through_the_cli(tmp_path: Path):
    pytest.importorskip("agents")
    pytest.importorskip("langchain_core")
    (tmp_path / "mixed_tools.py").write_text(textwrap.dedent("""
        from agents import function_tool
        from langchain_core.tools import tool

        @function_tool
        def lookup(key: str) -> str:
            "Look `key` up."
            return key

        @tool
        def ping(host: str) -> str:
            "Ping `host`."
            return host

        TOOLS = [lookup, ping]
    """))
    proc = cli("check", "mixed_tools:TOOLS", "--python-path", str(tmp_path), "--format", "json",
               "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)["summary"]
    assert summary["tools_by_format"] == {"openai-agents": 1, "langchain": 1}

def test_unrecognized_or_missing_python_objects_exit_2(tmp_path: Path):
    (tmp_path / "plain_values.py").write_text("NOT_TOOLS = [1, 2]\n")
    proc = cli("check", "plain_values:NOT_TOOLS", "--python-path", str(tmp_path))
    assert proc.returncode == 2
    assert "not a tool source" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("check", "plain_values:MISSING", "--python-path", str(tmp_path))
    assert proc.returncode == 2 and "has no attribute" in proc.stderr


def test_probe_without_the_generator_is_not_a_pass() -> None:
    """probe on a TypeScript module (or any source) without hypothesis-jsonschema exited 0 with
    a row saying the generated probes could not run: now exit 2 naming the packages to install
    (from the installed metadata), and --max-examples 0 still runs the omission probes."""
    from conftest import NODE_MISSING

    source = "examples/pydantic/shop_tools.py" if NODE_MISSING else "examples/typescript/src/schemas.ts"
    args = ["probe", "shop_tools:", "--python-path", "examples/pydantic"] if NODE_MISSING else ["probe", source]
    proc = _run_without(["hypothesis_jsonschema"], *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "generated probes need hypothesis-jsonschema" in proc.stderr
    assert "'hypothesis-jsonschema>=0.23'" in proc.stderr and "--max-examples 0" in proc.stderr
    assert "Traceback" not in proc.stderr
    omission = _run_without(["hypothesis_jsonschema"], *args, "--max-examples", "0")
    assert omission.returncode in (0, 1), omission.stderr
    assert "generated probes need" not in omission.stderr
