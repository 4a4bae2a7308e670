"""SL000 unreadable-source: a file that cannot be decoded or parsed.

Emitted by the loader (:func:`schemalint.api.problem_diagnostic`), not by a hook,
because an unreadable file has no tools to check.

Source: rules/SL000-unreadable-source.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import Rule


class UnreadableSource(Rule):
    """A source file that is not valid UTF-8 JSON, JSON Lines or YAML (RFC 8259, YAML 1.1)."""

    severity = Severity.ERROR
