"""SL102 hidden-parameter: the runtime accepts a key the model is never shown.

Source: rules/SL102-hidden-parameter.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import declared_order, key_name, object_pairs
from schemalint.schema.shapes import child_path


class HiddenParameter(Rule):
    """A property the runtime input schema declares and the advertised schema does not.

    The model can never set it. A warning, or info when the runtime gives the key a
    default (an internal parameter filled in by the runtime is often deliberate). When
    the runtime *requires* the key, SL101 reports it instead (error).
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one finding per runtime-only optional property, at every depth and union branch."""
        seen: set[str] = set()
        for s, ipath, adv, rt in object_pairs(tool):
            for key in sorted(set(rt.properties) - set(adv.properties), key=declared_order(rt)):
                path = child_path(ipath, key)
                if (
                    path in seen
                    or key in rt.required
                    or s.refused_at(path)
                    or rt.property_schemas.get(key) is False
                    or any(key in a.properties for a in s.advertised.alternatives(ipath))
                ):
                    continue
                seen.add(path)
                who = key_name(ipath, key)
                defaulted = rt.has_default(key)
                msg = (
                    f"the runtime accepts {who} but the advertised schema never shows it: the model cannot "
                    "know it exists"
                    + (", and the runtime fills in its default" if defaulted else ", so it can never set it")
                )
                hint = (
                    f"declare {who} in the advertised schema if the model should set it; if it is internal "
                    "on purpose, ignore this rule for the tool"
                )
                yield self.diag(
                    tool,
                    adv.pointer,
                    msg,
                    instance_path=path,
                    hint=hint,
                    severity=Severity.INFO if defaulted else None,
                )
