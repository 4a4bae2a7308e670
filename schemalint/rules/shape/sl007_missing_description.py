"""SL007 missing-description: a tool without a description.

The description is most of what a model knows about when and how to call a tool; a
tool that has none (absent, ``null``, empty or whitespace only) is called by guessing
from its name. A description that is not text (a number, a list, YAML ``!!binary`` data) is
reported too, named as what it is: the loaders read it as none (binary data as its base64 text).
Property descriptions are not checked (too noisy to be useful: many well-named parameters need
none).

Severity warning: providers accept a missing description (OpenAI and Anthropic mark it
optional), except Bedrock, which refuses an empty string, and the Gemini API v1beta
reference, which marks it "Required". Binary data is an error: a JSON encoder refuses it (RFC 8259
has no binary type), so the tool cannot be sent as written.

Source: rules/SL007-missing-description.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.schema.nonjson import YamlBinary, describe


class MissingDescription(Rule):
    """The tool has no description, or only whitespace.
    """

    severity = Severity.WARNING
    per_definition = True  # findings depend on the tool's definition alone (Rule.per_definition)

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        if isinstance(tool.description, YamlBinary):
            yield self.diag(
                tool, None,
                f"tool {tool.name!r} has a description that is {describe(tool.description)}, not text: the "
                "model would be shown its base64 text, and a JSON encoder refuses it",
                hint="write the description as plain text (without the !!binary tag)", severity=Severity.ERROR,
                file_pointer=tool.field_pointer("description"),
            )
            return
        if tool.description is not None and tool.description.strip():
            return
        present = "description" in tool.fields
        raw = tool.fields.get("description") if present else None
        if not present:
            what = "no description"
        elif raw is None or isinstance(raw, str):
            what = "an empty description"
        else:
            what = f"a description that is not text ({_kind(raw)}), which is read as none"
        yield self.diag(
            tool, None,
            f"tool {tool.name!r} has {what}; the model has only the name to decide when to call it and "
            "what to pass (Bedrock refuses an empty description)",
            hint="describe what the tool does, when to use it and what it returns, in one to three sentences",
            file_pointer=tool.field_pointer("description") if present else tool.field_pointer(),
        )


def _kind(value: object) -> str:
    """What a non-string description is, in a reader's words: ``the number 5``, ``binary data,
    YAML !!binary``, ``a list``, ``an object``."""
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, (bytes, bytearray)):
        return "binary data, YAML !!binary"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return f"a {type(value).__name__} value"
