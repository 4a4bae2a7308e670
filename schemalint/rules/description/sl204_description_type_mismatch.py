"""SL204 description-type-mismatch: the description says "integer only" while the schema says
``type: number`` (or gives a fractional example for an ``integer``).

Source: rules/SL204-description-type-mismatch.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.claims import (
    INTEGER_WORDS,
    TYPE_WORDS,
    Claim,
    PropertySite,
    property_sites,
    quote,
    read_decimal_example,
    read_integer_only,
    read_type_offers,
    types_of,
)

_JSON_TYPES = frozenset(("string", "integer", "number", "boolean", "object", "array", "null"))


def _offered(site: PropertySite) -> Claim | None:
    """The first type the description of ``site`` offers that its schema refuses: ``null`` where no
    ``type`` includes null (nor ``nullable: true``, nor an ``enum`` holding null), a list, an object or
    a boolean where the declared types lack it. ``None`` for a schema that declares no type."""
    if TYPE_WORDS.search(site.lower) is None:
        return None
    schema = site.node.schema
    types = types_of(schema)
    if not types or not types <= _JSON_TYPES:
        return None  # no type, or a name no dialect means a JSON type by ("any"): SL0xx's matter
        # (BFCL's "float" reads as number: types_of, so that SL314's rename changes nothing here)
    enum = schema.get("enum")
    for claim in read_type_offers(site.description, site.lower):
        kind = claim.value
        if kind in types:
            continue
        if kind == "null" and (schema.get("nullable") is True or (isinstance(enum, list) and None in enum)):
            continue
        if kind == "boolean" and isinstance(enum, list) and any(str(v).lower() == "true" for v in enum):
            continue
        if kind == "array" and types <= {"string"} and not site.name.endswith("s"):
            continue  # "a list of" in a singular-named string's description is usually its text format
        return claim
    return None


def offered_type(rule: Rule, tool: Tool, site: PropertySite, claim: Claim) -> Diagnostic:
    """The diagnostic for a type the description offers and the schema refuses."""
    declared = ", ".join(sorted(types_of(site.node.schema)))
    return rule.diag(
        tool, None,
        f"the description of property `{site.label}` says {quote(claim.text)}, offering {claim.value}, but its "
        f"schema declares type {declared}, which refuses {claim.value}; a model that follows the text sends a "
        "value the schema refuses",
        hint=f"add \"{claim.value}\" to the property's type (or a union branch), or drop the offer from the "
             "description",
        file_pointer=tool.pointer_in_file(site.node.pointer + "/description"),
        instance_path=site.node.instance_path)


class DescriptionTypeMismatch(Rule):
    """A ``number`` property described as integer-only ("Integer only", "must be an integer",
    "whole numbers only"), or an ``integer`` property whose description gives a fractional
    example ("e.g. 0.5"). Warning.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool)

    def _check(self, tool: Tool) -> Iterator[Diagnostic]:
        for site in property_sites(tool):
            offered = _offered(site)
            if offered is not None:
                yield offered_type(self, tool, site, offered)
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
