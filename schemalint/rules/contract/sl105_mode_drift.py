"""SL105 mode-drift: required in the runtime's output mode, optional in input mode, no default.

Source: rules/SL105-mode-drift.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import comparable_objects, declared_order, key_name, key_pointer, sides
from schemalint.schema.shapes import child_path, match


class ModeDrift(Rule):
    """A key the runtime's output (parsed) schema requires, that the advertised and runtime input
    schemas leave optional, with no ``default`` on any side to explain the difference.

    A defaulted key is *not* a finding: the runtime fills it in, so output mode rightly
    requires it. A key that only the output schema declares (a serialization alias, a
    computed field) is not compared. When the runtime is known to require the key (its input
    schema or ``refused_when_omitted``), SL101 reports it instead. This is the zod
    ``z.preprocess``/``.pipe`` pattern of incident 1 seen from the schemas alone, without probes.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one warning per instance path that only the output mode requires."""
        s = sides(tool)
        if s is None or s.runtime_output is None or tool.output_schema is not None:
            return  # with an advertised outputSchema, runtime.output is the emitted result's schema (SL110)
        seen: set[str] = set()
        for path in s.runtime_output.paths():
            rt_in = s.runtime_input.alternatives(path) if s.runtime_input is not None else []
            for pair in match(s.advertised.alternatives(path), s.runtime_output.alternatives(path), path):
                adv, out = pair.left, pair.right
                if adv is None or out is None or not comparable_objects(adv, out):
                    continue
                for key in sorted(out.required, key=declared_order(out)):
                    kpath = child_path(path, key)
                    if (
                        kpath in seen
                        or key not in adv.properties
                        or key in adv.required
                        or adv.has_default(key)
                        or out.has_default(key)
                        or s.refused_at(kpath)
                        or any(key in r.required or r.has_default(key) for r in rt_in)
                    ):
                        continue
                    seen.add(kpath)
                    who = key_name(path, key)
                    msg = (
                        f"{who} is optional in the input schema but required in the runtime's output "
                        f"schema, and no default explains it: a call without {who} is probably refused by "
                        "the runtime (the zod preprocess/pipe pattern)"
                    )
                    hint = (
                        f"run the omission probe (or export refused_when_omitted) to confirm, then require "
                        f"{who} in the advertised schema or give it a default"
                    )
                    yield self.diag(tool, key_pointer(adv, key), msg, instance_path=kpath, hint=hint)
