"""``arglist`` and ``json`` mentions from examples: ``this_tool(a=1)`` calls and JSON argument objects."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from schemalint.rules.description.mentions.found import Found
from schemalint.rules.description.mentions.patterns import _OUTPUT_WORDS, _RE_JSON_OBJ, _RE_KWARG, IDENT


def call_examples(text: str, found: Found) -> None:
    """Keyword arguments of call examples of this very tool, also inside code fences:
    ``this_tool(a=1, b="x")`` (at most 20 calls, 2,000 characters each)."""
    tool_name = found.tool_name
    at = text.find(tool_name)
    calls = 0
    while at != -1 and calls < 20:
        open_at = at + len(tool_name)
        while open_at < len(text) and text[open_at] in " \t":
            open_at += 1
        before = text[at - 1] if at else " "
        if open_at < len(text) and text[open_at] == "(" and not (before.isalnum() or before in "_."):
            depth, i = 1, open_at + 1
            calls += 1
            while i < len(text) and depth and i - open_at < 2000:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            base = open_at + 1
            for k in _RE_KWARG.finditer(text[base : i - 1]):
                found.add(k.group(1), base + k.start(1), base + k.end(1), "arglist")
        at = text.find(tool_name, at + 1)


_RE_KEY_BEFORE = re.compile(r"[\"']([A-Za-z_][\w.-]*)[\"']\s*:\s*\[?\s*(?:\{[^{}]*\}\s*,\s*)*$")
_ARGUMENT_KEYS = frozenset(("arguments", "args", "input", "inputs", "parameters", "params", "kwargs", "body_args"))
"""The keys whose value is a call's argument object (``"arguments": {...}``)."""


def json_examples(text: str, level: Sequence[str], found: Found) -> None:
    """Keys of JSON argument examples ``{"action": "x", "other": 1}`` that use at least one
    declared key (``level``), or that an instruction hands over ("Send {"limit": 50}"), unless the
    line before speaks about output or the object is the value of another key (``"schedule": {...}``,
    an item of ``"pages": [{...}]``; ``"arguments": {...}`` is the call's own)."""
    for m in _RE_JSON_OBJ.finditer(text):
        try:
            obj = json.loads(m.group(0))
        except ValueError:
            continue
        if not isinstance(obj, dict) or not obj:
            continue
        key_before = _RE_KEY_BEFORE.search(text, max(0, m.start() - 60), m.start())
        if key_before is not None and key_before.group(1).lower() not in _ARGUMENT_KEYS:
            continue  # {"schedule": {"text": ...}}: the value of a key, its keys are that value's own
        kind = "json"
        if not any(k in level for k in obj):
            from schemalint.rules.description.mentions.imperatives import instruction_before

            if not instruction_before(text, m.start()):
                continue
            kind = "json-instruction"  # "Send {"limit": 50}": keys of the call, none of them declared
        line_start = text.rfind("\n", 0, m.start()) + 1
        prev_line_start = text.rfind("\n", 0, max(0, line_start - 1)) + 1
        if _OUTPUT_WORDS.search(text[max(prev_line_start, m.start() - 200) : m.start()]):
            continue
        for k in obj:
            if isinstance(k, str) and re.fullmatch(IDENT, k):
                at = text.find(f'"{k}"', m.start()) + 1
                found.add(k, at, at + len(k), kind)
