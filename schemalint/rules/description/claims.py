"""What a property description *states* that its schema could say (shared by SL203-SL206).

A description is a third contract next to the advertised and runtime schemas: "(1-50,
default: 10)", "Integer only", "one of: asc, desc", "Required." are claims the schema can
carry (``minimum``/``maximum``/``default``, ``type: integer``, ``enum``, ``required``). The
readers here accept only unambiguous wording (precision first, as for SL201): an example
("e.g. 1-5"), a conditional ("required if ..."), an open list ("such as", "etc.") is never a
claim. Every reader returns the quoted text and its offset so that a finding can quote it.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from schemalint.model import RunContext, Tool
from schemalint.rules.lazy_re import lazy_re
from schemalint.rules.tool_text import Literals, ToolText, needles, schema_start, tool_text
from schemalint.schema.index import SchemaNode, index_schema

__all__ = ["Claim", "PropertySite", "property_sites", "quote"]

_NUM = r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"


class PropertySite:
    """One described property: its schema ``node``, ``name`` (last path segment), ``label``
    (``a/b``, computed on first use), the ``description`` text, ``lower`` (the text in lower
    case, for cheap pre-filters) and the ``parent`` object node (``None`` at the root)."""

    __slots__ = ("_label", "description", "lower", "name", "node", "numeric", "parent")

    def __init__(self, node: SchemaNode, description: str, lower: str) -> None:
        self.node = node
        self.name = node.token or ""
        self.description = description
        self.lower = lower
        self.parent = node.parent
        t = node.schema.get("type")
        self.numeric = t in ("integer", "number") or ((not isinstance(t, str) or t not in _JSON_TYPES) and bool(
            types_of(node.schema) & {"integer", "number"}))
        """The schema may be an integer or a number (SL203, SL204 read only these)."""
        self._label: str | None = None

    @property
    def label(self) -> str:
        """The property path as descriptions name it (``a/b``)."""
        if self._label is None:
            parts: list[str] = []
            cur: SchemaNode | None = self.node
            while cur is not None and cur.parent is not None:
                if cur.keyword == "properties":
                    parts.append(cur.token or "")
                cur = cur.parent
            self._label = "/".join(reversed(parts))
        return self._label


@dataclass(frozen=True)
class Claim:
    """A statement read from a description: ``kind``, parsed ``value`` and the ``text`` quoted."""

    kind: str
    value: Any
    text: str


_SITES = "description.claims.property_sites"
"""Key of the per-tool sites in the run's memo (:class:`~schemalint.model.RunContext`)."""
_SITE_TEXTS = "description.claims.trigger"
"""Key of the run's table of descriptions already asked (catalogs repeat descriptions: the
corpus's 78,000 property descriptions are 33,000 strings)."""
_TRIGGER_WORDS = ("one of", "value", "option", "choice", "either", "required", "mandatory", "integer",
                  "whole number", "decimal", "e.g.", "example", "such as", "default", "null", "list", "array",
                  "object", "dict", "true")
_TRIGGER = lazy_re("[0-9]|" + "|".join(re.escape(w) for w in _TRIGGER_WORDS))
"""Every claim reader needs a digit or one of :data:`_TRIGGER_WORDS` in the lower-cased text; a
description without any is no site (one case-sensitive scan: a case-insensitive one costs three
times as much)."""
_TOOL_TRIGGER = Literals(_TRIGGER_WORDS, digits=True)
"""The same test over all of a tool's descriptions at once (:meth:`ToolText.may_hold`)."""


def property_sites(tool: Tool) -> tuple[PropertySite, ...]:
    """Every property of ``tool``'s advertised schema (any depth, ``$defs`` included, conditional
    subschemas excluded) whose string ``description`` holds something a claim reader needs (a
    digit, "one of", "value", "required" ...); computed once per tool for the four rules. A tool
    none of whose descriptions hold any (:data:`_TOOL_TRIGGER` over the joined text, a few C-level
    scans) has none, without a look at each."""
    memo = RunContext.current.memo
    try:
        cache: dict[int, tuple[Tool, tuple[PropertySite, ...]]] = memo[_SITES]
    except KeyError:
        cache = memo[_SITES] = {}
    hit = cache.get(id(tool))
    if hit is not None and hit[0] is tool:
        return hit[1]
    schema = tool.advertised
    sites: tuple[PropertySite, ...] = ()
    text = tool_text(tool) if isinstance(schema, dict) else None
    if text is not None and text.ascii and text.may_hold(_TOOL_TRIGGER):
        sites = _sites_in_joined(tool, schema, text)
    elif text is not None and not text.ascii:
        trigger = _TRIGGER.search
        known: dict[str, bool] = RunContext.current.table(_SITE_TEXTS, dict)
        if len(known) > 50_000:
            known.clear()
        found = []
        for node in index_schema(schema).having("description"):
            desc = node.schema["description"]
            if node.keyword != "properties" or node.conditional or type(desc) is not str:
                continue
            holds = known.get(desc)
            if holds is None:
                holds = known[desc] = trigger(desc.lower()) is not None
            if holds:
                found.append(PropertySite(node, desc, desc.lower()))
        sites = tuple(found)
    if len(cache) > 4096:
        cache.clear()
    cache[id(tool)] = (tool, sites)
    return sites


_TRIGGER_BYTES = ((b"0", ()), *((w.encode(), needles(w)) for w in _TRIGGER_WORDS))
""":data:`_TRIGGER` as literals to find in a text translated by :data:`_LOWER_DIGITS` (``0``: any digit),
each with what :attr:`ToolText.unique` holds when the text holds it (:func:`needles`)."""
_LOWER_DIGITS = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ123456789", b"abcdefghijklmnopqrstuvwxyz000000000")
"""``bytes.translate`` table: ASCII letters in lower case, every digit ``0``."""


def _sites_in_joined(tool: Tool, schema: dict[str, Any], text: ToolText) -> tuple[PropertySite, ...]:
    """:func:`property_sites` for a tool whose joined descriptions (:attr:`ToolText.joined`) are ASCII:
    each literal of :data:`_TRIGGER` (and a digit) is found in the joined text, lower-cased once, with
    ``bytes.find`` (a C-level scan; the pattern's search costs about ten times as much; a literal
    whose words :attr:`ToolText.unique` lacks is not looked for), and each
    occurrence marks the description it lies in (by offset), the search going on after that
    description. Exact: :data:`_TRIGGER` is a union of these literals and ``[0-9]``, none of which holds
    a ``"\\n"``, so an occurrence lies inside one description; an ASCII text lower-cases character
    for character, so the offsets of the joined text are those of its parts."""
    nodes: list[SchemaNode] = []
    starts: list[int] = []
    pos = base = schema_start(tool)
    for node in index_schema(schema).having("description"):
        desc = node.schema["description"]
        if type(desc) is str:
            nodes.append(node)
            starts.append(pos)
            pos += len(desc) + 1
    find = text.joined.encode("ascii").translate(_LOWER_DIGITS).find
    unique = text.unique
    marked: set[int] = set()
    for needle, words in _TRIGGER_BYTES:
        for word in words:
            if word not in unique:
                break
        else:
            at = find(needle, base, pos)
            while at != -1:
                i = bisect_right(starts, at) - 1
                marked.add(i)
                at = find(needle, starts[i + 1], pos) if i + 1 < len(starts) else -1
    found = []
    for i in sorted(marked):
        node = nodes[i]
        if node.keyword == "properties" and not node.conditional:
            desc = node.schema["description"]
            found.append(PropertySite(node, desc, desc.lower()))
    return tuple(found)


def quote(text: str, limit: int = 80) -> str:
    """``text`` shortened to ``limit`` characters for a message, in double quotes."""
    text = " ".join(text.split())
    return '"' + (text if len(text) <= limit else text[: limit - 1] + "…") + '"'


_JSON_TYPES = frozenset(("string", "number", "integer", "boolean", "object", "array", "null"))


def json_type(name: str) -> str:
    """The JSON Schema type a ``type`` name means: itself when it is one, else the type a dialect's
    name stands for (BFCL's ``float``, ``dict``; Gemini's ``STRING``;
    :data:`schemalint.rules.shape._common.NONSTANDARD_TYPES`), else the name unchanged. The
    description rules read a schema as its author meant it, so that renaming a dialect's type (the
    fix of SL314) changes nothing they see."""
    if name in _JSON_TYPES:
        return name
    from schemalint.rules.shape._common import NONSTANDARD_TYPES

    lower = name.lower()
    return lower if lower in _JSON_TYPES else (NONSTANDARD_TYPES.get(lower) or name)


def types_of(schema: Mapping[str, Any]) -> set[str]:
    """The JSON types a schema declares (``type`` string or list, a dialect's names read by
    :func:`json_type`; ``anyOf``/``oneOf`` branches)."""
    found: set[str] = set()
    t = schema.get("type")
    if isinstance(t, str):
        found.add(json_type(t))
    elif isinstance(t, list):
        found.update(json_type(x) for x in t if isinstance(x, str))
    for key in ("anyOf", "oneOf"):
        for b in schema.get(key) or ():
            if isinstance(b, Mapping):
                found |= types_of(b)
    return found


def to_number(text: str) -> int | float:
    """``"10"`` -> 10, ``"0.5"`` -> 0.5, ``"1,000,000"`` -> 1000000."""
    text = text.replace(",", "")
    return float(text) if "." in text else int(text)


# --------------------------------------------------------------------------- readers

_EXAMPLE_BEFORE = lazy_re(r"(?:e\.g\.|eg\.|for example|example|such as|like|i\.e\.)\s*:?\s*$", re.I)
_RANGE_PATTERNS = (
    lazy_re(rf"\(\s*(?:range\s*:?\s*)?({_NUM})\s*(?:-|–|—|to|\.\.)\s*({_NUM})\s*(?:[,;)]|$)", re.I),
    lazy_re(rf"\bbetween\s+({_NUM})\s+and\s+({_NUM})\b", re.I),
    lazy_re(rf"\b(?:range|ranges|valid\s+range|allowed\s+range)\s*(?:is|:)?\s*(?:from\s+)?({_NUM})\s*"
               rf"(?:-|–|—|to|\.\.)\s*({_NUM})\b", re.I),
    lazy_re(rf"\bfrom\s+({_NUM})\s+to\s+({_NUM})\s*(?:\(inclusive\)|inclusive)", re.I),
    # a bare "N-M" standing as a clause of its own: "Page size, 1-100." / "Range: 0-10"
    lazy_re(rf"(?:^|[,;:]\s*)({_NUM})\s*(?:-|–|—)\s*({_NUM})(?=\s*(?:[.,;)]|$))", re.I | re.M),
)
_RE_ANY_RANGE = lazy_re(rf"{_NUM}\s*(?:-|–|—)\s*{_NUM}")
_BOUND_WORDS = (r"(?:\s+(?:allowed\s+|permitted\s+|accepted\s+)?(?:value|number))?(?:\s*\(\s*value\s*\))?"
                r"(?:\s+(?:is|of))?")
"""What may stand between "max"/"min" and the number: "maximum value is", "maximum (value) is", "max of"."""
_MAX = lazy_re(rf"\b(?:max(?:imum)?{_BOUND_WORDS}\s*[:=]?|at\s+most|no\s+more\s+than|up\s+to|"
               rf"not\s+(?:more|greater)\s+than)\s+({_NUM})\b"
                  r"(?!\s*(?:%|percent|characters?|chars?|bytes?|items?|elements?|entries|words?|digits?|"
                  r"decimal|[KMG]B|ms|seconds?|minutes?|hours?|days?))", re.I)
_MIN = lazy_re(rf"\b(?:min(?:imum)?{_BOUND_WORDS}\s*[:=]?|at\s+least|no\s+less\s+than|not\s+less\s+than)"
               rf"\s+({_NUM})\b"
                  r"(?!\s*(?:%|percent|characters?|chars?|bytes?|items?|elements?|entries|words?|digits?|"
                  r"decimal|[KMG]B|ms|seconds?|minutes?|hours?|days?))", re.I)
_DEFAULT = lazy_re(
    rf"\bdefaults?(?:\s+(?:is|to|value(?:\s+is)?))?\s*[:=]?\s*([`'\"]?)({_NUM}|true|false|null|none)\1(?![\w%-]|\.\d|\s*[*\u00d7\u00b7^]|/\d)"
    r"(?!\s*(?:%|percent|ms|milli\w*|seconds?|secs?|minutes?|mins?|hours?|days?|weeks?|months?|years?|"
    r"characters?|bytes?|[KMG]B|items?|results?|before|after|ago)\b)",
    re.I,
)


HAS_DIGIT = lazy_re(r"\d")
"""A description without a digit states no bound and no numeric default."""


def read_bounds(text: str) -> list[Claim]:
    """``min``/``max`` claims (a range "(1-50)", "between 1 and 50", "range: 1-50", "max 100",
    "at least 1"); never inside an example ("e.g. 1-5")."""
    out: list[Claim] = []
    seen: set[str] = set()
    for pat in _RANGE_PATTERNS:
        for m in pat.finditer(text):
            if _EXAMPLE_BEFORE.search(text[max(0, m.start() - 20) : m.start() + 1]) or _EXAMPLE_BEFORE.search(
                    text[max(0, m.start(1) - 24) : m.start(1)].rstrip(" ,;:(")):
                continue  # "e.g. 1-5", "e.g., 30-40"
            lo, hi = to_number(m.group(1)), to_number(m.group(2))
            if pat is _RANGE_PATTERNS[-1] and len(_RE_ANY_RANGE.findall(text)) > 1:
                continue  # "25-30, 30-40": a list of ranges (values), not the bounds
            if lo >= hi:
                continue  # "2024-01" is a date, "10-5" nothing we can read
            said = m.group(0).strip().lstrip(",;: ")
            if "min" not in seen:
                out.append(Claim("min", lo, said))
                seen.add("min")
            if "max" not in seen:
                out.append(Claim("max", hi, said))
                seen.add("max")
    for kind, pat in (("max", _MAX), ("min", _MIN)):
        if kind in seen:
            continue
        for m in pat.finditer(text):
            if _EXAMPLE_BEFORE.search(text[max(0, m.start() - 20) : m.start()]):
                continue
            out.append(Claim(kind, to_number(m.group(1)), m.group(0).strip()))
            seen.add(kind)
            break
    return out


_DEFAULT_QUOTED = lazy_re(
    r"(?<![`'\"=./\w])defaults?(?:\s+(?:is|to|value(?:\s+is)?))?\s*[:=]?\s*([`'\"])(?![\s,])([^`'\"\n]{1,40})\1", re.I)
"""A quoted default: "default: 'asc'", "Defaults to `json`"."""


def read_default(text: str, strings: bool = False) -> Claim | None:
    """A stated default that is a number, ``true``/``false`` or ``null`` ("default: 10",
    "Defaults to false"), or with ``strings`` a quoted string ("default: 'asc'"); an unquoted word
    is too ambiguous to read ("defaults to the current user")."""
    m = _DEFAULT.search(text)
    if m is None:
        q = _DEFAULT_QUOTED.search(text) if strings else None
        if q is None or _EXAMPLE_BEFORE.search(text[max(0, q.start() - 20) : q.start()]):
            return None
        return Claim("default", q.group(2), q.group(0).strip())
    raw = m.group(2).lower()
    value: Any = {"true": True, "false": False, "null": None, "none": None}.get(raw)
    if raw not in ("true", "false", "null", "none"):
        value = to_number(m.group(2))
    return Claim("default", value, m.group(0).strip())


_INTEGER_ONLY = lazy_re(
    r"\b(?:integers?\s+only|only\s+integers?|must\s+be\s+(?:an?\s+)?(?:positive\s+|non-negative\s+|whole\s+)?"
    r"integer|whole\s+numbers?\s+only|must\s+be\s+a\s+whole\s+number|no\s+decimals?|without\s+decimals?)\b",
    re.I,
)
_DECIMAL_EXAMPLE = lazy_re(r"(?:e\.g\.|for example|example|such as)\s*:?,?\s*[`'\"]?(-?\d+\.\d+)(?!\d|\.\d)", re.I)


INTEGER_WORDS = lazy_re(r"integer|whole number|decimal|e\.g\.|example|such as")
"""No match in the lower-cased description: neither :func:`read_integer_only` nor
:func:`read_decimal_example` has anything to read."""


def read_integer_only(text: str) -> Claim | None:
    """"Integer only", "must be an integer", "whole numbers only", "no decimals"."""
    m = _INTEGER_ONLY.search(text)
    return Claim("integer", True, m.group(0)) if m else None


def read_decimal_example(text: str) -> Claim | None:
    """An example value with a fraction ("e.g. 0.75")."""
    m = _DECIMAL_EXAMPLE.search(text)
    return Claim("decimal", m.group(1), m.group(0)) if m else None


_OFFERS = (
    ("null", lazy_re(
        r"(?<![\w-])(?:or|pass|send|use|give|set\s+(?:it\s+|this\s+)?to|can\s+be|may\s+be|accepts?|allows?)\s+"
        r"[`'\"]?null[`'\"]?(?![\w-])|\bnullable\b", re.I)),
    ("array", lazy_re(
        r"(?:^\s*|\b(?:accepts?|or|pass|send|give|provide)\s+)(?:an?\s+)?(?:list|array)\s+of\b", re.I | re.M)),
    ("object", lazy_re(
        r"(?:^\s*|\b(?:accepts?|or|pass|send|give|provide)\s+)(?:an?\s+)?(?:json\s+)?(?:object|dict(?:ionary)?|map|mapping)"
        r"\s+(?:of|with|containing|mapping|from)\b", re.I | re.M)),
    ("boolean", lazy_re(r"(?<![`'\"\w])(?:true\s*(?:or|/|\|)\s*false|false\s*(?:or|/|\|)\s*true)(?![`'\"\w])", re.I)),
)
"""(JSON type, pattern) of what a description offers to send: "or null to search everything", "A list
of tags", "an object with ...", "true or false"."""
_NOT_OFFER = lazy_re(
    r"\b(?:not|never|non|cannot|can't|must\s+not)\b[\s-]*(?:be\s+)?$|(?:comma|space|semicolon|newline|pipe|line)[\s-]"
    r"(?:separated|delimited)|\b(?:json|yaml|string|encoded|serialized|stringified|text)\b", re.I)
"""What turns an offer into something else: a negation before it ("must not be null"), or a list
or object written as text ("comma-separated list of", "a JSON-encoded object as a string")."""


_NEGATED_CLAUSE = lazy_re(r"\b(?:not|never|don['’]?t|avoid|cannot|can['’]t|nor)\b", re.I)
"""A negation in the offer's own clause ("DO NOT enter "undefined" or "null"", "never pass null"):
the text forbids the value. A negation in an earlier clause ("If not given, pass null") does not
reach the offer: :func:`_clause_start` cuts at the comma."""


def _clause_start(text: str, at: int) -> int:
    """Where the clause holding ``text[at]`` starts: after the last sentence end, semicolon, colon,
    comma, dash or line break before it."""
    return max(text.rfind(sep, 0, at) + len(sep) for sep in (". ", "; ", ": ", ", ", " - ", "\n", "! "))


_OFFER_WORDS: dict[str, tuple[tuple[str, ...], ...]] = {
    "null": (("null",),), "array": (("list", "array"),), "object": (("object", "dict", "map"),),
    "boolean": (("true",), ("false",)),
}
"""Per type of :data:`_OFFERS`, the words its pattern needs, one of each group: every match holds them
as literal substrings (in lower case)."""


def read_type_offers(text: str, lower: str | None = None) -> list[Claim]:
    """The JSON types ``text`` offers to send, each once: ``null``, ``array``, ``object``,
    ``boolean`` (see :data:`_OFFERS`); never one negated or written as text. ``lower``: ``text`` in
    lower case, when the caller has it. In ASCII text a pattern whose words (:data:`_OFFER_WORDS`)
    are absent is not run: it would find nothing (outside ASCII, ``re.I`` also folds ``ſ`` onto ``s``
    and ``ı`` onto ``i``, so every pattern runs there)."""
    out = []
    low = (text.lower() if lower is None else lower) if text.isascii() else None
    for kind, pattern in _OFFERS:
        if low is not None and not all(any(w in low for w in group) for group in _OFFER_WORDS[kind]):
            continue
        for m in pattern.finditer(text):
            lo = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start()), m.start() - 60, 0)
            hi = text.find(". ", m.end())
            sentence = text[lo : hi if hi != -1 else len(text)]
            if _NOT_OFFER.search(text[lo : m.start()]) or (kind in ("array", "object") and _NOT_OFFER.search(sentence)):
                continue
            if _NEGATED_CLAUSE.search(text[_clause_start(text, m.start()) : m.start()]):
                continue
            out.append(Claim("type", kind, m.group(0).strip()))
            break
    return out


TYPE_WORDS = lazy_re(r"null|list|array|object|dict|map|true")
"""No match in the lower-cased description: :func:`read_type_offers` has nothing to read."""


_VALUES_MARKER = lazy_re(
    r"\b(?:(?:must\s+be\s+)?one\s+of|(?:the\s+)?(?:allowed|valid|possible|accepted|supported|permitted)\s+"
    r"(?:values?|options?)(?:\s+(?:are|is|include))?|(?:available\s+)?options\s+are|choices\s+are|"
    r"must\s+be\s+either|either)\s*(:)?\s*",
    re.I,
)
_QUOTED = lazy_re(r"\s*(?:,\s*(?:or|and|&)\b|,\s*&|,|\||/|\bor\b|\band\b|&)?\s*([`'\"])([^`'\"\n]{1,40})\1")
_BARE_ITEM = lazy_re(r"\s*(?:,\s*(?:or\s+|and\s+)?|\s\|\s|\s+or\s+|/)?\s*([A-Za-z0-9_](?:[\w-]|\.(?=\w)){0,29})")
_VERB_BEFORE = lazy_re(r"\b(?:use|pass|set|specify|provide|supply|give|include)\s+$", re.I)
_OPEN_LIST = lazy_re(
    r"^\s*(?:,?\s*(?:etc|and\s+so\s+on|and\s+more|\.\.\.|…)|,\s*\.\.\."
    r"|(?:\([^()\n]{0,30}\)\s*)?,?\s*or\s+(?:a|an|any|another|other|some)\b)",
    re.I,
)
"""What leaves a list of values open after its last item: "etc.", "...", or one more alternative
that is a kind rather than a value ("Either `true`, `false` (default) or a number [1,..,n]", a
RapidAPI tool in OpenBMB/ToolBench: the number is allowed too)."""


VALUE_WORDS = lazy_re(r"one of|value|option|choice|either")
"""No match in the lower-cased description: :func:`read_values` has nothing to read."""


def read_values(text: str) -> Claim | None:
    """An exhaustive list of allowed values: a marker ("one of", "allowed values:", "either")
    followed by two or more quoted/backticked values, or after a colon by bare words ended by
    ``.``/``)``/a line end. Lists left open ("etc.", "...") and examples are not claims. Once a
    marker other than "either" names one value ("Possible values include `object`"), a later
    "either a or b" speaks about something else ("filters by type of object (either `page` or ...)")."""
    one_value_stated = False
    for m in _VALUES_MARKER.finditer(text):
        if one_value_stated and m.group(0).lower().startswith("either"):
            continue
        if _EXAMPLE_BEFORE.search(text[max(0, m.start() - 20) : m.start()]):
            continue
        items: list[str] = []
        pos = m.end()
        while True:
            q = _QUOTED.match(text, pos)
            if not q:
                break
            items.append(q.group(2))
            pos = q.end()
        bare_ok = m.group(1) or m.group(0).lower().rstrip().endswith("one of")  # "one of hour, day, week."
        if len(items) < 2 and bare_ok:
            items, pos = [], m.end()
            while True:
                b = _BARE_ITEM.match(text, pos)
                if not b or (items and not text[pos:b.start(1)].strip(" ")):
                    break
                items.append(b.group(1))
                pos = b.end()
            end = text[pos : pos + 2]
            if not (end == "" or end[:1] in ".)\n;" ):
                continue  # the list runs into prose: not a list of values
        if len(items) == 1 and not m.group(0).lower().startswith("either"):
            one_value_stated = True
        if len(items) < 2 or _OPEN_LIST.match(text[pos:]):
            continue
        if m.group(0).lower().startswith("either") and (
            len(items) != 2 or _VERB_BEFORE.search(text[max(0, m.start() - 30) : m.start()])
        ):
            continue
        return Claim("values", tuple(dict.fromkeys(items)), text[m.start() : pos].strip())
    return None


def enum_values(schema: Mapping[str, Any]) -> set[str] | None:
    """The allowed values a property schema declares (``enum``/``const``, in ``items`` and in
    ``anyOf``/``oneOf`` branches), as strings; ``None`` when it declares none."""
    found: set[str] = set()
    any_found = False
    stack = [schema]
    while stack:
        s = stack.pop()
        for key in ("enum", "const"):
            if key in s:
                any_found = True
                vals = s[key] if key == "enum" and isinstance(s[key], list) else [s[key]]
                found.update(_as_text(v) for v in vals)
        for key in ("anyOf", "oneOf", "allOf"):
            stack.extend(b for b in s.get(key) or () if isinstance(b, Mapping))
        items = s.get("items")
        if isinstance(items, Mapping):
            stack.append(items)
    return found if any_found else None


def _as_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "null" if v is None else str(v)


_REQUIRED = lazy_re(
    r"^\s*(?:\*\*)?[(\[]?\s*(?:required|mandatory)\s*(?:\*\*)?\s*(?:[)\].:,;!-]|$)|"
    r"\b(?:this|the)\s+(?:field|parameter|argument|value|property|param)\s+is\s+(?:required|mandatory)\b|"
    r"[(\[]\s*(?:required|mandatory)\s*[)\]]",
    re.I,
)
_CONDITIONAL_AFTER = lazy_re(
    r"^\s*(?:[)\].,:;-]\s*)?(?:if|when|unless|for|only|in|to|by|with|except|on|whenever|once|depending)\b", re.I
)


def read_required(text: str) -> Claim | None:
    """"Required.", "(required)", "[required]", "This field is required" — never "required
    if/when/for ..." and never in a text that also says "optional"."""
    if "optional" in text.lower():
        return None
    for m in _REQUIRED.finditer(text):
        rest = text[m.end() : m.end() + 30]
        if _CONDITIONAL_AFTER.match(rest):
            continue
        return Claim("required", True, m.group(0).strip())
    return None


def conditionally_required(parent: Mapping[str, Any], name: str) -> bool:
    """``name`` is required in some branch or condition of ``parent`` (``anyOf``/``oneOf``/
    ``allOf``/``if``-``then``/``dependentRequired``/``dependencies``)."""
    stack: list[Any] = []
    for key in ("anyOf", "oneOf", "allOf", "then", "else", "if"):
        v = parent.get(key)
        stack.extend(v if isinstance(v, list) else [v])
    for key in ("dependentRequired", "dependencies"):
        v = parent.get(key)
        if isinstance(v, Mapping) and any(isinstance(x, list) and name in x for x in v.values()):
            return True
    while stack:
        s = stack.pop()
        if not isinstance(s, Mapping):
            continue
        req = s.get("required")
        if isinstance(req, list) and name in req:
            return True
        for key in ("anyOf", "oneOf", "allOf", "then", "else"):
            v = s.get(key)
            stack.extend(v if isinstance(v, list) else [v])
    return False
