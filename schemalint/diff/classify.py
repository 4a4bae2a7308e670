"""Classify the differences between two advertised schemas into diff checks (SDxxx).

deepdiff finds *where* two normalised schemas differ
(:func:`~schemalint.diff.checks._common.diff_locations`); :class:`SchemaClassifier` resolves
each location to the schema object and the keyword that changed and hands it to the check
module of that keyword (:data:`SCHEMA_CHECKS`, one module per keyword group in
:mod:`schemalint.diff.checks`), which decides what the difference means for a caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import ModuleType
from typing import Any

from schemalint.diff.checks import (
    DiffCheck,
    check,
    sd102_properties,
    sd103_required,
    sd104_type,
    sd105_enum,
    sd106_additional_properties,
    sd107_constraints,
    sd109_subschemas,
    sd111_schema_changed,
    sd210_default,
    sd212_metadata,
    sd301_text,
)
from schemalint.diff.checks._common import (
    MISSING,
    SET_KEYWORDS,
    TEXT_KEYWORDS,
    Site,
    canonical,
    diff_locations,
    is_noop,
    label,
    locate,
    normalise,
    refine,
    resolve,
    same_meaning,
    shape_key,
    small,
)
from schemalint.diff.checks.sd107_constraints import pattern_widens
from schemalint.diff.checks.sd110_output_schema import as_output
from schemalint.diff.result import Change
from schemalint.model import escape_token

__all__ = [
    "MISSING", "SCHEMA_CHECKS", "SET_KEYWORDS", "SchemaClassifier", "canonical", "classify_schema",
    "is_noop", "normalise", "pattern_widens", "same_meaning", "shape_key", "small",
]

SCHEMA_CHECKS: tuple[ModuleType, ...] = (
    sd102_properties,
    sd103_required,
    sd104_type,
    sd105_enum,
    sd107_constraints,
    sd106_additional_properties,
    sd301_text,
    sd210_default,
    sd109_subschemas,
    sd212_metadata,
    sd111_schema_changed,
)
"""The schema check modules, in the order their ``matches(keyword)`` is asked; a keyword no
module claims is a validation keyword compared by :mod:`~schemalint.diff.checks.sd107_constraints`."""


class SchemaClassifier:
    """Classify the differences between two schemas of one tool.

    ``old``/``new``: the two schemas (any JSON values). ``tool``: the tool name for the
    changes. ``old_base``/``new_base``: JSON pointers of the schemas inside the rendered
    tool definitions (``/inputSchema``); ``old_file``/``new_file`` go into the changes.
    ``what``: ``"input"`` or ``"output"`` (output changes are wrapped in SD110).
    """

    def __init__(
        self,
        old: Any,
        new: Any,
        *,
        tool: str,
        old_base: str,
        new_base: str,
        old_file: str | None = None,
        new_file: str | None = None,
        what: str = "input",
        old_prefix: tuple[Any, ...] = (),
        new_prefix: tuple[Any, ...] = (),
    ) -> None:
        self.old, self.new = old, new
        self.old_prefix, self.new_prefix = old_prefix, new_prefix
        self.shifted: dict[tuple[Any, ...], bool] = {}
        self.tool = tool
        self.old_base, self.new_base = old_base, new_base
        self.old_file, self.new_file = old_file, new_file
        self.what = what
        self.changes: list[Change] = []

    def nested(
        self, old: Any, new: Any, *, old_prefix: tuple[Any, ...], new_prefix: tuple[Any, ...]
    ) -> SchemaClassifier:
        """A classifier of the sub-schemas ``old``/``new`` found at ``old_prefix``/``new_prefix``."""
        return SchemaClassifier(
            old,
            new,
            tool=self.tool,
            old_base=self.old_base,
            new_base=self.new_base,
            old_file=self.old_file,
            new_file=self.new_file,
            what=self.what,
            old_prefix=(*self.old_prefix, *old_prefix),
            new_prefix=(*self.new_prefix, *new_prefix),
        )

    def label(self, tokens: Iterable[Any]) -> str:
        """Readable name of a schema position (see :func:`~schemalint.diff.checks._common.label`)."""
        return label((*self.new_prefix, *tokens))

    def emit(
        self,
        name: str,
        tokens: Iterable[Any],
        message: str,
        *,
        side: str = "new",
        hint: str | None = None,
        before: Any = MISSING,
        after: Any = MISSING,
    ) -> None:
        """Record one change of check ``name`` at schema position ``tokens`` of the ``side`` schema."""
        chk: DiffCheck = check(name)
        if self.what == "output":
            chk, message = as_output(chk, message)
        base, prefix = (self.new_base, self.new_prefix) if side == "new" else (self.old_base, self.old_prefix)
        self.changes.append(
            Change(
                check=chk,
                tool=self.tool,
                pointer=base + "".join("/" + escape_token(t) for t in (*prefix, *tokens)),
                message=message,
                hint=hint,
                file=self.new_file if side == "new" else self.old_file,
                before=small(before),
                after=small(after),
            )
        )

    def run(self) -> list[Change]:
        """Classify every difference; returns the changes (also kept in ``self.changes``)."""
        seen: set[tuple[Any, ...]] = set()
        paths = [
            fine
            for coarse in diff_locations(self.old, self.new)
            for fine in refine(self.old, self.new, coarse)
        ]
        for path in paths:
            tokens, keyword, sub = locate(path)
            if keyword in SET_KEYWORDS or keyword in ("properties", "nullable"):
                key: tuple[Any, ...] = (tokens, "type" if keyword == "nullable" else keyword)
            else:
                key = (tokens, keyword, sub)
            if key in seen:
                continue
            seen.add(key)
            self.classify(tokens, keyword, sub)
        return self.changes

    def classify(self, tokens: tuple[Any, ...], keyword: str | None, sub: Any) -> None:
        """Classify the change of ``keyword`` (``sub``) in the schema at ``tokens``."""
        old_s, new_s = resolve(self.old, tokens), resolve(self.new, tokens)
        if (
            keyword not in TEXT_KEYWORDS
            and keyword != "default"
            and sd109_subschemas.union_shift(self, tokens, old_s, new_s)
        ):
            return
        if keyword is None:
            sd111_schema_changed.replaced(self, tokens, old_s, new_s)
            return
        old_v = old_s.get(keyword, MISSING) if isinstance(old_s, Mapping) else MISSING
        new_v = new_s.get(keyword, MISSING) if isinstance(new_s, Mapping) else MISSING
        site = Site(self, tokens, keyword, sub, old_s, new_s, old_v, new_v)
        module = next((m for m in SCHEMA_CHECKS if m.matches(keyword)), sd107_constraints)
        module.check(site)


def classify_schema(old: Any, new: Any, **kwargs: Any) -> list[Change]:
    """Classify every difference between schemas ``old`` and ``new``; see :class:`SchemaClassifier`."""
    return SchemaClassifier(old, new, **kwargs).run()
