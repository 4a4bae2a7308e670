"""schemalint's own outputs (snapshots, the baseline) are not read back as tool sources."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import ROOT, cli, cli_json


def test_snapshot_dir_and_baseline_under_the_sources_are_skipped(tmp_path: Path) -> None:
    shutil.copy(ROOT / "examples" / "mcp" / "tools_list.json", tmp_path / "tools.json")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.schemalint]\nsources = ["."]\nsnapshot-dir = "snaps"\nbaseline = "baseline.json"\n'
    )
    assert cli("snapshot", cwd=tmp_path).returncode == 0
    assert len(list((tmp_path / "snaps").glob("*.json"))) == 4
    assert cli("check", "--write-baseline", "baseline.json", cwd=tmp_path).returncode == 0
    entries = json.loads((tmp_path / "baseline.json").read_text())
    assert "snaps/" not in json.dumps(entries)
    code, report = cli_json("check", "--no-baseline", cwd=tmp_path)
    assert report["summary"]["tools"] == 4 and report["summary"]["files"] == 1
    assert {Path(d["file"]).name for d in report["diagnostics"]} == {"tools.json"}
    code, report = cli_json("check", cwd=tmp_path)
    assert code == 0 and report["diagnostics"] == []
