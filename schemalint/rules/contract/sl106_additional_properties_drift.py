"""SL106 additional-properties-drift: the advertised schema admits extra keys the runtime refuses.

Source: rules/SL106-additional-properties-drift.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import name, object_pairs
from schemalint.schema.shapes import ABSENT


class AdditionalPropertiesDrift(Rule):
    """At an object location, the runtime input schema refuses undeclared keys
    (``additionalProperties: false``) while the advertised schema admits them (absent, ``true``
    or a schema).

    Compared against the runtime *input* schema only: zod's output mode adds
    ``additionalProperties: false`` to every object, which says nothing about what a call may
    carry. The runtime's ``patternProperties`` exemptions are named in the message.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one warning per object location where only the runtime is closed."""
        seen: set[str] = set()
        for _sides, path, adv, rt in object_pairs(tool):
            if (
                path in seen
                or not rt.refuses_extra()
                or adv.refuses_extra()
            ):
                continue
            seen.add(path)
            where = "the call" if path == "" else name(path)
            said = "absent" if adv.additional is ABSENT else "not false"
            exempt = ""
            if rt.pattern_properties:
                exempt = " (except keys matching " + ", ".join(f"`{p}`" for p in rt.pattern_properties) + ")"
            msg = (
                f"the advertised schema lets {where} carry keys it does not declare (additionalProperties "
                f"is {said}), but the runtime refuses every undeclared key{exempt}: a model that adds one is "
                "refused, often with an error that names no key"
            )
            hint = 'advertise `"additionalProperties": false` at this level' + (
                " and the same patternProperties" if rt.pattern_properties else ""
            )
            pointer = adv.additional_pointer or adv.pointer
            yield self.diag(tool, pointer, msg, instance_path=path, hint=hint)
