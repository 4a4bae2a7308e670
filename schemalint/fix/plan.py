"""From diagnostics to edits of one file's text: each rule's declared fix, planned on the document.

:func:`plan_text` asks the rule of each diagnostic for its :class:`~schemalint.rules.fixes.Edit`
(:attr:`schemalint.rules.base.Rule.fix`), on the parsed document (a JSON Lines record: the line the
diagnostic is on), keeps the edits that do not touch a place another edit already changes, and
turns them into text: :func:`schemalint.fix.jsontext.text_edits` for JSON and JSON Lines (spans
edited in place), :func:`schemalint.fix.yamltext.apply_yaml` for YAML (ruamel.yaml's round trip).
:func:`edits_for` is the same per diagnostic, for the language server's code actions.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from schemalint.fix.jsontext import FixError, TextEdit, apply_edits, text_edits
from schemalint.rules.fixes import Edit, Fix, FixContext, Op, Taken

if TYPE_CHECKING:
    from schemalint.model import Diagnostic, Tool
    from schemalint.targets import TargetSpec

KINDS = ("json", "jsonl", "yaml")


@cache
def fix_of(code: str) -> Fix | None:
    """The fix rule ``code`` declares (imports the rule's module), or ``None``: no fix, or no such rule."""
    from schemalint.rules.catalog import CATALOG

    for entry in CATALOG:
        if entry.code == code:
            fix: Fix | None = entry.load().fix
            return fix
    return None


class Records(list[tuple[int | None, int, int, Any]]):
    """``(line, start, end, value)`` of each document of a text, and the ``kind`` it parsed as."""

    def __init__(self, kind: str, items: Iterable[tuple[int | None, int, int, Any]]) -> None:
        super().__init__(items)
        self.kind = kind


@dataclass
class FixAction:
    """One diagnostic's fix as edits of the text it was planned on: ``title`` (the code action's
    title), ``safe``, and ``edits``: :class:`~schemalint.fix.jsontext.TextEdit` values
    ``(start, end, new_text)`` in code-point offsets of that original text."""

    diagnostic: Diagnostic
    title: str
    safe: bool
    edits: list[TextEdit] = field(default_factory=list)


@dataclass
class Planned:
    """What :func:`plan_text` decided for one file: the ``text`` after the edits, the diagnostics
    fixed (``applied``), those whose fix is unsafe and was not asked for (``unsafe``), those with
    no fix here (``unfixable``), and ``problem`` when the file could not be edited at all."""

    text: str
    applied: list[tuple[Diagnostic, Edit]] = field(default_factory=list)
    unsafe: list[Diagnostic] = field(default_factory=list)
    unfixable: list[Diagnostic] = field(default_factory=list)
    problem: str | None = None


def _records(path: str, text: str, kind: str) -> tuple[str, list[tuple[int | None, int, int, Any]]]:
    """The kind the text parsed as (a ``.json`` file holding JSON Lines, as datasets do, is
    ``jsonl``) and ``(line, start, end, value)`` of each document in ``text``: the whole text for
    JSON and YAML, each non-blank line of JSON Lines (offsets of ``text``). Raises
    :class:`FixError` when it does not parse."""
    from schemalint.loaders.files.documents import parse_text

    doc = parse_text(path, text, kind)
    if doc.problems and not doc.values:
        raise FixError(doc.problems[0].message)
    kind = doc.kind
    if kind != "jsonl":
        if doc.problems:
            raise FixError(doc.problems[0].message)
        return kind, ([(None, 0, len(text), doc.values[0][1])] if doc.values else [])
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    out: list[tuple[int | None, int, int, Any]] = []
    for line, value in doc.values:
        if line is None:
            continue
        start = starts[line - 1]
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end > start and text[end - 1] == "\r":
            end -= 1
        out.append((line, start, end, value))
    return kind, out


def _tools(path: str, records: Sequence[tuple[int | None, int, int, Any]]) -> dict[int | None, list[Tool]]:
    from schemalint.loaders.formats.json_tools import find_tools

    out: dict[int | None, list[Tool]] = {}
    for line, _, _, value in records:
        try:
            out[line] = list(find_tools(value, path, line))
        except Exception:  # a record the loaders cannot read has no tools to fix
            out[line] = []
    return out


def _tool_for(diag: Diagnostic, tools: Sequence[Tool]) -> Tool | None:
    best = None
    for tool in tools:
        at = tool.origin.pointer
        inside = diag.pointer == at or diag.pointer.startswith(at + "/")
        if (diag.tool is None or tool.name == diag.tool) and inside and (
                best is None or len(at) > len(best.origin.pointer)):
            best = tool
    return best


def _targets(tool: Tool | None, spec: TargetSpec | None) -> frozenset[str]:
    from schemalint.rules.base import Context

    if tool is None:
        return spec.targets if spec is not None else frozenset()
    ctx = Context(targets=spec.targets if spec else frozenset(), replace_targets=bool(spec and spec.replace))
    return ctx.targets_for(tool)


def _null_in_nullable(tool: Tool | None, checked: frozenset[str]) -> bool:
    """Whether ``tool``'s file is read as Gemini's ``Schema``, where ``"nullable": true`` admits
    ``null`` (:attr:`FixContext.null_in_nullable`): a Gemini declaration (format ``gemini``), or a
    bare ``{name, description, parameters}`` declaration (a format that implies no provider) checked
    against Gemini only. ``False`` when the tool is unknown."""
    from schemalint.targets import infer_targets

    if tool is None:
        return False
    if tool.origin.format == "gemini":
        return True
    return not infer_targets(tool) and checked == frozenset({"gemini"})


def _conflicts(edit: Edit, taken: Taken) -> bool:
    return any(taken.clashes(op.path) for op in edit.ops)


def node_label(diag: Diagnostic, tool: Tool | None) -> str:
    """Where a fix applies, for its title: the tool's name and the JSON pointer of the schema node
    relative to the tool's advertised schema (``tool `get_a`, /properties/a``), or the file pointer
    when the tool is not known; two fixes of one rule in one file never share it."""
    pointer = diag.pointer
    if tool is not None:
        base = tool.schema_pointer
        if pointer == base or pointer.startswith(base + "/"):
            pointer = pointer[len(base):]
        return f"tool `{tool.name}`, {pointer or 'the root schema'}"
    name = f"tool `{diag.tool}`, " if diag.tool else ""
    return f"{name}{pointer or 'the document'}"


def named(edit: Edit, diag: Diagnostic, tool: Tool | None) -> Edit:
    """``edit`` with the node it applies to (:func:`node_label`) added to its title."""
    from dataclasses import replace

    return replace(edit, title=f"{edit.title} ({node_label(diag, tool)})")


def _line_of(diag: Diagnostic, kind: str) -> int | None:
    return diag.line if kind == "jsonl" else None


def plan_edits(diagnostics: Iterable[Diagnostic], path: str, text: str, kind: str, *,
               targets: TargetSpec | None = None, unsafe: bool = True,
               ) -> tuple[list[tuple[Diagnostic, Edit, int | None]], Planned, Records]:
    """The edits of ``diagnostics`` (those of the file ``path`` whose text is ``text``, of ``kind``
    json/jsonl/yaml) that do not touch a place an earlier one changes: ``(diagnostic, edit, line)``
    (``line``: the JSON Lines record), the :class:`Planned` bookkeeping so far, and the records.
    ``unsafe``: whether unsafe edits are taken. Raises :class:`FixError` when the text does not parse."""
    body, bom = (text[1:], 1) if text.startswith("\ufeff") else (text, 0)
    kind, found = _records(path, body, kind)
    records = Records(kind, [(line, start + bom, end + bom, value) for line, start, end, value in found])
    tools = _tools(path, records)
    by_line = {line: value for line, _, _, value in records}
    planned = Planned(text)
    chosen: list[tuple[Diagnostic, Edit, int | None]] = []
    taken: dict[int | None, Taken] = {}
    for diag in diagnostics:
        fix = fix_of(diag.code)
        line = _line_of(diag, kind)
        if fix is None or line not in by_line:
            planned.unfixable.append(diag)
            continue
        tool = _tool_for(diag, tools.get(line, ()))
        if tool is not None and tool.schema_view is not None:
            planned.unfixable.append(diag)  # a decoded or translated schema: its pointers are not the file's
            continue
        try:
            checked = _targets(tool, targets)
            edit = fix.plan(diag, by_line[line], FixContext(checked, _null_in_nullable(tool, checked)))
        except Exception:  # a plan that fails on odd input leaves the finding as it is
            edit = None
        if edit is None or not edit.ops:
            planned.unfixable.append(diag)
            continue
        edit = named(edit, diag, tool)
        if not edit.safe and not unsafe:
            planned.unsafe.append(diag)
            continue
        done = taken.setdefault(line, Taken())
        if _conflicts(edit, done):
            continue  # the next round sees it again
        for op in edit.ops:
            done.add(op.path)
        chosen.append((diag, edit, line))
    return chosen, planned, records


def plan_text(diagnostics: Iterable[Diagnostic], path: str, text: str, kind: str, *,
              targets: TargetSpec | None = None, unsafe: bool = False) -> Planned:
    """:func:`plan_edits`, applied: the :class:`Planned` text of ``path`` after the edits of one round.
    A file that cannot be edited comes back unchanged with ``problem`` set (never raises)."""
    try:
        chosen, planned, records = plan_edits(diagnostics, path, text, kind, targets=targets, unsafe=unsafe)
        if not chosen:
            return planned
        kind = records.kind
        if kind == "yaml":
            from schemalint.fix.yamltext import apply_yaml

            planned.text = apply_yaml(text, [op for _, edit, _ in chosen for op in edit.ops])
        else:
            edits: list[TextEdit] = []
            by_line: dict[int | None, list[Op]] = {}
            for _, edit, at in chosen:
                by_line.setdefault(at, []).extend(edit.ops)
            newline = "\r\n" if "\r\n" in text else "\n"
            for line, start, end, _ in records:
                ops = by_line.get(line)
                if ops:
                    edits.extend(text_edits(text, ops, start=start, end=end, one_line=kind == "jsonl",
                                            newline=newline))
            planned.text = apply_edits(text, edits)
        planned.applied = [(d, e) for d, e, _ in chosen]
    except FixError as exc:
        return Planned(text, problem=str(exc))
    return planned


def edits_for(diagnostics: Sequence[Diagnostic], text: str, kind: str, *, path: str = "",
              targets: TargetSpec | None = None) -> list[FixAction]:
    """The fix of each diagnostic of ``diagnostics`` that has one, as edits of ``text`` (the
    buffer of the file ``path``; ``kind``: ``json``, ``jsonl`` or ``yaml``): one
    :class:`FixAction` per fixable diagnostic, safe and unsafe alike (``safe`` says which), each
    planned alone on the original text so that an editor can offer each as a code action.
    A YAML fix is one edit spanning the lines ruamel.yaml's round trip changed. ``targets``: the
    run's ``--target`` (:func:`schemalint.targets.parse_targets`). Never raises: a diagnostic
    whose fix cannot be planned on this text is left out."""
    if kind not in KINDS:
        return []
    out: list[FixAction] = []
    for diag in diagnostics:
        if diag.file and path and diag.file != path and not _same_file(diag.file, path):
            continue
        try:
            chosen, _, records = plan_edits([diag], path, text, kind, targets=targets, unsafe=True)
        except FixError:
            return []
        if not chosen:
            continue
        _, edit, line = chosen[0]
        try:
            if records.kind == "yaml":
                from schemalint.fix.yamltext import apply_yaml

                edits = [minimal_edit(text, apply_yaml(text, list(edit.ops)))]
            else:
                start, end = next((s, e) for at, s, e, _ in records if at == line)
                edits = text_edits(text, edit.ops, start=start, end=end, one_line=records.kind == "jsonl")
        except FixError:
            continue
        out.append(FixAction(diag, f"{diag.code}: {edit.title}", edit.safe, edits))
    return out


def _same_file(a: str, b: str) -> bool:
    import os

    return os.path.realpath(a) == os.path.realpath(b)


def minimal_edit(old: str, new: str) -> TextEdit:
    """One :class:`TextEdit` turning ``old`` into ``new``: the span between their common prefix and
    common suffix, widened to whole lines."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    start = old.rfind("\n", 0, start) + 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return TextEdit(start, end_old, new[start:end_new])


def unified_diff(path: str, old: str, new: str) -> str:
    """The unified diff of ``path`` from ``old`` to ``new`` (``a/``/``b/`` names, as git shows them)."""
    name = path.lstrip("/")
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                 f"a/{name}", f"b/{name}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
