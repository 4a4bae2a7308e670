"""Traffic rules (SL4xx): recorded requests, transcripts and MCP logs (docs/traffic.md).

Request rules read one conversation's shape (every call names a declared tool, every result
pairs with a call, every call is answered before the conversation goes on, no call id twice, the
traffic's tools are the project's); replay rules check each recorded call against the advertised
schema, the runtime contract and its recorded result. They run in ``schemalint replay``
(:mod:`schemalint.commands.replay`), never in ``check`` (``RuleEntry.traffic``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from schemalint.rules.catalog import family_getattr

if TYPE_CHECKING:
    from schemalint.rules.base import Rule

RULES: tuple[type[Rule], ...]
"""The family's rule classes in catalog order, read from :data:`schemalint.rules.catalog.CATALOG`
on first access."""

__getattr__ = family_getattr(__name__)
