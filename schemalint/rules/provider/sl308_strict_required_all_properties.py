"""SL308 strict-required-all-properties: OpenAI strict mode needs every property in ``required``.

Source: rules/SL308-strict-required-all-properties.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import UNSAFE, Fix, null_meaning, require_all
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, index_for, ptr_key, where
from schemalint.schema import required_names


class StrictRequiredAllProperties(ProviderRule):
    """An object in an OpenAI strict tool whose ``required`` does not list every property."""

    keywords = frozenset({"properties"})  # only objects with `properties` are checked (Rule.keywords)

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(UNSAFE,
              "optional properties become required and nullable: the model sends null where it left a key out, "
              "and the runtime must accept null",
              require_all,
              in_code={"python": "in the Pydantic model: give each optional field a type admitting None and no "
                                 "default (limit: int | None)",
                       "typescript": "in the zod schema: .nullable() in place of .optional()"})

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        for node in index.having("properties"):
            if index.is_conditional(node):
                continue
            props = node.schema.get("properties")
            if not isinstance(props, Mapping) or not props:
                continue
            listed = set(required_names(node.schema))
            missing = [p for p in props if p not in listed]
            if not missing:
                continue
            names = ", ".join(repr(m) for m in missing)
            hint = ("list every property in `required` and make optional ones nullable "
                    '(e.g. "type": ["string", "null"] or "anyOf": [{...}, {"type": "null"}])')
            meant = next(((m, w) for m in missing if (w := null_meaning(props[m]))), None)
            if meant is not None:
                hint = (f"the description of `{meant[0]}` gives null a meaning of its own (\"{meant[1]}\"): made "
                        "required and nullable, null would also have to mean 'not given', so --fix leaves this object; "
                        "give 'not given' a value of its own (or say that null means it), then list every "
                        "property in `required`")
            pointer = ptr_key(node.pointer, "required") if "required" in node.schema else node.pointer
            yield ProfileFault(
                "openai-strict",
                E,
                pointer,
                "required",
                f'{where(node)}: {names} {"is" if len(missing) == 1 else "are"} not in "required"; OpenAI '
                f"strict mode answers 400 invalid_function_parameters (Missing {missing[0]!r})",
                hint,
                node.instance_path,
            )
