"""Benchmark schemalint against baselines measured in the same run; print ratios and budgets.

usage: python benchmarks/run.py [--runs N] [--sizes 1000,10000] [--corpus PATH] [--keep DIR]

Every figure is the median of N runs (default 5; start-up: at least 15) of a whole
process, printed as a ratio to its baseline together with absolute times (seconds) and
peak resident memory (MiB, from wait4). Commands compared with each other take turns
within each round of runs, so that a shared machine's changing load hits them alike.
Baselines: the floor (benchmarks/floor.py: orjson parse and a pure-Python visit of every
subschema), a bare typer no-op CLI, and `python -c pass`.
The synthetic catalog is deterministic (seeded); nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable
SCHEMALINT = [PY, "-m", "schemalint"]
TOOLS_PER_FILE = 50

WORDS = (
    "alpha", "beta", "gamma", "delta", "region", "account", "project", "dataset", "user", "order",
    "item", "query", "limit", "offset", "page", "filter", "status", "label", "owner", "created",
    "updated", "path", "branch", "commit", "issue", "token", "scope", "format",
)


# ---------------------------------------------------------------- synthetic catalog
def _name(rng: random.Random, n: int = 2) -> str:
    return "_".join(rng.choice(WORDS) for _ in range(n))


def _leaf(rng: random.Random) -> dict:
    kind = rng.randrange(6)
    desc = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 10))).capitalize() + "."
    if kind == 0:
        values = sorted({_name(rng, 1) for _ in range(rng.randint(2, 6))})
        return {"type": "string", "description": desc, "enum": values}
    if kind == 1:
        return {"type": "integer", "description": desc, "minimum": 0, "maximum": rng.randint(10, 1000)}
    if kind == 2:
        return {"type": "boolean", "description": desc, "default": False}
    if kind == 3:
        return {"anyOf": [{"type": "string"}, {"type": "null"}], "description": desc}
    if kind == 4:
        return {"type": "string", "description": desc, "maxLength": 256, "pattern": "^[a-z0-9-]+$"}
    return {"type": "number", "description": desc}


def _object(rng: random.Random, depth: int, max_depth: int, defs: dict | None) -> dict:
    props: dict = {}
    for _ in range(rng.randint(3, 40) if depth == 0 else rng.randint(2, 4)):
        name = _name(rng)
        roll = rng.random()
        if depth < max_depth and roll < 0.06:
            props[name] = _object(rng, depth + 1, max_depth, defs)
        elif depth < max_depth and roll < 0.1:
            props[name] = {"type": "array", "items": _object(rng, depth + 1, max_depth, defs),
                           "description": "A list of entries."}
        elif roll < 0.13 and defs is not None:
            ref = f"Def{len(defs)}"
            defs[ref] = _object(rng, max_depth, max_depth, None)
            props[name] = {"$ref": f"#/$defs/{ref}"}
        else:
            props[name] = _leaf(rng)
    required = sorted(rng.sample(sorted(props), k=rng.randint(0, len(props))))
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


def synthetic_tool(rng: random.Random, index: int) -> dict:
    """One MCP tool with nested objects, arrays of objects, anyOf, $defs/$ref and enums (depth <= 5)."""
    defs: dict = {}
    schema = _object(rng, 0, rng.randint(1, 5), defs)
    if defs:
        schema["$defs"] = defs
    return {"name": f"{_name(rng)}_{index}", "description": " ".join(rng.choice(WORDS) for _ in range(20)) + ".",
            "inputSchema": schema}


def write_catalog(directory: Path, count: int, seed: int = 7, change_every: int | None = None) -> Path:
    """Write ``count`` tools in files of TOOLS_PER_FILE (JSON, indent 1: about 6.5 KB a tool);
    ``change_every`` alters every Nth tool (100: 1% of the tools, each in a different place)."""
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    tools = [synthetic_tool(rng, i) for i in range(count)]
    if change_every:
        for i in range(0, count, change_every):
            schema = tools[i]["inputSchema"]
            first = next(iter(schema["properties"]))
            schema["required"] = sorted({*schema["required"], first})
            tools[i]["description"] += " Changed."
    for start in range(0, count, TOOLS_PER_FILE):
        chunk = {"tools": tools[start:start + TOOLS_PER_FILE]}
        (directory / f"tools_{start // TOOLS_PER_FILE:05d}.json").write_text(json.dumps(chunk, indent=1))
    return directory


def write_one_tool_files(directory: Path, count: int, seed: int = 11) -> Path:
    """Write ``count`` one-tool MCP files (``tool_NNNNNN.json``, one tool object each) in
    subdirectories of 1,000: a registry's layout of servers with one tool."""
    rng = random.Random(seed)
    for i in range(count):
        sub = directory / f"{i // 1000:04d}"
        if i % 1000 == 0:
            sub.mkdir(parents=True, exist_ok=True)
        (sub / f"tool_{i:06d}.json").write_text(json.dumps(synthetic_tool(rng, i), indent=1))
    return directory


def write_jsonl(path: Path, count: int, seed: int = 13) -> Path:
    """Write ``count`` MCP tools as JSON Lines, one compact tool object a line (1,000 distinct tools
    generated, repeated under distinct names so that a million tools take minutes, not hours)."""
    rng = random.Random(seed)
    base = [synthetic_tool(rng, i) for i in range(min(count, 1000))]
    with path.open("w") as out:
        for i in range(count):
            tool = dict(base[i % len(base)])
            tool["name"] = f"{tool['name'].rsplit('_', 1)[0]}_{i}"
            out.write(json.dumps(tool, separators=(",", ":")) + "\n")
    return path


def generate(directory: Path, count: int, change_every: int | None = None, against: Path | None = None) -> int:
    """Write the catalog in a child process (so that this process stays small: Linux counts the
    parent's resident memory at fork in a child's peak) and return how many tools differ from
    the catalog in ``against`` (0 without it)."""
    cmd = [PY, str(Path(__file__).resolve()), "--generate", str(directory), str(count), str(change_every or 0)]
    if against is not None:
        cmd.append(str(against))
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return int(out.strip() or 0)


def write_huge_document(path: Path, count: int, seed: int = 17) -> Path:
    """Write ``count`` MCP tools as one JSON document ``{"tools": [...]}`` (indent 1, about 6 KB a tool;
    1,000 distinct tools repeated under distinct names, as :func:`write_jsonl`), one tool at a time."""
    rng = random.Random(seed)
    base = [synthetic_tool(rng, i) for i in range(min(count, 1000))]
    with path.open("w") as out:
        out.write('{"tools": [\n')
        for i in range(count):
            tool = dict(base[i % len(base)])
            tool["name"] = f"{tool['name'].rsplit('_', 1)[0]}_{i}"
            out.write(("" if i == 0 else ",\n") + json.dumps(tool, indent=1))
        out.write("\n]}\n")
    return path


def _generate_main(argv: list[str]) -> None:
    if argv[0] == "--huge-document":
        write_huge_document(Path(argv[1]), int(argv[2]))
        return
    if argv[0] in ("--one-tool-files", "--jsonl"):
        (write_one_tool_files if argv[0] == "--one-tool-files" else write_jsonl)(Path(argv[1]), int(argv[2]))
        return
    directory, count, every = Path(argv[0]), int(argv[1]), int(argv[2]) or None
    write_catalog(directory, count, change_every=every)
    if len(argv) > 3:
        def tools(d: Path) -> list[str]:
            return [json.dumps(t, sort_keys=True) for f in sorted(d.iterdir())
                    for t in json.loads(f.read_text())["tools"]]

        print(sum(a != b for a, b in zip(tools(Path(argv[3])), tools(directory), strict=True)))


# ---------------------------------------------------------------- measuring
def run_once(cmd: list[str], cwd: Path | None = None, env: dict[str, str] | None = None) -> tuple[float, float, int]:
    """Run ``cmd`` (with ``env`` added to the environment); return (seconds, peak RSS MiB, exit code)."""
    with tempfile.TemporaryFile() as err_file:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err_file, cwd=cwd,
                                env={**os.environ, **env} if env else None)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        err = err_file.read().decode(errors="replace")
    code = proc.returncode
    if code not in (0, 1):
        raise SystemExit(f"command failed ({code}): {' '.join(cmd)}\n{err[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, code


def median_run(cmd: list[str], runs: int, cwd: Path | None = None) -> tuple[float, float]:
    """Median seconds and median peak MiB over ``runs`` runs (after one warm-up run)."""
    return median_runs([cmd], runs, cwd)[0]


def median_runs(cmds: list[list[str]], runs: int, cwd: Path | None = None) -> list[tuple[float, float]]:
    """Median (seconds, peak MiB) of each command over ``runs`` rounds, the commands taking turns
    within each round (after one warm-up round): on a shared machine a change of load then
    hits a command and its baseline alike, and their ratio stays meaningful."""
    for cmd in cmds:
        run_once(cmd, cwd)
    samples: list[list[tuple[float, float, int]]] = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            samples[i].append(run_once(cmd, cwd))
    return [(statistics.median(s[0] for s in got), statistics.median(s[1] for s in got)) for got in samples]


HEAVY = ("pydantic", "deepdiff", "hypothesis", "mcp", "jsonschema", "jsonschema_rs", "referencing",
         "jsonschema_specifications", "rich", "yaml")


def heavy_imports(cmd: list[str]) -> str:
    """The heavy top-level packages ``cmd`` (a ``python ...`` command) imports, from ``-X importtime``."""
    proc = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], capture_output=True, text=True)
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    found = [h for h in HEAVY if h in names]
    return ", ".join(found) or "none of " + "/".join(HEAVY[:4])


class Table:
    """Collects rows and budget verdicts; prints them aligned."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float, float, str, float]] = []
        self.budgets: list[tuple[str, float, float, bool]] = []

    def add(self, label: str, secs: float, mib: float, baseline: str, ratio: float, note: str = "") -> None:
        self.rows.append((label, secs, mib, baseline, ratio))
        print(f"  {label:<44} {secs:8.3f} s {mib:8.1f} MiB  {ratio:6.2f}x {baseline}"
              + (f"  [{note}]" if note else ""), flush=True)

    def add_memory(self, label: str, mib: float, base_mib: float, baseline: str = "floor memory") -> None:
        self.rows.append((label, 0.0, mib, baseline, mib / base_mib))
        print(f"  {label:<44} {'':>10} {mib:8.1f} MiB  {mib / base_mib:6.2f}x {baseline}", flush=True)

    def budget(self, label: str, ratio: float, limit: float) -> None:
        self.budgets.append((label, ratio, limit, ratio <= limit))

    def print_budgets(self) -> int:
        print("\nbudgets (the ratios are the contract):")
        failed = 0
        for label, ratio, limit, ok in self.budgets:
            failed += not ok
            print(f"  {'PASS' if ok else 'FAIL'}  {label:<58} {ratio:6.2f}x  (limit {limit:g}x)")
        return failed


MEMORY_LIMIT_MIB = 300
"""The goal for peak memory at scale (issue 19): a directory of one-tool files and JSON Lines
catalogs of 100,000 and 1,000,000 tools."""


def memory_rows(table: Table, work: Path, sizes: list[int], keep: bool, before: str | None = None) -> None:
    """Peak memory (one run each: memory does not vary with load) of ``check --format jsonl`` on a
    directory of ``n`` one-tool files (up to 100,000) and on a JSON Lines catalog of ``n`` tools,
    for each ``n`` of ``sizes``, with PASS/FAIL against :data:`MEMORY_LIMIT_MIB`; the floor is
    ``before``: a source tree of an earlier schemalint (``git archive REV | tar -x -C DIR``), run the
    same way first (``PYTHONPATH``), for a before/after row."""
    print("\npeak memory at scale (one run each; --format jsonl, default --jobs):")
    for n in sizes:
        cases = []
        if n <= 100_000:
            directory = work / f"one-tool-files-{n}"
            if not (keep and directory.is_dir()):
                shutil.rmtree(directory, ignore_errors=True)
                subprocess.run([PY, str(Path(__file__).resolve()), "--generate", "--one-tool-files",
                                str(directory), str(n)], check=True)
            cases.append((f"{n} one-tool files", directory))
        catalog = work / f"catalog-{n}.jsonl"
        if not (keep and catalog.is_file()):
            subprocess.run([PY, str(Path(__file__).resolve()), "--generate", "--jsonl", str(catalog), str(n)],
                           check=True)
        cases.append((f"JSON Lines, {n} tools ({catalog.stat().st_size / 1e6:.0f} MB)", catalog))
        for label, source in cases:
            if before:
                secs, mib, _ = run_once([*SCHEMALINT, "check", str(source), "--format", "json"], cwd=work,
                                        env={"PYTHONPATH": before})
                table.add(f"before: check {label}", secs, mib, "MiB limit", mib / MEMORY_LIMIT_MIB)
            secs, mib, _ = run_once([*SCHEMALINT, "check", str(source), "--format", "jsonl"])
            table.add(f"check {label}", secs, mib, "MiB limit", mib / MEMORY_LIMIT_MIB)
            table.budget(f"peak memory of check on {label} <= {MEMORY_LIMIT_MIB} MiB", mib / MEMORY_LIMIT_MIB, 1.0)


def one_document_rows(table: Table, work: Path, base: Path, size: int, runs: int, floor_cmd: list[str]) -> None:
    """The catalog ``base`` gathered into one JSON document: ``--jobs 1`` and ``--jobs 2`` against
    the floor (the workers share the document's tools)."""
    one = work / f"one{size}"
    one.mkdir(exist_ok=True)
    if not (one / "tools.json").is_file():  # in a child: a parent this large would inflate every later peak
        subprocess.run([PY, "-c", "import json, pathlib, sys; base, out = map(pathlib.Path, sys.argv[1:]); "
                        "tools = [t for f in sorted(base.iterdir()) for t in json.loads(f.read_text())['tools']]; "
                        "out.write_text(json.dumps({'tools': tools}, indent=1))", str(base), str(one / "tools.json")],
                       check=True)
    print(f"\none JSON document of {size} tools:")
    _jobs_rows(table, [*floor_cmd, str(one)], one, "json", runs)


def _jobs_rows(table: Table, floor: list[str], catalog: Path, fmt: str, runs: int) -> float:
    """Rows of the floor command ``floor`` and of ``check catalog --format fmt`` with one and two
    jobs, interleaved; returns ``--jobs 2``'s ratio to the floor."""
    (floor_s, floor_mem), (check1, mem1), (check2, mem2) = median_runs([
        floor, *([*SCHEMALINT, "check", str(catalog), "--format", fmt, "--jobs", jobs] for jobs in ("1", "2")),
    ], runs)
    table.add("floor (orjson parse + visit)", floor_s, floor_mem, "floor", 1.0)
    table.add("schemalint check --jobs 1", check1, mem1, "floor", check1 / floor_s)
    table.add("schemalint check --jobs 2", check2, mem2, "floor", check2 / floor_s, f"{check2 / check1:.2f}x --jobs 1")
    return check2 / floor_s


def jobs_jsonl_rows(table: Table, work: Path, count: int, runs: int, floor_cmd: list[str]) -> None:
    """A JSON Lines catalog of ``count`` tools (the streaming route): ``--jobs 1`` and ``--jobs 2``
    against the serial floor (issue 19: ``--jobs`` on two cores <= 1.0x the serial floor)."""
    catalog = work / f"jobs-{count}.jsonl"
    if not catalog.is_file():
        write_jsonl(catalog, count)
    floor_dir = work / f"jobs-{count}-floor"  # floor.py reads *.json: the same bytes under that name
    floor_dir.mkdir(exist_ok=True)
    if not (floor_dir / "catalog.json").exists():
        (floor_dir / "catalog.json").symlink_to(catalog)
    size = catalog.stat().st_size
    print(f"\nJSON Lines catalog of {count} tools ({size / 1e6:.0f} MB{', streamed' if size > 32 * 2**20 else ''}):")
    ratio = _jobs_rows(table, [*floor_cmd, str(floor_dir)], catalog, "jsonl", runs)
    table.budget(f"check --jobs 2 on {count} JSON Lines tools vs the serial floor", ratio, 1.0)


def _cpu_once(cmd: list[str], env: dict[str, str] | None = None, tolerate: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree: user + sys from wait4) of one run of ``cmd``;
    with ``tolerate`` (a peer), a failed run gives NaN instead of stopping the benchmark."""
    start = time.perf_counter()
    # run outside the source tree: `python -m schemalint` puts the working directory first on sys.path,
    # ahead of PYTHONPATH, so from the tree's root --before and --after would run the tree itself
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir(),
                            env={**os.environ, **env} if env else None)
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        if tolerate:
            print(f"  (failed, exit {code}: {' '.join(cmd)[:120]})", flush=True)
            return float("nan"), float("nan")
        raise SystemExit(f"command failed ({code}): {' '.join(cmd)}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def issue33_rows(work: Path, corpus: Path, repos: Path, runs: int, before: str | None, peers: bool,
                 after: str | None = None, only: str = "", synthetic_tools: int = 10_000, warmup: bool = True) -> None:
    """Issue 33's table: on the corpus as its own files, the corpus as one catalog, 10,000 synthetic
    tools as one file and a repository tree, the floor, ``check`` (default jobs and ``--jobs 1``),
    ``before`` (an earlier source tree run with ``PYTHONPATH``: ``--jobs 1`` and its default jobs) and the peers that
    can run here (benchmarks/peers.py), all interleaved within each round; medians of wall time, and
    of CPU time (user + sys of the process tree, which a loaded machine inflates less). ``after``: a
    source tree to run as "check" instead of this one (so that the tree can change meanwhile);
    ``only``: the inputs whose label holds one of these comma-separated words; ``synthetic_tools``: the
    size of the synthetic catalog (10,000 make 65 MB, which a loaded machine may not get through).
    The word ``startup`` in ``only`` (or no ``only``) adds the hook's start-up (:func:`startup33_rows`);
    ``warmup`` False skips the warm-up round (CPU time hardly needs one, and a loaded machine may not
    give the time for it)."""
    sys.path.insert(0, str(HERE))
    import peers as peer_commands

    floor = [PY, str(HERE / "floor.py")]
    inputs: list[tuple[str, Path, Path, bool]] = []  # (label, target, floor root, one file)
    if corpus.is_dir():
        inputs.append(("the corpus as its own files", corpus, corpus, False))
        catalog = work / "corpus-catalog"
        if not (catalog / "tools.json").is_file():
            catalog.mkdir(parents=True, exist_ok=True)
            subprocess.run([PY, "-c", "import json, sys; from schemalint.engine import load; "
                            "tools = [t.raw for t in load([sys.argv[1]]).tools if isinstance(t.raw, dict)]; "
                            "open(sys.argv[2], 'w').write(json.dumps({'tools': tools}, indent=1, ensure_ascii=False))",
                            str(corpus), str(catalog / "tools.json")], check=True)
        inputs.append(("the corpus as one catalog", catalog / "tools.json", catalog, True))
    synthetic = work / f"one{synthetic_tools}"
    if not (synthetic / "tools.json").is_file():
        base = work / f"cat{synthetic_tools}"
        if not base.is_dir():
            generate(base, synthetic_tools)
        one_document_rows_prepare(base, synthetic)
    inputs.append((f"{synthetic_tools:,} synthetic tools, one file", synthetic / "tools.json", synthetic, True))
    if repos.is_dir():
        inputs.append(("a repository tree (../shared/repos)", repos, repos, False))
    wanted = [w for w in only.split(",") if w]
    if not wanted or "startup" in wanted:
        startup33_rows(work, max(runs, 9), after, before)
    for label, target, floor_root, one_file in inputs:
        if wanted and not any(w in label for w in wanted):
            continue
        mine = {"PYTHONPATH": after} if after else None
        cmds: dict[str, tuple[list[str], dict[str, str] | None]] = {"floor": ([*floor, str(floor_root)], None)}
        cmds["check"] = ([*SCHEMALINT, "check", str(target), "--format", "json"], mine)
        cmds["check --jobs 1"] = ([*SCHEMALINT, "check", str(target), "--format", "json", "--jobs", "1"], mine)
        if before:
            cmds["before: check --jobs 1"] = (cmds["check --jobs 1"][0], {"PYTHONPATH": before})
            cmds["before: check"] = (cmds["check"][0], {"PYTHONPATH": before})
        if peers:
            for name, cmd in peer_commands.commands(work, target, one_file).items():
                cmds[name] = (cmd, None)
        samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
        peer_names = set(cmds) - {"floor", "check", "check --jobs 1", "before: check --jobs 1", "before: check"}
        load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        for k, (cmd, env) in cmds.items():  # warm-up
            if warmup:
                _cpu_once(cmd, env, k in peer_names)
        for _ in range(runs):
            for k, (cmd, env) in cmds.items():
                samples[k].append(_cpu_once(cmd, env, k in peer_names))
        wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
        cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        size = sum(f.stat().st_size for f in ([target] if target.is_file() else target.rglob("*")) if f.is_file())
        print(f"\n{label} ({size / 1e6:.1f} MB; median of {runs} interleaved runs; load {load_start:.1f} at the "
              f"start, {load:.1f} at the end):")
        print(f"  {'command':<34} {'wall s':>8} {'x floor':>8} {'CPU s':>8} {'x floor':>8}")
        for k in cmds:
            print(f"  {k:<34} {wall[k]:8.3f} {wall[k] / wall['floor']:7.2f}x "
                  f"{cpu[k]:8.3f} {cpu[k] / cpu['floor']:7.2f}x")
        for k in ("check --jobs 1", "check") if before else ():
            print(f"  after / before, {k}: wall {wall[k] / wall['before: ' + k]:.2f}, "
                  f"CPU {cpu[k] / cpu['before: ' + k]:.2f}", flush=True)


def startup33_rows(work: Path, runs: int, after: str | None = None, before: str | None = None) -> None:
    """The hook's start-up against a bare typer CLI (issue 33: <= 1.0x): a typer app with one
    command, ``python -m schemalint check`` on one small file, the pre-commit hook's command line
    (``check --scan -- FILE``), ``check --fail-on error`` on the same file (typer parses it: see
    :func:`schemalint.cli._plain_check`), ``--version`` and ``--help``, interleaved (``runs`` rounds
    after a warm-up round); medians of wall time and of CPU time (user + sys of the process, which a
    loaded machine inflates less), as ratios to the typer app's; ``before``: an earlier source tree's
    ``check`` on the same file too. The measured trees' bytecode is compiled first, as an installed
    wheel's is (with ``PYTHONDONTWRITEBYTECODE`` set, every run would compile schemalint's modules
    again: 1.7x instead of 1.1x before the plain route)."""
    noop = work / "typer_one_command.py"
    noop.write_text("import typer\napp = typer.Typer()\n@app.command()\ndef main(path: str = '') -> None:\n"
                    "    pass\napp()\n")
    small = ROOT / "examples" / "mcp" / "get_me.snap"
    mine = {"PYTHONPATH": after} if after else None
    for tree in (after or str(ROOT), *([before] if before else [])):
        subprocess.run([PY, "-m", "compileall", "-q", str(Path(tree) / "schemalint")], check=True,
                       stdout=subprocess.DEVNULL)
    cmds: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "bare typer CLI, one command": ([PY, str(noop)], None),
        "schemalint check (one small file)": ([*SCHEMALINT, "check", str(small)], mine),
        "the hook: check --scan -- FILE": ([*SCHEMALINT, "check", "--scan", "--", str(small)], mine),
        "check --fail-on error FILE (typer)": ([*SCHEMALINT, "check", "--fail-on", "error", str(small)], mine),
        "schemalint --version": ([*SCHEMALINT, "--version"], mine),
        "schemalint --help": ([*SCHEMALINT, "--help"], mine),
    }
    if before:
        cmds["before: check (one small file)"] = ([*SCHEMALINT, "check", str(small)], {"PYTHONPATH": before})
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in cmds}
    for cmd, env in cmds.values():  # warm-up
        _cpu_once(cmd, env)
    for _ in range(runs):
        for k, (cmd, env) in cmds.items():
            samples[k].append(_cpu_once(cmd, env))
    wall = {k: statistics.median(s[0] for s in v) for k, v in samples.items()}
    cpu = {k: statistics.median(s[1] for s in v) for k, v in samples.items()}
    base = "bare typer CLI, one command"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nstart-up (median of {runs} interleaved runs; load {load:.1f}):")
    print(f"  {'command':<34} {'wall s':>8} {'x typer':>8} {'CPU s':>8} {'x typer':>8}")
    for k in cmds:
        print(f"  {k:<34} {wall[k]:8.3f} {wall[k] / wall[base]:7.2f}x {cpu[k]:8.3f} {cpu[k] / cpu[base]:7.2f}x")
    ratio = cpu["schemalint check (one small file)"] / cpu[base]
    print(f"  {'PASS' if ratio <= 1.0 else 'FAIL'}  check on one small file vs a bare typer CLI (CPU): {ratio:.2f}x "
          "(limit 1.0x)", flush=True)


def one_document_rows_prepare(base: Path, one: Path) -> None:
    """The catalog ``base`` gathered into one JSON document ``one/tools.json`` (in a child process)."""
    one.mkdir(parents=True, exist_ok=True)
    subprocess.run([PY, "-c", "import json, pathlib, sys; base, out = map(pathlib.Path, sys.argv[1:]); "
                    "tools = [t for f in sorted(base.iterdir()) for t in json.loads(f.read_text())['tools']]; "
                    "out.write_text(json.dumps({'tools': tools}, indent=1))", str(base), str(one / "tools.json")],
                   check=True)


def huge_document_row(work: Path, count: int) -> int:
    """Peak memory (``ru_maxrss`` of the child, from ``wait4``) and time of ``check --format jsonl`` on
    one JSON document of ``count`` synthetic tools (about 6 KB each: 100,000 make about 600 MB, above
    the 256 MiB in-memory read limit, so the document is streamed part by part); the document is
    deleted afterwards. Returns 1 when the peak is above :data:`MEMORY_LIMIT_MIB`."""
    path = work / f"huge-{count}.json"
    subprocess.run([PY, str(Path(__file__).resolve()), "--generate", "--huge-document", str(path), str(count)],
                   check=True)
    try:
        size = path.stat().st_size
        secs, mib, _ = run_once([*SCHEMALINT, "check", str(path), "--format", "jsonl"])
        print(f"\none JSON document of {count:,} tools ({size / 1e6:.0f} MB): check --format jsonl {secs:.1f} s, "
              f"peak RSS {mib:.0f} MiB ({'PASS' if mib <= MEMORY_LIMIT_MIB else 'FAIL'}, limit {MEMORY_LIMIT_MIB} MiB)")
        return int(mib > MEMORY_LIMIT_MIB)
    finally:
        path.unlink(missing_ok=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--keep", help="write the synthetic catalogs here and keep them (reused when present)")
    parser.add_argument("--skip-startup", action="store_true", help="skip the start-up rows")
    parser.add_argument("--memory", default="",
                        help="also measure peak memory at scale: comma-separated sizes of a directory of one-tool "
                             "files and of a JSON Lines catalog (e.g. 100000,1000000); one run each")
    parser.add_argument("--only-memory", action="store_true", help="run only the --memory rows")
    parser.add_argument("--jobs-jsonl", type=int, default=0, metavar="N",
                        help="also time check --jobs 1 and --jobs 2 against the serial floor on a JSON Lines "
                             "catalog of N tools (issue 19: N = 100000)")
    parser.add_argument("--before", help="source tree of an earlier schemalint for before/after memory rows "
                        "(git archive REV | tar -x -C DIR)")
    parser.add_argument("--editor", default="", metavar="MB,MB",
                        help="also time the language server (open and change to diagnostics) on catalogs of "
                             "these sizes in MB against check on the same file (issue 31: 1,20)")
    parser.add_argument("--issue33", action="store_true",
                        help="only issue 33's table: corpus files, corpus catalog, 10,000 synthetic tools in one file, "
                             "a repository tree; floor, check, --before, peers; interleaved (wall and CPU)")
    parser.add_argument("--repos", default=str(ROOT.parent / "shared" / "repos"))
    parser.add_argument("--no-warmup", action="store_true", help="with --issue33: no warm-up round")
    parser.add_argument("--synthetic", type=int, default=10_000, metavar="N",
                        help="with --issue33: the number of synthetic tools in the one-file input (default 10000)")
    parser.add_argument("--after", help="with --issue33: the source tree to measure as check (git archive REV)")
    parser.add_argument("--only", default="", help="with --issue33: comma-separated words of the inputs to run "
                        "(files, catalog, synthetic, repository, startup)")
    parser.add_argument("--peers", action="store_true", help="with --issue33: the peers of benchmarks/peers.py "
                        "(put check-jsonschema and spectral on PATH, or set CHECK_JSONSCHEMA and SPECTRAL)")
    parser.add_argument("--huge-document", type=int, default=0, metavar="N",
                        help="only the peak memory of check on one JSON document of N tools (100000: ~600 MB)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="schemalint-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    table = Table()
    floor_cmd = [PY, str(HERE / "floor.py")]
    # Start-up as installed: pip writes bytecode, but PYTHONDONTWRITEBYTECODE may be set here.
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "schemalint")], check=False,
                   stdout=subprocess.DEVNULL)
    try:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load:.2f}, "
              f"median of {args.runs} runs (seconds, peak RSS)\n")
        if args.huge_document:
            return huge_document_row(work, args.huge_document)
        if args.issue33:
            issue33_rows(work, Path(args.corpus), Path(args.repos), args.runs, args.before, args.peers, args.after,
                         args.only, args.synthetic, not args.no_warmup)
            return 0
        if args.memory:
            memory_rows(table, work, [int(n) for n in args.memory.split(",")], args.keep is not None, args.before)
            if args.only_memory:
                return table.print_budgets()
        if not args.skip_startup:
            noop = work / "noop_cli.py"
            noop.write_text("import typer\napp = typer.Typer()\n@app.command()\ndef main() -> None:\n    pass\n"
                            "app()\n")
            small = ROOT / "examples" / "mcp" / "get_me.snap"
            version_cmd = [*SCHEMALINT, "--version"]
            one_cmd = [*SCHEMALINT, "check", str(small)]
            script = Path(PY).with_name("schemalint")  # the installed console script, as users run it
            script_cmd = [str(script), "check", str(small)] if script.is_file() else None
            startup = [[PY, "-c", "pass"], [PY, str(noop)], version_cmd, one_cmd] + ([script_cmd] if script_cmd else [])
            measured = median_runs(startup, max(args.runs, 15))  # short runs: more of them
            (bare, bare_mem), (typer_noop, typer_mem), (version, version_mem), (one, one_mem) = measured[:4]
            print(f"start-up (median of {max(args.runs, 15)} interleaved runs):")
            table.add("python -c pass", bare, bare_mem, "python -c pass", 1.0)
            table.add("typer no-op CLI", typer_noop, typer_mem, "python -c pass", typer_noop / bare,
                      "imports " + heavy_imports([PY, str(noop)]))
            table.add("schemalint --version", version, version_mem, "typer no-op", version / typer_noop,
                      "imports " + heavy_imports(version_cmd))
            table.add("schemalint check (one small file)", one, one_mem, "typer no-op", one / typer_noop,
                      "imports " + heavy_imports(one_cmd))
            table.budget("check on one small file vs typer no-op CLI", one / typer_noop, 1.2)
            if script_cmd:
                script_time, script_mem = measured[4]
                table.add("console script check (one small file)", script_time, script_mem, "typer no-op",
                          script_time / typer_noop)
                table.budget("console script check on one small file vs typer no-op CLI",
                             script_time / typer_noop, 1.2)

        if args.editor:
            from editor import editor_rows

            print("language server (median of the runs; the change row includes the debounce):")
            editor_rows([float(mb) for mb in args.editor.split(",")], args.runs, work)
        if args.jobs_jsonl:
            jobs_jsonl_rows(table, work, args.jobs_jsonl, args.runs, floor_cmd)
        times: dict[int, float] = {}
        for size in sizes:
            base, changed = work / f"cat{size}", work / f"cat{size}-changed"
            if not (args.keep and base.is_dir() and changed.is_dir()):
                shutil.rmtree(base, ignore_errors=True)
                shutil.rmtree(changed, ignore_errors=True)
                generate(base, size)
                generate(changed, size, change_every=100)
            n_changed = generate(work / "verify-changed", size, change_every=100, against=base)
            shutil.rmtree(work / "verify-changed", ignore_errors=True)
            mb = sum(f.stat().st_size for f in base.iterdir()) / 1e6
            print(f"\n{size} synthetic tools ({mb:.1f} MB, {mb * 1e3 / size:.1f} KB a tool; "
                  f"{n_changed} tools = {100 * n_changed / size:.1f}% differ in the changed copy):")
            snapdir = work / f"snap{size}"
            shutil.rmtree(snapdir, ignore_errors=True)
            run_once([*SCHEMALINT, "snapshot", str(base), "--dir", str(snapdir)])
            rows = median_runs([
                [*floor_cmd, str(base)],
                [*floor_cmd, "--hold", str(base)],
                [*SCHEMALINT, "check", str(base), "--format", "json"],
                [*SCHEMALINT, "check", str(base), "--format", "json", "--jobs", "1"],
                [*floor_cmd, str(base), str(changed)],
                [*SCHEMALINT, "diff", str(base), str(changed), "--format", "json", "--fail-on", "never"],
                [*SCHEMALINT, "snapshot", str(base), "--dir", str(snapdir), "--check"],
            ], args.runs)
            (floor, floor_mem), (_, hold_mem), (check, check_mem), (check1, check1_mem) = rows[:4]
            (floor2, floor2_mem), (diff, diff_mem), (snap, snap_mem) = rows[4:]
            table.add("floor (orjson parse + visit)", floor, floor_mem, "floor", 1.0)
            table.add_memory("floor holding every parsed file", hold_mem, floor_mem)
            table.add("schemalint check (default --jobs)", check, check_mem, "floor", check / floor)
            table.add_memory("  peak memory of check", check_mem, hold_mem, "floor holding the files")
            times[size] = check1
            table.add("schemalint check --jobs 1", check1, check1_mem, "floor", check1 / floor)
            if size == max(sizes):
                table.budget(f"check on {size} tools vs floor", check / floor, 1.5)
                table.budget(f"check --jobs 1 on {size} tools vs floor", check1 / floor, 1.5)
                table.budget(f"check peak memory on {size} tools vs floor holding the files",
                             check_mem / hold_mem, 3.0)
            table.add("floor of parsing both catalogs", floor2, floor2_mem, "floor x2", 1.0)
            table.add("schemalint diff (1% of tools changed)", diff, diff_mem, "floor x2", diff / floor2)
            if size == max(sizes):
                table.budget(f"diff of two {size}-tool catalogs vs parsing both", diff / floor2, 1.2)
                table.budget(f"snapshot --check of {size} tools vs floor", snap / floor, 1.5)
            table.add("schemalint snapshot --check", snap, snap_mem, "floor", snap / floor)
            if size == max(sizes):
                one_document_rows(table, work, base, size, args.runs, floor_cmd)
        if len(sizes) >= 2:
            lo, hi = min(sizes), max(sizes)
            ratio = times[hi] / times[lo]
            print(f"\ngrowth: check --jobs 1 on {hi} tools takes {ratio:.2f}x the time of {lo} tools")
            table.budget(f"check time {hi} tools / {lo} tools (linear: <= {hi / lo * 1.1:g})", ratio, hi / lo * 1.1)
        corpus = Path(args.corpus)
        if corpus.is_dir():
            mb = sum(f.stat().st_size for f in corpus.rglob("*") if f.is_file()) / 1e6
            print(f"\nreal corpus ({corpus}, {mb:.1f} MB):")
            rows = median_runs([
                [*floor_cmd, str(corpus)],
                [*floor_cmd, "--hold", str(corpus)],
                [*SCHEMALINT, "check", str(corpus), "--format", "json"],
                *([*SCHEMALINT, "check", str(corpus), "--target", "all", "--format", "json", "--jobs", jobs]
                  for jobs in ("1", "2")),
            ], args.runs)
            (floor, floor_mem), (_, hold_mem), (check, check_mem) = rows[:3]
            table.add("floor (orjson parse + visit)", floor, floor_mem, "floor", 1.0)
            table.add_memory("floor holding every parsed file", hold_mem, floor_mem)
            table.add("schemalint check", check, check_mem, "floor", check / floor)
            table.add_memory("  peak memory of check", check_mem, hold_mem, "floor holding the files")
            for jobs, (full, full_mem) in zip(("1", "2"), rows[3:], strict=True):
                table.add(f"check --target all --jobs {jobs} (84k findings)", full, full_mem, "floor", full / floor)
        return table.print_budgets()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--generate":
        _generate_main(sys.argv[2:])
        sys.exit(0)
    sys.exit(1 if main() else 0)
