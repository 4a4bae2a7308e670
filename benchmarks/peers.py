"""Peers measured beside schemalint on the same input (benchmarks/run.py --peers).

usage: python benchmarks/peers.py jsonschema PATH [PATH...]

``jsonschema``: parse every file with orjson (JSON Lines stored as .json too, as the floor does),
find every tool's schema (the value of ``inputSchema``, ``input_schema``, ``parameters`` or
``parametersJsonSchema`` of an object with a ``name``) and run ``check_schema`` of the validator
class its ``$schema`` names (draft 2020-12 without one) on it: what a bare JSON Schema check of
the same tools costs. Prints the number of schemas checked and of those that fail.

The other peers are command lines (see :func:`commands`): check-jsonschema (PyPI; it validates
a document against a schema, so it can read a one-file catalog but not a directory of mixed
tool files), and Spectral (npm ``@stoplight/spectral-cli``) with a ruleset of three rules.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

SCHEMA_KEYS = ("inputSchema", "input_schema", "parameters", "parametersJsonSchema")


def _schemas(value: Any) -> list[Any]:
    found: list[Any] = []
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("name"), str):
                for key in SCHEMA_KEYS:
                    schema = node.get(key)
                    if isinstance(schema, dict):
                        found.append(schema)
                        break
                else:
                    stack.extend(node.values())
                continue
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def jsonschema_loop(roots: list[str]) -> None:
    import orjson
    from jsonschema import Draft202012Validator, SchemaError, validators

    checked = failed = 0
    paths = []
    for root in roots:
        if os.path.isfile(root):
            paths.append(root)
        for dirpath, _, names in os.walk(root):
            paths.extend(os.path.join(dirpath, n) for n in sorted(names) if n.endswith((".json", ".jsonl", ".snap")))
    for path in paths:
        with open(path, "rb") as fh:
            data = fh.read()
        try:
            values = [orjson.loads(data)]
        except orjson.JSONDecodeError:
            values = []
            for line in data.splitlines():
                with contextlib.suppress(orjson.JSONDecodeError):
                    values.append(orjson.loads(line))
        for value in values:
            for schema in _schemas(value):
                checked += 1
                cls = validators.validator_for(schema, default=Draft202012Validator)
                try:
                    cls.check_schema(schema)
                except SchemaError:
                    failed += 1
                except Exception:  # a schema the metaschema check itself cannot walk
                    failed += 1
    print(checked, failed)


SPECTRAL_RULESET = """\
rules:
  tool-has-name:
    given: "$.tools[*]"
    then: {field: name, function: truthy}
    severity: error
  tool-has-description:
    given: "$.tools[*]"
    then: {field: description, function: truthy}
    severity: warn
  schema-is-object:
    given: "$.tools[*].inputSchema"
    then: {field: type, function: enumeration, functionOptions: {values: [object]}}
    severity: error
"""
"""Spectral's three rules: every tool of a ``tools`` list has a name and a description, and its
``inputSchema`` is an object schema."""


def catalog_schema() -> dict[str, Any]:
    """The schema check-jsonschema validates a one-file catalog against: every ``tools`` entry has a
    name, and its schema (``inputSchema``, ``input_schema`` or ``parameters``) is a valid draft-07
    schema (check-jsonschema resolves the metaschema's URI locally: nothing is fetched)."""
    meta = {"$ref": "http://json-schema.org/draft-07/schema#"}
    return {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
            "properties": {"tools": {"type": "array", "items": {
                "type": "object", "required": ["name"],
                "properties": {"name": {"type": "string"}, "inputSchema": meta, "input_schema": meta,
                               "parameters": meta}}}}}


def commands(work: Path, target: Path, one_file: bool) -> dict[str, list[str]]:
    """The peers' command lines for ``target`` (a file or directory) that can be run here, by name."""
    out: dict[str, list[str]] = {"jsonschema check_schema loop": [sys.executable, str(Path(__file__).resolve()),
                                                                  "jsonschema", str(target)]}
    cj = shutil.which("check-jsonschema") or os.environ.get("CHECK_JSONSCHEMA")
    if cj and one_file:
        schema = work / "catalog-schema.json"
        if not schema.exists():
            schema.write_text(json.dumps(catalog_schema()))
        out["check-jsonschema"] = [cj, "--schemafile", str(schema), str(target)]
    spectral = shutil.which("spectral") or os.environ.get("SPECTRAL")
    if spectral:
        ruleset = work / "spectral-ruleset.yaml"
        ruleset.write_text(SPECTRAL_RULESET)
        glob = str(target) if one_file else f"{target}/**/*.json"
        out["Spectral, 3 rules"] = [spectral, "lint", "--ruleset", str(ruleset), "--quiet", "-f", "json", glob]
    return out


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "jsonschema":
        jsonschema_loop(sys.argv[2:])
    else:
        raise SystemExit(__doc__)
