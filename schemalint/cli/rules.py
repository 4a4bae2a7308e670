"""``schemalint rules`` (the catalog) and ``schemalint rule CODE|NAME`` (one rule's page)."""

from __future__ import annotations

import json
import sys
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

    On a terminal a table as wide as the terminal (COLUMNS wins); piped, one line per rule.

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
        footer = (f"\n{len(rules)} rule(s) and {len(checks)} diff check(s) (TARGETS diff: reported by "
                  "`schemalint diff`); `schemalint rule CODE` prints a rule's page.")
        if sys.stdout.isatty():
            _print_table(rows, footer)
            return
        header = ("CODE", "NAME", "SEVERITY", "TARGETS", "SUMMARY")  # piped: one line per rule (grep)
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
        for row in [header, *rows]:
            cells = [cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True)]
            typer.echo("  ".join([*cells, row[4]]))
        typer.echo(footer)


def _print_table(rows: list[tuple[str, str, str, str, str]], footer: str) -> None:
    """The catalog as a rich table as wide as the terminal (``COLUMNS`` when set, else the
    terminal's width): the code is never broken, the other cells wrap at word boundaries (a
    word longer than its column is folded)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=sys.stdout, highlight=False, emoji=False, markup=False)
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", expand=False)
    table.add_column("CODE", no_wrap=True)
    table.add_column("NAME", overflow="fold")
    table.add_column("SEVERITY", overflow="fold")
    table.add_column("TARGETS", overflow="fold")
    table.add_column("SUMMARY", overflow="fold", ratio=1)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    console.print(table)
    console.print(Text(footer))


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
