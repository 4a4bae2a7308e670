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
    carry. The runtime's ``patternProperties`` exemptions are named in the message. At the root,
    when the runtime's validator is callable and ``Context.probe`` is set, the validator is sent
    the smallest advertised call plus an undeclared key (:func:`schemalint.probe.extra_key_probe`):
    a refusal that names the key (pydantic's "Unexpected keyword argument") makes the finding
    information, since the model can drop the key and retry.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one finding per object location where only the runtime is closed (a warning; an
        information when the runtime's refusal of an extra key at the root names the key)."""
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
            named = _refusal_naming_the_key(tool, ctx) if path == "" else None
            if named is None:
                msg = (
                    f"the advertised schema lets {where} carry keys it does not declare (additionalProperties "
                    f"is {said}), but the runtime refuses every undeclared key{exempt}: a model that adds one is "
                    "refused, often with an error that names no key"
                )
            else:
                msg = (
                    f"the advertised schema lets {where} carry keys it does not declare (additionalProperties "
                    f"is {said}), but the runtime refuses every undeclared key{exempt}; its refusal names the "
                    f"key (probed: '{named}'), so a model that adds one can retry without it"
                )
            hint = 'advertise `"additionalProperties": false` at this level' + (
                " and the same patternProperties" if rt.pattern_properties else ""
            )
            pointer = adv.additional_pointer or adv.pointer
            yield self.diag(tool, pointer, msg, instance_path=path, hint=hint,
                            severity=Severity.INFO if named is not None else None)


_SHOWN = 160
"""Most characters of the runtime's refusal quoted in a message."""


def _refusal_naming_the_key(tool: Tool, ctx: Context) -> str | None:
    """What the runtime's validator answers the smallest advertised call plus an undeclared key,
    when it refuses that call with an error naming the key (pydantic's "Unexpected keyword
    argument", jsonschema's "... was unexpected"); ``None`` when probes are off, the tool has no
    callable validator, no call could be made, or the refusal does not name the key."""
    runtime = tool.runtime
    if not ctx.probe or runtime is None or runtime.validate is None:
        return None
    from schemalint.probe import EXTRA_KEY, extra_key_probe

    outcomes = extra_key_probe(tool.advertised, runtime.validate)
    if outcomes is None:
        return None
    refused = outcomes[1]
    if refused.status != "refused":
        return None
    if EXTRA_KEY not in refused.message and not any(EXTRA_KEY in p for p, _ in refused.errors):
        return None
    text = refused.message if EXTRA_KEY in refused.message else f"{EXTRA_KEY}: {refused.message}"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
