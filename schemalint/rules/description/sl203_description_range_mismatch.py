"""SL203 description-range-mismatch: a description states bounds or a default that the numeric
schema does not carry, or carries differently.

A model follows the schema it is constrained by and the text it reads; when they disagree, one
of them is wrong, and only the schema is enforced.

Source: rules/SL203-description-range-mismatch.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.claims import (
    HAS_DIGIT,
    PropertySite,
    property_sites,
    quote,
    read_bounds,
    read_default,
    types_of,
)

_KEYS = {"min": ("minimum", "exclusiveMinimum"), "max": ("maximum", "exclusiveMaximum")}


def _number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _bound_values(schema: Mapping[str, Any], key: str) -> list[int | float]:
    """The numbers ``schema`` declares under ``key`` (``maximum``, ``exclusiveMinimum`` ...), on
    itself or on an ``anyOf``/``oneOf`` branch at any depth: a nullable integer written as
    ``anyOf: [{type: integer, maximum: 20}, {type: null}]`` (pydantic's and zod's ``.nullable()``
    output) carries its bounds in the branch."""
    found = [schema[key]] if _number(schema.get(key)) else []
    for union in ("anyOf", "oneOf"):
        for b in schema.get(union) or ():
            if isinstance(b, Mapping):
                found += _bound_values(b, key)
    return found


def _sibling_names(site: PropertySite) -> frozenset[str]:
    """The names declared beside the property of ``site`` (its parent object's ``properties``)."""
    parent = site.parent.schema if site.parent is not None else None
    props = parent.get("properties") if isinstance(parent, Mapping) else None
    return frozenset(props) if isinstance(props, Mapping) else frozenset()


class DescriptionRangeMismatch(Rule):
    """A numeric property whose description says "(1-50)", "between 1 and 50", "max 100" or
    "default: 10" while the schema declares no such bound (or another one), or another
    ``default``. Warning. A stated default that is the name of a sibling property ("Defaults to
    'owner' when omitted") is that property's value, not a literal, and is not reported.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        return self._check(tool, ctx)

    def _check(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        targets: frozenset[str] | None = None

        def stated_only(*keywords: str) -> bool:
            """A target of the tool cannot carry ``keywords`` in its schema (OpenAI strict does not
            apply ``default``, Anthropic strict refuses bounds ...): the description is then where
            the model reads them, and a bound or default stated only there is no mismatch."""
            nonlocal targets
            if targets is None:
                targets = ctx.targets_for(tool)
            from schemalint.rules.provider.carried import stated_only as only_in_text

            return only_in_text(targets, keywords, tool)

        for site in property_sites(tool):
            desc = site.description
            schema = site.node.schema
            types = types_of(schema)
            if not site.numeric or HAS_DIGIT.search(desc) is None or not types & {"integer", "number"} or types & {
                    "string", "array", "object"}:
                d = self._default_only(tool, site, types, stated_only)
                if d is not None:
                    yield d
                continue
            problems: list[str] = []
            quoted: list[str] = []
            omission = False
            for claim in read_bounds(desc):
                keys = _KEYS[claim.kind]
                have = [v for k in keys for v in _bound_values(schema, k)]
                word = "minimum" if claim.kind == "min" else "maximum"
                if not have:
                    if stated_only(*keys):
                        continue
                    problems.append(f"no {word}")
                elif claim.value not in have and not (
                    claim.kind == "min" and claim.value - 1 in _bound_values(schema, "exclusiveMinimum")
                ) and not (claim.kind == "max" and claim.value + 1 in _bound_values(schema, "exclusiveMaximum")):
                    problems.append(f"{word} {have[0]} (the text says {claim.value})")
                else:
                    continue
                if claim.text not in quoted:
                    quoted.append(claim.text)
            default = read_default(desc)
            if default is not None and default.value is not None:
                if "default" in schema and not _same_default(schema["default"], default.value):
                    problems.append(f"default {schema['default']!r} (the text says {default.value!r})"
                                    .replace("None", "null"))
                    quoted.append(default.text)
                elif "default" not in schema and not stated_only("default"):
                    problems.append("no default")
                    quoted.append(default.text)
                    omission = not [p for p in problems if p != "no default"]
            if not problems:
                continue
            yield self._diag(tool, site, quoted, problems, omission)

    def _default_only(self, tool: Tool, site: PropertySite, types: set[str],
                      stated_only: Callable[..., bool]) -> Diagnostic | None:
        """A stated default on a boolean or string property that the schema does not declare (or
        declares otherwise): "Defaults to false", "default: 'asc'"."""
        if "default" not in site.lower or not types or not types <= {"boolean", "string", "null"}:
            return None
        default = read_default(site.description, strings="string" in types)
        if default is None or default.value is None:
            return None
        if isinstance(default.value, bool) != ("boolean" in types) or (isinstance(default.value, (int, float)) and \
                not isinstance(default.value, bool)):
            return None  # "default: 10" on a string: a value of another kind, not this rule's
        if isinstance(default.value, str) and default.value in _sibling_names(site):
            return None  # "Defaults to 'owner' when omitted": the value of the sibling `owner`, not a literal
        schema = site.node.schema
        omission = "default" not in schema
        if omission and stated_only("default"):
            return None
        if omission:
            problem = "no default"
        elif not _same_default(schema["default"], default.value):
            problem = f"default {schema['default']!r} (the text says {default.value!r})".replace("None", "null")
        else:
            return None
        return self._diag(tool, site, [default.text], [problem], omission)

    def _diag(self, tool: Tool, site: PropertySite, quoted: list[str], problems: list[str],
              omission: bool = False) -> Diagnostic:
        """``omission``: the only problem is a stated default the schema does not declare, which
        contradicts nothing (the schema is silent): information, not a warning."""
        if omission:  # nothing is refused: the schema only leaves the default unsaid
            effect = ("the schema is silent, so a client or model that reads only the schema does not learn "
                      "what leaving the property out does")
            hint = ("declare the default in the schema (`default`) so that its readers see it, or correct the "
                    "description")
        else:
            effect = ("the model is held to the schema, and a call that follows only one of them may be refused "
                      "or behave otherwise than the text says")
            hint = ("state the bounds and default in the schema (minimum, maximum, default) so that text and "
                    "schema agree, or correct the description")
        return self.diag(
            tool,
            None,
            f"the description of property `{site.label}` says {', '.join(quote(q) for q in quoted)}, but its "
            f"schema declares {' and '.join(problems)}; {effect}",
            hint=hint,
            severity=Severity.INFO if omission else None,
            file_pointer=tool.pointer_in_file(site.node.pointer + "/description"),
            instance_path=site.node.instance_path,
        )


def _same_default(declared: object, stated: object) -> bool:
    """The schema's ``default`` and the one the text states are the same value: equal numbers
    (``0.0`` and "Defaults to 0"), else the same text ignoring case (``True`` and "true")."""
    def number(v: object) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    if number(declared) and number(stated):
        return declared == stated
    return str(declared).lower() == str(stated).lower()
