"""``schemalint check --fix / --unsafe-fixes / --diff``: fix, re-check, repeat until nothing changes.

:func:`check_and_fix` runs the check it is given, plans the fixes of the reported diagnostics file by
file (:func:`schemalint.fix.plan.plan_text`), lays the fixed texts over the files
(:mod:`schemalint.loaders.files.overlay`, nothing written yet) and checks again, until a round
changes nothing or :data:`MAX_ROUNDS` rounds ran: the fixes of several rules (several targets'
provider rules with ``--target``) are applied together, each round on what the previous one left,
so the result converges to a fixed point. Only then are the changed files written, each once,
through :func:`schemalint.safe_write.write_source` (a file the run read as a tool file, atomic,
no link out of the project); with ``diff`` nothing is written and the unified diffs are returned.

Only what the check reports is fixed, so baselines, ``ignore``/``per-file-ignores``/per-tool
ignores and ``--select`` keep their meaning (an ignored finding is not fixed). Python and
TypeScript sources are never rewritten: their fixable diagnostics are counted as left.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from schemalint.fix.plan import fix_of, plan_text, unified_diff

if TYPE_CHECKING:
    from schemalint.model import CheckResult, Diagnostic
    from schemalint.targets import TargetSpec

MAX_ROUNDS = 8
"""Rounds of fix and re-check at most: each round applies what does not touch a place another fix
of the round changes, so chains (a fix whose result another rule then reports) need a few."""

TOOL_FILE_KINDS = {".json": "json", ".snap": "json", ".jsonl": "jsonl", ".ndjson": "jsonl",
                   ".yaml": "yaml", ".yml": "yaml"}


@dataclass
class FixOutcome:
    """What ``--fix`` did: ``fixed`` (diagnostics whose fix was applied, per rule code, over every
    round), ``written`` (files written, or with ``diff`` those that would be), ``diffs`` (path ->
    unified diff), ``unsafe_left`` (diagnostics with only an unsafe fix, not asked for), ``code_left``
    (fixable diagnostics in Python/TypeScript sources, never rewritten), ``problems`` (file ->
    why it could not be edited), ``rounds`` and ``converged`` (the last round changed nothing)."""

    fixed: Counter[str] = field(default_factory=Counter)
    written: list[str] = field(default_factory=list)
    diffs: dict[str, str] = field(default_factory=dict)
    unsafe_left: int = 0
    code_left: int = 0
    problems: dict[str, str] = field(default_factory=dict)
    rounds: int = 0
    converged: bool = True

    @property
    def total(self) -> int:
        """Diagnostics fixed, every rule together."""
        return sum(self.fixed.values())

    def summary(self, remaining: int, *, diff: bool) -> list[str]:
        """The lines ``check --fix`` prints on standard error."""
        verb = "would fix" if diff else "fixed"
        files = len(self.written)
        lines = [f"schemalint: {verb} {self.total} diagnostic(s) in {files} file(s), {remaining} remaining"]
        if self.fixed:
            lines.append("  " + ", ".join(f"{code} x{n}" for code, n in sorted(self.fixed.items())))
        if self.unsafe_left:
            lines.append(f"  {self.unsafe_left} diagnostic(s) have only an unsafe fix: add --unsafe-fixes to apply it")
        if self.code_left:
            lines.append(f"  {self.code_left} fixable diagnostic(s) in Python/TypeScript sources were left: "
                         "schemalint does not rewrite code; change the model or zod schema as each hint says")
        for path, why in sorted(self.problems.items()):
            lines.append(f"  {path}: not fixed: {why}")
        if not self.converged:
            lines.append(f"  stopped after {self.rounds} rounds without reaching a fixed point (fixes of "
                         "different targets undo each other); the last round's text is kept")
        return lines


def kind_of(path: str) -> str | None:
    """``json``, ``jsonl`` or ``yaml`` for a tool file schemalint can edit, else ``None``."""
    return TOOL_FILE_KINDS.get(os.path.splitext(path)[1].lower())


def _read(path: str) -> str | None:
    from schemalint.loaders.files.documents import read_source_bytes

    try:
        return read_source_bytes(path).decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def check_and_fix(check: Callable[[Sequence[str] | None], CheckResult], *, unsafe: bool = False,
                  diff: bool = False, targets: TargetSpec | None = None, project: str | None = None,
                  max_rounds: int = MAX_ROUNDS) -> tuple[CheckResult, CheckResult, FixOutcome]:
    """Run ``check(None)`` (the caller's check, with every source and option it was given), fix what
    it reports, check the changed files again (``check(paths)``: the same check of only those files),
    until nothing changes; then check everything once more over the fixed texts. Return
    ``(first result, last result, outcome)``; the last result is the check of the fixed texts (with
    ``diff``: of the texts that would be written). ``unsafe``: apply unsafe fixes too.
    ``targets``: the run's ``--target`` (fix plans choose per target). ``project``: the project root
    (no write through a link leading out of it). Raises what ``check`` raises; a file the write
    policy refuses is reported in :attr:`FixOutcome.problems` and left as it was."""
    import time

    from schemalint.loaders.files.overlay import overlaid

    started = time.perf_counter()
    first = check(None)
    diagnostics = first.diagnostics
    originals: dict[str, str] = {}
    texts: dict[str, str] = {}
    outcome = FixOutcome()
    sources = {d.file for d in first.diagnostics}
    per_file: dict[str, Counter[str]] = {}
    for round_ in range(max_rounds):
        outcome.rounds = round_ + 1
        changed = _fix_round(diagnostics, texts, originals, per_file, outcome, unsafe=unsafe, targets=targets)
        if not changed:
            break
        with overlaid({p: t for p, t in texts.items() if t != originals[p]}):
            diagnostics = check(changed).diagnostics
    else:
        outcome.converged = False
    if any(t != originals[p] for p, t in texts.items()):
        with overlaid({p: t for p, t in texts.items() if t != originals[p]}):
            result = check(None)
    else:
        result = first
    _count_left(result.diagnostics, texts, outcome, unsafe=unsafe, targets=targets)
    result.diagnostics = code_hints(result.diagnostics)
    changed_paths = sorted(p for p, t in texts.items() if t != originals[p])
    for path in changed_paths:
        outcome.diffs[path] = unified_diff(path, originals[path], texts[path])
    if diff:
        outcome.written = changed_paths
        for path in changed_paths:
            outcome.fixed.update(per_file.get(path, Counter()))
        result.elapsed = time.perf_counter() - started
        return first, result, outcome
    from schemalint.safe_write import WriteRefused, write_source

    refused = False
    for path in changed_paths:
        try:
            write_source(path, texts[path], sources=sources, project=project)
        except (WriteRefused, OSError) as exc:
            outcome.problems[path] = str(exc)
            del outcome.diffs[path]
            refused = True
            continue
        outcome.written.append(path)
        outcome.fixed.update(per_file.get(path, Counter()))
    if refused:  # what remains is what the files on disk hold
        result = check(None)
    result.elapsed = time.perf_counter() - started  # the report's time is the whole run's: every round
    return first, result, outcome


def _fixable_by_file(diagnostics: Sequence[Diagnostic], outcome: FixOutcome) -> dict[str, list[Diagnostic]]:
    by_file: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if fix_of(d.code) is None or d.file in outcome.problems:
            continue
        if kind_of(d.file) is None or not os.path.isfile(d.file):
            continue
        by_file.setdefault(d.file, []).append(d)
    return by_file


def _fix_round(diagnostics: Sequence[Diagnostic], texts: dict[str, str], originals: dict[str, str],
               per_file: dict[str, Counter[str]], outcome: FixOutcome, *, unsafe: bool,
               targets: TargetSpec | None) -> list[str]:
    """One round: plan and apply the fixes of ``diagnostics`` to ``texts`` (read from disk on first
    use into ``originals`` too); the paths whose text changed."""
    changed = []
    for path, found in sorted(_fixable_by_file(diagnostics, outcome).items()):
        if path not in texts:
            text = _read(path)
            if text is None:
                outcome.problems[path] = "cannot read it as UTF-8 text"
                continue
            originals[path] = texts[path] = text
        kind = kind_of(path)
        assert kind is not None
        planned = plan_text(found, path, texts[path], kind, targets=targets, unsafe=unsafe)
        if planned.problem:
            outcome.problems[path] = planned.problem
            continue
        if planned.text != texts[path]:
            texts[path] = planned.text
            changed.append(path)
            for d, _ in planned.applied:
                per_file.setdefault(path, Counter())[d.code] += 1
    return changed


def _count_left(diagnostics: Sequence[Diagnostic], texts: dict[str, str], outcome: FixOutcome, *, unsafe: bool,
                targets: TargetSpec | None) -> None:
    """Count, in what remains, the diagnostics in code sources that have a fix (never rewritten) and,
    without ``unsafe``, those whose only fix is unsafe."""
    from schemalint.fix.jsontext import FixError
    from schemalint.fix.plan import plan_edits

    outcome.code_left = sum(1 for d in diagnostics if (fix := fix_of(d.code)) is not None
                            and (fix.unfixable is None or not fix.unfixable(d))
                            and (kind_of(d.file) is None or not os.path.isfile(d.file)))
    if unsafe:
        return
    for path, found in _fixable_by_file(diagnostics, outcome).items():
        text = texts.get(path) or _read(path)
        kind = kind_of(path)
        if text is None or kind is None:
            continue
        try:
            _, planned, _ = plan_edits(found, path, text, kind, targets=targets, unsafe=False)
        except FixError:
            continue
        outcome.unsafe_left += len(planned.unsafe)


_TYPESCRIPT = (".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx")


def code_hints(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` with the hint of each one in a Python or TypeScript source (never rewritten)
    extended by what its rule's fix means in that code (:attr:`schemalint.rules.fixes.Fix.in_code`:
    the Pydantic model or zod schema to change)."""
    from dataclasses import replace

    out = []
    for d in diagnostics:
        fix = fix_of(d.code)
        if fix is None or not fix.in_code or (kind_of(d.file) is not None and os.path.isfile(d.file)):
            out.append(d)
            continue
        where = (d.path or d.file).split(":", 1)[0].lower()
        text = fix.in_code.get("typescript" if where.endswith(_TYPESCRIPT) else "python")
        out.append(replace(d, hint=f"{d.hint}; {text}" if d.hint and text else (d.hint or text)))
    return out


def print_diffs(outcome: FixOutcome, out: Any) -> None:
    """Write every unified diff of ``outcome`` to ``out``, in path order."""
    for path in sorted(outcome.diffs):
        out.write(outcome.diffs[path])


@dataclass
class FixRequest:
    """``--fix``/``--unsafe-fixes``/``--diff`` as the CLI hands them over (:meth:`of`), kept out of
    the command's body: :meth:`wrap` turns the command's check into check-and-fix, :meth:`report`
    prints what was done."""

    unsafe: bool
    diff: bool
    targets: TargetSpec | None
    project: str | None
    outcome: FixOutcome | None = None
    before: CheckResult | None = None

    @classmethod
    def of(cls, fix: bool, unsafe_fixes: bool, diff: bool, targets: Sequence[str],
           project: str | os.PathLike[str] | None) -> FixRequest | None:
        """The request, or ``None`` when no option asks for a fix (``--unsafe-fixes`` alone means
        ``--fix --unsafe-fixes``). ``targets``: the ``--target`` values (already valid)."""
        if not (fix or unsafe_fixes or diff):
            return None
        from schemalint.targets import parse_targets

        return cls(unsafe_fixes, diff, parse_targets(targets), None if project is None else os.fspath(project))

    def wrap(self, run: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
        """``run`` (the check function and its arguments) as check, fix, re-check; the returned
        function gives the last check's result (what remains)."""

        def fixing(sources: Sequence[str], *args: Any, **kwargs: Any) -> CheckResult:
            def again(files: Sequence[str] | None) -> CheckResult:
                return run(list(sources) if files is None else list(files), *args, **kwargs)

            self.before, last, self.outcome = check_and_fix(again, unsafe=self.unsafe, diff=self.diff,
                                                            targets=self.targets, project=self.project)
            return last

        return fixing

    def report(self, result: CheckResult, out: Any, err: Any) -> int | None:
        """Print the outcome: with ``--diff`` the unified diffs on ``out`` and the summary on ``err``,
        and return the exit code (1 when something is to fix, else 0); with ``--fix`` the summary on
        ``err`` and ``None`` (the command then reports what remains as usual)."""
        outcome = self.outcome or FixOutcome()
        if self.diff:
            print_diffs(outcome, out)
            for line in outcome.summary(len(result.diagnostics), diff=True):
                err.write(line + "\n")
            return 1 if outcome.diffs else 0
        for line in outcome.summary(len(result.diagnostics), diff=False):
            err.write(line + "\n")
        return None
