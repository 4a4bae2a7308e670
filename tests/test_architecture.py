"""The layers of docs/architecture.md hold: no import circle between schemalint's modules and no
import from a lower layer to a higher one, counting the imports inside functions (lazy imports)
and leaving out those under ``if TYPE_CHECKING:`` (they never run)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "schemalint"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("schemalint", "schemalint.model", "schemalint.textsafe", "schemalint.safe_write", "schemalint.errors"),
    ("schemalint.schema", "schemalint.targets"),
    ("schemalint.probe",),
    ("schemalint.loaders", "schemalint.bridge", "schemalint.traffic"),
    ("schemalint.rules", "schemalint.rule_docs", "schemalint.diff"),
    ("schemalint.config",),
    ("schemalint.engine",),
    ("schemalint.api", "schemalint.show"),
    ("schemalint.commands", "schemalint.api_commands", "schemalint.fix"),
    ("schemalint.report",),
    ("schemalint.cli", "schemalint.editor", "schemalint.__main__"),
)
"""Lowest first, one row per layer, written in folders and top-level modules: a folder is one layer
(nothing below ``schemalint`` itself is named apart from the folder that holds it), so the
folders show what may import what (docs/architecture.md)."""


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _imports(node)


def _edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for node in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if not node.module or not node.module.startswith("schemalint"):
                    continue
                names = [f"{node.module}.{a.name}" for a in node.names]
                targets = [_resolve(n) if n in MODULES else _resolve(node.module) for n in names]
            else:
                targets = [_resolve(a.name) for a in node.names if a.name.startswith("schemalint")]
            edges[module].update(t for t in targets if t and t != module)
    return edges


def _layer(module: str) -> int:
    best, length = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = i, len(prefix)
    assert best >= 0, f"{module} is in no layer: add it to LAYERS and docs/architecture.md"
    return best


def test_no_import_from_a_lower_layer_to_a_higher_one() -> None:
    upward = sorted((a, b) for a, bs in _edges().items() for b in bs if _layer(b) > _layer(a))
    assert not upward, f"imports against the layers (docs/architecture.md): {upward}"


def test_no_import_circle() -> None:
    edges = _edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert not circles, f"import circles: {circles}"


def test_each_folder_is_one_layer() -> None:
    """No row names a module inside a folder another row (or the same) names: the table is folders."""
    names = [n for row in LAYERS for n in row if n != "schemalint"]
    nested = [(a, b) for a in names for b in names if a != b and b.startswith(a + ".")]
    assert not nested, f"a folder split between rows: {nested}"
    for name in names:
        assert name in MODULES, f"{name} names no module or folder of schemalint"


def test_the_checker_sees_a_violation() -> None:
    """The graph is not empty and the layer map catches an upward import when one exists."""
    edges = _edges()
    assert "schemalint.engine" in edges["schemalint.api"]
    assert _layer("schemalint.cli.check") > _layer("schemalint.model")
    assert _layer("schemalint.rules.shape.sl001_invalid_schema") < _layer("schemalint.engine")
