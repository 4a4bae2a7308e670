"""The tools a record declares, found with the tool loaders (no dialect parsing of its own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.model import Tool


def declared_tools(request: Mapping[str, Any], file: str, line: int | None, base: str,
                   key: str = "tools") -> list[Tool]:
    """The tool definitions under ``request[key]`` (a request's ``tools``, legacy ``functions``, a
    ``tools/list`` result's ``tools``), found by :func:`schemalint.loaders.formats.json_tools.find_tools`
    with pointers into the record's document (``base`` is the pointer of ``request``)."""
    from schemalint.loaders.formats.json_tools import find_tools

    if key not in request:
        return []
    return list(find_tools({key: request[key]}, file, line, base))
