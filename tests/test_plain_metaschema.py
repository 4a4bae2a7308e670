"""SL001's Python fast path (`plainly_valid_draft07`) never calls a schema valid that the native
metaschema validator refuses: checked on every schema of the shared corpus and on mutations."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import load
from schemalint.schema.dialect import fast_validator, plainly_valid, plainly_valid_draft07
from tests.conftest import CORPUS, ROOT, needs_shared


def _schemas(sources: list[str], loaded: Any = None) -> list[Any]:
    """The advertised and output schemas without ``$schema`` of the tools of ``sources`` (or of
    ``loaded``, a :class:`~schemalint.api.LoadResult` already made of them)."""
    out = []
    for tool in (loaded if loaded is not None else load(sources)).tools:
        for schema in (tool.advertised, tool.output_schema):
            if isinstance(schema, dict) and "$schema" not in schema:
                out.append(schema)
    return out


def _agree(schemas: list[Any]) -> tuple[int, int]:
    validator = fast_validator("draft-07")
    plain = 0
    for schema in schemas:
        if plainly_valid_draft07(schema):
            plain += 1
            assert validator.is_valid(schema), schema
    return plain, len(schemas)


BROKEN: list[tuple[str, Any]] = [
    ("type", "dict"), ("type", []), ("type", ["string", "string"]), ("type", 3), ("required", "a"),
    ("required", ["a", "a"]), ("required", [1]), ("minLength", -1), ("maxItems", 1.5), ("maxItems", True),
    ("maximum", "3"), ("maximum", False), ("properties", []), ("properties", {"a": 3}), ("anyOf", []),
    ("anyOf", {}), ("enum", "a"), ("description", 3), ("items", 3), ("additionalProperties", "no"),
    ("uniqueItems", 1), ("readOnly", "yes"), ("examples", {}), ("not", []), ("definitions", {"d": "x"}),
    # JSON has no NaN or Infinity (the native validator reads them as null): never decided in Python
    ("minimum", float("nan")), ("maximum", float("inf")), ("exclusiveMinimum", float("-inf")),
]


@pytest.mark.parametrize(("key", "value"), BROKEN)
def test_a_wrong_value_is_never_plainly_valid(key: str, value: Any) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", key: value}}}
    assert not plainly_valid_draft07(schema)
    assert not fast_validator("draft-07").is_valid(schema)


def test_examples_agree_and_most_are_decided_in_python() -> None:
    plain, total = _agree(_schemas([str(ROOT / "examples")]))
    assert total > 30 and plain > total // 3


@needs_shared
def test_corpus_schemas_agree(corpus_loaded: Any) -> None:
    schemas = _schemas([str(CORPUS)], corpus_loaded)  # the corpus loaded once per test process (conftest)
    plain, total = _agree(schemas)
    assert total > 10_000 and plain > total // 4, (plain, total)
    # and with one value made wrong in each plainly valid schema's first property
    validator = fast_validator("draft-07")
    for schema in schemas[:3000]:
        if not plainly_valid_draft07(schema):
            continue
        props = schema.get("properties")
        if isinstance(props, dict) and props and isinstance(next(iter(props.values())), dict):
            for key, value in BROKEN[:12]:
                bad = copy.deepcopy(schema)
                next(iter(bad["properties"].values()))[key] = value
                if plainly_valid_draft07(bad):
                    assert validator.is_valid(bad), (key, value)


NEWER: list[tuple[str, Any]] = [
    ("$defs", 3), ("prefixItems", {}), ("$anchor", "no spaces allowed"), ("dependentRequired", {"a": "b"}),
    ("unevaluatedProperties", "no"), ("minContains", -1), ("deprecated", "yes"), ("writeOnly", 1),
]


@pytest.mark.parametrize(("key", "value"), [*BROKEN, *NEWER])
def test_a_wrong_value_is_never_plainly_valid_2020_12(key: str, value: Any) -> None:
    """MCP tools are read as 2020-12 (SEP-1613): the fast path must hold for that dialect too."""
    schema = {"type": "object", "properties": {"a": {"type": "string", key: value}}}
    assert not plainly_valid(schema, "2020-12")
    assert not fast_validator("2020-12").is_valid(schema)


@needs_shared
def test_corpus_schemas_agree_as_2020_12(corpus_loaded: Any) -> None:
    validator = fast_validator("2020-12")
    schemas = _schemas([str(CORPUS)], corpus_loaded)
    plain = 0
    for schema in schemas:
        if plainly_valid(schema, "2020-12"):
            plain += 1
            assert validator.is_valid(schema), schema
    assert plain > len(schemas) // 4, (plain, len(schemas))


NON_FINITE = """
import json, sys
from schemalint import api

def sl001(path):
    return [(d.pointer, d.message) for d in api.check([path]).diagnostics if d.code == "SL001"]

assert "jsonschema_rs" not in sys.modules, "schemalint.api imports the native validator"
first = sl001(sys.argv[1])  # the Python fast path may judge while the native validator is not loaded
import jsonschema_rs  # noqa: F401
print(json.dumps([first, sl001(sys.argv[1])]))
"""


def test_sl001_on_nan_and_infinity_does_not_depend_on_what_was_imported(tmp_path: Path) -> None:
    """A number keyword holding NaN or Infinity (read from JSON by the fallback parser, or YAML's
    ``.nan``): before, the Python fast path called it valid while the native validator was not
    loaded, and the native validator (which reads it as null) refused it once loaded, so SL001's
    verdict depended on what a process had checked before. Checked here in a fresh process both
    ways: the same findings, each naming the value."""
    schema = '{"type": "object", "properties": {"n": {"type": "number", "minimum": NaN, "maximum": Infinity}}}'
    source = tmp_path / "tools.json"
    source.write_text('[{"type": "function", "function": {"name": "t", "description": "T.", "parameters": '
                      + schema + "}}]", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", NON_FINITE, str(source)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    before_import, after_import = json.loads(proc.stdout)
    assert before_import == after_import
    assert [p for p, _ in after_import] == ["/0/function/parameters/properties/n/minimum",
                                            "/0/function/parameters/properties/n/maximum"]
    assert "`minimum` is NaN, which is not a JSON value" in after_import[0][1]
    assert "`maximum` is Infinity, which is not a JSON value" in after_import[1][1]
