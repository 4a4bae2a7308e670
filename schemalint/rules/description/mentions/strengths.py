"""How SL201 reports each form of mention, set by measurement (``benchmarks/measure_mention_forms.py``,
table in ``benchmarks/mention_forms.md`` and docs/descriptions.md)."""

from __future__ import annotations

import re

__all__ = ["FORM_STRENGTH", "rank", "strength_of"]

FORM_STRENGTH: dict[str, str] = {
    # form (quote style folded; "@property": in a property's description) -> how SL201 reports it.
    # Set from benchmarks/mention_forms.md (the shared corpus, 19,243 tools, measured 2026-12-02):
    # "declared among the rest" is the share of a form's references naming a declared property once
    # the values, result fields and tool names (never reported) are set aside. >= 75 % over at least
    # 10 references: at the site's severity (an error where the object is closed); 50-75 %, or fewer
    # than 10 references: at most a warning; < 50 %: not reported by SL201 (a plain mention, which
    # SL202 alone trusts). For comparison: a bare code span 33 %, a plain word 5 %.
    "arglist": "reported",              # 215 of 223 (96 %)
    "list": "reported",                 # 17 of 18 (94 %)
    "imperative": "reported",           # 39 of 44 (89 %)
    "imperative@property": "reported",  # 17 of 17 (100 %)
    "backtick": "reported",             # 10 of 12 (83 %)
    "phrase": "reported",               # 28 of 36 (78 %)
    "assign": "reported",               # 1 of 1: too few, but a form SL201 always reported; kept
    "role": "warning",                  # 5 of 5: too few to tell
    "role@property": "warning",         # 7 of 7: too few to tell
    "json": "warning",                  # 38 of 61 (62 %)
    "colon": "warning",                 # 2 of 2: too few to tell
    "json-instruction": "warning",      # not in the corpus
    "code-assign": "warning",           # not in the corpus
    "label-list": "warning",            # not in the corpus
    "table": "warning",                 # not in the corpus
    "deflist": "warning",               # 0 in the corpus (2026-12-02): at most a warning until measured
    "conditional": "warning",           # 0 in the corpus (2026-12-02): at most a warning until measured
    "needs": "warning",                 # 0 in the corpus, 1 of 1 in ../shared/repos (2026-12-03): until measured
    "role-passive": "warning",          # 0 in the corpus (2026-12-03): at most a warning until measured
    "with-keys": "warning",             # 0 in the corpus (2026-12-03): at most a warning until measured
    "signature": "warning",             # 0 in the corpus (new): at most a warning until measured
    "pairing": "warning",               # new: at most a warning until measured
}
"""How SL201 reports each form of mention (see :func:`strength_of`)."""

_STYLE = re.compile(r"-(?:quoted|word)(?=@|$)")


def strength_of(form: str) -> str:
    """How SL201 reports a mention of ``form`` (``Mention.kind``): ``"reported"`` (at the site's
    severity), ``"warning"`` (at most a warning), ``"plain"`` (SL202 only), ``"-"`` (not a form).
    The quote style of a name (``-quoted``, ``-word``) is folded into its form; a form measured only
    at the tool level reads the same in a property's description."""
    if form == "bare code span":
        return "-"
    if form == "plain":
        return "plain"
    base = _STYLE.sub("", form)
    return FORM_STRENGTH.get(base) or FORM_STRENGTH.get(base.split("@")[0], "warning")


_RANK = {"reported": 3, "warning": 2, "plain": 1, "-": 0}


def rank(form: str) -> int:
    """An order of the forms by :func:`strength_of` (3 reported, 2 warning, 1 plain)."""
    return _RANK[strength_of(form)]
