"""Rules of the contract family (advertised schema vs runtime, input vs output mode).

``RULES`` lists them in catalog order. They all read the sides of a tool's contract through
:mod:`schemalint.rules.contract._common` and :mod:`schemalint.schema.shapes`, and apply to
every tool whose ``Tool.runtime`` is set (contract manifests, Python models, MCP servers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from schemalint.rules.base import Rule

RULES: tuple[type[Rule], ...]
"""The rule classes in catalog order, imported on first access (module ``__getattr__``) so that
importing one rule module does not import the whole family; :mod:`schemalint.rules.catalog`
lists them statically too (a test keeps both equal)."""


def _rules() -> tuple[type[Rule], ...]:
    from schemalint.rules.contract.sl101_required_drift import RequiredDrift
    from schemalint.rules.contract.sl102_hidden_parameter import HiddenParameter
    from schemalint.rules.contract.sl103_phantom_parameter import PhantomParameter
    from schemalint.rules.contract.sl104_type_drift import TypeDrift
    from schemalint.rules.contract.sl105_mode_drift import ModeDrift
    from schemalint.rules.contract.sl106_additional_properties_drift import AdditionalPropertiesDrift
    from schemalint.rules.contract.sl107_probe_refusal import ProbeRefusal
    from schemalint.rules.contract.sl108_constraint_drift import ConstraintDrift
    from schemalint.rules.contract.sl109_advertised_output_mode import AdvertisedOutputMode

    return (
        RequiredDrift,
        HiddenParameter,
        PhantomParameter,
        TypeDrift,
        ModeDrift,
        AdditionalPropertiesDrift,
        ProbeRefusal,
        ConstraintDrift,
        AdvertisedOutputMode,
    )


def __getattr__(name: str) -> object:
    if name == "RULES":
        rules = _rules()
        globals()["RULES"] = rules
        return rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
