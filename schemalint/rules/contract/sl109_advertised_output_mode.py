"""SL109 advertised-output-mode: the advertised schema requires keys the runtime fills in by default.

Source: rules/SL109-advertised-output-mode.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import declared_order, key_name, key_pointer, sides
from schemalint.schema.shapes import child_path


class AdvertisedOutputMode(Rule):
    """The advertised schema requires a key that the runtime input schema leaves optional *and*
    gives a default: the schema shown to the model was generated in output mode.

    The model must invent a value for a defaulted field on every call, and any validator built
    from the advertised schema (an MCP client, a gateway) refuses calls that omit it. Not a
    finding for a tool sent in OpenAI strict mode (``Tool.strict``), where every key is
    required by design and optional ones are written as nullable.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one warning per advertised-required key that the runtime input mode defaults."""
        s = sides(tool)
        if s is None or tool.strict:
            return
        seen: set[str] = set()
        for ipath, adv, rt in s.object_pairs():
            for key in sorted(adv.required - rt.required, key=declared_order(adv)):
                path = child_path(ipath, key)
                if path in seen or s.refused_at(path):
                    continue
                if rt.has_default(key):
                    default = rt.property_defaults[key]
                elif adv.has_default(key) and key in rt.properties:
                    default = adv.property_defaults[key]
                else:
                    continue
                seen.add(path)
                who = key_name(ipath, key)
                msg = (
                    f"the advertised schema requires {who}, but the runtime leaves it optional with default "
                    f"{_short(default)}: the model must invent a value on every call, and a client that "
                    f"validates against the advertised schema refuses calls without {who} "
                    "(the schema was probably generated in output mode)"
                )
                hint = (
                    'generate the advertised schema in input mode (zod: `z.toJSONSchema(s, {io: "input"})`; '
                    f'pydantic: `mode="validation"`), which leaves {who} optional'
                )
                yield self.diag(tool, key_pointer(adv, key), msg, instance_path=path, hint=hint)


def _short(value: object) -> str:
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return f"`{text}`" if len(text) <= 40 else f"`{text[:37]}...`"
