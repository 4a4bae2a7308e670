"""SL201 description-mentions-unknown-parameter: a description tells the model to pass a
name the schema does not declare.

Source: rules/SL201-description-mentions-unknown-parameter.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description._common import mention_diagnostics


class DescriptionMentionsUnknownParameter(Rule):
    """A tool or property description presents a name as something to pass (backticked
    identifier after an instruction verb, ``name=value``, "the `x` parameter", "pass/set/
    provide/specify x", ``x:`` in an ``Args:`` list) and the schema declares no such
    property at any level. Error when the object is closed (``additionalProperties:
    false`` or ``strict: true``), warning otherwise.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return mention_diagnostics(self, tool, ctx, removed=False)
