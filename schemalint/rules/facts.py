"""What the catalog-wide parts of the rules know about the whole run, without the parsed tools.

A streaming check (:mod:`schemalint.engine.stream`) reads the catalog once to gather these facts,
then checks one file (or one batch of JSON Lines) at a time with ``Context.catalog`` holding only
that group's tools and ``Context.facts`` holding this: the tool names of the whole run (SL201,
SL202, SL506), the definitions of the names defined more than once (SL201/SL202's "another
definition"), the definitions whose names look alike (SL502), and the files written wholly in a
non-standard type dialect (SL001). Each definition keeps its name, its origin and its property
names, never its schema. A check that holds the whole catalog in memory leaves ``Context.facts``
``None`` and the rules compute the same from ``Context.catalog``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import Origin, Tool


@dataclass(frozen=True)
class Definition:
    """One tool definition as the catalog-wide rules need it: ``name``, ``origin`` and
    ``properties`` (the property names declared anywhere in its advertised schema, or a Docker
    catalog entry's argument names: what SL201/SL202 compare a description against)."""

    name: str
    origin: Origin
    properties: frozenset[str]


def dialect_files(tools: Iterable[Tool]) -> dict[str, int]:
    """File -> number of counted tools, for the files of ``tools`` that SL001 summarises as written in
    a type dialect (at least two tools with an object schema, each root a non-standard spelling of
    object): what :attr:`CatalogFacts.dialect_files` holds for a whole catalog."""
    per_file: dict[str, list[int]] = {}
    for tool in tools:
        flag = _root_is_dialect_object(tool)
        if flag is not None:
            entry = per_file.get(tool.origin.file)
            if entry is None:
                entry = per_file[tool.origin.file] = [0, 1]
            entry[0] += 1
            if not flag:
                entry[1] = 0
    return {f: c for f, (c, every) in per_file.items() if c >= 2 and every}


def _root_is_dialect_object(tool: Tool) -> bool | None:
    """SL001's test of a file's dialect, for one tool: ``None`` when its advertised schema is not an
    object (not counted), else whether its root ``type`` is a non-standard spelling of object."""
    advertised = tool.advertised
    if not isinstance(advertised, Mapping):
        return None
    from schemalint.rules.shape._common import NONSTANDARD_TYPES, STANDARD_TYPES

    root_type = advertised.get("type")
    return (isinstance(root_type, str) and root_type not in STANDARD_TYPES
            and NONSTANDARD_TYPES.get(root_type.lower()) == "object")


@dataclass
class CatalogFacts:
    """The run-wide facts (see the module docstring); built by :class:`FactsBuilder`.

    ``names``: every non-empty tool name. ``repeated``: for each name defined more than once
    (``""`` included), its definitions in catalog order. ``lookalikes``: for each SL502 skeleton
    of a non-ASCII name, the definitions of every name with that skeleton, in catalog order.
    ``dialect_files``: file -> number of counted tools, for the files SL001 summarises as written
    in a type dialect (at least two tools, every root a non-standard object type).
    """

    names: frozenset[str] = frozenset()
    repeated: dict[str, list[Definition]] = field(default_factory=dict)
    lookalikes: dict[str, list[Definition]] = field(default_factory=dict)
    dialect_files: dict[str, int] = field(default_factory=dict)


class FactsBuilder:
    """Gathers :class:`CatalogFacts` tool by tool, in catalog order, in one or two passes;
    ``properties(tool)`` gives a definition's property names (SL201/SL202's
    :func:`schemalint.rules.description.mentions.tool_property_names`).

    First pass: :meth:`add` every tool. Then, when :meth:`wanted` is not empty (some names are
    defined more than once, or look like another), a second pass calls :meth:`add_definitions`
    with the tools (it records those whose name is in it); :meth:`build` returns the facts. Memory: the set of names,
    one flag and count per file, and the definitions of the wanted names only.
    """

    def __init__(self, properties: Callable[[Tool], frozenset[str]]) -> None:
        self._properties = properties
        self._seen: set[str] = set()
        self._repeated: set[str] = set()
        self._dialect: dict[str, list[int]] = {}  # file -> [counted tools, all dialect objects (0/1)]
        self._wanted: frozenset[str] | None = None
        self._skeleton_of: dict[str, str] = {}
        self._definitions: dict[str, list[Definition]] = {}
        self._lookalikes: dict[str, list[Definition]] = {}

    def add(self, tool: Tool) -> None:
        """Record ``tool`` (first pass)."""
        self.add_name(tool.name)
        flag = _root_is_dialect_object(tool)
        if flag is not None:
            self.add_dialect(tool.origin.file, 1, flag)

    def add_name(self, name: str) -> None:
        """Record a tool named ``name`` (first pass; :meth:`add` without the dialect flag)."""
        if name in self._seen:
            self._repeated.add(name)
        else:
            self._seen.add(name)

    def add_dialect(self, file: str, count: int, every: bool) -> None:
        """Record ``count`` tools of ``file`` with an object schema, whose roots all spell object in a
        type dialect when ``every`` (SL001's test)."""
        entry = self._dialect.get(file)
        if entry is None:
            entry = self._dialect[file] = [0, 1]
        entry[0] += count
        if not every:
            entry[1] = 0

    def dialect_counts(self) -> dict[str, tuple[int, bool]]:
        """File -> (tools counted, whether every root spells object in a type dialect), so far."""
        return {f: (c, bool(every)) for f, (c, every) in self._dialect.items()}

    def wanted(self) -> frozenset[str]:
        """The names whose definitions the second pass must record (empty: no second pass)."""
        if self._wanted is None:
            suspects = [n for n in self._seen if n and not n.isascii()]
            twins: set[str] = set()
            if suspects:
                from schemalint.rules.poisoning.sl502_homoglyph_tool_name import skeleton

                wanted_skeletons = {skeleton(n) for n in suspects}
                for n in self._seen:
                    if n:
                        sk = skeleton(n)
                        if sk in wanted_skeletons:
                            twins.add(n)
                            self._skeleton_of[n] = sk
            self._wanted = frozenset(self._repeated | twins)
        return self._wanted

    def add_definitions(self, tools: Iterable[Tool]) -> None:
        """Record the definition of each of ``tools`` whose name is :meth:`wanted` (second pass)."""
        wanted = self.wanted()
        for tool in tools:
            if tool.name in wanted:
                self._record(tool)

    def _record(self, tool: Tool) -> None:
        self.record(Definition(tool.name, tool.origin, self._properties(tool)))

    def record(self, found: Definition) -> None:
        """Record the definition ``found``, whose name is :meth:`wanted` (second pass, in catalog order)."""
        self._definitions.setdefault(found.name, []).append(found)
        sk = self._skeleton_of.get(found.name)
        if sk is not None:
            self._lookalikes.setdefault(sk, []).append(found)

    def merge(self, later: FactsBuilder) -> None:
        """Add the first pass of ``later``, a builder that saw the tools following this one's in
        catalog order (a worker's share of the files; a file may be shared by consecutive builders):
        the result is the builder that saw both in turn. Call before :meth:`wanted`."""
        seen = self._seen
        self._repeated |= later._repeated
        self._repeated.update(n for n in later._seen if n in seen)
        seen |= later._seen
        for file, (count, every) in later._dialect.items():
            entry = self._dialect.get(file)
            if entry is None:
                self._dialect[file] = [count, every]
            else:
                entry[0] += count
                entry[1] = entry[1] and every
        self._wanted = None

    def take_definitions(self) -> tuple[dict[str, list[Definition]], dict[str, list[Definition]]]:
        """The definitions recorded by the second pass so far (by name, and by look-alike skeleton),
        removed from this builder: what a worker that recorded a share of them sends back."""
        found = (self._definitions, self._lookalikes)
        self._definitions, self._lookalikes = {}, {}
        return found

    def merge_definitions(self, part: tuple[dict[str, list[Definition]], dict[str, list[Definition]]]) -> None:
        """Add definitions taken (:meth:`take_definitions`) from a builder that recorded the tools
        following those this one recorded, in catalog order."""
        definitions, lookalikes = part
        for name, found in definitions.items():
            self._definitions.setdefault(name, []).extend(found)
        for sk, found in lookalikes.items():
            self._lookalikes.setdefault(sk, []).extend(found)

    def build(self) -> CatalogFacts:
        """The facts gathered (the second pass, when needed, must have run)."""
        return CatalogFacts(
            names=frozenset(n for n in self._seen if n),
            repeated={n: self._definitions.get(n, []) for n in self._repeated},
            lookalikes=self._lookalikes,
            dialect_files={f: c for f, (c, every) in self._dialect.items() if c >= 2 and every},
        )


# ---------------------------------------------------------------------------- summaries of shards

SUMMARY_VERSION = 1
"""``schemalint-summary`` of the summaries this version writes and reads."""


def is_summary_text(head: bytes) -> bool:
    """Whether the first bytes of a file are a shard summary (a JSON object with
    ``"schemalint-summary"``): what ``--summary-out`` may replace
    (:func:`schemalint.safe_write.check_output`)."""
    return head.lstrip().startswith(b"{") and b'"schemalint-summary"' in head


class SummaryError(ValueError):
    """A shard summary that is not one this version of schemalint wrote (raised by :func:`merge_summaries`)."""


def summary_of(tools: Iterable[Tool], properties: Callable[[Tool], frozenset[str]]) -> dict[str, Any]:
    """The catalog summary of one shard's ``tools`` (in catalog order), a JSON-able mapping: every
    tool's definition as the catalog-wide rules need it (name, origin, property names from
    ``properties``) and SL001's dialect counts per file. :func:`merge_summaries` of the summaries of
    consecutive shards gives the :class:`CatalogFacts` of one run over all of them.

    Shape: ``{"schemalint-summary": 1, "files": [path, ...], "tools": [[name, file index, pointer,
    format, line, [property, ...]], ...], "dialect": [[file index, counted tools, every root a
    dialect object (0/1)], ...]}``; about 100 bytes a tool plus its property names."""
    files: dict[str, int] = {}
    rows: list[list[Any]] = []
    dialect = FactsBuilder(properties)
    for tool in tools:
        o = tool.origin
        index = files.setdefault(o.file, len(files))
        rows.append([tool.name, index, o.pointer, o.format, o.line, sorted(properties(tool))])
        flag = _root_is_dialect_object(tool)
        if flag is not None:
            dialect.add_dialect(o.file, 1, flag)
    return {"schemalint-summary": SUMMARY_VERSION, "files": list(files), "tools": rows,
            "dialect": [[files[f], c, int(every)] for f, (c, every) in dialect.dialect_counts().items()]}


def merge_summaries(summaries: Iterable[Mapping[str, Any]]) -> CatalogFacts:
    """The :class:`CatalogFacts` of one run over the shards whose summaries (:func:`summary_of`)
    are given in catalog order (the shards' files in the order one run would read them). Raises
    :class:`SummaryError` for a mapping that is not such a summary."""
    shards = list(summaries)
    builder = FactsBuilder(lambda tool: frozenset())
    for shard in shards:
        if not isinstance(shard, Mapping) or shard.get("schemalint-summary") != SUMMARY_VERSION:
            raise SummaryError("not a schemalint shard summary (version "
                               f"{SUMMARY_VERSION}): {str(shard)[:60]!r}")
        try:
            files = shard["files"]
            for name, index, _pointer, _fmt, _line, _props in shard["tools"]:
                if not isinstance(name, str) or not isinstance(files[index], str):
                    raise ValueError(f"tool {name!r} in file {index!r}")
                builder.add_name(name)
            for index, count, every in shard["dialect"]:
                builder.add_dialect(files[index], count, bool(every))
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise SummaryError(f"a malformed schemalint shard summary: {exc!r}") from None
    wanted = builder.wanted()
    if wanted:
        for shard in shards:
            files = shard["files"]
            for name, index, pointer, fmt, line, props in shard["tools"]:
                if name in wanted:
                    builder.record(Definition(name, Origin(files[index], pointer, fmt, line), frozenset(props)))
    return builder.build()
