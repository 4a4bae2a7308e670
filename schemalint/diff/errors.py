"""The error of a diff or snapshot that cannot be made, and the one-definition-per-name rule.

Kept apart from :mod:`schemalint.commands.diff_compare` (which re-exports both) so that ``snapshot`` and
the loading of a diff's sides import neither the classification nor deepdiff's neighbours.
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool


class DiffError(Exception):
    """A diff that cannot be computed (bad revision, missing path, duplicate tool): exit code 2."""


def index_tools(tools: Iterable[Tool], label: str) -> dict[str, Tool]:
    """Tools by name; raises :class:`DiffError` when two tools of one side share a name."""
    out: dict[str, Tool] = {}
    for tool in tools:
        if tool.name in out:
            first = out[tool.name]
            raise DiffError(
                f"two tools named {tool.name!r} in {label}: {_where(first)} and {_where(tool)}; "
                "a diff (and a snapshot) needs one definition per name"
            )
        out[tool.name] = tool
    return out


def _where(tool: Tool) -> str:
    pointer = tool.origin.pointer or "/"
    line = f" line {tool.origin.line}" if tool.origin.line else ""
    return f"{tool.origin.file}{line} at {pointer}"
