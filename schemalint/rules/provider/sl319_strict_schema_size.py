"""SL319 strict-schema-size: an OpenAI strict schema above the documented size limits.

Options ``max_properties``, ``max_enum_values``, ``max_string_budget``, ``large_enum_values``,
``large_enum_chars``.

Source: rules/SL319-strict-schema-size.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, index_for, ptr_key, where

_HINT = (
    "split the tool into smaller tools, or replace large enums by a string parameter whose valid "
    "values the tool checks"
)


class StrictSchemaSize(ProviderRule):
    """Property count, enum count or string budget of an OpenAI strict schema above the limit."""

    severity = E

    facts = ("openai-strict.max-properties", "openai-strict.max-enum-values", "openai-strict.max-string-budget",
             "openai-strict.large-enum")

    options: ClassVar[Mapping[str, Any]] = {
        "max_properties": value("openai-strict.max-properties"),
        "max_enum_values": value("openai-strict.max-enum-values"),
        "max_string_budget": value("openai-strict.max-string-budget"),
        "large_enum_values": value("openai-strict.large-enum")[0],
        "large_enum_chars": value("openai-strict.large-enum")[1],
    }

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        max_props = int(self.option(ctx, "max_properties"))
        max_enum = int(self.option(ctx, "max_enum_values"))
        max_chars = int(self.option(ctx, "max_string_budget"))
        big_enum = int(self.option(ctx, "large_enum_values"))
        big_chars = int(self.option(ctx, "large_enum_chars"))
        props = chars = enums = 0
        for node in index.having("properties"):
            p = node.schema.get("properties")
            if isinstance(p, Mapping):
                props += len(p)
                chars += sum(len(k) for k in p)
        for key in ("$defs", "definitions"):
            for node in index.having(key):
                d = node.schema.get(key)
                if isinstance(d, Mapping):
                    chars += sum(len(k) for k in d)
        for node in index.having("enum"):
            values = node.schema.get("enum")
            if not isinstance(values, list):
                continue
            enums += len(values)
            strs = [v for v in values if isinstance(v, str)]
            length = sum(len(v) for v in strs)
            chars += length
            if len(strs) > big_enum and length > big_chars:
                yield ProfileFault(
                    "openai-strict",
                    E,
                    ptr_key(node.pointer, "enum"),
                    "bigenum",
                    f"{where(node)} has a string enum of {len(strs)} values totalling {length} "
                    f"characters; OpenAI strict allows at most {big_chars} characters for an enum "
                    f"of more than {big_enum} values",
                    _HINT,
                    node.instance_path,
                )
        for node in index.having("const"):
            c = node.schema.get("const")
            if isinstance(c, str):
                chars += len(c)
        for count, limit, what in (
            (props, max_props, "object properties"),
            (enums, max_enum, "enum values"),
            (chars, max_chars, "characters of property/definition names and enum/const values"),
        ):
            if count > limit:
                yield ProfileFault(
                    "openai-strict",
                    E,
                    "",
                    what,
                    f"the schema has {count} {what}; OpenAI strict mode allows at most {limit}",
                    _HINT,
                )
