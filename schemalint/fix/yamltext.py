"""JSON Patch operations applied to YAML text through ruamel.yaml's round trip.

ruamel.yaml (https://yaml.readthedocs.io/, round-trip mode, seen 2026-12-02) loads the text into
ordered maps and sequences that remember comments, anchors and aliases, key order, flow or block
style and quoting; the operations change those nodes and the text is dumped again, so what they
do not touch comes back as it was (the indentation of block sequences is detected from the text).
A node under an anchor is shared by its aliases: a fix there applies to each of them, as the
schema it describes is one.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

from schemalint.fix.jsontext import FixError
from schemalint.model import split_pointer
from schemalint.rules.fixes import Op, Taken, parent


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def _indents(text: str) -> tuple[int, int]:
    """``(mapping indent, sequence dash offset)`` as written in ``text`` (defaults 2, 0)."""
    mapping = 2
    for m in re.finditer(r"(?m)^( +)\S", text):
        mapping = len(m.group(1))
        break
    dash = 0
    prev_indent = None
    for line in text.splitlines():
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if stripped.startswith("- ") and prev_indent is not None and prev_indent[1].endswith(":"):
            dash = max(indent - prev_indent[0], 0)
            break
        prev_indent = (indent, stripped.rstrip())
    return mapping, dash


def _walk(root: Any, tokens: list[str]) -> Any:
    node = root
    for token in tokens:
        if isinstance(node, dict):
            if token not in node:
                raise FixError("/" + "/".join(tokens) + ": nothing there")
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise FixError("/" + "/".join(tokens) + ": nothing there")
    return node


def _in_order(ops: Sequence[Op]) -> list[Op]:
    """``ops`` with the removals of sequence elements last, highest index first, so that removing
    one element does not shift the index of another (the operations were planned on the same
    document)."""
    def element_removal(op: Op) -> bool:
        return op.op == "remove" and parent(op.path)[1].isdigit() if op.path else False

    rest = [op for op in ops if not element_removal(op)]
    removals = sorted((op for op in ops if element_removal(op)),
                      key=lambda op: (parent(op.path)[0], -int(parent(op.path)[1])))
    return rest + removals


def apply_yaml(text: str, ops: Sequence[Op]) -> str:
    """``text`` (one YAML document) with ``ops`` applied, dumped by ruamel.yaml's round trip (an
    operation under a path another removes or replaces is dropped). Raises :class:`FixError` when
    the text does not load or an operation names no place in it."""
    from ruamel.yaml.error import YAMLError

    yaml = _yaml()
    try:
        root = yaml.load(text)
    except YAMLError as exc:
        raise FixError(f"cannot load the YAML: {exc}") from None
    taken = Taken()
    for op in _in_order(ops):
        if op.path in taken.paths or any(a in taken.paths for a in Taken._ancestors(op.path)):
            continue
        if op.op in ("remove", "replace"):
            taken.add(op.path)
        if not op.path:
            raise FixError("cannot change the whole document")
        where, token = parent(op.path)
        holder = _walk(root, split_pointer(where))
        if isinstance(holder, dict):
            if op.op == "remove":
                if token not in holder:
                    raise FixError(f"{op.path}: nothing to remove")
                del holder[token]
            elif op.op == "replace":
                if token not in holder:
                    raise FixError(f"{op.path}: nothing to replace")
                holder[token] = op.value
            else:
                holder[token] = op.value
        elif isinstance(holder, list):
            if op.op == "add" and token == "-":
                holder.append(op.value)
            elif token.isdigit() and int(token) < len(holder):
                if op.op == "remove":
                    del holder[int(token)]
                else:
                    holder[int(token)] = op.value
            else:
                raise FixError(f"{op.path}: no such element")
        else:
            raise FixError(f"{where or '/'}: no mapping or sequence there")
    mapping, dash = _indents(text)
    yaml.indent(mapping=mapping, sequence=mapping + dash, offset=dash)
    out = io.StringIO()
    yaml.dump(root, out)
    dumped = out.getvalue()
    if text.startswith("---") and not dumped.startswith("---"):
        dumped = "---\n" + dumped
    if "\r\n" in text:
        dumped = dumped.replace("\r\n", "\n").replace("\n", "\r\n")
    if not text.endswith(("\n", "\r")):
        dumped = dumped.rstrip("\r\n")
    return dumped
