"""Diagnostics of a tool whose schema was read through a view, pointed back at the file.

A view is a schema schemalint reads in place of the one written (:attr:`Tool.schema_view`: a
JSON string decoded, snake_case Gemini fields or AgentSchema parameters translated); the rules
see the view, and :func:`relocate` maps their pointers back to keys that exist in the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from schemalint.model import Diagnostic, Tool

_VIEW_ALIASES: dict[str, dict[str, str]] = {
    "snake-case": {"anyOf": "any_of", "minItems": "min_items", "maxItems": "max_items",
                   "minLength": "min_length", "maxLength": "max_length", "minProperties": "min_properties",
                   "maxProperties": "max_properties", "propertyOrdering": "property_ordering",
                   "additionalProperties": "additional_properties"},
    "agentschema": {"type": "kind", "enum": "enumValues"},
}
"""For a translated schema view, the file's spelling of a key the translation renamed."""


def relocate(tool: Tool, found: Iterable[Diagnostic]) -> Iterator[Diagnostic]:
    """The diagnostics ``found`` for ``tool``, whose schema was read through a view
    (:attr:`Tool.schema_view`: decoded from a JSON string, or translated), pointed at what exists in
    the file: a pointer into the schema is cut at the deepest key present in the tool object
    (following the view's renamed keys back to the file's spelling), and the part that does not
    exist in the file is named in the message ("at /properties/x in the schema read from ...").
    Diagnostics outside the schema pass unchanged."""
    from dataclasses import replace

    from schemalint.model import SCHEMA_VIEWS, escape_token, split_pointer

    base = tool.schema_pointer
    aliases = _VIEW_ALIASES.get(tool.schema_view or "", {})
    for diag in found:
        if diag.file != tool.origin.file or not (diag.pointer == base or diag.pointer.startswith(base + "/")):
            yield diag
            continue
        rest = split_pointer(diag.pointer[len(base):]) if diag.pointer != base else []
        node: Any = _lookup(tool.raw, split_pointer(tool.schema_path or ""))
        kept: list[str] = []
        for token in rest:
            step = None
            if isinstance(node, Mapping):
                step = token if token in node else aliases.get(token) if aliases.get(token) in node else None
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                step = token
            if step is None:
                break
            kept.append(step)
            node = node[int(step)] if isinstance(node, list) else node[step]
        if kept == rest:
            yield diag
            continue
        inner = "".join("/" + escape_token(t) for t in rest)
        view = SCHEMA_VIEWS.get(tool.schema_view or "", tool.schema_view or "")
        note = f" (at {inner or '/'} of the schema as read: {view})"
        yield replace(diag, pointer=base + "".join("/" + escape_token(t) for t in kept),
                      message=diag.message + note)


def _lookup(node: Any, tokens: Sequence[str]) -> Any:
    for token in tokens:
        if isinstance(node, Mapping):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node
