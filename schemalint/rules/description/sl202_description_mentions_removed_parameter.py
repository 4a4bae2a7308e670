"""SL202 description-mentions-removed-parameter: a description asks for a parameter that the
runtime schema, another definition of the tool, or the previous revision has, but the
advertised schema removed.

Source: rules/SL202-description-mentions-removed-parameter.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description._common import mention_diagnostics


class DescriptionMentionsRemovedParameter(Rule):
    """The high-confidence form of SL201: the name a description asks for is a property of
    the runtime input/output schema (``Tool.runtime``), of another definition of the same
    tool in the catalog, or of the previous revision (``--previous``), and the advertised
    schema does not have it. Plain-word mentions ("supply a short name") count here,
    because the name is known to have been a parameter. Error under ``additionalProperties:
    false`` / strict; warning otherwise.
    """

    severity = Severity.ERROR

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return mention_diagnostics(self, tool, ctx, removed=True)
