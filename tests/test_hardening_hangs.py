"""Hangs and runaway cost from hostile input (issue 18): each attack input is generated here, and
each run is a subprocess with a timeout, at a size that took minutes (or never ended) before.

Figures measured on the 2-core development machine, before -> after (seconds):
30,000 same-named tools: quadratic fingerprinting (8,000 took 27 s) -> 2; a 10 MB minified catalog
with 20,000 findings: 40 -> 3; SL201 on 10,000 properties with a mention each: 328 (loaded) -> 2;
``(a+)+$`` against 40 ``a`` and ``!``: never (28 characters: 32 s, doubling per character) -> 0.4.
The limits are CPU seconds of the run (``RLIMIT_CPU``), which other load on the machine does not
stretch: on an idle machine they are as strict as the wall-clock timeouts they replace (a
one-threaded run's CPU time is at most its wall time), and far below the old times. A hang that
uses no CPU (a blocking read of a FIFO) is caught by a wall-clock limit, :data:`HANG_SECONDS`.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

CPU_SECONDS = 90
"""Per case, CPU seconds: the fixed code takes a few (7 s for SL201 on 10,000 properties on a loaded
machine); the old code took minutes or never ended."""

HANG_SECONDS = 300.0
"""Wall-clock seconds a run may take at all: a hang that uses no CPU fails here; a slow but
working run on a loaded machine (two pytest-xdist workers and other load on 2 cores: SL201 took
33 s of wall time for 7 s of CPU) does not."""


def run_cli(*args: str, cwd: Path | None = None, timeout: float = CPU_SECONDS) -> subprocess.CompletedProcess[str]:
    """``python -m schemalint ARGS`` in a subprocess that may use ``timeout`` seconds of CPU (its
    ``RLIMIT_CPU``: the kernel stops it with SIGXCPU past that) and :data:`HANG_SECONDS` of wall
    time; fails the test when either is exceeded."""
    import resource
    import signal

    seconds = max(1, round(timeout))
    with subprocess.Popen([sys.executable, "-m", "schemalint", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, cwd=cwd or ROOT) as child:
        # set after the start (no preexec_fn in a threaded process); the CPU it used before counts too
        with contextlib.suppress(ProcessLookupError):  # already ended
            resource.prlimit(child.pid, resource.RLIMIT_CPU, (seconds, seconds + 5))  # soft: SIGXCPU; hard: SIGKILL
        try:
            out, err = child.communicate(timeout=HANG_SECONDS)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
            pytest.fail(f"schemalint {' '.join(args)[:200]} did not end within {HANG_SECONDS:g} s of wall time "
                        "(a hang)")
    proc = subprocess.CompletedProcess(child.args, child.returncode, out, err)
    if proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        pytest.fail(f"schemalint {' '.join(args)[:200]} used more than {timeout:g} s of CPU (stopped by RLIMIT_CPU)")
    return proc


def _json_run(*args: str, cwd: Path | None = None, timeout: float = CPU_SECONDS) -> tuple[int, dict, str]:
    """``check ARGS --format json`` through :func:`run_cli` (``timeout``: CPU seconds)."""
    proc = run_cli(*args, "--format", "json", cwd=cwd, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, json.loads(proc.stdout), proc.stderr


def _codes(report: dict) -> list[str]:
    return [d["code"] for d in report["diagnostics"]]


# ------------------------------------------------------------------ quadratic paths


def test_thirty_thousand_tools_sharing_one_name(tmp_path: Path) -> None:
    tool = {"name": "s", "description": "Search.", "inputSchema": {"type": "object"}}
    path = tmp_path / "same.json"
    path.write_text(json.dumps([tool] * 30_000, indent=1))
    code, report, _ = _json_run("check", str(path))
    assert code == 1
    sl005 = [d for d in report["diagnostics"] if d["code"] == "SL005"]
    # identical copies of one tool: the report folds them into one entry listing the others' places
    assert sum(1 + len(d.get("copies") or []) for d in sl005) == 29_999
    assert report["summary"]["diagnostics"] + report["summary"]["copies"] >= 29_999


def test_baseline_tool_pointer_matches_the_plain_definition() -> None:
    """The prefix lookup gives what the old loop over every origin gave (longest origin that
    prefixes the pointer at a ``/`` boundary), on random pointers and origins."""
    from schemalint.model import Diagnostic, Severity, tool_pointer

    def plain(pointer: str, origins: list[str]) -> str:
        best = None
        for o in origins:
            if (pointer == o or pointer.startswith(o + "/") or o == "") and (best is None or len(o) > len(best)):
                best = o
        return pointer if best is None else pointer[len(best):]

    rng = random.Random(18)
    tokens = ["0", "1", "tools", "a", "a~1b", ""]
    for _ in range(3000):
        def ptr() -> str:
            return "".join("/" + rng.choice(tokens) for _ in range(rng.randrange(0, 5)))

        origins = {ptr() for _ in range(rng.randrange(1, 6))}
        pointer = ptr()
        d = Diagnostic(code="SL001", name="x", severity=Severity.ERROR, tool="t", file="f.json",
                       pointer=pointer, message="m")
        assert tool_pointer(d, {("f.json", "t"): origins}) == plain(pointer, sorted(origins)), (pointer, origins)


def test_minified_catalog_with_many_findings(tmp_path: Path) -> None:
    # One line of 10 MB with a non-ASCII character (which slows Python's rfind) and 20,000 findings.
    tools = [{"name": f"t{i}", "description": "Δ " + "word " * 400,
              "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}},
                              "required": ["b", "c", "d", "e"]}} for i in range(5000)]
    path = tmp_path / "min.json"
    path.write_text(json.dumps(tools, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
    code, report, _ = _json_run("check", str(path))
    assert code == 1
    sl003 = [d for d in report["diagnostics"] if d["code"] == "SL003"]
    assert len(sl003) == 20_000 and {d["line"] for d in sl003} == {1}
    text = path.read_text(encoding="utf-8")
    last = max(sl003, key=lambda d: d["column"])
    # The column is that of the "required" entry it names (1-based, in characters).
    assert text[last["column"] - 1:].startswith('"e"')


def test_line_columns_match_a_plain_count() -> None:
    from schemalint.engine.locate import _line_cols

    rng = random.Random(7)
    for _ in range(200):
        text = "".join(rng.choice("ab\nΔ") for _ in range(rng.randrange(0, 200)))
        offsets = [rng.randrange(0, len(text) + 1) for _ in range(rng.randrange(0, 20))]
        for off, (line, col) in _line_cols(text, offsets).items():
            assert line == text.count("\n", 0, off) + 1
            assert col == off - (text.rfind("\n", 0, off) + 1) + 1


def test_sl201_on_ten_thousand_properties(tmp_path: Path) -> None:
    props = {f"p{i}": {"type": "string", "description": f"Set `q{i}` to the value, see the `p{i + 1}` parameter."}
             for i in range(10_000)}
    tool = {"name": "big", "description": "Big tool.", "inputSchema": {"type": "object", "properties": props}}
    path = tmp_path / "wide.json"
    path.write_text(json.dumps([tool]))
    code, report, _ = _json_run("check", str(path), "--select", "SL201")
    # Every q{i} is unknown, and the last property's p10000 too.
    assert code == 0 and _codes(report).count("SL201") == 10_001


def test_nearest_on_a_big_level_still_finds_the_same_name_and_parts() -> None:
    from schemalint.rules.description.mentions import NEAREST_FUZZY_LIMIT, nearest

    big = (*(f"field{i}" for i in range(NEAREST_FUZZY_LIMIT * 4)), "userId", "model")
    assert nearest("user_id", big) == "userId"
    assert nearest("model_name", big) == "model"
    assert nearest("nothing_like_it", big) is None
    small = ("tz", "query")
    assert nearest("querry", small) == "query"  # difflib below the bound
    assert nearest("timezone", small) == "tz"  # abbreviation, below the bound


# ------------------------------------------------------------------ special files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_fifo_and_device_link_in_a_walk_are_skipped_with_a_warning(tmp_path: Path) -> None:
    tool = {"name": "s", "description": "S.", "inputSchema": {"type": "object"}}
    (tmp_path / "ok.json").write_text(json.dumps([tool]))
    os.mkfifo(tmp_path / "tools.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    code, report, _ = _json_run("check", str(tmp_path), timeout=30)
    assert code == 0 and report["summary"]["tools"] == 1
    warned = {Path(d["file"]).name: d for d in report["diagnostics"] if d["code"] == "SL000"}
    assert set(warned) == {"tools.json", "zero.json"}
    assert "a FIFO" in warned["tools.json"]["message"] and warned["tools.json"]["severity"] == "warning"
    assert "a character device" in warned["zero.json"]["message"]
    assert warned["zero.json"]["line"] == 1
    # diff walks the same way: a warning on stderr, not a hang
    proc = run_cli("diff", str(tmp_path), str(tmp_path), timeout=30)
    assert proc.returncode == 0 and "a FIFO, not a regular file" in proc.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX FIFOs")
def test_explicit_special_files_are_located_errors(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "tools.json")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    for name, kind in (("tools.json", "a FIFO"), ("zero.json", "a character device")):
        code, report, _ = _json_run("check", str(tmp_path / name), timeout=30)
        (d,) = report["diagnostics"]
        assert code == 1 and d["code"] == "SL000" and d["severity"] == "error" and kind in d["message"]
        assert d["file"].endswith(name) and d["line"] == 1
    proc = run_cli("diff", str(tmp_path / "zero.json"), str(tmp_path / "tools.json"), timeout=30)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr


def test_a_file_above_the_size_bound_is_not_read(tmp_path: Path) -> None:
    from schemalint.loaders.files.documents import MAX_FILE_BYTES

    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # sparse: no disk used, and never read
        fh.truncate(MAX_FILE_BYTES + 1)
    code, report, _ = _json_run("check", str(path), timeout=30)
    (d,) = report["diagnostics"]
    # above the read limit: a JSON document that can be streamed is (issue 33); this one, NUL bytes,
    # cannot, and is refused without being read
    assert code == 1 and d["code"] == "SL000" and "read limit" in d["message"] and "not read" in d["message"]
    assert d["line"] == 1
    assert stat.S_ISREG(path.stat().st_mode)


# ------------------------------------------------------------------ catastrophic patterns

EVIL_KEY = "a" * 40 + "!"


def test_sl003_catastrophic_pattern_properties_key(tmp_path: Path) -> None:
    tool = {"name": "r", "description": "R.", "inputSchema": {
        "type": "object", "patternProperties": {"(a+)+$": {"type": "string"}}, "required": [EVIL_KEY]}}
    path = tmp_path / "redos.json"
    path.write_text(json.dumps([tool]))
    code, report, _ = _json_run("check", str(path), timeout=30)
    assert code == 1 and "SL003" in _codes(report)  # "a...a!" does not end in a, so no pattern declares it


def test_sl003_pattern_that_needs_backtracking_reports_nothing(tmp_path: Path) -> None:
    tool = {"name": "r", "description": "R.", "inputSchema": {
        "type": "object", "patternProperties": {"^(?!x)": {"type": "string"}}, "required": ["key"]}}
    path = tmp_path / "look.json"
    path.write_text(json.dumps([tool]))
    _, report, _ = _json_run("check", str(path), timeout=30)
    assert "SL003" not in _codes(report)


def test_sl103_catastrophic_pattern_in_a_manifest_runtime_schema(tmp_path: Path) -> None:
    manifest = {"schemalint": 1, "tools": [{
        "name": "m", "description": "M.",
        "advertised": {"type": "object", "properties": {EVIL_KEY: {"type": "string"}}},
        "runtime": {"input": {"type": "object", "patternProperties": {"(a+)+$": {"type": "string"}},
                              "additionalProperties": False}}}]}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    _, report, _ = _json_run("check", str(path), timeout=30)
    assert "SL103" in _codes(report)


def test_sl006_pattern_option(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(json.dumps([{"name": EVIL_KEY, "description": "E.",
                                                       "inputSchema": {"type": "object"}}]))
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint.options.SL006]\npattern = "^(a+)+$"\n')
    code, report, _ = _json_run("check", "tools.json", cwd=tmp_path, timeout=30)
    assert code == 1
    assert any(d["code"] == "SL006" and "configured pattern" in d["message"] for d in report["diagnostics"])
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint.options.SL006]\npattern = "^(?=a)"\n')
    proc = run_cli("check", "tools.json", cwd=tmp_path, timeout=30)
    assert proc.returncode == 2 and "options.SL006.pattern" in proc.stderr and "linear time" in proc.stderr


def test_probe_validator_runs_patterns_in_linear_time() -> None:
    code = (
        "from schemalint.probe import _schema_validator\n"
        "v = _schema_validator({'type': 'object', 'properties': {'x': {'type': 'string', 'pattern': '(a+)+$'}},"
        " 'patternProperties': {'(b+)+$': {'type': 'integer'}}, 'additionalProperties': False})\n"
        f"assert not v.is_valid({{'x': {EVIL_KEY!r}}})\n"
        "assert not v.is_valid({'b' * 40 + '!': 1})\n"
        "assert v.is_valid({'x': 'aaa', 'bb': 3}) and not v.is_valid({'bb': 's'})\n"
        "from schemalint.probe import _string\n"
        "assert _string({'pattern': '(a+)+$', 'minLength': 3}) == 'aaa'\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=30)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize(("pattern", "text", "expected"), [
    ("(a+)+$", EVIL_KEY, False),
    ("(a+)+$", "a" * 40, True),
    ("^x-", "x-abc", True),              # unanchored search, as JSON Schema says
    ("b", "abc", True),
    ("\\u0041", "A", True),               # ECMA-262 \uXXXX
    ("^\\uD83D\\uDE00$", "\U0001F600", True),  # a surrogate pair is one code point
    ("a.b", "a\nb", False), ("a.b", "a\u2028b", False), ("a.b", "axb", True),
    ("\\s", "\u00a0", True), ("[\\s]", "\u2028", True),  # ECMA-262 white space
    ("\\d", "\u0663", False),             # \d is ASCII in ECMA-262 (Python's re said True)
    ("x$", "x\n", False),                 # $ is the end of the string (Python's re said True)
    ("[^]", "\n", True), ("[]", "a", False),
    ("[[:alpha:]]", "a", False),          # no POSIX classes in ECMA-262: a class, then "]"
    ("\\cJ", "\n", True),
    ("(?<n>a)", "a", True),
    ("(?=a)", "a", None), ("(a)\\1", "aa", None), ("a{2000}", "a", None),  # beyond RE2: unknown
    ("[", "x", False),                    # not a regular expression: never matches
])
def test_pattern_search_follows_ecma_262(pattern: str, text: str, expected: bool | None) -> None:
    from schemalint.schema.patterns import search

    assert search(pattern, text) is expected
