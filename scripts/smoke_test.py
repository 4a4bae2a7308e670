"""Smoke test of an installed schemalint (a wheel in a fresh virtual environment).

Usage: ``python scripts/smoke_test.py [--repo DIR] [--expect-version V]`` with the interpreter of
the environment that has schemalint installed. ``--repo`` is a checkout of this repository; its
examples are checked. Every command runs from a temporary directory, so the package imported is
the installed one, never the checkout's ``schemalint/``. Prints one ``ok`` line per check and exits
1 at the first failure. The release workflow (.github/workflows/release.yml) and
tests/test_release.py run it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLEAN_TOOL = {
    "tools": [{"name": "get_time", "description": "Current time in a time zone.",
               "inputSchema": {"type": "object", "properties": {"tz": {"type": "string", "description": "IANA zone"}},
                               "required": ["tz"], "additionalProperties": False}}]
}


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "schemalint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, check=False)


def expect(ok: bool, what: str, proc: subprocess.CompletedProcess[str] | None = None) -> None:
    if not ok:
        detail = (f"\n  exit {proc.returncode}\n  stdout: {proc.stdout[-2000:]}\n  stderr: {proc.stderr[-2000:]}"
                  if proc else "")
        print(f"FAIL: {what}{detail}")
        raise SystemExit(1)
    print(f"ok: {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a checkout of schemalint, whose examples are checked")
    parser.add_argument("--expect-version", help="the version the installed package must report")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="schemalint-smoke-") as name:
        work = Path(name)
        probe = subprocess.run([sys.executable, "-c", "import schemalint, sys; print(schemalint.__file__)"],
                               cwd=work, capture_output=True, text=True, check=False)
        where = Path(probe.stdout.strip())
        expect(probe.returncode == 0 and (opts.repo is None or opts.repo.resolve() not in where.resolve().parents),
               f"the installed package is imported ({where})")
        worker = where.parent / "bridge" / "node_worker.mjs"
        expect(worker.is_file(), "the Node worker is shipped (schemalint/bridge/node_worker.mjs)")

        proc = run(["--version"], work)
        version = proc.stdout.strip().removeprefix("schemalint ")
        expect(proc.returncode == 0 and bool(version) and version != "0.0.0+unknown", f"--version: {version}", proc)
        if opts.expect_version:
            expect(version == opts.expect_version, f"the version is {opts.expect_version}", proc)

        proc = run(["rules", "--format", "json"], work)
        catalog = json.loads(proc.stdout) if proc.returncode == 0 else {}
        count = len(catalog.get("rules", []))
        expect(count > 50, f"the rule catalog lists {count} rules", proc)
        proc = run(["rule", "SL101"], work)
        expect(proc.returncode == 0 and "required" in proc.stdout, "the rule pages are shipped (rule SL101)", proc)

        (work / "tools.json").write_text(json.dumps(CLEAN_TOOL), encoding="utf-8")
        proc = run(["check", "tools.json"], work)
        expect(proc.returncode == 0 and "1 tool(s)" in proc.stdout, "check of a clean tool file exits 0", proc)
        CLEAN_TOOL["tools"][0]["inputSchema"]["required"].append("missing")  # type: ignore[index]
        (work / "tools.json").write_text(json.dumps(CLEAN_TOOL), encoding="utf-8")
        proc = run(["check", "tools.json", "--format", "json"], work)
        codes = [d["code"] for d in json.loads(proc.stdout or "{}").get("diagnostics", [])] if proc.stdout else []
        expect(proc.returncode == 1 and codes == ["SL003"], "check of a faulty tool file exits 1 with SL003", proc)

        if opts.repo is not None:
            examples = opts.repo.resolve() / "examples"
            proc = run(["check", str(examples / "zod" / "contracts.json"), "--format", "json"], work)
            found = {d["code"] for d in json.loads(proc.stdout).get("diagnostics", [])} if proc.stdout else set()
            expect(proc.returncode == 1 and "SL101" in found, "examples/zod/contracts.json: SL101 found", proc)
            try:
                import pydantic  # noqa: F401
            except ImportError:
                print("skip: pydantic examples (the [pydantic] extra is not installed)")
            else:
                proc = run(["check", "shop_tools:", "--python-path", str(examples / "pydantic"), "--format", "json"],
                           work)
                found = {d["code"] for d in json.loads(proc.stdout).get("diagnostics", [])} if proc.stdout else set()
                expect(proc.returncode == 1 and "SL101" in found, "examples/pydantic shop_tools: SL101 found", proc)
            ts = examples / "typescript"
            if shutil.which("node") and (ts / "node_modules").is_dir():
                proc = run(["check", str(ts / "src" / "schemas.ts"), "--format", "json"], work)
                expect(proc.returncode == 0 and '"tools": 2' in proc.stdout.replace('"tools":2', '"tools": 2'),
                       "examples/typescript/src/schemas.ts: read through the shipped Node worker", proc)
            else:
                print("skip: the TypeScript example (node or examples/typescript/node_modules is missing)")
    print("smoke test passed")


if __name__ == "__main__":
    main()
