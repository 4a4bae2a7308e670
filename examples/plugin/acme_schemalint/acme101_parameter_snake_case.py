"""ACME101 parameter-snake-case: every parameter name of a tool is snake_case.

A house rule, not a provider limit: ACME's services read arguments into Python keyword
arguments, so a ``camelCase`` or ``kebab-case`` name needs a mapping layer that has drifted
before. Checked on every ``properties`` map of the advertised schema, at every depth
(``$defs`` and union branches included). Option ``allow``: names accepted as they are.

Source: ACME API style guide, section "Parameter names" (an example house rule).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Severity, Tool, escape_token
from schemalint.rules.base import Context, Rule
from schemalint.schema.index import index_schema

SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


class ParameterSnakeCase(Rule):
    """A parameter name is not snake_case (lower-case words joined by ``_``)."""

    severity = Severity.WARNING
    options: ClassVar[Mapping[str, Any]] = {"allow": []}
    keywords = frozenset({"properties"})

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        allowed = set(self.option(ctx, "allow"))
        for node in index_schema(tool.advertised).having("properties"):
            props = node.schema["properties"]
            if not isinstance(props, dict):
                continue
            for key in props:
                if isinstance(key, str) and key not in allowed and not SNAKE.match(key):
                    yield self.diag(tool, f"{node.pointer}/properties/{escape_token(key)}",
                                    f"parameter {key!r} is not snake_case (ACME API style guide)",
                                    hint=f"rename it to {_snake(key)!r}, or list it in the rule's `allow` option")


def _snake(name: str) -> str:
    text = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name)
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "name"
