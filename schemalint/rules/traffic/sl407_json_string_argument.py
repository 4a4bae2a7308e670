"""SL407 json-string-argument: an argument sent as a string holding JSON where the schema wants an object.

Incident 1's own cause: models send a nested object (``presentation``) as a JSON *string*; the
advertised schema wants an object, so the call is refused, though the string decodes to a value
the schema admits. The finding names the argument, how many recorded calls sent it so (of all
calls to the tool), and the two fixes.

Source: rules/SL407-json-string-argument.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from schemalint.model import Diagnostic, Severity
from schemalint.rules.traffic._common import (
    NOT_JSON,
    TrafficContext,
    TrafficRule,
    Witness,
    abstract_pointer,
    failing_calls,
    instance_pointer,
    json_string_value,
)
from schemalint.traffic.records import Conversation


class JsonStringArgument(TrafficRule):
    """An object or array argument is sent as itself, not as a string of JSON."""

    severity = Severity.WARNING

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        for call, tool, errors in failing_calls(conv, ctx):
            validator = ctx.validator(tool.advertised)
            for error in errors:
                if json_string_value(error, validator) is NOT_JSON:
                    continue
                path = instance_pointer(error.absolute_path)
                label = f"`{path[1:]}`" if path else "the arguments"
                wanted = "an array" if "array" in str(error.validator_value) else "an object"
                yield Witness(self.at(
                    conv, call.arguments_pointer,
                    f"{label} of `{call.name}` was sent as a string holding JSON where the advertised schema wants "
                    f"{wanted}; the decoded value satisfies the schema, but the call as sent is refused",
                    tool=call.name, line=call.line, instance_path=path,
                    hint=f"either accept a JSON string for {label} at the call boundary (decode it before "
                    "validation, e.g. a pydantic BeforeValidator or zod z.preprocess, keeping the advertised "
                    f"schema and the runtime's required keys equal: SL101), or say in the description that {label} "
                    "is an object, not a string of JSON"),
                    key=(call.name, abstract_pointer(error.absolute_path)))

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """The argument with how many calls sent it as a string, of all calls to the tool."""
        total = ctx.calls_by_tool.get(diagnostic.tool or "", count)
        return replace(diagnostic, message=f"{diagnostic.message} ({count} of {total} recorded call(s) to "
                       f"`{diagnostic.tool}`)")
