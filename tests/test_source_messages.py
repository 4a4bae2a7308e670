"""Errors for sources written the wrong way say how to write them: a Python file path with an
attribute (``examples/mcp_server/server.py:mcp``) names the ``module:attr`` form and the
``--python-path`` to give; an ``--mcp-url`` without a scheme names the ``http://`` URL to use."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ROOT, cli

SERVER_DIR = ROOT / "examples" / "mcp_server"


@pytest.mark.parametrize("command", ["check", "show", "snapshot", "diff"])
def test_python_file_path_with_attribute(command: str, tmp_path: Path) -> None:
    source = "examples/mcp_server/server.py:mcp"
    args = {"check": [source], "show": ["add", source], "snapshot": [source, "--dir", str(tmp_path / "s")],
            "diff": [source, source]}[command]
    proc = cli(command, *args)
    assert proc.returncode == 2, proc.stdout
    assert "Traceback" not in proc.stderr
    assert ("a Python source is written module:attr, not as a file path: `server:mcp` with "
            "`--python-path examples/mcp_server`") in proc.stderr, proc.stderr
    assert "no such file or directory" not in proc.stderr
    # and the form it names works
    if command == "check":
        ok = cli("check", "server:mcp", "--python-path", "examples/mcp_server", "--fail-on", "never")
        assert ok.returncode == 0, ok.stderr


def test_python_file_path_that_does_not_exist() -> None:
    proc = cli("check", "examples/mcp_server/nope.py:mcp")
    assert proc.returncode == 2
    assert "examples/mcp_server/nope.py:mcp: no such file or directory (a Python source is written module:attr" in (
        proc.stderr)


def test_file_name_with_suffix_as_module() -> None:
    proc = cli("check", "server.py:mcp", cwd=SERVER_DIR)
    assert proc.returncode == 2
    assert "a Python source is written module:attr, without the file suffix: `server:mcp`" in proc.stderr


@pytest.mark.parametrize(("url", "expected"), [
    ("127.0.0.1:8765", "the URL has no scheme; use http://127.0.0.1:8765/... with the server's path (often /mcp)"),
    ("localhost:8765/mcp", "the URL has no scheme; use http://localhost:8765/mcp (or https://)"),
    ("ftp://example.com/mcp", "only http:// and https:// URLs are read, not ftp:"),
])
def test_mcp_url_scheme_messages(url: str, expected: str) -> None:
    proc = cli("check", "--mcp-url", url)
    assert proc.returncode == 2
    assert expected in proc.stderr, proc.stderr
    assert "not no scheme" not in proc.stderr
