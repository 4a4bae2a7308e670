"""``schemalint check --fix``: the fixes the rules declare, applied to tool files without moving
anything else (docs/fix.md).

- :mod:`schemalint.fix.plan`: from diagnostics to edits of one file's text (:func:`edits_for` for an
  editor's code actions, :func:`plan_text` for a round of ``--fix``);
- :mod:`schemalint.fix.jsontext`: JSON Patch operations applied to JSON text in place;
- :mod:`schemalint.fix.yamltext`: the same for YAML, through ruamel.yaml's round trip;
- :mod:`schemalint.fix.run`: fix, re-check, repeat to a fixed point, then write through
  :func:`schemalint.safe_write.write_source`.

The rules declare their fixes (:attr:`schemalint.rules.base.Rule.fix`, :mod:`schemalint.rules.fixes`);
this package knows no rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from schemalint.fix.jsontext import TextEdit
    from schemalint.fix.plan import FixAction

__all__ = ["FixAction", "TextEdit", "edits_for"]


def edits_for(diagnostics: Any, text: str, kind: str, *, path: str = "", targets: Any = None) -> list[FixAction]:
    """:func:`schemalint.fix.plan.edits_for`: for the language server, one
    :class:`~schemalint.fix.plan.FixAction` (title, ``safe``, :class:`~schemalint.fix.jsontext.TextEdit`
    values ``(start, end, new_text)`` in code-point offsets of ``text``) per diagnostic that has a fix.
    ``kind``: ``json``, ``jsonl`` or ``yaml``. Never raises."""
    from schemalint.fix.plan import edits_for as plan_edits_for

    return plan_edits_for(diagnostics, text, kind, path=path, targets=targets)


def __getattr__(name: str) -> Any:
    if name == "TextEdit":
        from schemalint.fix.jsontext import TextEdit

        return TextEdit
    if name == "FixAction":
        from schemalint.fix.plan import FixAction

        return FixAction
    raise AttributeError(name)
