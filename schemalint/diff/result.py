"""Value types of a diff: one :class:`Change` per classified difference, grouped per tool."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from schemalint.diff.checks import KINDS, SECURITY, DiffCheck
from schemalint.model import MISSING, Severity, Tool

STATUSES = ("identical", "same-meaning", "changed", "added", "removed")
"""Per-tool status: identical bytes, same meaning / different bytes, changed meaning, added, removed."""

ABSENT: Any = MISSING
"""The value of a key that one side of a change does not have (a keyword added or removed, a tool added
or removed): a :class:`Change`'s ``before``/``after`` is ``ABSENT`` then, and its JSON leaves the key out."""

FAIL_LEVELS = ("breaking", "meaning", "bytes", "never")
"""``--fail-on`` levels: a breaking change; any change of meaning; any byte; nothing."""


@dataclass(frozen=True)
class Change:
    """One classified difference.

    ``pointer`` is an RFC 6901 pointer into the tool definition as rendered (e.g.
    ``/inputSchema/properties/owner``); it points into the *new* definition, or the old
    one for something removed: ``side`` (``"new"``/``"old"``) says which, and the pointer
    exists in that side's rendering. ``before``/``after`` hold the values compared when they
    are small enough to show (``None`` otherwise), :data:`ABSENT` for a side that does not have
    the key (its JSON then has no ``before``/``after``). ``file`` is the file of the side the
    pointer points into.
    """

    check: DiffCheck
    tool: str
    pointer: str
    message: str
    hint: str | None = None
    file: str | None = None
    before: Any = None
    after: Any = None
    side: str = "new"

    @property
    def kind(self) -> str:
        """``breaking``, ``compatible``, ``description``, ``bytes`` or ``security``."""
        return self.check.kind

    @property
    def code(self) -> str:
        """The check's code (``SD103``)."""
        return self.check.code

    @property
    def severity(self) -> Severity:
        """The check's severity (the configured one once :mod:`schemalint.commands.diff_selection` applied it)."""
        return self.check.severity

    def to_json(self) -> dict[str, Any]:
        """The change as a JSON-ready dict (the ``changes`` entries of the JSON report); ``before``/
        ``after`` are left out for a side that does not have the key (:data:`ABSENT`)."""
        out = {
            "code": self.check.code,
            "name": self.check.name,
            "severity": self.check.severity.value,
            "kind": self.check.kind,
            "tool": self.tool,
            "file": self.file,
            "pointer": self.pointer,
            "message": self.message,
            "hint": self.hint,
            "before": self.before,
            "after": self.after,
        }
        for key in ("before", "after"):
            if out[key] is ABSENT:
                del out[key]
        return out


@dataclass
class ToolDiff:
    """The comparison of one tool name across the two sides; ``status`` is one of :data:`STATUSES`."""

    name: str
    status: str
    old: Tool | None = None
    new: Tool | None = None
    changes: list[Change] = field(default_factory=list)
    ignored: int = 0
    """How many of its changes the selection (``select``/``ignore``/suppressions) left out."""

    @property
    def reported(self) -> bool:
        """False for an identical tool and for one whose every change was left out by the selection."""
        return self.status != "identical" and bool(self.changes or not self.ignored)

    def to_json(self) -> dict[str, Any]:
        """``{"tool", "status", "old_file", "new_file", "changes": [...]}``."""
        return {
            "tool": self.name,
            "status": self.status,
            "old_file": self.old.origin.file if self.old else None,
            "new_file": self.new.origin.file if self.new else None,
            "changes": [c.to_json() for c in self.changes],
        }


@dataclass
class DiffResult:
    """Everything ``schemalint diff`` reports: per-tool diffs (sorted by name) and notes."""

    old_label: str
    new_label: str
    tools: list[ToolDiff] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def changes(self) -> list[Change]:
        """Every change of every tool, in tool order."""
        return [c for t in self.tools for c in t.changes]

    def counts_by_status(self) -> dict[str, int]:
        """Number of tools per status (every status present, zeros included)."""
        counts = Counter(t.status for t in self.tools)
        return {s: counts.get(s, 0) for s in STATUSES}

    def counts_by_check(self) -> dict[str, int]:
        """Number of changes per ``"SDxxx name"``, sorted by code."""
        counts = Counter(f"{c.check.code} {c.check.name}" for c in self.changes)
        return dict(sorted(counts.items()))

    def counts_by_kind(self) -> dict[str, int]:
        """Number of changes per kind (every kind present, zeros included)."""
        counts = Counter(c.kind for c in self.changes)
        out = {k: counts.get(k, 0) for k in KINDS}
        if counts.get(SECURITY):
            out[SECURITY] = counts[SECURITY]
        return out

    def fails(self, level: str) -> bool:
        """True when a difference at or above ``level`` (one of :data:`FAIL_LEVELS`) exists.

        ``breaking``: a change at severity ``error`` (by default exactly the breaking kind; also a
        check re-graded to error, and SD401 when selected). ``meaning``/``bytes``: a tool changed
        in meaning / in bytes, unless the selection left out every change of it.
        """
        if level == "never":
            return False
        if level == "breaking":
            return any(c.severity is Severity.ERROR for c in self.changes)
        if level == "meaning":
            return any(t.status in ("changed", "added", "removed") and t.reported for t in self.tools)
        if level == "bytes":
            return any(t.reported for t in self.tools)
        raise ValueError(f"unknown --fail-on level {level!r}")

    def summary(self) -> dict[str, Any]:
        """The ``summary`` object of the JSON report."""
        return {
            "old": self.old_label,
            "new": self.new_label,
            "tools": len(self.tools),
            "by_status": self.counts_by_status(),
            "by_kind": self.counts_by_kind(),
            "by_check": self.counts_by_check(),
            "notes": list(self.notes),
        }

    def to_json(self) -> dict[str, Any]:
        """``{"version": 1, "tools": [...], "changes": [...], "summary": {...}}``."""
        return {
            "version": 1,
            "tools": [t.to_json() for t in self.tools],
            "changes": [c.to_json() for c in self.changes],
            "summary": self.summary(),
        }
