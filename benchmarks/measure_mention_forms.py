"""Measure, per form of mention, how often a name written in that form is a declared property.

Issue 26: which forms of text count as "presenting a name as a parameter" (SL201/SL202) is decided
by measurement. Over the descriptions of a tool corpus (default ``../shared/corpus``), every mention
:func:`schemalint.rules.description.mentions.extract_mentions` finds is counted under its form
(``Mention.kind``, with ``@property`` when the text is a property's description), and whether its
name is a property the tool's advertised schema declares (anywhere). A form whose references name a
declared property almost always is evidence that an undeclared one is a fault; a form that often
names something else (a value, a program, a result field) is not.

Also measured, for comparison: every identifier in a code span (``bare code span``, no form needed),
which is what a form-free reading would report.

Each distinct (description text, name) pair counts once (catalogs repeat tools). Usage::

    python benchmarks/measure_mention_forms.py [CORPUS] [--markdown OUT]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from schemalint.api import load  # noqa: E402
from schemalint.rules.description.mentions import (  # noqa: E402
    description_sites,
    extract_mentions,
    tool_property_names,
)
from schemalint.rules.description.mentions.sites import schema_names, schema_values  # noqa: E402
from schemalint.rules.description.mentions.strengths import strength_of  # noqa: E402

_CODE = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`")


def measure(corpus: str) -> dict[str, list[int]]:
    """Form -> [references, naming a declared property, naming a value/result field/tool (known
    otherwise: never reported)], each distinct (text, name) counted once."""
    tools = load([corpus]).tools
    names = frozenset(t.name for t in tools if t.name)
    seen: set[tuple[str, str, str, bool]] = set()
    table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for tool in tools:
        declared = tool_property_names(tool)
        known = schema_values(tool.advertised) | schema_names(tool.output_schema) | names
        for site in description_sites(tool):
            prop = not site.of_tool  # the forms read in a property's description carry "@property"
            for m in extract_mentions(site.text, tool_name=tool.name, tool_names=names, is_value=site.is_value,
                                      property_level=prop, level=site.level):
                form = m.kind
                key = (site.text, m.token, form, m.token in declared)
                if key in seen:
                    continue
                seen.add(key)
                row = table[form]
                row[0] += 1
                row[1] += m.token in declared
                row[2] += m.token not in declared and m.token in known
            for m in _CODE.finditer(site.text):
                key = (site.text, m.group(1), "bare code span", m.group(1) in declared)
                if key in seen:
                    continue
                seen.add(key)
                row = table["bare code span"]
                row[0] += 1
                row[1] += m.group(1) in declared
                row[2] += m.group(1) not in declared and m.group(1) in known
    return dict(table)


def markdown(table: dict[str, list[int]]) -> str:
    lines = ["| form | references | naming a declared property | share | a value, result field or tool "
             "| left (reported) | declared among the rest | reported as |",
             "|---|---:|---:|---:|---:|---:|---:|---|"]
    for form, (refs, hit, known) in sorted(table.items(), key=lambda kv: -kv[1][0]):
        share = hit / refs if refs else 0.0
        left = refs - hit - known
        rest = hit / (hit + left) if hit + left else 0.0
        lines.append(f"| {form} | {refs} | {hit} | {share:.0%} | {known} | {left} | {rest:.0%} | {strength_of(form)} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--markdown", help="write the table to this file too")
    args = parser.parse_args()
    out = markdown(measure(args.corpus))
    print(out)
    if args.markdown:
        Path(args.markdown).write_text(out)


if __name__ == "__main__":
    main()
