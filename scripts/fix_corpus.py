"""Make the shared corpus portable to a target with ``check --target =T --fix --unsafe-fixes`` and count
what remains (docs/fix.md, "Portable to a target: the corpus").

    python scripts/fix_corpus.py ../shared/corpus openai-strict gemini anthropic-strict

The corpus is read-only: its tool files (JSON, JSON Lines, .snap; older revisions and index files
left out) are copied to a temporary directory first, and only the copies are fixed. Per target it
prints, as a Markdown table, each rule's findings before the fixes and after, how many the fixes
added (findings on a file, record line, tool and rule beyond those that place had before: the
property test's measure, 0 when no fix brings out another rule's finding), whether the rule has a
fix, and how many remaining findings its plan declined (no mechanical answer for that finding);
then the rounds the fix took and whether it converged.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path


def corpus_files(root: Path) -> list[Path]:
    """The corpus's current tool files (no ``revisions/``, no ``index.json``)."""
    out = []
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "revisions" in path.parts or path.name == "index.json":
            continue
        if path.suffix.lower() in (".json", ".jsonl", ".ndjson", ".snap", ".yaml", ".yml"):
            out.append(path)
    return out


def run(root: Path, target: str) -> str:
    from schemalint.api import check
    from schemalint.fix.plan import fix_of, plan_edits
    from schemalint.fix.run import check_and_fix, kind_of
    from schemalint.loaders.files.documents import parse_text
    from schemalint.targets import parse_targets

    with tempfile.TemporaryDirectory(prefix="schemalint-fix-corpus-") as tmp:
        for path in corpus_files(root):
            copy = Path(tmp) / path.relative_to(root)
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, copy)
        spec = parse_targets([f"={target}"])

        def again(files: object = None) -> object:
            return check(files or [tmp], targets=[f"={target}"], jobs=1, catalog=False)

        started = time.perf_counter()
        first, last, outcome = check_and_fix(again, unsafe=True, targets=spec, project=tmp)
        elapsed = time.perf_counter() - started
        before = Counter(d.code for d in first.diagnostics)
        after = Counter(d.code for d in last.diagnostics)
        declined: Counter[str] = Counter()
        by_file: dict[str, list[object]] = {}
        for d in last.diagnostics:
            if fix_of(d.code) is not None:
                by_file.setdefault(d.file, []).append(d)
        for file, found in by_file.items():
            kind = kind_of(file)
            if kind is None:
                declined.update(d.code for d in found)  # type: ignore[attr-defined]
                continue
            text = Path(file).read_text(encoding="utf-8")
            _, planned, _ = plan_edits(found, file, text, kind, targets=spec, unsafe=True)  # type: ignore[arg-type]
            declined.update(d.code for d in planned.unfixable)
        names = {d.code: d.name for d in [*first.diagnostics, *last.diagnostics]}
        # what the fixes brought: findings on a (file, record line, tool, rule) beyond those it had
        lined: dict[str, bool] = {}

        def key(d: object) -> tuple[object, ...]:
            file = d.file  # type: ignore[attr-defined]
            if file not in lined:  # records keep their lines; a JSON document's lines move with the fixes
                try:
                    lined[file] = parse_text(file, Path(file).read_text(encoding="utf-8")).kind == "jsonl"
                except (OSError, UnicodeDecodeError):
                    lined[file] = False
            return (file, d.line if lined[file] else None, d.tool, d.code)  # type: ignore[attr-defined]

        place = Counter(key(d) for d in first.diagnostics)
        later = Counter(key(d) for d in last.diagnostics)
        added: Counter[str] = Counter()
        for key, n in later.items():
            if n > place[key]:
                added[key[3]] += n - place[key]
        lines = [f"### --target {target}", "",
                 f"{first.files} files, {first.tools} tools; fixed {outcome.total} findings in "
                 f"{len(outcome.written)} files, {outcome.rounds} round(s), "
                 f"{'converged' if outcome.converged else 'NOT converged'}, {elapsed:.0f} s.", "",
                 "| rule | before | after | added | fix | remaining without a plan |",
                 "| --- | ---: | ---: | ---: | --- | ---: |"]
        for code in sorted(set(before) | set(after)):
            fix = fix_of(code)
            lines.append(f"| {code} {names.get(code, '')} | {before[code]} | {after[code]} | {added[code]} | "
                         f"{fix.safety if fix else 'none'} | {declined[code] if fix else after[code]} |")
        if outcome.problems:
            lines += ["", "Files not fixed:"] + [f"- {Path(p).relative_to(tmp)}: {why}"
                                                for p, why in sorted(outcome.problems.items())]
        return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    for target in argv[1:]:
        sys.stdout.write(run(root, target) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
