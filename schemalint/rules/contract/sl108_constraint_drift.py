"""SL108 constraint-drift: the runtime enforces a value constraint the advertised schema does not carry.

Source: rules/SL108-constraint-drift.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import incompatible, name, sides
from schemalint.schema.shapes import Shape

Bound = tuple[float, bool]  # (value, exclusive)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def lower_bound(c: dict[str, Any]) -> Bound | None:
    """Tightest lower numeric bound of a constraint dict (draft-04 boolean ``exclusiveMinimum`` too)."""
    out: list[Bound] = []
    if _num(c.get("minimum")):
        out.append((c["minimum"], c.get("exclusiveMinimum") is True))
    if _num(c.get("exclusiveMinimum")):
        out.append((c["exclusiveMinimum"], True))
    return max(out, default=None)


def upper_bound(c: dict[str, Any]) -> Bound | None:
    """Tightest upper numeric bound (``exclusive`` sorts first, as the tighter of two equal bounds)."""
    out: list[Bound] = []
    if _num(c.get("maximum")):
        out.append((c["maximum"], c.get("exclusiveMaximum") is True))
    if _num(c.get("exclusiveMaximum")):
        out.append((c["exclusiveMaximum"], True))
    return min(out, key=lambda b: (b[0], not b[1]), default=None)


def _show(kw: str, value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) or kw in ("pattern", "format") else value
    if kw in ("pattern", "format", "enum", "const"):
        text = json.dumps(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"`{kw}: {text}`"


def _bound_text(kind: str, b: Bound) -> str:
    sym = (">" if b[1] else ">=") if kind == "lower" else ("<" if b[1] else "<=")
    kw = (
        ("exclusiveMinimum" if b[1] else "minimum")
        if kind == "lower"
        else ("exclusiveMaximum" if b[1] else "maximum")
    )
    return f"`{kw}: {b[0]}` (values {sym} {b[0]})"


def _values_of(shape: Shape) -> list[Any] | None:
    if "const" in shape.constraints:
        return [shape.constraints["const"]]
    enum = shape.constraints.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _all_satisfy(values: list[Any] | None, fragment: dict[str, Any]) -> bool:
    """True when every enumerated advertised value passes ``fragment`` (then the drift is harmless)."""
    if values is None:
        return False
    try:
        from jsonschema import Draft7Validator

        v = Draft7Validator(fragment)
        return all(v.is_valid(x) for x in values)
    except Exception:
        return False


def drifts(adv: Shape, rt: Shape) -> Iterator[tuple[str, str, str]]:
    """Yield ``(keyword, runtime says, advertised says)`` for each constraint the runtime enforces more
    strictly than ``adv`` states. Numeric bounds are compared as bounds (inclusive/exclusive, draft-04 and
    draft-06+ forms); length/count bounds numerically; ``pattern``/``format``/``multipleOf`` by inequality;
    ``enum``/``const`` by the advertised values the runtime refuses."""
    a, r = adv.constraints, rt.constraints
    values = _values_of(adv)
    lo_r, lo_a = lower_bound(r), lower_bound(a)
    if lo_r is not None and (
        lo_a is None or lo_r[0] > lo_a[0] or (lo_r[0] == lo_a[0] and lo_r[1] and not lo_a[1])
    ):
        frag = {"exclusiveMinimum": lo_r[0]} if lo_r[1] else {"minimum": lo_r[0]}
        if not _all_satisfy(values, frag):
            kw = (
                "exclusiveMinimum"
                if lo_r[1] and "exclusiveMinimum" in r and _num(r["exclusiveMinimum"])
                else "minimum"
            )
            yield kw, _bound_text("lower", lo_r), _bound_text("lower", lo_a) if lo_a else "nothing"
    up_r, up_a = upper_bound(r), upper_bound(a)
    if up_r is not None and (
        up_a is None or up_r[0] < up_a[0] or (up_r[0] == up_a[0] and up_r[1] and not up_a[1])
    ):
        frag = {"exclusiveMaximum": up_r[0]} if up_r[1] else {"maximum": up_r[0]}
        if not _all_satisfy(values, frag):
            kw = (
                "exclusiveMaximum"
                if up_r[1] and "exclusiveMaximum" in r and _num(r["exclusiveMaximum"])
                else "maximum"
            )
            yield kw, _bound_text("upper", up_r), _bound_text("upper", up_a) if up_a else "nothing"
    for kw in ("minLength", "minItems", "minProperties"):
        if (
            _num(r.get(kw))
            and r[kw] > (a.get(kw) if _num(a.get(kw)) else 0)
            and not _all_satisfy(values, {kw: r[kw]})
        ):
            yield kw, _show(kw, r[kw]), _show(kw, a[kw]) if kw in a else "nothing"
    for kw in ("maxLength", "maxItems", "maxProperties"):
        if (
            _num(r.get(kw))
            and (not _num(a.get(kw)) or r[kw] < a[kw])
            and not _all_satisfy(values, {kw: r[kw]})
        ):
            yield kw, _show(kw, r[kw]), _show(kw, a[kw]) if kw in a else "nothing"
    if _num(r.get("multipleOf")) and r["multipleOf"] != a.get("multipleOf"):
        am = a.get("multipleOf")
        ok = _num(am) and r["multipleOf"] and (am / r["multipleOf"]).is_integer()
        if not ok and not _all_satisfy(values, {"multipleOf": r["multipleOf"]}):
            yield (
                "multipleOf",
                _show("multipleOf", r["multipleOf"]),
                _show("multipleOf", am) if am else "nothing",
            )
    for kw in ("pattern", "format"):
        if isinstance(r.get(kw), str) and r[kw] != a.get(kw) and not _all_satisfy(values, {kw: r[kw]}):
            yield kw, _show(kw, r[kw]), _show(kw, a[kw]) if kw in a else "nothing"
    if r.get("uniqueItems") is True and a.get("uniqueItems") is not True:
        yield "uniqueItems", "`uniqueItems: true`", "nothing"
    if isinstance(r.get("enum"), list):
        if values is None:
            yield "enum", _show("enum", r["enum"]), "any value"
        else:
            bad = [v for v in values if v not in r["enum"]]
            if bad:
                yield "enum", _show("enum", r["enum"]), "also " + ", ".join(json.dumps(v) for v in bad[:5])
    if "const" in r and (values is None or any(v != r["const"] for v in values)):
        yield "const", _show("const", r["const"]), "any value" if values is None else _show("enum", values)


class ConstraintDrift(Rule):
    """The runtime input schema enforces a value constraint (``minimum``, ``maxLength``, ``pattern``,
    ``enum``, ``format`` ...) that the advertised schema does not carry, or carries more loosely.

    The model cannot respect a limit it is never shown, so values it picks in good faith are
    refused. Compared per matched shape at every depth and union branch; an advertised
    ``enum``/``const`` whose values all satisfy the runtime constraint is not a finding.
    """

    severity = Severity.WARNING

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield one warning per (instance path, keyword) the runtime enforces more strictly."""
        s = sides(tool)
        if s is None:
            return
        seen: set[tuple[str, str]] = set()
        for pair in s.input_pairs():
            adv, rt = pair.left, pair.right
            if adv is None or rt is None or adv.never or rt.never or incompatible(adv, rt):
                continue
            for kw, rt_says, adv_says in drifts(adv, rt):
                if (pair.instance_path, kw) in seen:
                    continue
                seen.add((pair.instance_path, kw))
                who = name(pair.instance_path) if pair.instance_path else "the call"
                msg = (
                    f"the runtime enforces {rt_says} on {who}, but the advertised schema says {adv_says}: "
                    "a value the model picks from the advertised schema may be refused"
                )
                pointer = adv.constraint_pointers.get(kw, adv.pointer)
                yield self.diag(
                    tool,
                    pointer,
                    msg,
                    instance_path=pair.instance_path,
                    hint=f"state the same `{kw}` in the advertised schema for {who}",
                )
