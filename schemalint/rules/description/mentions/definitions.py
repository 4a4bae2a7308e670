"""Equal definitions of one tool name: what the mention analysis of a definition reads, as one key.

Catalogs repeat a tool under its name (the shared corpus: 14,022 tools under names defined more than
once, 4,065 distinct definitions); :func:`schemalint.rules.description.mentions.analyse` reads one
of them and gives the others its findings, moved to their own description strings. The analysis of
a tool reads, of the tool itself, only its name, description, format, strict flag, advertised and
output schemas and (a Docker entry) its ``arguments`` list: the rest (origin, schema path) only
places the findings. :func:`definition_key` is those values, the JSON ones encoded in key order.
"""

from __future__ import annotations

from typing import Any

from schemalint.model import Tool

__all__ = ["definition_key", "same_definition"]


def _read(tool: Tool) -> tuple[Any, Any, Any]:
    """The JSON values of ``tool`` the analysis reads: advertised schema, output schema, and a
    Docker entry's ``arguments`` (``None`` for other formats)."""
    args = (tool.raw or {}).get("arguments") if tool.origin.format == "docker-arguments" else None
    return tool.advertised, tool.output_schema, args


def definition_key(tool: Tool) -> tuple[Any, ...] | None:
    """A hashable key equal for two tools whose analysis reads equal values (see the module
    docstring), or ``None`` when a value is not plain JSON that orjson encodes as it stands (a
    subclass of ``str``/``dict``/``list``, a dataclass, a date, a number beyond 64 bits: such a tool
    is analysed on its own). Equal keys are necessary, not sufficient (orjson writes a tuple as a
    list and NaN as ``null``): :func:`same_definition` decides. Never raises."""
    import orjson

    opts = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
    try:
        encoded = tuple(orjson.dumps(v, option=opts) for v in _read(tool))
    except Exception:  # orjson.JSONEncodeError (a TypeError): not plain JSON, or too deep
        return None
    return (tool.name, tool.description, tool.origin.format, tool.strict, *encoded)


def same_definition(a: Tool, b: Tool) -> bool:
    """Whether the analysis reads equal values of ``a`` and ``b``, given equal
    :func:`definition_key` (then key order, JSON types and numbers' spelling agree): the values also
    compare equal in Python, which tells a tuple from a list and NaN from ``null``. False when the
    comparison fails (a value whose ``==`` raises)."""
    try:
        return bool(_read(a) == _read(b)) and type(a.description) is type(b.description)
    except Exception:
        return False
