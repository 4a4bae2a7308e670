"""SL302 description-too-long: the tool description exceeds OpenAI's observed 1024-character limit.

A warning: the limit is UNCONFIRMED today. Option ``max_length``.

Source: rules/SL302-description-too-long.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from schemalint.model import Tool
from schemalint.provider_facts import value
from schemalint.rules.base import Context
from schemalint.rules.provider._common import ProfileFault, ProviderRule, W


class DescriptionTooLong(ProviderRule):
    """The tool description is longer than OpenAI has been seen to accept."""

    severity = W

    facts = ("openai.description-max-length",)

    options: ClassVar[Mapping[str, Any]] = {
        "max_length": value("openai.description-max-length"),
    }

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        limit = int(self.option(ctx, "max_length"))
        desc = tool.description
        if desc is None or len(desc) <= limit:
            return
        for target in targets:
            yield ProfileFault(
                target,
                W,
                None,
                "desc",
                f"the description is {len(desc)} characters long; OpenAI has answered 400 "
                f"'Expected a string with maximum length {limit}' for such tools, failing the whole request",
                f"shorten the description to at most {limit} characters and move per-parameter detail "
                "into the parameters' own descriptions",
                file_pointer=tool.field_pointer("description"),
            )
