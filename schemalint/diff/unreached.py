"""Which definitions of a schema nothing refers to: a ``$defs`` entry unreachable from the root.

A definition is applied only where a ``$ref`` names it (JSON Schema Core 2020-12 section 8.2.4: ``$defs``
"reserves a location for schema authors to inline re-usable JSON Schemas"; it does not itself apply to
the instance). A change inside a definition that no ``$ref`` reached from the root names therefore
accepts and refuses nothing: the diff reports it as SD212, not as the keyword change it would be
where the definition is used.

Only the root's ``$defs`` are read (``definitions`` is read as ``$defs``: the diff compares both sides
in the 2020-12 spelling, :func:`schemalint.diff.dialects.to_2020`), and only local references of the
form ``#/$defs/NAME...`` (or ``#``, the root itself). A reference of any other form (an anchor, another
document, ``$dynamicRef``) could name any definition: then every definition counts as reached.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

_PREFIX = "#/$defs/"
_OTHER_REFS = ("$dynamicRef", "$recursiveRef")


def _refs(value: Any, out: list[str], skip_defs: bool) -> None:
    """Append every ``$ref`` string below ``value`` to ``out`` (the root's ``$defs`` left out when
    ``skip_defs``); a ``$dynamicRef``/``$recursiveRef`` is appended as ``""`` (unresolvable here)."""
    stack: list[tuple[Any, bool]] = [(value, skip_defs)]
    while stack:
        node, skip = stack.pop()
        if isinstance(node, Mapping):
            for key, sub in node.items():
                if skip and key == "$defs":
                    continue
                if key == "$ref" and isinstance(sub, str):
                    out.append(sub)
                elif key in _OTHER_REFS:
                    out.append("")
                else:
                    stack.append((sub, False))
        elif isinstance(node, list):
            stack.extend((sub, False) for sub in node)


def _target(ref: str) -> str | None:
    """The definition name ``ref`` leads into, ``""`` for the root itself, ``None`` for a reference
    that is not a local ``#/$defs/...`` pointer."""
    if ref == "#":
        return ""
    if not ref.startswith(_PREFIX):
        return None
    token = unquote(ref[len(_PREFIX):].split("/", 1)[0])
    return token.replace("~1", "/").replace("~0", "~")


def unreached_definitions(schema: Any) -> frozenset[str]:
    """The names of the root ``$defs`` entries of ``schema`` that no ``$ref`` reached from the root
    names, directly or through other definitions. Empty when ``schema`` has no ``$defs`` object or
    holds a reference this module cannot resolve (see the module docstring). Never raises."""
    if not isinstance(schema, Mapping) or not isinstance(schema.get("$defs"), Mapping):
        return frozenset()
    defs: Mapping[str, Any] = schema["$defs"]
    refs: list[str] = []
    _refs(schema, refs, skip_defs=True)
    reached: set[str] = set()
    while refs:
        name = _target(refs.pop())
        if name is None:
            return frozenset()
        if name == "" or name in reached or name not in defs:
            continue
        reached.add(name)
        _refs(defs[name], refs, skip_defs=False)
    return frozenset(k for k in defs if k not in reached)
