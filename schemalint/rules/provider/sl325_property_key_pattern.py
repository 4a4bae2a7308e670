"""SL325 property-key-pattern: a top-level property key Anthropic and Bedrock refuse.

Only the top level of ``input_schema.properties`` is checked, as the providers do. Errors for
Anthropic and Bedrock; a warning for MCP tools, because MCP clients that forward tools to Claude
(Claude Code) fail the same way.

Source: rules/SL325-property-key-pattern.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W, ptr_key

KEY = re.compile(r"[a-zA-Z0-9_.-]{1,64}")
"""The property-key pattern of the Anthropic/Bedrock error message (without its anchors)."""

_ALL_KEYS = re.compile(r"[a-zA-Z0-9_.-]{1,64}(?:\n[a-zA-Z0-9_.-]{1,64})*")
"""Keys joined by newlines (not in the pattern's class) that all match :data:`KEY`: one regex call
decides the common case of a tool whose keys are all fine."""


def _fix(key: str) -> str:
    fixed = re.sub(r"[^a-zA-Z0-9_.-]+", "_", key.replace("[", ".").replace("]", "")).strip("_.") or "key"
    return fixed[:64]


class PropertyKeyPattern(ProviderRule):
    """A top-level property key outside ``^[a-zA-Z0-9_.-]{1,64}$`` (brackets, spaces, over 64
    characters, non-ASCII letters)."""

    keywords = frozenset({"properties"})  # only the root `properties` is checked (Rule.keywords)

    severity = E

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        schema = tool.advertised
        props = schema.get("properties") if isinstance(schema, Mapping) else None
        if not isinstance(props, Mapping):
            return
        try:
            joined = "\n".join(props)
            # exact only when no key holds a newline itself ("a\nb" would read as two good keys)
            if joined.count("\n") == len(props) - 1 and _ALL_KEYS.fullmatch(joined):
                return
        except TypeError:  # a key that is not a string (YAML): look at each
            pass
        for key in props:
            if not isinstance(key, str) or KEY.fullmatch(key):
                continue
            why = "is longer than 64 characters" if len(key) > 64 and KEY.fullmatch(key[:64]) else (
                "has characters outside a-z A-Z 0-9 _ . -"
            )
            for target in targets:
                sev = W if target == "mcp" else E
                tail = (
                    "MCP clients that forward tools to Anthropic or Bedrock (Claude Code) then fail every request"
                    if target == "mcp"
                    else "the whole request fails"
                )
                yield ProfileFault(
                    target,
                    sev,
                    ptr_key("/properties", key),
                    "key",
                    f"property key {key!r} {why}; Anthropic and Bedrock answer 400 'input_schema.properties: "
                    f"Property keys should match pattern ^[a-zA-Z0-9_.-]{{1,64}}$' and {tail}",
                    f"rename it (e.g. {_fix(key)!r}) and map the name back to the API's in the tool's code",
                    "/" + key.replace("~", "~0").replace("/", "~1"),
                )
