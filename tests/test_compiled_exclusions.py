"""``--exclude`` patterns are compiled once per run into two regular expressions
(:func:`schemalint.loaders.files.sources._exclusion`); they must keep every answer of the
pattern-by-pattern :func:`fnmatch.fnmatch` test they replace, on a real repository tree."""

from __future__ import annotations

import fnmatch
import os

from tests.conftest import REPOS, needs_repos

PATTERN_SETS = [
    [],
    ["tests"],
    ["*.yaml", "docs/"],
    ["**/fixtures/*", "python/*", "[mp]*", "a?i"],
    ["*/samples/*", "*.lock", "vercel__ai"],
    ["[!a-m]*.json", "*/src/*/index.ts", "node_modules/"],
]


def _excluded_pattern_by_pattern(path: str, patterns: list[str]) -> bool:
    """The reference: each pattern against the whole path (``pat``, ``*/pat``, ``pat/*``,
    ``*/pat/*``) and against each path component, one :func:`fnmatch.fnmatch` call at a time."""
    norm = path.replace(os.sep, "/")
    for pattern in patterns:
        pat = pattern.rstrip("/")
        if any(fnmatch.fnmatch(norm, form) for form in (pat, f"*/{pat}", f"{pat}/*", f"*/{pat}/*")):
            return True
        if any(fnmatch.fnmatch(part, pat) for part in norm.split("/")):
            return True
    return False


@needs_repos
def test_compiled_exclusions_answer_as_fnmatch_on_a_real_tree() -> None:
    from schemalint.loaders.files.sources import _excluded, expand_sources

    paths = expand_sources([str(REPOS)])
    assert len(paths) > 1000
    excluding = 0
    for patterns in PATTERN_SETS:
        kept = [p for p in paths if not _excluded(p, patterns)]
        assert kept == [p for p in paths if not _excluded_pattern_by_pattern(p, patterns)], patterns
        excluding += len(kept) < len(paths)
    assert excluding >= 4  # the sets are not vacuous on this tree


def test_compiled_exclusions_on_made_up_paths() -> None:
    from schemalint.loaders.files.sources import _excluded

    paths = ["a/b/c.json", "tests/x.yaml", "src/tests", "deep/a/b/fixtures/f.json", "mcp/api.ts", "api",
             "x.lock", "a/samples/b/c.json", "node_modules/p/index.ts", "Z.json", "q.JSON"]
    for patterns in PATTERN_SETS:
        for path in paths:
            assert _excluded(path, patterns) == _excluded_pattern_by_pattern(path, patterns), (path, patterns)
