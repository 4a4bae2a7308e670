"""Rules of the contract family (advertised schema vs runtime, input vs output mode).

They all read the sides of a tool's contract through
:mod:`schemalint.rules.contract._common` and :mod:`schemalint.schema.shapes`, and apply to
every tool whose ``Tool.runtime`` is set (contract manifests, Python models, MCP servers).
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
