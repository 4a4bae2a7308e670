"""Find the parameter names a description *presents as something to pass*.

Shared by SL201 (``description-mentions-unknown-parameter``) and SL202
(``description-mentions-removed-parameter``). A word counts only when its **form** presents it
as an argument of the call, whatever verb stands before it (``Mention.kind``; how strongly each
form counts is measured, :mod:`.strengths` and docs/descriptions.md):

``imperative``  the object of an instruction found by the sentence's shape (:mod:`.imperatives`);
``role``        a name in a role slot of such an instruction ("as `x`", "in the `x` field");
``plain``       an ordinary word in either place (trusted by SL202 alone);
``backtick``    a backticked identifier in a sentence about parameters;
``conditional`` a backticked name whose value a condition tests ("if `x` is true", :mod:`.conditionals`), and
                in any form of a key the name a parameter is said to depend on ("Only used when
                auth_type is 'basic'", "Ignored unless `recursive` is set");
``pairing``     a name a parameter is said to go with, exclude, need or be compared with ("Must be
                later than `start_date`", "Cannot be combined with 'offset'", "Requires `x`", :mod:`.pairings`);
``phrase``      "the x_y parameter/argument/option/flag", "x_y [and x_z] must be specified";
``assign``      ``x_y=value`` outside URLs, not after "if/when", not in another tool's call;
``code-assign``, ``colon``  `` `name: value` `` in a code span, a quoted ``'name': value``;
``arglist``     entries of ``Args:``/``Parameters:`` sections, ``:param x:``, ``this_tool(x=...)``;
``signature``   names of this tool's call written as a signature (``Usage: this_tool(a, b[, c])``,
                ``thisTool(a: string, b?: number)``), or of its call spelled in another case or
                with a host's prefix (``mcp__srv__this_tool(x=1)``);
``label-list``, ``table``  "Required arguments: `a`, `b`", a Markdown table headed "Parameter";
``json``, ``json-instruction``  keys of a JSON argument example (with a declared key, or handed
                over by an instruction);
``list``        a parenthesised list of bare names next to a declared one;
``deflist``     entries of a definition list (``**x**: ...``, ``x — ...``, ``x -> ...``, ``x → ...``) with a
                declared one, of ``<param name="x">`` tags or of a run "Fields: x — ...; y — ..." with
                mostly declared ones.

Never counted: URLs, words inside fenced code blocks (except a call to this very tool), result
sections in every spelling, values, names of other things, and text that is mostly non-Latin
(only the language-neutral ``arglist`` and ``json`` forms are read there).

Which names are *known* (and so never reported) is decided in :func:`analyse`.

Where each kind is found (one module per kind; this module is the driver and the analysis):
:mod:`.examples` (``arglist`` calls of this tool, ``json``), :mod:`.signatures` (``signature``),
:mod:`.arglists` (``arglist`` sections, ``list``), :mod:`.deflists` (``deflist`` lines),
:mod:`.listings` (``deflist`` tags and runs), :mod:`.phrases` (``phrase``),
:mod:`.imperatives` (``imperative``, ``role``, ``plain``), :mod:`.backticks` (``backtick``),
:mod:`.conditionals` (``conditional``), :mod:`.pairings` (``pairing``; with :mod:`.relations`, what the
readings of a relation between two parameters share),
:mod:`.assignments` (``assign``), :mod:`.forms`
(``code-assign``, ``colon``, ``label-list``, ``table``), :mod:`.near_misses` (``nearmiss``: another
spelling of a declared name); :mod:`.sites` reads the schema side (declared names, the
description strings and their levels), :mod:`.nearest` the "did you mean" hint, and
:mod:`.patterns` / :mod:`.text` hold what the kinds share.
"""


from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from schemalint.model import RUN, RunContext, Severity, Tool, escape_token
from schemalint.rules.description.definitions import definition_key, same_definition
from schemalint.rules.description.mentions.arglists import arg_sections, name_lists
from schemalint.rules.description.mentions.assignments import assignments
from schemalint.rules.description.mentions.backticks import backticked
from schemalint.rules.description.mentions.commands import takes_command_text, written_in_command
from schemalint.rules.description.mentions.conditionals import conditions, dependencies
from schemalint.rules.description.mentions.deflists import definition_lists
from schemalint.rules.description.mentions.examples import call_examples, json_examples, literal_examples
from schemalint.rules.description.mentions.forms import code_assignments, colon_names, label_lists, tables
from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.imperatives import _NOT_NAME_AFTER, imperative_objects
from schemalint.rules.description.mentions.listings import labelled_runs, param_tags
from schemalint.rules.description.mentions.near_misses import _near_miss_table, _near_misses
from schemalint.rules.description.mentions.nearest import NEAREST_FUZZY_LIMIT, nearest
from schemalint.rules.description.mentions.needs import keys_named, needs, passive_roles
from schemalint.rules.description.mentions.pairings import pairings
from schemalint.rules.description.mentions.patterns import (
    _FENCE,
    _OTHER_THING,
    _OUTPUT_WORDS,
    _RE_LEAD_QUOTES,
    _RE_NOUN_ANY,
    _RE_NOUN_OF,
    _RE_PREP_BEFORE,
    _URL,
    _lazy,
)
from schemalint.rules.description.mentions.phrases import cjk_parameters, must_be_given, the_parameter
from schemalint.rules.description.mentions.records import AbsentMention, Mention, Site
from schemalint.rules.description.mentions.siblings import sibling_owner
from schemalint.rules.description.mentions.sites import (
    description_sites,
    schema_names,
    schema_names_complete,
    schema_values,
    stated_defaults,
)
from schemalint.rules.description.mentions.strengths import strength_of
from schemalint.rules.description.mentions.text import (
    _BRACKET_REACH,
    _after_other_tool,
    _blank,
    _blank_output_sections,
    _bracket_end,
    _joined_might_mention,
    _lacks,
    _lacks_words,
    _might_mention,
    _mostly_non_latin,
    _sentence,
    _words_of_ascii,
    key_shaped,
    result_section_names,
)
from schemalint.rules.description.mentions.value_lists import arguments_schema, described_values
from schemalint.rules.tool_text import tool_text
from schemalint.schema.index import index_schema

if TYPE_CHECKING:
    from schemalint.rules.facts import Definition

__all__ = [
    "NEAREST_FUZZY_LIMIT", "AbsentMention", "Mention", "Site", "analyse", "description_sites", "extract_mentions",
    "nearest", "schema_names", "tool_property_names",
]


def extract_mentions(
    text: str,
    *,
    tool_name: str = "",
    tool_names: frozenset[str] | set[str] = frozenset(),
    is_value: bool = False,
    property_level: bool = False,
    level: Sequence[str] = (),
    plain: bool = True,
    plain_names: frozenset[str] | None = None,
) -> list[Mention]:
    """Every name ``text`` presents as a parameter to pass, in text order, deduplicated by token.

    ``tool_name``: this tool (its own name is never a parameter; ``tool_name(x=1)`` call
    examples are read); ``tool_names``: names of the tools of the catalog (never
    parameters, and ``x=1`` attached to another tool's name belongs to that tool); ``is_value``: the text
    describes a string value, so ``x=value``/``x:`` inside it are value syntax;
    ``property_level``: the text is a property's description (there "pass the x" usually
    describes this property's own value, so only "pass `x` parameter"/"set `x` to value" count).
    ``level``: the property names declared where the text speaks (for ``json`` and ``list``).
    ``plain``: whether plain-word mentions are wanted (only SL202 trusts them; without them the
    instruction reader skips sentences that hold no quoted or name-shaped word). ``plain_names``: when
    given, the only names whose plain mentions are wanted (the instruction reader skips a sentence
    that can hold only plain mentions and holds none of these names; plain mentions found in the
    sentences it reads are returned as before).
    Never raises: any string is accepted.
    """
    if not isinstance(text, str) or not text.strip():
        return []
    if "<code>" in text:
        text = _html_code_spans(text)
    found = Found(tool_name, tool_names)
    if tool_name:
        call_examples(text, found, level)
    if level and not property_level and '{"' in text.replace('{ "', '{"'):
        json_examples(text, level, found)
    if level and not property_level and not is_value and ("{" in text or "```" in text):
        literal_examples(text, level, found)
    clean = _blank(_blank(text, _FENCE), _URL) if ("`" in text or "/" in text or "www." in text) else text
    clean = _blank_output_sections(clean)
    latin = not _mostly_non_latin(clean)
    low = clean.lower() if clean.isascii() else None  # for the kinds' exact pre-filters (text._lacks)
    arg_sections(clean, is_value, found, low)
    if level and not property_level and not is_value:
        if "\n" in clean:
            definition_lists(clean, level, found)
        if "<" in clean:
            param_tags(clean, level, found)
        if ":" in clean and not _lacks(low, _RUN_LABEL_WORDS):
            labelled_runs(clean, level, found)
    if latin and not _lacks(low, _NOUN_WORDS) and _RE_NOUN_ANY.search(clean):
        the_parameter(clean, found)
    if not latin and ("`" in clean or "「" in clean or "'" in clean or '"' in clean or "“" in clean):
        cjk_parameters(clean, found)
    if latin:
        _latin_kinds(clean, is_value=is_value, property_level=property_level, level=level, found=found, low=low,
                     plain=plain, plain_names=plain_names)
    results = result_section_names(text)
    out = [m for m in found.by_token.values()
           if m.token not in results and not _another_thing(text, m, tool_names, tool_name)]
    out.sort(key=lambda x: x.start)
    return out


_RE_HTML_CODE = _lazy(r"<code>([^<>`\n]{1,80})</code>")


def _html_code_spans(text: str) -> str:
    """``<code>x</code>`` written as the code span `` `x` ``, padded with spaces so that every offset
    into the text stays where it was."""
    return _RE_HTML_CODE.sub(lambda m: "     `" + m.group(1) + "`      ", text)


_PASSIVE_ROLE_WORDS = frozenset((b"passed", b"given", b"specified", b"set", b"provided", b"sent", b"supplied",
                                 b"selected", b"chosen", b"controlled"))
"""The participles of :data:`~.needs._RE_PASSIVE_ROLE`, one of which is a whole word of every match."""
_NEED_WORDS = ("requires", "needs", "expects", "accepts", "takes")
"""The words of :data:`~.needs._RE_NEEDS` (one of them is in every match), and below of
:data:`~.needs._RE_WITH_KEYS` (with "with") and of :data:`~.forms._RE_LABEL`."""
_WITH_KEYS_WORDS = ("key", "field", "propert", "attribute", "member", "entr")
_LABEL_WORDS = ("required", "optional", "param", "arg", "input")
"""The words every label of :func:`~.forms.label_lists` holds."""
_RUN_LABEL_WORDS = ("field", "param", "arg", "input", "option", "key")
"""What every label :func:`~.listings.labelled_runs` reads holds."""


_NOUN_WORDS = ("param", "arg", "field", "option", "flag", "key", "propert", "input")
"""The words of :data:`~.patterns._RE_NOUN_ANY`."""


def _latin_kinds(clean: str, *, is_value: bool, property_level: bool, level: Sequence[str], found: Found,
                 low: str | None = None, plain: bool = True, plain_names: frozenset[str] | None = None) -> None:
    """The kinds read only in text that is mostly Latin script, in the order they take precedence
    (``low``: ``clean`` in lower case when it is ASCII, for the kinds' pre-filters)."""
    words = _words_of_ascii(low)
    imperative_objects(clean, found, property_level, is_value, plain, plain_names)
    if level and ("(" in clean or ":" in clean):
        name_lists(clean, level, found)
    must_be_given(clean, found, words)
    if not property_level and not _lacks(low, _NEED_WORDS):
        needs(clean, found)
    if not is_value and not _lacks(low, _WITH_KEYS_WORDS) and not _lacks(low, ("with",)):
        keys_named(clean, found)
    if not _lacks_words(words, _PASSIVE_ROLE_WORDS):
        passive_roles(clean, found)
    dependencies(clean, found, property_level, level, words)
    pairings(clean, found, property_level, level, words)
    if "`" in clean:
        backticked(clean, found, property_level)
        if not is_value:
            conditions(clean, found)
        if not is_value:
            code_assignments(clean, found)
    if (": " in clean or ":\t" in clean) and ("`" in clean or "'" in clean or '"' in clean) and not is_value:
        colon_names(clean, found)
    if ":" in clean and not _lacks(low, _LABEL_WORDS):
        label_lists(clean, found, property_level)
    if "|" in clean:
        tables(clean, found)
    if not is_value and "=" in clean:
        assignments(clean, found)


_RE_OWNER_WITH = _lazy(r"`([^`\n]{1,60})`(?:\s+[A-Za-z]+){0,2}\s+with\s+(?:an?\s+|the\s+)?`?$")
"""A name handed to a thing named just before it: "`other_tool` with a `search` parameter", "a
`changeTracking` format with `modes: [...]`"."""


_RE_VALUE_FOR_ANOTHER = _lazy(
    r"[`'\"]?(?:\s+from\s+[\w.()]+)?\s+as\s+(?:the\s+|an?\s+)?[`'\"][A-Za-z_][\w-]*[`'\"]\s+"
    r"(?:parameter|argument|param|arg|field|value|input)s?\b", re.I)
"""A name handed over as another key's value ("`hours_since_deployment` from find_deployment as the
`hours` parameter")."""
_RE_RESULT_VALUE_BEFORE = _lazy(r"\b(?:returned|resulting|generated|produced|obtained|received)\s*[`'\"]?$", re.I)
"""A result's value named by what it came from ("the returned `attachmentSetId`")."""
_RE_THINGS_WITH = _lazy(r"\b[A-Za-z]{3,}s\s+with\s*$")
"""A plural noun before "with": what follows names those things' fields ("segments with `fault: true`")."""


_RE_WITH_BEFORE = _lazy(r"\bwith\s+(?:(?:a|an|the|its|their)\s+)?[`'\"]?$")


def _another_thing(text: str, mention: Mention, tool_names: frozenset[str] | set[str], tool_name: str) -> bool:
    """Whether ``mention`` is really another thing ("the `foo` tool", "x parameter of ..."), or
    another tool's parameter ("the `x` of `other_tool`")."""
    rest = _RE_LEAD_QUOTES.sub("", text[mention.end : mention.end + 40])
    if _OTHER_THING.match(rest) or _RE_NOUN_OF.match(rest):
        return True
    if mention.kind.startswith("backtick") and _NOT_NAME_AFTER.match(rest):
        return True  # "add a `changeTracking` format": a value of some kind, named by the noun after it
    if _RE_VALUE_FOR_ANOTHER.match(text, mention.end) or _RE_RESULT_VALUE_BEFORE.search(
            text, max(0, mention.start - 30), mention.start):
        return True  # "pass the returned `setId` as the `set_id` parameter": a value, handed to another key
    if mention.kind.startswith("code-assign") and _RE_THINGS_WITH.search(text, max(0, mention.start - 40),
                                                                          mention.start - 1):
        return True  # "segments with `fault: true`": a field of those things, not of the call
    owner = _RE_OWNER_WITH.search(text, max(0, mention.start - 80), mention.start)
    if owner is not None and owner.group(1) != tool_name and mention.kind.startswith(
            ("code-assign", "colon", "backtick", "phrase")):
        return True  # "a `changeTracking` format with `modes: [...]`": the key belongs to that thing
    before = text[max(0, mention.start - 40) : mention.start]
    if _RE_WITH_BEFORE.search(before) and _after_other_tool(text, mention.start, tool_names, tool_name):
        return True  # "use the 'complete_migration' tool with the migration_id": that tool's argument
    return (
        mention.kind in ("backtick", "phrase")
        and _after_other_tool(text, mention.start, tool_names, tool_name)
        and bool(_RE_PREP_BEFORE.search(before))
    )

# ---------------------------------------------------------------- analysis

def _variants_index(catalog: Sequence[Tool]) -> dict[str, list[Tool]]:
    idx: dict[str, list[Tool]] = {}
    for t in catalog:
        idx.setdefault(t.name, []).append(t)
    return idx


def _catalog_info(ctx: Any) -> tuple[Mapping[str, Sequence[Tool | Definition]], frozenset[str]]:
    """The catalog's definitions by name and its tool names (cached in the current run); in a
    streaming check, the run-wide facts (:attr:`Context.facts`: only the names defined more than
    once have definitions there, which is all the analysis asks for)."""
    facts = getattr(ctx, "facts", None)
    if facts is not None:
        return facts.repeated, facts.names
    catalog: Sequence[Tool] = getattr(ctx, "catalog", ()) or ()
    run = RunContext.current
    index_cache: dict[int, tuple[Sequence[Tool], dict[str, list[Tool]], frozenset[str]]] = run.table(
        "description.mentions.catalog", dict)
    key = id(catalog)
    hit = index_cache.get(key)
    if hit is not None and hit[0] is catalog:
        return hit[1], hit[2]
    idx = _variants_index(catalog)
    names = frozenset(n for n in idx if n)
    index_cache.clear()
    run.table("description.mentions.union", dict).clear()  # keyed by the index's id, which a new index may reuse
    index_cache[key] = (catalog, idx, names)
    return idx, names


def _catalog_properties(ctx: Any, name: str) -> frozenset[str]:
    """Property names of every tool called ``name`` in ``ctx.catalog`` (the whole run, or in a
    streaming check the file being checked, which holds a server's tools together); the index of
    the catalog by name is made once per catalog in the run, a name's properties when first asked."""
    catalog: Sequence[Tool] = getattr(ctx, "catalog", ()) or ()
    slot = RunContext.current.table("description.mentions.siblings", lambda: [None, {}, {}], RUN)
    if slot[0] is not catalog:
        slot[0], slot[1], slot[2] = catalog, _variants_index(catalog), {}
    props: dict[str, frozenset[str]] = slot[2]
    hit = props.get(name)
    if hit is None:
        hit = props[name] = frozenset().union(*(_tool_names(t) for t in slot[1].get(name, ())))
    return hit


def _variant_union(name: str, idx: Mapping[str, Sequence[Tool | Definition]]) -> frozenset[str]:
    """Property names of every definition called ``name`` in the catalog index (cached per index)."""
    union_cache: dict[tuple[int, str], frozenset[str]] = RunContext.current.table("description.mentions.union", dict)
    key = (id(idx), name)
    hit = union_cache.get(key)
    if hit is None:
        if len(union_cache) > 50_000:
            union_cache.clear()
        defs = idx.get(name, ())
        _share_names(defs)
        hit = frozenset().union(*(_tool_names(t) for t in defs))
        union_cache[key] = hit
    return hit


def _definition(tool: Tool) -> tuple[bool, Any]:
    """What :func:`tool_property_names` reads of ``tool``."""
    if tool.origin.format == "docker-arguments":
        return True, tool.docker_arguments
    return False, tool.advertised


def _share_names(defs: Sequence[Tool | Definition]) -> None:
    """Fill the names cache of :func:`_tool_names` for the definitions ``defs`` of one name with one
    walk per distinct definition: catalogs hold many copies of a tool (the corpus: 14,022 tools
    under names defined more than once, 4,065 distinct definitions). Equal definitions (``==`` of
    the parsed JSON values) declare the same names, unless the walk stopped at its limit (then
    the order of the keys decides what it saw, and such a definition is not shared)."""
    names_cache: dict[int, tuple[Tool, frozenset[str]]] = RunContext.current.table("description.mentions.names", dict)
    reps: dict[Any, list[tuple[Any, frozenset[str]]]] = {}
    for t in defs:
        if not isinstance(t, Tool):
            continue
        hit = names_cache.get(id(t))
        if hit is not None and hit[0] is t:
            continue
        docker, value = _definition(t)
        bucket = reps.setdefault(_shape(docker, value), [])
        names = next((n for v, n in bucket if _same(v, value)), None)
        if names is None:
            names, complete = _property_names_complete(t)
            if complete:
                bucket.append((value, names))
        if len(names_cache) > 50_000:
            names_cache.clear()
        names_cache[id(t)] = (t, names)


def _shape(docker: bool, value: Any) -> Any:
    """What two equal definitions share and most unequal ones do not (their top-level property
    names), so that only those are compared whole."""
    if type(value) is dict:
        props = value.get("properties")
        return docker, len(value), tuple(props) if type(props) is dict else None
    return docker, type(value).__name__, len(value) if type(value) is list else None


def _same(a: Any, b: Any) -> bool:
    """``a == b`` for two definitions; false when the comparison fails (too deep, or a value of a
    Python source whose ``==`` raises): the definition is then walked on its own."""
    if a is b:
        return True
    try:
        return bool(a == b)
    except Exception:
        return False


def tool_property_names(tool: Tool) -> frozenset[str]:
    """The names a description of ``tool`` may present as its parameters: the property names
    declared anywhere in its advertised schema, or a Docker catalog entry's argument names."""
    return _property_names_complete(tool)[0]


def _property_names_complete(tool: Tool) -> tuple[frozenset[str], bool]:
    """(:func:`tool_property_names`, whether the schema walk saw the whole schema)."""
    if tool.origin.format == "docker-arguments":
        args = tool.docker_arguments
        return frozenset(
            a["name"] for a in args or [] if isinstance(a, Mapping) and isinstance(a.get("name"), str)
        ), True
    names, complete = schema_names_complete(tool.advertised)
    return frozenset(names), complete


def _tool_names(tool: Tool | Definition) -> frozenset[str]:
    if not isinstance(tool, Tool):  # a streaming check's Definition (schemalint.rules.facts)
        return tool.properties
    names_cache: dict[int, tuple[Tool, frozenset[str]]] = RunContext.current.table("description.mentions.names", dict)
    hit = names_cache.get(id(tool))
    if hit is not None and hit[0] is tool:
        return hit[1]
    names = tool_property_names(tool)
    if len(names_cache) > 50_000:
        names_cache.clear()
    names_cache[id(tool)] = (tool, names)
    return names


def _removed_sources(tool: Tool, ctx: Any) -> list[tuple[str, frozenset[str] | set[str]]]:
    """(label, names) of the places where a parameter of this tool may have existed."""
    out: list[tuple[str, frozenset[str] | set[str]]] = []
    if tool.runtime is not None:
        if tool.runtime.input is not None:
            out.append(("the runtime (validator) schema", schema_names(tool.runtime.input)))
        if tool.runtime.output is not None:
            out.append(("the runtime output-mode schema", schema_names(tool.runtime.output)))
    prev = getattr(ctx, "previous", {}) or {}
    if tool.name in prev:
        p = prev[tool.name]
        out.append((f"the previous revision ({p.origin.file})", _tool_names(p)))
    idx, _ = _catalog_info(ctx)
    for other in idx.get(tool.name, []):
        if other is tool or other.origin == tool.origin:
            continue
        names = _tool_names(other)
        if names:
            out.append(
                (
                    f"another definition of `{tool.name}` ({other.origin.file}"
                    f"{' line ' + str(other.origin.line) if other.origin.line else ''})",
                    names,
                )
            )
    return out


def analyse(tool: Tool, ctx: Any) -> list[AbsentMention]:
    """Every mention in ``tool``'s descriptions of a name its advertised schema lacks.

    A name is *known* (never reported) when it is a property anywhere in the advertised
    schema (any level: text about a nested or sibling key is fine), a key or word of an
    ``enum``/``const``/``default``/``examples`` value, a property of the advertised output
    schema, or the name of any tool in the catalog. Findings whose name exists in the
    runtime schemas, another definition of the same tool or ``ctx.previous`` carry
    ``removed_in`` (SL202); the others are SL201 findings, for which "plain" word mentions
    are dropped. Cached per (tool, ctx) in the current run so SL201 and SL202 share one pass.
    """
    cache: dict[tuple[int, int], tuple[Tool, Any, list[AbsentMention]]] = RunContext.current.table(
        "description.mentions.analyse", dict)
    key = (id(tool), id(ctx))
    hit = cache.get(key)
    if hit is not None and hit[0] is tool and hit[1] is ctx:
        return hit[2]
    findings = _shared_analysis(tool, ctx)
    if len(cache) > 4096:
        cache.clear()
    cache[key] = (tool, ctx, findings)
    return findings


_BY_DEFINITION = "description.mentions.by_definition"
"""Key of the run's memo of :func:`_shared_analysis`: the context and catalog index it holds for, and
per definition key (:func:`~schemalint.rules.description.definitions.definition_key`) the tool
analysed and its findings."""


def _shared_analysis(tool: Tool, ctx: Any) -> list[AbsentMention]:
    """The findings of :func:`_analyse`, read once per definition of a name defined more than once:
    a tool whose definition equals (:func:`~schemalint.rules.description.definitions.same_definition`)
    one analysed before in this run and context gets that one's findings, each on the same description string of its own
    (the same index in :func:`description_sites`, which equal definitions list alike).

    Why that is exact: the analysis reads of the tool only what the definition key holds; the rest
    is the run's (the catalog's names and definitions, ``ctx.previous``, ``ctx.targets``). The one
    place where the tool itself matters is "another definition" (:func:`_removed_sources`, which
    leaves the tool out): a finding's name is declared by neither of two equal definitions, so the
    first other definition declaring it is the same for both, once every definition of the name has
    its own origin (checked; a name with two definitions at one origin is analysed tool by tool). Not
    shared: a tool with a runtime contract, a streaming check (whose catalog is one file, so the memo
    would keep every file's schemas alive), a name defined once. A tool none of whose descriptions
    would be a site (:func:`_no_site`, which equal definitions answer alike) has no findings, known
    before its definition's key is made (of the corpus's 14,022 tools under names defined more than
    once, 7,693)."""
    info = _catalog_info(ctx)
    idx = info[0]
    defs = idx.get(tool.name, ())
    if len(defs) < 2 or tool.runtime is not None or getattr(ctx, "facts", None) is not None:
        return list(_analyse(tool, ctx, info=info))
    plain_wanted = _plain_wanted(tool, ctx, idx)
    if _no_site(tool, plain_wanted):
        return []  # what _analyse finds, without the definition's key (most copies hold no site)
    slot = RunContext.current.table(_BY_DEFINITION, lambda: [None, None, {}, {}])
    if slot[0] is not ctx or slot[1] is not idx:
        slot[0], slot[1], slot[2], slot[3] = ctx, idx, {}, {}
    memo: dict[Any, tuple[Tool, bool, tuple[tuple[Any, ...], ...]]] = slot[2]
    key = definition_key(tool)
    if key is None or not _own_origins(tool.name, defs, slot[3]):
        return list(_analyse(tool, ctx, info=info, plain_wanted=plain_wanted))
    hit = memo.get(key)
    if hit is not None and hit[0] is not tool and same_definition(hit[0], tool):
        _, plain_wanted, records = hit
        if not records:
            return []
        sites = description_sites(tool, None if plain_wanted else _might_mention)
        return [AbsentMention(sites[i], *rest) for i, *rest in records]
    used: list[tuple[bool, list[Site]]] = []
    findings = list(_analyse(tool, ctx, used, info, plain_wanted))
    if hit is None:
        if len(memo) > 50_000:
            memo.clear()
        plain_wanted, sites = used[0] if used else (False, [])
        at = {id(s): i for i, s in enumerate(sites)}
        memo[key] = (tool, plain_wanted, tuple(
            (at[id(f.site)], f.mention, f.severity, f.removed_in, f.spelling_of, f.declared_at, f.also, f.wrapper)
            for f in findings))
    return findings


def _own_origins(name: str, defs: Sequence[Tool | Definition], known: dict[str, bool]) -> bool:
    """Whether every definition of ``name`` (``defs``) has an origin of its own (cached in ``known``)."""
    found = known.get(name)
    if found is None:
        found = known[name] = len({d.origin for d in defs}) == len(defs)
    return found


def _near_miss_severity(text: str, mention: Mention, sev: Severity) -> Severity:
    """A near-miss spelling no form presents as a parameter: at the site's severity when it is
    quoted or in a code span outside a sentence about the result ("replace `old_string` with"),
    else information only: a plain word in prose is usually the upstream API's own field ("fails when
    raiseOnBehalfOf cannot be applied", "a nextToken is provided in the output"), and so is a result's
    value handed to the declared key ("the returned `setId` as the `set_id` parameter")."""
    quoted = mention.start > 0 and text[mention.start - 1] in "`'\""
    if _RE_VALUE_FOR_ANOTHER.match(text, mention.end) or _RE_RESULT_VALUE_BEFORE.search(
            text, max(0, mention.start - 30), mention.start):
        return Severity.INFO  # "pass the returned `attachmentSetId` as the `attachment_set_id` parameter"
    if (quoted or _RE_REQUIREMENT.match(text, mention.end + quoted)) and not _OUTPUT_WORDS.search(
            _sentence(text, mention.start, mention.end)):
        return sev
    return Severity.INFO


_RE_REQUIREMENT = _lazy(r"\s+(?:must|should|has\s+to|needs\s+to)\s+(?:not\s+)?be\b|\s+(?:is|are)\s+required\b")
"""A requirement put on the value the model sends ("The file_path must be absolute")."""


_RELATION_KINDS = ("conditional", "pairing")
"""The forms that read a relation between two parameters ("Only used when `x` is ...", "Must differ from
`x`"). A name they read that spells a declared one another way is left to the near-miss pass, whose
severity follows how the name is written (quoted, or a plain word in prose): the relation forms, not
yet measured, do not override it."""


_FORBID_EXTRAS = {"openai-strict"}
"""Provider targets that refuse undeclared keys whatever the schema says (strict mode)."""


def _site_mentions(site: Site, tool_name: str, catalog_names: frozenset[str],
                   plain: bool = True, plain_names: frozenset[str] | None = None) -> tuple[Mention, ...]:
    """:func:`extract_mentions` of one site, cached: catalogs repeat a description in many
    copies of one tool (BFCL and ACEBench files share definitions), and the result depends
    only on the text, the tool's name, the site's kind and level, the catalog's names, and
    which plain mentions are wanted."""
    slot = RunContext.current.table("description.mentions.by_text", lambda: [None, {}], RUN)
    if slot[0] is not catalog_names:
        slot[0], slot[1] = catalog_names, {}
    cache: dict[tuple[Any, ...], tuple[Mention, ...]] = slot[1]
    property_level = not site.of_tool
    key = (site.text, tool_name, site.is_value, property_level, site.level, plain, site.open_content, plain_names)
    found = cache.get(key)
    if found is None:
        if len(cache) > 50_000:
            cache.clear()
        found = cache[key] = tuple(m for m in extract_mentions(
            site.text, tool_name=tool_name, tool_names=catalog_names, is_value=site.is_value,
            property_level=property_level, level=site.level, plain=plain, plain_names=plain_names)
            if not site.open_content or m.kind.startswith(_NAMED_AS_PARAMETER))
    return found


_PLAIN_NAMES_LIMIT = 32
"""Names :func:`_plain_names` gives at most (each is looked for in every sentence it screens)."""


def _plain_names(tool: Tool, ctx: Any, idx: Mapping[str, Sequence[Tool | Definition]]) -> frozenset[str] | None:
    """The names for which a plain mention in ``tool``'s descriptions can be reported (SL202): a plain
    mention counts only when its name is in a place :func:`_removed_sources` reads (the runtime
    schemas, the previous revision, another definition of the name: all within the union of the
    definitions in ``idx``) and is not known (the tool's own names are); ``None`` (every plain
    mention is read) when there are more than :data:`_PLAIN_NAMES_LIMIT`."""
    names: set[str] = set()
    runtime = tool.runtime
    if runtime is not None:
        if runtime.input is not None:
            names |= schema_names(runtime.input)
        if runtime.output is not None:
            names |= schema_names(runtime.output)
    prev = getattr(ctx, "previous", {}) or {}
    if tool.name in prev:
        names |= _tool_names(prev[tool.name])
    if len(idx.get(tool.name, ())) > 1:
        names |= _variant_union(tool.name, idx)
    names -= _tool_names(tool)
    return frozenset(names) if len(names) <= _PLAIN_NAMES_LIMIT else None


_NAMED_AS_PARAMETER = ("phrase", "arglist", "list", "label-list", "table")
"""The forms that name a parameter as one even in the description of a value that accepts any key
(:attr:`Site.open_content`): "the `x` parameter", an ``Args:`` entry, a parameter table."""


def _declared_pointer(tool: Tool, name: str) -> tuple[str | None, str | None]:
    """(schema pointer of the first property ``name`` declared anywhere in the advertised schema,
    the top-level property that holds it, directly or through a local ``$ref``)."""
    for node in index_schema(tool.advertised).nodes:
        if node.keyword == "properties" and node.token == name:
            return node.pointer, _holder(tool.advertised, node.pointer)
    return None, None


def _holder(schema: Any, pointer: str) -> str | None:
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return None
    for key, sub in props.items():
        if pointer.startswith(f"/properties/{escape_token(key)}/"):
            return key
        refs = [sub.get("$ref")] if isinstance(sub, Mapping) else []
        if isinstance(sub, Mapping):
            refs += [b.get("$ref") for k in ("anyOf", "allOf", "oneOf") for b in sub.get(k) or ()
                     if isinstance(b, Mapping)]
        for ref in refs:
            if isinstance(ref, str) and ref.startswith("#/") and pointer.startswith(ref[1:] + "/"):
                return key
    return None


def _plain_wanted(tool: Tool, ctx: Any, idx: Mapping[str, Sequence[Tool | Definition]]) -> bool:
    """Whether plain-word mentions of ``tool`` count (SL202 may report them): it has a runtime contract,
    a previous revision, or another definition in the catalog index ``idx`` with other properties."""
    return (
        tool.runtime is not None
        or tool.name in (getattr(ctx, "previous", {}) or {})
        # another definition of this name with other properties (a single definition has none)
        or (len(idx.get(tool.name, ())) > 1 and not _variant_union(tool.name, idx) <= _tool_names(tool))
    )


def _no_site(tool: Tool, plain_wanted: bool) -> bool:
    """True when no description of ``tool`` would be a site, so :func:`_analyse` finds nothing: plain
    mentions are not wanted and no description could hold another kind (:func:`_joined_might_mention`;
    a Docker entry's description is always a site)."""
    return not plain_wanted and tool.origin.format != "docker-arguments" and not _joined_might_mention(
        tool_text(tool))


def _free_form_key(schema: Any, text: str, mention: Mention) -> bool:
    """Whether ``mention`` names a key of a free-form object property that ``schema`` declares at
    its root (an object, or a union with one, that declares no ``properties`` and does not close
    itself): the name is a key written in that property's example value in ``text``
    (``parameters={"cluster": ...}``, ``"options": {"cluster": ...}``), or it stands in the lines
    that describe that property (``target_resource: ...`` and its indented continuation). The tool
    takes such names inside the object, not as keys of the call."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return False
    for name, sub in props.items():
        if not isinstance(name, str) or not _free_form(sub) or name not in text:
            continue
        if mention.token in _example_keys(text, name) or _in_entry_of(text, name, mention.start):
            return True
    return False


def _in_scalar_entry(schema: Any, text: str, at: int) -> bool:
    """Whether ``at`` lies in the lines that describe a declared string property in a list of
    arguments (:func:`_in_entry_of`): a quoted word there is that property's value, as it is in the
    property's own description."""
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    if not isinstance(props, Mapping):
        return False
    return any(isinstance(name, str) and isinstance(sub, Mapping) and (sub.get("type") == "string" or "enum" in sub)
               and name in text and _in_entry_of(text, name, at) for name, sub in props.items())


def _example_keys(text: str, name: str) -> set[str]:
    """The quoted keys inside every bracketed value written for ``name`` in ``text`` (``name={...}``,
    ``name: {...}``, ``"name": [{...}]``)."""
    keys: set[str] = set()
    for m in re.finditer(rf"(?<![\w-])[\"']?{re.escape(name)}[\"']?\s*[=:]\s*([{{\[])", text):
        opened = m.start(1) + 1
        end = _bracket_end(text, opened)
        if end == opened:  # not closed within reach: what is there
            end = min(len(text), m.start(1) + _BRACKET_REACH)
        keys.update(re.findall(r"[\"']([A-Za-z_][\w-]*)[\"']\s*:", text[m.start(1) : end]))
    return keys


def _in_entry_of(text: str, name: str, at: int) -> bool:
    """Whether ``at`` lies in the lines describing ``name`` in a list of arguments: after a line
    ``name: ...`` (bulleted, quoted or bold or not) and only in its more indented continuation lines."""
    entry = None
    for m in re.finditer(rf"^([ \t]*)(?:[-*•]\s*)?[`*]*{re.escape(name)}[`*]*\s*(?:\([^)\n]*\))?\s*:", text[:at],
                         re.M):
        entry = m
    if entry is None:
        return False
    indent = len(entry.group(1))
    line_end = text.find("\n", entry.end())
    if line_end == -1 or at <= line_end:
        return True
    return all(len(line) - len(line.lstrip()) > indent for line in text[line_end + 1 : at].split("\n") if line.strip())


def _free_form(sub: Any) -> bool:
    """An object subschema (or a union with one) without ``properties`` that leaves other keys open."""
    if not isinstance(sub, Mapping):
        return False
    branches = [b for key in ("anyOf", "oneOf") for b in (sub.get(key) or ()) if isinstance(b, Mapping)] or [sub]
    return any((b.get("type") == "object" or (b.get("type") is None and "additionalProperties" in b))
               and not b.get("properties") and b.get("additionalProperties", True) is not False for b in branches)


def _not_a_key_of_this_call(tool: Tool, ctx: Any, site: Site, mention: Mention, strength: str,
                            spelled: Mapping[str, str], catalog_names: frozenset[str]) -> bool:
    """Whether ``mention`` (of a name no earlier revision or runtime removed; ``strength``: its form's
    :func:`strength_of`) is not reported as an undeclared key of ``tool``: another spelling of a
    declared name in a relation (the near-miss pass reports it, by how it is written), a plain
    mention, a program in a tool that takes a command line, or another tool's parameter in a
    paragraph that names that tool."""
    tok = mention.token
    if tok in spelled and mention.kind.startswith(_RELATION_KINDS):
        return True
    if mention.plain or strength == "plain":
        return True
    if written_in_command(mention.kind, tok) and takes_command_text(tool.advertised):
        return True  # "Use `git` to commit" in a shell tool: a word of the command, not a key
    if site.of_tool and mention.kind.startswith("imperative-quoted") and not key_shaped(tok) and _in_scalar_entry(
            tool.advertised, site.text, mention.start):
        return True  # "service_language: ... Use 'nodejs' (not 'node')": a value of the property described there
    if site.of_tool and _free_form_key(tool.advertised, site.text, mention):
        return True  # "parameters={"ecs_cluster_name": ...}": a key of the free-form object, not of the call
    return sibling_owner(site.text, mention.start, mention.end, tok, tool.name, catalog_names,
                         lambda name: _catalog_properties(ctx, name)) is not None


def _analyse(
    tool: Tool, ctx: Any, used: list[tuple[bool, list[Site]]] | None = None,
    info: tuple[Mapping[str, Sequence[Tool | Definition]], frozenset[str]] | None = None,
    plain_wanted: bool | None = None,
) -> Iterator[AbsentMention]:
    """The findings of :func:`analyse`, uncached; ``used`` receives (whether plain mentions count,
    the sites read) when the tool has sites; ``info``: :func:`_catalog_info` of ``ctx``, when known;
    ``plain_wanted``: :func:`_plain_wanted` of the tool, when known."""
    idx, catalog_names = info if info is not None else _catalog_info(ctx)
    if plain_wanted is None:
        plain_wanted = _plain_wanted(tool, ctx, idx)
    if _no_site(tool, plain_wanted):
        return
    sites = description_sites(tool, None if plain_wanted else _might_mention)
    if not sites:
        return
    if used is not None:
        used.append((plain_wanted, sites))
    known: set[str] | None = None
    removed = None
    reported: set[tuple[str, str]] = set()
    table = _near_miss_table(sites)
    spelled = dict(table)
    forbid = bool(_FORBID_EXTRAS & set(getattr(ctx, "targets", ()) or ()))
    plain_names = _plain_names(tool, ctx, idx) if plain_wanted else None
    for site in sites:
        sev = Severity.ERROR if site.closed or forbid else Severity.WARNING
        elsewhere: list[Mention] = []
        at_level = False
        for mention in _site_mentions(site, tool.name, catalog_names, plain_wanted, plain_names):
            tok = mention.token
            if known is None:
                known = (
                    set(_tool_names(tool)) | schema_values(tool.advertised) | schema_names(tool.output_schema)
                    | described_values(tool.advertised if tool.origin.format != "docker-arguments"
                                       else arguments_schema(tool.docker_arguments))
                    | stated_defaults(s.text for s in sites)
                )
            if tok in known or tok in catalog_names:
                if mention.kind == "arglist" and site.level:
                    if tok in site.level:
                        at_level = True
                    elif tok in _tool_names(tool):
                        elsewhere.append(mention)
                continue
            if (site.file_pointer, tok) in reported:
                continue
            if removed is None:
                removed = _removed_sources(tool, ctx)
            where = next((label for label, names in removed if tok in names), None)
            strength = strength_of(mention.kind)
            if where is None and _not_a_key_of_this_call(tool, ctx, site, mention, strength, spelled, catalog_names):
                continue
            reported.add((site.file_pointer, tok))
            at = Severity.WARNING if strength == "warning" and where is None else sev
            yield AbsentMention(site, mention, at, where, spelled.get(tok) if where is None else None)
        if len(elsewhere) >= 2 and not at_level and site.of_tool:
            # an argument list of names that all live one level down (inside `request`): one finding
            first = elsewhere[0]
            pointer, holder = _declared_pointer(tool, first.token)
            reported.update((site.file_pointer, m.token) for m in elsewhere)
            yield AbsentMention(site, first, sev, declared_at=pointer, also=tuple(m.token for m in elsewhere[1:]),
                          wrapper=holder)
        if table:
            for mention, declared in _near_misses(site, table):
                tok = mention.token
                if (site.file_pointer, tok) in reported or tok in catalog_names or tok in _tool_names(tool):
                    continue
                if known is not None and tok in known:
                    continue
                reported.add((site.file_pointer, tok))
                yield AbsentMention(site, mention, _near_miss_severity(site.text, mention, sev), spelling_of=declared)
