"""SL005 duplicate-tool-name: two tools with the same name in one tools list.

A *tools list* is the container that holds the tool definitions sent together: the
same JSON array (or object) in the same document, and for JSON Lines the same line.
So two entries of a benchmark file that each declare ``get_weather`` are not
duplicates (each entry is its own request), while ``get_weather`` twice in one
``tools`` array is: a provider refuses the request (Anthropic: "Tool names must be
unique") or the host routes every call to one of the two definitions. Gemini's
``functionDeclarations`` lists inside one ``tools`` array count as one list.

Every occurrence after the first is reported, pointing at the earlier one.

Source: rules/SL005-duplicate-tool-name.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule


def tools_list_key(tool: Tool) -> tuple[str, int | None, str] | None:
    """The identity of the tools list holding ``tool``: (file, JSONL line, container pointer).

    ``None`` for a tool that is a whole document (a one-tool ``.snap`` file). For a
    Gemini declaration (``.../N/functionDeclarations/M``) the container is the array
    holding the ``{functionDeclarations: [...]}`` objects.
    """
    pointer = tool.origin.pointer
    if pointer == "":
        return None
    parent = pointer[: pointer.rfind("/")]
    head, _, last = parent.rpartition("/")
    if last in ("functionDeclarations", "function_declarations"):
        parent = head[: head.rfind("/")] if head else head
    return (tool.origin.file, tool.origin.line, parent)


def _canonical(tool: Tool) -> str:
    try:
        return json.dumps(tool.raw, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(tool.raw)


_PARSED_SUFFIXES = (".json", ".snap", ".jsonl", ".ndjson", ".yaml", ".yml")
"""Files whose tools are parsed JSON or YAML values: strings, numbers, booleans, null, objects and
arrays (YAML's dates, sets and non-string keys make orjson refuse the value, see :func:`_encoded`)."""


def _encoded(tool: Tool) -> bytes | None:
    """``tool.raw`` encoded by orjson with sorted keys, for a tool read from a JSON or YAML file;
    ``None`` when orjson does not encode it as plain JSON (a subclass, a date, a dataclass, a
    non-string key, an integer beyond 64 bits, a lone surrogate) or the tool comes from source code
    (which may hold enums, written differently by :func:`_canonical`)."""
    if not tool.origin.file.lower().endswith(_PARSED_SUFFIXES):
        return None
    import orjson

    try:
        return orjson.dumps(tool.raw, option=orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS
                            | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME)
    except Exception:  # orjson.JSONEncodeError (a TypeError)
        return None


class _First:
    """The first definition of a name met again: its orjson and :func:`_canonical` encodings,
    each made once, when first needed."""

    __slots__ = ("_canonical", "_encoded", "tool")

    def __init__(self, tool: Tool) -> None:
        self.tool = tool
        self._encoded: bytes | bool | None = False  # False: not encoded yet
        self._canonical: str | None = None

    def same_as(self, tool: Tool) -> bool:
        """Whether ``tool`` repeats this definition: :func:`_canonical` of both is equal. Two plain
        JSON values have equal canonical texts exactly when their orjson encodings (sorted keys) are
        equal, except that orjson writes NaN and infinities as ``null``: an equal pair holding
        ``null`` (and any value orjson does not encode plainly) is compared by :func:`_canonical`."""
        if self._encoded is False:
            self._encoded = _encoded(self.tool)
        mine = self._encoded
        if isinstance(mine, bytes):
            other = _encoded(tool)
            if other is not None and (mine != other or b"null" not in mine):
                return mine == other
        if self._canonical is None:
            self._canonical = _canonical(self.tool)
        return self._canonical == _canonical(tool)


class DuplicateToolName(Rule):
    """Two tools in one tools list share a name.
    """

    severity = Severity.ERROR

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterator[Diagnostic]:
        """Every tool after the first of its name in its tools list. A route that checks one file in
        several groups (a streamed document's batches of items: ``ctx.facts`` set) remembers, for the
        rest of the file, where the first definition of each name the run defines more than once was
        and a digest of it (:data:`~schemalint.model.FILE` lifetime), so that a second definition in a
        later group is reported as when the file is checked whole."""
        first: dict[tuple[Any, ...], Tool] = {}
        canonical: dict[tuple[Any, ...], _First] = {}  # the first tool of a name met again
        earlier: dict[tuple[Any, ...], tuple[str, bytes | None]] | None = None
        if ctx.facts is not None:
            from schemalint.model import FILE

            earlier = ctx.run.table("SL005-first-of-name", dict, FILE)
        for tool in tools:
            if not tool.name:
                continue  # SL006 reports empty names
            key = tools_list_key(tool)
            if key is None:
                continue
            named = (*key, tool.name)
            before = earlier.get(named) if earlier is not None else None
            if before is not None:
                where, digest = before
                identical = digest is not None and digest == _digest(tool)
            else:
                seen = first.setdefault(named, tool)
                if seen is tool:
                    continue
                if isinstance(seen.raw, Mapping):
                    # the first definition is compared with every later one of its name: encoded once
                    known = canonical.get(named)
                    if known is None:
                        known = canonical[named] = _First(seen)
                    identical = known.same_as(tool)
                else:
                    identical = False
                where = seen.origin.pointer
            yield self.diag(
                tool, None,
                f"a second tool named {tool.name!r} in the same tools list (first at {where})"
                + ("; it repeats the first definition" if identical else
                   " with a different definition; the model cannot tell them apart")
                + ", and providers refuse a request whose tool names are not unique",
                hint="remove the repeated definition" if identical else
                "rename one of the tools, or merge them into one definition",
            )
        if earlier is not None and ctx.facts is not None:
            repeated = ctx.facts.repeated
            for named, tool in first.items():
                if named[-1] in repeated:
                    earlier[named] = (tool.origin.pointer, _digest(tool) if isinstance(tool.raw, Mapping) else None)


def _digest(tool: Tool) -> bytes:
    """A digest of :func:`_canonical` (what a later group compares a definition with)."""
    import hashlib

    return hashlib.blake2b(_canonical(tool).encode("utf-8", "surrogatepass"), digest_size=16).digest()
