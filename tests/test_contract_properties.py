"""Property-based test of SL101: make random optional keys required at random depths on the runtime
side, and SL101 must report exactly those instance paths, no more, no fewer."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemalint.model import Contract, Origin, Tool, escape_token
from schemalint.rules.base import Context
from schemalint.rules.contract.sl101_required_drift import RequiredDrift
from tests.conftest import examples

NAMES = st.sampled_from(["a", "b", "c", "id", "spec", "x/y", "t~1", "options"])
SCALARS = st.sampled_from([{"type": "string"}, {"type": "integer", "minimum": 0}, {"type": "boolean"}, {}])


def objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """An object schema with 0-4 properties and a random subset of them required."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        props = draw(st.dictionaries(NAMES, children, max_size=4))
        required = [k for k in props if draw(st.booleans())]
        out: dict[str, Any] = {"type": "object", "properties": props}
        if required:
            out["required"] = required
        return out

    return build()


def wrappers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """An object, an array of it, or it made nullable with anyOf: same instance path, new branch."""
    return st.one_of(
        objects(inner),
        objects(inner).map(lambda o: {"type": "array", "items": o}),
        objects(inner).map(lambda o: {"anyOf": [o, {"type": "null"}]}),
    )


SCHEMAS = objects(st.recursive(SCALARS, wrappers, max_leaves=12))


def optional_sites(
    schema: Any, loc: tuple[Any, ...] = (), ipath: str = ""
) -> list[tuple[tuple[Any, ...], str, str]]:
    """Every (location of an object schema in the document, its instance path, optional key)."""
    out: list[tuple[tuple[Any, ...], str, str]] = []
    if not isinstance(schema, dict):
        return out
    if "anyOf" in schema:
        for i, sub in enumerate(schema["anyOf"]):
            out += optional_sites(sub, (*loc, "anyOf", i), ipath)
    if "items" in schema:
        out += optional_sites(schema["items"], (*loc, "items"), ipath + "/*")
    for key, sub in schema.get("properties", {}).items():
        if key not in schema.get("required", []):
            out.append((loc, ipath, key))
        out += optional_sites(sub, (*loc, "properties", key), f"{ipath}/{escape_token(key)}")
    return out


def at(doc: Any, loc: tuple[Any, ...]) -> Any:
    for step in loc:
        doc = doc[step]
    return doc


def move_to_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """Move every object-valued top-level property into ``$defs`` behind a ``$ref`` (used once)."""
    out = copy.deepcopy(schema)
    defs = {}
    for key, sub in list(out.get("properties", {}).items()):
        if isinstance(sub, dict) and sub.get("type") == "object":
            name = f"D{len(defs)}"
            defs[name] = sub
            out["properties"][key] = {"$ref": f"#/$defs/{name}"}
    if defs:
        out["$defs"] = defs
    return out


def sl101_paths(advertised: Any, contract: Contract) -> list[str]:
    tool = Tool("t", "", advertised, Origin("mem.json", "", "manifest"), "/advertised", runtime=contract)
    diags = list(RequiredDrift().check_tool(tool, Context()))
    paths = [d.instance_path for d in diags]
    assert len(paths) == len(set(paths)), "one finding per instance path"
    return sorted(p for p in paths if p is not None)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), schema=SCHEMAS, use_refs=st.booleans(), via_probes=st.booleans())
def test_sl101_reports_exactly_the_keys_made_required(
    data: st.DataObject, schema: dict[str, Any], use_refs: bool, via_probes: bool
) -> None:
    advertised = move_to_defs(schema) if use_refs else schema
    sites = optional_sites(schema)
    chosen = data.draw(st.lists(st.sampled_from(sites), unique=True, max_size=5) if sites else st.just([]))
    expected = sorted({f"{ipath}/{escape_token(key)}" for _loc, ipath, key in chosen})
    if via_probes:
        # the exporter's view: the runtime input schema is unknown, omissions were measured
        contract = Contract(refused_when_omitted=tuple(expected))
    else:
        runtime = copy.deepcopy(schema)
        for loc, _ipath, key in chosen:
            target = at(runtime, loc)
            target["required"] = [*target.get("required", []), key]
        contract = Contract(input=move_to_defs(runtime) if use_refs else runtime)
    assert sl101_paths(advertised, contract) == expected


@settings(max_examples=60, deadline=None)
@given(schema=SCHEMAS)
def test_sl101_identical_sides_are_clean(schema: dict[str, Any]) -> None:
    assert sl101_paths(schema, Contract(input=copy.deepcopy(schema), output=copy.deepcopy(schema))) == []
