"""Untrusted Python sources, MCP servers and tool files cannot corrupt, hang or fake the report.

Real modules written to temporary folders and imported through the CLI (in its worker
process), real git repositories and real signals; every run is bounded in time.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

SCHEMALINT = [sys.executable, "-m", "schemalint"]


def run(*args: str, cwd: Path | str | None = None, timeout: float = 120, env: dict[str, str] | None = None,
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SCHEMALINT, *args], capture_output=True, text=True, cwd=cwd or ROOT, timeout=timeout,
                          env={**os.environ, **(env or {})})


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


MODEL = '''
    from pydantic import BaseModel, field_validator

    class Ping(BaseModel):
        """Ping a host."""
        host: str
        count: int = 1

        @field_validator("host")
        @classmethod
        def _loud(cls, v):
            print("PRINTED IN A VALIDATOR")
            return v
'''

NOISY = {
    "import": 'print("PRINTED AT IMPORT")\n',
    "atexit": 'import atexit\natexit.register(lambda: print("PRINTED IN ATEXIT"))\n',
    "fork": 'import os\nif os.fork() == 0:\n    print("PRINTED BY A FORKED CHILD")\n',
    "stdout-fd": 'import os\nos.write(1, b"WRITTEN TO FD 1\\n")\n',
}


@pytest.mark.parametrize("how", sorted(NOISY))
@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_module_output_never_reaches_the_report(tmp_path: Path, how: str, fmt: str) -> None:
    write(tmp_path, "noisy_tools.py", NOISY[how] + textwrap.dedent(MODEL))
    proc = run("check", "noisy_tools:", "--python-path", str(tmp_path), "--format", fmt)
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)  # the whole of stdout is the report
    assert "PRINTED" not in proc.stdout and "WRITTEN" not in proc.stdout
    if fmt == "json":
        assert report["summary"]["tools"] == 1


def test_probe_json_stays_clean_with_a_printing_validator(tmp_path: Path) -> None:
    write(tmp_path, "noisy_probe.py", NOISY["import"] + textwrap.dedent(MODEL))
    proc = run("probe", "noisy_probe:", "--python-path", str(tmp_path), "--format", "json", "--max-examples", "5")
    report = json.loads(proc.stdout)
    assert report["summary"]["probed"] == 1 and "PRINTED" not in proc.stdout


def test_os_exit_at_import_is_a_located_failure_not_a_pass(tmp_path: Path) -> None:
    write(tmp_path, "quits.py", "import os\nos._exit(0)\n")
    proc = run("check", "quits:", "--python-path", str(tmp_path), "--format", "json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "quits:" in proc.stderr and "exit status 0" in proc.stderr and "Traceback" not in proc.stderr


def test_a_module_hanging_at_import_is_stopped_at_the_time_limit(tmp_path: Path) -> None:
    write(tmp_path, "hangs.py", 'import sys, time\nprint("about to hang", file=sys.stderr)\nwhile True:\n'
          '    time.sleep(0.05)\n')
    started = time.monotonic()
    proc = run("check", "hangs:", "--python-path", str(tmp_path), "--format", "json",
               env={"SCHEMALINT_IMPORT_TIME_LIMIT": "1.5"}, timeout=300)
    elapsed = time.monotonic() - started
    assert proc.returncode == 2 and proc.stdout == ""
    assert "did not finish within 1.5 s" in proc.stderr and "about to hang" in proc.stderr
    assert "(a module that hangs at import?)" in proc.stderr and "network" not in proc.stderr
    # the module never ends: any end is the limit's. Two Python starts (the run, its worker) took
    # most of the 20 s this bound once was on a loaded machine
    assert elapsed < 120


DOWNLOADS = """\
import sys, time
print("ERROR | download_model - Could not download model from HuggingFace: [Errno -2] Name or service not known",
      file=sys.stderr, flush=True)
"""


def test_an_import_waiting_on_the_network_says_what_the_environment_lacks(tmp_path: Path) -> None:
    """qdrant/mcp-server-qdrant downloads an embedding model at import and retries for more than 30 s
    without network ("a module that hangs at import?"), then raises its own ValueError (named without
    a cause): both name the network, with the line the module wrote."""
    write(tmp_path, "retries.py", DOWNLOADS + "while True:\n    time.sleep(0.05)\n")
    proc = run("check", "retries:", "--python-path", str(tmp_path), env={"SCHEMALINT_IMPORT_TIME_LIMIT": "1"})
    assert proc.returncode == 2
    assert "did not finish within 1 s, while it kept trying the network, which fails here" in proc.stderr
    assert "Name or service not known" in proc.stderr and "hangs at import" not in proc.stderr
    write(tmp_path, "gives_up.py", DOWNLOADS + 'raise ValueError("Could not load model m from any source.")\n')
    proc = run("check", "gives_up:", "--python-path", str(tmp_path))
    assert proc.returncode == 2
    assert "cannot import: the environment lacks a network service the module reaches at import" in proc.stderr
    assert "ValueError raised while importing: Could not load model m" in proc.stderr


def test_non_json_values_are_rendered_the_same_every_run_and_reported(tmp_path: Path) -> None:
    write(tmp_path, "odd_defaults.py", '''
        from pydantic import BaseModel

        class Odd(BaseModel):
            """Odd defaults."""
            ratio: float = float("nan")
            limit: float = float("inf")
    ''')
    outs = []
    for i in range(2):
        proc = run("show", "Odd", "odd_defaults:Odd", "--python-path", str(tmp_path), "--format", "json",
                   cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
        json.loads(proc.stdout, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
        snaps = tmp_path / f"snaps{i}"
        proc = run("snapshot", "odd_defaults:Odd", "--python-path", str(tmp_path), "--dir", str(snaps),
                   cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        (snap,) = snaps.glob("*.json")
        outs.append(snap.read_text())
        json.loads(outs[-1], parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    assert outs[0] == outs[2] and outs[1] == outs[3] and "0x" not in outs[0] + outs[1]
    proc = run("check", "odd_defaults:Odd", "--python-path", str(tmp_path), "--format", "json", cwd=tmp_path)
    report = json.loads(proc.stdout)
    (diag,) = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert "NaN" in diag["message"] and "Infinity" in diag["message"] and diag["severity"] == "warning"


def _run_mark() -> dict[str, str]:
    """An environment variable unique to one schemalint run; its bridge workers inherit it."""
    return {"SCHEMALINT_TEST_RUN_MARK": os.urandom(8).hex()}


def _worker_pids(mark: dict[str, str]) -> set[int]:
    """The live bridge workers started by the run carrying ``mark`` (Linux /proc). Only this run's:
    workers of other tests (another pytest-xdist worker) or other programs on the machine are not
    counted."""
    (name, value), = mark.items()
    needle = f"{name}={value}".encode()
    out = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            if (b"schemalint.loaders.python.worker" in (proc / "cmdline").read_bytes()
                    and needle in (proc / "environ").read_bytes().split(b"\0")):
                out.add(int(proc.name))
        except OSError:  # gone meanwhile
            continue
    return out


def test_hung_validator_is_reported_and_no_worker_outlives_the_run(tmp_path: Path) -> None:
    write(tmp_path, "spins.py", '''
        import time
        from pydantic import BaseModel, field_validator

        class Spins(BaseModel):
            """Never returns."""
            q: str

            @field_validator("q")
            @classmethod
            def _spin(cls, v):
                while True:
                    time.sleep(0.001)

        class Fine(BaseModel):
            """Fine."""
            q: str
    ''')
    mark = _run_mark()
    proc = run("check", "spins:", "--python-path", str(tmp_path), "--format", "json", "--select", "SL107",
               env=mark)
    report = json.loads(proc.stdout)
    found = {d["tool"]: d["message"] for d in report["diagnostics"]}
    assert set(found) == {"Spins"} and "did not return within" in found["Spins"]
    # the run killed its worker before exiting; the kernel may take a moment to finish it (a fixed
    # half second was too short on a loaded machine). A leaked worker spins forever: no wait
    # outlives it
    _wait_for(lambda: not _worker_pids(mark), "end of the worker")




# ------------------------------------------------------------------ diff --base


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True).stdout


def _repo_with_slow_base(tmp_path: Path) -> Path:
    """A repository whose committed ``slow_tools`` touches ``<tmp_path>/base-importing`` when it is
    imported, then sleeps ten minutes (longer than any wait of these tests: a worker left behind is
    still alive when it is looked for); the working tree's version imports at once."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    marker = tmp_path / "base-importing"
    write(repo, "slow_tools.py", f'import pathlib, time\nprint("BASE PRINTS")\npathlib.Path({str(marker)!r}).touch()\n'
          'time.sleep(600)\n' + textwrap.dedent(MODEL))
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    write(repo, "slow_tools.py", textwrap.dedent(MODEL))  # the working tree imports quickly
    return repo


def test_diff_base_import_has_the_time_limit(tmp_path: Path) -> None:
    repo = _repo_with_slow_base(tmp_path)
    proc = run("diff", "--base", "HEAD", "slow_tools:", "--format", "json", cwd=repo,
               env={"SCHEMALINT_IMPORT_TIME_LIMIT": "1.5"}, timeout=60)
    assert proc.returncode == 2 and proc.stdout == "", proc.stdout
    assert "did not finish within 1.5 s" in proc.stderr and "Traceback" not in proc.stderr
    assert _git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1


HANG_GUARD_S = 600
"""How long a wait below may last before the test calls it a hang. The waits end on events (the
base revision's import has begun, the run has exited, its worker is gone), never on a guess of how
long a step takes: on a loaded machine starting the run alone took 37 s, past the 30 s deadline
this test once had (its flakiness)."""


def _wait_for(condition: Any, what: str, proc: subprocess.Popen[str] | None = None) -> None:
    """Poll ``condition`` until it holds; fail when ``proc`` (if given) ends first or after the guard."""
    deadline = time.monotonic() + HANG_GUARD_S
    while not condition():
        assert proc is None or proc.poll() is None, (f"the run ended before the {what}", proc.communicate())
        assert time.monotonic() < deadline, f"no {what} within {HANG_GUARD_S} s"
        time.sleep(0.05)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_diff_base_leaves_no_worktree_behind(tmp_path: Path, signum: int) -> None:
    repo = _repo_with_slow_base(tmp_path)
    mark = _run_mark()
    proc = subprocess.Popen([*SCHEMALINT, "diff", "--base", "HEAD", "slow_tools:"], cwd=repo,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, **mark})
    # the worker is importing the base revision, from the temporary checkout: the state under test
    _wait_for((tmp_path / "base-importing").exists, "import of the base revision", proc)
    assert _git(repo, "worktree", "list", "--porcelain").count("worktree ") == 2
    assert _worker_pids(mark)
    proc.send_signal(signum)
    _out, err = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode != 0 and "Traceback" not in err, err
    assert _git(repo, "worktree", "list", "--porcelain").count("worktree ") == 1
    assert not list(Path(repo, ".git", "worktrees").glob("*"))
    # the run killed its worker before exiting; the kernel may take a moment to finish it (it sleeps
    # ten minutes when left alive, so this wait cannot pass by outliving a leaked worker)
    _wait_for(lambda: not _worker_pids(mark), "end of the worker")


# ------------------------------------------------------------------ one escaping step for untrusted text

HOSTILE = "x\x1b]52;c;ZXZpbA==\x07\x1b[2J\rnl\n::error file=README.md::forged\x9b31m\u202e,%:end"
RAW = ("\x1b", "\x07", "\r", "\x9b", "\u202e")


def _hostile_tools(name_suffix: str = "") -> list[dict[str, Any]]:
    return [{"type": "function", "function": {
        "name": "t" + HOSTILE + name_suffix, "description": "Desc " + HOSTILE,
        "parameters": {"type": "object", "properties": {"a" + HOSTILE: {"type": "string"}},
                       "required": ["a" + HOSTILE, "missing" + HOSTILE]}}}]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _holds_exact(value: Any) -> bool:
    """JSON output keeps the untrusted text unchanged (JSON's own escaping)."""
    return any(HOSTILE in s for s in _strings(value))


def _assert_inert(text: str, commands: int | None = None) -> None:
    for ch in RAW:
        assert ch not in text, repr(ch)
    forged = [line for line in text.splitlines() if "forged" in line and not line.startswith(("::error ", "  ", "::"))]
    assert all("::error file=README.md::forged" not in line[:40] for line in forged)
    for line in text.splitlines():
        assert not line.startswith("::error file=README.md"), line
        assert not line.startswith("::add-mask::"), line
    if commands is not None:
        assert sum(1 for line in text.splitlines() if line.startswith("::")) == commands


def test_untrusted_text_is_inert_in_every_check_format(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(_hostile_tools()), encoding="utf-8")
    proc = run("check", str(path), "--format", "json", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert report["diagnostics"] and any(d["tool"] == "t" + HOSTILE for d in report["diagnostics"])
    sarif = json.loads(run("check", str(path), "--format", "sarif", cwd=tmp_path).stdout)
    assert _holds_exact(sarif)
    text = run("check", str(path), "--format", "text", cwd=tmp_path).stdout
    _assert_inert(text)
    assert "\\x1b]52" in text and "\\r" in text and "\\n::error" in text
    github = run("check", str(path), "--format", "github", cwd=tmp_path).stdout
    _assert_inert(github, commands=len(report["diagnostics"]))
    assert "%0A::error" not in github  # a newline from the file is shown, not decoded by the runner


def test_untrusted_text_is_inert_in_diff_and_show(tmp_path: Path) -> None:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(_hostile_tools()), encoding="utf-8")
    changed = _hostile_tools()
    changed[0]["function"]["parameters"]["required"].append("b" + HOSTILE)
    new.write_text(json.dumps(changed), encoding="utf-8")
    as_json = json.loads(run("diff", str(old), str(new), "--format", "json", cwd=tmp_path).stdout)
    assert _holds_exact(as_json)
    for fmt in ("text", "github"):
        proc = run("diff", str(old), str(new), "--format", fmt, cwd=tmp_path)
        assert "Traceback" not in proc.stderr and proc.stdout
        _assert_inert(proc.stdout)
    proc = run("show", "t" + HOSTILE, str(old), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    _assert_inert(proc.stdout)
    assert "missingx\\x1b]52" in proc.stdout or "missingx\\u001b]52" in proc.stdout
    shown = json.loads(run("show", "t" + HOSTILE, str(old), "--format", "json", cwd=tmp_path).stdout)
    assert _holds_exact(shown)


def test_github_notes_cannot_forge_commands() -> None:
    from types import SimpleNamespace

    from schemalint.report.github import render

    class Out:
        text = ""

        def write(self, s: str) -> None:
            self.text += s

    out = Out()
    result = SimpleNamespace(diagnostics=[], files=1, tools=0,
                             notes=["a\n::add-mask::secret\r::error file=README.md::x"])
    render(result, out)
    _assert_inert(out.text)
    assert out.text.count("\n") == 2


# ------------------------------------------------------------------ MCP servers over stdio

RAW_SERVER = r'''
import json, sys
NAME = "evil\x1b]52;c;ZXZpbA==\x07\r\n::error::x"
EXTRA = {extra}
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        res = {{"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {{"tools": {{}}}},
               "serverInfo": {{"name": "raw", "version": "1"}}}}
    elif msg["method"] == "tools/list":
        res = {{"tools": [{{"name": NAME + EXTRA, "description": "d \x1b[31m" + EXTRA,
                          "inputSchema": {{"type": "object", "properties": {{"q": {{"type": "string"}}}},
                                          "required": ["q", "z"]}}}}]}}
    else:
        res = {{}}
    sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": msg["id"], "result": res}}) + "\n")
    sys.stdout.flush()
'''

MCP_LIMIT = {"SCHEMALINT_IMPORT_TIME_LIMIT": "4"}

START_LIMIT = {"SCHEMALINT_IMPORT_TIME_LIMIT": "60"}
"""For a server whose start-up is not the subject: importing ``mcp`` and answering tools/list took
more than 4 s of wall time on the loaded 2-core machine (exit 2, "no tools/list answer within 4s")."""


def _mcp(tmp_path: Path, name: str, text: str, *args: str, fmt: str = "json",
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    script = tmp_path / name
    script.write_text(textwrap.dedent(text), encoding="utf-8")
    return run("check", "--mcp-stdio", f'"{sys.executable}" "{script}" {" ".join(args)}', "--format", fmt,
               cwd=tmp_path, env={**MCP_LIMIT, **(env or {})}, timeout=60)


def test_mcp_hostile_tool_names_are_inert_and_a_lone_surrogate_is_no_traceback(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    proc = _mcp(tmp_path, "names.py", RAW_SERVER.format(extra='""'))
    report = json.loads(proc.stdout)
    assert {d["tool"] for d in report["diagnostics"]} == {"evil\x1b]52;c;ZXZpbA==\x07\r\n::error::x"}
    for fmt in ("text", "github"):
        proc = _mcp(tmp_path, "names.py", RAW_SERVER.format(extra='""'), fmt=fmt)
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        for ch in RAW:
            assert ch not in proc.stdout
        assert not any(line.startswith("::error::x") for line in proc.stdout.splitlines())
    proc = _mcp(tmp_path, "surrogate.py", RAW_SERVER.format(extra='"\\ud800"'))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "not JSON-RPC" in proc.stderr


def test_mcp_garbage_and_silence_get_a_located_message_in_time(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    started = time.monotonic()
    proc = _mcp(tmp_path, "garbage.py", 'import time\nfor _ in range(20):\n    print("not json {", flush=True)\n'
                'time.sleep(120)\n')
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "garbage.py" in proc.stderr and "no tools/list answer within 4s" in proc.stderr
    assert "20 line(s) to stdout that are not JSON-RPC" in proc.stderr
    # a silent server needs no time to show anything: the smallest limit that is still a wait
    proc = _mcp(tmp_path, "silent.py", "import sys\nsys.stdin.read()\n", env={"SCHEMALINT_IMPORT_TIME_LIMIT": "1"})
    assert proc.returncode == 2 and "no tools/list answer within 1s" in proc.stderr
    # under the 120 s the garbage server sleeps: the limits, not the server, ended both runs (a
    # tighter 40 s counted four Python starts on a loaded machine too)
    assert time.monotonic() - started < 110


def test_mcp_stderr_flood_is_bounded(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    # a private TMPDIR for schemalint and the server: what other tests (other pytest-xdist workers)
    # or other programs write to the shared /tmp meanwhile is not counted
    private_tmp = tmp_path / "tmp"
    private_tmp.mkdir()
    proc = _mcp(tmp_path, "flood.py", 'import os\nchunk = b"E" * 65536\nwhile True:\n    os.write(2, chunk)\n',
                env={"TMPDIR": str(private_tmp)})
    assert proc.returncode == 2 and "server stderr" in proc.stderr
    assert len(proc.stderr) < 10_000
    assert sum(f.stat().st_size for f in private_tmp.rglob("*") if f.is_file()) < 10_000_000


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("detach", [False, True])
def test_mcp_server_leaves_no_grandchild(tmp_path: Path, detach: bool) -> None:
    pytest.importorskip("mcp")
    pidfile = tmp_path / "grandchild.pid"
    proc = _mcp(tmp_path, "grandchild.py", f'''
        import os, sys, time
        from mcp.server.mcpserver import MCPServer

        if os.fork() == 0:
            if {detach!r}:
                os.setsid()
            open({str(pidfile)!r} + ".part", "w").write(str(os.getpid()))
            os.rename({str(pidfile)!r} + ".part", {str(pidfile)!r})
            time.sleep(300)
            os._exit(0)
        while not os.path.exists({str(pidfile)!r}):  # the grandchild runs (detached) before the listing
            time.sleep(0.01)
        app = MCPServer("g")

        @app.tool()
        def ping(host: str) -> str:
            """Ping a host."""
            return host

        app.run()
    ''', env=START_LIMIT)
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["summary"]["tools"] == 1
    deadline = time.monotonic() + 30  # a grandchild left behind sleeps 300 s
    pid = int(pidfile.read_text())
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid)


# ------------------------------------------------------------------ directory walks


def test_an_unreadable_subdirectory_is_reported_not_skipped(tmp_path: Path) -> None:
    root = tmp_path / "tools"
    root.mkdir()
    (root / "ok.json").write_text(json.dumps({"name": "ok", "description": "Fine.",
                                              "inputSchema": {"type": "object"}}), encoding="utf-8")
    # A directory os.scandir cannot open even as root: its path is longer than PATH_MAX.
    fd = os.open(root, os.O_RDONLY)
    top = "d" * 200
    try:
        for _ in range(25):
            os.mkdir(top, dir_fd=fd)
            nxt = os.open(top, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nxt
    finally:
        os.close(fd)
    proc = run("check", "tools", "--format", "json", cwd=tmp_path)
    report = json.loads(proc.stdout)
    unread = [d for d in report["diagnostics"] if d["code"] == "SL000"]
    assert unread and unread[0]["severity"] == "warning" and "cannot read this directory" in unread[0]["message"]
    assert unread[0]["file"].startswith("tools/" + top)
    assert report["summary"]["tools"] == 1
    text = run("check", "tools", cwd=tmp_path).stdout
    assert "cannot read this directory" in text


def test_a_validator_ending_its_process_fails_the_source_not_the_report(tmp_path: Path) -> None:
    write(tmp_path, "exits_in_validator.py", '''
        import os
        from pydantic import BaseModel, field_validator

        class Quits(BaseModel):
            """Ends the process."""
            q: str

            @field_validator("q")
            @classmethod
            def _quit(cls, v):
                os._exit(0)

        class Picky(BaseModel):
            """Refuses blank names."""
            name: str

            @field_validator("name")
            @classmethod
            def _not_blank(cls, v):
                if v == "a":
                    raise ValueError("name must not be 'a'")
                return v
    ''')
    proc = run("check", "exits_in_validator:", "--python-path", str(tmp_path), "--format", "json", cwd=tmp_path)
    # the loader's own omission probes call the validator while listing: like an exit at import
    assert proc.returncode == 2 and proc.stdout == ""
    assert "exits_in_validator:" in proc.stderr and "exit status 0" in proc.stderr


UNPARSEABLE_SERVER = r'''
import json, sys
ANSWER = {answer!r}
for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    if msg["method"] == "initialize":
        res = {{"protocolVersion": msg["params"]["protocolVersion"], "capabilities": {{"tools": {{}}}},
               "serverInfo": {{"name": "raw", "version": "1"}}}}
        sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": msg["id"], "result": res}}) + "\n")
    elif msg["method"] == "tools/list":
        sys.stdout.write('{{"jsonrpc": "2.0", "id": %d, "result": %s}}\n' % (msg["id"], ANSWER))
    else:
        sys.stdout.write(json.dumps({{"jsonrpc": "2.0", "id": msg["id"], "result": {{}}}}) + "\n")
    sys.stdout.flush()
'''


@pytest.mark.parametrize("answer, why", [
    ('{"tools": [{"name": "a\\ud800", "inputSchema": {"type": "object"}}]}', "hex escape"),
    ('{"tools": [{"name": "a", "inputSchema": {"type": "object", "maximum": ' + "9" * 5000 + "}}]}",
     "number out of range"),
])
def test_mcp_unparseable_answer_is_an_immediate_located_error(tmp_path: Path, answer: str, why: str) -> None:
    """A tools/list answer the SDK cannot parse (and drops) is named at once, not waited for."""
    pytest.importorskip("mcp")
    script = tmp_path / "server.py"
    script.write_text(UNPARSEABLE_SERVER.format(answer=answer), encoding="utf-8")
    started = time.monotonic()
    # headroom for a starved CPU (two pytest-xdist workers and other load; two Python starts and the
    # SDK's import took 37 s there once): the limit is 300 s, and an answer named at once takes well
    # under half of it (a few seconds on an idle machine)
    proc = run("check", "--mcp-stdio", f'"{sys.executable}" "{script}"', cwd=tmp_path,
               env={"SCHEMALINT_IMPORT_TIME_LIMIT": "300"}, timeout=400)
    elapsed = time.monotonic() - started
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert "JSON-RPC message on stdout that cannot be parsed" in proc.stderr, proc.stderr
    assert why in proc.stderr and "line 1 column" in proc.stderr and "within" not in proc.stderr
    assert elapsed < 150, elapsed
