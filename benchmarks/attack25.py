"""Attack schemalint as a new user and as an attacker would (issue 25): every item, from a fresh clone.

usage: python benchmarks/attack25.py SCHEMALINT_PYTHON [--json OUT]

``SCHEMALINT_PYTHON`` is the interpreter of the installation under attack (``.venv/bin/python`` of a
fresh clone after the README's first set-up command). Each attempt runs the real CLI in a
subprocess inside a throw-away project under a temporary directory, with a time limit, and is
classified: ``traceback`` (a Python traceback on stderr), ``internal`` (an SL999 in the output),
``hang`` (the time limit passed), ``wrote`` (a file that must stay unchanged changed, or something
appeared where nothing may be written), ``ran`` (code named by an untrusted place ran), ``leak``
(a process or checkout outlived the run), or ``ok``. Prints one line per attempt and a count per
class; nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import http.server
import json
import os
import random
import signal
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

TOOL = {"name": "s", "description": "S.", "inputSchema": {"type": "object", "properties": {"q": {"type": "strin"}},
                                                          "required": ["q", "missing"]}}
LOG = {"model": "m", "tools": [{"type": "function", "function": {"name": "f", "description": "d",
                                                                 "parameters": {"type": "object"}}}],
       "messages": [{"role": "user", "content": "hi"}]}
README = "# hand-written\n"
RESULTS: list[tuple[str, str, str]] = []
PY = sys.executable


def sl(py: str, *args: str, cwd: Path, timeout: float = 60, env: dict[str, str] | None = None,
       stdin: str | None = None) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run([py, "-m", "schemalint", *args], cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, env={**os.environ, **(env or {})}, input=stdin)
    except subprocess.TimeoutExpired:
        return None


def classify(proc: subprocess.CompletedProcess[str] | None) -> str:
    if proc is None:
        return "hang"
    if "Traceback" in proc.stderr or "Traceback" in proc.stdout:
        return "traceback"
    if "SL999" in proc.stdout or "internal error" in proc.stdout:
        return "internal"
    return "ok"


def record(item: str, attempt: str, outcome: str) -> None:
    RESULTS.append((item, attempt, outcome))
    print(f"{outcome:<9} {item:<22} {attempt}", flush=True)


def project(root: Path, name: str) -> Path:
    p = root / name
    p.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=p, check=True)
    (p / "tools.json").write_text(json.dumps(TOOL))
    (p / "log.json").write_text(json.dumps(LOG))
    (p / "README.md").write_text(README)
    return p


def snapshot_of(p: Path) -> dict[str, bytes]:
    out = {}
    for f in p.rglob("*"):
        if ".git" in f.parts or f.is_symlink() or not f.is_file():
            continue
        out[str(f.relative_to(p))] = f.read_bytes()
    return out


def unchanged(before: dict[str, bytes], p: Path, allowed: tuple[str, ...] = ()) -> bool:
    after = snapshot_of(p)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    return not {k for k in changed if not k.startswith(allowed)}


# ---------------------------------------------------------------- output paths
def outputs(py: str, root: Path) -> None:
    options = [("check", "tools.json", "--write-baseline"), ("check", "tools.json", "--summary-out"),
               ("replay", "log.json", "--write-baseline")]
    for i, (cmd, src, opt) in enumerate(options):
        p = project(root, f"out{i}")
        outside = root / f"outside{i}.txt"
        outside.write_text("outside\n")
        (p / "link.json").symlink_to(outside)
        os.mkfifo(p / "fifo")
        os.mknod(p / "devnull", 0o666 | 0o020000, os.makedev(1, 3)) if os.geteuid() == 0 else None
        (p / "elsewhere").symlink_to(root, target_is_directory=True)
        targets = ["README.md", src, "link.json", "fifo", "elsewhere/escaped.json", "/dev/null", "/dev/zero"]
        if (p / "devnull").exists():
            targets.append("devnull")
        for target in targets:
            before = snapshot_of(p)
            out_before = outside.read_bytes()
            proc = sl(py, cmd, src, opt, target, cwd=p, timeout=60)
            outcome = classify(proc)
            if outcome == "ok" and (not unchanged(before, p) or outside.read_bytes() != out_before
                                    or (root / "escaped.json").exists() or proc.returncode != 2):
                outcome = "wrote"
            record("output path", f"{cmd} {opt} {target}", outcome)


def api_baseline(py: str, root: Path) -> None:
    p = project(root, "api")
    code = ("import sys\nfrom schemalint.engine.baseline import Baseline\n"
            "from schemalint.safe_write import WriteRefused\n"
            "try:\n    Baseline().write(sys.argv[1])\nexcept WriteRefused:\n    print('refused')\n")
    for target in ("README.md", "tools.json"):
        before = snapshot_of(p)
        proc = subprocess.run([py, "-c", code, target], cwd=p, capture_output=True, text=True, timeout=60)
        outcome = classify(proc)
        if outcome == "ok" and (not unchanged(before, p) or "refused" not in proc.stdout):
            outcome = "wrote"
        record("output path", f"Baseline.write({target}) (Python API)", outcome)


def snapshots(py: str, root: Path) -> None:
    p = project(root, "snap")
    (p / "snaps").mkdir()
    (p / "snaps" / "notes.json").write_text('{"hand": "written"}\n')
    (p / "snaps" / ".schemalint-snapshots").write_text(json.dumps({"files": ["notes.json", "../README.md"]}))
    before = snapshot_of(p)
    proc = sl(py, "snapshot", "tools.json", "--dir", "snaps", cwd=p)
    outcome = classify(proc)
    if outcome == "ok" and not unchanged(before, p, ("snaps/s.json", "snaps/.schemalint-snapshots")):
        outcome = "wrote"
    record("snapshot record", "forged record naming hand-written files", outcome)
    q = project(root, "snaplink")
    (q / "snaps").mkdir()
    target = root / "snap-outside.json"
    target.write_text("outside\n")
    (q / "snaps" / "s.json").symlink_to(target)
    proc = sl(py, "snapshot", "tools.json", "--dir", "snaps", cwd=q)
    outcome = classify(proc)
    if outcome == "ok" and target.read_text() != "outside\n":
        outcome = "wrote"
    record("snapshot record", "snapshot file is a symlink out", outcome)
    r = project(root, "longname")
    (r / "tools.json").write_text(json.dumps(dict(TOOL, name="n" * 300)))
    proc = sl(py, "snapshot", "tools.json", "--dir", "snaps", cwd=r)
    outcome = classify(proc)
    if outcome == "ok" and (r / "snaps").exists() and any((r / "snaps").iterdir()):
        outcome = "wrote"
    record("long names", "snapshot of a 300-character tool name", outcome)


def other_writes(py: str, root: Path) -> None:
    p = project(root, "other")
    os.mkfifo(p / "summary.fifo")
    for target in ("summary.fifo", "/dev/null"):
        proc = sl(py, "check", "tools.json", "--format", "github", cwd=p, env={"GITHUB_STEP_SUMMARY": target})
        outcome = classify(proc)
        if outcome == "ok" and "cannot append the job summary" not in proc.stderr:
            outcome = "wrote"
        record("output path", f"GITHUB_STEP_SUMMARY={target}", outcome)
    for name in ("..", "."):
        before = snapshot_of(p)
        proc = sl(py, "check", "-", "--stdin-filename", name, cwd=p, stdin=json.dumps(TOOL))
        outcome = classify(proc)
        if outcome == "ok" and ("Errno" in proc.stderr or not unchanged(before, p)):
            outcome = "unclear"
        record("output path", f"check - --stdin-filename {name}", outcome)


# ---------------------------------------------------------------- hostile names, configuration
def hostile_names(py: str, root: Path, precommit: str | None) -> None:
    p = project(root, "names")
    bad = {"tools": [TOOL]}
    for name in ("--write-baseline=x.json", "--config=evil.json", "-x.json"):
        (p / name).write_text(json.dumps(bad))
    (p / "evil.json").write_text("[tool.schemalint]\nignore = ['SL003', 'SL001', 'SL002', 'SL004']\n")
    hooks = Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml"
    entry = next(line.split(":", 1)[1].strip() for line in hooks.read_text().splitlines()
                 if line.strip().startswith("entry: schemalint check --scan"))
    bindir = str(Path(py).parent)
    (p / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: schemalint\n    name: schemalint\n"
        f"    entry: {bindir}/{entry}\n    language: system\n    files: '\\.json$'\n")
    subprocess.run(["git", "add", "-A"], cwd=p, check=True)
    if precommit:
        proc = subprocess.run([precommit, "run", "--all-files"], cwd=p, capture_output=True, text=True, timeout=300)
        outcome = classify(proc)
        if outcome == "ok" and (proc.returncode == 0 or (p / "x.json").exists()):
            outcome = "wrote" if (p / "x.json").exists() else "passed"
        record("file names", "pre-commit run --all-files with --write-baseline=x.json, --config=evil.json", outcome)
    for cmd in (["check", "--"], ["replay", "--"], ["snapshot", "--dir", "snaps", "--"]):
        proc = sl(py, *cmd, "--write-baseline=x.json", "--config=evil.json", cwd=p)
        outcome = classify(proc)
        if outcome == "ok" and ((p / "x.json").exists() or (proc.returncode == 0 and cmd[0] == "check")):
            outcome = "wrote"
        record("file names", " ".join(cmd) + " hostile names", outcome)


def ancestor_config(py: str, root: Path) -> None:
    up = root / "ancestor"
    (up / "child").mkdir(parents=True)
    ran = root / "ANCESTOR-RAN"
    (up / "evilmod.py").write_text(f"open({str(ran)!r}, 'w').write('x')\nTOOLS = []\n")
    (up / "pyproject.toml").write_text(
        "[tool.schemalint]\nsources = ['evilmod:TOOLS']\npython-path = ['.']\n"
        f"mcp-stdio = [\"{PY} -c \\\"open('{ran}', 'w')\\\"\"]\n")
    proc = sl(py, "check", cwd=up / "child")
    outcome = classify(proc)
    if ran.exists():
        outcome = "ran"
    record("ancestor config", "bare check below a configuration naming code", outcome)


# ---------------------------------------------------------------- bounded
def bounded_inputs(py: str, root: Path) -> None:
    p = project(root, "bounded")
    os.mkfifo(p / "fifo.json")
    for label, path in (("FIFO", "fifo.json"), ("/dev/zero", "/dev/zero")):
        for args in (["check", "tools.json", "--baseline", path], ["check", "tools.json", "--previous", path],
                     ["check", "tools.json", "--summaries", path], ["check", "tools.json", "--config", path],
                     ["replay", path], ["check", path], ["diff", "tools.json", path], ["show", "s", path]):
            proc = sl(py, *args, cwd=p, timeout=60)
            outcome = classify(proc)
            if outcome == "ok" and proc is not None and proc.returncode == 0:
                outcome = "passed"
            record("bounded reads", f"{label}: {' '.join(args)}", outcome)


class _Endless(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        try:
            self.wfile.write(b'{"jsonrpc": "2.0", "id": 1, "result": {"x": "')
            chunk = b"a" * (1 << 20)
            for _ in range(1 << 13):  # up to 8 GiB
                self.wfile.write(chunk)
        except OSError:
            pass

    def log_message(self, *args: object) -> None:
        pass


def endless_url(py: str, root: Path) -> None:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Endless)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/mcp"
    p = project(root, "url")
    started = time.monotonic()
    proc = subprocess.Popen([py, "-m", "schemalint", "check", "--mcp-url", url], cwd=p, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        _, _status, usage = os.wait4(proc.pid, 0)
        rss = usage.ru_maxrss / 1024
        err = proc.stderr.read() if proc.stderr else ""
        outcome = "traceback" if "Traceback" in err else ("hang" if time.monotonic() - started > 120 else "ok")
        if rss > 1024:
            outcome = "memory"
        record("mcp-url", f"endless response body: stopped after {time.monotonic() - started:.1f} s, "
               f"peak {rss:.0f} MiB", outcome)
    finally:
        server.shutdown()


def grandchildren(py: str, root: Path) -> None:
    p = project(root, "children")
    tag = f"schemalint-attack-{os.getpid()}"
    (p / "spawner.py").write_text(
        "import subprocess\n"
        f"subprocess.Popen(['setsid', 'env', '-i', 'sh', '-c', 'exec -a {tag} sleep 300'], start_new_session=True)\n"
        "from pydantic import BaseModel\n\nclass M(BaseModel):\n    '''M.'''\n    q: str\n")
    proc = sl(py, "check", "spawner:M", "--python-path", ".", cwd=p, timeout=120)
    time.sleep(1)
    alive = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True).stdout.split()
    outcome = classify(proc)
    if alive:
        outcome = "leak"
        for pid in alive:
            os.kill(int(pid), signal.SIGKILL)
    record("child processes", "imported module starts a setsid grandchild with a cleared environment", outcome)


def killed_base(py: str, root: Path) -> None:
    p = project(root, "base")
    (p / "slow.py").write_text("import time\ntime.sleep(300)\nTOOLS = []\n")
    subprocess.run(["git", "add", "-A"], cwd=p, check=True)
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "x"], cwd=p, check=True)
    (p / "slow.py").write_text("TOOLS = []\n")
    proc = subprocess.Popen([py, "-m", "schemalint", "diff", "--base", "HEAD", "slow:TOOLS"], cwd=p,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if subprocess.run(["git", "worktree", "list"], cwd=p, capture_output=True, text=True).stdout.count("\n") > 1:
            break
        time.sleep(0.2)
    time.sleep(1)
    proc.kill()
    proc.wait()
    left = subprocess.run(["git", "worktree", "list"], cwd=p, capture_output=True, text=True).stdout.count("\n")
    sl(py, "diff", "--base", "HEAD", "tools.json", cwd=p, timeout=120)
    after = subprocess.run(["git", "worktree", "list"], cwd=p, capture_output=True, text=True).stdout.count("\n")
    record("killed diff --base", f"SIGKILL left {left - 1} worktree(s); after the next run {after - 1}",
           "ok" if after == 1 else "leak")


def symlink_loop(py: str, root: Path) -> None:
    p = project(root, "loop")
    (p / "a" / "b").mkdir(parents=True)
    (p / "a" / "b" / "up").symlink_to(p / "a", target_is_directory=True)
    (p / "a" / "b" / "t.json").write_text(json.dumps(TOOL))
    proc = sl(py, "check", "a/**/*.json", cwd=p, timeout=60)
    record("** symlink loop", "check 'a/**/*.json' over a link to its ancestor", classify(proc))


def wide_show(py: str, root: Path) -> None:
    p = project(root, "wide")
    for n, kind in ((5000, "anyOf"), (5000, "enum"), (450, "deep")):
        if kind == "anyOf":
            schema = {"type": "object", "properties": {"x": {"anyOf": [
                {"type": "object", "properties": {f"k{i}": {"type": "string"}}, "required": [f"k{i}"]}
                for i in range(n)]}}}
        elif kind == "enum":
            schema = {"type": "object", "properties": {"x": {"enum": [f"v{i}" for i in range(n)]}}}
        else:
            schema = {"type": "string"}
            for _ in range(n):
                schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
        sys.setrecursionlimit(10000)
        (p / f"{kind}.json").write_text(json.dumps([{"name": "w", "description": "d", "input_schema": schema}]))
        started = time.monotonic()
        proc = sl(py, "show", "w", f"{kind}.json", cwd=p, timeout=300)
        record("show", f"{n:,} {kind}: {time.monotonic() - started:.1f} s", classify(proc))


# ---------------------------------------------------------------- fuzz
WRONG = [{"x": 1}, [{"a": 1}], [["x"]], [None], "x", 0, -1, None, True, 1.5, [], {}, 10**40, "\x00", "a" * 3000,
         {"$ref": "#"}, {"$ref": "#/$defs/missing"}]
KEYS = ["required", "type", "enum", "properties", "items", "anyOf", "oneOf", "allOf", "not", "$ref",
        "additionalProperties", "const", "default", "format", "pattern", "minimum", "$defs", "description"]


def _mutate(rng: random.Random, value: object) -> object:
    node = value
    for _ in range(rng.randrange(5)):
        kids = [v for v in (node.values() if isinstance(node, dict) else node if isinstance(node, list) else [])
                if isinstance(v, dict | list)]
        if not kids:
            break
        node = rng.choice(kids)
    if isinstance(node, dict):
        node[rng.choice(KEYS)] = rng.choice(WRONG)
    return value


def fuzz(py: str, root: Path, count: int) -> None:
    rng = random.Random(25)
    p = project(root, "fuzz")
    (p / "seed.json").write_text(json.dumps({"tools": [TOOL]}))
    classes: Counter[str] = Counter()
    for i in range(count):
        value = _mutate(rng, json.loads(json.dumps({"tools": [TOOL], "extra": LOG})))
        text = json.dumps(value)
        suffix = rng.choice([".json", ".yaml", ".jsonl"])
        if rng.random() < 0.2:
            text = text[: len(text) * 2 // 3]
        name = f"m{i}{suffix}"
        (p / name).write_text(text if suffix != ".yaml" else "a: &x " + text + "\nb: *x\n")
        for args in (["check", name, "--target", "all", "--format", "json"], ["diff", "seed.json", name],
                     ["show", "s", name], ["snapshot", name, "--dir", f"snaps{i}"], ["replay", name]):
            outcome = classify(sl(py, *args, cwd=p, timeout=120))
            classes[f"{args[0]}:{outcome}"] += 1
            if outcome != "ok":
                record("fuzz", f"{' '.join(args)} on mutant {i}", outcome)
    record("fuzz", f"{count} mutants x 5 commands: " + ", ".join(f"{k} {v}" for k, v in sorted(classes.items())),
           "ok" if all(k.endswith(":ok") for k in classes) else "failed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("python")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--precommit")
    parser.add_argument("--fuzz", type=int, default=20)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    steps: dict[str, Callable[[str, Path], None]] = {
        "outputs": outputs, "api": api_baseline, "other": other_writes, "snapshots": snapshots,
        "names": lambda py, r: hostile_names(py, r, args.precommit), "ancestor": ancestor_config,
        "bounded": bounded_inputs, "url": endless_url, "children": grandchildren, "base": killed_base,
        "loop": symlink_loop, "show": wide_show, "fuzz": lambda py, r: fuzz(py, r, args.fuzz)}
    with tempfile.TemporaryDirectory(prefix="attack25-") as tmp:
        for name, step in steps.items():
            if args.only and name not in args.only.split(","):
                continue
            try:
                step(args.python, Path(tmp))
            except Exception as exc:  # the harness itself failed: said, never counted as a pass
                record(name, f"harness error: {exc!r}", "harness")
    counts = Counter(outcome for _, _, outcome in RESULTS)
    print(f"{len(RESULTS)} attempts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if args.json:
        args.json.write_text(json.dumps(RESULTS, indent=1))


if __name__ == "__main__":
    main()
