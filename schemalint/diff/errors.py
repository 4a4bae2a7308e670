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
    """Tools by key: the tool's name, or ``"NAME (FILE)"`` when several files of one side define
    a tool of that name.

    A project keeps one tool in several files (the same tool in OpenAI and Anthropic form, an
    example beside a fixture): each file's definition is then its own entry, paired with the
    same file's on the other side (``FILE`` is the path without the side's ``REV:`` prefix, so
    ``HEAD:tools/a.json`` pairs with ``tools/a.json``). Raises :class:`DiffError` only when one
    file defines two different tools of one name (SL005's fault), which no key can tell apart;
    the same definition again in one file (recorded requests repeat their tools) is one tool.
    """
    distinct: list[Tool] = []
    firsts: dict[tuple[str, str], list[Tool]] = {}
    for tool in tools:  # the same definition again in one file (recorded traffic) is one tool
        same_file = firsts.setdefault((tool.name, side_file(tool, label)), [])
        if any(_same_definition(t, tool) for t in same_file):
            continue
        same_file.append(tool)
        distinct.append(tool)
    tools = distinct
    seen: dict[str, Tool] = {}
    repeated: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            repeated.add(tool.name)
        seen[tool.name] = tool
    if not repeated:
        return {tool.name: tool for tool in tools}
    out: dict[str, Tool] = {}
    for tool in tools:
        key = tool.name if tool.name not in repeated else f"{tool.name} ({side_file(tool, label)})"
        if key in out:
            first = out[key]
            if _same_definition(first, tool):
                continue  # recorded traffic declares a tool again in every request: one definition
            raise DiffError(
                f"two tools named {tool.name!r} in {label}: {_where(first)} and {_where(tool)}; "
                "a diff (and a snapshot) needs one definition per name in a file"
            )
        out[key] = tool
    return out


def _same_definition(a: Tool, b: Tool) -> bool:
    return a.advertised == b.advertised and a.description == b.description and a.output_schema == b.output_schema


def side_file(tool: Tool, label: str) -> str:
    """The file of ``tool`` without its side's ``REV:`` prefix (``HEAD:a.json`` -> ``a.json``)."""
    file = tool.origin.file
    for prefix in {f"{part.strip()}:" for part in label.split(",")} | {f"{label}:"}:
        if file.startswith(prefix):
            return file[len(prefix):]
    return file


def _where(tool: Tool) -> str:
    pointer = tool.origin.pointer or "/"
    line = f" line {tool.origin.line}" if tool.origin.line else ""
    return f"{tool.origin.file}{line} at {pointer}"
