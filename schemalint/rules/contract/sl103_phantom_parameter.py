"""SL103 phantom-parameter: the model is shown a key the runtime refuses (or ignores).

Source: rules/SL103-phantom-parameter.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import declared_order, key_name, object_pairs
from schemalint.schema.shapes import child_path


class PhantomParameter(Rule):
    """A property the advertised schema declares and the runtime input schema does not.

    An error when the runtime refuses undeclared keys at that level
    (``additionalProperties: false`` and no matching ``patternProperties``): a model that
    sets the advertised key is refused. A warning when the runtime admits undeclared keys:
    the value the model sends is accepted but not declared, so it is probably ignored
    (pydantic ignores extra keys by default; zod strips them).
    """

    severity = Severity.ERROR

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one finding per advertised-only property, at every depth and union branch."""
        seen: set[str] = set()
        for s, ipath, adv, rt in object_pairs(tool):
            if not rt.is_object:
                continue
            for key in sorted(set(adv.properties) - set(rt.properties), key=declared_order(adv)):
                path = child_path(ipath, key)
                if (
                    path in seen
                    or adv.property_schemas.get(key) is False
                    or any(
                        key in r.properties
                        for r in (s.runtime_input.alternatives(ipath) if s.runtime_input else ())
                    )
                ):
                    continue
                seen.add(path)
                who = key_name(ipath, key)
                if not rt.admits_extra(key):
                    msg = (
                        f"the advertised schema offers {who}, but the runtime does not declare it and "
                        f"refuses undeclared keys: a call that sets {who} is refused"
                    )
                    sev = None
                elif isinstance(rt.additional, Mapping) or rt.pattern_for(key) is not None:
                    continue  # accepted through additionalProperties/patternProperties and validated there
                else:
                    msg = (
                        f"the advertised schema offers {who}, but the runtime does not declare it: the value "
                        "the model sends is accepted but probably ignored (or stripped)"
                    )
                    sev = Severity.WARNING
                hint = f"remove {who} from the advertised schema, or declare it in the runtime validator"
                yield self.diag(tool, adv.properties[key], msg, instance_path=path, hint=hint, severity=sev)
