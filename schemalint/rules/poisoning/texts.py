"""The text a tool shows the model, with the JSON pointer of every string, for the poisoning rules.

Every poisoning rule reads the same strings: the tool's name and description, every
``description``, ``title``, property name, ``enum`` value, ``const``, ``default`` and ``examples``
string of the advertised schema (every depth, from the shared walk
:func:`schemalint.schema.index.index_schema`), and the names and descriptions of a Docker
``arguments`` list. They are collected once per tool (:meth:`Context.memo`).

Cost is the point of this module: the family runs by default on every check, so a tool whose
text is plain ASCII and holds no trigger word must cost one fast scan.

- Characters: a file whose text holds no invisible character, raw or escaped
  (the file screen :data:`schemalint.rules.poisoning.chars.INVISIBLES` that SL501 declares,
  :func:`schemalint.rules.poisoning.chars.may_hold_invisibles`), is skipped by SL501 without a
  walk; elsewhere only non-ASCII strings are looked at.
- Words: the descriptions of a tool are joined and split into a set of lowercase words once,
  in C (:func:`word_groups`; regular expressions over every description cost 40 ns a character,
  which the 10,000-tool benchmark cannot afford); a rule's own patterns run only on the tools
  holding one of its trigger words, and there only on the strings holding one
  (:func:`triggered`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from schemalint.model import RUN, RunContext, Tool, escape_token
from schemalint.rules.base import Context
from schemalint.rules.poisoning.chars import INVISIBLES
from schemalint.rules.tool_text import TO_WORDS, ToolText, tool_text
from schemalint.schema.index import SchemaNode, index_schema

__all__ = [
    "Text",
    "catalog_names",
    "describe_char",
    "description_pointer",
    "description_texts",
    "name_pointer",
    "name_words",
    "non_ascii_texts",
    "sentence_at",
    "show",
    "triggered",
    "triggers",
    "words_of",
]


class Text:
    """One string the model is shown.

    ``text``: the string; ``role``: ``name``, ``description``, ``title``, ``property``, ``enum``,
    ``const``, ``default``, ``example``; ``pointer``: RFC 6901 pointer of the string in the source
    file (for a property name, the pointer of that property, whose located position is its key);
    ``where``: a label for messages ("the tool description", "the description of property
    `a/b`"); ``prop``: the property the string belongs to (``a/b``), ``""`` for the tool itself;
    ``param``: the name of the property whose description or title this is, else ``None``.
    Pointer and labels of a schema string are computed on first use (most strings are never
    reported).
    """

    __slots__ = ("_key", "_node", "_param", "_pointer", "_prop", "_tool", "_where", "role", "text")

    def __init__(self, text: str, role: str, *, pointer: str | None = None, where: str = "", prop: str = "",
                 param: str | None = None, node: SchemaNode | None = None, key: str = "",
                 tool: Tool | None = None) -> None:
        self.text = text
        self.role = role
        self._pointer = pointer
        self._where = where
        self._prop: str | None = prop if node is None else None
        self._param = param
        self._node = node
        self._key = key
        self._tool = tool

    @property
    def prop(self) -> str:
        """The property path the string belongs to (``""``: the tool or the schema root)."""
        if self._prop is None:
            self._prop = _prop_path(self._node) if self._node is not None else ""
        return self._prop

    @property
    def param(self) -> str | None:
        """The property whose description or title this is (``None`` for tool-level text)."""
        if self._node is not None and self._param is None and self.role in ("description", "title"):
            self._param = self.prop.rsplit("/", 1)[-1] if self.prop else None
        return self._param

    @property
    def pointer(self) -> str:
        """JSON pointer of the string in its file."""
        if self._pointer is None:
            node, tool = self._node, self._tool
            assert node is not None and tool is not None
            self._pointer = tool.pointer_in_file(f"{node.pointer}/{self._key}")
        return self._pointer

    @property
    def where(self) -> str:
        """Where the string is, for a message."""
        if not self._where:
            self._where = _where(self.role, self.prop)
        return self._where

    def __repr__(self) -> str:
        return f"Text({self.text!r}, {self.role!r}, {self.pointer!r})"


def name_pointer(tool: Tool) -> str:
    """JSON pointer of the tool's name in its file (beside the schema, as SL006 points)."""
    parent = tool.schema_path.rsplit("/", 1)[0] if tool.schema_path else ""
    return tool.origin.pointer + parent + "/name"


def description_pointer(tool: Tool) -> str:
    """JSON pointer of the tool's description in its file (beside the schema, as SL201 points)."""
    parent = tool.schema_path.rsplit("/", 1)[0] if tool.schema_path else ""
    return tool.origin.pointer + parent + "/description"


def _prop_path(node: SchemaNode) -> str:
    """``a/b`` for the subschema of property ``b`` of property ``a`` (array items and
    compositions are skipped over; ``""`` for the root)."""
    parts: list[str] = []
    n: SchemaNode | None = node
    while n is not None and n.parent is not None:
        if n.keyword == "properties" and n.token is not None:
            parts.append(n.token)
        n = n.parent
    return "/".join(reversed(parts))


def _where(role: str, prop: str) -> str:
    """A label for messages; the property path is escaped (:func:`show`), it may hold the very
    characters reported."""
    label = show(prop, 60)
    if role == "property":
        return f"the property name `{label}`"
    if not prop:
        return "the description of the parameters schema" if role == "description" else \
            f"the {role} of the parameters schema"
    return f"the {role} of property `{label}`"


def _strings(value: Any, pointer: str, depth: int = 0) -> Iterator[tuple[str, str]]:
    """(pointer, string) for every string in a JSON value (lists and dicts, 20 levels at most)."""
    if isinstance(value, str):
        yield pointer, value
    elif depth < 20 and isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{pointer}/{i}", depth + 1)
    elif depth < 20 and isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str):
                yield from _strings(item, f"{pointer}/{escape_token(key)}", depth + 1)


_VALUE_ROLES = (("enum", "enum"), ("const", "const"), ("default", "default"), ("examples", "example"))


def _schema_texts(tool: Tool, keep_ascii: bool, keep: Callable[[str], bool] | None = None) -> list[Text]:
    """Strings of the advertised schema (see the module docstring): descriptions and titles only
    when ``keep_ascii`` (and only those for which ``keep`` is true, when given), else every kind
    of string, the non-ASCII ones only."""
    schema = tool.advertised
    if not isinstance(schema, dict):
        return []
    out: list[Text] = []
    root_description = tool.description
    index = index_schema(schema)
    # descriptions and titles only: the nodes that have one (in walk order, as every node would give)
    for node in index.having("description", "title") if keep_ascii else index.nodes:
        sub = node.schema
        for key in ("description", "title"):
            value = sub.get(key)
            if type(value) is str and (keep_ascii or not value.isascii()):
                if key == "description" and node.parent is None and value == root_description:
                    continue
                if keep is not None and not keep(value):
                    continue
                out.append(Text(value, key, node=node, key=key, tool=tool))
        if keep_ascii:
            continue
        props = sub.get("properties")
        if type(props) is dict:
            for name in props:
                if type(name) is str and not name.isascii():
                    prop = _prop_path(node)
                    full = f"{prop}/{name}" if prop else name
                    pointer = tool.pointer_in_file(f"{node.pointer}/properties/{escape_token(name)}")
                    out.append(Text(name, "property", pointer=pointer, where=_where("property", full), prop=full))
        for key, role in _VALUE_ROLES:
            if key in sub:
                for pointer, value in _strings(sub[key], f"{node.pointer}/{key}"):
                    if not value.isascii():
                        prop = _prop_path(node)
                        out.append(Text(value, role, pointer=tool.pointer_in_file(pointer),
                                        where=_where(role, prop), prop=prop))
    return out


def _docker_texts(tool: Tool, keep_ascii: bool, keep: Callable[[str], bool] | None = None) -> list[Text]:
    args = tool.docker_arguments
    out: list[Text] = []
    if args is None:
        return out
    for i, arg in enumerate(args):
        if not isinstance(arg, Mapping):
            continue
        raw_name = arg.get("name")
        name = raw_name if isinstance(raw_name, str) else f"#{i}"
        for key, role in (("name", "property"), ("desc", "description")):
            value = arg.get(key)
            if isinstance(value, str) and (keep_ascii or not value.isascii()):
                if (role == "property" and keep_ascii) or (keep is not None and not keep(value)):
                    continue
                where = f"the argument name `{show(name, 60)}`" if role == "property" else \
                    f"the description of argument `{show(name, 60)}`"
                out.append(Text(value, role, pointer=f"{tool.origin.pointer}/arguments/{i}/{key}", where=where,
                                prop=name, param=name if role == "description" else None))
    return out


def non_ascii_texts(tool: Tool, ctx: Context) -> list[Text]:
    """Every string of ``tool`` the model is shown that holds a non-ASCII character (empty, without
    a walk, when the invisible-character screen cleared the tool's file: :data:`chars.INVISIBLES`)."""
    if ctx.cleared(INVISIBLES, tool.origin.file):
        return []

    def compute() -> list[Text]:
        out: list[Text] = []
        if tool.name and not tool.name.isascii():
            out.append(Text(tool.name, "name", pointer=name_pointer(tool), where="the tool name"))
        if tool.description and not tool.description.isascii():
            out.append(Text(tool.description, "description", pointer=description_pointer(tool),
                            where="the tool description"))
        out.extend(_schema_texts(tool, keep_ascii=False))
        out.extend(_docker_texts(tool, keep_ascii=False))
        return out

    found: list[Text] = ctx.memo(("poisoning-non-ascii", id(tool)), compute)
    return found


def description_texts(tool: Tool, keep: Callable[[str], bool] | None = None) -> list[Text]:
    """The tool description and every description and title of its schema (and of its Docker
    arguments), in walk order; only the strings for which ``keep`` is true, when given (no
    :class:`Text` is built for the others)."""
    out: list[Text] = []
    if tool.description and (keep is None or keep(tool.description)):
        out.append(Text(tool.description, "description", pointer=description_pointer(tool),
                        where="the tool description"))
    out.extend(_schema_texts(tool, keep_ascii=True, keep=keep))
    out.extend(_docker_texts(tool, keep_ascii=True, keep=keep))
    return out


def _w(words: str) -> frozenset[bytes]:
    return frozenset(words.encode().split())


_WORDS: dict[str, frozenset[bytes]] = {
    # SL503: markup needs a tag name and a < or [; the phrases need their verbs
    "tag": _w("important system instructions instruction hidden secret admin sys assistant critical override "
              "internal ai llm model inst im_start im_end endoftext start_header_id"),
    "override": _w("ignore ignoring ignored disregard disregarding forget override overriding"),
    "conceal": _w("tell telling inform informing notify notifying alert alerting mention reveal disclose show "
                  "hide hiding conceal concealing keep"),
    "user": _w("user"),
    "unmention": _w("mention reveal disclose"),
    "unmentioned": _w("instruction instructions step steps note notes request requirement requirements"),
    # SL504: a secret file, or a secret noun and a verb
    "secret": _w("ssh id_rsa id_dsa id_ecdsa id_ed25519 env aws netrc npmrc pypirc mcp passwd shadow "
                 "bash_history zsh_history gnupg kube"),
    "secret-noun": _w("key keys apikey apikeys api_key credential credentials password passwords passphrase "
                      "passphrases secret secrets token tokens cookie cookies mnemonic seed environment variables "
                      "vars"),
    "verb": _w("read cat open load access fetch retrieve collect copy extract dump print grab obtain include "
               "attach append add send pass put insert embed provide supply upload forward paste give share"),
    # SL505: the conversation; the system prompt; other tools' results
    "conversation": _w("conversation conversations chat dialog dialogue everything"),
    "messages": _w("messages turns"),
    "all": _w("all every each"),
    "prompt": _w("prompt message instructions"),
    "system": _w("system your"),
    "tools": _w("tools tool functions calls"),
    "others": _w("other previous prior earlier every all available"),
    # SL506: a condition or a modal (the tool name is checked by the rule)
    "shadow": _w("when whenever before after each every if must should shall"),
}
"""Word sets (lowercase) that the patterns of each rule group need together (see
:func:`word_groups`): SL503 (``instruction``), SL504 (``secret``), SL505 (``data``), SL506
(``shadow``)."""

_ANY_GROUP = _WORDS["tag"] | _WORDS["override"] | _WORDS["conceal"] | _WORDS["secret"] | _WORDS["verb"] | \
    _WORDS["conversation"] | _WORDS["messages"] | _WORDS["prompt"] | _WORDS["tools"] | _WORDS["shadow"]
"""At least one of these words is in every text that triggers a group."""

_TO_WORDS = TO_WORDS
"""Lowercase ASCII letters; every other ASCII character but digits and ``_`` becomes a space."""


def word_groups(text: str) -> frozenset[str]:
    """The rule groups (``instruction``, ``secret``, ``data``, ``shadow``) whose trigger words
    (:data:`_WORDS`) occur in ``text``: one C-level pass (translate, split, set tests), no regular
    expression. Non-ASCII letters are dropped, so this is a pre-filter only (the rules' patterns
    need ASCII words too)."""
    return _groups(text.encode("ascii", "replace").translate(_TO_WORDS).split(), text)


_BIT = {key: 1 << i for i, key in enumerate(_WORDS)}
"""One bit per word set of :data:`_WORDS`."""
_SETS_OF: dict[bytes, int] = {}
for _key, _words in _WORDS.items():
    for _word in _words:
        _SETS_OF[_word] = _SETS_OF.get(_word, 0) | _BIT[_key]
"""For each word of :data:`_WORDS`, the bits of the sets that hold it."""
_ALL_WORDS = frozenset(_SETS_OF)
(_TAG, _OVERRIDE, _CONCEAL, _USER, _UNMENTION, _UNMENTIONED, _SECRET, _SECRET_NOUN, _VERB, _CONVERSATION, _MESSAGES,
 _ALL, _PROMPT, _SYSTEM, _TOOLS, _OTHERS, _SHADOW) = (_BIT[k] for k in (
    "tag", "override", "conceal", "user", "unmention", "unmentioned", "secret", "secret-noun", "verb",
    "conversation", "messages", "all", "prompt", "system", "tools", "others", "shadow"))
assert len(_BIT) == 17


def _groups(listed: list[bytes] | set[bytes], text: str) -> frozenset[str]:
    """:func:`word_groups` of ``text``, whose words (:func:`words_of`) are ``listed`` (or their set):
    which word sets the text touches is read from the few words it shares with :data:`_WORDS`."""
    if _ANY_GROUP.isdisjoint(listed):  # the common case: no set is built
        return frozenset()
    m = 0
    for word in _ALL_WORDS.intersection(listed):
        m |= _SETS_OF[word]
    found = set()
    if (("<" in text or "[" in text) and m & _TAG) or m & _OVERRIDE or (m & _CONCEAL and m & _USER) \
            or (m & _UNMENTION and m & _UNMENTIONED):
        found.add("instruction")
    if "~" in text or m & _SECRET or (m & _SECRET_NOUN and m & _VERB):
        found.add("secret")
    if m & _CONVERSATION or (m & _MESSAGES and m & _ALL) or (m & _PROMPT and m & _SYSTEM) \
            or (m & _TOOLS and m & _OTHERS):
        found.add("data")
    if m & _SHADOW:
        found.add("shadow")
    return frozenset(found)


def triggers(tool: Tool, ctx: Context) -> frozenset[str]:
    """Which rule groups have a trigger word somewhere in ``tool``'s descriptions
    (:func:`word_groups` of the joined text, :func:`schemalint.rules.tool_text.tool_text`, computed
    once per joined text and shared by the four rules; ``ctx`` is not read)."""
    hits: frozenset[str] = tool_text(tool).answer(triggers, _text_groups)
    return hits


def _text_groups(text: ToolText) -> frozenset[str]:
    """:func:`triggers` of the tool whose joined descriptions are ``text``."""
    return _groups(text.word_set, text.joined) if text.joined else frozenset()


_GROUPS_OF_TEXT = "poisoning.word_groups"
"""The run's table of :func:`word_groups` by string (catalogs repeat descriptions)."""


def triggered(group: str, tool: Tool, ctx: Context) -> list[Text]:
    """The description strings of ``tool`` that hold a trigger word of ``group``
    (:func:`word_groups` per string, computed once per tool and shared by the four rules); empty,
    without looking at single strings, when the joined descriptions hold none (:func:`triggers`)."""
    if group not in triggers(tool, ctx):
        return []

    def compute() -> dict[str, list[Text]]:
        groups: dict[str, frozenset[str]] = {}
        known: dict[str, frozenset[str]] = RunContext.current.table(_GROUPS_OF_TEXT, dict)
        if len(known) > 50_000:
            known.clear()

        def keep(text: str) -> bool:
            found = known.get(text)
            if found is None:
                found = known[text] = word_groups(text)
            groups[text] = found
            return bool(found)

        by_group: dict[str, list[Text]] = {}
        for t in description_texts(tool, keep):
            for g in groups[t.text]:
                by_group.setdefault(g, []).append(t)
        return by_group

    by_group: dict[str, list[Text]] = ctx.memo(("poisoning-by-group", id(tool)), compute)
    return by_group.get(group, [])


def catalog_names(ctx: Context) -> frozenset[str]:
    """The names of every tool in the run (``ctx.catalog``), computed once."""
    facts = getattr(ctx, "facts", None)
    if facts is not None:  # a streaming check: ctx.catalog is one file's tools, the facts know every name
        found: frozenset[str] = facts.names
        return found
    names: frozenset[str] = ctx.memo(("poisoning-names",), lambda: frozenset(t.name for t in ctx.catalog if t.name))
    return names


def words_of(text: str) -> list[bytes]:
    """The lowercase ASCII words of ``text`` (as :func:`word_groups` splits it)."""
    return text.encode("ascii", "replace").translate(_TO_WORDS).split()


def name_words(ctx: Context) -> frozenset[bytes]:
    """For each tool name of the run, its longest word (:func:`words_of`): a text that mentions
    a tool by name holds that word (computed once)."""

    def compute() -> frozenset[bytes]:
        out = set()
        for name in catalog_names(ctx):
            parts = words_of(name)
            if parts:
                out.add(max(parts, key=len))
        return frozenset(out)

    found: frozenset[bytes] = ctx.memo(("poisoning-name-words",), compute, RUN)
    return found


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n|\n(?=\s*[-*•\d])")


def sentence_at(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) of the sentence of ``text`` holding ``text[start:end]``: bounded by ``.``, ``!``
    or ``?`` before white space, a blank line, or a list item."""
    begin = 0
    for m in _SENTENCE_END.finditer(text, 0, start):
        begin = m.end()
    after = _SENTENCE_END.search(text, end)
    return begin, (after.end() if after else len(text))


def show(text: str, limit: int = 80) -> str:
    """``text`` shortened to ``limit`` characters, with every non-printable or non-ASCII character
    written as a ``\\u`` escape (a message never carries the hidden characters it reports)."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    out = []
    for ch in text:
        cp = ord(ch)
        if ch == "…" or (0x20 <= cp < 0x7F):
            out.append(ch)
        elif cp <= 0xFFFF:
            out.append(f"\\u{cp:04x}")
        else:
            out.append(f"\\U{cp:08x}")
    return "".join(out)


def describe_char(ch: str) -> str:
    """``U+200B ZERO WIDTH SPACE`` (the Unicode name, when the database has one)."""
    import unicodedata

    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")
