"""``schemalint rules`` (the catalog) and ``schemalint rule CODE|NAME`` (one rule's page)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from schemalint.cli import app, fail

RULES_FORMATS = ("text", "markdown", "json")


@app.command("rules")
def rules_command(
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="text (a table), markdown (the rules/README.md catalog) "
                          "or json.")
    ] = "text",
) -> None:
    """List every rule: code, name, default severity, targets and summary.

    `schemalint rules --format markdown > rules/README.md` regenerates the catalog.
    """
    from schemalint.rule_docs import catalog_markdown, rule_json, targets_label
    from schemalint.rules.registry import all_rules

    rules = all_rules()
    if output_format == "markdown":
        typer.echo(catalog_markdown(rules), nl=False)
    elif output_format == "json":
        typer.echo(json.dumps({"rules": [rule_json(r) for r in rules]}, indent=2, ensure_ascii=False))
    elif output_format == "text":
        rows = [(r.code, r.name, r.severity.value, targets_label(r), r.summary) for r in rules]
        header = ("CODE", "NAME", "SEVERITY", "TARGETS", "SUMMARY")
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
        for row in [header, *rows]:
            cells = [cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)]
            typer.echo("  ".join([*cells, row[4]]))
        typer.echo(f"\n{len(rows)} rule(s); `schemalint rule CODE` prints a rule's page.")
    else:
        raise fail(f"unknown --format {output_format!r}; choose from {', '.join(RULES_FORMATS)}")


@app.command("rule")
def rule_command(
    key: Annotated[str, typer.Argument(help="A rule code (SL101) or name (required-drift).")],
) -> None:
    """Print a rule's page: what it catches, why it matters, a bad and a good example."""
    import difflib

    from schemalint.rule_docs import fallback_page, find_page
    from schemalint.rules.registry import all_rules, find_rule

    rule = find_rule(key)
    if rule is None:
        names = [r.code for r in all_rules()] + [r.name for r in all_rules()]
        close = difflib.get_close_matches(key, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `schemalint rules` lists them"
        raise fail(f"no rule {key!r}{hint}")
    page = find_page(rule)
    if page is None:
        typer.echo(fallback_page(rule), nl=False)
        typer.echo(f"schemalint: no page {rule.code}-{rule.name}.md found; shown from the registry", err=True)
        return
    typer.echo(page.read_text(encoding="utf-8"), nl=False)
