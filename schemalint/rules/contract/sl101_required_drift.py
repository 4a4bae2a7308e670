"""SL101 required-drift: the runtime requires a key the advertised schema leaves optional.

Incident 1 (``../shared/context/incidents.md``): zod 4.4.3 renders a ``z.preprocess``
field as optional in input mode while ``parse()`` still refuses calls without it
(zod issue #5968). Checked at every depth and in every union branch, from two kinds of
evidence: the runtime input schema's ``required`` sets, and ``refused_when_omitted``
(instance paths whose omission probes or exporters saw refused).

Source: rules/SL101-required-drift.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import declared_order, key_name, key_pointer, sides
from schemalint.schema.shapes import Shape, child_path, parent_and_key


class RequiredDrift(Rule):
    """A key the runtime refuses to go without, which the advertised schema lets the model omit.

    Evidence: the runtime input schema requires the key at that level, or the instance
    path is in ``Contract.refused_when_omitted``. One diagnostic per instance path,
    pointing at the advertised property (or the object that fails to declare it).
    """

    severity = Severity.ERROR

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one error per instance path the runtime requires and the advertised schema does not."""
        s = sides(tool)
        if s is None:
            return
        seen: set[str] = set()
        for ipath, adv, rt in s.object_pairs():
            for key in sorted(rt.required - adv.required, key=declared_order(rt)):
                path = child_path(ipath, key)
                if path in seen or _required_elsewhere(s.advertised.alternatives(ipath), key):
                    continue
                seen.add(path)
                measured = s.refused_at(path)
                yield self._finding(
                    tool,
                    adv,
                    ipath,
                    key,
                    "measured: a call omitting it was refused"
                    if measured
                    else "the runtime input schema requires it",
                )
        for path in sorted(s.refused):
            split = parent_and_key(path)
            if split is None or path in seen:
                continue
            parent, key = split
            alts = [a for a in s.advertised.alternatives(parent) if a.admits_object]
            if not alts or any(key in a.required for a in alts):
                continue
            seen.add(path)
            adv = next((a for a in alts if key in a.properties), alts[0])
            yield self._finding(tool, adv, parent, key, "measured: a call omitting it was refused")

    def _finding(self, tool: Tool, adv: Shape, parent: str, key: str, evidence: str) -> Diagnostic:
        who = key_name(parent, key)
        path = child_path(parent, key)
        if key in adv.properties:
            msg = (
                f"a call without {who} satisfies the advertised schema but the runtime refuses it "
                f"(missing; {evidence})"
            )
        elif adv.admits_extra(key):
            msg = (
                f"a call without {who} satisfies the advertised schema, which never mentions {who}, "
                f"but the runtime refuses it (missing; {evidence})"
            )
        else:
            msg = (
                f"the runtime requires {who}, which the advertised schema does not declare and refuses "
                f"as an undeclared key: no call that satisfies the advertised schema is accepted ({evidence})"
            )
        hint = (
            f"declare {who} and list it in `required` at this level of the advertised schema, "
            "or make the runtime accept its absence (e.g. give it a default)"
        )
        return self.diag(tool, key_pointer(adv, key), msg, instance_path=path, hint=hint)


def _required_elsewhere(alternatives: list[Shape], key: str) -> bool:
    """True when every advertised alternative at the parent requires ``key`` (the pair was a mismatch
    of union branches, not a drift)."""
    alts = [a for a in alternatives if a.admits_object]
    return bool(alts) and all(key in a.required for a in alts)
