"""The error of a diff or snapshot that cannot be made, and the one-definition-per-name rule.

Kept apart from :mod:`schemalint.commands.diff_compare` (which re-exports both) so that ``snapshot`` and
the loading of a diff's sides import neither the classification nor deepdiff's neighbours.
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool


class DiffError(Exception):
    """A diff that cannot be computed (bad revision, missing path, duplicate tool): exit code 2."""


def _groups(tools: Iterable[Tool], label: str) -> dict[str, list[Tool]]:
    """The distinct definitions of each key, in the order read: the key is the tool's name, or
    ``"NAME (FILE)"`` when several files of the side define that name. The same definition again
    in one file (recorded requests repeat their tools) is one definition."""
    distinct: list[Tool] = []
    firsts: dict[tuple[str, str], list[Tool]] = {}
    files: dict[str, set[str]] = {}
    for tool in tools:
        file = side_file(tool, label)
        same_file = firsts.setdefault((tool.name, file), [])
        if any(_same_definition(t, tool) for t in same_file):
            continue
        same_file.append(tool)
        distinct.append(tool)
        files.setdefault(tool.name, set()).add(file)
    out: dict[str, list[Tool]] = {}
    for tool in distinct:
        key = tool.name if len(files[tool.name]) == 1 else f"{tool.name} ({side_file(tool, label)})"
        out.setdefault(key, []).append(tool)
    return out


def index_tools(tools: Iterable[Tool], label: str) -> dict[str, Tool]:
    """Tools by key: the tool's name, or ``"NAME (FILE)"`` when several files of one side define
    a tool of that name.

    A project keeps one tool in several files (the same tool in OpenAI and Anthropic form, an
    example beside a fixture): each file's definition is then its own entry, paired with the
    same file's on the other side (``FILE`` is the path without the side's ``REV:`` prefix, so
    ``HEAD:tools/a.json`` pairs with ``tools/a.json``). Raises :class:`DiffError` when one
    file defines two different tools of one name (SL005's fault, or a dataset's variants), which
    no key of one side can tell apart (``snapshot``; ``diff`` pairs them, :func:`index_sides`);
    the same definition again in one file (recorded requests repeat their tools) is one tool.
    """
    out: dict[str, Tool] = {}
    for key, defined in _groups(tools, label).items():
        if len(defined) > 1:
            raise DiffError(
                f"two tools named {defined[1].name!r} in {label}: {_where(defined[0])} and {_where(defined[1])}; "
                "a snapshot needs one definition per name in a file"
            )
        out[key] = defined[0]
    return out


def index_sides(old: Iterable[Tool], new: Iterable[Tool], old_label: str,
                new_label: str) -> tuple[dict[str, Tool], dict[str, Tool]]:
    """The two sides of a diff by key, keyed as :func:`index_tools` keys them, and paired where a
    file defines several different tools of one name (a dataset's variants of a function:
    BFCL repeats ``magnetic_field.calculate`` with other descriptions in other questions): a
    definition the other side has unchanged pairs with it first, the others pair in the order
    the file lists them; each then has the key ``"KEY #k"`` (``k``: its place among the old
    side's definitions of the key, from 1; a new side's extra definitions continue the count and
    are added, the old side's left over are removed). Never raises."""
    old_groups, new_groups = _groups(old, old_label), _groups(new, new_label)
    old_by: dict[str, Tool] = {}
    new_by: dict[str, Tool] = {}
    for key in [*old_groups, *(k for k in new_groups if k not in old_groups)]:
        olds, news = old_groups.get(key, []), new_groups.get(key, [])
        if len(olds) <= 1 and len(news) <= 1:
            if olds:
                old_by[key] = olds[0]
            if news:
                new_by[key] = news[0]
            continue
        partner: dict[int, int] = {}
        taken: set[int] = set()
        for i, o in enumerate(olds):  # unchanged definitions first
            j = next((j for j, n in enumerate(news) if j not in taken and _same_definition(o, n)), None)
            if j is not None:
                partner[i] = j
                taken.add(j)
        rest = iter(j for j in range(len(news)) if j not in taken)
        for i in range(len(olds)):  # then the others in the file's order
            if i not in partner:
                j = next(rest, None)
                if j is None:
                    break
                partner[i] = j
                taken.add(j)
        for i, o in enumerate(olds):
            old_by[f"{key} #{i + 1}"] = o
            if i in partner:
                new_by[f"{key} #{i + 1}"] = news[partner[i]]
        extra = [j for j in range(len(news)) if j not in taken]
        for k, j in enumerate(extra, start=len(olds) + 1):
            new_by[f"{key} #{k}"] = news[j]
    return old_by, new_by


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
