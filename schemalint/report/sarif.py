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
    from schemalint.diff.checks import DiffCheck
    from schemalint.diff.result import Change, DiffResult
    from schemalint.model import Diagnostic
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


def _physical_location(line: int | None, column: int | None,
                       art: tuple[str, str | None] | None, path: str | None = None) -> dict[str, Any] | None:
    """A ``physicalLocation`` (section 3.29) whose region (3.30) spans the token at ``line``/``column``
    of ``path`` (a JSON string with its quotes, or a bare word); one column when it cannot be read."""
    if art is None:
        return None
    uri, base = art
    artifact: dict[str, Any] = {"uri": uri}
    if base:
        artifact["uriBaseId"] = base
    start_line, start_column = line or 1, column or 1
    end = _token_end(path, start_line, start_column) if path and line and column else None
    region = {"startLine": start_line, "startColumn": start_column, "endLine": start_line,
              "endColumn": end if end is not None else start_column + 1}
    return {"artifactLocation": artifact, "region": region}


_TOKEN_FILE_BYTES = 64 << 20
"""Files above this size are not read again to measure tokens (the region is then one column)."""


@functools.lru_cache(maxsize=64)
def _lines(path: str) -> list[str] | None:
    try:
        if os.path.getsize(path) > _TOKEN_FILE_BYTES:
            return None
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read().split("\n")
    except OSError:
        return None


def _token_end(path: str, line: int, column: int) -> int | None:
    """The column just past the token starting at 1-based ``line``/``column`` (code points): a
    JSON or YAML double-quoted string through its closing quote (escapes skipped), else the run
    of characters up to white space or one of ``:,]}``. ``None`` when the file cannot be read or
    the position is outside it."""
    lines = _lines(path)
    if lines is None or not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    i = column - 1
    if not 0 <= i < len(text):
        return None
    if text[i] == '"':
        j = i + 1
        while j < len(text):
            if text[j] == "\\":
                j += 2
                continue
            if text[j] == '"':
                return j + 2
            j += 1
        return len(text) + 1
    j = i
    while j < len(text) and not text[j].isspace() and text[j] not in ":,]}":
        j += 1
    return max(j, i + 1) + 1


def _result(code: str, severity: str, message: str, hint: str | None, index: dict[str, int],
            location: dict[str, Any], fingerprint: str | None, props: dict[str, Any]) -> dict[str, Any]:
    """One SARIF ``result`` (section 3.27): rule id and index, level, message with its hint."""
    res: dict[str, Any] = {"ruleId": code, "level": LEVELS[severity],
                           "message": {"text": message + (f"\n\nHint: {hint}" if hint else "")}}
    if code in index:
        res["ruleIndex"] = index[code]
    if location:
        res["locations"] = [location]
    if fingerprint is not None:
        res["partialFingerprints"] = {FINGERPRINT_KEY: fingerprint}
    res["properties"] = props
    return res


GITHUB_LIMITS = {"results_per_run": 25_000, "rules_per_run": 25_000, "locations_per_result": 1_000,
                 "tags_per_rule": 20, "shown_tags_per_rule": 10, "gzip_bytes": 10 * 1024 * 1024}
"""What GitHub code scanning accepts in one SARIF upload. "SARIF results exceed one or more limits"
(docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/results-exceed-limit,
seen 2026-12-02): at most 20 runs per file, 25,000 results per run, 25,000 rules per run, 100 tool
extensions per run, 1,000 locations per result, 20 tags per rule (10 shown), 10,000 thread flow
locations per result; a file above one of these is rejected whole. "Uploading a SARIF file to
GitHub" (same site, same date): at most 10 MB gzip-compressed. schemalint writes one run, no
extensions and no thread flows, one location per result, at most 10 tags per rule."""

_RANK = {"error": 0, "warning": 1, "note": 2}


def within_limits(results: list[dict[str, Any]], limit: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """``results`` cut to ``limit``, the most severe kept (errors, then warnings, then notes, each
    in report order), and what was left out (``None`` when nothing was): counts by level and rule."""
    if len(results) <= limit:
        return results, None
    order = sorted(range(len(results)), key=lambda i: _RANK.get(results[i].get("level", "note"), 3))
    kept_ids = set(order[:limit])
    kept = [r for i, r in enumerate(results) if i in kept_ids]
    left = [r for i, r in enumerate(results) if i not in kept_ids]
    by_level: dict[str, int] = {}
    by_rule: dict[str, int] = {}
    for r in left:
        by_level[r.get("level", "note")] = by_level.get(r.get("level", "note"), 0) + 1
        by_rule[r["ruleId"]] = by_rule.get(r["ruleId"], 0) + 1
    return kept, {"results": len(results), "kept": len(kept), "leftOut": len(left), "limit": limit,
                  "leftOutByLevel": by_level, "leftOutByRule": dict(sorted(by_rule.items()))}


def _left_out_note(cut: dict[str, Any]) -> str:
    levels = ", ".join(f"{n:,} {level}" for level, n in sorted(cut["leftOutByLevel"].items(),
                                                               key=lambda kv: _RANK.get(kv[0], 3)))
    return (f"SARIF: {cut['leftOut']:,} of {cut['results']:,} results left out ({levels}): GitHub code scanning "
            f"refuses a run of more than {cut['limit']:,} results; the most severe are kept. The text or "
            "JSON report lists them all.")


def _log(descriptors: list[dict[str, Any]], results: list[dict[str, Any]], notes: list[str],
         automation_id: str | None = None) -> dict[str, Any]:
    """The SARIF log of one run (section 3.13) holding ``results``, within :data:`GITHUB_LIMITS`:
    beyond 25,000 results the most severe are kept; what was left out is said in a notification
    and in ``run.properties.schemalint.leftOut``, and on standard error."""
    from schemalint import __version__

    results, cut = within_limits(results, GITHUB_LIMITS["results_per_run"])
    notes = list(notes)
    if cut is not None:
        notes.append(_left_out_note(cut))
        import sys

        sys.stderr.write(f"schemalint: {_left_out_note(cut)}\n")
    for d in descriptors:
        tags = d.get("properties", {}).get("tags")
        if tags and len(tags) > GITHUB_LIMITS["shown_tags_per_rule"]:
            d["properties"]["tags"] = tags[:GITHUB_LIMITS["shown_tags_per_rule"]]

    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "schemalint",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": descriptors,
            }
        },
    }
    if automation_id is not None:
        run["automationDetails"] = {"id": automation_id}
    run.update({
        "originalUriBaseIds": {SRCROOT: {"uri": Path(os.getcwd()).as_uri() + "/"}},
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": [
                    {"level": "note", "message": {"text": note}} for note in notes
                ],
            }
        ],
        "columnKind": "unicodeCodePoints",
        "results": results,
    })
    if cut is not None:
        run["properties"] = {"schemalint": {"leftOut": cut}}
        run["invocations"][0]["toolExecutionNotifications"][-1]["level"] = "warning"
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def _label_uri(label: str) -> tuple[str, str | None] | None:
    """The last-resort artifact of a diagnostic with no file at all (an ``mcp-stdio:`` command
    named only on the command line): the label URL-quoted whole, so it is a relative path
    against ``%SRCROOT%`` and never a URI scheme (GitHub code scanning refuses a result without
    an artifact location, and one whose URI has a scheme other than ``file``)."""
    return (quote(label, safe=""), SRCROOT) if label else None


def to_sarif(result: CheckResult) -> dict[str, Any]:
    """The SARIF log for a :class:`~schemalint.api.CheckResult` as a JSON-ready dict."""
    from schemalint.rules.registry import all_rules

    rules = list(getattr(result, "rules", ()) or all_rules())
    index = {r.code: i for i, r in enumerate(rules)}
    results = []
    for i, d in enumerate(result.diagnostics):
        location: dict[str, Any] = {}
        art = artifact_uri(d.location_file) or _label_uri(d.location_file)
        physical = _physical_location(d.line, d.column, art, d.location_file)
        if physical is not None:
            location["physicalLocation"] = physical
        if d.tool:
            location["logicalLocations"] = [{"name": d.tool, "kind": "function"}]
        elif d.file and (d.path is not None or not os.path.exists(d.file)):
            location["logicalLocations"] = [{"name": d.file, "kind": "module"}]
        fp = result.fingerprint_of(i) if hasattr(result, "fingerprint_of") else None
        props: dict[str, Any] = {"name": d.name, "pointer": d.pointer}
        if d.tool:
            props["tool"] = d.tool
        if d.instance_path is not None:
            props["instancePath"] = d.instance_path
        if d.kind is not None:
            props["kind"] = d.kind
        res = _result(d.code, d.severity.value, d.message, d.hint, index, location,
                      fp.digest() if fp is not None else None, props)
        if d.copies:
            res["relatedLocations"] = _copy_locations(d, art)
            props["copies"] = len(d.copies)
        results.append(res)
    return _log([_rule_descriptor(r) for r in rules], results, result.notes)


def _copy_locations(d: Diagnostic, art: tuple[str, str | None] | None) -> list[dict[str, Any]]:
    """The places of ``d``'s copies in other copies of its tool (section 3.27.22
    ``relatedLocations``), at most ``GITHUB_LIMITS["locations_per_result"]``; the result's
    ``properties.copies`` counts them all."""
    out: list[dict[str, Any]] = []
    for n, (pointer, line, column) in enumerate(d.copies[:GITHUB_LIMITS["locations_per_result"]], start=1):
        loc: dict[str, Any] = {"id": n, "message": {"text": f"the same finding in another copy of "
                                                             f"this tool, at {pointer or '/'}"}}
        physical = _physical_location(line, column, art, d.location_file)
        if physical is not None:
            loc["physicalLocation"] = physical
        out.append(loc)
    return out


DIFF_AUTOMATION_ID = "schemalint/diff/"
"""``automationDetails.id`` of a diff log (section 3.17): code scanning keeps the alerts of a
``diff`` upload apart from those of a ``check`` upload of the same commit."""


def _diff_descriptor(check: DiffCheck) -> dict[str, Any]:
    from schemalint.rule_docs import help_uri

    uri = help_uri(check)
    return {
        "id": check.code,
        "name": check.name,
        "shortDescription": {"text": check.summary},
        "fullDescription": {"text": check.summary},
        "helpUri": uri,
        "help": {"text": f"{check.summary} See {uri}",
                 "markdown": f"{check.summary} [{check.code} {check.name}]({uri})"},
        "defaultConfiguration": {"level": LEVELS[check.severity.value]},
        "properties": {"tags": ["schemalint", "diff", check.kind], "kind": check.kind},
    }


def _change_fingerprint(change: Change) -> str:
    """Stable across line moves and reformatting: the check, the tool and the pointer."""
    import hashlib

    key = "\0".join((change.code, change.tool, change.pointer))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def to_sarif_diff(result: DiffResult) -> dict[str, Any]:
    """The SARIF log of a :class:`~schemalint.diff.result.DiffResult`: one result per change.

    ``ruleId`` is the diff check (SDxxx, ``tool.driver.rules`` lists every check); the location
    is the changed key's file and line (:class:`~schemalint.report.diff_locations.ChangeLocator`);
    a removed tool points at the working-tree path of the file that held it. Properties carry the
    change's ``kind``, ``pointer``, ``tool`` and ``before``/``after`` values.
    """
    from schemalint.diff.result import ABSENT
    from schemalint.report.diff_locations import ChangeLocator, working_tree_path
    from schemalint.rule_docs import diff_checks

    checks = list(diff_checks())
    index = {c.code: i for i, c in enumerate(checks)}
    locate = ChangeLocator()
    results = []
    for tool in result.tools:
        for c in tool.changes:
            file, line = locate(tool, c)
            path = file or working_tree_path(c.file)
            art = artifact_uri(path) if path and os.path.exists(path) else _relative_uri(path)
            location: dict[str, Any] = {}
            physical = _physical_location(line, None, art, None)
            if physical is not None:
                location["physicalLocation"] = physical
            location["logicalLocations"] = [{"name": c.tool, "kind": "function"}]
            props: dict[str, Any] = {"name": c.check.name, "kind": c.kind, "pointer": c.pointer,
                                     "tool": c.tool, "status": tool.status}
            if c.before is not None and c.before is not ABSENT:
                props["before"] = c.before
            if c.after is not None and c.after is not ABSENT:
                props["after"] = c.after
            results.append(_result(c.code, c.severity.value, c.message, c.hint, index, location,
                                   _change_fingerprint(c), props))
    return _log([_diff_descriptor(c) for c in checks], results, result.notes, DIFF_AUTOMATION_ID)


def _relative_uri(path: str | None) -> tuple[str, str | None] | None:
    if not path or os.path.isabs(path):
        return None
    return quote(Path(path).as_posix()), SRCROOT


PRETTY_LIMIT = 1000
"""Logs with more results than this are written compactly (the C encoder; ~20x faster)."""


def render(result: CheckResult, stream: IO[str], **_: object) -> None:
    """Write the SARIF log to ``stream``: indent 2, or one line above :data:`PRETTY_LIMIT` results."""
    log = to_sarif(result)
    indent = 2 if len(result.diagnostics) <= PRETTY_LIMIT else None
    stream.write(json.dumps(log, indent=indent, ensure_ascii=False))
    stream.write("\n")


def render_diff(result: DiffResult, stream: IO[str]) -> None:
    """Write the SARIF log of a diff to ``stream`` (indented like :func:`render`)."""
    log = to_sarif_diff(result)
    indent = 2 if len(result.changes) <= PRETTY_LIMIT else None
    stream.write(json.dumps(log, indent=indent, ensure_ascii=False, default=str))
    stream.write("\n")
