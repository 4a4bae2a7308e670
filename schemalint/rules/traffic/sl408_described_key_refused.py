"""SL408 described-key-refused: a call carries a key the description asks for and a closed schema refuses.

Incident 2: the description told the model to pass a short ``name``; the schema had
``additionalProperties: false`` and no ``name``; a pre-validation layer refused every such call
with "must NOT have additional properties", which names no key. In traffic: a recorded call
whose key is refused by ``additionalProperties: false`` and named by the tool's description (or
the refusing object's). SL201 finds the description side statically; this rule shows the calls
it costs.

Source: rules/SL408-described-key-refused.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from schemalint.model import Diagnostic, Severity
from schemalint.rules.traffic._common import (
    TrafficContext,
    TrafficRule,
    Witness,
    abstract_pointer,
    described,
    extra_keys,
    failing_calls,
    instance_pointer,
)
from schemalint.traffic.records import Conversation


class DescribedKeyRefused(TrafficRule):
    """A key the description asks for is not refused by the schema."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        for call, tool, errors in failing_calls(conv, ctx):
            for error in errors:
                for key in extra_keys(error):
                    sentence = described(tool, error, key)
                    if sentence is None:
                        continue
                    parent = instance_pointer(error.absolute_path)
                    path = f"{parent}/{key}"
                    yield Witness(self.at(
                        conv, call.arguments_pointer,
                        f"the call to `{call.name}` carries `{key}`, which the description asks for (\"{sentence}\"), "
                        f"and the advertised schema refuses it (additionalProperties: false at "
                        f"{parent or 'the top level'})",
                        tool=call.name, line=call.line, instance_path=path,
                        hint=f"declare `{key}` in the schema's properties, or drop it from the description (SL201 "
                        "reports the description side in `schemalint check`)"),
                        key=(call.name, abstract_pointer([*error.absolute_path, key])))

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """The key with how many calls carried it."""
        total = ctx.calls_by_tool.get(diagnostic.tool or "", count)
        return replace(diagnostic, message=f"{diagnostic.message} ({count} of {total} recorded call(s))")
