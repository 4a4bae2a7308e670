"""An AI SDK (TypeScript) tool sent to Gemini: what the framework removes is not reported (issue 27).

``@ai-sdk/google`` 3.x converts the tool's JSON Schema before the request (it drops ``$schema``,
``additionalProperties``, bounds; turns a nullable ``anyOf`` into ``nullable``) and 4.x sends it as
``parametersJsonSchema``; either way Gemini's ``parameters`` never sees those keywords. A real AI SDK
tool is loaded through Node; what the converter keeps (an ``anyOf`` without ``type``) is still reported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from schemalint.schema.framework_views import ai_sdk_google_sends
from tests.conftest import TS_EXAMPLE, cli_json, needs_node

TOOLS = '''
import { tool, jsonSchema } from "ai";
import { z } from "zod";

export const searchFlights = tool({
  description: "Search flights.",
  inputSchema: z.object({
    from: z.string().min(3).max(3),
    passengers: z.number().int().min(1).max(9),
    cabin: z.enum(["economy", "business"]).nullable(),
  }),
  execute: async () => "ok",
});

export const mixed = tool({
  description: "A value of two types.",
  inputSchema: jsonSchema({
    type: "object",
    properties: { value: { anyOf: [{ type: "string" }, { type: "integer" }] }, other: { type: ["string", "number"] } },
    additionalProperties: false,
  }),
  execute: async () => "ok",
});
'''


@needs_node
def test_keys_the_ai_sdk_removes_are_not_reported_for_gemini(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"type": "module"}\n')
    (tmp_path / "node_modules").symlink_to(TS_EXAMPLE / "node_modules", target_is_directory=True)
    (tmp_path / "tools.ts").write_text(TOOLS)
    _, report = cli_json("check", str(tmp_path / "tools.ts"), "--target", "gemini", "--select", "SL3")
    found = {(d["tool"], d["code"], d["pointer"].rsplit("#", 1)[-1]) for d in report["diagnostics"]}
    assert [f for f in found if f[0] == "searchFlights"] == [], found
    # kept by the converter and refused by Gemini 3: an anyOf without type; rewritten: the type list
    assert {(t, c, p.rsplit("/properties/", 1)[-1]) for t, c, p in found} == {("mixed", "SL314", "value")}, found


@pytest.mark.parametrize(("schema", "pointer", "sent"), [
    ({"type": "object", "$schema": "x"}, "/$schema", False),
    ({"properties": {"a": {"type": "integer", "minimum": 1}}}, "/properties/a/minimum", False),
    ({"properties": {"a": {"type": ["string", "null"]}}}, "/properties/a/type", False),
    ({"properties": {"a": {"type": ["string", "number"]}}}, "/properties/a/type", False),  # sent as anyOf
    ({"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}, "/properties/a", False),
    ({"properties": {"a": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}, "/properties/a", True),
    ({"properties": {"a": {"type": "string", "const": "x"}}}, "/properties/a/const", False),
    ({"properties": {"a": {"type": "string", "format": "email"}}}, "/properties/a/format", True),
    ({"type": "object", "properties": {}}, "", False),
    ({"type": "object", "properties": {"a": {"type": "string"}}}, "", True),
])
def test_what_the_converter_sends(schema: dict, pointer: str, sent: bool) -> None:
    assert ai_sdk_google_sends(schema, pointer) is sent


_DEF = {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                         "w": {"type": "integer", "minimum": 0}}}


@pytest.mark.parametrize(("schema", "pointer", "sent"), [
    # @ai-sdk/google 3.x inlines a referenced definition where the $ref is: its content is sent there
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/D"}}, "$defs": {"D": _DEF}},
     "/$defs/D/properties/v", True),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/D"}}, "$defs": {"D": _DEF}},
     "/$defs/D/properties/w/minimum", False),
    ({"type": "object", "properties": {"a": {"$ref": "#/definitions/D"}}, "definitions": {"D": _DEF}},
     "/definitions/D/properties/v", True),
    # a definition nothing references is never sent
    ({"type": "object", "properties": {"a": {"type": "string"}}, "$defs": {"D": _DEF}},
     "/$defs/D/properties/v", False),
    # a recursive reference: the whole schema goes out as parametersJsonSchema, nothing as parameters
    ({"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
      "$defs": {"N": {"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                                      "kids": {"type": "array", "items": {"$ref": "#/$defs/N"}}}}}},
     "/$defs/N/properties/v", False),
    ({"type": "object", "properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                                       "node": {"$ref": "#/$defs/N"}},
      "$defs": {"N": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/N"}}}}}},
     "/properties/v", False),
])
def test_references_as_the_converter_resolves_them(schema: dict, pointer: str, sent: bool) -> None:
    """Read in ``@ai-sdk/google@3.0.141`` dist/index.js: ``convertJSONSchemaReference`` inlines
    ``#/$defs/X`` and ``#/definitions/X``; a recursive one makes ``prepareFunctionDeclaration`` send
    ``parametersJsonSchema`` instead."""
    assert ai_sdk_google_sends(schema, pointer) is sent
