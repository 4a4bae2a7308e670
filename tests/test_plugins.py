"""Plugin rules (issue 32, docs/plugins.md): the example plugin in examples/plugin is pip-installed
into a fresh virtual environment (its entry point is real package metadata), and schemalint run
there treats its rule as a built-in one: listing, `schemalint rule`, the page's Bad and Good
examples, selection by code, prefix and name, options and severity from the configuration,
SARIF, baselines. A plugin that cannot be used stops the run with exit 2 naming it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.conftest import ROOT

PLUGIN = ROOT / "examples" / "plugin"
PAGE = PLUGIN / "acme_schemalint" / "ACME101-parameter-snake-case.md"

pytestmark = pytest.mark.xdist_group("plugin-venv")  # one worker builds the venv for the module


@pytest.fixture(scope="module")
def venv_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the example plugin pip-installed; schemalint and its
    dependencies are this environment's, seen through a path entry (no package index)."""
    pytest.importorskip("hatchling")
    base = tmp_path_factory.mktemp("plugin")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "dependencies.pth").write_text(f"{ROOT}\n{sysconfig.get_path('purelib')}\n")
    source = base / "plugin-src"
    shutil.copytree(PLUGIN, source)
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                              "--no-build-isolation", "--disable-pip-version-check", str(source)],
                             capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stdout + install.stderr
    return py


def _run(py: Path, *args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    proc = subprocess.run([str(py), "-m", "schemalint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **(env or {})})
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def _page_block(section: str) -> str:
    text = PAGE.read_text()
    body = text.split(f"## {section}\n", 1)[1]
    return re.search(r"```json\n(.*?)^```", body, re.S | re.M)[1]  # type: ignore[index]


def _codes(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [d["code"] for d in json.loads(proc.stdout)["diagnostics"]]


def test_the_plugin_rule_is_listed_and_has_its_page(venv_python: Path, tmp_path: Path) -> None:
    listed = _run(venv_python, "rules", "--format", "json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = {r["code"]: r for r in json.loads(listed.stdout)["rules"]}
    assert "SL101" in rows and "ACME101" in rows
    acme = rows["ACME101"]
    assert acme["name"] == "parameter-snake-case" and acme["severity"] == "warning"
    assert acme["summary"].startswith("A tool parameter's name is not snake_case")  # from the page's catalog block
    assert acme["help_uri"].startswith("file://") and acme["help_uri"].endswith("ACME101-parameter-snake-case.md")
    page = _run(venv_python, "rule", "ACME101", cwd=tmp_path)
    assert page.returncode == 0
    assert page.stdout.startswith("# ACME101 parameter-snake-case") and "## Bad" in page.stdout
    assert "<!-- catalog" not in page.stdout and "no page" not in page.stderr
    by_name = _run(venv_python, "rule", "parameter-snake-case", cwd=tmp_path)
    assert by_name.stdout == page.stdout


def test_the_page_examples_run_and_selection_works(venv_python: Path, tmp_path: Path) -> None:
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(_page_block("Bad"))
    good.write_text(_page_block("Good"))
    assert _codes(_run(venv_python, "check", "bad.json", "--select", "ACME101", "--format", "json",
                       cwd=tmp_path)) == ["ACME101"]
    assert _codes(_run(venv_python, "check", "good.json", "--select", "ACME101", "--format", "json",
                       cwd=tmp_path)) == []
    # by prefix and by name, beside built-in rules, and ignored like one
    assert _codes(_run(venv_python, "check", "bad.json", "--select", "ACME", "--format", "json",
                       cwd=tmp_path)) == ["ACME101"]
    assert _codes(_run(venv_python, "check", "bad.json", "--select", "parameter-snake-case,SL007",
                       "--format", "json", cwd=tmp_path)) == ["ACME101"]
    every = _run(venv_python, "check", "bad.json", "--format", "json", cwd=tmp_path)
    assert "ACME101" in _codes(every) and every.returncode == 0  # a warning: below the default --fail-on
    assert "ACME101" not in _codes(_run(venv_python, "check", "bad.json", "--ignore", "ACME", "--format", "json",
                                        cwd=tmp_path))
    unknown = _run(venv_python, "check", "bad.json", "--select", "ACME9", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown rule selector" in unknown.stderr
    # an exception inside the plugin's rule is an SL999 naming the plugin, never a finding
    crashed = _run(venv_python, "check", "bad.json", "--select", "ACME101", "--fail-rule", "ACME101", "--format",
                   "json", cwd=tmp_path)
    [internal] = json.loads(crashed.stdout)["diagnostics"]
    assert internal["code"] == "SL999" and "bug in the plugin that defines it (acme_schemalint." in internal["message"]
    # the text report names the rule like a built-in one
    text = _run(venv_python, "check", "bad.json", "--select", "ACME101", cwd=tmp_path)
    assert "ACME101" in text.stdout and "orderId" in text.stdout and "/properties/orderId" in text.stdout


def test_options_and_severity_from_the_configuration(venv_python: Path, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text(_page_block("Bad"))
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["bad.json"]\n'
                                             '[tool.schemalint.severity]\nACME101 = "error"\n')
    graded = _run(venv_python, "check", "--format", "json", cwd=tmp_path)
    assert graded.returncode == 1, graded.stdout + graded.stderr
    assert [d["severity"] for d in json.loads(graded.stdout)["diagnostics"] if d["code"] == "ACME101"] == ["error"]
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["bad.json"]\n'
                                             '[tool.schemalint.options.ACME101]\nallow = ["orderId"]\n')
    assert "ACME101" not in _codes(_run(venv_python, "check", "--format", "json", cwd=tmp_path))
    (tmp_path / "pyproject.toml").write_text('[tool.schemalint]\nsources = ["bad.json"]\n'
                                             '[tool.schemalint.options.ACME101]\nallowed = ["orderId"]\n')
    wrong = _run(venv_python, "check", cwd=tmp_path)
    assert wrong.returncode == 2 and "allowed" in wrong.stderr


def test_sarif_and_baselines(venv_python: Path, tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(_page_block("Bad"))
    sarif = json.loads(_run(venv_python, "check", "tools.json", "--select", "ACME101", "--format", "sarif",
                            cwd=tmp_path).stdout)
    run = sarif["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["ACME101"]["name"] == "parameter-snake-case"
    assert rules["ACME101"]["helpUri"].endswith("ACME101-parameter-snake-case.md")
    assert rules["ACME101"]["defaultConfiguration"]["level"] == "warning"
    [result] = run["results"]
    assert result["ruleId"] == "ACME101" and result["partialFingerprints"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1

    wrote = _run(venv_python, "check", "tools.json", "--select", "ACME101", "--write-baseline", "baseline.json",
                 cwd=tmp_path)
    assert wrote.returncode == 0, wrote.stderr
    assert "ACME101" in (tmp_path / "baseline.json").read_text()
    known = _run(venv_python, "check", "tools.json", "--select", "ACME101", "--baseline", "baseline.json",
                 "--format", "json", cwd=tmp_path)
    assert _codes(known) == []
    tools = json.loads((tmp_path / "tools.json").read_text())
    tools[0]["inputSchema"]["properties"]["lineCount"] = {"type": "integer"}
    (tmp_path / "tools.json").write_text(json.dumps(tools, indent=2))
    new = _run(venv_python, "check", "tools.json", "--select", "ACME101", "--baseline", "baseline.json",
               "--format", "json", cwd=tmp_path)
    assert [d["message"] for d in json.loads(new.stdout)["diagnostics"]] == [
        "parameter 'lineCount' is not snake_case (ACME API style guide)"]


def _fake_plugin(folder: Path, target: str, module: str = "") -> dict[str, str]:
    """A distribution whose metadata declares ``target`` in the entry point group (a real
    dist-info directory on the path, as pip writes it), plus a module's source."""
    dist = folder / "bad_rules-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: bad-rules\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[schemalint.rules]\nbad = {target}\n")
    if module:
        (folder / "bad_rules.py").write_text(module)
    return {"PYTHONPATH": f"{folder}:{ROOT}"}


@pytest.mark.parametrize(("target", "module", "said"), [
    ("bad_rules:CATALOG", "from schemalint.rules.catalog import RuleEntry\n"
     "CATALOG = (RuleEntry('SL900', 'mine', (), 'bad_rules:X'),)\n", "not starting with SL or SD"),
    ("bad_rules:CATALOG", "from schemalint.rules.catalog import RuleEntry\n"
     "CATALOG = (RuleEntry('BAD001', 'missing-description', (), 'bad_rules:X'),)\n", "already the code or name"),
    ("bad_rules:CATALOG", "raise ImportError('no such helper')\n", "cannot be loaded: ImportError: no such helper"),
    ("bad_rules:CATALOG", "CATALOG = {'BAD001': 1}\n", "not a list or tuple of RuleEntry rows"),
], ids=["reserved-code", "taken-name", "import-error", "not-rows"])
def test_a_plugin_that_cannot_be_used_stops_the_run(tmp_path: Path, target: str, module: str, said: str) -> None:
    env = _fake_plugin(tmp_path / "site", target, module)
    (tmp_path / "tools.json").write_text(_page_block("Good"))
    proc = subprocess.run([sys.executable, "-m", "schemalint", "check", "tools.json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, env={**_environ(), **env})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert "plugin 'bad' (bad_rules:CATALOG, distribution bad-rules 0.1)" in proc.stderr and said in proc.stderr
    ignored = subprocess.run([sys.executable, "-m", "schemalint", "check", "tools.json"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300,
                             env={**_environ(), **env, "SCHEMALINT_NO_PLUGINS": "1"})
    assert ignored.returncode == 0, ignored.stderr


def _environ() -> dict[str, str]:
    import os

    return dict(os.environ)


def test_the_path_is_read_for_the_group_before_importlib_metadata(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``_may_be_declared`` answers False only when no distribution on ``sys.path`` can declare the
    group (then importlib.metadata is neither imported nor asked): a dist-info or egg-info directory
    whose ``entry_points.txt`` names it, or a zip file on the path, makes it True; and it agrees with
    importlib.metadata on this process's own path."""
    from importlib.metadata import entry_points

    from schemalint.rules.plugins import GROUP, _may_be_declared

    assert _may_be_declared(GROUP) == bool(entry_points(group=GROUP))
    site = tmp_path / "site"
    other = site / "other-1.0.dist-info"
    other.mkdir(parents=True)
    (other / "entry_points.txt").write_text("[console_scripts]\nother = other:main\n")
    (site / "loose.egg-info").write_text("Name: loose\n")  # an egg-info file: no entry points
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(site)])
    assert not _may_be_declared(GROUP)
    assert _may_be_declared("console_scripts")
    egg = site / "Acme_Rules.egg-info"
    egg.mkdir()
    (egg / "entry_points.txt").write_text(f"[{GROUP}]\nacme = acme:CATALOG\n")
    assert _may_be_declared(GROUP)
    shutil.rmtree(egg)
    (tmp_path / "deps.zip").write_bytes(b"")
    monkeypatch.setattr(sys, "path", [str(site), str(tmp_path / "deps.zip")])
    assert _may_be_declared(GROUP)
