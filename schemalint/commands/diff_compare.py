"""Compare two sets of tools: bytes first, then meaning, then classified changes.

For every tool name on either side (:func:`compare_tools`):

1. **identical**: the canonical renderings (:func:`schemalint.diff.render.render`) are equal;
2. **same-meaning**: they differ, but the semantic views are equal once key order and the
   order of ``required``/``enum``/``type`` lists are ignored (reported as SD0xx, info);
3. **changed**: deepdiff locates the differences and :mod:`schemalint.diff.classify`
   classifies each (SD1xx breaking, SD2xx compatible, SD3xx description);
4. **added** / **removed**: the name exists on one side only (SD201 / SD101), with a
   rename hint when an added and a removed tool have the same input schema.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from schemalint.diff.checks import check
from schemalint.diff.checks._common import (
    MISSING,
    OPENAPI_30,
    SET_KEYWORDS,
    canonical,
    is_noop,
    normalise,
    rename_pairs,
    same_meaning,
    small,
)
from schemalint.diff.checks.sd401_rug_pull import rug_pull
from schemalint.diff.classify import classify_schema
from schemalint.diff.errors import DiffError, index_sides
from schemalint.diff.render import (
    SCHEMALINT_KEY,
    rendered_fields,
    rendered_fields_at,
    rendered_schema_path,
    same_rendering,
    shown_definition,
)
from schemalint.diff.result import Change, DiffResult, ToolDiff
from schemalint.model import Tool, escape_token, resolve
from schemalint.targets import TargetSpec, strict_decoded

if TYPE_CHECKING:
    from schemalint.engine.selection import RuleFilter


MCP_ANNOTATION_DEFAULTS: dict[str, bool] = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}
"""MCP ToolAnnotations defaults (MCP specification 2025-06-18, server/tools, ToolAnnotations)."""

_ANNOTATION_MEANING = {
    "readOnlyHint": "the tool does not modify its environment",
    "destructiveHint": "the tool may perform destructive updates",
    "idempotentHint": "repeated calls with the same arguments have no additional effect",
    "openWorldHint": "the tool interacts with an open world of external entities",
}


def _field_base(tool: Tool) -> str:
    return rendered_fields_at(tool)


def _schema_base(tool: Tool) -> str:
    return rendered_schema_path(tool) or ""


def semantic_view(tool: Tool) -> dict[str, Any]:
    """What the model is shown, independent of provider format and key order.

    ``{"description", "title", "schema", "output", "annotations", "meta"}`` where
    ``meta`` holds every other key of the definition (``strict``, ``_meta``, ``icons`` ...).
    The keys are those of the rendered definition (:func:`~schemalint.diff.render.shown_definition`),
    whatever the source (a file, a snapshot, a live server, a Python or TypeScript object), so the
    input schema is never counted as metadata (:func:`~schemalint.diff.render.rendered_schema_path`).
    """
    shown = shown_definition(tool)
    shown = shown if isinstance(shown, Mapping) else {}
    at = rendered_fields_at(tool)
    fields = rendered_fields(tool)
    path = rendered_schema_path(tool)
    schema_key = path.rsplit("/", 1)[-1] if path else None
    skip = {
        "name",
        "description",
        "title",
        "annotations",
        "outputSchema",
        schema_key,
        "runtime",
        "refused_when_omitted",
        SCHEMALINT_KEY,  # schemalint's own notes on a Python source, never shown to the model
    }
    if tool.origin.format == "pydantic":
        skip.add("parameters")  # the rendering's schema key (compared as `schema`)
    meta = {k: v for k, v in fields.items() if k not in skip}
    if tool.origin.format.startswith("openai") or at:
        meta.pop("type", None)
    if at:  # the fields sit inside a wrapper: its other keys are metadata too
        meta.update({f"^{k}": v for k, v in shown.items() if k not in ("type", "function")})
    return {
        "description": tool.description,
        "title": fields.get("title"),
        "schema": tool.advertised,
        "output": tool.output_schema,
        "annotations": fields.get("annotations"),
        "meta": meta,
    }


def compare_tools(
    old: Sequence[Tool],
    new: Sequence[Tool],
    *,
    old_label: str = "old",
    new_label: str = "new",
    selection: RuleFilter | None = None,
    targets: TargetSpec | None = None,
) -> DiffResult:
    """Compare the tools of two revisions; raises :class:`DiffError` for duplicate names.

    ``selection``: which SD checks to report at which severity
    (:func:`schemalint.commands.diff_selection.diff_filter`; default: every check but the
    off-by-default SD401, at its default severity). ``targets``: the provider profiles the tools are
    sent to beside those their format implies (``--target``, the configuration's ``target``): a tool
    sent to a strict one reads an object closed as strict mode requires as SD213, not SD106.
    """
    try:
        return _compare_tools(old, new, old_label, new_label, selection, targets)
    except RecursionError:
        # a tool nested deeper than the interpreter's recursion limit, added, removed or renamed
        # (its shape is compared for a rename): the whole comparison again on the loaders' big stack
        from schemalint.loaders.files.documents import _with_big_stack

        result: DiffResult = _with_big_stack(lambda: _compare_tools(old, new, old_label, new_label, selection,
                                                                    targets))
        return result


def _compare_tools(old: Sequence[Tool], new: Sequence[Tool], old_label: str, new_label: str,
                   selection: RuleFilter | None, targets: TargetSpec | None = None) -> DiffResult:
    from schemalint.commands.diff_selection import apply_selection, diff_filter

    selection = selection or diff_filter()
    rug_pulls = selection.rule_enabled("SD401")
    old_by, new_by = index_sides(old, new, old_label, new_label)
    result = DiffResult(old_label=old_label, new_label=new_label)
    removed = [n for n in old_by if n not in new_by]
    added = [n for n in new_by if n not in old_by]
    renames = rename_pairs(removed, added, lambda n: old_by[n].advertised, lambda n: new_by[n].advertised)
    back = {v: k for k, v in renames.items()}
    # The byte compare first, in the order the new side was read (memory order: by name, the
    # encoder's reads scatter over the heap); the tools are then reported by name.
    identical = {name for name, n in new_by.items() if name in old_by and same_rendering(old_by[name], n)}
    for name in sorted(set(old_by) | set(new_by)):
        o, n = old_by.get(name), new_by.get(name)
        if o is not None and n is not None:
            diff = (ToolDiff(name, "identical", old=o, new=n) if name in identical
                    else compare_tool(o, n, strict_decoded(n, targets)))
            diff.name = name  # "NAME (FILE)" when several files define the name (index_tools)
            if rug_pulls and diff.status == "changed":
                pulled = rug_pull(o, n, old_label=old_label, new_label=new_label, base=_field_base(n))
                if pulled is not None:
                    diff.changes.append(pulled)
            result.tools.append(diff)
        elif o is not None:
            hint = (
                f"looks renamed to `{renames[name]}` (same input schema); clients and prompts that name "
                f"`{name}` break"
                if name in renames
                else "prompts, saved plans and clients that name this tool break; "
                "keep it for a deprecation period"
            )
            change = Change(
                check("tool-removed"), name, "", f"tool `{name}` was removed", hint=hint, file=o.origin.file,
                after=MISSING, side="old",
            )
            result.tools.append(ToolDiff(name, "removed", old=o, changes=[change]))
        elif n is not None:
            added_hint = (
                f"looks like a rename of `{back[name]}` (same input schema)" if name in back else None
            )
            change = Change(
                check("tool-added"), name, "", f"new tool `{name}`", hint=added_hint, file=n.origin.file,
                before=MISSING,
            )
            result.tools.append(ToolDiff(name, "added", new=n, changes=[change]))
    apply_selection(result, selection)
    return result


def compare_tool(old: Tool, new: Tool, strict: bool = False) -> ToolDiff:
    """Compare two definitions of the tool ``old.name`` (bytes, then meaning, then classify);
    ``strict``: the tool is sent to a strict target (:func:`schemalint.targets.strict_decoded`).

    A schema nested deeper than the interpreter's recursion limit is compared on the big stack
    the loaders parse it on."""
    try:
        return _compare_tool(old, new, strict)
    except RecursionError:
        from schemalint.loaders.files.documents import _with_big_stack

        return _with_big_stack(lambda: _compare_tool(old, new, strict))


def _compare_tool(old: Tool, new: Tool, strict: bool = False) -> ToolDiff:
    if same_rendering(old, new):
        return ToolDiff(new.name, "identical", old=old, new=new)
    from schemalint.diff.render import MAX_RENDER_DEPTH, too_deep

    for side, tool in (("old", old), ("new", new)):
        if too_deep(tool):
            raise DiffError(f"tool {tool.name!r} ({side}: {tool.origin.file}) changed and nests more than "
                            f"{MAX_RENDER_DEPTH:,} levels deep; its changes are not classified")
    if canonical(normalise(semantic_view(old))) == canonical(normalise(semantic_view(new))):
        return ToolDiff(new.name, "same-meaning", old=old, new=new, changes=byte_changes(old, new))
    changes = classify_tool(old, new, strict)
    if not changes:  # e.g. a oneOf of disjoint branches written as anyOf: nothing a caller sees changed
        return ToolDiff(new.name, "same-meaning", old=old, new=new)
    return ToolDiff(new.name, "changed", old=old, new=new, changes=changes)


def byte_changes(old: Tool, new: Tool) -> list[Change]:
    """SD0xx changes explaining why two same-meaning definitions differ in bytes."""
    name, file = new.name, new.origin.file
    if old.origin.format != new.origin.format:
        return [
            Change(
                check("format-changed"),
                name,
                "",
                f"`{name}` moved from the {old.origin.format} "
                f"format to {new.origin.format} with the same content",
                file=file,
            )
        ]
    keys: list[str] = []
    lists: list[str] = []
    noops: list[str] = []
    shown_new = shown_definition(new)
    _order_walk(shown_definition(old), shown_new, "", None, keys, lists, noops)
    out: list[Change] = []
    for ptr in noops:
        gone = resolve(shown_new, ptr) is MISSING
        out.append(
            Change(
                check("empty-keyword-changed"),
                name,
                ptr,
                f"{ptr} of `{name}` was added or removed; being empty it has no effect on validation",
                file=old.origin.file if gone else file,
                side="old" if gone else "new",
            )
        )
    if keys:
        more = f" (and {len(keys) - 3} more places)" if len(keys) > 3 else ""
        out.append(
            Change(
                check("key-order-changed"),
                name,
                keys[0],
                f"keys of `{name}` are in a different order at {', '.join(p or '/' for p in keys[:3])}{more}",
                hint="the model sees keys in this order; commit the new snapshot if "
                "the reordering is intended",
                file=file,
            )
        )
    for ptr in lists:
        out.append(
            Change(
                check("list-order-changed"),
                name,
                ptr,
                f"the entries of {ptr} of `{name}` are in a different order",
                file=file,
            )
        )
    if not out:
        out.append(
            Change(
                check("format-changed"),
                name,
                "",
                f"the rendered definition of `{name}` differs in bytes only",
                file=file,
            )
        )
    return out


def _order_walk(
    a: Any, b: Any, ptr: str, key: Any, keys: list[str], lists: list[str], noops: list[str]
) -> None:
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        if [k for k in a if k in b] != [k for k in b if k in a]:
            keys.append(ptr)
        for k in [*a, *(k for k in b if k not in a)]:
            if k in a and k in b:
                _order_walk(a[k], b[k], f"{ptr}/{escape_token(k)}", k, keys, lists, noops)
            elif is_noop(k, a.get(k, b.get(k))):
                noops.append(f"{ptr}/{escape_token(k)}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        if key in SET_KEYWORDS and a != b and sorted(map(canonical, a)) == sorted(map(canonical, b)):
            lists.append(ptr)
            return
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _order_walk(x, y, f"{ptr}/{i}", i, keys, lists, noops)


def _word_delta(old: str, new: str) -> str:
    a, b = old.split(), new.split()
    added = removed = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op in ("replace", "delete"):
            removed += i2 - i1
        if op in ("replace", "insert"):
            added += j2 - j1
    if not added and not removed:
        return "whitespace only"
    return f"{added} {'word' if added == 1 else 'words'} added, {removed} removed"


def classify_tool(old: Tool, new: Tool, strict: bool = False) -> list[Change]:
    """Every classified change between two definitions of one tool (description, annotations, schemas);
    ``strict``: the tool is sent to a strict target (:func:`schemalint.targets.strict_decoded`)."""
    name = new.name
    out: list[Change] = []
    base = _field_base(new)

    def at(removed: bool) -> dict[str, Any]:
        # a key only the old definition has is pointed at there (base, file and side of the old side)
        tool = old if removed else new
        return {"file": tool.origin.file, "side": "old" if removed else "new"}

    def shown(value: Any) -> Any:
        return MISSING if value is None else small(value)

    if old.description != new.description:
        delta = _word_delta(old.description or "", new.description or "")
        gone = new.description is None
        out.append(
            Change(
                check("description-changed"),
                name,
                f"{_field_base(old) if gone else base}/description",
                f"the description of tool `{name}` changed ({delta})",
                hint="the description is part of the prompt: check it still names only parameters "
                "the schema has",
                before=shown(old.description),
                after=shown(new.description),
                **at(gone),
            )
        )
    vo, vn = semantic_view(old), semantic_view(new)
    if vo["title"] != vn["title"]:
        gone = vn["title"] is None
        out.append(
            Change(
                check("description-changed"),
                name,
                f"{_field_base(old) if gone else base}/title",
                f"the title of tool `{name}` changed",
                before=shown(vo["title"]),
                after=shown(vn["title"]),
                **at(gone),
            )
        )
    out.extend(_annotation_changes(name, vo["annotations"], vn["annotations"], (base, new.origin.file),
                                   (_field_base(old), old.origin.file)))
    for key in sorted(set(vo["meta"]) | set(vn["meta"])):
        a, b = vo["meta"].get(key, MISSING), vn["meta"].get(key, MISSING)
        if (a is MISSING) != (b is MISSING) or (a is not MISSING and canonical(a) != canonical(b)):
            gone = b is MISSING
            ptr = (f"/{escape_token(key[1:])}" if key.startswith("^")
                   else f"{_field_base(old) if gone else base}/{escape_token(key)}")
            verb = "added" if a is MISSING else "removed" if gone else "changed"
            out.append(
                Change(
                    check("metadata-changed"),
                    name,
                    ptr,
                    f"`{key.lstrip('^')}` of tool `{name}` {verb}",
                    before=small(a),
                    after=small(b),
                    **at(gone),
                )
            )
    if not same_meaning(old.advertised, new.advertised):
        out.extend(
            classify_schema(
                old.advertised,
                new.advertised,
                old_dialect=_dialect(old, old.advertised),
                new_dialect=_dialect(new, new.advertised),
                tool=name,
                old_base=_schema_base(old),
                new_base=_schema_base(new),
                old_file=old.origin.file,
                new_file=new.origin.file,
                strict=strict,
            )
        )
    if not same_meaning(old.output_schema, new.output_schema):
        out.extend(
            classify_schema(
                old.output_schema,
                new.output_schema,
                old_dialect=_dialect(old, old.output_schema),
                new_dialect=_dialect(new, new.output_schema),
                tool=name,
                old_base=f"{_field_base(old)}/outputSchema",
                new_base=f"{base}/outputSchema",
                old_file=old.origin.file,
                new_file=new.origin.file,
                what="output",
            )
        )
    return out


def _dialect(tool: Tool, schema: Any) -> str:
    """The dialect ``schema`` (a schema of ``tool``) is read in: OpenAPI 3.0 for a Gemini ``parameters``
    schema (format ``gemini``, the Gemini ``Schema`` proto: ``nullable`` is a keyword there,
    :data:`~schemalint.diff.checks._common.OPENAPI_30`); else its ``$schema``, else the default of the
    tool's format (2020-12 for MCP, draft-07 for the others; :func:`default_dialect`)."""
    from schemalint.schema.dialect import default_dialect, dialect_of

    if tool.origin.format == "gemini":
        return OPENAPI_30
    return dialect_of(schema, None, default_dialect(tool.origin.format)).dialect


def _annotation_changes(name: str, old: Any, new: Any, new_at: tuple[str, str], old_at: tuple[str, str]
                        ) -> list[Change]:
    """The changes of the ``annotations`` objects ``old``/``new``; ``new_at``/``old_at``: each side's
    ``(pointer of the tool's fields, file)`` (an annotation only the old side has is pointed at there)."""
    out: list[Change] = []
    base, file = new_at
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        if old is None or new is None:
            old = old if isinstance(old, Mapping) else {}
            new = new if isinstance(new, Mapping) else {}
        else:
            return [
                Change(
                    check("metadata-changed"),
                    name,
                    f"{base}/annotations",
                    f"the annotations of tool `{name}` changed",
                    file=file,
                )
            ]
    for key in list(old) + [k for k in new if k not in old]:
        a, b = old.get(key, MISSING), new.get(key, MISSING)
        if a is not MISSING and b is not MISSING and canonical(a) == canonical(b):
            continue
        side = "old" if b is MISSING else "new"
        where, in_file = old_at if b is MISSING else new_at
        ptr = f"{where}/annotations/{escape_token(key)}"

        def change(code: str, message: str, hint: str | None = None, ptr: str = ptr, a: Any = a, b: Any = b,
                   side: str = side, in_file: str = in_file) -> Change:
            return Change(check(code), name, ptr, message, hint=hint, file=in_file, before=small(a), after=small(b),
                          side=side)

        if key == "title":
            out.append(change("description-changed", f"the annotation title of tool `{name}` changed"))
            continue
        default = MCP_ANNOTATION_DEFAULTS.get(key, MISSING)
        if default is not MISSING and ((a is MISSING and b is default) or (b is MISSING and a is default)):
            verb = (
                f"now states `{key}: {str(default).lower()}` explicitly"
                if a is MISSING
                else (f"no longer states `{key}: {str(default).lower()}`")
            )
            out.append(change("annotation-default-explicit",
                              f"tool `{name}` {verb}; that is the MCP default, so clients behave the same"))
            continue
        meaning = _ANNOTATION_MEANING.get(key)
        shown_a = str(a).lower() if isinstance(a, bool) else ("absent" if a is MISSING else repr(a))
        shown_b = str(b).lower() if isinstance(b, bool) else ("absent" if b is MISSING else repr(b))
        msg = f"annotation `{key}` of tool `{name}` changed: {shown_a} -> {shown_b}"
        if meaning:
            msg += f" (`{key}`: {meaning}; default {str(default).lower()})"
        out.append(change("annotation-changed", msg,
                          "clients use these hints to decide whether to ask the user before a call"))
    return out
