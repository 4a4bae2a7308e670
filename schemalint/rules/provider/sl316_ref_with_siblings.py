"""SL316 ref-with-siblings: a ``$ref`` with other keywords beside it.

MCP: a warning only when the schema is read as draft-07 or older
(:func:`schemalint.schema.dialect.dialect_of` with the MCP default, 2020-12, where siblings apply:
the same dialect choice as SL001 and SL004, so ``--dialect`` and loosely spelled ids count too).

Source: rules/SL316-ref-with-siblings.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.fixes import SAFE, Fix, drop_ref_siblings
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, index_for, ptr_key, where
from schemalint.schema.dialect import MCP_DIALECT, dialect_of

_OLD_DRAFTS = ("draft-07", "draft-06", "draft-04")


class RefWithSiblings(ProviderRule):
    """``$ref`` next to other keywords, which a target drops or refuses."""

    keywords = frozenset({"$ref"})  # only references are checked (Rule.keywords)

    severity = E

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(SAFE,
              "only annotations beside `$ref` are removed, and annotations constrain no call",
              drop_ref_siblings,
              in_code={"python": "in the Pydantic model: describe the nested model in its docstring, not in "
                                 "the field that uses it",
                       "typescript": "in the zod schema: put .describe() on the nested schema itself"})

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        root = tool.advertised
        dialect = dialect_of(root, ctx.dialect, MCP_DIALECT).dialect if "mcp" in targets else ""
        old = dialect in _OLD_DRAFTS
        for node in index_for(tool, ctx).having("$ref"):
            siblings = [k for k in node.schema if k != "$ref"]
            if not siblings:
                continue
            names = ", ".join(f"`{k}`" for k in siblings)
            pointer = ptr_key(node.pointer, "$ref")
            for target in targets:
                if target == "openai-strict":
                    yield ProfileFault(
                        target,
                        E,
                        pointer,
                        "sib",
                        f"{where(node)} has {names} beside `$ref`; OpenAI strict mode does not "
                        "accept siblings to $ref",
                        'wrap the reference: "anyOf": [{"$ref": ...}] with the siblings beside anyOf, '
                        "or inline the definition",
                        node.instance_path,
                    )
                elif target == "anthropic-strict":
                    yield ProfileFault(
                        target,
                        W,
                        pointer,
                        "sib",
                        f"{where(node)} has {names} beside `$ref`; Anthropic's strict transform keeps "
                        "only the $ref, so the model never sees them",
                        "move the description into the referenced definition, or inline it",
                        node.instance_path,
                    )
                elif target == "mcp" and old:
                    yield ProfileFault(
                        target,
                        W,
                        pointer,
                        "sib",
                        f"{where(node)} has {names} beside `$ref` in a {dialect} schema, where "
                        "siblings of $ref MUST be ignored",
                        'wrap as "allOf": [{"$ref": ...}] with the siblings beside it, or declare 2020-12',
                        node.instance_path,
                    )
