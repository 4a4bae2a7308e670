"""Small real rules used by the configuration, baseline and reporter tests.

They run through the real engine (``api.check(rules=...)``) so that the tests do not
depend on which rule families are merged. Codes SL99x are reserved for tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Severity, Tool, join_pointer
from schemalint.rules.base import Context, Rule
from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource


class UndescribedProperty(Rule):
    """Flags top-level properties whose description is shorter than ``min_length``."""

    code = "SL990"
    name = "undescribed-property"
    severity = Severity.WARNING
    summary = "A top-level property has no (or too short a) description."
    options: ClassVar[Mapping[str, Any]] = {"min_length": 1, "skip": ["id"]}

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        schema = tool.advertised
        if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
            return
        min_length = self.option(ctx, "min_length")
        for key, sub in schema["properties"].items():
            if key in self.option(ctx, "skip"):
                continue
            text = sub.get("description", "") if isinstance(sub, dict) else ""
            if len(text) < min_length:
                yield self.diag(tool, join_pointer("/properties", key),
                                f"property `{key}` has no description of at least {min_length} character(s)",
                                instance_path="/" + key, hint="describe what the model should pass")


class OpenObject(Rule):
    """Flags a root schema without ``additionalProperties: false`` (an error)."""

    code = "SL991"
    name = "open-object"
    severity = Severity.ERROR
    summary = "The root schema admits unknown keys."
    targets = ("openai-strict",)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        if not ctx.targets_for(tool).intersection(self.targets):
            return  # target rules run per tool, for the targets given or inferred
        if isinstance(tool.advertised, dict) and tool.advertised.get("additionalProperties") is not False:
            yield self.diag(tool, "", "the root schema admits unknown keys")


TEST_RULES: tuple[Rule, ...] = (UnreadableSource(), UndescribedProperty(), OpenObject())


def openai_tool(name: str, props: dict[str, Any], *, closed: bool = False) -> dict[str, Any]:
    """An OpenAI chat-completions tool definition."""
    params: dict[str, Any] = {"type": "object", "properties": props}
    if closed:
        params["additionalProperties"] = False
    return {"type": "function", "function": {"name": name, "description": f"The {name} tool.",
                                             "parameters": params}}
