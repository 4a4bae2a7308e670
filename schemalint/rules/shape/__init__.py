"""Shape rules (SL0xx): is each tool definition well formed? ``RULES`` in catalog order."""

from __future__ import annotations

from schemalint.rules.base import Rule
from schemalint.rules.shape.sl000_unreadable_source import UnreadableSource
from schemalint.rules.shape.sl001_invalid_schema import InvalidSchema
from schemalint.rules.shape.sl002_root_not_object import RootNotObject
from schemalint.rules.shape.sl003_required_not_in_properties import RequiredNotInProperties
from schemalint.rules.shape.sl004_unresolvable_ref import UnresolvableRef
from schemalint.rules.shape.sl005_duplicate_tool_name import DuplicateToolName
from schemalint.rules.shape.sl006_invalid_tool_name import InvalidToolName
from schemalint.rules.shape.sl007_missing_description import MissingDescription

RULES: tuple[type[Rule], ...] = (
    UnreadableSource,
    InvalidSchema,
    RootNotObject,
    RequiredNotInProperties,
    UnresolvableRef,
    DuplicateToolName,
    InvalidToolName,
    MissingDescription,
)
