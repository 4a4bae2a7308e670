"""Score the 2026 cases (tests/cases2026) with a schemalint binary: recall at the right place and
clean false alarms, in the way ``../shared/tools/eval_cases.py`` scores the shared cases.

usage: python tests/cases2026_score.py SCHEMALINT_BIN   (one line per case, then the totals)

A hit is a diagnostic of the mapped rule (:data:`MAP`) for the expected tool whose pointer (or
instance path, or message) names the expected location: the last ``properties`` name of the
expected path, else its last keyword (a root ``/required`` or ``/type`` finding may sit at the schema
root). A clean case fails on any error-level diagnostic.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

CASES = Path(__file__).parent / "cases2026"


def _code(*prefixes: str) -> Callable[[dict[str, Any]], bool]:
    return lambda d: any(str(d.get("code", "")).startswith(p) for p in prefixes)


def _mentions(prefixes: tuple[str, ...], *words: str) -> Callable[[dict[str, Any]], bool]:
    return lambda d: _code(*prefixes)(d) and any(w in (d.get("message") or "") for w in words)


MAP: dict[str, Callable[[dict[str, Any]], bool]] = {
    "gemini-unsupported-keyword": _code("SL3"),
    "gemini-enum-non-string": _code("SL3"),
    "gemini-empty-properties": _code("SL3"),
    "gemini-array-items-required": _code("SL3"),
    "ollama-boolean-subschema": _code("SL3"),
    "anthropic-top-level-combinator": _code("SL002", "SL3"),
    "anthropic-strict-unsupported-keyword": _code("SL3"),
    "mcp-inputschema-root-type-object": _code("SL002", "SL3"),
    "root-not-object": _code("SL002", "SL304", "SL001"),
    "schema-well-formed-subschema": _code("SL001"),
    "mcp-declared-draft07": _mentions(("SL0", "SL3"), "draft-07", "draft 7", "dialect"),
    "mcp-unknown-schema-id": _mentions(("SL0", "SL3"), "$schema", "meta-schema", "metaschema"),
    "mcp-outputschema-root-object": lambda d: str(d.get("code", "")).startswith(("SL0", "SL3"))
    and "outputSchema" in (d.get("pointer") or "") + (d.get("message") or ""),
    "advertised-runtime-required-mismatch": _code("SL101"),
    "advertised-runtime-constraint-mismatch": _code("SL108"),
    "output-schema-serialization-mismatch": _code("SL110"),
    "result-breaks-output-schema": _code("SL410"),
    "unsatisfiable-schema": _code("SL008"),
    "foreign-schema-key": _code("SL009"),
    "mcp-output-tuple-draft07-reading": _mentions(("SL3",), "prefixItems"),
    "bedrock-strict-unsupported-keyword": _code("SL323"),
    "anthropic-strict-grammar-size": _code("SL335"),
    "openai-strict-unsupported-keyword": _code("SL311"),
    "pattern-not-provider-regex": _code("SL336"),
    "required-not-in-properties": _code("SL003"),
    "mcp-client-array-items": _code("SL309"),
    "gemini-invalid-type": _code("SL314"),
    "invalid-tool-name": _code("SL006", "SL301"),
    "advertised-requires-runtime-optional": _code("SL109"),
    "ollama-refused-shape": _code("SL334", "SL001"),
    "gemini-required-not-in-properties": _code("SL003", "SL3"),
    "openai-strict-additional-properties": _code("SL307"),
    "property-key-pattern": _code("SL325"),
}


def write_input(case: dict[str, Any], folder: Path) -> tuple[str, list[str]]:
    """(command, file arguments) for the case, written into ``folder``."""
    fmt, tools = case["format"], case["tools"]
    if fmt == "mcp-session":
        path = folder / "session.jsonl"
        path.write_text("".join(json.dumps(m) + "\n" for m in tools))
        return "replay", [str(path)]
    if fmt in ("schema-pair", "output-pair"):
        sides = (("runtime_input", "input"), ("runtime_output", "output"))
        runtime = {k2: tools[k1] for k1, k2 in sides if k1 in tools}
        entry = {"name": tools["name"], "description": tools.get("description", ""), "advertised": tools["advertised"],
                 "runtime": runtime}
        if "outputSchema" in tools:
            entry["outputSchema"] = tools["outputSchema"]
        path = folder / "contracts.json"
        path.write_text(json.dumps({"schemalint": 1, "tools": [entry]}))
        return "check", [str(path)]
    path = folder / "tools.json"
    path.write_text(json.dumps(tools))
    return "check", [str(path)]


def _right_place(diag: dict[str, Any], path: str) -> bool:
    segs = path.split("/")
    props = [segs[i + 1] for i, s in enumerate(segs[:-1]) if s == "properties"]
    where = (diag.get("pointer") or "") + " " + (diag.get("instance_path") or "")
    if props:
        return props[-1] in where
    last = segs[-1] if segs else ""
    if not last or last.isdigit():
        return True
    if last in where or last in (diag.get("message") or ""):
        return True
    # `required`/`type` of an object: a finding at that object (here the schema root) is in place
    pointer = diag.get("pointer") or ""
    return last in ("required", "type") and path.count("/") == 1 and pointer.endswith(_SCHEMA_KEYS)


_SCHEMA_KEYS = ("/advertised", "/inputSchema", "/input_schema", "/parameters", "/parametersJsonSchema", "/outputSchema")


Runner = Callable[..., "subprocess.CompletedProcess[str]"]
"""A function running ``schemalint ARGS`` and returning its result (tests pass ``tests.conftest.cli``)."""


def score_case(binary: str | list[str] | Runner,
               case: dict[str, Any]) -> tuple[list[tuple[dict[str, Any], bool]], list[str], str | None]:
    """``([(expected, hit)], error-level diagnostics as text, error)`` for one case: ``binary`` is
    the program (a path, or an argument list such as ``[python, "-m", "schemalint"]``) or a
    :data:`Runner`."""
    with tempfile.TemporaryDirectory() as tmp:
        command, files = write_input(case, Path(tmp))
        args = [command, *files, "--format", "json", "--fail-on", "never"]
        if case.get("target"):
            args += ["--target", case["target"]]
        if callable(binary):
            proc = binary(*args, timeout=300)
        else:
            program = [binary] if isinstance(binary, str) else binary
            proc = subprocess.run([*program, *args], capture_output=True, text=True, timeout=300)
    try:
        diags = json.loads(proc.stdout)["diagnostics"]
    except (ValueError, KeyError):
        return [(e, False) for e in case["expected"]], [], f"rc={proc.returncode} {proc.stderr.strip()[-200:]}"
    errors = [f"{d.get('code')} {d.get('pointer')} {d.get('message', '')[:90]}" for d in diags
              if d.get("severity") == "error"]
    out = []
    for e in case["expected"]:
        pred = MAP[e["rule"]]
        hit = any(pred(d) and (not e.get("tool") or d.get("tool") == e["tool"]) and _right_place(d, e["path"])
                  for d in diags)
        out.append((e, hit))
    return out, errors, None


def score(binary: str | list[str] | Runner, echo: bool = True) -> dict[str, Any]:
    """Score every case; the totals by group (own rules, h27m's, clean)."""
    totals = {"hit": 0, "total": 0, "hit_needs": 0, "total_needs": 0, "clean": 0, "fp": 0, "misses": [], "fps": []}
    for path in sorted(CASES.glob("*.json")):
        case = json.loads(path.read_text())
        results, errors, error = score_case(binary, case)
        if not case["expected"]:
            totals["clean"] += 1
            bad = bool(errors) or error is not None
            totals["fp"] += bad
            if bad:
                totals["fps"].append(path.name)
            if echo:
                print(("FP   " if bad else "ok   ") + path.name + (f": {errors or error}" if bad else ""))
            continue
        key = "_needs" if case.get("needs") else ""
        for e, hit in results:
            totals["total" + key] += 1
            totals["hit" + key] += hit
            if not hit:
                totals["misses"].append(f"{path.name} {e['rule']} {e['path']}")
            if echo:
                print(("hit  " if hit else "MISS ") + f"{path.name} {e['rule']} {e['path']}"
                      + (f"  (needs {case['needs']})" if case.get("needs") else "") + (f"  [{error}]" if error else ""))
    if echo:
        print(f"own kinds: recall {totals['hit']}/{totals['total']}; h27m's kinds: {totals['hit_needs']}/"
              f"{totals['total_needs']}; all: {totals['hit'] + totals['hit_needs']}/"
              f"{totals['total'] + totals['total_needs']}; clean-fp {totals['fp']}/{totals['clean']}")
    return totals


USAGE = "usage: python tests/cases2026_score.py SCHEMALINT_BIN   (one line per case, then the totals)"


def main(argv: list[str]) -> int:
    """The command line: score with the binary ``argv[0]``; without one (or with ``-h``/``--help``),
    print :data:`USAGE` (on stderr and exit 2 when the argument is missing, as argparse does)."""
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    if len(argv) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    score(argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
