"""SL301 tool-name-pattern: the tool name breaks the provider's name pattern or length.

Source: rules/SL301-tool-name-pattern.md, section "Source" (the one place it is written).

Division of labour with SL006 invalid-tool-name: SL006 checks the name rule of the tool's
own format; this rule reports what the other targets (``--target`` or inferred) add beyond
it, and stays silent on a name SL006 already reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, W
from schemalint.rules.shape._common import reports
from schemalint.targets import label


def _outside(fact_key: str) -> re.Pattern[str]:
    """The characters outside the class the provider-facts row ``fact_key`` allows (its value's first part)."""
    return re.compile(f"[^{value(fact_key)[0]}]")


_STRICT_CHARS = _outside("openai.tool-name")
_CHARS = {"anthropic": _outside("anthropic.tool-name"), "bedrock": _outside("bedrock.tool-name")}
_GEMINI_CHARS = _outside("gemini.tool-name")
_MCP_CHARS = _outside("mcp.tool-name")


_PORTABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def plainly_portable(name: str, max_length: int) -> bool:
    """True when ``name`` passes every target's name rule (OpenAI, Anthropic, Bedrock, Gemini, MCP):
    a letter or ``_`` first, then letters, digits, ``_`` and ``-``, at most ``max_length``
    characters (the smallest of the limits); one regex call before SL301's per-target look."""
    return len(name) <= max_length and _PORTABLE.fullmatch(name) is not None


def portable_name(name: str, max_length: int = 64) -> str:
    """A rewrite of ``name`` that every provider accepts: invalid characters become ``_``,
    a leading digit or dash gets a ``_`` prefix, cut to ``max_length``."""
    out = _STRICT_CHARS.sub("_", name) or "tool"
    if not (out[0].isalpha() or out[0] == "_"):
        out = "_" + out
    return out[:max_length]


class ToolNamePattern(ProviderRule):
    """The tool name does not match the name pattern of a target provider."""

    severity = E

    facts = ("openai.tool-name", "anthropic.tool-name", "bedrock.tool-name", "gemini.tool-name", "mcp.tool-name")

    mcp_revisions = ("2025-11-25", "2026-07-28")  # SEP-986 tool names (row mcp.tool-name)

    options: ClassVar[Mapping[str, Any]] = {
        "max_length": value("openai.tool-name")[1],
        "mcp_max_length": value("mcp.tool-name")[1],
        "anthropic_max_length": value("anthropic.tool-name")[1],
    }

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        name = tool.name
        max_len = int(self.option(ctx, "max_length"))
        mcp_max = int(self.option(ctx, "mcp_max_length"))
        if plainly_portable(name, min(max_len, mcp_max)):
            return  # every target's pattern and length accept it (the common case)
        if reports("SL006", tool, ctx):
            return  # SL006 reports the name against its own format's rule: one fault, one diagnostic
        problems: dict[str, list[str]] = {}  # complaint -> targets
        for target in targets:
            if target == "mcp":
                bad = sorted(set(_MCP_CHARS.findall(name)))
                limit = mcp_max
            elif target.startswith("gemini"):
                bad = sorted(set(_GEMINI_CHARS.findall(name)))
                if name and not (name[0].isalpha() or name[0] == "_") and name[0] not in bad:
                    bad.insert(0, f"leading {name[0]!r}")
                limit = max_len
            else:
                family = next((f for f in _CHARS if target.startswith(f)), "")
                bad = sorted(set(_CHARS.get(family, _STRICT_CHARS).findall(name)))
                limit = int(self.option(ctx, "anthropic_max_length")) if family == "anthropic" else max_len
            why = []
            if not name:
                why.append("is empty")
            lead = [b for b in bad if b.startswith("leading")]
            chars = [b for b in bad if not b.startswith("leading")]
            if lead:
                why.append("starts with " + lead[0].split(" ", 1)[1])
            if chars:
                why.append("contains " + ", ".join("a space" if c == " " else repr(c) for c in chars))
            if len(name) > limit:
                why.append(f"is {len(name)} characters long (limit {limit})")
            if why:
                problems.setdefault("; ".join(why), []).append(target)
        if not problems:
            return
        fixed = portable_name(name, max_len)
        hint = (
            f"rename it to a portable name such as {fixed!r} (letters, digits, '_' and '-', "
            f"starting with a letter or '_', at most {max_len} characters)"
        )
        refusing = {text: [t for t in ts if t != "mcp"] for text, ts in problems.items()}
        refusing = {text: ts for text, ts in refusing.items() if ts}
        mcp_text = next((text for text, ts in problems.items() if "mcp" in ts), None)
        parts = []
        if refusing:
            said = "; ".join(
                f"{text} ({label(ts)})" if len(refusing) > 1 or mcp_text else text for text, ts in refusing.items()
            )
            parts.append(
                f"tool name {name!r} {said}: the provider answers 400 for the whole request, so no tool "
                "in it can be called"
            )
        if mcp_text is not None:
            opening = f"for MCP it {mcp_text}" if refusing else f"tool name {name!r} {mcp_text}"
            parts.append(
                f"{opening}; the MCP specification says tool names SHOULD use only [A-Za-z0-9_.-] and at most "
                f"{mcp_max} characters, so MCP clients may refuse, rename or drop the tool"
            )
        message = "; ".join(parts)
        for ts in problems.values():
            for target in ts:
                yield ProfileFault(
                    target, W if target == "mcp" else E, None, "name", message, hint,
                    file_pointer=tool.field_pointer("name"),
                )
