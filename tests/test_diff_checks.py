"""One base/revision fixture pair per diff check (tests/diff_checks/SDxxx/), run by one runner,
and the selection of SD checks through the real CLI (select, ignore, severity, suppressions).

Each fixture directory holds ``base.json``, ``revision.json`` and ``expected.json`` (the changes
``schemalint diff base.json revision.json --select CODE`` reports: code, pointer, severity,
message). A new check gets a directory; a check without one fails
:func:`test_every_check_has_a_fixture`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.diff.checks import BY_CODE
from tests.conftest import ROOT, cli

CASES = ROOT / "tests" / "diff_checks"
CODES = sorted(p.name for p in CASES.iterdir() if p.is_dir())


def _diff(*args: str, cwd: Path | None = None) -> tuple[int, dict[str, Any]]:
    proc = cli("diff", *args, "--format", "json", cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def test_every_check_has_a_fixture() -> None:
    assert sorted(BY_CODE) == CODES, "every SD check has tests/diff_checks/<CODE>/ and nothing else is there"


@pytest.mark.parametrize("code", CODES)
def test_fixture_pair(code: str) -> None:
    case = f"tests/diff_checks/{code}"
    _, report = _diff(f"{case}/base.json", f"{case}/revision.json", "--select", code, "--fail-on", "never")
    got = [{k: c[k] for k in ("code", "pointer", "severity", "message")} for c in report["changes"]]
    expected = json.loads((CASES / code / "expected.json").read_text(encoding="utf-8"))
    assert got == expected
    assert got and all(c["code"] == code for c in got)
    # without --select the check is reported among the others (SD401 only when selected)
    _, everything = _diff(f"{case}/base.json", f"{case}/revision.json", "--fail-on", "never")
    codes = {c["code"] for c in everything["changes"]}
    assert (code in codes) is (not BY_CODE[code].default_off)


SD208 = "tests/diff_checks/SD208"


def _pair(tmp_path: Path, config: str) -> tuple[Path, list[str]]:
    (tmp_path / "pyproject.toml").write_text(f"[tool.schemalint]\n{config}", encoding="utf-8")
    return tmp_path, [str(ROOT / SD208 / "base.json"), str(ROOT / SD208 / "revision.json")]


def test_ignore_sd208_in_configuration(tmp_path: Path) -> None:
    cwd, sides = _pair(tmp_path, 'ignore = ["SD208"]\n')
    code, report = _diff(*sides, "--fail-on", "bytes", cwd=cwd)
    assert report["changes"] == [] and code == 0  # every change of the tool left out: nothing fails
    assert any("1 change(s) left out" in n for n in report["summary"]["notes"])
    proc = cli("diff", *sides, cwd=cwd)
    assert "SD208 annotation" not in proc.stdout and "* search" not in proc.stdout
    # by name, on the command line, and undone by --select
    assert _diff(*sides, "--ignore", "annotation-default-explicit", "--fail-on", "never")[1]["changes"] == []
    assert [c["code"] for c in _diff(*sides, "--select", "SD2", cwd=cwd)[1]["changes"]] == ["SD208"]


def test_severity_override_makes_a_check_fail(tmp_path: Path) -> None:
    cwd, sides = _pair(tmp_path, '[tool.schemalint.severity]\nSD208 = "error"\n')
    code, report = _diff(*sides, cwd=cwd)
    assert code == 1 and [c["severity"] for c in report["changes"]] == ["error"]
    assert cli("diff", *sides).returncode == 0  # info by default: --fail-on breaking passes


def test_per_tool_ignores_and_sl_only_select(tmp_path: Path) -> None:
    cwd, sides = _pair(
        tmp_path,
        'select = ["SL1"]\n[[tool.schemalint.per-tool-ignores]]\ntools = ["sea*"]\nrules = ["SD208"]\n'
        'reason = "our own server"\n',
    )
    assert _diff(*sides, "--fail-on", "never", cwd=cwd)[1]["changes"] == []
    cwd, sides = _pair(tmp_path, 'select = ["SL1"]\n')  # a select of SL rules leaves the SD checks on
    assert [c["code"] for c in _diff(*sides, "--fail-on", "never", cwd=cwd)[1]["changes"]] == ["SD208"]


def test_unknown_sd_codes_are_refused_with_a_suggestion(tmp_path: Path) -> None:
    proc = cli("diff", "a.json", "b.json", "--ignore", "SD2080")
    assert proc.returncode == 2 and "did you mean `SD208`" in proc.stderr
    proc = cli("diff", "a.json", "b.json", "--select", "SL101")  # diff selects diff checks
    assert proc.returncode == 2 and "unknown rule selector 'SL101'" in proc.stderr
    cwd, sides = _pair(tmp_path, 'ignore = ["SD2080"]\n')
    proc = cli("diff", *sides, cwd=cwd)
    assert proc.returncode == 2 and "did you mean `SD208`" in proc.stderr
    # a configuration that names SD codes is valid for check too, and check ignores them
    (tmp_path / "tools.json").write_text((ROOT / SD208 / "base.json").read_text(), encoding="utf-8")
    proc = cli("check", "tools.json", cwd=tmp_path)
    assert proc.returncode == 2  # SD2080 is refused by check's configuration too
    (tmp_path / "pyproject.toml").write_text(
        '[tool.schemalint]\nselect = ["SD401"]\n[[tool.schemalint.per-tool-ignores]]\ntools = ["x"]\n'
        'rules = ["SD208"]\nreason = "r"\n', encoding="utf-8")
    proc = cli("check", "tools.json", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["summary"]["tools"] == 1 and "unused" not in proc.stderr


def test_rug_pull_is_off_until_selected(tmp_path: Path) -> None:
    case = "tests/diff_checks/SD401"
    code, report = _diff(f"{case}/base.json", f"{case}/revision.json", "--fail-on", "breaking")
    assert "SD401" not in {c["code"] for c in report["changes"]} and code == 0  # SD301 + SD202 only
    for selector in ("--select=SD401", "--extend-select=rug-pull", "--extend-select=SD4"):
        code, report = _diff(f"{case}/base.json", f"{case}/revision.json", selector)
        assert code == 1 and "SD401" in {c["code"] for c in report["changes"]}, selector
        assert report["summary"]["by_kind"]["security"] == 1
    code, report = _diff(f"{case}/base.json", f"{case}/revision.json", "--extend-select=SD")
    assert "SD401" not in {c["code"] for c in report["changes"]}
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nextend-select = ["SD401"]\n'
                                             '[tool.schemalint.severity]\nSD401 = "warning"\n', encoding="utf-8")
    code, report = _diff(str(ROOT / case / "base.json"), str(ROOT / case / "revision.json"), cwd=tmp_path)
    assert code == 0 and [c["severity"] for c in report["changes"] if c["code"] == "SD401"] == ["warning"]
    text = cli("diff", f"{case}/base.json", f"{case}/revision.json", "--select", "SD401").stdout
    assert "1 security" in text and "SD401 rug-pull" in text


def test_rules_and_rule_list_the_diff_checks() -> None:
    proc = cli("rules")
    for chk in BY_CODE.values():
        assert any(line.startswith(chk.code + " ") and chk.name in line for line in proc.stdout.splitlines())
    data = json.loads(cli("rules", "--format", "json").stdout)
    assert [c["code"] for c in data["diff_checks"]] == list(BY_CODE)
    page = cli("rule", "SD103")
    assert page.returncode == 0 and page.stdout == (ROOT / "rules" / "SD103-required-added.md").read_text()
    assert cli("rule", "rug-pull").stdout.startswith("# SD401 rug-pull\n")
    proc = cli("rule", "SD1033")
    assert proc.returncode == 2 and "SD103" in proc.stderr


def test_rug_pull_in_snapshot_check(tmp_path: Path) -> None:
    case = ROOT / "tests" / "diff_checks" / "SD401"
    (tmp_path / "tools.json").write_text((case / "base.json").read_text(), encoding="utf-8")
    assert cli("snapshot", "tools.json", "--dir", "snaps", cwd=tmp_path).returncode == 0
    (tmp_path / "tools.json").write_text((case / "revision.json").read_text(), encoding="utf-8")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path)
    assert proc.returncode == 1 and "stale" in proc.stdout and "SD401" not in proc.stdout  # off by default
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nextend-select = ["SD401"]\n', encoding="utf-8")
    proc = cli("snapshot", "tools.json", "--dir", "snaps", "--check", cwd=tmp_path)
    assert proc.returncode == 1
    assert "snaps/add.json: SD401 rug-pull: the description and input schema of tool `add` changed" in proc.stdout
    code, report = _diff("snaps", "tools.json", cwd=tmp_path)  # the snapshots as the approved side
    assert code == 1 and [c["tool"] for c in report["changes"] if c["code"] == "SD401"] == ["add"]


def test_rug_pull_of_a_server_listed_over_stdio(tmp_path: Path) -> None:
    pytest.importorskip("mcp")
    import sys

    from schemalint.api import load

    command = f'"{sys.executable}" "{ROOT / "examples" / "mcp_server" / "server.py"}"'
    listed = load([], mcp_stdio=[command]).tools
    approved = [dict(t.raw) for t in listed]
    approved[0]["description"] = "The text that was reviewed."
    (tmp_path / "approved.json").write_text(json.dumps(approved), encoding="utf-8")
    code, report = _diff("approved.json", "--mcp-stdio", command, "--select", "SD401", cwd=tmp_path)
    assert code == 1
    assert [c["tool"] for c in report["changes"]] == [listed[0].name]
    assert report["summary"]["new"].startswith("mcp-stdio ")
    proc = cli("diff", "approved.json", "other.json", "--mcp-stdio", command, cwd=tmp_path)
    assert proc.returncode == 2 and "give only OLD" in proc.stderr
