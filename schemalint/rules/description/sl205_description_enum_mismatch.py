"""SL205 description-enum-mismatch: a description lists the allowed values ("one of: a, b, c")
and the schema has no ``enum``, or an ``enum`` that lacks a listed value.

Without an ``enum`` the values are a request the model may ignore (strict modes only enforce the
schema); with an ``enum`` that lacks a listed value, the text invites a value the schema refuses.

Source: rules/SL205-description-enum-mismatch.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.claims import (
    VALUE_WORDS,
    enum_values,
    property_sites,
    quote,
    read_values,
    types_of,
)
from schemalint.rules.description.mentions import schema_names


class DescriptionEnumMismatch(Rule):
    """A property description with an exhaustive list of values (two or more, quoted, or bare
    after a colon) while the schema declares no ``enum``/``const`` (string properties only), or
    declares one that does not contain every listed value. Warning.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool)

    def _check(self, tool: Tool) -> Iterator[Diagnostic]:
        names: set[str] | None = None
        for site in property_sites(tool):
            if VALUE_WORDS.search(site.lower) is None:
                continue
            claim = read_values(site.description)
            if claim is None:
                continue
            schema = site.node.schema
            declared = enum_values(schema)
            listed = list(claim.value)
            if names is None:
                names = schema_names(tool.advertised)
            if names.intersection(listed):
                continue  # "use either 'after_id' or 'before_id'": parameters, not values
            if declared is None:
                items = schema.get("items")
                types = types_of(schema) | (types_of(items) if isinstance(items, dict) else set())
                if not types or types - {"string", "array", "null"} or "pattern" in schema or "format" in schema:
                    continue
                msg = (f"the description of property `{site.label}` lists the allowed values "
                       f"{quote(claim.text)}, but its schema declares no enum, so nothing holds the model to them")
                hint = "declare them: \"enum\": [" + ", ".join(f'"{v}"' for v in listed) + "]"
            else:
                missing = [v for v in listed if v not in declared]
                if not missing:
                    continue
                msg = (f"the description of property `{site.label}` lists {quote(claim.text)}, but its enum "
                       f"does not contain {', '.join(f'`{v}`' for v in missing)}; a model that follows the text "
                       "sends a value the schema refuses")
                hint = "make the list and the enum agree (the enum is what is enforced)"
            yield self.diag(tool, None, msg, hint=hint,
                            file_pointer=tool.pointer_in_file(site.node.pointer + "/description"),
                            instance_path=site.node.instance_path)
