"""SL104 type-drift: the advertised schema admits a JSON type at a location that the runtime refuses.

Source: rules/SL104-type-drift.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from collections.abc import Iterator

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Context, Rule
from schemalint.rules.contract._common import name, sides
from schemalint.schema.shapes import Shape, ShapeMap, parent_and_key

_JSON_TYPES = {bool: "boolean", str: "string", type(None): "null", list: "array", dict: "object"}


def _value_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    return _JSON_TYPES.get(type(value), "string")


def implied_types(shape: Shape) -> frozenset[str] | None:
    """``shape.types``, else the types of its ``enum``/``const`` values, else ``None`` (unrestricted)."""
    if shape.types is not None:
        return shape.types
    if "const" in shape.constraints:
        return frozenset({_value_type(shape.constraints["const"])})
    enum = shape.constraints.get("enum")
    if isinstance(enum, list) and enum:
        return frozenset(_value_type(v) for v in enum)
    return None


def types_at(m: ShapeMap, path: str) -> tuple[frozenset[str] | None, list[Shape]]:
    """Union of the implied types of the alternatives at ``path`` (``None``: some alternative is
    unrestricted), and the alternatives that admit something."""
    alts = [a for a in m.alternatives(path) if not a.never]
    out: set[str] = set()
    for a in alts:
        t = implied_types(a)
        if t is None:
            return None, alts
        out |= t
    return frozenset(out), alts


def refused_types(advertised: frozenset[str], runtime: frozenset[str]) -> set[str]:
    """The advertised types the runtime refuses (``integer`` fits ``number``; ``number`` partly fits
    ``integer`` and counts as refused)."""
    out = set()
    for t in advertised:
        if t in runtime or (t == "integer" and "number" in runtime):
            continue
        out.add(t)
    return out


def _fmt(types: frozenset[str] | set[str]) -> str:
    return " or ".join(sorted(types))


class TypeDrift(Rule):
    """At one instance path, the advertised schema admits a type the runtime input schema refuses.

    Types are compared over all union branches at the path (so ``anyOf [string, null]`` and
    ``type: [string, null]`` agree). An error when no advertised type is accepted, a warning
    when only some are (e.g. the advertised schema admits ``null`` and the runtime does not),
    and a warning when the advertised schema gives no type at all while the runtime does.
    Descendants of a reported path are not reported again.
    """

    severity = Severity.ERROR

    def check_tool(self, tool: Tool, ctx: Context) -> Iterator[Diagnostic]:
        """Yield at most one finding per instance path both sides describe."""
        s = sides(tool)
        if s is None or s.runtime_input is None:
            return
        reported: list[str] = []
        for path in s.advertised.paths():
            if any(path == r or path.startswith(r + "/") for r in reported):
                continue
            rt_types, rt_alts = types_at(s.runtime_input, path)
            adv_types, adv_alts = types_at(s.advertised, path)
            if not rt_alts and adv_alts:
                finding = self._runtime_accepts_nothing(tool, s.runtime_input, path, adv_alts[0])
                if finding is not None:
                    reported.append(path)
                    yield finding
                continue
            if not rt_alts or not adv_alts or rt_types is None:
                continue
            pointer = adv_alts[0].pointer
            who = name(path)
            if adv_types is None:
                if path == "" or _parent_untyped(s.advertised, path):
                    continue
                reported.append(path)
                yield self.diag(
                    tool,
                    pointer,
                    f"the advertised schema does not say what type {who} is, but the runtime only accepts "
                    f"{_fmt(rt_types)}: the model has to guess",
                    instance_path=path,
                    severity=Severity.WARNING,
                    hint=f'give {who} `"type": "{sorted(rt_types)[0]}"` in the advertised schema',
                )
                continue
            refused = refused_types(adv_types, rt_types)
            if not refused:
                continue
            reported.append(path)
            if not _overlaps(adv_types, rt_types):
                msg = (
                    f"the advertised schema says {who} is {_fmt(adv_types)}, but the runtime only accepts "
                    f"{_fmt(rt_types)}: every value the model sends there is refused"
                )
                sev = None
            else:
                what = "non-integer numbers" if refused == {"number"} else _fmt(refused)
                msg = (
                    f"the advertised schema admits {what} for {who}, but the runtime only accepts "
                    f"{_fmt(rt_types)}: a call that sends {what} there is refused"
                )
                sev = Severity.WARNING
            yield self.diag(
                tool,
                pointer + "/type" if adv_alts[0].types is not None else pointer,
                msg,
                instance_path=path,
                severity=sev,
                hint=f"advertise the type the runtime accepts ({_fmt(rt_types)}) for {who}",
            )


    def _runtime_accepts_nothing(self, tool: Tool, runtime: ShapeMap, path: str, adv: Shape) -> Diagnostic | None:
        """The runtime admits no value at ``path`` (every alternative there is empty) while the
        advertised schema admits some: "nothing accepted" is compared, not skipped. The advertised
        side accepting nothing is SL008's to report."""
        empty = runtime.alternatives(path)
        if not empty or not all(a.never for a in empty):
            return None
        who = name(path)
        reason = next((a.never_reason for a in empty if a.never_reason), "its schema admits no value")
        required = runtime.requires(path)
        effect = ("every call is refused" if path == "" or required
                  else f"every call that sends {who} is refused")
        return self.diag(
            tool,
            adv.pointer,
            f"the runtime accepts no value for {who} ({reason}), while the advertised schema admits "
            f"{_fmt(implied_types(adv) or frozenset({'any value'}))} there: {effect}",
            instance_path=path,
            hint=f"fix the runtime validator of {who} (a transform between types, such as a zod `.pipe` or a "
                 "preprocess step, leaves a schema no value satisfies)",
        )


def _overlaps(advertised: frozenset[str], runtime: frozenset[str]) -> bool:
    """True when some advertised type admits values the runtime accepts (`number`, `integer` overlap)."""
    for t in advertised:
        if (
            t in runtime
            or (t == "integer" and "number" in runtime)
            or (t == "number" and "integer" in runtime)
        ):
            return True
    return False


def _parent_untyped(m: ShapeMap, path: str) -> bool:
    split = parent_and_key(path)
    if split is None:
        return False
    types, alts = types_at(m, split[0])
    return bool(alts) and types is None and not any(a.properties for a in alts)
