"""Rule documentation: where the rule pages live, their links, and the catalog table.

Rule pages are ``rules/<CODE>-<name>.md`` in the repository. A wheel ships them as
``schemalint/_rule_pages`` (``[tool.hatch.build.targets.wheel.force-include]``); an
editable install or a source checkout reads the repository's ``rules/`` directory.
``rules/README.md`` is generated: ``schemalint rules --format markdown > rules/README.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeAlias

    from schemalint.diff.checks import DiffCheck
    from schemalint.rules.base import Rule

    Documented: TypeAlias = "Rule | DiffCheck"
    """A check rule (SLxxx) or a diff check (SDxxx): both have a page in ``rules/``."""

HELP_URI_BASE = "https://github.com/schemalint/schemalint/blob/main/rules/"
"""Rule pages online; ``help_uri`` appends ``<CODE>-<name>.md``. Used in SARIF ``helpUri``."""

REGENERATE = "schemalint rules --format markdown > rules/README.md"


def page_name(rule: Documented) -> str:
    """The page file name of ``rule``: ``SL101-required-drift.md``."""
    return f"{rule.code}-{rule.name}.md"


def help_uri(rule: Documented) -> str:
    """The absolute URL of ``rule``'s page: :data:`HELP_URI_BASE` + page name for schemalint's own
    rules and diff checks; for a plugin's rule, its catalog row's ``help_base`` + page name, else the
    ``file:`` URI of the page installed with the plugin (``""`` when it has none)."""
    entry = _plugin_entry(rule)
    if entry is None:
        return HELP_URI_BASE + page_name(rule)
    if entry.help_base:
        return entry.help_base + page_name(rule)
    page = find_page(rule)
    return page.resolve().as_uri() if page is not None else ""


def _plugin_entry(rule: Documented) -> Any:
    """The catalog row of ``rule`` when a plugin declares it (:mod:`schemalint.rules.plugins`), else ``None``."""
    cls = rule if isinstance(rule, type) else type(rule)
    if cls.__module__.startswith("schemalint."):
        return None
    return getattr(cls, "catalog_entry", None)  # set from the catalog row when the class is defined


def _plugin_pages(rule: Documented) -> list[Path]:
    """Where a plugin's rule page lives: beside the rule's module (the page format is the same)."""
    import sys

    if _plugin_entry(rule) is None:
        return []
    cls = rule if isinstance(rule, type) else type(rule)
    module = sys.modules.get(cls.__module__)
    file = getattr(module, "__file__", None)
    return [Path(file).resolve().parent] if file else []


def pages_dirs() -> list[Path]:
    """Directories that may hold rule pages, most specific first (packaged, then repository)."""
    package = Path(__file__).resolve().parent
    return [d for d in (package / "_rule_pages", package.parent / "rules") if d.is_dir()]


def find_page(rule: Documented) -> Path | None:
    """The page of ``rule`` (``<CODE>-<name>.md``, else any ``<CODE>-*.md``), or ``None``. A plugin's
    rule has its page beside its module (docs/plugins.md)."""
    for directory in _plugin_pages(rule) or pages_dirs():
        exact = directory / page_name(rule)
        if exact.is_file():
            return exact
        matches = sorted(directory.glob(f"{rule.code}-*.md"))
        if matches:
            return matches[0]
    return None


CATALOG_BLOCK = "\n<!-- catalog\n"
"""Start of the block that ends a rule page and holds the rule's one-line ``summary``, one
``key: text`` line each, up to ``-->`` (an HTML comment: a rendered page hides it). The page is
the one place a rule's prose is written: the rule's :attr:`~schemalint.rules.base.Rule.summary`
comes from this block and its ``source`` from the ``## Source`` section (:func:`split_page`); the
catalog, SARIF and ``schemalint rule`` read them from there."""


def split_page(text: str) -> tuple[str, dict[str, str]]:
    """``(page text shown to a reader, catalog fields)`` of a rule page's text: the text before
    the :data:`CATALOG_BLOCK` and its ``key: text`` lines (no block: the whole text and ``{}``).
    The ``source`` field is the page's ``## Source`` section (its words on one line): a rule's
    provenance is written there once, and the rule's :attr:`~schemalint.rules.base.Rule.source`,
    ``schemalint rules --format json`` and SARIF read it from there (:func:`source_of`)."""
    at = text.rfind(CATALOG_BLOCK)
    shown = text if at < 0 else text[:at]
    fields: dict[str, str] = {}
    if at >= 0:
        for line in text[at + len(CATALOG_BLOCK):].splitlines():
            if line.strip() == "-->":
                break
            key, sep, value = line.partition(": ")
            if sep:
                fields[key.strip()] = value
    source = source_of(shown)
    if source:
        fields["source"] = source
    return shown, fields


def source_of(text: str) -> str:
    """The provenance of a rule page's ``text`` (without its catalog block): the words of its
    ``## Source`` section on one line (a list's items joined as written); ``""`` when it has none."""
    section = page_sections(text).get("Source")
    return " ".join(section.split()) if section else ""


def page_text(rule: Documented) -> str | None:
    """What ``schemalint rule CODE`` prints: ``rule``'s page without its catalog block, or
    ``None`` when the page is missing."""
    page = find_page(rule)
    return None if page is None else split_page(page.read_text(encoding="utf-8"))[0]


_SECTION = re.compile(r"^## (.+?)[ \t]*$", re.M)
_BLOCK = re.compile(
    r"(?:<!--\s*args:(?P<args>.*?)-->\s*\n)?```(?P<lang>json|text)[ \t]*\n(?P<body>.*?)^```[ \t]*$",
    re.S | re.M,
)


def page_sections(text: str) -> dict[str, str]:
    """A page's ``## Heading`` -> body text (up to the next ``## `` heading; the catalog block is
    part of the last section)."""
    parts = _SECTION.split(text)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@dataclass(frozen=True)
class PageExample:
    """One fenced example block of a rule page's ``## Bad`` or ``## Good`` section: ``lang``
    (``json``, or ``text`` for input that is not JSON), ``body`` (the file's content, as written),
    ``args`` (the CLI arguments of an ``<!-- args: ... -->`` comment right above the block)."""

    lang: str
    body: str
    args: tuple[str, ...] = ()


def page_examples(text: str, section: str) -> list[PageExample]:
    """The example blocks of the ``section`` (``"Bad"``, ``"Good"``) of the page ``text``, in page
    order: one for a check rule (SLxxx), two for a diff check (SDxxx: base, then revision).
    The one loader of a page's examples: the page tests run them, and the rule case files
    (``tests/rules/cases/``) name them (``page: bad``) instead of copying them. Raises
    ``KeyError`` when the page has no such section."""
    import shlex

    return [PageExample(m["lang"], m["body"], tuple(shlex.split(m["args"] or "")))
            for m in _BLOCK.finditer(page_sections(text)[section])]


_FIELDS: dict[str, dict[str, str]] = {}


def page_field(rule: type | object, key: str) -> str:
    """The catalog field ``key`` (``"summary"``, ``"source"``) of a check rule's page, read once
    per rule; ``""`` when the page or the field is missing (a wheel built without pages)."""
    code = getattr(rule, "code", "")
    fields = _FIELDS.get(code)
    if fields is None:
        page = find_page(rule)  # type: ignore[arg-type]
        fields = {} if page is None else split_page(page.read_text(encoding="utf-8"))[1]
        _FIELDS[code] = fields
    return fields.get(key, "")


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def targets_label(rule: Documented) -> str:
    """``"all"`` for a target-independent rule, else its targets comma-separated."""
    return ", ".join(rule.targets) if rule.targets else "all"


def diff_checks() -> tuple[DiffCheck, ...]:
    """Every diff check (SDxxx), in code order."""
    from schemalint.diff.checks import BY_CODE

    return tuple(BY_CODE.values())


def diff_check_json(chk: DiffCheck) -> dict[str, Any]:
    """Catalog metadata of a diff check as a JSON-ready dict."""
    return {
        "code": chk.code,
        "name": chk.name,
        "severity": chk.severity.value,
        "kind": chk.kind,
        "default": "off" if chk.default_off else "on",
        "summary": chk.summary,
        "help_uri": help_uri(chk),
    }


def catalog_markdown(rules: Sequence[Rule], checks: Sequence[DiffCheck] | None = None) -> str:
    """The rule catalog as Markdown: the content of ``rules/README.md`` (ends with a newline).

    ``checks``: the diff checks listed after the rules (default: all of them)."""
    lines = [
        "# Rule catalog",
        "",
        f"<!-- Generated by `{REGENERATE}`; do not edit by hand. -->",
        "",
        "Every rule schemalint runs, in code order. Select, ignore or re-grade rules by code, name "
        "or code prefix in `[tool.schemalint]` (see `docs/configuration.md`). A rule with targets runs "
        "only when one of them is checked (`--target`, `target = [...]`, or inferred from the tool's "
        "format). "
        "`schemalint rule CODE` prints a rule's page.",
        "",
        "| Code | Name | Severity | Targets | Summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for rule in rules:
        lines.append(
            f"| [{rule.code}]({page_name(rule)}) | `{rule.name}` | {rule.severity.value} | "
            f"{_cell(targets_label(rule))} | {_cell(rule.summary)} |"
        )
    lines += [
        "",
        "## Diff checks",
        "",
        "Every change `schemalint diff` reports is classified by one of these checks (see `docs/diff.md`). "
        "They are selected, ignored and re-graded like the rules above, in `[tool.schemalint]` and with "
        "`schemalint diff --select/--ignore`; a check that is off by default runs only when named.",
        "",
        "| Code | Name | Severity | Kind | Summary |",
        "| --- | --- | --- | --- | --- |",
    ]
    for chk in diff_checks() if checks is None else checks:
        severity = chk.severity.value + (" (off by default)" if chk.default_off else "")
        lines.append(f"| [{chk.code}]({page_name(chk)}) | `{chk.name}` | {severity} | {chk.kind} | "
                     f"{_cell(chk.summary)} |")
    return "\n".join(lines) + "\n"


def rule_json(rule: Rule) -> dict[str, Any]:
    """Catalog metadata of ``rule`` as a JSON-ready dict."""
    return {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.value,
        "targets": list(rule.targets),
        "summary": rule.summary,
        "source": rule.source,
        "options": dict(getattr(rule, "options", {}) or {}),
        "help_uri": help_uri(rule),
    }


def fallback_page(rule: Documented) -> str:
    """A page built from the registry metadata, for a rule whose page is missing."""
    lines = [f"# {rule.code} {rule.name}", "", rule.summary, "",
             f"Default severity: {rule.severity.value}. Targets: {targets_label(rule)}."]
    if rule.source:
        lines += ["", f"Source: {rule.source}"]
    if rule.__doc__:
        lines += ["", " ".join(rule.__doc__.split())]
    return "\n".join(lines) + "\n"
