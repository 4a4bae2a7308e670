"""Values a parser can build that JSON cannot hold: NaN, the infinities, bytes and sets.

JSON (RFC 8259 section 6) has no NaN and no infinity, and it has no bytes or sets. YAML has all
of them (``.nan``, ``.inf``/``-.inf``, a float too large for a double such as ``1.0e+400``,
``!!binary``, ``!!set``), and Python's JSON reader, which the loaders fall back on, reads
``NaN``, ``Infinity`` and ``1e400``. A schema holding one is not JSON: ``json.dumps`` writes
``NaN``/``Infinity`` (which strict JSON parsers refuse) and fails on bytes, orjson writes
``null``. :func:`non_json_values` finds them for SL001 (``schemalint check``) and for the
refusal of ``snapshot`` and ``diff``; :func:`describe` names one without Python syntax (never
``b'...'``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from schemalint.model import escape_token


class YamlBinary(str):
    """A YAML ``!!binary`` scalar as the loaders keep it: its base64 text (whitespace removed), a
    string to every rule, so that no message shows Python's ``b'...'`` and no encoder fails on it;
    ``nbytes`` is the length of the data it encodes. SL001 reports it, ``snapshot`` and ``diff``
    refuse it (:func:`non_json_values` finds it)."""

    nbytes: int

    def __new__(cls, text: str, nbytes: int) -> YamlBinary:
        """``text``: the base64 text; ``nbytes``: how many bytes it decodes to."""
        made = super().__new__(cls, text)
        made.nbytes = nbytes
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return (YamlBinary, (str(self), self.nbytes))


class YamlSet(dict[Any, None]):
    """A YAML ``!!set`` as the loaders keep it: a mapping of its members to ``None`` (how YAML 1.1
    writes a set), a mapping to every rule; JSON has no sets, so SL001 reports it and ``snapshot``
    and ``diff`` refuse it."""


def describe(value: Any) -> str | None:
    """How a message names ``value`` when JSON cannot hold it: ``"NaN"``, ``"Infinity"``,
    ``"-Infinity"``, ``"binary data (5 bytes, YAML !!binary)"`` or ``"a set (YAML !!set)"``;
    ``None`` for any other value (a JSON value, or one this module does not judge). Never raises."""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        return None
    if isinstance(value, YamlBinary):
        return f"binary data ({value.nbytes:,} byte{'s' if value.nbytes != 1 else ''}, YAML !!binary)"
    if isinstance(value, str):
        return None
    if isinstance(value, (bytes, bytearray, memoryview)):
        size = value.nbytes if isinstance(value, memoryview) else len(value)
        return f"binary data ({size:,} byte{'s' if size != 1 else ''}, YAML !!binary)"
    if isinstance(value, (set, frozenset, YamlSet)):
        return "a set (YAML !!set)"
    return None


def why_not_json(what: str) -> str:
    """Why the value :func:`describe` named ``what`` is no JSON value, for a message: JSON (RFC 8259)
    has no NaN, no infinities (and a number literal beyond a 64-bit float's range, such as
    ``1e400``, which RFC 8259 section 6 leaves to each implementation, is read as one), no binary
    data and no sets."""
    if what.endswith("Infinity"):
        return ("JSON has no infinities (RFC 8259 section 6), and a number beyond a 64-bit float's range, "
                "such as 1e400, is read as one")
    if what == "NaN":
        return "JSON has no NaN (RFC 8259 section 6)"
    if what.startswith("binary data"):
        return "JSON has no binary type"
    return "JSON has no sets"


def may_hold_non_json(encoded: bytes | None) -> bool:
    """Whether a value whose orjson encoding is ``encoded`` (``None``: orjson refused to encode it)
    may hold what :func:`non_json_values` finds. orjson refuses bytes and sets (and, encoding with
    ``OPT_PASSTHROUGH_SUBCLASS``, :class:`YamlBinary` and :class:`YamlSet`) and writes NaN and the
    infinities as ``null``, so a value it encodes without a bare ``null`` holds none of them (a
    ``null`` inside a string only costs the walk)."""
    if encoded is None:
        return True
    return b"null" in encoded and (b":null" in encoded or b",null" in encoded or b"[null" in encoded
                                   or encoded.startswith(b"null"))


def has_null_value(encoded: bytes, start: int = 0, end: int | None = None) -> bool:
    """Whether the compact JSON ``encoded`` (orjson's, which writes NaN and the infinities as ``null``
    too) holds a ``null`` value within ``encoded[start:end]``: a ``null`` right after ``:``, ``,`` or
    ``[`` (what the pattern ``[:,\\[]null`` finds, searched for as three substrings, which costs a
    fraction of the pattern's byte-by-byte scan)."""
    if end is None:
        end = len(encoded)
    find = encoded.find
    return find(b"null", start, end) != -1 and (
        find(b":null", start, end) != -1 or find(b",null", start, end) != -1 or find(b"[null", start, end) != -1)


def non_json_values(value: Any, limit: int = 100) -> list[tuple[str, str]]:
    """``[(pointer, description)]`` of the values inside ``value`` that JSON cannot hold
    (:func:`describe`), in document order, at most ``limit``. ``pointer`` is an RFC 6901 JSON
    pointer relative to ``value`` (``""`` for ``value`` itself); a mapping key JSON cannot hold
    (YAML ``? !!binary ...``) is reported at its mapping, described as ``"a key that is ..."``.
    Walked iteratively (no recursion limit); tuples and lists are arrays. Never raises."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [("", value)]
    while stack and len(found) < limit:
        pointer, node = stack.pop()
        kind = describe(node)
        if kind is not None:
            found.append((pointer, kind))
        elif isinstance(node, Mapping):
            children = []
            for key, child in node.items():
                key_kind = describe(key)
                if key_kind is not None:  # no pointer can name the entry: its mapping's
                    found.append((pointer, f"a key that is {key_kind}"))
                    continue
                children.append((f"{pointer}/{escape_token(key if isinstance(key, str) else _key_text(key))}",
                                 child))
            stack.extend(reversed(children))
        elif isinstance(node, (list, tuple)):
            stack.extend((f"{pointer}/{i}", child) for i, child in reversed(list(enumerate(node))))
    return found[:limit]


def _key_text(key: Any) -> str:
    """A JSON-able mapping key that is not a string as ``json.dumps`` writes it (``true``, ``1.5``)."""
    if key is True or key is False or key is None:
        return "true" if key is True else "false" if key is False else "null"
    return repr(key) if isinstance(key, float) else str(key)
