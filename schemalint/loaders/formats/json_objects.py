"""Recognizer for Python values that hold tool definitions as plain data.

Many projects keep their tools as Python literals (``TOOLS = [{"type": "function", ...}]``)
and pass them to an SDK as they are. Such a dict is read exactly like a JSON document:
tools are found by shape (:func:`schemalint.loaders.formats.json_tools.find_tools`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from schemalint.loaders.formats.json_tools import find_tools
from schemalint.model import Tool


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """The tools inside the dict ``obj`` (round-tripped through JSON, as an SDK would send it),
    or ``None`` when ``obj`` is not a dict or holds no tool definition."""
    if not isinstance(obj, Mapping):
        return None
    try:
        value = json.loads(json.dumps(obj, default=str))
    except (TypeError, ValueError, RecursionError):
        return None
    tools = list(find_tools(value, source))
    return tools or None
