"""Shape rules (SL0xx): is each tool definition well formed? ``RULES`` in catalog order."""

from __future__ import annotations

from schemalint.rules.base import Rule
from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource

RULES: tuple[type[Rule], ...] = (UnreadableSource,)
