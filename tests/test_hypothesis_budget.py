"""Every property test that asks hypothesis for more examples than the ``ci`` profile's 100 asks
through :func:`tests.conftest.examples`, so ``ci`` bounds it (a quarter of N) and ``thorough``
runs all N. A literal ``max_examples`` above 100 in a ``@settings(...)`` would bypass both."""

from __future__ import annotations

import ast

from tests.conftest import ROOT, examples

CI_EXAMPLES = 100


def _literal_budgets(tree: ast.AST) -> list[tuple[int, int]]:
    """``(line, N)`` of each ``settings(max_examples=N)`` call with a literal N above 100."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "settings":
            for kw in node.keywords:
                if (kw.arg == "max_examples" and isinstance(kw.value, ast.Constant)
                        and isinstance(kw.value.value, int) and kw.value.value > CI_EXAMPLES):
                    found.append((node.lineno, kw.value.value))
    return found


def test_no_property_test_bypasses_the_examples_helper() -> None:
    offenders = [f"{path.name}:{line}: max_examples={n}"
                 for path in sorted((ROOT / "tests").glob("*.py"))
                 for line, n in _literal_budgets(ast.parse(path.read_text(), str(path)))]
    assert not offenders, "write max_examples=examples(N) (tests/conftest.py): " + ", ".join(offenders)


def test_the_scan_finds_a_literal_budget_and_the_helper_bounds_it() -> None:
    tree = ast.parse("@settings(max_examples=1000, deadline=None)\ndef f(): pass\n"
                     "@hypothesis.settings(max_examples=examples(1000))\ndef g(): pass\n")
    assert _literal_budgets(tree) == [(1, 1000)]
    from hypothesis import settings

    if settings.get_current_profile_name() == "ci":  # the profile the suite loads by default
        assert examples(1000) == 250
    else:
        assert examples(1000) == max(100, round(1000 * settings.default.max_examples / 400))
