"""Issue 28: an import that fails for the environment's reasons names what the environment lacks
before the exception (measured on veloper/pgmcp: settings read from .env, a download at import).
Real modules in a tmp folder imported by the worker through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import cli

SETTINGS = '''\
from pydantic_settings import BaseSettings


class DbSettings(BaseSettings):
    database_url: str


settings = DbSettings()
TOOLS = []
'''

NETWORK = '''\
import socket


def _download():
    try:
        raise socket.gaierror(-2, "Name or service not known")
    except socket.gaierror as exc:
        raise ConnectionError("Max retries exceeded with url: /encodings/x.tiktoken") from exc


_download()
TOOLS = []
'''

BROKEN = '''\
raise ValueError("the code itself is wrong")
'''


def test_missing_settings_name_the_configuration(tmp_path: Path) -> None:
    pytest.importorskip("pydantic_settings")
    (tmp_path / "conf_tools.py").write_text(SETTINGS)
    proc = cli("check", "conf_tools:TOOLS", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert ("cannot import: the environment lacks the module's configuration (its pydantic-settings class found "
            "required values missing") in proc.stderr, proc.stderr
    assert "ValidationError raised while importing" in proc.stderr


def test_an_unreachable_network_is_named(tmp_path: Path) -> None:
    (tmp_path / "net_tools.py").write_text(NETWORK)
    proc = cli("check", "net_tools:TOOLS", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert "cannot import: the environment lacks a network service the module reaches at import" in proc.stderr


def test_a_fault_of_the_code_is_not_blamed_on_the_environment(tmp_path: Path) -> None:
    (tmp_path / "bad_tools.py").write_text(BROKEN)
    proc = cli("check", "bad_tools:TOOLS", "--python-path", str(tmp_path), cwd=tmp_path)
    assert proc.returncode == 2
    assert "cannot import: ValueError raised while importing: the code itself is wrong" in proc.stderr
    assert "environment lacks" not in proc.stderr
