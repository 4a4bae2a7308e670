"""Rules from other packages: the ``schemalint.rules`` entry point group (docs/plugins.md).

A plugin distribution declares, in its ``pyproject.toml``::

    [project.entry-points."schemalint.rules"]
    acme = "acme_schemalint.catalog:CATALOG"

where ``CATALOG`` is a sequence of :class:`~schemalint.rules.catalog.RuleEntry` rows, exactly as
schemalint's own catalog writes them (code, name, targets, ``"module:Class"``; a
:class:`~schemalint.rules.base.Rule` subclass per row, its page ``<CODE>-<name>.md`` beside the
rule's module). The rows are appended to :data:`schemalint.rules.catalog.CATALOG`, so selection,
severity overrides, options, pages, SARIF, baselines and ``--jobs`` treat them as built-in rules;
like those, a rule module is imported only when a run can use it.

Reading the group costs one scan of the installed distributions' metadata at the first use of
the catalog. A plugin that cannot be loaded, a row that is no ``RuleEntry``, a code schemalint
reserves (``SL``, ``SD``) or one already taken is a :class:`PluginError` naming the entry point
and its distribution (exit 2 from the CLI): a rule set that silently went missing would pass CI.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.rules.catalog import RuleEntry

GROUP = "schemalint.rules"
"""The entry point group plugins declare their catalogs in."""

RESERVED_PREFIXES = ("SL", "SD")
"""Code prefixes of schemalint's own rules and diff checks; a plugin's codes use another."""

CODE = re.compile(r"^[A-Z][A-Z0-9]*[0-9]$")
NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

DISABLE_ENV = "SCHEMALINT_NO_PLUGINS"
"""Set (to anything but ``""``/``0``) to ignore every plugin: schemalint's own rules only."""


class PluginError(Exception):
    """A plugin's catalog cannot be used (see the module docstring); the message names the entry
    point, its distribution and what is wrong."""


def _where(ep: object) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) or "?"
    version = getattr(dist, "version", None) or "?"
    return f"plugin {getattr(ep, 'name', '?')!r} ({getattr(ep, 'value', '?')}, distribution {name} {version})"


def plugin_entries(taken: Iterable[str], row_type: type[RuleEntry]) -> tuple[RuleEntry, ...]:
    """The catalog rows every installed plugin declares, in entry point name order, checked.

    ``taken``: the codes and names already in the catalog (schemalint's); ``row_type``:
    :class:`~schemalint.rules.catalog.RuleEntry` (given by the catalog, which imports this module:
    no import circle). Raises :class:`PluginError` as the module docstring says."""
    import os

    if os.environ.get(DISABLE_ENV, "") not in ("", "0") or not _may_be_declared(GROUP):
        return ()
    from importlib.metadata import entry_points

    seen = set(taken)
    out: list[RuleEntry] = []
    for ep in sorted(entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        try:
            rows = ep.load()
        except Exception as exc:  # a plugin's import error is its own: name it, do not crash on it
            raise PluginError(f"{_where(ep)} cannot be loaded: {type(exc).__name__}: {exc}") from None
        if isinstance(rows, row_type) or not isinstance(rows, (list, tuple)):
            raise PluginError(f"{_where(ep)} names {type(rows).__name__}, not a list or tuple of RuleEntry rows")
        for row in rows:
            out.append(_checked(row, ep, seen, row_type))
    return tuple(out)


def _may_be_declared(group: str) -> bool:
    """False only when no installed distribution can declare an entry point in ``group``: no
    ``entry_points.txt`` of a ``*.dist-info`` or ``*.egg-info`` directory on ``sys.path`` names it,
    and nothing else can hold distributions (a zip file on the path, an import hook that finds
    distributions); then reading the group would find nothing. True sends the question to
    ``importlib.metadata``, whose import and scan of every distribution's metadata were a sixth of
    the CPU time of ``schemalint check`` on one small file."""
    import os
    import sys
    from importlib.machinery import PathFinder

    if any(finder is not PathFinder and hasattr(finder, "find_distributions") for finder in sys.meta_path):
        return True
    needle = group.encode()
    for entry in sys.path:
        folder = entry or "."
        try:
            names = os.listdir(folder)
        except NotADirectoryError:
            return True  # a zip file (or an egg) on the path: importlib.metadata reads it
        except OSError:
            continue
        for name in names:
            if name.lower().endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(folder, name, "entry_points.txt"), "rb") as fh:
                        if needle in fh.read():
                            return True
                except OSError:
                    continue
    return False


def _checked(row: object, ep: object, seen: set[str], row_type: type[RuleEntry]) -> RuleEntry:
    if not isinstance(row, row_type):
        raise PluginError(f"{_where(ep)}: {row!r} is not a schemalint.rules.catalog.RuleEntry")
    if not CODE.match(row.code) or row.code.startswith(RESERVED_PREFIXES):
        raise PluginError(f"{_where(ep)}: rule code {row.code!r} must be capital letters then digits (ACME101), "
                          f"not starting with {' or '.join(RESERVED_PREFIXES)} (schemalint's own)")
    if not NAME.match(row.name):
        raise PluginError(f"{_where(ep)}: rule name {row.name!r} must be lower-case words joined by '-'")
    if row.traffic:
        raise PluginError(f"{_where(ep)}: {row.code}: plugin rules check tool definitions (traffic=False)")
    for key in (row.code, row.name):
        if key in seen:
            raise PluginError(f"{_where(ep)}: {key!r} is already the code or name of another rule")
        seen.add(key)
    if ":" not in row.path:
        raise PluginError(f"{_where(ep)}: {row.code}: path {row.path!r} is not 'module:Class'")
    return row
