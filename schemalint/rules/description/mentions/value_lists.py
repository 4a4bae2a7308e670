"""Values that a property's own description lists, read as values and never as parameter names.

A description of a scalar property often enumerates what the property accepts, and other text of
the same tool then names one of those values in a parameter-like form ("use `add` with
`replace_parent=true`", "set `mode` to fast; `fast` skips the cache"). The word is a value of that
property, not a key the schema forgot. The forms read here, each only in the description of a
property whose schema is not an object (objects list their keys, which stay parameter mentions):

* list items: a line that starts with a bullet (``-``, ``*``, ``•``, ``+``, ``1.``, ``a)``) and
  then one word, quoted or not, followed by a separator (``-``, ``:``, ``=``, ``(``, a dash) or the
  line end: ``- 'add' - add a child``, ``* json: machine-readable``;
* alternations of two or more words: ``add | remove | move``, ``(asc|desc)``, outside table rows;
* quoted words that open a clause and are defined by a colon or a dash, two or more in one text:
  ``` `add`: attaches it. `remove`: detaches it.```;
* an exhaustive list after a marker ("one of", "allowed values:"), as SL205 reads it;
* a list of bare words after a colon that runs to the clause's end, three or more separated by
  commas or two or more closed by "or"/"and": ``Recipe to run: hotspots, cache_misses or all.``
  (SL205 does not read it: without a marker such as "one of", the words may name kinds rather
  than the only values the property takes);
* the word a default is stated as: ``Defaults to hotspots``, ``default: fast``.

Measured on docker/mcp-registry ``servers/arm-mcp/tools.json``: "If you do not know which recipe
to use, use 'code_hotspots'" beside a ``recipe`` argument described "APX recipe to run:
code_hotspots, instruction_mix, ..., or all. Defaults to code_hotspots" was reported by SL201 as
an undeclared parameter ``code_hotspots``.
"""

from __future__ import annotations

import re
from typing import Any

from schemalint.schema.index import index_schema

_ITEM = re.compile(
    r"(?m)^[ \t]*(?:[-*+\u2022]|\d{1,2}[.)]|[a-z][)])[ \t]+(['\"`]?)([A-Za-z_][\w.-]{0,63})\1"
    r"[ \t]*(?:[-:=(\u2013\u2014]|$)"
)
_ALTERNATION = re.compile(
    r"(?<![|\w])['\"`]?[A-Za-z_][\w.-]{0,63}['\"`]?(?:[ \t]*\|[ \t]*['\"`]?[A-Za-z_][\w.-]{0,63}['\"`]?)+(?![\w|])"
)
_WORD = re.compile(r"[A-Za-z_][\w.-]{0,63}")
_DEFINED = re.compile(r"(?:^|[.;\n][ \t]*)(['\"`])([A-Za-z_][\w.-]{0,63})\1[ \t]*(?::|[ \t]-[ \t]|[\u2013\u2014])")
_TABLE_ROW = re.compile(r"^[ \t]*\|")
_BARE = r"['\"`]?[A-Za-z_](?:[\w-]|\.(?=\w)){0,63}['\"`]?"
_COLON_LIST = re.compile(
    rf":[ \t]*((?:{_BARE}[ \t]*,[ \t]*){{2,}}(?:(?:or|and)[ \t]+)?{_BARE}"
    rf"|{_BARE}(?:[ \t]*,[ \t]*{_BARE})*[ \t]*,?[ \t]*(?:or|and)[ \t]+{_BARE})[ \t]*(?=[.;)\n]|$)"
)
_DEFAULT_WORD = re.compile(
    r"(?i)\bdefaults?(?:[ \t]+(?:is|to|value(?:[ \t]+is)?))?[ \t]*[:=]?[ \t]*['\"`]?([A-Za-z_](?:[\w-]|\.(?=\w)){0,63})"
)
_CONJUNCTIONS = frozenset({"or", "and"})


def described_values(schema: Any) -> set[str]:
    """The words that descriptions of non-object properties of ``schema`` (a JSON Schema object,
    any depth) present as values of that property, by the forms of the module docstring. Returns
    an empty set for a schema that is not a dict; never raises."""
    from schemalint.rules.description.claims import read_values  # claims imports this package

    words: set[str] = set()
    if not isinstance(schema, dict):
        return words
    for node in index_schema(schema).having("description"):
        text = node.schema["description"]
        if node.keyword != "properties" or type(text) is not str or not _holds_values(node.schema):
            continue
        words.update(m.group(2) for m in _ITEM.finditer(text))
        for line in text.splitlines():
            if "|" in line and not _TABLE_ROW.match(line):
                for m in _ALTERNATION.finditer(line):
                    words.update(_WORD.findall(m.group(0)))
        defined = [m.group(2) for m in _DEFINED.finditer(text)]
        if len(defined) >= 2:
            words.update(defined)
        for m in _COLON_LIST.finditer(text):
            words.update(w for w in _WORD.findall(m.group(1)) if w not in _CONJUNCTIONS)
        words.update(m.group(1) for m in _DEFAULT_WORD.finditer(text))
        claim = read_values(text)
        if claim is not None:
            words.update(str(v) for v in claim.value)
    return words


def arguments_schema(args: Any) -> dict[str, Any]:
    """The object schema :func:`described_values` reads for a Docker MCP registry ``arguments`` list
    (``[{name, type, desc}]``): each argument a property with its ``type`` and ``desc`` as its
    ``description``. Entries without a string ``name`` are left out; never raises."""
    props: dict[str, Any] = {}
    for arg in args if isinstance(args, list) else ():
        if isinstance(arg, dict) and isinstance(arg.get("name"), str):
            props[arg["name"]] = {k: v for k, v in (("type", arg.get("type")), ("description", arg.get("desc")))
                                  if v is not None}
    return {"type": "object", "properties": props}


def _holds_values(schema: dict[str, Any]) -> bool:
    """The subschema describes a value that is not an object with keys of its own."""
    kinds = schema.get("type")
    if kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
        return False
    return "properties" not in schema and "additionalProperties" not in schema
