"""The diff checks (SDxxx): one row per kind of change between two revisions of a tool.

Every change the diff engine reports is classified by exactly one check. A check has a
stable ``code`` (never reused), a kebab-case ``name``, a ``kind`` and the severity that
kind maps to:

=============  ===========  ==============================================================
kind           severity     meaning
=============  ===========  ==============================================================
breaking       error        a call that was valid before may now be refused, or a tool the
                            model (or a prompt, or a cached plan) relies on is gone
compatible     warning      every call valid before is still valid, but what the model is
                            shown changed (a new optional key, a wider type, an annotation)
description    warning      only human-language text changed (tool or property description,
                            title, examples): part of the prompt, so worth a review
bytes          info         same meaning, different bytes: key order or the order of a
                            ``required``/``enum``/``type`` list (the model still sees it)
security       error        (SD401, off by default) what the model is told about a tool
                            changed after it was reviewed: a "rug pull" when the server is
                            not yours
=============  ===========  ==============================================================

Codes: SD0xx bytes, SD1xx breaking, SD2xx compatible, SD3xx description, SD4xx security.
Each check has a page ``rules/<CODE>-<name>.md``; the classification of schema keywords
lives in one module per keyword group beside this table (``sd102_properties.py`` ...), the
tool-level comparisons (tools added/removed, annotations, byte-only changes, SD401) in
:mod:`schemalint.commands.diff_compare`. Selection, ignores and severities come from the
configuration and the command line like the SL rules (:mod:`schemalint.commands.diff_selection`).

Sources for the classification: JSON Schema validation vocabulary (draft-07 section 6,
2020-12 "JSON Schema Validation" sections 6.1-6.5) for what each keyword restricts, and the
MCP specification 2025-06-18, "server/tools", ToolAnnotations (defaults ``readOnlyHint:
false``, ``destructiveHint: true``, ``idempotentHint: false``, ``openWorldHint: true``).
"""

from __future__ import annotations

from dataclasses import dataclass

from schemalint.model import Severity

KINDS = ("breaking", "compatible", "description", "bytes")
"""Kinds from most to least severe (always counted in a report's summary)."""

SECURITY = "security"
"""The kind of SD401, counted in a summary only when such a change is reported."""

SEVERITY_OF_KIND = {
    "breaking": Severity.ERROR,
    "compatible": Severity.WARNING,
    "description": Severity.WARNING,
    "bytes": Severity.INFO,
    SECURITY: Severity.ERROR,
}


@dataclass(frozen=True)
class DiffCheck:
    """One row of the diff-check table: ``code`` (``SD103``), kebab ``name``, ``kind``, ``summary``.

    ``severity_override``: a default other than the kind's, or the configured one (a copy made
    by :mod:`schemalint.commands.diff_selection`). ``default_off``: reported only when selected by code,
    name or a prefix longer than ``SD`` (:func:`schemalint.engine.selection.enabled_codes`).
    ``targets`` is empty (a diff check runs for every tool); ``source`` names the specification.
    """

    code: str
    name: str
    kind: str
    summary: str
    severity_override: Severity | None = None
    default_off: bool = False
    source: str = ""
    targets: tuple[str, ...] = ()

    @property
    def severity(self) -> Severity:
        """``error`` for breaking, ``warning`` for compatible and description, ``info`` for bytes.

        SD208 (an annotation stated with its default value) is ``info``: nothing changes for clients.
        """
        return self.severity_override or SEVERITY_OF_KIND[self.kind]


_TABLE = (
    # bytes: same meaning, different bytes
    DiffCheck("SD001", "key-order-changed", "bytes", "the same keys in a different order"),
    DiffCheck(
        "SD002",
        "list-order-changed",
        "bytes",
        "the same `required`, `enum` or `type` entries in a different order",
    ),
    DiffCheck(
        "SD003",
        "format-changed",
        "bytes",
        "the tool is written in another provider format (e.g. OpenAI chat -> MCP) with the same content",
    ),
    DiffCheck(
        "SD004",
        "empty-keyword-changed",
        "bytes",
        "an empty `properties`/`required` (no effect on validation) was added or removed",
    ),
    # breaking
    DiffCheck("SD101", "tool-removed", "breaking", "a tool the model could call is gone"),
    DiffCheck("SD102", "property-removed", "breaking", "a property is no longer declared"),
    DiffCheck(
        "SD103",
        "required-added",
        "breaking",
        "a key becomes required (or a new required key appears): calls without it are refused",
    ),
    DiffCheck("SD104", "type-narrowed", "breaking", "the set of accepted JSON types shrank"),
    DiffCheck("SD105", "enum-value-removed", "breaking", "an allowed enum value was removed"),
    DiffCheck(
        "SD106",
        "additional-properties-closed",
        "breaking",
        "`additionalProperties` became false (or a schema): undeclared keys are refused",
    ),
    DiffCheck(
        "SD107",
        "constraint-tightened",
        "breaking",
        "a bound, pattern, format, const, enum or other validation keyword accepts fewer values",
    ),
    DiffCheck(
        "SD108",
        "type-changed",
        "breaking",
        "the accepted types changed to a set that is neither wider nor narrower",
    ),
    DiffCheck("SD109", "union-branch-removed", "breaking", "an `anyOf`/`oneOf` branch was removed"),
    DiffCheck(
        "SD110",
        "output-schema-changed",
        "breaking",
        "the advertised output schema changed: consumers of the result may break",
    ),
    DiffCheck(
        "SD111",
        "schema-changed",
        "breaking",
        "a change the classifier cannot prove compatible "
        "($ref target, a schema replaced by a boolean, a null schema ...)",
    ),
    # compatible
    DiffCheck("SD201", "tool-added", "compatible", "a new tool"),
    DiffCheck("SD202", "property-added", "compatible", "a new optional property"),
    DiffCheck("SD203", "required-dropped", "compatible", "a key is no longer required"),
    DiffCheck("SD204", "type-widened", "compatible", "more JSON types are accepted"),
    DiffCheck("SD205", "enum-value-added", "compatible", "a new allowed enum value"),
    DiffCheck("SD206", "additional-properties-opened", "compatible", "undeclared keys are now accepted"),
    DiffCheck(
        "SD207",
        "constraint-loosened",
        "compatible",
        "a validation keyword accepts more values (or was removed)",
    ),
    DiffCheck(
        "SD208",
        "annotation-default-explicit",
        "compatible",
        "an MCP annotation was added (or removed) with its default value: clients see the same behaviour",
        Severity.INFO,
    ),
    DiffCheck(
        "SD209",
        "annotation-changed",
        "compatible",
        "an MCP annotation changed value (readOnlyHint, destructiveHint, idempotentHint, openWorldHint)",
    ),
    DiffCheck("SD210", "default-changed", "compatible", "a `default` was added, changed or removed"),
    DiffCheck("SD211", "union-branch-added", "compatible", "a new `anyOf`/`oneOf` branch"),
    DiffCheck(
        "SD212",
        "metadata-changed",
        "compatible",
        "a field that does not constrain calls "
        "changed (`deprecated`, `$comment`, `x-*`, `strict`, `_meta`, `icons` ...)",
    ),
    DiffCheck(
        "SD213",
        "closed-for-strict",
        "compatible",
        "`additionalProperties: false` added to an object that declares properties, in a tool sent to a strict "
        "target: strict decoding sends only declared keys, so no call the model can send is refused",
    ),
    # description
    DiffCheck(
        "SD301",
        "description-changed",
        "description",
        "a tool or property description, title or examples changed: the prompt the model reads changed",
    ),
    # security
    DiffCheck(
        "SD401",
        "rug-pull",
        SECURITY,
        "the description or schema of a tool changed since the reviewed revision or snapshot "
        "(off by default: select it for servers you do not own)",
        default_off=True,
    ),
)

CHECKS: dict[str, DiffCheck] = {c.name: c for c in _TABLE}
"""Every diff check by kebab name, in code order."""

BY_CODE: dict[str, DiffCheck] = {c.code: c for c in _TABLE}
"""Every diff check by code."""


def check(name: str) -> DiffCheck:
    """The check called ``name``; raises ``KeyError`` for an unknown name (a programming error)."""
    return CHECKS[name]
