"""Processes started by imported modules and MCP servers do not outlive the run, even when they
detach: a double fork under ``setsid`` with an emptied environment (so neither the process group
nor an environment marker finds them). schemalint's CLI and its Python worker are child
subreapers (``prctl(PR_SET_CHILD_SUBREAPER)``), so such orphans are re-parented to them and are
killed when the run ends (schemalint.bridge.reaper).

Real parts: a real module imported by the real worker through the real CLI, and a real MCP stdio
server (the official SDK) started with ``--mcp-stdio``; each writes the pid of its detached
grandchild to a file, and the test checks that the pid is gone after the command returned.
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="subreapers are a Linux feature")

DETACH = textwrap.dedent('''
    import os, subprocess, sys

    def detach(pidfile):
        """Start `sleep 600` in a new session, with an empty environment, as a grandchild whose
        parent exits at once (so it is orphaned), and write its pid to `pidfile`."""
        # the sleeping process writes its own pid (setsid may fork); its parent exits at once
        code = ("import subprocess, sys\\n"
                "subprocess.Popen(['/usr/bin/setsid', '/bin/sh', '-c', 'echo $$ > $0; exec /bin/sleep 600',"
                " sys.argv[1]], env={}, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,"
                " stderr=subprocess.DEVNULL)\\n")
        subprocess.run([sys.executable, "-c", code, pidfile], env={}, check=True,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wait until the grandchild has written its pid: on a loaded machine the run could
        # otherwise end (and reap it) before the shell reached `echo`, leaving no pid to check.
        import time
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with open(pidfile) as fh:
                    if fh.read().endswith("\\n"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
''')


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] != b"Z"


def _is_sleep(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return b"sleep" in fh.read()
    except OSError:
        return False


def _wait_gone(pid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def _pid(pidfile: Path) -> int:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if pidfile.exists() and pidfile.read_text().strip():
            return int(pidfile.read_text())
        time.sleep(0.05)
    raise AssertionError(f"{pidfile} was never written")


def test_a_detached_grandchild_of_an_imported_module_does_not_outlive_the_run(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild.pid"
    (tmp_path / "detacher.py").write_text(DETACH + textwrap.dedent(f'''
        detach({str(pidfile)!r})

        TOOLS = [{{"type": "function", "function": {{"name": "t", "description": "d",
                  "parameters": {{"type": "object", "properties": {{}}}}}}}}]
    '''))
    pid = None
    try:
        proc = run_cli("check", "detacher:TOOLS", "--python-path", str(tmp_path), cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        pid = _pid(pidfile)
        assert _wait_gone(pid), f"the detached grandchild {pid} outlived the run"
    finally:
        if pid is not None and _alive(pid):
            os.kill(pid, 9)


def test_a_detached_grandchild_of_an_mcp_stdio_server_does_not_outlive_the_run(tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="--mcp-stdio needs the mcp extra")
    pidfile = tmp_path / "server-grandchild.pid"
    server = tmp_path / "server.py"
    server.write_text(DETACH + textwrap.dedent(f'''
        detach({str(pidfile)!r})
        from mcp.server.mcpserver import MCPServer

        server = MCPServer("detaching")


        @server.tool()
        def ping(n: int) -> int:
            """Return n."""
            return n


        server.run()
    '''))
    pid = None
    try:
        proc = run_cli("check", "--mcp-stdio", f"{sys.executable} {server}", cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        pid = _pid(pidfile)
        assert _wait_gone(pid), f"the detached grandchild {pid} outlived the run"
    finally:
        if pid is not None and _alive(pid):
            os.kill(pid, 9)


def test_kill_descendants_finds_orphans_reparented_to_a_subreaper(tmp_path: Path) -> None:
    """The mechanism alone, in a child process that becomes a subreaper (the test process is left
    as it is)."""
    pidfile = tmp_path / "orphan.pid"
    script = tmp_path / "run.py"
    script.write_text(DETACH + textwrap.dedent(f'''
        from schemalint.bridge import reaper
        assert reaper.become_subreaper()
        detach({str(pidfile)!r})
        import time
        for _ in range(100):
            text = open({str(pidfile)!r}).read().strip() if os.path.exists({str(pidfile)!r}) else ""
            if text:
                break
            time.sleep(0.05)
        pid = int(text)
        with open(f"/proc/{{pid}}/cmdline", "rb") as fh:
            assert b"sleep" in fh.read()
        assert pid in reaper.descendants(), (pid, reaper.descendants())  # re-parented to us, not to init
        assert reaper.kill_descendants() >= 1
        assert pid not in reaper.descendants()
        print("ok")
    '''))
    import subprocess

    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "ok", proc.stderr
    assert _wait_gone(_pid(pidfile))
