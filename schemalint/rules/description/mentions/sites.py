"""The schema side: declared names and values, and every description string of a tool with its level."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from schemalint.model import Tool
from schemalint.rules.description.mentions.patterns import IDENT
from schemalint.rules.description.mentions.records import Site
from schemalint.rules.description.mentions.text import _any_might_mention, _might_mention
from schemalint.schema.index import SchemaNode, index_schema
from schemalint.schema.walk import iter_objects


def schema_names(schema: Any, limit: int = 50_000) -> set[str]:
    """Every property name declared anywhere in ``schema`` (all depths, union branches,
    ``$defs``; local ``$ref`` targets are seen where they are written), plus ``required``
    and ``dependencies`` entries. Visits at most ``limit`` subschemas."""
    return schema_names_complete(schema, limit)[0]


def schema_names_complete(schema: Any, limit: int = 50_000) -> tuple[set[str], bool]:
    """``(schema_names(schema, limit), complete)``: ``complete`` is false when the walk stopped at
    ``limit`` (then which names were seen depends on the order of the keys, and a schema equal to
    this one may give others)."""
    names: set[str] = set()
    if not isinstance(schema, dict):
        return names, True
    stack: list[Mapping[str, Any]] = [schema]
    seen = 0
    while stack and seen < limit:
        node = stack.pop()
        seen += 1
        for key, value in node.items():
            if isinstance(value, dict):
                if key in (
                    "properties",
                    "$defs",
                    "definitions",
                    "patternProperties",
                    "dependencies",
                    "dependentSchemas",
                    "dependentRequired",
                ):
                    if key in ("properties", "dependencies", "dependentRequired"):
                        names.update(k for k in value if isinstance(k, str))
                    stack.extend(v for v in value.values() if isinstance(v, dict))
                elif key not in ("enum", "const", "default", "examples", "example"):
                    stack.append(value)
            elif isinstance(value, list):
                if key == "required":
                    names.update(r for r in value if isinstance(r, str))
                elif key in ("anyOf", "oneOf", "allOf", "items", "prefixItems"):
                    stack.extend(v for v in value if isinstance(v, dict))
    return names, not stack


def schema_values(schema: Any) -> set[str]:
    """Identifier-like words that occur in ``enum``/``const``/``default``/``examples``
    values anywhere in ``schema`` (these are values, never parameter names)."""
    words: set[str] = set()
    if not isinstance(schema, Mapping):
        return words

    def collect(v: Any, depth: int = 0) -> None:
        if depth > 6:
            return
        if isinstance(v, str):
            words.update(re.findall(IDENT, v))
        elif isinstance(v, list):
            for x in v[:200]:
                collect(x, depth + 1)
        elif isinstance(v, Mapping):
            for k, x in list(v.items())[:200]:
                if isinstance(k, str):
                    words.add(k)
                collect(x, depth + 1)

    for node in iter_objects(schema):
        for key in ("enum", "const", "default", "examples", "example"):
            if key in node.schema:
                collect(node.schema[key])
    return words


def stated_defaults(texts: Iterable[str]) -> set[str]:
    """Identifier-like words of the quoted defaults ``texts`` state ("Default: \"fast_scan\"",
    "defaults to 'asc'"): a value, never a parameter name, just as a ``default`` in the schema is
    (a target that does not apply ``default`` has it in the description only: the fix of SL311
    moves it there)."""
    from schemalint.rules.description.claims import read_default

    words: set[str] = set()
    for text in texts:
        if "default" not in text.lower():
            continue
        claim = read_default(text, strings=True)
        if claim is not None and isinstance(claim.value, str):
            words.update(re.findall(IDENT, claim.value))
    return words


def _level_of(schema: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
    """Property names of an object schema (its union branches included) and whether it is closed."""
    names: dict[str, None] = {}  # ordered, and a set: 10,000 properties stay linear
    closed = schema.get("additionalProperties") is False or schema.get("unevaluatedProperties") is False
    stack = [schema]
    while stack:
        s = stack.pop()
        props = s.get("properties")
        if isinstance(props, Mapping):
            names.update((k, None) for k in props if isinstance(k, str))
        for key in ("anyOf", "oneOf", "allOf"):
            branches = s.get(key)
            if isinstance(branches, list):
                stack.extend(b for b in branches if isinstance(b, Mapping))
    return tuple(names), closed


def _tool_description_pointer(tool: Tool) -> str:
    if tool.schema_path:
        parent = tool.schema_path.rsplit("/", 1)[0]
        return tool.origin.pointer + parent + "/description"
    return tool.origin.pointer + "/description"


def description_sites(tool: Tool, keep: Callable[[str], bool] | None = None) -> list[Site]:
    """The description strings of ``tool`` (tool, root schema, every property) with their levels.

    ``keep``: when given, only descriptions for which ``keep(text)`` is true become sites
    (a cheap pre-filter). Returns ``[]`` when the tool has no schema to compare against
    (no ``parameters``, or a Docker ``arguments`` list that is empty: the registry did
    not capture it).
    """
    if tool.origin.format == "docker-arguments":
        args = tool.docker_arguments
        if not args:
            return []
        level = tuple(a["name"] for a in args if isinstance(a, Mapping) and isinstance(a.get("name"), str))
        sites = []
        if tool.description:
            sites.append(
                Site(tool.description, _tool_description_pointer(tool), "the tool description", level, False)
            )
        for i, a in enumerate(args):
            if (
                isinstance(a, Mapping)
                and isinstance(a.get("desc"), str)
                and (keep is None or keep(a["desc"]))
            ):
                sites.append(
                    Site(
                        a["desc"],
                        f"{tool.origin.pointer}/arguments/{i}/desc",
                        f"the description of argument `{a.get('name')}`",
                        level,
                        False,
                        a.get("type") in ("string", "array"),
                    )
                )
        return sites
    schema = tool.advertised
    if not isinstance(schema, Mapping):
        return []
    levels: dict[int, tuple[tuple[str, ...], bool]] = {}

    def level_of(obj: Mapping[str, Any]) -> tuple[tuple[str, ...], bool]:
        found = levels.get(id(obj))
        if found is None:
            lvl, cl = _level_of(obj)
            found = levels[id(obj)] = (lvl, cl or tool.strict)
        return found

    sites = []
    if tool.description and (keep is None or keep(tool.description)):
        root_level, closed_root = level_of(schema)
        sites.append(
            Site(
                tool.description,
                _tool_description_pointer(tool),
                "the tool description",
                root_level,
                closed_root,
            )
        )
    root_desc = schema.get("description")
    if isinstance(root_desc, str) and root_desc != tool.description and (keep is None or keep(root_desc)):
        root_level, closed_root = level_of(schema)
        sites.append(
            Site(
                schema["description"],
                tool.pointer_in_file("/description"),
                "the description of the parameters schema",
                root_level,
                closed_root,
            )
        )
    if not isinstance(schema, dict):
        return sites
    described = [n for n in index_schema(schema).having("description")
                 if n.keyword == "properties" and type(n.schema["description"]) is str]
    if keep is _might_mention and described and not _any_might_mention([n.schema["description"] for n in described]):
        return sites  # one loop over the property descriptions instead of a call each
    for node in described:
        sub = node.schema
        desc = sub["description"]
        if keep is not None and not keep(desc):
            continue
        label = _property_label(node)
        if label is None or node.parent is None:
            continue
        level, closed = level_of(node.parent.schema)
        own = tuple(sub["properties"]) if isinstance(sub.get("properties"), Mapping) else ()
        typ = sub.get("type")
        if isinstance(typ, list):  # a nullable type list reads as its one other type ("string", "null")
            others = [t for t in typ if t != "null"]
            typ = others[0] if len(others) == 1 else ("string" if "string" in others else None)
        is_value = typ in ("string", "array") or (
            typ == "object" and not isinstance(sub.get("properties"), Mapping))  # a free-form object: its keys are data
        site = Site.of_property(
            desc, tool, node, label,
            tuple(dict.fromkeys(level + own)) if own else level,  # level holds no repeats
            closed, is_value)
        site.open_content = _accepts_any_key(sub)
        sites.append(site)
    return sites


def _accepts_any_key(schema: Mapping[str, Any], depth: int = 0) -> bool:
    """The value of ``schema`` (or its items, or a branch of its ``anyOf``/``oneOf``) is an object
    that accepts keys it does not declare: ``additionalProperties`` true or ``{}``, or an object type
    with neither ``properties`` nor ``additionalProperties``."""
    if depth > 3 or not isinstance(schema, Mapping):
        return False
    extra = schema.get("additionalProperties")
    if schema.get("type") == "object" and (extra is True or extra == {} or (
            extra is None and not schema.get("properties") and "patternProperties" not in schema)):
        return True
    items = schema.get("items")
    if isinstance(items, Mapping) and _accepts_any_key(items, depth + 1):
        return True
    return any(_accepts_any_key(b, depth + 1) for u in ("anyOf", "oneOf") for b in schema.get(u) or ()
               if isinstance(b, Mapping))


_SAME_LABEL = frozenset(("then", "else", "not", "anyOf", "oneOf", "allOf", "$defs", "definitions",
                         "patternProperties"))
_ANY_LABEL = frozenset(("additionalProperties", "items", "prefixItems"))


def _property_label(node: SchemaNode) -> str | None:
    """The property path of ``node`` as the descriptions name it (``a/b``, ``*`` for array items
    and additional properties), or ``None`` when it lies under a keyword whose subschemas
    declare no parameters (``if``, ``contains``, ``propertyNames``, ``dependencies`` ...)."""
    parts: list[str] = []
    current: SchemaNode | None = node
    while current is not None and current.parent is not None:
        kw = current.keyword
        if kw == "properties":
            parts.append(current.token or "")
        elif kw in _ANY_LABEL:
            parts.append("*")
        elif kw not in _SAME_LABEL:
            return None
        current = current.parent
    return "/".join(reversed(parts))
