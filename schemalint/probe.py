"""Runtime probes: call a tool's validator with calls its advertised schema admits.

Two kinds of probe, both bounded by a per-tool time limit:

- **omission probes** (cheap, run by ``check`` through SL107 and by the pydantic loader
  for ``Contract.refused_when_omitted``): build a minimal call that satisfies the schema
  (:func:`minimal_instance`), fill in every key the schema leaves optional, at every
  depth, one array item per array (:func:`fill_optional`), then call the validator with
  that *complete* call, with the *minimal* call, and with the complete call minus each
  optional key in turn. A refusal that the complete call did not already get is charged
  to the omitted key.
- **generated probes** (``schemalint probe``): calls drawn from the schema by
  hypothesis-jsonschema (fixed seed, at most ``max_examples`` calls, the time limit);
  the smallest call the runtime refuses is reported (hypothesis shrinks it).

A validator "refuses" by raising an exception whose class (or a base class) is named
``...ValidationError`` (pydantic, jsonschema); any other exception is a *crash* (the
framework would surface an internal error, not a message the model can act on). A
validator call that does not return within the time limit is stopped (SIGALRM in the main
thread, else abandoned in a daemon thread) and reported as a *timeout*. The limit is also the
budget of all a tool's calls: no call starts after it, and one that is running when it ends
gets the rest of its own limit first, so a budget spent by many fast calls is no hang.
hypothesis and hypothesis-jsonschema are imported only by :func:`generated_probe`.

Every place that probes many tools shares a **run budget** (:class:`RunBudget`) among them:
``check`` (SL107's ``run_budget``), ``probe`` (``--run-budget``) and the loaders' omission
probes (:data:`LOAD_RUN_BUDGET` per source, :func:`load_budget`). Each tool gets what is left
divided by the tools left (at most its own time limit), so time a fast tool does not use goes
to the next; a tool whose probes the budget stopped is counted with the calls not made, and
every report says so (a probe that did not run is not a pass).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import escape_token
from schemalint.schema.patterns import search as search_pattern
from schemalint.schema.walk import resolve_local_ref

Path = tuple[str | int, ...]

DEFAULT_TIME_LIMIT = 2.0
DEFAULT_MAX_EXAMPLES = 50
DEFAULT_RUN_BUDGET = 30.0
"""Seconds shared by the probes of all tools of one ``probe`` run (``--run-budget``): with the loading
of a FastMCP server of 100 tools (25 s at load average 17 on 2 cores) the run stays under a minute.
``check`` shares SL107's ``run_budget`` option (40 s: its omission probes alone, no generated calls)."""
LOAD_RUN_BUDGET = 15.0
"""Seconds shared by the omission probes a loader runs while loading one source (pydantic models,
functions, AI SDK and MCP tools in the Node worker); ``SCHEMALINT_LOAD_PROBE_BUDGET`` overrides it."""


def load_run_budget() -> float:
    """:data:`LOAD_RUN_BUDGET`, or the seconds in ``SCHEMALINT_LOAD_PROBE_BUDGET`` when that is a number."""
    try:
        return max(float(os.environ["SCHEMALINT_LOAD_PROBE_BUDGET"]), 0.0)
    except (KeyError, ValueError):
        return LOAD_RUN_BUDGET
MAX_FILLED_KEYS = 200
MAX_DEPTH = 40


class CannotBuild(Exception):
    """No instance could be built for a subschema (``false``, unsatisfiable, too deep)."""


class _ProbeTimeout(BaseException):
    """Raised by the alarm inside a validator call that ran past the time limit.

    A ``BaseException`` so that neither the validator's nor hypothesis' ``except
    Exception`` swallows it.
    """


@dataclass(frozen=True)
class Outcome:
    """The result of one validator call.

    ``status``: ``accepted``, ``refused`` (a validation error), ``crash`` (any other
    exception), ``timeout``. ``errors``: ``(instance path, error type)`` pairs named by
    the validation error (pydantic ``errors()`` / jsonschema ``absolute_path``).
    """

    status: str
    message: str = ""
    error_type: str = ""
    errors: frozenset[tuple[str, str]] = frozenset()
    details: tuple[tuple[str, str, str], ...] = ()

    def message_without(self, known: frozenset[tuple[str, str]]) -> str:
        """The message listing only the errors not in ``known`` (all of them when none is new)."""
        new = [d for d in self.details if (d[0], d[1]) not in known]
        if not new:
            return self.message
        more = f" (+{len(new) - 3} more)" if len(new) > 3 else ""
        return "; ".join(f"{p or '(root)'}: {m}" for p, _, m in new[:3]) + more


@dataclass(frozen=True)
class Refusal:
    """A call the schema admits that the runtime did not accept.

    ``kind``: ``complete`` (every optional key filled in), ``minimal`` (required keys
    only), ``omission`` (the complete call minus the key at ``instance_path``),
    ``generated`` (smallest hypothesis-generated call refused), ``timeout``, ``crash``
    (the validator raised something other than a validation error; ``outcome.status``
    says which for the last two). ``instance_path`` uses ``*`` for array items.
    """

    kind: str
    call: Any
    outcome: Outcome
    instance_path: str | None = None
    new_message: str | None = None

    @property
    def message(self) -> str:
        """What the validator said; for an omission only the errors the complete call did not get."""
        return self.new_message if self.new_message is not None else self.outcome.message

    @property
    def error_paths(self) -> list[str]:
        """Instance paths the validator's errors name, sorted."""
        return sorted({p for p, _ in self.outcome.errors})


@dataclass
class ProbeResult:
    """Everything one probe run learned about one tool."""

    minimal_call: Any = None
    complete_call: Any = None
    optional_paths: list[str] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    calls: int = 0
    planned: int = 0
    elapsed: float = 0.0
    timed_out: bool = False


# ---------------------------------------------------------------------------- paths


def abstract_path(path: Path) -> str:
    """JSON pointer of ``path`` with array indexes written ``*`` (the walker's convention)."""
    return "".join("/*" if isinstance(t, int) else "/" + escape_token(t) for t in path)


def _set_at(value: Any, path: Path, new: Any) -> Any:
    if not path:
        return new
    node = value
    for tok in path[:-1]:
        node = node[tok]
    node[path[-1]] = new
    return value


def _delete_at(value: Any, path: Path) -> Any:
    node = value
    for tok in path[:-1]:
        node = node[tok]
    del node[path[-1]]
    return value


# ---------------------------------------------------------------------------- schema helpers


def _schema_validator(root: Any) -> Any:
    from jsonschema.validators import Draft7Validator, validator_for

    cls = validator_for(root, default=Draft7Validator) if isinstance(root, Mapping) else Draft7Validator
    return _linear(cls)(root)


@functools.cache
def _linear(cls: Any) -> Any:
    """``cls`` whose pattern keywords run in linear time (:func:`schemalint.schema.patterns.linear_validator`)."""
    from schemalint.schema.patterns import linear_validator

    return linear_validator(cls)


def _resolve(root: Any, schema: Any, depth: int = 0) -> Any:
    """``schema`` with a local ``$ref`` replaced by its target (siblings kept over the target)."""
    while isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
        depth += 1
        if depth > MAX_DEPTH:
            raise CannotBuild("$ref chain too long (a recursive reference?)")
        found, target, _ = resolve_local_ref(root, schema["$ref"])
        if not found:
            raise CannotBuild(f"unresolvable $ref {schema['$ref']!r}")
        rest = {k: v for k, v in schema.items() if k not in ("$ref", "definitions", "$defs")}
        schema = {**target, **rest} if isinstance(target, Mapping) and rest else target
    return schema


def _merge_all_of(root: Any, schema: Mapping[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    for sub in schema.get("allOf") or []:
        sub = _resolve(root, sub)
        if not isinstance(sub, Mapping):
            if sub is False:
                raise CannotBuild("allOf contains false")
            continue
        if "allOf" in sub:
            sub = _merge_all_of(root, sub)
        for key, value in sub.items():
            if key == "properties" and isinstance(value, Mapping):
                props = dict(merged.get("properties") or {})
                for name, prop in value.items():
                    props[name] = {"allOf": [props[name], prop]} if name in props else prop
                merged["properties"] = props
            elif key == "required" and isinstance(value, list):
                merged["required"] = list(dict.fromkeys([*(merged.get("required") or []), *value]))
            else:
                merged.setdefault(key, value)
    return merged


FORMAT_SAMPLES = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00Z",
    "duration": "P1D",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uri": "https://example.com/",
    "iri": "https://example.com/",
    "uri-reference": "https://example.com/",
    "iri-reference": "https://example.com/",
    "url": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "uuid4": "00000000-0000-4000-8000-000000000000",
    "json-pointer": "/a",
    "regex": "a",
    "binary": "a",
    "byte": "YQ==",
    "password": "a",
}

_PATTERN_CANDIDATES = ("a", "", "0", "A", "aa", "a1", "example", "user@example.com", "2024-01-01",
                       "https://example.com/", "a_1", "a-1", "abc123")


def _infer_type(schema: Mapping[str, Any]) -> str | None:
    if any(k in schema for k in ("properties", "required", "additionalProperties", "patternProperties",
                                 "minProperties")):
        return "object"
    if any(k in schema for k in ("items", "prefixItems", "minItems", "maxItems")):
        return "array"
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return "string"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return "number"
    return None


def _number(schema: Mapping[str, Any], integer: bool) -> int | float:
    lo = schema.get("minimum")
    hi = schema.get("maximum")
    xlo = schema.get("exclusiveMinimum")
    xhi = schema.get("exclusiveMaximum")
    step = schema.get("multipleOf")
    num = (int, float)
    if isinstance(xlo, num) and not isinstance(xlo, bool):
        lo = max(lo, xlo + (1 if integer else 0.5)) if isinstance(lo, num) else xlo + (1 if integer else 0.5)
    if isinstance(xhi, num) and not isinstance(xhi, bool):
        hi = min(hi, xhi - (1 if integer else 0.5)) if isinstance(hi, num) else xhi - (1 if integer else 0.5)
    value: int | float = 0
    if isinstance(lo, num) and value < lo:
        value = lo
    if isinstance(hi, num) and value > hi:
        value = hi
    if isinstance(step, num) and step > 0 and not isinstance(step, bool):
        k = -(-value // step)  # ceil
        value = k * step
    if integer:
        if value != int(value):
            value = int(value) + 1
        value = int(value)
    return value


def _int(schema: Mapping[str, Any], key: str, default: Any) -> Any:
    value = schema.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _string(schema: Mapping[str, Any]) -> str:
    lo: int = _int(schema, "minLength", 0)
    hi: int | None = _int(schema, "maxLength", None)
    fmt = schema.get("format")
    pattern = schema.get("pattern")

    def fits(s: str) -> bool:
        if len(s) < lo or (hi is not None and len(s) > hi):
            return False
        if isinstance(pattern, str):
            return search_pattern(pattern, s) is not False  # undecidable in linear time: assume it fits
        return True

    candidates = []
    if isinstance(fmt, str) and fmt in FORMAT_SAMPLES:
        candidates.append(FORMAT_SAMPLES[fmt])
    candidates.append("a" * max(lo, 1) if hi is None or hi >= max(lo, 1) else "a" * lo)
    if isinstance(pattern, str):
        candidates.extend(_PATTERN_CANDIDATES)
    for cand in candidates:
        if fits(cand):
            return cand
    if isinstance(pattern, str):
        key = (pattern, lo, hi)
        if key in _PATTERN_STRINGS:  # one search per pattern and length bounds in a run: a server
            found = _PATTERN_STRINGS[key]  # repeats its patterns across tools (an issue key, an id)
            if isinstance(found, str):
                return found
            raise CannotBuild(found[0])
        try:
            _private_hypothesis_home()
            from hypothesis import Phase, find, settings
            from hypothesis import strategies as st

            # database=None: hypothesis would otherwise keep a .hypothesis/ directory in the
            # user's working directory. No shrinking: any matching string does, and shrinking cost
            # 13 s of a 13.1 s search for an issue-key pattern (measured on a busy 2-core machine);
            # derandomize keeps the string the same on every run.
            made = str(find(st.from_regex(pattern), fits, settings=settings(
                database=None, phases=[Phase.generate], derandomize=True)))
            _PATTERN_STRINGS[key] = made
            return made
        except ImportError:
            raise CannotBuild(f"a string matching pattern {pattern!r} is made with hypothesis, which is not "
                              "installed where schemalint runs (pip install 'schemalint[pydantic]'; the mcp, "
                              "agents and langchain extras bring it too)") from None
        except Exception as exc:
            _PATTERN_STRINGS[key] = (f"no string matching pattern {pattern!r}: {type(exc).__name__}",)
            raise CannotBuild(_PATTERN_STRINGS[key][0]) from None
    raise CannotBuild("no string satisfies minLength/maxLength")


_PATTERN_STRINGS: dict[tuple[str, int, int | None], str | tuple[str]] = {}
"""Strings hypothesis found for a ``pattern`` (with ``minLength``/``maxLength``), or the reason
none was found, kept for the process: the search costs seconds on a busy machine and a server's
tools repeat their patterns."""


def minimal_instance(schema: Any, root: Any = None, *, prefer_default: bool = False, _depth: int = 0) -> Any:
    """A small value ``schema`` admits: only required keys, empty arrays unless ``minItems``,
    the first ``enum``/``const`` value, 0 or the lowest allowed number, ``"a"`` or a sample
    for the ``format``. With ``prefer_default`` a ``default`` is used when present.

    ``root`` is the document ``$ref`` resolves against (default: ``schema``). Raises
    :class:`CannotBuild` when no value can be built (``false``, depth over 40, a
    recursive required field, an unresolvable ``$ref``). The value is not verified here;
    callers check it against the schema.
    """
    if root is None:
        root = schema
    if _depth > MAX_DEPTH:
        raise CannotBuild("the schema nests too deeply (a required recursive field?)")
    schema = _resolve(root, schema)
    if schema is True:
        return None
    if not isinstance(schema, Mapping):
        raise CannotBuild("the schema is false or not a schema")
    if "allOf" in schema:
        return minimal_instance(_merge_all_of(root, schema), root, prefer_default=prefer_default,
                                _depth=_depth + 1)
    if prefer_default and "default" in schema:
        return copy.deepcopy(schema["default"])
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return copy.deepcopy(schema["enum"][0])
    for union in ("anyOf", "oneOf"):
        branches = schema.get(union)
        if isinstance(branches, list) and branches:
            rest = {k: v for k, v in schema.items() if k != union}
            last: CannotBuild | None = None
            for branch in branches:
                branch = _resolve(root, branch)
                merged = {**rest, **branch} if isinstance(branch, Mapping) else branch
                try:
                    return minimal_instance(merged, root, prefer_default=prefer_default, _depth=_depth + 1)
                except CannotBuild as exc:
                    last = exc
            raise last or CannotBuild(f"no {union} branch can be built")
    types = schema.get("type")
    if isinstance(types, list):
        non_null = [t for t in types if t != "null"]
        kind = non_null[0] if non_null else ("null" if types else None)
    else:
        kind = types if isinstance(types, str) else _infer_type(schema)
    if kind is None:
        return None
    if kind == "null":
        return None
    if kind == "boolean":
        return False
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "string":
        return _string(schema)
    if kind == "array":
        count: int = _int(schema, "minItems", 0)
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        if not isinstance(prefix, list) and isinstance(items, list):
            prefix, items = items, schema.get("additionalItems", True)
        out = []
        for i in range(count):
            fallback = items if items is not None else True
            sub = prefix[i] if isinstance(prefix, list) and i < len(prefix) else fallback
            out.append(minimal_instance(sub, root, prefer_default=prefer_default, _depth=_depth + 1))
        return out
    if kind == "object":
        props: Mapping[str, Any] = _mapping(schema, "properties")
        required = [k for k in (schema.get("required") or []) if isinstance(k, str)]
        want: int = _int(schema, "minProperties", 0)
        names = list(dict.fromkeys([*required, *list(props)[: max(0, want - len(required))]]))
        obj: dict[str, Any] = {}
        for name in names:
            obj[name] = minimal_instance(_property_schema(schema, name), root, prefer_default=prefer_default,
                                         _depth=_depth + 1)
        return obj
    raise CannotBuild(f"unknown type {kind!r}")


def _mapping(schema: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = schema.get(key)
    return value if isinstance(value, Mapping) else {}


def _property_schema(schema: Mapping[str, Any], name: str) -> Any:
    props = schema.get("properties")
    if isinstance(props, Mapping) and name in props:
        return props[name]
    pats = schema.get("patternProperties")
    if isinstance(pats, Mapping):
        for pat, sub in pats.items():
            if isinstance(pat, str) and search_pattern(pat, name) is not False:
                return sub
    extra = schema.get("additionalProperties", True)
    return extra if isinstance(extra, (Mapping, bool)) else True


# ---------------------------------------------------------------------------- filling optional keys


def _slots(root: Any, schema: Any, value: Any, path: Path, is_valid: Callable[[Any, Any], bool],
           depth: int = 0, refs: tuple[str, ...] = ()) -> Iterator[tuple[str, Path, Any]]:
    """``("key", path, schema)`` for each optional key absent from ``value`` and
    ``("item", path, schema)`` for each empty array that may hold an item, at every depth.
    A recursive ``$ref`` is entered at most twice on one path (one level of recursion)."""
    if depth > MAX_DEPTH:
        return
    ref = schema.get("$ref") if isinstance(schema, Mapping) else None
    if isinstance(ref, str):
        if refs.count(ref) >= 2:
            return
        refs = (*refs, ref)
    try:
        schema = _resolve(root, schema)
    except CannotBuild:
        return
    if not isinstance(schema, Mapping):
        return
    for sub in schema.get("allOf") or []:
        yield from _slots(root, sub, value, path, is_valid, depth + 1, refs)
    for union in ("anyOf", "oneOf"):
        branches = schema.get(union)
        if isinstance(branches, list):
            for branch in branches:
                if is_valid(branch, value):
                    yield from _slots(root, branch, value, path, is_valid, depth + 1, refs)
                    break
    if isinstance(value, dict):
        props = _mapping(schema, "properties")
        for name, sub in props.items():
            if name in value:
                yield from _slots(root, sub, value[name], (*path, name), is_valid, depth + 1, refs)
            else:
                yield "key", (*path, name), sub
        for name in value:
            if name not in props:
                sub = _property_schema(schema, name)
                if isinstance(sub, Mapping):
                    yield from _slots(root, sub, value[name], (*path, name), is_valid, depth + 1, refs)
    elif isinstance(value, list):
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        if not isinstance(prefix, list) and isinstance(items, list):
            prefix, items = items, schema.get("additionalItems")
        if not value and isinstance(items, Mapping) and schema.get("maxItems", 1) != 0 and not prefix:
            yield "item", path, items
        for i, item in enumerate(value):
            sub = prefix[i] if isinstance(prefix, list) and i < len(prefix) else items
            if isinstance(sub, Mapping):
                yield from _slots(root, sub, item, (*path, i), is_valid, depth + 1, refs)


def fill_optional(schema: Any, call: Any, *, max_keys: int = MAX_FILLED_KEYS) -> tuple[Any, list[Path]]:
    """``call`` with every optional key the schema declares filled in (its ``default`` or a
    minimal value), at every depth, and one item in each empty array, as long as the
    call stays valid. Returns the new call and the paths of the keys added."""
    validator = _schema_validator(schema)

    def is_valid(sub: Any, value: Any) -> bool:
        try:
            return bool(validator.evolve(schema=sub).is_valid(value))
        except Exception:
            return False

    current = copy.deepcopy(call)
    added: list[Path] = []
    tried: set[tuple[str, Path]] = set()
    for _ in range(MAX_DEPTH):
        changed = False
        for kind, path, sub in list(_slots(schema, schema, current, (), is_valid)):
            if len(added) >= max_keys:
                return current, added
            if (kind, path) in tried:
                continue
            tried.add((kind, path))
            try:
                new = minimal_instance(sub, schema, prefer_default=True)
            except (CannotBuild, RecursionError):
                continue
            candidate = copy.deepcopy(current)
            _set_at(candidate, path, [new] if kind == "item" else new)
            if validator.is_valid(candidate):
                current = candidate
                changed = True
                if kind == "key":
                    added.append(path)
        if not changed:
            break
    return current, added


# ---------------------------------------------------------------------------- calling the validator


def _is_validation_error(exc: BaseException) -> bool:
    return any(cls.__name__.endswith("ValidationError") for cls in type(exc).__mro__)


def _errors(exc: BaseException) -> tuple[tuple[str, str, str], ...]:
    """``(instance path with * for array items, error type, message)`` per error named."""
    errors = getattr(exc, "errors", None)
    out: list[tuple[str, str, str]] = []
    if callable(errors):
        try:
            for err in errors():
                loc = tuple(err.get("loc") or ())
                out.append((abstract_path(loc), str(err.get("type", "")), str(err.get("msg", ""))))
        except Exception:
            pass
    elif hasattr(exc, "absolute_path") and hasattr(exc, "validator"):
        message = str(getattr(exc, "message", ""))
        out.append((abstract_path(tuple(exc.absolute_path)), str(exc.validator), message))
    return tuple(out)


def _first_line(exc: BaseException) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            errs = errors()
            if errs:
                parts = []
                for err in errs[:3]:
                    loc = "/".join(str(t) for t in err.get("loc") or ())
                    parts.append(f"{loc or '(root)'}: {err.get('msg', '')}")
                more = f" (+{len(errs) - 3} more)" if len(errs) > 3 else ""
                return "; ".join(parts) + more
        except Exception:
            pass
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__


class _Caller:
    """Calls ``validate`` under a shared per-tool deadline, remembering the call in flight.

    ``deadline`` (monotonic seconds) ends the budget of the whole probe run: no call starts
    after it. A call already running then is a hang only once it has itself run
    ``time_limit`` seconds: the budget can run out inside a fast validator, for example on a
    starved CPU, and that is no finding.
    """

    def __init__(self, validate: Callable[[Any], Any], deadline: float, time_limit: float) -> None:
        self.validate = validate
        self.deadline = deadline
        self.time_limit = time_limit
        self.calls = 0
        self.timed_out = False  # the time budget ran out (not a finding by itself)
        self.hung = False  # one call to the validator ran out its own time_limit (a finding)
        self.in_validator = False
        self.call_started = 0.0
        self.current: Any = None

    def hang_deadline(self) -> float:
        """When the call in flight becomes a hang (monotonic seconds): ``time_limit`` after it
        started, and never before the budget's own deadline."""
        return max(self.deadline, self.call_started + self.time_limit)

    def expired(self) -> bool:
        return self.timed_out or time.monotonic() >= self.deadline

    def __call__(self, call: Any) -> Outcome:
        if self.expired():
            self.timed_out = True
            return Outcome("timeout", "time limit reached before this call")
        self.calls += 1
        self.current = call
        arg = copy.deepcopy(call)
        self.call_started = time.monotonic()
        self.in_validator = True
        try:
            remote = getattr(self.validate, "outcome_of", None)
            if remote is not None:  # a validator in a worker process (schemalint.bridge)
                outcome: Outcome = remote(arg, self.hang_deadline())
                if outcome.status == "timeout":
                    raise _ProbeTimeout()
                return outcome
            return call_outcome(self.validate, arg)
        except _ProbeTimeout:
            self.hung = self.timed_out = True
            raise  # stops the whole probe run
        finally:
            self.in_validator = False


def call_outcome(validate: Callable[[Any], Any], arg: Any) -> Outcome:
    """Call ``validate(arg)`` and classify what happened (see the module docstring):
    ``accepted``, ``refused`` (a ``...ValidationError``, with the errors it names) or
    ``crash`` (any other ``Exception``). :class:`_ProbeTimeout` and other
    ``BaseException`` propagate."""
    try:
        validate(arg)
        return Outcome("accepted")
    except Exception as exc:
        if _is_validation_error(exc):
            details = _errors(exc)
            return Outcome("refused", _first_line(exc), type(exc).__name__,
                           frozenset((p, t) for p, t, _ in details), details)
        return Outcome("crash", _first_line(exc), type(exc).__name__)


def _on_alarm(caller: _Caller, signum: int, frame: Any) -> None:
    """The interval timer of :func:`_run_bounded`. At the budget's deadline a call in flight
    gets the rest of its own ``time_limit`` (the timer is set again, and no call starts
    after this one); otherwise :class:`_ProbeTimeout` is raised where the work is."""
    if caller.in_validator:
        remaining = caller.hang_deadline() - time.monotonic()
        if remaining > 0.001:
            caller.timed_out = True
            signal.setitimer(signal.ITIMER_REAL, remaining)
            return
    # Raised inside a garbage-collector or weakref callback, the exception is swallowed
    # ("Exception ignored in ..."): re-arm so that the next try lands in ordinary code.
    signal.setitimer(signal.ITIMER_REAL, 0.01)
    raise _ProbeTimeout()


def _disarm() -> None:
    """Stop the interval timer of :func:`_run_bounded` for good. An alarm can land after the work
    ends and before the timer is stopped; :func:`_on_alarm` then re-arms it and raises where the
    stop was: stop it again until it stays stopped, so that no SIGALRM outlives the probe (with
    the default handler back, one would kill the process)."""
    while True:
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
            return
        except _ProbeTimeout:
            continue


def _quiet_probe_timeouts(unraisable: Any, previous: Callable[[Any], None]) -> None:
    """``sys.unraisablehook`` while a probe runs: a swallowed :class:`_ProbeTimeout` is expected
    (it is raised again, see :func:`_on_alarm`); anything else goes to ``previous``."""
    if not isinstance(unraisable.exc_value, _ProbeTimeout):
        previous(unraisable)


def _run_bounded(work: Callable[[_Caller], None], validate: Callable[[Any], Any], time_limit: float,
                 result: ProbeResult, budget: float | None = None) -> _Caller:
    """Run ``work(caller)`` with a deadline ``time_limit`` seconds away (``budget`` seconds when
    given and shorter: the tool's share of a run's probe time; a call in flight is still a hang
    only after ``time_limit`` of its own).

    In the main thread on POSIX an interval timer raises :class:`_ProbeTimeout` wherever
    the work is at the deadline (outside the validator, e.g. generating calls: the budget is
    spent, ``timed_out``). A validator call in flight then gets the rest of its own
    ``time_limit`` (see :func:`_on_alarm`); still running after it, it is a hang, recorded as
    a ``timeout`` refusal. Elsewhere the work runs in a daemon thread that is abandoned if it
    outlives the limit (or the call in flight its own) by one second.
    """
    started = time.monotonic()
    span = time_limit if budget is None else max(min(budget, time_limit), 0.0)
    caller = _Caller(validate, started + span, time_limit)
    use_alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    if use_alarm:
        previous = signal.signal(signal.SIGALRM, functools.partial(_on_alarm, caller))
        hook = sys.unraisablehook
        sys.unraisablehook = functools.partial(_quiet_probe_timeouts, previous=hook)
        signal.setitimer(signal.ITIMER_REAL, max(span, 0.001))
        try:
            try:
                work(caller)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)  # before anything else: the alarm re-arms itself
        except _ProbeTimeout:
            caller.timed_out = True
            caller.hung = caller.hung or caller.in_validator
        finally:
            _disarm()  # an alarm that landed before the inner finally disarmed it re-armed itself
            signal.signal(signal.SIGALRM, previous)
            sys.unraisablehook = hook
    else:
        errors: list[BaseException] = []

        def target() -> None:
            try:
                work(caller)
            except BaseException as exc:
                errors.append(exc)

        thread = threading.Thread(target=target, name="schemalint-probe", daemon=True)
        thread.start()
        thread.join(span + 1.0)
        while thread.is_alive() and caller.in_validator:  # the call in flight gets its own time_limit
            remaining = caller.hang_deadline() + 1.0 - time.monotonic()
            if remaining <= 0:
                break
            thread.join(remaining)
        if thread.is_alive():
            caller.timed_out = True
            caller.hung = caller.in_validator
        elif errors:
            raise errors[0]
    result.calls += caller.calls
    result.elapsed += time.monotonic() - started
    result.timed_out = result.timed_out or caller.timed_out
    if caller.hung:
        result.refusals.append(Refusal("timeout", caller.current, Outcome(
            "timeout", f"the validator did not finish within {time_limit:g} s", "timeout")))
    return caller


def _record(result: ProbeResult, kind: str, call: Any, outcome: Outcome, path: str | None = None,
            message: str | None = None) -> None:
    if outcome.status == "timeout":
        return  # recorded once by _run_bounded
    if outcome.status == "crash":
        result.refusals.append(Refusal("crash", call, outcome, path))
    elif outcome.status == "refused":
        result.refusals.append(Refusal(kind, call, outcome, path, message))


def _key_paths(value: Any, path: Path = ()) -> Iterator[Path]:
    if isinstance(value, dict):
        for key, sub in value.items():
            yield (*path, key)
            yield from _key_paths(sub, (*path, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from _key_paths(sub, (*path, i))


@dataclass
class RunBudget:
    """Seconds shared by the probes of ``tools`` tools (see the module docstring).

    :meth:`share` is the next tool's budget (call it just before probing the tool, once per tool);
    :meth:`spent` records the tool's :class:`ProbeResult` values with the budget each was given.
    ``cut``: the tools whose probes the budget stopped (a probe that ran out of a budget shorter
    than its own time limit; one that used its whole time limit was stopped by that limit, as
    without a budget); ``not_made``: the calls they planned and did not make."""

    seconds: float
    tools: int
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    cut: int = 0
    not_made: int = 0
    cut_names: list[str] = field(default_factory=list)

    def left(self) -> float:
        """Seconds left of the whole budget."""
        return max(self.seconds - (time.monotonic() - self.started), 0.0)

    def share(self, limit: float) -> float:
        """The next tool's budget: what is left over the tools left, at most ``limit``."""
        return min(limit, self.left() / max(self.tools - self.done, 1))

    def spent(self, name: str, limit: float, *probes: tuple[ProbeResult | None, float], skipped: int = 0) -> bool:
        """Record one tool's probes, each as ``(result, budget it was given)`` (``limit``: a probe's own
        time limit; ``skipped``: calls of a probe not started because the budget was spent); True
        when the budget stopped them."""
        self.done += 1
        stopped = [r for r, given in probes if r is not None and r.timed_out and given < limit]
        if not stopped:
            return False
        self.cut += 1
        self.cut_names.append(name)
        self.not_made += sum(max(r.planned - r.calls, 0) for r in stopped) + skipped
        return True

    def diagnostic(self, file: str) -> Any:
        """The ``SL000`` warning (``kind: "unchecked"``) for a source whose load-time probes this budget
        stopped (``file``: the source), or ``None`` when it stopped none."""
        if not self.cut:
            return None
        from schemalint.model import Diagnostic, Severity

        return Diagnostic(
            code="SL000", name="unreadable-source", severity=Severity.WARNING, tool=None, file=file, pointer="",
            kind="unchecked",
            message=f"the omission probes run while loading were cut short: {self.summary()}",
            hint="the keys these tools' runtimes refuse when omitted may be incomplete, so SL101 may miss some; "
            "check fewer tools at a time, or raise the load budget with SCHEMALINT_LOAD_PROBE_BUDGET (seconds)")

    def summary(self) -> str:
        """One sentence for a report: what the budget skipped (empty when nothing)."""
        if not self.cut:
            return ""
        named = ", ".join(self.cut_names[:3]) + (f" and {self.cut - 3} more" if self.cut > 3 else "")
        return (f"the run's probe budget ({self.seconds:g} s for {self.tools} tool(s)) stopped the probes of "
                f"{self.cut} tool(s) ({named}): {self.not_made} planned call(s) not made; the calls not made are "
                "not a pass")


_LOAD_BUDGET: list[RunBudget] = []


def load_share(limit: float) -> float:
    """The budget of the next tool probed while loading: inside :func:`load_budget`, what is left
    of the source's budget (at most ``limit``); outside it, ``limit``."""
    if not _LOAD_BUDGET:
        return limit
    return min(limit, _LOAD_BUDGET[-1].left())


def load_spent(name: str, share: float, limit: float, result: ProbeResult) -> bool:
    """Record a load-time probe (:func:`load_share`); True when the load's budget stopped it."""
    if not _LOAD_BUDGET:
        return False
    budget = _LOAD_BUDGET[-1]
    budget.tools += 1
    return budget.spent(name, limit, (result, share))


class load_budget:
    """``with load_budget(seconds) as budget:`` shares ``seconds`` among the omission probes the
    loaders run inside the block (:func:`load_share`); ``budget`` counts what it stopped."""

    def __init__(self, seconds: float | None = None) -> None:
        self.budget = RunBudget(load_run_budget() if seconds is None else seconds, 0)

    def __enter__(self) -> RunBudget:
        _LOAD_BUDGET.append(self.budget)
        return self.budget

    def __exit__(self, *exc: object) -> None:
        _LOAD_BUDGET.remove(self.budget)


def omission_probe(schema: Any, validate: Callable[[Any], Any], *, omit: str = "optional",
                   time_limit: float = DEFAULT_TIME_LIMIT, budget: float | None = None) -> ProbeResult:
    """Omission probes of ``validate`` against ``schema`` (see the module docstring).

    ``time_limit``: seconds one validator call may run before it is a hang (and the probe's
    whole budget); ``budget``: a shorter budget for all the calls (a tool's share of a run's
    probe time), after which no call starts: ``ProbeResult.timed_out``, with ``calls`` made of
    ``planned``.

    ``omit="optional"`` leaves out, one at a time, each key the schema leaves optional
    (what SL107 asks: is a call the schema admits refused?); ``omit="all"`` leaves out
    every key of the complete call, required ones too, even when the call then breaks
    the schema (what a loader asks: which keys does the runtime really require?).

    Never raises for a bad schema or validator: what went wrong is in
    ``ProbeResult.problems`` or a ``timeout``/``crash`` refusal.
    """
    result = ProbeResult()
    if not isinstance(schema, Mapping):
        result.problems.append("the schema is not an object, so no call can be built from it")
        return result
    try:
        validator = _schema_validator(schema)
        minimal = minimal_instance(schema)
        if not validator.is_valid(minimal):
            raise CannotBuild("the smallest call built does not satisfy the schema "
                              f"({next(iter(validator.iter_errors(minimal))).message})")
        complete, added = fill_optional(schema, minimal)
    except CannotBuild as exc:
        result.problems.append(f"could not build a call from the schema: {exc}")
        return result
    except RecursionError:
        result.problems.append("could not build a call from the schema: it nests too deeply")
        return result
    except Exception as exc:  # e.g. the schema is invalid for jsonschema
        result.problems.append(f"could not build a call from the schema: {type(exc).__name__}: {exc}")
        return result
    result.minimal_call, result.complete_call = minimal, complete
    result.optional_paths = [abstract_path(p) for p in added]
    result.planned = 1 + (len(added) if omit == "optional" else len(list(_key_paths(complete)))) \
        + (1 if minimal != complete and omit == "optional" else 0)

    def work(call: _Caller) -> None:
        base = call(complete)
        _record(result, "complete", complete, base)
        if base.status in ("timeout", "crash"):
            return
        explained: set[tuple[str, str]] = set(base.errors)
        for path in added if omit == "optional" else list(_key_paths(complete)):
            probe = _delete_at(copy.deepcopy(complete), path)
            if omit == "optional" and not validator.is_valid(probe):
                continue  # e.g. minProperties or a dependency needs the key after all
            outcome = call(probe)
            if outcome.status == "timeout":
                return
            if outcome.status == "crash" or (outcome.status == "refused" and (
                    base.status == "accepted" or not outcome.errors <= base.errors)):
                _record(result, "omission", probe, outcome, abstract_path(path),
                        outcome.message_without(base.errors))
                explained |= outcome.errors
        if minimal != complete and omit == "optional":
            outcome = call(minimal)
            if outcome.status == "refused" and base.status == "accepted" and not outcome.errors <= explained:
                _record(result, "minimal", minimal, outcome, None,
                        outcome.message_without(frozenset(explained)))

    _run_bounded(work, validate, time_limit, result, budget)
    return result


EXTRA_KEY = "schemalint_undeclared_key"
"""The key :func:`extra_key_probe` adds to a call: a name no schema declares."""


def extra_key_probe(schema: Any, validate: Callable[[Any], Any], *,
                    time_limit: float = DEFAULT_TIME_LIMIT) -> tuple[Outcome, Outcome] | None:
    """(outcome of the smallest call ``schema`` admits, outcome of that call plus the undeclared key
    :data:`EXTRA_KEY`) from ``validate``: what a runtime answers a model that adds a key (SL106 reads
    whether its refusal names the key). ``None`` when no call can be built from ``schema`` (not an
    object schema, or its smallest value is not an object) or the calls ran out of ``time_limit``
    seconds. Never raises for a bad schema or validator."""
    if not isinstance(schema, Mapping):
        return None
    try:
        minimal = minimal_instance(schema)
        if not isinstance(minimal, dict) or not _schema_validator(schema).is_valid(minimal):
            return None
    except (CannotBuild, RecursionError):
        return None
    except Exception:  # e.g. the schema is invalid for jsonschema
        return None
    outcomes: list[Outcome] = []

    def work(call: _Caller) -> None:
        outcomes.append(call(minimal))
        if outcomes[0].status == "accepted":
            outcomes.append(call({**minimal, EXTRA_KEY: "x"}))

    caller = _run_bounded(work, validate, time_limit, ProbeResult())
    if caller.timed_out or len(outcomes) != 2:
        return None
    return outcomes[0], outcomes[1]


def _size(value: Any) -> int:
    try:
        return len(json.dumps(value, sort_keys=True, default=str))
    except Exception:
        return 1 << 30


_HYPOTHESIS_HOME: list[str] = []


def _private_hypothesis_home() -> None:
    """Point hypothesis' storage (its example database, the constants it collects from the
    user's modules) at a private temporary directory removed at exit: by default it creates
    ``.hypothesis/`` in the working directory, the user's project. Raises ``ImportError``
    without hypothesis."""
    if _HYPOTHESIS_HOME:
        return
    import atexit
    import shutil
    import tempfile

    from hypothesis.configuration import set_hypothesis_home_dir

    if os.name == "posix":  # the liveness test below is POSIX's kill(pid, 0)
        _remove_orphaned_homes(tempfile.gettempdir())
    home = tempfile.mkdtemp(prefix=f"{_HOME_PREFIX}{os.getpid()}-")
    _HYPOTHESIS_HOME.append(home)
    set_hypothesis_home_dir(home)
    atexit.register(shutil.rmtree, home, True)


_HOME_PREFIX = "schemalint-hypothesis-"
_ORPHAN_NAME = re.compile(re.escape(_HOME_PREFIX) + r"(\d+)-[A-Za-z0-9_]+")


def _remove_orphaned_homes(tmp: str) -> None:
    """Remove the private hypothesis homes that killed probe runs left in ``tmp``: a process
    ended by SIGKILL runs no exit handler. Only directories named by
    :func:`_private_hypothesis_home` (``schemalint-hypothesis-PID-XXXX``), owned by this user,
    not symbolic links, whose process ``PID`` no longer exists, are removed; a live or
    unknown process keeps its directory. Errors are ignored (another run may race us)."""
    import shutil

    try:
        entries = list(os.scandir(tmp))
    except OSError:
        return
    for entry in entries:
        match = _ORPHAN_NAME.fullmatch(entry.name)
        if match is None:
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                continue
            os.kill(int(match.group(1)), 0)
        except ProcessLookupError:
            shutil.rmtree(entry.path, ignore_errors=True)
        except (OSError, OverflowError, ValueError):
            continue


def generated_probe(schema: Any, validate: Callable[[Any], Any], *, max_examples: int = DEFAULT_MAX_EXAMPLES,
                    time_limit: float = DEFAULT_TIME_LIMIT, budget: float | None = None) -> ProbeResult:
    """Generated probes: up to ``max_examples`` calls drawn from ``schema`` with
    hypothesis-jsonschema (derandomized: the same calls every run), shrunk to the
    smallest call the runtime refuses. Records at most one ``generated`` refusal (and
    a ``crash``/``timeout`` when that happened). ``budget``: a shorter budget than
    ``time_limit`` for generating and making all the calls (a tool's share of a run's budget,
    :class:`RunBudget`). Never raises for a bad schema.
    """
    result = ProbeResult(planned=max_examples)
    try:
        _private_hypothesis_home()
        from hypothesis import HealthCheck, Phase, given, settings
        from hypothesis_jsonschema import from_schema
    except ImportError:
        from schemalint.distribution import extra_install_line

        result.problems.append("generated probes need hypothesis and hypothesis-jsonschema "
                               f"({extra_install_line('pydantic')})")
        return result
    try:
        strategy = from_schema(schema)
    except Exception as exc:
        result.problems.append(f"hypothesis-jsonschema cannot generate calls for this schema: "
                               f"{type(exc).__name__}: {str(exc)[:200]}")
        return result
    failures: list[tuple[Any, Outcome]] = []

    class _Refused(Exception):
        pass

    def work(call: _Caller) -> None:
        @settings(max_examples=max_examples, derandomize=True, database=None, deadline=None,
                  suppress_health_check=list(HealthCheck), phases=(Phase.generate, Phase.shrink),
                  print_blob=False, report_multiple_bugs=False)
        @given(strategy)
        def probe(instance: Any) -> None:
            if call.expired():
                call.timed_out = True
                return
            outcome = call(instance)
            if outcome.status in ("refused", "crash"):
                failures.append((instance, outcome))
                raise _Refused()

        try:
            probe()
        except _Refused:
            pass
        except Exception as exc:  # hypothesis: Unsatisfiable, Flaky (time ran out while shrinking) ...
            # At the deadline the alarm interrupts hypothesis wherever it is (often generating
            # data) and it reports that as a flaky test: that is the time limit (reported as
            # such), not a problem of the schema.
            if call.expired():
                call.timed_out = True
            elif not failures:
                name = type(exc).__name__
                result.problems.append(f"generated probes stopped: {name}: {str(exc).splitlines()[0][:200]}"
                                       if str(exc) else f"generated probes stopped: {name}")

    _run_bounded(work, validate, time_limit, result, budget)
    if failures:
        for status in ("crash", "refused"):
            found = [f for f in failures if f[1].status == status]
            if found:
                smallest = min(found, key=lambda f: _size(f[0]))
                result.refusals.append(Refusal("crash" if status == "crash" else "generated", smallest[0],
                                               smallest[1]))
    return result
