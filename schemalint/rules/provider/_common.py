"""Shared machinery of the provider (SL3xx) rules.

- :class:`ProviderView`: the provider rules' view of one walk of a tool's advertised schema
  (:class:`schemalint.schema.index.SchemaIndex`, the one index), cached per run in the
  :class:`~schemalint.rules.base.Context`, shared by every provider rule. It keeps the
  nodes in walk order and, per keyword, the nodes whose schema has that keyword, so that
  most rules only look at the few nodes that matter.
- :class:`ProviderRule`: a :class:`~schemalint.rules.base.Rule` whose ``check_tool`` runs
  only for the profiles of the rule that apply to the tool (:meth:`Context.targets_for`),
  and whose findings for several profiles at one location merge into one diagnostic
  naming them (severity: the worst of them).

Facts come from the provider-facts table (:mod:`schemalint.provider_facts`, dated and sourced
rows; migrated from ``reference/provider-constraints.md`` rule by rule); a rule lists the rows it
enforces in :attr:`ProviderRule.facts` and names their sources in ``source``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import schemalint.schema as vocabulary
from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.catalog import NAME_AND_ROOT_PROFILES as NAME_AND_ROOT_PROFILES  # for the rules
from schemalint.schema.index import SchemaNode, index_schema
from schemalint.targets import PROFILES, label

if TYPE_CHECKING:
    from schemalint.schema.walk import Node

E, W = Severity.ERROR, Severity.WARNING

class ProviderView:
    """What the provider rules need of one advertised schema: a view of the shared walk
    (:func:`schemalint.schema.index.index_schema`, also used by the shape rules).

    ``root``: the schema. ``nodes``: its dict subschemas in walk order (``$defs`` entries
    included, ``$ref`` not followed). :meth:`having` gives the nodes with a keyword,
    :meth:`objects` the object schemas and ``property_nodes`` the property schemas, both
    without conditional subschemas (:meth:`is_conditional`).
    """

    __slots__ = ("_objects", "_properties", "_shared", "nodes", "root")

    def __init__(self, root: Any) -> None:
        shared = index_schema(root)
        self.root = root
        self.nodes: list[SchemaNode] = shared.nodes
        self._objects: list[SchemaNode] | None = None
        self._properties: list[SchemaNode] | None = None
        self._shared = shared

    @classmethod
    def build(cls, root: Any) -> ProviderView:
        """Index ``root`` (any JSON value; non-dicts give no nodes); never raises."""
        return cls(root)

    def having(self, *keys: str) -> list[SchemaNode]:
        """Nodes whose schema has any of ``keys``, in walk order, each once."""
        return self._shared.having(*keys)

    @property
    def loose_properties(self) -> bool:
        """Some property schema has none of ``type``, ``anyOf`` and ``$ref``
        (:attr:`schemalint.schema.index.SchemaIndex.loose_properties`)."""
        return self._shared.loose_properties

    @property
    def property_nodes(self) -> list[SchemaNode]:
        """Schemas of named properties (``.../properties/<name>``), conditional ones excluded."""
        if self._properties is None:
            self._properties = [n for n in self.nodes if n.keyword == "properties" and not n.conditional]
        return self._properties

    def objects(self) -> list[SchemaNode]:
        """Nodes that describe an object value: ``type: object`` (or a list containing it), or
        ``properties`` without a ``type``; conditional subschemas (``if``/``not`` ...) excluded."""
        if self._objects is None:
            out = []
            for n in self.nodes:
                if n.conditional:
                    continue
                schema = n.schema
                t = schema.get("type")
                if t == "object" or (t is None and "properties" in schema) or (type(t) is list and "object" in t):
                    out.append(n)
            self._objects = out
        return self._objects

    @staticmethod
    def is_conditional(node: SchemaNode) -> bool:
        """True for a subschema inside ``if``/``then``/``else``/``not``/``dependentSchemas``/
        ``dependencies``/``propertyNames``/``contains``: it constrains, it does not declare."""
        return node.conditional


_SLOT = "schema-index"
_NONE: tuple[()] = ()


def index_for(tool: Tool, ctx: Context) -> ProviderView:
    """The :class:`ProviderView` of ``tool``'s advertised schema, shared by the rules checking
    ``tool`` (rebuilt when another tool was indexed in between)."""
    memo = ctx.run.memo
    slot = memo.get(_SLOT)
    if slot is None:
        slot = memo[_SLOT] = [None, None]
    if slot[0] is not tool:
        # one slot: run_rules runs every rule on a tool before the next tool, and keeping
        # every tool's index alive would make the garbage collector rescan them all
        slot[0], slot[1] = tool, ProviderView(tool.advertised)
    return slot[1]


def types_of(schema: Mapping[str, Any]) -> tuple[str, ...]:
    """The ``type`` of a schema as a tuple of strings (``()`` when absent or malformed;
    :func:`schemalint.schema.type_names`)."""
    return vocabulary.type_names(schema)


def ptr_key(pointer: str, key: str) -> str:
    """``pointer`` + ``/key`` with the key escaped."""
    from schemalint.model import join_pointer

    return join_pointer(pointer, key)


def where(node: SchemaNode | Node) -> str:
    """A short human location for messages: ``property 'a/b'`` or ``the root schema``."""
    if node.pointer == "":
        return "the root schema"
    if node.instance_path:
        return f"'{node.instance_path.lstrip('/')}'"
    return f"schema {node.pointer}"


@dataclass(frozen=True)
class ProfileFault:
    """One fault for one profile: merged with the same ``key`` at the same pointer for other profiles.

    ``pointer`` is relative to the advertised schema (``None``: the tool object itself;
    use ``file_pointer`` for other places in the file).
    """

    target: str
    severity: Severity
    pointer: str | None
    key: str
    message: str
    hint: str
    instance_path: str | None = None
    file_pointer: str | None = None


class ProviderRule(Rule):
    """Base of the SL3xx rules: per-tool profile filtering and merged findings.

    Subclasses set ``targets`` and implement :meth:`findings` (per tool) and/or
    :meth:`catalog_findings` (whole run; tools already filtered to those with at least
    one of the rule's profiles). A message is prefixed with the profiles it concerns,
    e.g. ``[OpenAI strict, Anthropic strict]``.
    """

    targets: ClassVar[tuple[str, ...]] = ()
    mcp_revisions: ClassVar[tuple[str, ...] | None] = None
    """The MCP protocol revisions whose text the rule's ``mcp`` findings enforce (``None``: every
    revision, :data:`schemalint.targets.MCP_REVISIONS`). For the ``mcp`` profile the rule runs only
    when a revision the tool is checked against (``--target mcp@<revision>``) is one of these, and
    its message ends with the revisions it applies to, e.g. ``(MCP 2025-11-25, 2026-07-28)``; the
    rule's page says the same in a ``Revisions:`` sentence (``tests/test_mcp_revisions.py``)."""
    facts: ClassVar[tuple[str, ...]] = ()
    """Keys of the :mod:`schemalint.provider_facts` rows the rule enforces; its page must name each
    row's source and value (``tests/test_provider_facts.py``)."""

    def __init__(self) -> None:
        self._active: dict[frozenset[str], tuple[str, ...]] = {}

    def active_targets(self, tool: Tool, ctx: Context) -> tuple[str, ...]:
        """The rule's profiles that ``tool`` is checked against, in :data:`PROFILES` order (``mcp``
        only when one of the MCP revisions checked is one of :attr:`mcp_revisions`)."""
        mine = ctx.targets_for(tool)
        found = self._active.get(mine)
        if found is None:
            found = tuple(t for t in PROFILES if t in mine and t in self.targets)
            if "mcp" in found and not self.revisions_applying(mine):
                found = tuple(t for t in found if t != "mcp")
            self._active[mine] = found
        return found

    def revisions_applying(self, targets: frozenset[str]) -> tuple[str, ...]:
        """The MCP revisions checked for a tool with ``targets`` (:func:`schemalint.targets.mcp_revisions`)
        that this rule applies to (:attr:`mcp_revisions`), oldest first."""
        from schemalint.targets import mcp_revisions

        checked = mcp_revisions(targets)
        own = self.mcp_revisions
        return checked if own is None else tuple(r for r in checked if r in own)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        active = self._active.get(ctx.targets_for(tool))
        if active is None:
            active = self.active_targets(tool, ctx)
        if not active:
            return ()
        findings = self.findings(tool, active, ctx)
        if findings is _NONE:
            return ()
        found = list(findings)
        if found and tool.origin.format == "ai-sdk":
            found = [f for f in found if not _framework_removes(tool, f)]
        if not found:
            return ()
        return self.merge(tool, found, ctx)

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        """Findings for ``tool`` against ``targets`` (a non-empty subset of ``self.targets``)."""
        return _NONE

    def checks_tools(self) -> bool:
        """False for a rule with only :meth:`catalog_findings` (its :meth:`check_tool` finds nothing)."""
        cls = type(self)
        return cls.check_tool is not ProviderRule.check_tool or cls.findings is not ProviderRule.findings

    def merge(self, tool: Tool, findings: Iterable[ProfileFault], ctx: Context | None = None) -> list[Diagnostic]:
        """One diagnostic per (location, key), naming every profile that reports it; with ``ctx``, a
        finding for the ``mcp`` profile whose message names no MCP revision ends with the revisions it
        applies to (:meth:`revisions_applying`)."""
        groups: dict[tuple[str | None, str | None, str], list[ProfileFault]] = {}
        for f in findings:
            groups.setdefault((f.pointer, f.file_pointer, f.key), []).append(f)
        out: list[Diagnostic] = []
        for group in groups.values():
            first = max(group, key=lambda f: f.severity.rank)
            names = label(f.target for f in group)
            message = first.message
            if ctx is not None and "MCP 20" not in message and any(f.target == "mcp" for f in group):
                revisions = self.revisions_applying(ctx.targets_for(tool))
                if revisions:
                    message = f"{message} (MCP {', '.join(revisions)})"
            out.append(
                self.diag(
                    tool,
                    first.pointer,
                    f"[{names}] {message}",
                    hint=first.hint,
                    instance_path=first.instance_path,
                    severity=first.severity,
                    file_pointer=first.file_pointer,
                )
            )
        return out


def _framework_removes(tool: Tool, finding: ProfileFault) -> bool:
    """True when the AI SDK removes or rewrites what a Gemini ``parameters`` finding is about before the
    request (:mod:`schemalint.schema.framework_views`): do not report what the framework never sends."""
    if finding.target != "gemini" or finding.file_pointer is not None:
        return False
    from schemalint.schema.framework_views import ai_sdk_google_sends

    return not ai_sdk_google_sends(tool.advertised, finding.pointer)


def catalog_members(
    rule: ProviderRule, tools: Sequence[Tool], ctx: Context
) -> list[tuple[Tool, tuple[str, ...]]]:
    """``(tool, active targets)`` for the tools ``rule`` applies to, in catalog order."""
    out = []
    for tool in tools:
        active = rule.active_targets(tool, ctx)
        if active:
            out.append((tool, active))
    return out


def request_groups(tools: Sequence[Tool]) -> dict[tuple[str, int | None], list[Tool]]:
    """Tools grouped as one request would send them: by file (and JSON Lines line)."""
    groups: dict[tuple[str, int | None], list[Tool]] = {}
    for tool in tools:
        groups.setdefault((tool.origin.file, tool.origin.line), []).append(tool)
    return groups


_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")


def regex_trouble(pattern: Any) -> str | None:
    """What a grammar-compiling provider cannot do in ``pattern``: lookaround, backreference
    or word boundary; ``None`` when the pattern avoids them (or is not a string)."""
    if not isinstance(pattern, str):
        return None
    if any(x in pattern for x in _LOOKAROUND):
        return "a lookaround"
    import re

    if re.search(r"\\[1-9]|\\k<", pattern):
        return "a backreference"
    if re.search(r"(?<!\\)\\[bB]", pattern):
        return "a word boundary (\\b)"
    return None


def under(pointer: str, prefixes: Sequence[str]) -> bool:
    """True when ``pointer`` equals or lies inside one of ``prefixes``."""
    return any(pointer == p or pointer.startswith(p + "/") for p in prefixes)


def keyword_findings(
    index: ProviderView,
    table: Mapping[str, tuple[Severity, str, str]],
    target: str,
    *,
    skip_under_flagged: bool = True,
) -> Iterator[ProfileFault]:
    """One finding per node carrying a keyword of ``table`` (keyword -> (severity, why, hint)).

    ``why`` and ``hint`` may use ``{key}`` and ``{where}``. With ``skip_under_flagged``,
    nodes inside an already reported keyword (e.g. the contents of a refused ``$defs``)
    are not reported again.
    """
    flagged: list[str] = []
    for node in index.having(*table):
        if skip_under_flagged and flagged and under(node.pointer, flagged):
            continue
        for key in node.schema:
            entry = table.get(key)
            if entry is None:
                continue
            sev, why, hint = entry
            pointer = ptr_key(node.pointer, key)
            flagged.append(pointer)
            yield ProfileFault(
                target,
                sev,
                pointer,
                key,
                why.format(key=key, where=where(node)),
                hint.format(key=key, where=where(node)),
                node.instance_path,
            )
