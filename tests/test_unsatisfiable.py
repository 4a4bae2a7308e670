"""SL008 unsatisfiable-schema and "nothing accepted" in the contract rules (issue 27).

The analysis (:mod:`schemalint.schema.satisfiable`) is checked against a real validator
(jsonschema): every schema it calls empty must refuse every probe value, on generated schemas;
the rule is run on a schema rendered by real zod (Node), and SL104 on the schema of a real pydantic
model whose validator refuses everything; the corpus findings are counted.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Annotated, Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field, ValidationError

from schemalint.schema.satisfiable import why_empty
from tests._fixtures_cli import run_json_here
from tests.conftest import CORPUS_CHECKED_GROUP, TS_EXAMPLE, examples, needs_node, needs_shared

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.5, 1.0, -2.5]),
                     st.sampled_from(["", "a", "abc", "1"]))
_TYPES = st.sampled_from(["string", "number", "integer", "boolean", "null", "array", "object"])


def _leaf() -> st.SearchStrategy[dict[str, Any]]:
    parts = st.fixed_dictionaries({}, optional={
        "type": st.one_of(_TYPES, st.lists(_TYPES, min_size=1, max_size=3, unique=True)),
        "enum": st.lists(_SCALARS, min_size=0, max_size=3),
        "const": _SCALARS,
        "minimum": st.integers(-2, 2), "maximum": st.integers(-2, 2),
        "exclusiveMinimum": st.sampled_from([-1, 0, 0.5, 1]), "exclusiveMaximum": st.sampled_from([-1, 0, 0.5, 1]),
        "minLength": st.integers(0, 3), "maxLength": st.integers(0, 3),
        "minItems": st.integers(0, 2), "maxItems": st.integers(0, 2),
    })
    return parts


_SCHEMAS = st.recursive(
    _leaf(),
    lambda inner: st.one_of(
        st.builds(lambda a, b, extra: {**extra, "allOf": [a, b]}, inner, inner, _leaf()),
        st.builds(lambda a, b, extra: {**extra, "anyOf": [a, b]}, inner, inner, _leaf()),
        st.builds(lambda p, req: {"type": "object", "properties": {"p": p}, **({"required": ["p"]} if req else {})},
                  st.one_of(inner, st.just(False)), st.booleans()),
    ),
    max_leaves=4,
)


def _probes(schema: Any) -> list[Any]:
    """Values that reach every branch of the analysis: each kind, every number and string written in
    the schema, its neighbours, and objects/arrays built from them."""
    found: list[Any] = [None, True, False, 0, 1, -1, 0.5, 1.5, -2.5, 2, -2, 3, "", "a", "abc", "abcd", [], [1], [1, 2],
                        {}, {"p": None}]

    def collect(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("enum",) and isinstance(value, list):
                    found.extend(value)
                elif key == "const":
                    found.append(value)
                elif isinstance(value, (int, float)) and not isinstance(value, bool):
                    found.extend([value, value + 0.25, value - 0.25, value + 1, value - 1])
                collect(value)
        elif isinstance(node, list):
            for item in node:
                collect(item)

    collect(schema)
    found.extend({"p": v} for v in list(found))
    found.extend([[v] for v in list(found)[:40]])
    return found


@settings(max_examples=examples(400), deadline=None)
@given(_SCHEMAS)
def test_a_schema_called_empty_refuses_every_probe(schema: dict[str, Any]) -> None:
    """Soundness: whenever the analysis says "admits no value", jsonschema (2020-12) agrees on every
    probe value; a wrong removal (a bound, an enum filter, an integer range) fails here."""
    empty = why_empty(schema)
    if empty is None:
        return
    validator = jsonschema.Draft202012Validator(schema)
    accepted = [v for v in _probes(schema) if validator.is_valid(v)]
    assert not accepted, f"{schema} called empty ({empty.reason}) but accepts {accepted[:3]}"


@pytest.mark.parametrize(("schema", "pointer", "words"), [
    ({"allOf": [{"type": "string"}, {"type": "number"}]}, "/allOf/1/type", "(string) and"),
    ({"type": "integer", "enum": ["1", "2"]}, "/enum", 'no `enum` value ("1", "2") is of type integer'),
    ({"type": "number", "minimum": 5, "maximum": 1}, "/minimum", "`minimum` 5 is above `maximum` 1"),
    ({"type": "number", "exclusiveMinimum": 3, "maximum": 3}, "/exclusiveMinimum", "leave no number"),
    ({"type": "integer", "minimum": 1.2, "maximum": 1.8}, "/minimum", "no integer lies between"),
    ({"type": "string", "minLength": 4, "maxLength": 2}, "/minLength", "`minLength` 4 is above `maxLength` 2"),
    ({"type": "array", "minItems": 2, "maxItems": 1}, "/minItems", "`minItems` 2"),
    ({"type": "object", "properties": {"id": False}, "required": ["id"]}, "/properties/id", "is `false`"),
    ({"const": "a", "enum": ["b"]}, "/enum", "both `const` and `enum`"),
    ({"type": "string", "const": 3}, "/const", "the `const` value 3 is not of type string"),
    ({"type": "string", "anyOf": [{"type": "integer"}, {"type": "null"}]}, "/anyOf", "admit no common value"),
    ({"$ref": "#/$defs/n", "type": "string", "$defs": {"n": {"type": "number"}}}, "/type", "no common value"),
])
def test_each_kind_is_named_at_its_keyword(schema: dict[str, Any], pointer: str, words: str) -> None:
    empty = why_empty(schema)
    assert empty is not None and empty.pointer == pointer and words in empty.reason, empty


@pytest.mark.parametrize("schema", [
    {"type": "number", "minimum": 1.2, "maximum": 1.8},
    {"minimum": 5, "maximum": 1},  # no type: a string still passes
    {"type": ["string", "null"], "enum": ["a", None]},
    {"type": "integer", "enum": [1.0]},  # 1.0 is an integer in JSON Schema
    {"type": "object", "properties": {"x": False}},  # an optional false property forbids the key
    {"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/s", "type": "number",
     "definitions": {"s": {"type": "string"}}},  # draft-07 ignores $ref siblings
    {"type": "integer", "minimum": 0, "exclusiveMinimum": False, "maximum": 0},  # draft-04 form, inclusive
])
def test_satisfiable_schemas_are_not_called_empty(schema: dict[str, Any]) -> None:
    assert why_empty(schema) is None


def test_cyclic_and_deep_schemas_end() -> None:
    cyclic = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}
    assert why_empty(cyclic) is None
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(3000):
        deep = {"allOf": [deep]}
    assert why_empty(deep) is None  # past the depth bound: taken to admit values, no recursion error


@needs_node
def test_a_zod_intersection_of_disjoint_types_is_reported(tmp_path: Path) -> None:
    """Real zod 4 renders ``z.intersection(z.string(), z.number())`` as an ``allOf`` no value satisfies."""
    script = ("const z = require('zod'); process.stdout.write(JSON.stringify(z.toJSONSchema(z.object({"
              "seconds: z.intersection(z.string(), z.number()), label: z.string()}), {io: 'input'})))")
    rendered = json.loads(subprocess.run(["node", "-e", script], cwd=TS_EXAMPLE, capture_output=True, text=True,
                                         check=True, timeout=60).stdout)
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [{"name": "set_timeout", "description": "Set a timeout.",
                                           "inputSchema": rendered}]}))
    _, report = run_json_here("check", str(path), "--select", "SL008")
    found = [(d["pointer"], d["severity"]) for d in report["diagnostics"]]
    assert found == [("/tools/0/inputSchema/properties/seconds", "error")], report["diagnostics"]


class _Limits(BaseModel):
    retries: Annotated[int, Field(ge=10, le=1)]


def test_sl104_compares_a_runtime_that_accepts_nothing(tmp_path: Path) -> None:
    """A real pydantic model whose bounds admit no value: its validator refuses every integer, and
    SL104 says so instead of skipping the location."""
    for value in (0, 1, 5, 10, 11):
        with pytest.raises(ValidationError):
            _Limits(retries=value)
    runtime = _Limits.model_json_schema()
    advertised = {"type": "object", "properties": {"retries": {"type": "integer"}}, "required": ["retries"]}
    path = tmp_path / "contracts.json"
    entry = {"name": "configure", "description": "Configure retries.", "advertised": advertised,
             "runtime": {"input": runtime}}
    path.write_text(json.dumps({"schemalint": 1, "tools": [entry]}))
    _, report = run_json_here("check", str(path), "--select", "SL104")
    [diag] = report["diagnostics"]
    assert diag["pointer"] == "/tools/0/advertised/properties/retries" and diag["severity"] == "error"
    assert "accepts no value for `retries` (`minimum` 10 is above `maximum` 1)" in diag["message"]
    assert "every call is refused" in diag["message"]


@needs_shared
@pytest.mark.xdist_group(CORPUS_CHECKED_GROUP)
def test_corpus_findings_are_the_known_real_faults(corpus_checked: Any) -> None:
    """On the shared corpus every finding is a real impossibility (read by hand, 2026-12-02): BFCL
    declarations with `type: boolean` or `integer` and string `enum` values, `type: array` with an `enum`
    of item values. A new finding elsewhere fails this test, to be read before it is accepted. The
    findings are read from the shared check of the corpus with every rule (SL008's findings are the
    same as with ``--select SL008``: a rule's findings do not depend on the others)."""
    diags = [d for d in corpus_checked.diagnostics if d.code == "SL008"]
    assert diags and all("/bfcl/" in d.file for d in diags), [d for d in diags if "/bfcl/" not in d.file][:3]
    assert all("`enum` value" in d.message for d in diags)
    assert len(diags) < 200


def test_a_ref_is_reported_only_when_its_target_is_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SL008 does not ask ``why_empty`` about a subschema of ``$ref`` and annotations whose target is
    not ``false`` (``_only_refers``): the findings are those of asking it about every subschema, on
    references to an empty, a fine, a ``false``, a recursive and a missing definition, in 2020-12
    and draft-07."""
    from schemalint.rules.shape import sl008_unsatisfiable_schema as sl008

    defs = {"empty": {"type": "integer", "minimum": 3, "maximum": 1}, "fine": {"type": "string"}, "no": False,
            "tree": {"type": "object", "properties": {"child": {"$ref": "#/$defs/tree"}}, "required": ["child"]},
            "loop": {"$ref": "#/$defs/loop"}}
    props = {f"{name}{i}": ({"$ref": f"#/$defs/{name}"} if i == 0 else
                            {"$ref": f"#/$defs/{name}", "description": f"The {name}."})
             for name in (*defs, "missing") for i in range(2)}
    tools = [{"name": f"t{n}", "description": "Do it.",
              "inputSchema": {**({"$schema": "http://json-schema.org/draft-07/schema#"} if n else {}),
                              "type": "object", "properties": props, "required": ["fine0", "no1"],
                              "$defs": defs}} for n in range(2)]
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": tools}))
    _, report = run_json_here("check", str(path), "--select", "SL008", "--fail-on", "never")
    monkeypatch.setattr(sl008, "_only_refers", lambda schema, root: False)  # ask about every subschema
    _, every = run_json_here("check", str(path), "--select", "SL008", "--fail-on", "never")
    found = [(d["pointer"], d["severity"]) for d in report["diagnostics"]]
    assert found == [(d["pointer"], d["severity"]) for d in every["diagnostics"]]
    assert report["diagnostics"] == every["diagnostics"]
    assert ("/tools/0/inputSchema/properties/no1", "error") in found  # `$ref` to `false`, required
    assert ("/tools/0/inputSchema/$defs/empty", "warning") in found
    assert not any("/properties/empty" in p or "/properties/fine" in p for p, _ in found)
