"""Shared machinery of the description (SL2xx) rules: the diagnostics of SL201 and SL202, which
report the two halves of one analysis (:func:`schemalint.rules.description.mentions.analyse`)."""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool, escape_token
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.mentions import Finding, analyse


def mention_diagnostics(rule: Rule, tool: Tool, ctx: Context, *, removed: bool) -> Iterator[Diagnostic]:
    """Diagnostics of ``rule`` for the mentions :func:`analyse` found: those whose name exists
    elsewhere (``removed=True``, SL202) or nowhere (``removed=False``, SL201)."""
    for f in analyse(tool, ctx):
        if (f.removed_in is not None) is not removed:
            continue
        msg, hint = finding_message(f, removed=removed)
        parent = f.site.instance_parent
        yield rule.diag(
            tool, None, msg, hint=hint, severity=f.severity, file_pointer=f.site.file_pointer,
            instance_path=None if parent is None else f"{parent}/{escape_token(f.mention.token)}",
        )


def finding_message(f: Finding, *, removed: bool) -> tuple[str, str]:
    """(message, hint) for one finding; shared by SL201 and SL202."""
    tok = f.mention.token
    where = f.site.where
    if removed:
        head = (f"{where} asks for `{tok}`, which the advertised schema does not declare although "
                f"{f.removed_in} does (removed here, or not yet added)")
    elif f.spelling_of:
        head = (f"{where} writes `{tok}`, a different spelling of the declared property `{f.spelling_of}` "
                f"(same name after case and separator folding); the schema declares no `{tok}`")
    elif f.declared_at is not None:
        listed = [f"`{n}`" for n in (tok, *f.also)]
        names = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
        inside = f"inside `{f.wrapper}`" if f.wrapper else "one level down"
        head = (f"{where} documents {names} as arguments of the call, but the schema declares "
                f"{'them' if f.also else 'it'} {inside} (`{tok}` at {f.declared_at}): the text addresses the "
                "top level of the arguments")
    else:
        head = f"{where} presents `{tok}` as a parameter, but the schema at that level declares no `{tok}`"
    if f.severity is Severity.ERROR:
        head += (
            "; the object is closed (additionalProperties: false or strict mode), so a call that follows "
            "the description is refused, often with a message that names no key"
        )
    else:
        head += "; a model that follows the description sends a key the tool does not declare"
    near = f.suggestion()
    hint = f"did you mean `{near}`? " if near and near != tok else ""
    if f.spelling_of:
        return head, f"Write `{f.spelling_of}`, the declared spelling, in the description."
    if f.declared_at is not None:
        parent = f"`{f.wrapper}`" if f.wrapper else "its parent object"
        return head, (f"Document the names as keys of {parent} (e.g. {{\"{f.wrapper or 'parent'}\": "
                      f"{{\"{tok}\": ...}}}}), or flatten the schema to match the description.")
    if removed:
        hint += f"Either restore `{tok}` in the advertised schema or remove it from the description."
    else:
        hint += f"Rename `{tok}` in the description to the declared property, or declare `{tok}`."
    return head, hint
