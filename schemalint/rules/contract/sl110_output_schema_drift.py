"""SL110 output-schema-drift: the advertised ``outputSchema`` is not what the server emits.

An MCP server that declares ``outputSchema`` MUST return ``structuredContent`` conforming to it,
and clients SHOULD validate it (MCP 2025-06-18 and later, server/tools "Output Schema"). The
official MCP Python SDK (``mcp`` 1.x ``FastMCP`` and 2.x ``MCPServer``) renders a tool's
``outputSchema`` from its return type in pydantic *validation* mode, but dumps the returned
value in *serialization* mode by alias (``model_dump(mode="json", by_alias=True)``). Where the two
modes differ the server's own results fail its advertised schema, and the official client refuses
each one ("Invalid structured content returned by tool ...: 'user_name' is a required property",
reproduced with ``mcp`` 2.3.0, 2026-12-02):

- a ``serialization_alias`` (or ``alias_generator`` with split aliases): the advertised schema
  requires the field name, the result carries the alias;
- a ``computed_field``: the result always carries a key the advertised schema does not declare
  (refused when the schema forbids extra keys, undescribed otherwise);
- a ``PlainSerializer``/``field_serializer`` that changes a value's JSON type.

The comparison is between the advertised ``outputSchema`` (``Tool.output_schema``) and the
serialization-mode schema of the return type (``Contract.output``, read by the Python MCP loader),
at every depth and in every union branch. The advertised side is the wrong one: it describes the
model's *input* shape, not the emitted one.

Source: rules/SL110-output-schema-drift.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import comparable_objects, declared_order, incompatible, key_name, name, shapes
from schemalint.schema.shapes import Shape, child_path, pairs

_HINT = ("render the advertised outputSchema in serialization mode, as the server dumps results "
         "(pydantic: `TypeAdapter(T).json_schema(mode=\"serialization\", by_alias=True)`), or drop the "
         "serialization alias / computed field / type-changing serializer from the output model")


def _fmt(types: frozenset[str] | None) -> str:
    return " or ".join(sorted(types)) if types else "any type"


class OutputSchemaDrift(Rule):
    """The advertised ``outputSchema`` refuses (or does not describe) what the server emits as
    ``structuredContent``: keys renamed by a serialization alias, computed fields, changed types.
    """

    severity = Severity.ERROR

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one finding per key or location where emitted results break the advertised outputSchema."""
        rt = tool.runtime
        if tool.output_schema is None or rt is None or rt.output is None or not isinstance(tool.output_schema, dict):
            return
        advertised, emitted = shapes(tool.output_schema), shapes(rt.output)
        base = tool.origin.pointer + "/outputSchema"
        seen: set[str] = set()
        for pair in pairs(advertised, emitted):
            adv, out = pair.left, pair.right
            path = pair.instance_path
            if adv is None or out is None or adv.never or out.never or path in seen:
                continue
            if incompatible(adv, out):
                seen.add(path)
                yield self.diag(
                    tool, None,
                    f"the advertised outputSchema says {name(path)} is {_fmt(adv.types)}, but the server emits "
                    f"{_fmt(out.types)} there (its serialization mode): every result fails the tool's own "
                    "outputSchema; the advertised side is wrong",
                    instance_path=path, hint=_HINT, file_pointer=base + (adv.pointer + "/type"),
                )
                continue
            if comparable_objects(adv, out):
                yield from self._keys(tool, base, path, adv, out, seen)

    def _keys(self, tool: Tool, base: str, path: str, adv: Shape, out: Shape, seen: set[str]) -> Iterator[Diagnostic]:
        missing = [k for k in sorted(adv.required, key=declared_order(adv)) if k not in out.properties]
        extra = [k for k in sorted(out.required, key=declared_order(out)) if k not in adv.properties]
        for key in missing:
            kpath = child_path(path, key)
            if kpath in seen:
                continue
            seen.add(kpath)
            carried = ", ".join(f"`{k}`" for k in extra)
            instead = f" (they carry {carried} instead: a serialization alias?)" if extra else ""
            yield self.diag(
                tool, None,
                f"the advertised outputSchema requires {key_name(path, key)}, but the server's results never "
                f"carry it{instead}: every result fails the tool's own outputSchema and a validating client "
                "refuses it (\"Invalid structured content\"); the advertised side is wrong, rendered in "
                "validation mode while results are dumped in serialization mode",
                instance_path=kpath, hint=_HINT,
                file_pointer=base + (adv.properties.get(key) or adv.required_pointer or adv.pointer),
            )
        for key in extra:
            kpath = child_path(path, key)
            if kpath in seen:
                continue
            seen.add(kpath)
            refused = not adv.admits_extra(key)
            yield self.diag(
                tool, None,
                f"the server's results always carry {key_name(path, key)} (a computed field or an alias), which "
                + ("the advertised outputSchema forbids (`additionalProperties: false`): every result fails "
                   "the tool's own outputSchema" if refused else
                   "the advertised outputSchema does not describe: clients and models are not told about it"),
                instance_path=kpath, hint=_HINT,
                severity=None if refused else Severity.WARNING,
                file_pointer=base + (adv.additional_pointer if refused and adv.additional_pointer else adv.pointer),
            )
