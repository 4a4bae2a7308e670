"""SL007 missing-description: a tool without a description.

The description is most of what a model knows about when and how to call a tool; a
tool that has none (absent, ``null``, empty or whitespace only) is called by guessing
from its name. Property descriptions are not checked (too noisy to be useful: many
well-named parameters need none).

Severity warning: providers accept a missing description (OpenAI and Anthropic mark it
optional), except Bedrock, which refuses an empty string, and the Gemini API v1beta
reference, which marks it "Required".

Source: rules/SL007-missing-description.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule


class MissingDescription(Rule):
    """The tool has no description, or only whitespace.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        if tool.description is not None and tool.description.strip():
            return
        present = "description" in tool.fields
        what = "an empty description" if present else "no description"
        yield self.diag(
            tool, None,
            f"tool {tool.name!r} has {what}; the model has only the name to decide when to call it and "
            "what to pass (Bedrock refuses an empty description)",
            hint="describe what the tool does, when to use it and what it returns, in one to three sentences",
            file_pointer=tool.field_pointer("description") if present else tool.field_pointer(),
        )
