"""SL410 result-breaks-output-schema: a recorded MCP result does not conform to the tool's ``outputSchema``.

When a tool declares an ``outputSchema``, "Servers MUST provide structured results that conform to
this schema" and "Clients SHOULD validate structured results against this schema" (MCP
2025-06-18, 2025-11-25 and 2026-07-28, server/tools "Output Schema"). Each recorded ``tools/call``
result (not an error) of such a tool is validated: its ``structuredContent`` against the schema
(``jsonschema``, the dialect its ``$schema`` names, draft-07 otherwise; ``format`` not asserted; a
``$ref`` outside the schema never fetched), and a result without ``structuredContent`` is reported
too. The schema is the one the session's ``tools/list`` answer declared, else the project's
(``--tools``). Each failing result is one finding at the first failing instance path; results that
fail the same way are one finding with a count. ``schemalint check`` finds the static cause
(SL110: an output model rendered in validation mode but dumped in serialization mode).

Source: rules/SL410-result-breaks-output-schema.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from schemalint.model import Diagnostic, Severity, escape_token
from schemalint.rules.traffic._common import (
    TrafficContext,
    TrafficRule,
    Witness,
    abstract_pointer,
    instance_pointer,
)
from schemalint.traffic.records import Conversation, Result


class ResultBreaksOutputSchema(TrafficRule):
    """A recorded ``structuredContent`` fails (or is missing for) the tool's advertised ``outputSchema``.
    """

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        for result in conv.results():
            if result.is_error or result.name is None:
                continue
            tool = ctx.advertised(conv, result.name)
            schema = tool.output_schema if tool is not None else None
            if not isinstance(schema, (dict, bool)):
                continue
            yield from self._check(conv, ctx, result, schema)

    def _check(self, conv: Conversation, ctx: TrafficContext, result: Result, schema: object) -> Iterator[Witness]:
        name = result.name
        if not result.has_structured:
            yield Witness(self.at(
                conv, result.pointer,
                f"the result of `{name}` has no `structuredContent`, but the tool declares an `outputSchema`: "
                "servers MUST return structured results that conform to it, and a validating client refuses this one",
                tool=name, line=result.line,
                hint="return `structuredContent` (the SDKs do when the tool's return type is the output model)"),
                key=(name, "missing"))
            return
        validator = ctx.validator(schema)
        if validator is None:
            return  # a schema jsonschema cannot use is `check`'s to report (SL001)
        try:
            errors = sorted(validator.iter_errors(result.structured), key=lambda e: list(e.absolute_path))
        except Exception:  # an unresolvable $ref, a pattern the engine cannot read: not judged
            return
        if not errors:
            return
        first = errors[0]
        path = instance_pointer(first.absolute_path)
        where = f"`{path}`" if path else "its root"
        more = f" (and {len(errors) - 1} more error(s))" if len(errors) > 1 else ""
        pointer = result.pointer + "/structuredContent" + "".join(
            "/" + escape_token(str(p)) for p in first.absolute_path)
        yield Witness(self.at(
            conv, pointer,
            f"the `structuredContent` of `{name}` fails the tool's `outputSchema` at {where}: {first.message}{more}; "
            "servers MUST return results that conform, and a validating client refuses this one",
            tool=name, line=result.line, instance_path=path,
            hint="run `schemalint check` on the server (SL110 finds an output model whose advertised schema and "
                 "dumped results differ), or fix the schema or the result"),
            key=(name, abstract_pointer(first.absolute_path), first.validator))

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """The finding with how many recorded results failed the same way."""
        if count == 1:
            return diagnostic
        return replace(diagnostic, message=f"{diagnostic.message} ({count} recorded result(s))")
