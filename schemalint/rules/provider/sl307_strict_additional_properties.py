"""SL307 strict-additional-properties: strict mode needs ``additionalProperties: false`` on every object.

A missing key is a warning for Anthropic (the SDK's ``transform_schema`` adds it).

Source: rules/SL307-strict-additional-properties.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import IN_PLACE_APPLICATORS, MIXED, Fix, close_object
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, ptr_key, where

_BRANCHES_HINT = (
    "do not close this object as it stands: its {keywords} keys that additionalProperties "
    "does not see, so false here would refuse every one of them; make each branch a complete object "
    'with its own properties and "additionalProperties": false, and keep no keys at this level'
)

_MAP_HINT = (
    'set "additionalProperties": false; a free-form map cannot be expressed in strict mode, so '
    'declare its keys as properties or use an array of {"key": ..., "value": ...} objects'
)


class StrictAdditionalProperties(ProviderRule):
    """An object in a strict tool whose ``additionalProperties`` is missing or not ``false``."""

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(MIXED,
              "closing an object that declares properties is what strict decoding does anyway (safe); closing a"
              " free-form object or a map takes keys away (unsafe)",
              close_object,
              in_code={"python": 'in the Pydantic model: model_config = ConfigDict(extra="forbid")',
                       "typescript": "in the zod schema: z.object({...}).strict()"})

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        if not isinstance(tool.advertised, Mapping):
            return
        if targets == ("bedrock",) and not tool.strict:
            return
        for node in index_for(tool, ctx).objects():
            ap = node.schema.get("additionalProperties", "<missing>")
            if ap is False:
                continue
            for target in targets:
                if target == "bedrock" and not tool.strict:
                    continue
                if ap == "<missing>":
                    if target == "bedrock":
                        continue  # Bedrock injects false
                    sev = E if target == "openai-strict" else W
                    yield ProfileFault(
                        target,
                        sev,
                        node.pointer,
                        "missing",
                        f'{where(node)} is an object without "additionalProperties": false; strict '
                        "mode requires it on every object (OpenAI: 400 \"'additionalProperties' is "
                        'required to be supplied and to be false")',
                        _missing_hint(node.schema),
                        node.instance_path,
                    )
                else:
                    yield ProfileFault(
                        target,
                        E,
                        ptr_key(node.pointer, "additionalProperties"),
                        "notfalse",
                        f"{where(node)} has additionalProperties {ap!r}; strict mode only accepts false "
                        "(the request is refused, or on Bedrock the map arrives empty)",
                        _MAP_HINT,
                        node.instance_path,
                    )


def _missing_hint(schema: Mapping[str, object]) -> str:
    """The hint for an object without ``additionalProperties``: add it, unless in-place applicators
    (``anyOf``, ``allOf``, ``$ref`` ...) declare keys that closing this object would refuse
    (JSON Schema 2020-12 Core section 10.3.2.3: ``additionalProperties`` sees only the sibling
    ``properties`` and ``patternProperties``)."""
    keywords = sorted(k for k in IN_PLACE_APPLICATORS if k in schema)
    if keywords:
        named = " and ".join(f"`{k}`" for k in keywords)
        return _BRANCHES_HINT.format(keywords=named + (" declare" if len(keywords) > 1 else " declares"))
    return 'add "additionalProperties": false to this object'
