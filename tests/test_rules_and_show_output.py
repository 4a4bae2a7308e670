"""`schemalint rules` fits the terminal, `show` marks only changed values, SD checks are rules
(issue 15, "diff a reviewer can act on")."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli


@pytest.mark.parametrize("columns", [80, 200])
def test_rules_table_fits_the_terminal_width(columns: int) -> None:
    """On a real terminal (a pseudo-terminal here) of ``columns`` columns."""
    import pty

    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "schemalint", "rules"], stdin=follower, stdout=follower,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert proc.wait(timeout=60) == 0
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks).decode())  # any escape left over
    lines = out.replace("\r\n", "\n").splitlines()
    assert max(len(line) for line in lines) <= columns
    codes = [line.split()[0] for line in lines if line[:2] in ("SL", "SD")]
    assert "SL101" in codes and "SD208" in codes and "SD401" in codes
    text = " ".join(" ".join(line.split()) for line in lines)
    assert "annotation" in text and "rug-pull" in text.replace("rug- pull", "rug-pull")
    if columns == 200:  # wide enough: one line per rule, no summary cut short
        row = next(line for line in lines if line.startswith("SL000"))
        assert row.rstrip().endswith("no tool in it is checked.")


def test_rule_page_of_a_diff_check() -> None:
    proc = cli("rule", "SD208")
    assert proc.returncode == 0 and proc.stdout.startswith("# SD208 annotation-default-explicit")


def _marked(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line[:1] in "~+-" and line[1:2] == " "]


def test_show_does_not_mark_a_trailing_comma() -> None:
    proc = cli("show", "SearchProducts")
    assert proc.returncode == 0, proc.stderr
    marked = _marked(proc.stdout)
    assert len(marked) == 1 and '"category"' in marked[0] and marked[0].startswith("+")
    assert any(line.strip().startswith('"query"') and line.rstrip().endswith('"query",')
               for line in proc.stdout.splitlines() if not line.startswith("~"))


def test_show_does_not_mark_key_order(tmp_path: Path) -> None:
    manifest = json.loads((ROOT / "examples/zod/contracts.json").read_text())
    tool = next(t for t in manifest["tools"] if t["name"] == "present_answer_clean")
    runtime = tool["runtime"]["input"]
    tool["runtime"]["input"] = dict(reversed(list(runtime.items())))  # same schema, other key order
    manifest["tools"] = [tool]
    (tmp_path / "contracts.json").write_text(json.dumps(manifest))
    proc = cli("show", "present_answer_clean", str(tmp_path / "contracts.json"))
    assert proc.returncode == 0, proc.stderr
    assert _marked(proc.stdout) == []
    tool["runtime"]["input"]["properties"]["artifact"]["minLength"] = 1  # a real difference is marked
    (tmp_path / "contracts.json").write_text(json.dumps(manifest))
    marked = _marked(cli("show", "present_answer_clean", str(tmp_path / "contracts.json")).stdout)
    assert marked and all(m.startswith(("+", "~")) for m in marked)


MCP_OLD = {"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}
MCP_NEW = {"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"},
                      "annotations": {"idempotentHint": False}}]}


def test_sd_checks_are_ignorable_in_configuration_and_on_both_command_lines(tmp_path: Path) -> None:
    (tmp_path / "old.json").write_text(json.dumps(MCP_OLD))
    (tmp_path / "new.json").write_text(json.dumps(MCP_NEW))
    plain = json.loads(cli("diff", "old.json", "new.json", "--format", "json", cwd=tmp_path).stdout)
    assert [c["code"] for c in plain["changes"]] == ["SD208"]
    (tmp_path / "schemalint.toml").write_text('ignore = ["SD208"]\n')
    configured = cli("diff", "old.json", "new.json", "--format", "json", cwd=tmp_path)
    assert configured.returncode == 0, configured.stderr
    assert json.loads(configured.stdout)["changes"] == []
    assert cli("check", "new.json", cwd=tmp_path).returncode == 0  # the same configuration serves check
    (tmp_path / "schemalint.toml").write_text("")
    assert cli("check", "new.json", "--ignore", "SD208,SL007", cwd=tmp_path).returncode == 0
    on_cli = cli("diff", "old.json", "new.json", "--ignore", "SD208", "--format", "json", cwd=tmp_path)
    assert json.loads(on_cli.stdout)["changes"] == []
    (tmp_path / "schemalint.toml").write_text('[severity]\nSD208 = "error"\n')
    regraded = cli("diff", "old.json", "new.json", "--format", "json", cwd=tmp_path)
    assert regraded.returncode == 1  # re-graded to error: --fail-on breaking fails on it
    assert json.loads(regraded.stdout)["changes"][0]["severity"] == "error"
    refused = cli("check", "new.json", "--select", "SD208", cwd=tmp_path)  # would select nothing
    assert refused.returncode == 2 and "SD208" in refused.stderr
