"""The SARIF 2.1.0 report, for GitHub code scanning and other SARIF viewers.

One run; ``tool.driver.rules`` holds every registered rule (id, name, short and full
description, ``helpUri`` = the rule page, default level); each result has the rule id
and index, the level (error -> ``error``, warning -> ``warning``, info -> ``note``), the
message with its hint, a physical location (``uri`` relative to ``%SRCROOT%``, the
working directory, with 1-based ``startLine``/``startColumn`` in Unicode code points),
a logical location naming the tool, and ``partialFingerprints`` from the baseline
fingerprint so alerts survive line moves. Notes (stale baseline entries, unused
suppressions) become ``toolExecutionNotifications``.

Spec: OASIS SARIF v2.1.0 (errata 01), sections 3.13 (run), 3.19 (toolComponent),
3.27 (result), 3.28 (location), 3.30 (region), 3.49 (reportingDescriptor).
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import quote

if TYPE_CHECKING:
    from schemalint.api import CheckResult
    from schemalint.rules.base import Rule

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://github.com/schemalint/schemalint"
FINGERPRINT_KEY = "schemalint/v1"
LEVELS = {"error": "error", "warning": "warning", "info": "note"}
SRCROOT = "%SRCROOT%"


def _first_paragraph(text: str | None) -> str:
    if not text:
        return ""
    return " ".join(text.strip().split("\n\n")[0].split())


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    from schemalint.rule_docs import help_uri, targets_label

    full = _first_paragraph(rule.__doc__) or rule.summary
    uri = help_uri(rule)
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": full},
        "helpUri": uri,
        "help": {"text": f"{rule.summary} See {uri}",
                 "markdown": f"{rule.summary} [{rule.code} {rule.name}]({uri})"},
        "defaultConfiguration": {"level": LEVELS[rule.severity.value]},
        "properties": {"tags": ["schemalint", *rule.targets], "targets": targets_label(rule)},
    }
    if rule.source:
        descriptor["properties"]["source"] = rule.source
    return descriptor


@functools.lru_cache(maxsize=4096)
def _artifact_uri(path: str, cwd: str) -> tuple[str, str | None] | None:
    if not path or not os.path.exists(path):
        return None
    absolute = Path(os.path.abspath(path))
    try:
        rel = absolute.relative_to(cwd)
    except ValueError:
        return absolute.as_uri(), None
    return quote(rel.as_posix()), SRCROOT


def artifact_uri(path: str) -> tuple[str, str | None] | None:
    """``(uri, uriBaseId)`` for a diagnostic's file, or ``None`` when it is not a file.

    Paths inside the working directory become relative URIs against ``%SRCROOT%``;
    others become absolute ``file://`` URIs.
    """
    return _artifact_uri(path, os.getcwd())


def _label_uri(label: str) -> tuple[str, str | None] | None:
    """The last-resort artifact of a diagnostic with no file at all (an ``mcp-stdio:`` command
    named only on the command line): the label URL-quoted whole, so it is a relative path
    against ``%SRCROOT%`` and never a URI scheme (GitHub code scanning refuses a result without
    an artifact location, and one whose URI has a scheme other than ``file``)."""
    return (quote(label, safe=""), SRCROOT) if label else None


def to_sarif(result: CheckResult) -> dict[str, Any]:
    """The SARIF log for a :class:`~schemalint.api.CheckResult` as a JSON-ready dict."""
    from schemalint import __version__
    from schemalint.rules.registry import all_rules

    rules = list(getattr(result, "rules", ()) or all_rules())
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for i, d in enumerate(result.diagnostics):
        text = d.message + (f"\n\nHint: {d.hint}" if d.hint else "")
        res: dict[str, Any] = {"ruleId": d.code, "level": LEVELS[d.severity.value], "message": {"text": text}}
        if d.code in index:
            res["ruleIndex"] = index[d.code]
        location: dict[str, Any] = {}
        art = artifact_uri(d.location_file) or _label_uri(d.location_file)
        if art is not None:
            uri, base = art
            artifact: dict[str, Any] = {"uri": uri}
            if base:
                artifact["uriBaseId"] = base
            location["physicalLocation"] = {
                "artifactLocation": artifact,
                "region": {"startLine": d.line or 1, "startColumn": d.column or 1},
            }
        if d.tool:
            location["logicalLocations"] = [{"name": d.tool, "kind": "function"}]
        elif d.file and (d.path is not None or not os.path.exists(d.file)):
            location["logicalLocations"] = [{"name": d.file, "kind": "module"}]
        if location:
            res["locations"] = [location]
        fp = result.fingerprint_of(i) if hasattr(result, "fingerprint_of") else None
        if fp is not None:
            res["partialFingerprints"] = {FINGERPRINT_KEY: fp.digest()}
        props: dict[str, Any] = {"name": d.name, "pointer": d.pointer}
        if d.tool:
            props["tool"] = d.tool
        if d.instance_path is not None:
            props["instancePath"] = d.instance_path
        res["properties"] = props
        results.append(res)
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "schemalint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule_descriptor(r) for r in rules],
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": Path(os.getcwd()).as_uri() + "/"}},
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": [
                    {"level": "note", "message": {"text": note}} for note in result.notes
                ],
            }
        ],
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


PRETTY_LIMIT = 1000
"""Logs with more results than this are written compactly (the C encoder; ~20x faster)."""


def render(result: CheckResult, stream: IO[str], **_: object) -> None:
    """Write the SARIF log to ``stream``: indent 2, or one line above :data:`PRETTY_LIMIT` results."""
    log = to_sarif(result)
    indent = 2 if len(result.diagnostics) <= PRETTY_LIMIT else None
    stream.write(json.dumps(log, indent=indent, ensure_ascii=False))
    stream.write("\n")
