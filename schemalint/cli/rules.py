"""``schemalint rules`` (the catalog) and ``schemalint rule CODE|NAME`` (one rule's page)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from schemalint.cli._common import RulesFormat, fail, format_option

if TYPE_CHECKING:
    from schemalint.rule_docs import Documented


def rules_command(
    output_format: Annotated[
        RulesFormat, format_option("text (a table), markdown (the rules/README.md catalog) or json.")
    ] = "text",
) -> None:
    """List every rule: code, name, default severity, targets and summary.

    `schemalint rules --format markdown > rules/README.md` regenerates the catalog.
    """
    from schemalint.rule_docs import catalog_markdown, diff_check_json, diff_checks, rule_json, targets_label
    from schemalint.rules.registry import all_rules

    rules = all_rules()
    checks = diff_checks()
    if output_format == "markdown":
        typer.echo(catalog_markdown(rules), nl=False)
    elif output_format == "json":
        typer.echo(json.dumps({"rules": [rule_json(r) for r in rules],
                               "diff_checks": [diff_check_json(c) for c in checks]}, indent=2, ensure_ascii=False))
    else:
        rows = [(r.code, r.name, r.severity.value, targets_label(r), r.summary) for r in rules]
        rows += [(c.code, c.name, c.severity.value + (" (off)" if c.default_off else ""), "diff", c.summary)
                 for c in checks]
        header = ("CODE", "NAME", "SEVERITY", "TARGETS", "SUMMARY")
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
        for row in [header, *rows]:
            cells = [cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)]
            typer.echo("  ".join([*cells, row[4]]))
        typer.echo(f"\n{len(rules)} rule(s) and {len(checks)} diff check(s) (TARGETS diff: reported by "
                   "`schemalint diff`); `schemalint rule CODE` prints a rule's page.")


def rule_command(
    key: Annotated[str, typer.Argument(help="A rule or diff check code (SL101, SD103) or name (required-drift).")],
) -> None:
    """Print a rule's page (or a diff check's: SD103): what it catches, why it matters, examples."""
    import difflib

    from schemalint.rule_docs import diff_checks, fallback_page, find_page, page_text
    from schemalint.rules.registry import all_rules, find_rule

    rule: Documented | None = find_rule(key)
    if rule is None:
        wanted = key.strip().lower()
        rule = next((c for c in diff_checks() if wanted in (c.code.lower(), c.name)), None)
    if rule is None:
        every: list[Documented] = [*all_rules(), *diff_checks()]
        names = [r.code for r in every] + [r.name for r in every]
        close = difflib.get_close_matches(key, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `schemalint rules` lists them"
        raise fail(f"no rule {key!r}{hint}")
    page = find_page(rule)
    if page is None:
        typer.echo(fallback_page(rule), nl=False)
        typer.echo(f"schemalint: no page {rule.code}-{rule.name}.md found; shown from the registry", err=True)
        return
    typer.echo(page_text(rule) or "", nl=False)
