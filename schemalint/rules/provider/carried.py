"""Which keywords a target's tool schema cannot carry, so that the description is the only place a
model reads them (the fix of the keyword rules removes them and says so in the description).

The sets are the keyword rules' own tables, so the two never disagree: SL311 (OpenAI strict:
refused, unlisted and ``default``), SL312 (Anthropic strict), SL313 (Gemini ``parameters``: every
key outside its Schema fields), SL323 (Bedrock strict tools only), SL324 (Ollama drops them).
:mod:`schemalint.rules.description.sl203_description_range_mismatch` reads it: a bound or a default
stated only in the description is where it must be when one of the tool's targets cannot carry it,
not a mismatch.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from schemalint.model import Tool


@cache
def _refused(target: str) -> frozenset[str] | None:
    """The keywords ``target``'s schema cannot carry; ``None`` for a target that carries every one
    this module knows of. Gemini is the complement of its Schema fields (see :func:`carries`)."""
    if target == "openai-strict":
        from schemalint.rules.provider.sl311_openai_strict_unsupported_keyword import TABLE as OPENAI

        return frozenset(OPENAI)
    if target == "anthropic-strict":
        from schemalint.rules.provider.sl312_anthropic_strict_unsupported_keyword import TABLE as ANTHROPIC

        return frozenset(ANTHROPIC)
    if target == "bedrock":
        from schemalint.rules.provider.sl323_bedrock_strict_unsupported_keyword import TABLE as BEDROCK

        return frozenset(BEDROCK)
    if target == "ollama":
        from schemalint.rules.provider.sl324_ollama_dropped_keyword import DROPPED

        return frozenset(DROPPED)
    return None


def carries(target: str, keyword: str, tool: Tool | None = None) -> bool:
    """Whether a tool schema sent to ``target`` can carry ``keyword`` (a JSON Schema keyword):
    ``False`` when that target's keyword rule reports it (refused, dropped or not applied).
    Bedrock refuses its keywords only in strict tools (``tool.strict``)."""
    if target == "gemini":
        from schemalint.rules.provider.sl313_gemini_unsupported_keyword import ALLOWED

        return keyword in ALLOWED
    if target == "bedrock" and (tool is None or not tool.strict):
        return True
    refused = _refused(target)
    return refused is None or keyword not in refused


def stated_only(targets: Iterable[str], keywords: Iterable[str], tool: Tool | None = None) -> bool:
    """Whether one of ``targets`` can carry none of ``keywords`` in its schema: the description is
    then the one place a tool sent to every one of ``targets`` can say what they would say (writing
    them into the schema would break that target), so a bound or default stated only there is no
    mismatch."""
    keys = list(keywords)
    return any(not any(carries(t, k, tool) for k in keys) for t in targets)
