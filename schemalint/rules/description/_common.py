"""Shared machinery of the description (SL2xx) rules: the diagnostics of SL201 and SL202, which
report the two halves of one analysis (:func:`schemalint.rules.description.mentions.analyse`)."""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool, escape_token
from schemalint.rules.base import Context, Rule
from schemalint.rules.description.mentions import AbsentMention, analyse


def mention_diagnostics(rule: Rule, tool: Tool, ctx: Context, *, removed: bool) -> Iterator[Diagnostic]:
    """Diagnostics of ``rule`` for the mentions :func:`analyse` found: those whose name exists
    elsewhere (``removed=True``, SL202) or nowhere (``removed=False``, SL201)."""
    for f in analyse(tool, ctx):
        if (f.removed_in is not None) is not removed:
            continue
        parent = f.site.instance_parent
        policy = None if removed else runtime_extra_policy(tool, parent, f.mention.token)
        msg, hint = finding_message(f, removed=removed, runtime=policy)
        yield rule.diag(
            tool, None, msg, hint=hint, severity=f.severity, file_pointer=f.site.file_pointer,
            instance_path=None if parent is None else f"{parent}/{escape_token(f.mention.token)}",
        )


def runtime_extra_policy(tool: Tool, parent: str | None, key: str) -> str | None:
    """What the tool's runtime does with the undeclared key ``key`` sent in the object at instance
    path ``parent``: ``"refuses"`` (its input schema closes that object: pydantic
    ``extra="forbid"``, zod ``.strict()``), ``"admits"`` (it accepts the call and drops or ignores the
    key: zod's default strip, pydantic's default ``extra="ignore"``), or ``None`` when that is not
    known (no runtime contract, no runtime object at ``parent``, or union branches that disagree).
    Never raises."""
    runtime = tool.runtime
    if runtime is None or runtime.input is None or parent is None:
        return None
    from schemalint.rules.contract._common import object_pairs

    answers = {rt.admits_extra(key) for _s, ipath, _adv, rt in object_pairs(tool) if ipath == parent}
    if answers == {False}:
        return "refuses"
    if answers == {True}:
        return "admits"
    return None


def finding_message(f: AbsentMention, *, removed: bool, runtime: str | None = None) -> tuple[str, str]:
    """(message, hint) for one finding; shared by SL201 and SL202. ``runtime``: what the tool's
    runtime does with the undeclared key (:func:`runtime_extra_policy`; ``None``: not known).
    The message says only what is known: refused where something is known to refuse the key,
    accepted and dropped where the runtime is known to accept it (rules/SL201-*.md)."""
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
    if runtime == "refuses":
        head += ("; the tool's runtime refuses undeclared keys there, so a call that follows the description "
                 "is refused, often with a message that names no key")
    elif runtime == "admits" and f.severity is Severity.ERROR:
        head += (
            "; the advertised object is closed (additionalProperties: false or strict mode), so a client or "
            "provider that checks the call against it refuses it, while the tool's own runtime accepts it and "
            f"silently drops `{tok}`"
        )
    elif runtime == "admits":
        head += (f"; the schema admits other keys and the tool's runtime accepts such a call, so the value of "
                 f"`{tok}` is silently dropped or ignored")
    elif f.severity is Severity.ERROR:
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
