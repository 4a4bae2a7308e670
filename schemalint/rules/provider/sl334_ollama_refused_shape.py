"""SL334 ollama-refused-shape: a parameter schema Ollama's Go structs cannot unmarshal (400).

Ollama decodes ``tools[].function.parameters`` into Go structs (``ToolFunctionParameters``, and
``ToolProperty`` for each property). Go's ``encoding/json`` refuses a value of another JSON type
("json: cannot unmarshal bool into Go struct field ...") and the whole request fails with 400: a
boolean subschema (``"x": true``) or a string where a property schema must be, ``required`` as an
object, ``properties`` as an array, a ``type`` list at the root (provider-facts row
``ollama.refused-shapes``). Unknown keys are dropped, not refused (``additionalProperties``, any
value; SL324 reports what that loses), and a ``type`` list on a property is accepted (row
``ollama.accepted-shapes``).

Source: rules/SL334-ollama-refused-shape.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from schemalint.model import Tool, join_pointer
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule

_GO_TYPE = {bool: "bool", str: "string", int: "number", float: "number", list: "array", dict: "object",
            type(None): "null"}
_MAX_DEPTH = 64


def _json_type(v: Any) -> str:
    return _GO_TYPE.get(type(v), "object" if isinstance(v, Mapping) else "array" if isinstance(v, list) else "value")


def _strings(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


class OllamaRefusedShape(ProviderRule):
    """A value of a JSON type Ollama's tool structs cannot decode: the request fails with 400."""

    severity = E
    facts = ("ollama.refused-shapes", "ollama.accepted-shapes")

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        root = tool.advertised
        if not isinstance(root, Mapping):
            return
        t = root.get("type")
        if t is not None and not isinstance(t, str):
            yield self._finding("/type", t, "ToolFunctionParameters.type", "string",
                                'write one type: "type": "object"')
        yield from self._common(root, "", "ToolFunctionParameters", 0)

    def _common(self, schema: Mapping[str, Any], ptr: str, struct: str, depth: int) -> Iterator[ProfileFault]:
        req = schema.get("required")
        if req is not None and not _strings(req):
            yield self._finding(ptr + "/required", req, f"{struct}.required", "[]string",
                                'list the required property names, e.g. "required": ["a", "b"] (a conditional '
                                "form of required is not understood)")
        props = schema.get("properties")
        if props is not None and not isinstance(props, Mapping):
            yield self._finding(ptr + "/properties", props, f"{struct}.properties", "map[string]api.ToolProperty",
                                'write properties as an object, {} when there are none')
        elif isinstance(props, Mapping) and depth < _MAX_DEPTH:
            for name, sub in props.items():
                yield from self._property(sub, join_pointer(ptr, "properties", name), depth + 1)

    def _property(self, sub: Any, ptr: str, depth: int) -> Iterator[ProfileFault]:
        if sub is None:
            return
        if not isinstance(sub, Mapping):
            hint = ('write {} (any value) or a typed schema such as {"type": "string"} instead of true'
                    if sub is True else "write the property's schema as an object, e.g. {\"type\": \"string\"}")
            yield self._finding(ptr, sub, "ToolProperty", "api.ToolProperty", hint)
            return
        t = sub.get("type")
        if t is not None and not (isinstance(t, str) or _strings(t)):
            yield self._finding(ptr + "/type", t, "ToolProperty.type", "api.PropertyType",
                                'write a type name or a list of them, e.g. "string" or ["string", "null"]')
        d = sub.get("description")
        if d is not None and not isinstance(d, str):
            yield self._finding(ptr + "/description", d, "ToolProperty.description", "string",
                                "write the description as a string")
        e = sub.get("enum")
        if e is not None and not isinstance(e, list):
            yield self._finding(ptr + "/enum", e, "ToolProperty.enum", "[]interface {}", "write enum as a list")
        branches = sub.get("anyOf")
        if branches is not None:
            if not isinstance(branches, list):
                yield self._finding(ptr + "/anyOf", branches, "ToolProperty.anyOf", "[]api.ToolProperty",
                                    "write anyOf as a list of schemas")
            elif depth < _MAX_DEPTH:
                for i, b in enumerate(branches):
                    yield from self._property(b, f"{ptr}/anyOf/{i}", depth + 1)
        yield from self._common(sub, ptr, "ToolProperty", depth)

    @staticmethod
    def _finding(ptr: str, got: Any, field: str, go_type: str, hint: str) -> ProfileFault:
        shown = json.dumps(got, ensure_ascii=False, default=str)
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        return ProfileFault(
            "ollama", E, ptr, "refused",
            f"{shown} at {ptr or '/'} cannot be decoded by Ollama (400 'json: cannot unmarshal {_json_type(got)} "
            f"into Go struct field {field} of type {go_type}'); the whole request fails",
            hint,
        )
