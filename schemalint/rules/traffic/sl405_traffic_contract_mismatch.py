"""SL405 traffic-contract-mismatch: the traffic's tool differs from the project's tool of that name.

With ``--tools SOURCES``, every tool a record declares is compared with the project's tool of the
same name: another description, or another advertised schema (compared as JSON values, key order
aside). The traffic was then recorded against another contract (an older deployment, a proxy
that rewrites tools, a client that sends its own copy), and what it shows about the model's calls
holds for that contract, not the project's. Each distinct recorded version is reported once.

Source: rules/SL405-traffic-contract-mismatch.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from schemalint.model import Severity
from schemalint.rules.traffic._common import TrafficContext, TrafficRule, Witness
from schemalint.traffic.records import Conversation


def _canonical(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(value)


def _keys(schema: Any) -> set[str]:
    props = schema.get("properties") if isinstance(schema, Mapping) else None
    return set(props) if isinstance(props, Mapping) else set()


def _required(schema: Any) -> set[str]:
    req = schema.get("required") if isinstance(schema, Mapping) else None
    return {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()


def differences(recorded: Any, project: Any) -> list[str]:
    """What differs between two advertised schemas, in words (top-level keys and ``required``
    first; "the schema differs deeper" when only nested parts do)."""
    out = []
    rk, pk = _keys(recorded), _keys(project)
    if rk - pk:
        out.append("the traffic has " + ", ".join(f"`{k}`" for k in sorted(rk - pk)) + " that the project lacks")
    if pk - rk:
        out.append("the project has " + ", ".join(f"`{k}`" for k in sorted(pk - rk)) + " that the traffic lacks")
    rr, pr = _required(recorded), _required(project)
    if rr != pr:
        out.append(f"required {sorted(rr)} in the traffic, {sorted(pr)} in the project")
    if not out and _canonical(recorded) != _canonical(project):
        out.append("the schema differs below the top level")
    return out


class TrafficContractMismatch(TrafficRule):
    """The tools the traffic declares are the project's tools."""

    severity = Severity.WARNING

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterator[Witness]:
        if not ctx.project or not conv.declared:
            return
        for tool in conv.declared:
            mine = ctx.project.get(tool.name)
            if mine is None:
                continue
            parts = differences(tool.advertised, mine.advertised)
            if (tool.description or "") != (mine.description or ""):
                parts.append("the description differs")
            if not parts:
                continue
            key = (conv.file, tool.name, _canonical(tool.advertised), tool.description)
            yield Witness(mismatch_diagnostic(self, conv, tool, mine, parts), key=key)


def mismatch_diagnostic(rule: TrafficRule, conv: Conversation, tool: Any, mine: Any, parts: list[str]) -> Any:
    """The diagnostic of one mismatch (``tool`` recorded, ``mine`` the project's)."""
    where = mine.origin.file + (f" {mine.origin.pointer}" if mine.origin.pointer else "")
    return rule.at(conv, tool.origin.pointer,
                   f"the traffic declares `{tool.name}` unlike the project ({where}): " + "; ".join(parts)
                   + ": it was recorded against another contract",
                   tool=tool.name, line=tool.origin.line,
                   hint="replay traffic recorded against the current tools, or find who sends the other "
                   "definition (an old deployment, a proxy, a client's own copy)")
