"""Release readiness (issue 32): the version comes from git (hatch-vcs) with a fallback when there
is no git metadata, the sdist builds a wheel that ships the Node worker and the rule pages, the
wheel installed in a fresh virtual environment passes scripts/smoke_test.py, and the release
workflow and CHANGELOG.md agree with the install lines the README and docs give."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.conftest import NODE_MISSING, ROOT

pytestmark = pytest.mark.xdist_group("wheel")


def _build(what: str, source: Path, out: Path) -> Path:
    """Build an sdist or a wheel of ``source`` (a tree, or an sdist to build the wheel from)."""
    out.mkdir(parents=True, exist_ok=True)
    if what == "sdist":
        code = f"from hatchling.build import build_sdist; print(build_sdist({str(out)!r}))"
        proc = subprocess.run([sys.executable, "-c", code], cwd=source, capture_output=True, text=True, timeout=300)
    else:
        proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                               "-w", str(out), str(source)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return next(out.glob("*.tar.gz" if what == "sdist" else "*.whl"))


def _version_of(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def test_sdist_wheel_fresh_venv_smoke_test(tmp_path: Path) -> None:
    """What .github/workflows/release.yml does, with the environment's packages as dependencies."""
    pytest.importorskip("hatchling")
    pytest.importorskip("hatch_vcs")
    sdist = _build("sdist", ROOT, tmp_path / "sdist")
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    for needed in ("schemalint/bridge/node_worker.mjs", "rules/SL101-required-drift.md", "CHANGELOG.md",
                   "scripts/smoke_test.py", "examples/zod/contracts.json"):
        assert needed in names, needed
    assert not any("node_modules" in n for n in names)
    unpacked = tmp_path / "unpacked"
    with tarfile.open(sdist) as tf:
        tf.extractall(unpacked, filter="data")
    wheel = _build("wheel", next(unpacked.iterdir()), tmp_path / "wheel")  # built from the sdist, as `build` does
    assert _version_of(wheel) == sdist.name.removesuffix(".tar.gz").split("-")[1]  # PKG-INFO's version
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    for needed in ("schemalint/bridge/node_worker.mjs", "schemalint/_rule_pages/SL101-required-drift.md",
                   "schemalint/_version.py"):
        assert needed in names, needed

    # A fresh virtual environment: the wheel installed into it, its dependencies seen through a
    # path entry to this environment's site-packages (no package index needed; .pth files of that
    # directory, such as this checkout's editable install, are not processed).
    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / "bin" / "python"
    fresh_site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                     capture_output=True, text=True, check=True).stdout.strip())
    (fresh_site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
                              "--disable-pip-version-check", str(wheel)], capture_output=True, text=True, timeout=300)
    assert install.returncode == 0, install.stderr
    smoke = subprocess.run([str(py), str(ROOT / "scripts" / "smoke_test.py"), "--repo", str(ROOT),
                            "--expect-version", _version_of(wheel)], capture_output=True, text=True, timeout=600,
                           cwd=tmp_path)
    print(smoke.stdout)
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert "smoke test passed" in smoke.stdout
    if not NODE_MISSING:  # the installed wheel's Node worker read a TypeScript module (not skipped)
        assert "ok: examples/typescript/src/schemas.ts: read through the shipped Node worker" in smoke.stdout
    assert str(fresh_site) in smoke.stdout  # the fresh environment's copy ran, not this checkout


def test_version_from_git_and_fallback_without_it(tmp_path: Path) -> None:
    """A clone without tags (what CI's actions/checkout makes) builds, with a dev version from
    the commit; a tag gives its version; a tree with no git metadata builds with the fallback."""
    pytest.importorskip("hatch_vcs")
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(".git", ".venv", "node_modules", "_version.py",
                                                             "__pycache__", "*.egg-info", ".*_cache", "dist"))
    assert _version_of(_build("wheel", tree, tmp_path / "w0")) == "0.0.0"  # pyproject's fallback-version
    _git("init", "-q", cwd=tree)
    _git("add", "-A", cwd=tree)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one", cwd=tree)
    untagged = _version_of(_build("wheel", tree, tmp_path / "w1"))
    assert re.fullmatch(r"0\.0\.1\.dev1\+g[0-9a-f]+", untagged), untagged
    _git("tag", "v1.2.3", cwd=tree)
    assert _version_of(_build("wheel", tree, tmp_path / "w2")) == "1.2.3"


def test_release_workflow_changelog_and_install_lines_agree() -> None:
    workflow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text())
    assert workflow[True]["push"]["tags"] == ["v*"]  # yaml reads the key `on` as True
    build = "\n".join(s.get("run", "") for s in workflow["jobs"]["build"]["steps"])
    for step in ("python -m build", "twine check --strict", "python -m venv", "scripts/smoke_test.py"):
        assert step in build, step
    publish = workflow["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}  # trusted publishing, no token
    assert any(s.get("uses", "").startswith("pypa/gh-action-pypi-publish@") for s in publish["steps"])

    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert released, "CHANGELOG.md has no released version"
    latest = released[0]
    for page in ("README.md", "docs/ci.md"):
        text = (ROOT / page).read_text()
        assert f"@v{latest}" in text, f"{page}: the install line names the latest tag v{latest}"
        assert f"rev: v{latest}" in text, f"{page}: the hook snippet's rev is the latest tag"
        assert "pre-commit autoupdate" in text
        # nothing asks a user to install from PyPI, where schemalint is not published yet
        for line in re.finditer(r"pip install\s+'?schemalint\b(\[[^\]]*\])?", text):
            assert re.match(r"\s*@\s*git\+https://", text[line.end():]), f"{page}: {line.group()} (not on PyPI)"
        assert "rev: main" not in text and "@main\n" not in text, page
