"""The per-file shortcuts of loading and locating (issue 33) are exact: a file the text screen says
cannot hold tools holds none, the YAML alias screen misses no alias, and YAML findings are located
where the pure-Python composer puts them, on real files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from schemalint.engine.locate import _prefixes, _split_all, node_positions, yaml_positions
from schemalint.loaders.files.documents import parse_text, read_document
from schemalint.loaders.formats.json_tools import _find_tools, may_hold_tools
from tests.conftest import CORPUS, REPOS, ROOT, needs_repos, needs_shared, run_cli

DATA_SUFFIXES = (".json", ".jsonl", ".yaml", ".yml", ".snap")


def _data_files(*tops: Path) -> Iterator[Path]:
    for top in tops:
        for root, _, names in os.walk(top):
            for name in sorted(names):
                if name.lower().endswith(DATA_SUFFIXES):
                    yield Path(root) / name


def _python_positions(text: str, pointers: dict[str, Any]) -> dict[tuple[str, ...], tuple[int, int]] | None:
    """What ``yaml_positions`` answered with PyYAML's pure-Python composer (the reference)."""
    wanted = _prefixes(pointers)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    except RecursionError:
        return None
    return node_positions(node, wanted)


def _every_pointer(text: str) -> list[str]:
    """The JSON pointer of every node of a YAML text (escaped), or ``[""]`` when it does not compose."""
    try:
        node = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return [""]
    out: list[str] = []
    stack: list[tuple[Any, str]] = [(node, "")]
    while stack:
        n, p = stack.pop()
        out.append(p)
        if isinstance(n, yaml.MappingNode):
            stack.extend((v, f"{p}/{str(k.value).replace('~', '~0').replace('/', '~1')}") for k, v in n.value)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend((v, f"{p}/{i}") for i, v in enumerate(n.value))
    return out


def _assert_same_positions(texts: list[str]) -> int:
    compared = 0
    for text in texts:
        split = _split_all(_every_pointer(text))
        reference = _python_positions(text, split)
        if reference is None:
            continue  # the pure-Python composer recursed too deep (it raised before this round)
        assert yaml_positions(text, split) == reference, text[:200]
        compared += 1
    return compared


def test_yaml_positions_match_the_python_composer_on_awkward_text() -> None:
    texts = [
        '{"\U0001f600é": 1, b: 2, c: [x, {d: 3}]}\n',
        "a: ü\U0001f600\nb:\n  - {ü: 1, c: 2}\n",
        "\ufeffa: 1\nb: 2\n",
        "a: 1\r\nb: 2\r\n",
        'a: "x\u2028y"\nb: 1\n',
        "a: &x {k: [1, 2]}\nb: *x\nc: {<<: *x, d: 4}\n",
        "a/b: {c~d: 1}\n'quoted key': [1, {e: 2}]\n? [complex]\n: 3\n",
        "tools:\n  - name: t\n    parameters: {type: object, properties: {q: {type: strin}}}\n" * 300,
        "---\na: 1\n---\nb: 2\n",  # two documents: neither composer answers
        "a: [1\n",
    ]
    assert _assert_same_positions(texts) == len(texts)


@needs_repos
def test_yaml_positions_match_the_python_composer_on_real_repositories() -> None:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in _data_files(REPOS)
             if p.suffix.lower() in (".yaml", ".yml")]
    assert len(texts) > 1000
    assert _assert_same_positions(texts) > 1000


def test_a_deeply_nested_yaml_file_with_findings_is_located(tmp_path: Path) -> None:
    # the pure-Python composer raised RecursionError here (an internal error) before this round
    depth = 900
    path = tmp_path / "tools.yaml"
    path.write_text("tools:\n  - name: get\n    description: Get it.\n    parameters:\n      type: object\n"
                    "      properties:\n        a: {type: strin}\n      x-deep: " + "[" * depth + "]" * depth + "\n")
    proc = run_cli("check", str(path), "--jobs", "1", "--select", "SL001")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"{path}:7:" in proc.stdout, proc.stdout


def _walk_finds_tools(doc: Any) -> bool:
    return any(True for line, value in doc.values for _ in _find_tools(value, doc.path, line, ""))


def _assert_screen_exact(paths: list[Path]) -> tuple[int, int]:
    screened = holding = 0
    for path in paths:
        doc = read_document(str(path))
        finds = _walk_finds_tools(doc)
        holding += finds
        if not may_hold_tools(doc.text):
            screened += 1
            assert not finds, path
    return screened, holding


@needs_repos
def test_the_tool_screen_never_hides_a_tool_in_real_repositories() -> None:
    screened, holding = _assert_screen_exact([*_data_files(REPOS), *_data_files(ROOT / "examples")])
    assert screened > 500 and holding > 50  # it screens out many files, and others do hold tools


@needs_shared
def test_the_tool_screen_never_hides_a_tool_in_the_corpus() -> None:
    _, holding = _assert_screen_exact(list(_data_files(CORPUS)))
    assert holding > 500


@pytest.mark.parametrize("text", [
    '{"tools": [{"name": "a", "inputSchema": {}}]}',
    '{"tools": [{"toolSpec": {"name": "a", "inputSchema": {"json": {}}}}]}',
    '[{"name": "a", "input_schema": {"type": "object"}}]',
    '{"functions": [{"name": "a", "parameters": {"type": "object"}}]}',
    '{"tools": [{"type": "function", "function": {"name": "a"}}]}',
    '{"tools": [{"type": "function", "name": "a", "description": "d"}]}',
    '{"functionDeclarations": [{"name": "a"}]}',
    "function_declarations:\n  - name: a\n",
    '{"name": "a", "parametersJsonSchema": {"type": "object"}}',
    '{"tools": [{"name": "a", "arguments": {"type": "object"}}]}',
    '{"schemalint": 1, "tools": [{"name": "a", "schema": {}}]}',
    '{"tools": [{"n\\u0061me": "a", "inputSchema": {}}]}',
])
def test_every_tool_shape_passes_the_screen(text: str) -> None:
    kind = "yaml" if text.startswith("function_declarations") else "json"
    doc = parse_text("t." + kind, text)
    assert _walk_finds_tools(doc), text  # a tool is there
    assert may_hold_tools(text)


def test_yaml_without_an_anchor_has_no_alias() -> None:
    # the alias screen looks for `&`: an alias without an anchor does not compose at all, and a
    # cycle or an alias bomb is still caught when the text has both characters
    assert parse_text("a.yaml", "a: *x\n").problems
    assert parse_text("a.yaml", "on: push\nwith:\n  files: '**/*.py'\n").problems == []
    cyclic = parse_text("a.yaml", "a: &x [*x]\n")
    assert cyclic.problems and "recursive" in cyclic.problems[0].message
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9))
    assert "alias bomb" in parse_text("a.yaml", bomb).problems[0].message
