"""What the active rules let the engine skip or keep together, computed from their declarations
(:attr:`~schemalint.rules.base.Rule.file_screen`, :attr:`~schemalint.rules.base.Rule.catalog_from_tools`
with :meth:`~schemalint.rules.base.Rule.whole_files`): the engine names no rule. Used by the per-file
pipeline (:mod:`schemalint.engine.pipeline`) and by the workers that cut a catalog
(:mod:`schemalint.engine.parallel`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.model import Tool
    from schemalint.rules.base import FileScreen, Rule
    from schemalint.rules.facts import CatalogFacts


def file_screens(active: Iterable[Rule]) -> tuple[FileScreen, ...]:
    """The distinct file screens the ``active`` rules declare (:attr:`Rule.file_screen`)."""
    return tuple(dict.fromkeys(r.file_screen for r in active if r.file_screen is not None))


def screen(screens: Sequence[FileScreen], texts: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Per screen (by name), the paths of ``texts`` (path -> the file's text) it clears
    (:attr:`Context.cleared_files`): one scan of each text per screen."""
    return {s.name: frozenset(path for path, text in texts.items() if not s.may_hold(text)) for s in screens}


def whole_files(active: Iterable[Rule], tools: Sequence[Tool] = (),
                facts: CatalogFacts | None = None) -> Collection[str] | None:
    """The files whose tools one process must check together, because a per-file summary of an
    active rule (:attr:`Rule.catalog_from_tools`) needs all of them (:meth:`Rule.whole_files` of
    ``tools`` or of the gathered ``facts``); ``None``: every file."""
    out: set[str] = set()
    for rule in active:
        if rule.catalog_from_tools:
            files = rule.whole_files(tools, facts)
            if files is None:
                return None
            out.update(files)
    return out
