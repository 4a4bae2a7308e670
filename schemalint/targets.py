"""Provider target profiles: their names, how ``--target`` is parsed, and what is inferred per tool.

A *target* (profile) names the API a tool definition will be sent to, and therefore
which SL3xx rules check it (see ``docs/targets.md`` and
``reference/provider-constraints.md`` in the shared project folder):

=================  ====================================================================
profile            what it models
=================  ====================================================================
openai             OpenAI Chat Completions / Responses function tools, non-strict
openai-strict      the same with ``"strict": true`` (Structured Outputs subset)
anthropic          Anthropic Messages API tools (``input_schema``)
anthropic-strict   the same with ``"strict": true`` (grammar-compiled subset, budgets)
gemini             Gemini ``functionDeclarations[].parameters`` (OpenAPI 3.0 ``Schema`` proto)
gemini-json        Gemini ``parametersJsonSchema`` (JSON Schema, Nov 2025 keyword set)
mcp                Model Context Protocol ``tools/list``, latest revision (2026-07-28);
                   ``mcp@2025-11-25`` / ``mcp@2025-06-18`` name an older revision
bedrock            AWS Bedrock Converse ``toolSpec`` (strict rules when ``strict: true``)
ollama             Ollama ``/api/chat`` tools (Go structs that drop unknown keywords)
=================  ====================================================================

Inference (:func:`infer_targets`): an OpenAI tool (``openai-chat``/``openai-responses``)
is ``openai-strict`` when it says ``"strict": true``, else ``openai``; an Anthropic tool
is ``anthropic-strict`` or ``anthropic`` likewise; Gemini declarations are ``gemini``
(``parameters``) or ``gemini-json`` (``parametersJsonSchema``); MCP tools are ``mcp``, whether
read from JSON or listed from a Python MCP server object (format ``mcp-server``);
Bedrock Converse ``toolSpec`` objects are ``bedrock``.
Manifests, legacy ``function`` tools (BFCL, ACEBench, Gorilla) and Docker ``arguments``
lists get no inferred target.

MCP revisions: ``--target mcp@2025-11-25`` (or ``target = ["mcp@2025-11-25"]`` in the
configuration) checks MCP tools against that protocol revision instead of the latest; the parsed
targets then hold both ``mcp`` and the marker ``mcp@2025-11-25`` (:func:`mcp_revisions` reads the
markers; rules that are not revision-aware see only ``mcp``). ``mcp`` named beside it adds the
latest revision's marker, so ``--target mcp,mcp@2025-11-25`` checks both. Without a marker
(an MCP tool's inferred ``mcp``) the latest revision applies. The
revisions are the provider-facts row ``mcp.revisions`` (:mod:`schemalint.provider_facts`).

``--target`` values *add* to the inferred targets; a value starting with ``=`` (e.g.
``--target =openai,gemini``) *replaces* them, so every tool is checked against exactly
the listed profiles. ``all`` stands for every profile.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from schemalint.model import Tool

PROFILES: dict[str, str] = {
    "openai": "OpenAI Chat Completions / Responses function tools, non-strict",
    "openai-strict": 'the same with `"strict": true` (Structured Outputs subset)',
    "anthropic": "Anthropic Messages API tools (`input_schema`)",
    "anthropic-strict": 'the same with `"strict": true` (grammar-compiled subset, per-request budgets)',
    "gemini": "Gemini `functionDeclarations[].parameters` (OpenAPI 3.0 `Schema` proto)",
    "gemini-json": "Gemini `functionDeclarations[].parametersJsonSchema`",
    "mcp": "MCP `tools/list`, the latest revision (2026-07-28); `mcp@2025-11-25`, `mcp@2025-06-18` name an older one",
    "bedrock": "AWS Bedrock Converse `toolSpec` (strict checks for tools with `strict: true`)",
    "ollama": "Ollama `/api/chat` tools (unknown keywords silently dropped; values its Go structs cannot decode "
              "refused)",
}
"""Every profile name with what it models (Markdown, one line), in documentation order: docs/targets.md's
"Profiles" table is generated from it (:func:`markdown_profiles`)."""

DISPLAY: dict[str, str] = {
    "openai": "OpenAI",
    "openai-strict": "OpenAI strict",
    "anthropic": "Anthropic",
    "anthropic-strict": "Anthropic strict",
    "gemini": "Gemini parameters",
    "gemini-json": "Gemini parametersJsonSchema",
    "mcp": "MCP",
    "bedrock": "Bedrock",
    "ollama": "Ollama",
}
"""Human names of the profiles, used in diagnostic messages."""


def markdown_profiles() -> str:
    """The "Profiles" table of docs/targets.md (between ``<!-- profiles -->`` markers): one row per
    :data:`PROFILES` entry, in its order (``tests/test_provider_facts.py`` fails when they differ)."""
    rows = ["| profile | what it models |", "|---|---|", *(f"| `{k}` | {v} |" for k, v in PROFILES.items())]
    return "\n".join(rows) + "\n"


def _mcp_revisions() -> tuple[str, ...]:
    from schemalint.provider_facts import value

    return tuple(value("mcp.revisions"))


MCP_REVISIONS: tuple[str, ...] = _mcp_revisions()
"""The MCP protocol revisions schemalint checks, oldest first; the last is the latest, what
``--target mcp`` means (provider-facts row ``mcp.revisions``)."""

LATEST_MCP = MCP_REVISIONS[-1]
"""The latest MCP revision (``--target mcp`` without ``@``)."""

MCP_FORMATS = frozenset(("mcp", "mcp-server"))
"""Tool formats that are MCP tools: an MCP ``tools/list`` JSON file, and tools listed from a server
(Python or TypeScript MCP sources, ``--mcp-stdio``, ``--mcp-url``)."""


def mcp_revisions(targets: Iterable[str]) -> tuple[str, ...]:
    """The MCP revisions named by ``mcp@<revision>`` markers in ``targets`` (parsed targets, or
    :meth:`~schemalint.rules.base.Context.targets_for` of a tool), oldest first; the latest revision
    alone when there is none."""
    named = {t[4:] for t in targets if t.startswith("mcp@")}
    return tuple(r for r in MCP_REVISIONS if r in named) or (LATEST_MCP,)


class TargetError(ValueError):
    """An unknown profile name in ``--target`` or the ``target`` configuration key."""


@dataclass(frozen=True)
class TargetSpec:
    """Parsed ``--target`` values: the named profiles and whether they replace the inferred ones."""

    targets: frozenset[str] = frozenset()
    replace: bool = False


def parse_targets(values: Iterable[str]) -> TargetSpec:
    """Parse ``--target`` values (already split on commas).

    ``["openai-strict", "gemini"]`` adds both to the inferred targets;
    ``["=openai", "gemini"]`` (any value starting with ``=``) replaces the inferred
    targets with exactly ``{openai, gemini}``; ``all`` expands to every profile;
    ``mcp@2025-11-25`` adds ``mcp`` and the revision marker itself (:func:`mcp_revisions`).
    Raises :class:`TargetError` naming the unknown profile and the valid ones.
    """
    names: set[str] = set()
    replace = False
    for raw in values:
        value = raw.strip()
        if value.startswith("="):
            replace = True
            value = value[1:].strip()
        if not value:
            continue
        value = value.lower()
        if value == "all":
            names.update(PROFILES)
        elif value == "mcp":
            # naming mcp names its latest revision: with mcp@<older> beside it, both are checked
            names.update(("mcp", "mcp@" + LATEST_MCP))
        elif value.startswith("mcp@"):
            revision = value[4:]
            if revision not in MCP_REVISIONS:
                raise TargetError(f"unknown MCP revision {raw.strip()!r}; choose from "
                                  f"{', '.join('mcp@' + r for r in MCP_REVISIONS)} (mcp alone: the latest, "
                                  f"{MCP_REVISIONS[-1]})")
            names.update(("mcp", value))
        elif value in PROFILES:
            names.add(value)
        else:
            import difflib

            close = difflib.get_close_matches(value, [*PROFILES, "all"], n=1)
            guess = f" (did you mean {close[0]!r}?)" if close else ""
            raise TargetError(
                f"unknown target {raw.strip()!r}{guess}; choose from {', '.join(PROFILES)} or all "
                "(prefix with = to replace the inferred targets, e.g. --target =openai)"
            )
    return TargetSpec(frozenset(names), replace)


_OPENAI_FORMATS = ("openai-chat", "openai-responses")


def infer_targets(tool: Tool) -> frozenset[str]:
    """The profiles a tool's own source format implies (see the module docstring)."""
    fmt = tool.origin.format
    if fmt in _OPENAI_FORMATS:
        return frozenset(("openai-strict",)) if tool.strict else frozenset(("openai",))
    if fmt == "anthropic":
        return frozenset(("anthropic-strict",)) if tool.strict else frozenset(("anthropic",))
    if fmt in ("gemini", "gemini-json", "mcp", "bedrock"):
        return frozenset((fmt,))  # "bedrock": Converse toolSpec (loaders/formats/json_tools.py)
    if fmt == "mcp-server":  # a Python MCP server object (loaders/python/mcp_server.py): as its tools/list JSON
        return frozenset(("mcp",))
    return frozenset()


STRICT_PROFILES = frozenset(("openai-strict", "anthropic-strict"))
"""The profiles whose provider decodes a call to the tool's schema (OpenAI Structured Outputs,
Anthropic's grammar-compiled strict tools): the model sends no key an object does not declare.
Bedrock does for a tool that says ``strict: true``."""


def strict_decoded(tool: Tool, spec: TargetSpec | None = None) -> bool:
    """Whether ``tool`` is sent to a strict target: among its profiles (those inferred from its format
    plus ``spec``'s, or only ``spec``'s when they replace them) is one of :data:`STRICT_PROFILES`, or
    ``bedrock`` for a tool that says ``strict: true``. ``schemalint diff`` reads a closing of an
    object for such a tool as what strict mode requires (SD213), as ``check --fix`` writes it (SL307)."""
    named = spec.targets if spec is not None else frozenset()
    targets = named if spec is not None and spec.replace else infer_targets(tool) | named
    return bool(targets & STRICT_PROFILES) or ("bedrock" in targets and bool(tool.strict))


def label(targets: Iterable[str]) -> str:
    """``"OpenAI strict, Gemini parameters"`` for a set of profiles, in :data:`PROFILES` order."""
    chosen = set(targets)
    return ", ".join(DISPLAY[t] for t in PROFILES if t in chosen)
