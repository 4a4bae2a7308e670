"""SL003 required-not-in-properties: ``required`` names a key the schema never declares.

Checked on every object subschema at every depth, inside union branches and ``$defs``.
A name counts as declared when a schema governing the same object declares it:

- the subschema's own ``properties``, or those of any branch below it at the same
  instance (``allOf``/``anyOf``/``oneOf``/``if``/``then``/``else``/``dependentSchemas``
  and local ``$ref`` targets);
- the ``properties`` of the schemas around it at the same instance (its parents through
  ``allOf``/``anyOf``/``oneOf``/``if``/``then``/``else``/``not``) and their conjunctive
  branches (``allOf``, ``if``/``then``/``else``, ``$ref``), but not a sibling
  ``anyOf``/``oneOf`` alternative;
- a ``patternProperties`` pattern that matches it, or an ``additionalProperties``
  *schema* (a map such as ``{"additionalProperties": {"type": "string"}}``).

So ``{"then": {"required": ["due_at"]}}`` next to ``properties.due_at`` (shared case 031)
is clean, and ``properties: {}`` with ``required: ["ref"]`` (case 033) is an error.

Source: rules/SL003-required-not-in-properties.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import schemalint.schema as vocabulary
from schemalint.model import Diagnostic, Severity, Tool, escape_token
from schemalint.rules.base import Context, Rule
from schemalint.rules.fixes import UNSAFE, Fix, remove_required_entry
from schemalint.schema.index import SchemaNode, index_schema
from schemalint.schema.patterns import search
from schemalint.schema.walk import resolve_local_ref

_SAME_INSTANCE_CHILD = vocabulary.SAME_INSTANCE
"""Keywords that lead to a subschema of the same instance as its parent."""

_CONJUNCTIVE = ("allOf", "if", "then", "else")
_ALL_BRANCHES = ("allOf", "anyOf", "oneOf", "if", "then", "else")
_NON_OBJECT_TYPES = frozenset({"string", "number", "integer", "boolean", "null", "array"})


class _Scope:
    """Declared property names, patterns and whether an additionalProperties schema applies."""

    __slots__ = ("additional_schema", "closed", "names", "patterns")

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.patterns: list[str] = []
        self.additional_schema = False
        self.closed = False

    def add_own(self, schema: Mapping[str, Any]) -> None:
        props = schema.get("properties")
        if isinstance(props, dict):
            self.names.update(k for k in props if isinstance(k, str))
        pats = schema.get("patternProperties")
        if isinstance(pats, dict):
            self.patterns.extend(k for k in pats if isinstance(k, str))
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            self.additional_schema = True
        elif extra is False:
            self.closed = True

    def declares(self, name: str) -> bool:
        if name in self.names or self.additional_schema:
            return True
        # ECMA-262 in linear time; a pattern RE2 cannot decide counts as declaring the name.
        return any(search(pattern, name) is not False for pattern in self.patterns)


def _collect(scope: _Scope, schema: Any, root: Any, keywords: tuple[str, ...], budget: list[int]) -> None:
    """Add what ``schema`` and its same-instance branches (``keywords``, ``$ref``) declare."""
    stack: list[tuple[Any, tuple[str, ...]]] = [(schema, ())]
    while stack and budget[0] > 0:
        budget[0] -= 1
        node, refs = stack.pop()
        if not isinstance(node, dict):
            continue
        scope.add_own(node)
        for kw in keywords:
            sub = node.get(kw)
            if isinstance(sub, list):
                stack.extend((s, refs) for s in sub)
            elif isinstance(sub, dict):
                stack.append((sub, refs))
        for kw in ("dependentSchemas", "dependencies"):
            deps = node.get(kw)
            if isinstance(deps, dict):
                stack.extend((s, refs) for s in deps.values() if isinstance(s, dict))
        ref = node.get("$ref")
        if isinstance(ref, str) and ref not in refs:
            found, target, _ = resolve_local_ref(root, ref)
            if found:
                stack.append((target, (*refs, ref)))


class RequiredNotInProperties(Rule):
    """A name in ``required`` has no schema in ``properties`` (any depth, any branch).
    """

    keywords = frozenset({"required"})  # only `required` lists are checked (Rule.keywords)

    severity = Severity.ERROR
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    # docs/fix.md; the page's "## Fix" says the same at length
    fix = Fix(UNSAFE,
              "removing the entry makes calls without that member valid, so the runtime must stop expecting it",
              remove_required_entry)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        root = tool.advertised
        if not isinstance(root, Mapping):
            return
        for node in index_schema(root).required:
            schema = node.schema
            own = schema.get("properties")
            if type(own) is dict:
                try:
                    for name in schema["required"]:
                        if name not in own:
                            break
                    else:
                        continue  # the common case: every required key is declared right here
                except TypeError:  # an unhashable entry (a list in `required`): the full check decides
                    pass
            yield from self._check_node(tool, root, node)

    def _check_node(self, tool: Tool, root: Any, node: SchemaNode) -> Iterator[Diagnostic]:
        schema = node.schema
        declared_type = schema.get("type")
        if isinstance(declared_type, str) and declared_type.lower() in _NON_OBJECT_TYPES:
            return  # `required` has no effect on a non-object; not this rule's business
        budget = [10_000]
        scope = _Scope()
        _collect(scope, schema, root, _ALL_BRANCHES, budget)
        current = node
        while current.keyword in _SAME_INSTANCE_CHILD and current.parent is not None:
            current = current.parent
            _collect(scope, current.schema, root, _CONJUNCTIVE, budget)
        seen: set[str] = set()
        pointer, instance_path = node.pointer, node.instance_path
        for i, name in enumerate(schema["required"]):
            if not isinstance(name, str) or name in seen or scope.declares(name):
                continue
            seen.add(name)
            shown = json.dumps(name, ensure_ascii=False)
            where = ("the tool's arguments" if instance_path == "" else
                     f"`{instance_path}`" if instance_path else f"the schema at `{pointer}`")
            consequence = (" and `additionalProperties: false` forbids it, so no call can satisfy the schema"
                           if scope.closed else "")
            yield self.diag(
                tool, f"{pointer}/required/{i}",
                f"`required` lists {shown} but no property {shown} is declared for {where}{consequence}; "
                "the model is told to send it without a type or description"
                + ("; Gemini refuses the request (\"property is not defined\")"
                   if tool.origin.format.startswith("gemini") else
                   " (Gemini refuses such a schema: \"property is not defined\")"),
                instance_path=None if instance_path is None else f"{instance_path}/{escape_token(name)}",
                hint=f"declare {shown} under `properties` (with a type and a description) or remove it from "
                     "`required`",
            )
