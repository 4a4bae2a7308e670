"""The engine knows no rule: what a rule lets the engine skip, or needs kept together, the rule
declares (``Rule.keywords``, ``Rule.file_screen``, ``Rule.catalog_from_tools`` with
``Rule.whole_files``), and memo entries declare their lifetime where they are made
(docs/architecture.md, "Where things go"). Checked on the engine's source and, for every declared
file screen, on real files: a screen may only skip work that would have found nothing."""

from __future__ import annotations

import ast
import re

import pytest

from schemalint.engine import check, pipeline
from schemalint.model import FILE, RUN, TOOL, RunContext
from schemalint.rules.registry import all_rules
from tests.conftest import CORPUS, ROOT

ENGINE = ROOT / "schemalint" / "engine"
_CODE = re.compile(r"\bS[LD]\d{3}\b")


def _code_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants of ``tree`` naming a rule code, docstrings left out."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docstrings.add(id(node.value))  # attribute docstrings
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and _CODE.search(node.value)]


def test_the_engine_names_no_rule() -> None:
    found = {}
    for path in sorted(ENGINE.glob("*.py")):
        hits = _code_strings(ast.parse(path.read_text(encoding="utf-8")))
        if hits:
            found[path.name] = hits
    assert not found, f"rule codes written in the engine (declare on the rule instead): {found}"


def test_the_checker_sees_a_code_in_code() -> None:
    assert _code_strings(ast.parse('def f(r):\n    """SL001 here is prose."""\n    return r.code == "SL501"\n')) \
        == [(3, "SL501")]


def test_memo_lifetimes_are_dropped_as_declared() -> None:
    run = RunContext()
    run.store(TOOL)["t"] = 1
    run.store(FILE)["f"] = 2
    run.table("r", dict, RUN)["k"] = 3
    run.drop(TOOL)
    assert (run.memo, run.file_memo, run.run_memo) == ({}, {"f": 2}, {"r": {"k": 3}})
    run.drop(FILE)
    assert (run.memo, run.file_memo, run.run_memo) == ({}, {}, {"r": {"k": 3}})
    with pytest.raises(ValueError, match="no memo lifetime"):
        run.store("forever")


_SCREENED = [r for r in all_rules() if r.file_screen is not None]


def test_some_rules_declare_a_file_screen() -> None:
    assert _SCREENED, "no rule declares a file screen: this file's checks would test nothing"


def _sources() -> list[str]:
    out = [str(ROOT / "examples")]
    for name in ("github-mcp-server", "docker-mcp-registry", "livemcpbench", "gorilla-openfunctions-v1"):
        if (CORPUS / name).is_dir():
            out.append(str(CORPUS / name))
    return out


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("rule", _SCREENED, ids=lambda r: r.code)
def test_a_file_screen_skips_nothing_the_rule_would_find(rule: object, stream: bool,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule's findings on real files (the examples, and part of the shared corpus when present)
    are the same with its screen and with no file cleared, on the in-memory and streaming routes."""
    code = rule.code  # type: ignore[attr-defined]
    sources = _sources()
    screened = check(sources, select=[code], stream=stream)
    # every route screens in the one per-file pipeline: clearing nothing there covers them all
    monkeypatch.setattr(pipeline, "screen", lambda screens, texts: {s.name: frozenset() for s in screens})
    unscreened = check(sources, select=[code], stream=stream)
    key = [(d.file, d.pointer, d.message) for d in screened.diagnostics]
    assert key == [(d.file, d.pointer, d.message) for d in unscreened.diagnostics]
