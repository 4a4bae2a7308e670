"""SL303 empty-description: Bedrock refuses an empty description string.

Source: rules/SL303-empty-description.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule


class EmptyDescription(ProviderRule):
    """A description that is present but empty, which Bedrock's length constraint refuses."""

    severity = E

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        if tool.description != "":
            return
        for target in targets:
            yield ProfileFault(
                target,
                E,
                None,
                "desc",
                "the description is an empty string; Bedrock refuses the request with a validation "
                "error (description must have length >= 1)",
                "write a one-sentence description of what the tool does, or leave the key out",
                file_pointer=tool.field_pointer("description"),
            )
