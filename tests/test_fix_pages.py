"""Every rule page says whether the rule has a fix, and a fixed example is what ``--fix`` writes.

A page's ``## Fix`` section starts with the rule's fix declaration (:attr:`schemalint.rules.base.Rule.fix`):
``No fix:`` (none), ``Safe`` (:data:`~schemalint.rules.fixes.SAFE`), ``Unsafe`` or ``Safe or unsafe``
(``mixed``), followed by the reason. A rule with a fix shows the page's Bad example after the fix: a
```json block whose ``<!-- args: ... -->`` comment holds the options (``--target``, ``--fix``,
``--unsafe-fixes``); the test writes the Bad example to a file, fixes it with those options and this
rule selected, and compares the file with the block byte for byte, then checks that the fixed file no
longer triggers the rule and that fixing it again changes nothing.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from schemalint.rule_docs import _BLOCK
from schemalint.rule_docs import page_sections as _sections
from schemalint.rules.catalog import CATALOG
from schemalint.rules.fixes import MIXED, SAFE, UNSAFE
from tests.test_rule_pages import _pages

OPENING = {None: "No fix:", SAFE: "Safe (", UNSAFE: "Unsafe (", MIXED: "Safe or unsafe ("}
RULES = {entry.code: entry for entry in CATALOG}
CHECK_PAGES = [p for p in _pages() if p.name.startswith("SL")]


def _fix_of(code: str) -> Any:
    return RULES[code].load().fix


@pytest.mark.parametrize("page", CHECK_PAGES, ids=lambda p: p.stem)
def test_fix_section_matches_the_declaration(page: Path) -> None:
    code = page.stem.split("-", 1)[0]
    sections = _sections(page.read_text(encoding="utf-8"))
    assert "Fix" in sections, f"{page.name} has no '## Fix' section (say 'No fix: <why>' when there is none)"
    fix = _fix_of(code)
    body = sections["Fix"].strip()
    opening = OPENING[None if fix is None else fix.safety]
    assert body.startswith(opening), f"{page.name}: the Fix section must start with {opening!r} ({fix})"
    assert len(body.split()) >= 12, f"{page.name}: the Fix section must say why"
    if fix is None:
        assert _BLOCK.search(sections["Fix"]) is None, f"{page.name}: a rule without a fix shows no fixed example"


FIXABLE = [p for p in CHECK_PAGES if _fix_of(p.stem.split("-", 1)[0]) is not None]


@pytest.mark.parametrize("page", FIXABLE, ids=lambda p: p.stem)
def test_fixed_example_is_what_fix_writes(page: Path, tmp_path: Path) -> None:
    from schemalint.api import check
    from schemalint.fix.run import check_and_fix
    from schemalint.targets import parse_targets

    code = page.stem.split("-", 1)[0]
    sections = _sections(page.read_text(encoding="utf-8"))
    bad, fixed = _BLOCK.search(sections["Bad"]), _BLOCK.search(sections["Fix"])
    assert bad is not None
    assert fixed is not None, f"{page.name}: a rule with a fix shows the Bad example after the fix"
    args = shlex.split(fixed["args"] or "")
    assert "--fix" in args, f"{page.name}: the fixed example's args say how it was fixed (--fix ...)"
    assert shlex.split(bad["args"] or "") == [a for a in args if a not in ("--fix", "--unsafe-fixes")]
    targets = [args[i + 1] for i, a in enumerate(args) if a in ("--target", "-t")]
    unsafe = "--unsafe-fixes" in args
    assert unsafe == (_fix_of(code).safety != SAFE) or _fix_of(code).safety == MIXED
    path = tmp_path / "bad.json"
    path.write_text(bad["body"], encoding="utf-8")

    def run(files: Any = None) -> Any:
        return check(files or [str(path)], targets=targets, select=[code], jobs=1, catalog=False)

    spec = parse_targets(targets)
    first, last, outcome = check_and_fix(run, unsafe=unsafe, targets=spec, project=str(tmp_path))
    assert code in [d.code for d in first.diagnostics]
    assert path.read_text(encoding="utf-8") == fixed["body"], f"{page.name}: --fix wrote something else"
    assert code not in [d.code for d in last.diagnostics]
    _, again, outcome = check_and_fix(run, unsafe=True, targets=spec, project=str(tmp_path))
    assert outcome.total == 0 and not outcome.written and code not in [d.code for d in again.diagnostics]
