"""SL206 description-required-mismatch: a property description says "Required" while the
property is not in its object's ``required``.

A model may leave out a property the schema marks optional; the tool then fails on the missing
value the text called required.

Source: rules/SL206-description-required-mismatch.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.claims import conditionally_required, property_sites, quote, read_required


class DescriptionRequiredMismatch(Rule):
    """A property described as required ("Required.", "(required)", "This field is required")
    that its object does not list in ``required`` (nor in a branch or condition). Never for
    "required if/when/for ...", nor when the text also says "optional". Warning.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool)

    def _check(self, tool: Tool) -> Iterator[Diagnostic]:
        for site in property_sites(tool):
            low = site.lower
            if site.parent is None or ("required" not in low and "mandatory" not in low):
                continue
            parent: Mapping[str, object] = site.parent.schema
            req = parent.get("required")
            if isinstance(req, list) and site.name in req:
                continue
            if conditionally_required(parent, site.name):
                continue
            claim = read_required(site.description)
            if claim is None:
                continue
            yield self.diag(
                tool,
                None,
                f"the description of property `{site.label}` says {quote(claim.text)}, but the object does not "
                f"list `{site.name}` in \"required\"; a model may leave it out and the call then fails on the "
                "missing value",
                hint=f'add "{site.name}" to the object\'s "required", or drop "required" from the description',
                file_pointer=tool.pointer_in_file(site.node.pointer + "/description"),
                instance_path=site.node.instance_path,
            )
