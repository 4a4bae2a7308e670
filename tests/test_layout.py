"""The layout a reader relies on holds: a rule's module is named for its rule, the tests import
their helpers one way, and a docstring's reference to a module, function or class names one that
exists (a rename updates its references)."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

from schemalint.rules.catalog import CATALOG

ROOT = Path(__file__).resolve().parent.parent
_ROLE = re.compile(r":(?:mod|func|class|meth|data|attr|exc):`~?(schemalint(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")


def test_every_rule_module_is_named_for_its_rule() -> None:
    wrong = []
    for entry in CATALOG:
        module = entry.path.partition(":")[0].rpartition(".")[2]
        expected = f"{entry.code.lower()}_{entry.name.replace('-', '_')}"
        if module != expected:
            wrong.append((entry.code, module, expected))
    assert not wrong, f"rule modules not named <code>_<name>: {wrong}"


def test_the_tests_import_their_helpers_one_way() -> None:
    other = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
             if re.search(r"^from conftest import|^import conftest", p.read_text(encoding="utf-8"), re.M)]
    assert not other, f"use `from tests.conftest import ...`: {other}"


def _resolves(reference: str) -> bool:
    parts = reference.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            try:
                obj = inspect.getattr_static(obj, name)  # a descriptor is not run (a rule's page fields)
            except AttributeError:
                if not (isinstance(obj, type) and name in getattr(obj, "__annotations__", {})):
                    return False
                obj = None
        return True
    return False


def test_docstring_references_name_what_exists() -> None:
    broken = {}
    for path in sorted((ROOT / "schemalint").rglob("*.py")):
        for ref in set(_ROLE.findall(path.read_text(encoding="utf-8"))):
            if not _resolves(ref):
                broken.setdefault(str(path.relative_to(ROOT)), []).append(ref)
    assert not broken, f"references to names that do not exist (renamed or moved?): {broken}"


def test_the_reference_checker_sees_a_stale_name() -> None:
    assert _resolves("schemalint.engine.run_loop.run_catalog_rule")
    assert not _resolves("schemalint.engine.run_catalog_rule_gone")
    assert not _resolves("schemalint.no_such_module.x")
