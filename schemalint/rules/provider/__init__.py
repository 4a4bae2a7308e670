"""Rules of the provider family (SL3xx, see rules/README.md and docs/targets.md).

Each rule belongs to one or more target profiles (:mod:`schemalint.targets`) and runs per
tool for the profiles that tool is checked against. ``RULES`` lists them in catalog order.
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
    from schemalint.rules.provider.sl301_tool_name_pattern import ToolNamePattern
    from schemalint.rules.provider.sl302_description_too_long import DescriptionTooLong
    from schemalint.rules.provider.sl303_empty_description import EmptyDescription
    from schemalint.rules.provider.sl304_root_not_object import ProviderRootNotObject
    from schemalint.rules.provider.sl305_root_composition import RootComposition
    from schemalint.rules.provider.sl306_object_without_properties import ObjectWithoutProperties
    from schemalint.rules.provider.sl307_strict_additional_properties import StrictAdditionalProperties
    from schemalint.rules.provider.sl308_strict_required_all import StrictRequiredAllProperties
    from schemalint.rules.provider.sl309_array_without_items import ArrayWithoutItems
    from schemalint.rules.provider.sl310_untyped_parameter import UntypedParameter
    from schemalint.rules.provider.sl311_openai_strict_unsupported_keyword import OpenAIStrictUnsupportedKeyword
    from schemalint.rules.provider.sl312_anthropic_strict_unsupported_keyword import (
        AnthropicStrictUnsupportedKeyword,
    )
    from schemalint.rules.provider.sl313_gemini_unsupported_keyword import GeminiUnsupportedKeyword
    from schemalint.rules.provider.sl314_gemini_invalid_type import GeminiInvalidType
    from schemalint.rules.provider.sl315_gemini_json_unsupported_keyword import GeminiJsonUnsupportedKeyword
    from schemalint.rules.provider.sl316_ref_with_siblings import RefWithSiblings
    from schemalint.rules.provider.sl317_recursive_schema import RecursiveSchema
    from schemalint.rules.provider.sl318_nesting_depth import NestingDepth
    from schemalint.rules.provider.sl319_strict_schema_size import StrictSchemaSize
    from schemalint.rules.provider.sl320_strict_budget import StrictBudget
    from schemalint.rules.provider.sl321_tool_count import TooManyTools
    from schemalint.rules.provider.sl322_name_collision import NameCollision
    from schemalint.rules.provider.sl323_bedrock_strict_unsupported_keyword import BedrockStrictUnsupportedKeyword
    from schemalint.rules.provider.sl324_ollama_dropped_keyword import OllamaDroppedKeyword

    return (
        ToolNamePattern,
        DescriptionTooLong,
        EmptyDescription,
        ProviderRootNotObject,
        RootComposition,
        ObjectWithoutProperties,
        StrictAdditionalProperties,
        StrictRequiredAllProperties,
        ArrayWithoutItems,
        UntypedParameter,
        OpenAIStrictUnsupportedKeyword,
        AnthropicStrictUnsupportedKeyword,
        GeminiUnsupportedKeyword,
        GeminiInvalidType,
        GeminiJsonUnsupportedKeyword,
        RefWithSiblings,
        RecursiveSchema,
        NestingDepth,
        StrictSchemaSize,
        StrictBudget,
        TooManyTools,
        NameCollision,
        BedrockStrictUnsupportedKeyword,
        OllamaDroppedKeyword,
    )


def __getattr__(name: str) -> object:
    if name == "RULES":
        rules = _rules()
        globals()["RULES"] = rules
        return rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
