"""SL306 object-without-properties: an object schema without (or with empty) ``properties``.

The Gemini finding is a warning at every level (the evidence conflicts); OpenAI's is an error.

Source: rules/SL306-object-without-properties.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import SAFE, Fix, branches_declare_properties, empty_properties
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, where


class ObjectWithoutProperties(ProviderRule):
    """An object schema that has no ``properties`` (OpenAI) or no non-empty ``properties`` (Gemini)."""

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(SAFE,
              "an empty `properties` constrains nothing, so every call valid before stays valid",
              empty_properties)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        if not isinstance(tool.advertised, Mapping):
            return
        for node in index_for(tool, ctx).objects():
            schema = node.schema
            props = schema.get("properties")
            if node.instance_path is None:
                continue  # $defs entries are checked where referenced
            root = node.pointer == ""
            for target in targets:
                if target.startswith("openai"):
                    if props is not None or (target == "openai" and not root):
                        continue
                    if target == "openai-strict" and schema.get("additionalProperties") not in (None, False):
                        continue  # a map: SL307 reports it
                    hint = ('add "properties": {} (for a tool without arguments: {"type": "object", '
                            '"properties": {}})')
                    if branches_declare_properties(schema):
                        hint = ("declare the properties its branches declare in `properties` beside them "
                                '(an empty "properties" would say the object takes no argument)')
                    yield ProfileFault(
                        target,
                        E,
                        node.pointer,
                        "noprops",
                        f'{where(node)} is an object schema without "properties"; OpenAI answers 400 '
                        "'object schema missing properties'",
                        hint,
                        node.instance_path,
                    )
                elif target == "gemini":
                    if isinstance(props, Mapping) and props:
                        continue
                    if root:
                        yield ProfileFault(
                            target,
                            W,
                            node.pointer,
                            "noprops",
                            "the parameters object has no properties; Gemini has answered 400 "
                            "'parameters.properties: should be non-empty for OBJECT type' to such "
                            "declarations, although it has also been seen accepting them and calling the "
                            "tool with {}",
                            "leave `parameters` out of the declaration for a tool without arguments",
                            node.instance_path,
                        )
                    else:
                        yield ProfileFault(
                            target,
                            W,
                            node.pointer,
                            "noprops",
                            f"{where(node)} is an OBJECT without properties; Gemini requires non-empty "
                            "properties on OBJECT schemas and drops free-form maps",
                            "declare the expected keys as properties, or pass the map as a JSON string "
                            "and say so in the description",
                            node.instance_path,
                        )
