"""SL409 repeated-invalid-call: the model's calls fail the advertised schema the same way again and again.

Recorded calls to one tool that fail its advertised schema with the same error (the same missing
key, the same wrong type at the same place, the same value outside an enum) at least
``min_count`` times (default 2): the contract is unclear to the model. Reported once per pattern
with its count; failures SL407 (a JSON string) and SL408 (a described key) explain are theirs.

Source: rules/SL409-repeated-invalid-call.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Severity
from schemalint.rules.traffic._common import (
    NOT_JSON,
    TrafficContext,
    TrafficRule,
    Witness,
    abstract_pointer,
    described,
    extra_keys,
    failing_calls,
    instance_pointer,
    json_string_value,
)
from schemalint.traffic.records import Conversation

_MISSING = re.compile(r"^'(.+)' is a required property$")


def pattern_of(error: Any) -> str:
    """The error in words without the call's values (the same words for the same failure)."""
    where = abstract_pointer(error.absolute_path) or "the top level"
    kind = error.validator
    if kind == "required":
        m = _MISSING.match(error.message)
        key = m.group(1) if m else "a required key"
        return f"`{key}` is missing at {where}"
    if kind == "type":
        got = type(error.instance).__name__
        names = {"str": "string", "int": "integer", "float": "number", "bool": "boolean", "dict": "object",
                 "list": "array", "NoneType": "null"}
        return f"{where} is {names.get(got, got)}, the schema wants {error.validator_value}"
    if kind == "additionalProperties":
        keys = sorted(extra_keys(error))
        return f"{', '.join(f'`{k}`' for k in keys) or 'a key'} is not allowed at {where}"
    if kind == "enum":
        return f"{where} is not one of {error.validator_value}"[:200]
    return f"{where} fails `{kind}`"


class RepeatedInvalidCall(TrafficRule):
    """The model's calls do not fail the advertised schema the same way repeatedly."""

    severity = Severity.WARNING
    options: ClassVar[Mapping[str, Any]] = {"min_count": 2}

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        for call, tool, errors in failing_calls(conv, ctx):
            validator = ctx.validator(tool.advertised)
            for error in errors:
                if json_string_value(error, validator) is not NOT_JSON:
                    continue  # SL407's
                if any(described(tool, error, k) for k in extra_keys(error)):
                    continue  # SL408's
                words = pattern_of(error)
                yield Witness(self.at(
                    conv, call.arguments_pointer,
                    f"calls to `{call.name}` fail the advertised schema the same way: {words}",
                    tool=call.name, line=call.line, instance_path=instance_pointer(error.absolute_path),
                    hint="the contract is unclear to the model: say in the description (or the property's) what "
                    "the schema expects there, or make the schema accept what the model sends"),
                    key=(call.name, words))

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """The pattern with its count; ``None`` (not reported) below ``min_count``."""
        if count < int(ctx.option(self.code, "min_count", self.options["min_count"])):
            return None
        total = ctx.calls_by_tool.get(diagnostic.tool or "", count)
        return replace(diagnostic, message=f"{diagnostic.message} ({count} of {total} recorded call(s))")
