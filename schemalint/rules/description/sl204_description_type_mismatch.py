"""SL204 description-type-mismatch: the description says "integer only" while the schema says
``type: number`` (or gives a fractional example for an ``integer``).

Source: JSON Schema draft-07 validation 6.1.1 (``type``; ``integer`` is a number without a
fractional part); issue 13 ("Integer only" against ``type: number``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.claims import (
    INTEGER_WORDS,
    property_sites,
    quote,
    read_decimal_example,
    read_integer_only,
    types_of,
)


class DescriptionTypeMismatch(Rule):
    """A ``number`` property described as integer-only ("Integer only", "must be an integer",
    "whole numbers only"), or an ``integer`` property whose description gives a fractional
    example ("e.g. 0.5"). Warning.

    Source: JSON Schema draft-07 validation 6.1.1; issue 13.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool)

    def _check(self, tool: Tool) -> Iterator[Diagnostic]:
        for site in property_sites(tool):
            if not site.numeric or INTEGER_WORDS.search(site.lower) is None:
                continue
            types = types_of(site.node.schema) - {"null"}
            if types == {"number"}:
                claim = read_integer_only(site.description)
                if claim is None:
                    continue
                msg = (f"the description of property `{site.label}` says {quote(claim.text)}, but its schema "
                       'declares "type": "number", so the model may send 2.5')
                hint = 'declare "type": "integer", or drop "integer only" from the description'
            elif types == {"integer"}:
                claim = read_decimal_example(site.description)
                if claim is None:
                    continue
                msg = (f"the description of property `{site.label}` gives {quote(claim.text)}, a fractional "
                       'value, but its schema declares "type": "integer", which refuses it')
                hint = 'declare "type": "number", or give an integer example'
            else:
                continue
            yield self.diag(tool, None, msg, hint=hint,
                            file_pointer=tool.pointer_in_file(site.node.pointer + "/description"),
                            instance_path=site.node.instance_path)
