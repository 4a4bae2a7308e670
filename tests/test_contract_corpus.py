"""Contract rules on real schemas from ../shared/corpus: identical sides are clean, and a required key
dropped from the advertised side (at any depth) is reported by SL101 at exactly that instance path."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from schemalint.api import load
from schemalint.engine import run_rules
from schemalint.model import Contract, Tool, escape_token
from schemalint.rules.base import Context
from schemalint.rules.contract import RULES
from tests.conftest import CORPUS, internal_errors, needs_shared


def required_sites(
    schema: Any, loc: tuple[Any, ...] = (), ipath: str = ""
) -> list[tuple[tuple[Any, ...], str, str]]:
    """(location of an object schema, its instance path, a required key) through properties and items only."""
    out: list[tuple[tuple[Any, ...], str, str]] = []
    if not isinstance(schema, dict):
        return out
    props = schema.get("properties")
    req = schema.get("required")
    if isinstance(props, dict) and isinstance(req, list):
        out += [(loc, ipath, k) for k in req if isinstance(k, str) and k in props and req.count(k) == 1]
    if isinstance(props, dict):
        for k, sub in props.items():
            out += required_sites(sub, (*loc, "properties", k), f"{ipath}/{escape_token(k)}")
    if isinstance(schema.get("items"), dict):
        out += required_sites(schema["items"], (*loc, "items"), ipath + "/*")
    return out


def sample_tools() -> list[Tool]:
    tools = load([str(CORPUS / "modelcontextprotocol-servers"), str(CORPUS / "github-mcp-server")]).tools
    return [t for t in tools if isinstance(t.advertised, dict)][:400]


@needs_shared
def test_corpus_identical_sides_are_clean_and_dropped_required_is_found() -> None:
    tools = sample_tools()
    assert len(tools) >= 100
    same = [
        dataclasses.replace(
            t, runtime=Contract(input=copy.deepcopy(t.advertised), output=copy.deepcopy(t.advertised))
        )
        for t in tools
    ]
    assert list(run_rules([r() for r in RULES], same, Context())) == []
    mutated: list[Tool] = []
    expected: dict[str, str] = {}
    for i, t in enumerate(tools):
        sites = required_sites(t.advertised)
        if not sites:
            continue
        loc, ipath, key = sites[i % len(sites)]  # vary the depth across tools
        adv = copy.deepcopy(t.advertised)
        target = adv
        for step in loc:
            target = target[step]
        target["required"] = [k for k in target["required"] if k != key]
        name = f"{t.name}#{i}"
        expected[name] = f"{ipath}/{escape_token(key)}"
        mutated.append(
            dataclasses.replace(t, name=name, advertised=adv, runtime=Contract(input=t.advertised))
        )
    assert len(mutated) >= 50 and any(p.count("/") > 1 for p in expected.values())
    diags = list(run_rules([r() for r in RULES], mutated, Context()))
    got = {(d.tool, d.instance_path) for d in diags if d.code == "SL101"}
    assert got == set(expected.items())
    assert not internal_errors(diags)
