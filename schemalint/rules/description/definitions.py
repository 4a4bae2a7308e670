"""Equal definitions: what the description rules read of a tool, as one key, so that a catalog's
copies of a tool are read once.

Catalogs repeat tools (the shared corpus: 19,243 tools, 8,758 distinct advertised schemas; 14,022
tools under names defined more than once, 4,065 distinct definitions). The mention analysis
(SL201/SL202, :func:`schemalint.rules.description.mentions.analyse`) reads of a tool only its
name, description, format, strict flag, advertised and output schemas and (a Docker entry) its
``arguments`` list; the claim sites (SL203-SL206, :func:`schemalint.rules.description.claims.property_sites`)
only its advertised schema. The rest (origin, schema path) only places the findings. A key holds
those values, the JSON ones encoded by orjson in key order (:func:`encoded`); equal keys are
necessary, and :func:`same_values` decides.
"""

from __future__ import annotations

from typing import Any

from schemalint.model import RunContext, Tool

__all__ = ["definition_key", "encoded", "same_definition", "same_values"]

_LAST = "description.definitions.encoded"
"""Key of the run's last schema encoded and its encoding (the rules ask about one tool at a time)."""


def encoded(value: Any) -> bytes | None:
    """``value`` (a JSON value) encoded by orjson in key order, or ``None`` when it is not plain JSON
    that orjson encodes as it stands (a subclass of ``str``/``dict``/``list``, a dataclass, a date, a
    number beyond 64 bits, nesting deeper than orjson goes). The last value asked is remembered in the
    current run by identity. Never raises."""
    slot: list[Any] = RunContext.current.table(_LAST, lambda: [_LAST, None])
    if slot[0] is value:
        found: bytes | None = slot[1]
        return found
    import orjson

    try:
        found = orjson.dumps(value, option=_OPTIONS or _options())
    except Exception:  # orjson.JSONEncodeError (a TypeError)
        found = None
    slot[0], slot[1] = value, found
    return found


_OPTIONS = 0


def _options() -> int:
    global _OPTIONS
    import orjson

    _OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
    return _OPTIONS


def same_values(a: Any, b: Any) -> bool:
    """Whether two JSON values of equal :func:`encoded` are equal: they also compare equal in Python,
    which tells a tuple from a list and NaN from ``null`` (orjson writes both alike). False when the
    comparison fails (a value whose ``==`` raises)."""
    try:
        return a is b or bool(a == b)
    except Exception:
        return False


def _read(tool: Tool) -> tuple[Any, Any]:
    """The JSON values of ``tool`` the mention analysis reads besides its advertised schema: the
    output schema and a Docker entry's ``arguments`` (``None`` for other formats)."""
    return tool.output_schema, tool.docker_arguments


def definition_key(tool: Tool) -> tuple[Any, ...] | None:
    """A hashable key equal for two tools whose mention analysis reads equal values (see the module
    docstring), or ``None`` when a value is not plain JSON (:func:`encoded`: such a tool is analysed
    on its own). Equal keys are necessary, not sufficient: :func:`same_definition` decides. Never
    raises."""
    schema = encoded(tool.advertised)
    if schema is None:
        return None
    output, args = _read(tool)
    rest = [None if v is None else encoded(v) for v in (output, args)]
    if any(e is None for e, v in zip(rest, (output, args), strict=True) if v is not None):
        return None
    return (tool.name, tool.description, tool.origin.format, tool.strict, schema, *rest)


def same_definition(a: Tool, b: Tool) -> bool:
    """Whether the mention analysis reads equal values of ``a`` and ``b``, given equal
    :func:`definition_key` (:func:`same_values` of each, and descriptions of one type)."""
    return (same_values(a.advertised, b.advertised) and same_values(_read(a), _read(b))
            and type(a.description) is type(b.description))
