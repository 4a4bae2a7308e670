"""The rule catalog: registry, `schemalint rules`, rules/README.md and the rule pages agree."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from schemalint.rule_docs import REGENERATE, catalog_markdown, find_page, page_name, split_page
from schemalint.rules.registry import all_rules
from tests.conftest import ROOT, run_cli

RULES = all_rules()
PAGES = ROOT / "rules"


def test_readme_is_the_generated_catalog() -> None:
    expected = catalog_markdown(RULES)
    actual = (PAGES / "README.md").read_text(encoding="utf-8")
    assert actual == expected, f"rules/README.md is out of date: regenerate it with `{REGENERATE}`"
    proc = run_cli("rules", "--format", "markdown")
    assert proc.returncode == 0 and proc.stdout == expected


def test_catalog_rows_match_the_registry() -> None:
    rows = [line for line in (PAGES / "README.md").read_text().splitlines() if line.startswith("| [SL")]
    assert len(rows) == len(RULES)
    for row, rule in zip(rows, RULES, strict=True):
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert cells[0] == f"[{rule.code}]({page_name(rule)})"
        assert cells[1] == f"`{rule.name}`" and cells[2] == rule.severity.value


def test_rules_command_lists_every_rule() -> None:
    proc = run_cli("rules")
    assert proc.returncode == 0
    for rule in RULES:
        line = next(x for x in proc.stdout.splitlines() if x.startswith(rule.code + " "))
        assert rule.name in line and rule.severity.value in line and rule.summary in line
    data = json.loads(run_cli("rules", "--format", "json").stdout)
    assert [r["code"] for r in data["rules"]] == [r.code for r in RULES]
    assert all(r["help_uri"].endswith(f"/rules/{r['code']}-{r['name']}.md") for r in data["rules"])
    assert run_cli("rules", "--format", "yaml").returncode == 2


def test_pages_belong_to_registered_rules() -> None:
    by_code = {r.code: r for r in RULES}
    for page in PAGES.glob("SL*.md"):
        match = re.fullmatch(r"(SL\d{3})-([a-z0-9-]+)\.md", page.name)
        assert match, f"{page.name}: page names are <CODE>-<name>.md"
        code, name = match.groups()
        assert code in by_code, f"{page.name}: no registered rule {code}"
        assert by_code[code].name == name, f"{page.name}: rule {code} is named {by_code[code].name}"
        assert page.read_text().startswith(f"# {code} {name}\n")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_rule_command_prints_the_page(rule) -> None:
    by_code = run_cli("rule", rule.code.lower())
    by_name = run_cli("rule", rule.name)
    assert by_code.returncode == 0 and by_code.stdout == by_name.stdout
    page = find_page(rule)
    if page is not None:  # the page, without the catalog block at its end (summary, source)
        shown, fields = split_page(page.read_text(encoding="utf-8"))
        assert by_code.stdout == shown and "<!-- catalog" not in shown
        assert fields["summary"] == rule.summary and fields.get("source", "") == rule.source
    else:
        assert by_code.stdout.startswith(f"# {rule.code} {rule.name}\n") and rule.summary in by_code.stdout
        assert "no page" in by_code.stderr


def test_unknown_rule_exits_2() -> None:
    proc = run_cli("rule", "unreadable-sourse")
    assert proc.returncode == 2 and "did you mean unreadable-source" in proc.stderr


def test_wheel_ships_the_pages(tmp_path: Path) -> None:
    pytest.importorskip("hatchling")
    out = tmp_path / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "-w", str(out), str(ROOT)], capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    wheel = next(out.glob("schemalint-*.whl"))
    unpacked = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        zf.extractall(unpacked)
    assert "schemalint/_rule_pages/README.md" in names
    for page in PAGES.glob("*.md"):
        assert f"schemalint/_rule_pages/{page.name}" in names
    env = {**os.environ, "PYTHONPATH": str(unpacked)}
    code = ("import json, schemalint.rule_docs as d, schemalint; print(schemalint.__file__); "
            "print(json.dumps([str(p) for p in d.pages_dirs()]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    where, dirs = proc.stdout.splitlines()
    assert where.startswith(str(unpacked)), "the unpacked wheel must be the one imported"
    assert json.loads(dirs) == [str(unpacked / "schemalint" / "_rule_pages")]
    rule = RULES[-1]
    proc = subprocess.run([sys.executable, "-m", "schemalint", "rule", rule.code], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0
    if (PAGES / page_name(rule)).is_file():
        assert proc.stdout == split_page((PAGES / page_name(rule)).read_text(encoding="utf-8"))[0]
    # the summary comes from the packaged page too
    proc = subprocess.run([sys.executable, "-m", "schemalint", "rules", "--format", "json"], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["rules"][-1]["summary"] == rule.summary != ""
