"""SD102 property-removed, SD103 required-added (a new required property), SD202 property-added.

Keyword: ``properties`` (JSON Schema validation, ``properties``: draft-07 section 6.5.4). A
removed property is reported once per name, with a rename hint when an added property has
the same shape; a new property that is also required is one SD103, not SD202 + SD103.
"""

from __future__ import annotations

from collections.abc import Mapping

from schemalint.diff.checks._common import Site, rename_pairs, required_names


def matches(keyword: str) -> bool:
    """``properties`` only."""
    return keyword == "properties"


def check(site: Site) -> None:
    """Report removed and added properties; a property that became (or stopped being) a schema
    object is classified as a replaced schema."""
    c, tokens, keyword = site.c, site.tokens, site.keyword
    old_p = site.old_v if isinstance(site.old_v, Mapping) else {}
    new_p = site.new_v if isinstance(site.new_v, Mapping) else {}
    new_req = required_names(site.new_s)
    removed = [k for k in old_p if k not in new_p]
    added = [k for k in new_p if k not in old_p]
    renames = rename_pairs(removed, added, old_p.__getitem__, new_p.__getitem__)
    for name in removed:
        hint = (
            f"looks renamed to `{renames[name]}` (same schema); a model that sends `{name}` "
            "is refused or ignored"
            if name in renames
            else "a model (or a saved call) that still sends it is refused or silently ignored; "
            "keep it deprecated for a release"
        )
        at = (*tokens, keyword, name)
        c.emit("property-removed", at, f"property `{c.label(at)}` was removed", side="old", hint=hint,
               before=old_p[name])
    back = {v: k for k, v in renames.items()}
    for name in added:
        rename = f"looks like a rename of `{back[name]}` (same schema)" if name in back else None
        at = (*tokens, keyword, name)
        if name in new_req:
            c.emit(
                "required-added",
                at,
                f"new property `{c.label(at)}` is required: calls without it are refused",
                hint=rename or "make it optional with a default, or announce the breaking change",
                after=new_p[name],
            )
        else:
            c.emit("property-added", at, f"new optional property `{c.label(at)}`", hint=rename, after=new_p[name])
    for name in old_p:
        if name in new_p and isinstance(old_p[name], Mapping) != isinstance(new_p[name], Mapping):
            c.classify((*tokens, keyword, name), None, None)
