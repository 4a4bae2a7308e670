"""Rules of the contract family (see rules/README.md). ``RULES`` lists them in catalog order."""

from __future__ import annotations

from schemalint.rules.base import Rule
from schemalint.rules.contract.sl107_probe_refusal import ProbeRefusal

RULES: tuple[type[Rule], ...] = (ProbeRefusal,)
