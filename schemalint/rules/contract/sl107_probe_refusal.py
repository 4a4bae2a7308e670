"""SL107 probe-refusal: the runtime validator refused a call the advertised schema admits.

Runs where a tool's runtime contract has a callable validator (``Contract.validate``,
e.g. a pydantic model) and ``Context.probe`` is set: the cheap omission probes of
:mod:`schemalint.probe` (a complete call built from the advertised schema, the same
call minus each optional key at every depth, the minimal call). ``schemalint probe``
adds generated calls. Catches incident 1 of ``context/incidents.md`` by calling the
validator rather than reading its schema, so it also sees what no schema shows
(``model_validator(mode="before")``, ``PlainValidator``, hidden fields).

Source: rules/SL107-probe-refusal.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Severity, Tool, split_pointer
from schemalint.rules.base import Context, Rule
from schemalint.schema.shapes import normalize_path

MAX_CALL_CHARS = 160


def short_json(value: Any, limit: int = MAX_CALL_CHARS) -> str:
    """Compact JSON of ``value``, cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except Exception:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def schema_pointer_for(advertised: Any, instance_path: str | None) -> str:
    """Pointer (relative to the advertised schema) of the subschema governing
    ``instance_path``, following local ``$ref``; ``""`` when not found."""
    if not instance_path:
        return ""
    from schemalint.schema.walk import walk

    for node in walk(advertised, follow_refs=True, include_definitions=False, max_nodes=20_000):
        if node.instance_path == instance_path:
            return node.pointer
    return ""


def _refused_keys(tool: Tool) -> frozenset[str]:
    """Instance paths the runtime contract already says are refused when omitted."""
    runtime = tool.runtime
    if runtime is None:
        return frozenset()
    return frozenset(normalize_path(p) for p in runtime.refused_when_omitted)


class ProbeRefusal(Rule):
    """The runtime refused (or crashed on, or hung on) a call its advertised schema admits.
    """

    severity = Severity.ERROR

    options: ClassVar[Mapping[str, Any]] = {
        "time_limit": 2.0,
        "run_budget": 40.0,
    }

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        runtime = tool.runtime
        if not ctx.probe or runtime is None or runtime.validate is None:
            return ()
        from schemalint.probe import omission_probe

        limit = float(self.option(ctx, "time_limit"))
        run_budget = float(self.option(ctx, "run_budget"))
        probed = ctx.memo(("SL107 probed", id(ctx.catalog)), lambda: sum(
            1 for t in ctx.catalog if t.runtime is not None and t.runtime.validate is not None)) or 1
        budget = min(limit, run_budget / probed)
        result = omission_probe(tool.advertised, runtime.validate, time_limit=limit, budget=budget)
        out = list(self.diagnostics(tool, result, limit))
        if result.timed_out and not any(r.kind == "timeout" for r in result.refusals):
            out.append(self.diag(
                tool, "",
                f"probing stopped at this tool's budget ({budget:.2g} s: the run's {run_budget:g} s shared by "
                f"{probed} probed tool(s), at most {limit:g} s each): {result.calls} of {result.planned} calls "
                "made; the calls not made are not a pass",
                severity=Severity.INFO, instance_path="",
                hint="raise [tool.schemalint.options.SL107] run_budget (seconds for all tools) to probe every "
                "call, or check fewer tools at a time"))
        return out

    def diagnostics(self, tool: Tool, result: Any, limit: float) -> Iterator[Diagnostic]:
        """Diagnostics for a :class:`schemalint.probe.ProbeResult` of ``tool``."""
        for problem in result.problems:
            yield self.diag(tool, "", f"the runtime validator was not probed: {problem}",
                            severity=Severity.INFO,
                            hint="probes need a call built from the advertised schema; simplify the schema "
                            "or run `schemalint probe` to try generated calls")
        known = _refused_keys(tool)
        for refusal in result.refusals:
            if refusal.kind == "omission" and normalize_path(refusal.instance_path or "") in known:
                continue  # a required key the contract already names: SL101 reports it, measured
            yield self._one(tool, refusal, limit)

    def _one(self, tool: Tool, refusal: Any, limit: float) -> Diagnostic:
        outcome = refusal.outcome
        call = short_json(refusal.call)
        named = ", ".join(f"`{p or '(root)'}`" for p in refusal.error_paths[:4])
        where = f" (the validator names {named})" if named else ""
        if refusal.kind == "omission":
            path = refusal.instance_path or ""
            key = split_pointer(path)[-1] if path else ""
            parent = path[: -len(key) - 1] or "the top level"
            return self.diag(
                tool, schema_pointer_for(tool.advertised, path),
                f"a call without `{key}` (at {parent}) satisfies the advertised schema but the runtime "
                f"refuses it ({refusal.message})",
                instance_path=path,
                hint=f"list `{key}` in `required` of the advertised schema, or make the runtime accept "
                "its absence (a default)",
            )
        if refusal.kind in ("complete", "minimal", "generated"):
            what = {"complete": "a call filling in every key the advertised schema shows",
                    "minimal": "a call with only the keys the advertised schema requires",
                    "generated": "the smallest generated call the advertised schema admits"}[refusal.kind]
            first = refusal.error_paths[0] if refusal.error_paths else ""
            return self.diag(
                tool, schema_pointer_for(tool.advertised, first) if first else "",
                f"{what}, {call}, is refused by the runtime{where}: {outcome.message}",
                instance_path=first or "",
                hint="the runtime demands keys or shapes the advertised schema does not show; make the "
                "schema say what the validator enforces (hidden fields, schema overrides, json_schema_extra "
                "edits and before-validators are the usual causes)",
            )
        if refusal.kind == "timeout":
            return self.diag(
                tool, "",
                f"the runtime validator did not return within {limit:g} s for the call {call}; probing of "
                "this tool stopped (a model's call would hang the same way)",
                severity=Severity.WARNING, instance_path="",
                hint="look for a loop or a blocking call in the validator; raise the limit with "
                "[tool.schemalint.options.SL107] time_limit if it is only slow",
            )
        return self.diag(
            tool, "",
            f"the runtime validator raised {outcome.error_type} instead of a validation error for {call}, "
            f"which the advertised schema admits: {outcome.message}; a framework reports that as an "
            "internal error the model cannot repair",
            instance_path="",
            hint="make the validator raise a validation error (pydantic: ValueError or PydanticCustomError "
            "inside the validator) naming the key, or accept the call",
        )
