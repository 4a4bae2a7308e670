"""SL406 runtime-refused-valid-call: a recorded call the advertised schema admits, refused at run time.

The recorded call is the witness of contract drift (incident 1: the advertised schema said
optional, the runtime said required). Two kinds of evidence: the call's recorded result is an
error whose text reads as a refusal of the arguments ("Field required", "must NOT have
additional properties", JSON-RPC -32602 ...; an error about the tool's work, such as a file not
found, is not one), or, with ``--tools``, the project's runtime refuses the call when it is
replayed (a pydantic model's validator, a manifest's ``runtime.input`` schema). One finding per
tool and refusal, with the count of calls.

Source: rules/SL406-runtime-refused-valid-call.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity
from schemalint.rules.traffic._common import (
    TrafficContext,
    TrafficRule,
    Witness,
    instance_pointer,
    is_refusal_text,
    short,
)
from schemalint.traffic.records import Call, Conversation


class RuntimeRefusedValidCall(TrafficRule):
    """A call the advertised schema admits is not refused at run time."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        results = ctx.results_of(conv)
        for call in conv.calls():
            tool = ctx.advertised(conv, call.name)
            if tool is None:
                continue
            errors = ctx.errors(call, tool.advertised)
            if errors is None or errors:
                continue
            name = call.name or ""
            result = results.get(id(call))
            recorded = None
            if result is not None and result.is_error and is_refusal_text(result.error_text):
                recorded = (result.error_text or "").strip().splitlines()[0][:160] if result.error_text else ""
            refusal = self._replay(name, call, ctx)
            if refusal is not None:
                message, paths = refusal
                also = f" (its recorded result says so too: \"{recorded}\")" if recorded is not None else ""
                yield Witness(self.at(
                    conv, call.arguments_pointer,
                    f"the recorded call {short(call.arguments)} satisfies the advertised schema of `{name}`, yet "
                    f"the project's runtime refuses it when replayed: {message}{also}",
                    tool=name, line=call.line, instance_path=paths[0] if paths else "",
                    hint="make the advertised schema say what the validator enforces, or make the validator "
                    "accept what the schema admits (SL101, SL107 name the usual causes)"),
                    key=(name, "replayed", message[:80]))
            elif recorded is not None and result is not None:
                yield Witness(self.at(
                    conv, result.pointer,
                    f"the recorded call {short(call.arguments)} satisfies the advertised schema of `{name}`, yet "
                    f"its result is a refusal: \"{recorded}\": the runtime enforces a contract the model is not "
                    "shown",
                    tool=name, line=result.line, instance_path="",
                    hint="compare the runtime validator with the advertised schema (`schemalint check` on the "
                    "sources, SL101/SL107); the recorded call is the witness"), key=(name, "recorded", recorded[:80]))

    def _replay(self, name: str, call: Call, ctx: TrafficContext) -> tuple[str, list[str]] | None:
        mine = ctx.project.get(name)
        runtime = mine.runtime if mine is not None else None
        if runtime is None:
            return None
        known, outcome = ctx.replay_slot(name, call)
        if known:
            return outcome
        found: tuple[str, list[str]] | None = None
        if runtime.validate is not None:
            from schemalint.probe import call_outcome

            got = call_outcome(runtime.validate, call.arguments)
            if got.status == "refused":
                found = (got.message, sorted({p for p, _ in got.errors}))
            elif got.status == "crash":
                found = (f"the validator raised {got.error_type}: {got.message}", [])
        elif runtime.input is not None:
            errors = ctx.errors(Call(call.id, call.name, call.arguments, "", ""), runtime.input)
            if errors:
                first = errors[0]
                found = (f"the runtime schema says {first.message}", [instance_pointer(first.absolute_path)])
        ctx.remember(name, call, found)
        return found

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """The refusal with how many calls met it."""
        if count <= 1:
            return diagnostic
        from dataclasses import replace

        return replace(diagnostic, message=f"{diagnostic.message} ({count} recorded calls met this refusal; the "
                       "first is shown)")


