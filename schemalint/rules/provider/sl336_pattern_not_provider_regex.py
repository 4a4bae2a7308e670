"""SL336 pattern-not-provider-regex: a ``pattern`` the provider's regular-expression engine cannot
compile, so the provider refuses the whole request.

OpenAI validates function ``parameters`` against the JSON Schema metaschema with format checking,
and ``pattern`` is ``format: regex``: a pattern Python's ``re`` cannot compile is answered 400
"Invalid schema for function '...': '<pattern>' is not a 'regex'" (the message of the Python
``jsonschema`` format checker), strict or not. JavaScript-only syntax is the usual cause: Unicode
property escapes (``\\p{L}``), ``\\u{...}`` code points, named groups written ``(?<name>...)``,
``\\cX`` control escapes and ``[^]``, all valid ECMA-262, which is what JSON Schema names.

Source: rules/SL336-pattern-not-provider-regex.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from schemalint.model import Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, ProfileFault, ProviderRule, index_for, ptr_key, where

_JS_ONLY = (
    (re.compile(r"\\[pP]\{"), "a Unicode property escape (\\p{...})"),
    (re.compile(r"\\u\{"), "a \\u{...} code point escape"),
    (re.compile(r"\(\?<[A-Za-z_]"), "a named group written (?<name>...) (Python spells it (?P<name>...))"),
    (re.compile(r"\\c[A-Za-z]"), "a \\cX control escape"),
)


def python_regex_error(pattern: str) -> str | None:
    """Why Python's ``re`` refuses ``pattern`` (the JavaScript-only construct when one is found, else
    ``re``'s own message); ``None`` when it compiles."""
    try:
        re.compile(pattern)
    except re.error as exc:
        for probe, name in _JS_ONLY:
            if probe.search(pattern):
                return name
        return str(exc)
    except (RecursionError, OverflowError, ValueError) as exc:  # pathological nesting or repeat counts
        return type(exc).__name__
    return None


class PatternNotProviderRegex(ProviderRule):
    """A ``pattern`` that OpenAI's regular-expression check (Python ``re``) cannot compile."""

    keywords = frozenset({"pattern"})  # only schemas with a `pattern` are checked (Rule.keywords)

    severity = E

    def findings(self, tool: Tool, targets: tuple[str, ...], ctx: Context) -> Iterable[ProfileFault]:
        index = index_for(tool, ctx)
        for node in index.having("pattern"):
            pattern = node.schema.get("pattern")
            if not isinstance(pattern, str):
                continue  # SL001 reports a pattern that is not a string
            why = python_regex_error(pattern)
            if why is None:
                continue
            for target in targets:
                yield ProfileFault(
                    target,
                    E,
                    ptr_key(node.pointer, "pattern"),
                    "regex",
                    f"{where(node)} has a pattern OpenAI cannot compile ({why}); OpenAI checks patterns "
                    "with Python's regular expressions and answers 400 \"'...' is not a 'regex'\" for the "
                    "whole request",
                    "write the pattern in the syntax both ECMA-262 and Python accept (e.g. [A-Za-z0-9] "
                    "instead of \\p{L}\\p{N}, (?P<name>...) is Python-only: use a plain group), or drop "
                    "`pattern` and state the rule in the description",
                    node.instance_path,
                )
