"""The paraphrase suite of SL201 (issue 26): descriptions that ask for an undeclared parameter in the
many ways tool authors write it, and clean twins that mention only declared parameters, enum values,
result fields, other tools, URLs, placeholders and upstream API fields.

``tests/fixtures/description_paraphrases.json`` holds ``positives`` (each with the ``expect``-ed
token) and ``twins`` (``expect: null``); each entry is one MCP tool (``text`` sits in the tool
description, or in the description of property ``where``), checked on its own file with the real
loader and rules (``companions``: other tools' names written beside it, ``output_properties``: an
``outputSchema``). Goals: recall >= 90 %, twin false alarms <= 2 %. ``python -m
tests.test_description_paraphrases`` prints the figures and every miss and false alarm.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from schemalint.api import check

SUITE = Path(__file__).parent / "fixtures" / "description_paraphrases.json"
CODES = ["SL201", "SL202"]
RECALL_GOAL = 0.90
"""Issue 26's held-out set (``g01``-``g30``, ``gt01``-``gt32``: phrasings written without looking at the
analysis) was measured before any change at 18/30 recall and 1/30 twin false alarms, then joined the
suite (at 158/177 after the kebab-case kinds, 161/177 with conditions)."""
FALSE_ALARM_GOAL = 0.02


def _prop(spec: Any) -> dict[str, Any]:
    return {"type": spec} if isinstance(spec, str) else dict(spec)


def tools_of(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The MCP tool list of one suite entry (the tool first, then its companions)."""
    props = {k: _prop(v) for k, v in entry["properties"].items()}
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if entry["closed"]:
        schema["additionalProperties"] = False
    if entry["where"] == "tool":
        description = entry["text"]
    else:
        description = entry["tool_description"]
        props[entry["where"]]["description"] = entry["text"]
    tool: dict[str, Any] = {"name": entry.get("name") or f"tool_{entry['id']}", "description": description,
                            "inputSchema": schema}
    if "output_properties" in entry:
        tool["outputSchema"] = {"type": "object",
                                "properties": {k: _prop(v) for k, v in entry["output_properties"].items()}}
    companions = [{"name": c, "description": "Another tool of the server.",
                   "inputSchema": {"type": "object", "properties": {}}} for c in entry.get("companions", ())]
    return [tool, *companions]


def tokens_reported(entry: dict[str, Any], folder: Path) -> list[str]:
    """The tokens SL201/SL202 report on the entry's own tool as a warning or an error."""
    path = folder / f"{entry['id']}.json"
    path.write_text(json.dumps(tools_of(entry)))
    out = []
    own = tools_of(entry)[0]["name"]
    for d in check([str(path)], select=CODES).diagnostics:
        if d.tool != own or d.severity.value == "info":
            continue  # information (a near-miss spelling in prose) is not an alarm
        for marker in (" presents `", " asks for `", " writes `", " documents `"):
            if marker in d.message:
                out.append(d.message.split(marker, 1)[1].split("`", 1)[0])
    return out


def measure() -> dict[str, Any]:
    """Recall on the positives, false alarms on the twins, and the entries behind each figure."""
    suite = json.loads(SUITE.read_text())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        missed = [e["id"] for e in suite["positives"] if e["expect"] not in tokens_reported(e, folder)]
        alarms = {e["id"]: r for e in suite["twins"] if (r := tokens_reported(e, folder))}
    n_pos, n_twin = len(suite["positives"]), len(suite["twins"])
    return {"positives": n_pos, "twins": n_twin, "recall": 1 - len(missed) / n_pos,
            "false_alarms": len(alarms) / n_twin, "missed": missed, "alarms": alarms}


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    return measure()


def test_suite_shape() -> None:
    suite = json.loads(SUITE.read_text())
    assert len(suite["positives"]) >= 80 and len(suite["twins"]) >= 80
    ids = [e["id"] for e in suite["positives"] + suite["twins"]]
    assert len(ids) == len(set(ids))
    for e in suite["positives"]:
        assert e["expect"] and e["expect"] not in e["properties"], e["id"]
        assert e["expect"] in e["text"], e["id"]
    assert all(e["expect"] is None for e in suite["twins"])


def test_recall(figures: dict[str, Any]) -> None:
    assert figures["recall"] >= RECALL_GOAL, (figures["recall"], figures["missed"])


def test_twin_false_alarms(figures: dict[str, Any]) -> None:
    assert figures["false_alarms"] <= FALSE_ALARM_GOAL, (figures["false_alarms"], figures["alarms"])


if __name__ == "__main__":
    f = measure()
    print(f"recall {f['recall']:.1%} ({f['positives'] - len(f['missed'])}/{f['positives']}); "
          f"twin false alarms {f['false_alarms']:.1%} ({len(f['alarms'])}/{f['twins']})")
    print("missed:", " ".join(f["missed"]))
    print("alarms:", f["alarms"])
    sys.exit(0)
