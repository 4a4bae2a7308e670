"""The run loop: every selected rule over the loaded tools, per tool and per catalog.

Used by :func:`schemalint.engine.check` in this process and by :mod:`schemalint.engine.parallel`
in its workers (so neither imports the other). An exception inside a rule becomes an
``SL999 internal-error`` diagnostic (:func:`internal_error`), never a finding under the rule's
own code. A tool whose schema was read through a view (:attr:`Tool.schema_view`: a JSON string
decoded, snake_case Gemini fields or AgentSchema parameters translated) has its diagnostics
pointed back at keys that exist in the file (:func:`relocate`).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from schemalint.model import RUN, Diagnostic, Origin, RunContext, Severity, Tool, running
from schemalint.rules.base import FAIL_RULE_ENV, INTERNAL_ERROR
from schemalint.rules.tool_text import known_text, seed_text
from schemalint.schema.index import index_schema
from schemalint.schema.nonjson import has_null_value

if TYPE_CHECKING:
    from schemalint.rules.base import Context, Rule

_VIEW_ALIASES: dict[str, dict[str, str]] = {
    "snake-case": {"anyOf": "any_of", "minItems": "min_items", "maxItems": "max_items",
                   "minLength": "min_length", "maxLength": "max_length", "minProperties": "min_properties",
                   "maxProperties": "max_properties", "propertyOrdering": "property_ordering",
                   "additionalProperties": "additional_properties"},
    "agentschema": {"type": "kind", "enum": "enumValues"},
}
"""For a translated schema view, the file's spelling of a key the translation renamed."""


def relocate(tool: Tool, found: Iterable[Diagnostic]) -> Iterator[Diagnostic]:
    """The diagnostics ``found`` for ``tool``, whose schema was read through a view
    (:attr:`Tool.schema_view`: decoded from a JSON string, or translated), pointed at what exists in
    the file: a pointer into the schema is cut at the deepest key present in the tool object
    (following the view's renamed keys back to the file's spelling), and the part that does not
    exist in the file is named in the message ("at /properties/x in the schema read from ...").
    Diagnostics outside the schema pass unchanged."""
    from dataclasses import replace

    from schemalint.model import SCHEMA_VIEWS, escape_token, split_pointer

    base = tool.schema_pointer
    aliases = _VIEW_ALIASES.get(tool.schema_view or "", {})
    for diag in found:
        if diag.file != tool.origin.file or not (diag.pointer == base or diag.pointer.startswith(base + "/")):
            yield diag
            continue
        rest = split_pointer(diag.pointer[len(base):]) if diag.pointer != base else []
        mapped = rest[:1] == ["properties"] and tool.schema_view == "property-map"
        if mapped:
            rest = rest[1:]  # the file's map is the `properties` of the schema as read
        node: Any = _lookup(tool.raw, split_pointer(tool.schema_path or ""))
        kept: list[str] = []
        for token in rest:
            step = None
            if isinstance(node, Mapping):
                step = token if token in node else aliases.get(token) if aliases.get(token) in node else None
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                step = token
            if step is None:
                break
            kept.append(step)
            node = node[int(step)] if isinstance(node, list) else node[step]
        if kept == rest:
            yield replace(diag, pointer=base + "".join("/" + escape_token(t) for t in kept)) if mapped else diag
            continue
        inner = "".join("/" + escape_token(t) for t in rest)
        view = SCHEMA_VIEWS.get(tool.schema_view or "", tool.schema_view or "")
        note = f" (at {inner or '/'} of the schema as read: {view})"
        yield replace(diag, pointer=base + "".join("/" + escape_token(t) for t in kept),
                      message=diag.message + note)


def _lookup(node: Any, tokens: Sequence[str]) -> Any:
    for token in tokens:
        if isinstance(node, Mapping):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def run_rules(rules: Sequence[Rule], tools: Sequence[Tool], ctx: Context) -> Iterator[Diagnostic]:
    """Run every applicable rule over ``tools``; a rule that crashes on a tool yields an
    ``SL999 internal-error`` diagnostic naming the exception instead of stopping the run.
    ``ctx.run`` is the current run (:func:`schemalint.model.running`) while the rules run."""
    with running(ctx.run), paused_collector():
        active = [r for r in rules if r.applies(ctx)]
        yield from run_tool_rules(active, tools, ctx)
        for rule in active:
            yield from run_catalog_rule(rule, tools, ctx)


_PAUSE: list[Any] = [0, False]
"""``[depth of the nested pauses of the cyclic collector, whether it was enabled when the outermost
began]`` (:func:`paused_collector`)."""
COLLECT_EVERY = 1024
"""While the collector is paused, :func:`run_tool_rules` collects the youngest generation once per
this many tools (:func:`collect_young`), so that the reference cycles the rules leave (an
exception and its traceback ...) stay bounded on a catalog of a million tools."""


@contextmanager
def paused_collector() -> Iterator[None]:
    """Pause the cyclic garbage collector for the ``with`` block (nested blocks share the outermost
    pause); it is enabled again on leaving the outermost block, however it is left, when it was
    enabled on entering it. The rules allocate millions of short-lived dicts, lists and tuples, and
    every 700 of them the collector scanned the young generation, now and then everything the run
    keeps (its memo, the tools of a streamed file): 0.7-0.9 s of CPU on a catalog of 19,243 tools
    (docs/performance.md). Reference counting still frees every object outside a cycle;
    :func:`collect_young` collects the cycles, and a route that checks group by group leaves the
    pause after each group (:meth:`schemalint.engine.pipeline.FilePipeline.check`)."""
    if _PAUSE[0] == 0:
        _PAUSE[1] = gc.isenabled()
        gc.disable()
    _PAUSE[0] += 1
    try:
        yield
    finally:
        _PAUSE[0] -= 1
        if _PAUSE[0] == 0 and _PAUSE[1]:
            _PAUSE[1] = False
            gc.enable()


def collect_young() -> None:
    """Inside :func:`paused_collector` (of a collector that was enabled), collect the youngest
    generation: the cycles made since the last collection, whose objects are all young."""
    if _PAUSE[0] and _PAUSE[1]:
        gc.collect(0)


_NOTHING: tuple[()] = ()
"""What a rule's ``check_tool`` returns when it has nothing to say (the empty tuple)."""
_ABSENT: Any = object()
_PRESENT: Any = object()
"""The key, in a definition's findings by rule, of the keywords of :attr:`Rule.keywords` its schemas hold."""
_TEXT: Any = object()
"""The key, in a definition's findings by rule, of its joined descriptions (:func:`known_text`)."""


def tool_keywords(tool: Tool) -> frozenset[Any]:
    """Every key of every walked subschema of ``tool``'s advertised schema and of its MCP
    ``outputSchema`` (:attr:`schemalint.schema.index.SchemaIndex.keys`; the walks are the ones the
    rules share, so this costs one C-level pass over the nodes). A rule whose :attr:`Rule.keywords`
    are all absent here finds nothing in the tool."""
    keys = index_schema(tool.advertised).keys
    if tool.output_schema is not None:
        keys = keys | index_schema(tool.output_schema).keys
    return keys


def run_tool_rules(active: Sequence[Rule], tools: Sequence[Tool], ctx: Context, *,
                   skip: bool = True) -> Iterator[Diagnostic]:
    """The per-tool half of :func:`run_rules`: ``check_tool`` of every rule in ``active`` (rules
    that apply in ``ctx``) on every tool, tool by tool; an exception in a rule becomes an
    ``SL999 internal-error`` (:func:`internal_error`), the other rules and tools go on.
    A rule with :attr:`Rule.targets` is not called for a tool none of whose profiles
    (:meth:`Context.targets_for`) it has, and with ``skip`` (the default) a rule with
    :attr:`Rule.keywords` is not called for a tool none of whose subschemas holds one of them
    (:func:`tool_keywords`), nor a rule whose ``check_tool`` is a no-op (:meth:`Rule.checks_tools`):
    it would find nothing there. ``skip=False`` calls every rule (the
    preconditions' tests compare both); so does fault injection (:data:`FAIL_RULE_ENV`), which must
    reach the named rule on every tool."""
    fail = os.environ.get(FAIL_RULE_ENV)
    if fail:
        skip = False
    with paused_collector():
        yield from _run_tool_rules(active, tools, ctx, skip, fail)


def _run_tool_rules(active: Sequence[Rule], tools: Sequence[Tool], ctx: Context, skip: bool,
                    fail: str | None) -> Iterator[Diagnostic]:
    """:func:`run_tool_rules` (``fail``: the code of :data:`FAIL_RULE_ENV`), the collector paused."""
    per_profiles, per_present = rule_plans(active, skip)
    targets_for = ctx.targets_for
    by_definition = _ByDefinition.of_run()
    for number, tool in enumerate(tools, 1):
        if not number % COLLECT_EVERY:
            collect_young()
        profiles = targets_for(tool)
        entry = per_profiles.get(profiles)
        if entry is None:
            rules = [r for r in active if (not r.targets or not profiles.isdisjoint(r.targets))
                     and (not skip or r.checks_tools())]
            wanted = frozenset().union(*[r.keywords for r in rules if r.keywords is not None]) if skip \
                else frozenset()
            entry = per_profiles[profiles] = (_steps(rules), wanted,
                                              skip and any(r.per_definition for r in rules))
        steps, wanted, keyed = entry
        # this definition's findings, by rule (and its keywords present, its joined descriptions)
        origin, copies, first = _definition(tool, profiles, by_definition) if keyed and by_definition.keying \
            else (tool.origin, None, True)
        if wanted:
            present = _present(tool, wanted, copies, first)
            chosen = per_present.get((profiles, present))
            if chosen is None:
                chosen = per_present[(profiles, present)] = tuple(
                    s for s in steps if s.rule.keywords is None or not s.rule.keywords.isdisjoint(present))
            steps = chosen
        view = tool.schema_view
        for rule, check, per_definition, shares in steps:
            try:
                if fail and rule.code == fail:
                    raise _InjectedFault(f"{FAIL_RULE_ENV}={fail}")
                if copies is not None and per_definition and (shares is None or shares(tool, ctx)):
                    if not first:
                        held = copies.get(rule, _ABSENT)
                        if held is not None and held is not _ABSENT:
                            if held:
                                yield from _moved(held, origin, tool.origin)
                            continue
                    found = check(tool, ctx)
                    if found is _NOTHING:
                        if first:
                            copies[rule] = ()
                        continue
                    collected: list[Diagnostic] = []
                    try:
                        collected.extend(relocate(tool, found) if view else found)
                    except BaseException:
                        yield from collected  # what the rule found before it failed, as without the memo
                        raise
                    if first:
                        copies[rule] = tuple(collected) if _movable(collected, tool.origin) else None
                    yield from collected
                    continue
                found = check(tool, ctx)
                if found is _NOTHING:
                    continue
                yield from (relocate(tool, found) if view else found)
            except RecursionError:
                yield rule.diag(tool, "", f"{rule.code} could not check this tool: the schema is nested too "
                                "deeply for it", severity=Severity.WARNING)
            except Exception as exc:  # a rule bug must not lose the other tools' findings
                yield internal_error(rule, exc, Diagnostic(rule.code, rule.name, Severity.ERROR, tool.name or None,
                                                           tool.origin.file, tool.origin.pointer, "",
                                                           line=tool.origin.line))
        if first and copies is not None:
            text = copies[_TEXT] = known_text(tool)  # what the rules joined of the first copy, for the others
            if text is not None:
                by_definition.size += len(text[0])


class _Step(NamedTuple):
    """How the run loop calls one rule (:func:`_steps`), read once per plan instead of once per tool
    and rule: ``check`` is the rule's bound ``check_tool``, ``per_definition`` its
    :attr:`Rule.per_definition`, and ``shares`` its bound ``shares_definition`` when the rule
    overrides it, ``None`` when it is :meth:`Rule.shares_definition` (always true: not called)."""

    rule: Rule
    check: Any
    per_definition: bool
    shares: Any


def _steps(rules: Sequence[Rule]) -> tuple[_Step, ...]:
    """The :class:`_Step` of each of ``rules``, in order."""
    from schemalint.rules.base import Rule

    return tuple(_Step(r, r.check_tool, bool(r.per_definition),
                       None if getattr(type(r), "shares_definition", None) is Rule.shares_definition
                       else r.shares_definition)
                 for r in rules)


_PLANS = "run_loop.plans"
PLANS_KEPT = 64
"""The rule plans (:func:`rule_plans`) a run keeps: one per set of active rules, which is one per
run, unless a caller runs the rules with several sets (then the oldest are dropped)."""
Plans = tuple[dict[frozenset[str], tuple[tuple["_Step", ...], frozenset[str], bool]],
              dict[tuple[frozenset[str], frozenset[Any]], tuple["_Step", ...]]]
"""(per set of profiles: the rules to call (:class:`_Step`), the keywords some of them need, whether one
is per definition; per (profiles, keywords present): the rules to call for a tool with those keywords)."""


def rule_plans(active: Sequence[Rule], skip: bool) -> Plans:
    """The rule plans (:data:`Plans`) of the current run for the rules ``active`` (``skip``: see
    :func:`run_tool_rules`), filled by :func:`run_tool_rules` as it meets tools and kept for the run
    (:data:`~schemalint.model.RUN`): a route that checks file by file, or batch by batch, chooses
    the rules for a set of profiles and keywords once per run, not once per file. Keyed by the
    rules themselves (by identity) and ``skip``, so a plan never serves another set of rules."""
    plans: dict[tuple[Any, ...], Plans] = RunContext.current.table(_PLANS, dict, RUN)
    key = (skip, *active)
    found = plans.get(key)
    if found is None:
        if len(plans) >= PLANS_KEPT:
            plans.clear()
        found = plans[key] = ({}, {})
    return found


def _definition(tool: Tool, profiles: frozenset[str], by_definition: _ByDefinition,
                ) -> tuple[Origin, dict[Any, Any] | None, bool]:
    """(origin of the first copy of ``tool``'s definition in the run, the findings kept for it by rule or
    ``None`` when the tool is checked on its own, whether ``tool`` is that first copy). A later copy is
    given the first copy's joined descriptions (:func:`seed_text`): they join alike."""
    key = definition_key(tool, profiles)
    if key is None:
        return tool.origin, None, True
    seen = by_definition.get(key)
    if seen is None:
        seen = by_definition.add(key, tool.origin)
    origin, copies = seen
    first = origin is tool.origin
    if not first:
        text = copies.get(_TEXT)
        if text is not None:
            seed_text(tool, text)
    return origin, copies, first


def _present(tool: Tool, wanted: frozenset[str], copies: dict[Any, Any] | None, first: bool) -> frozenset[Any]:
    """The keywords of ``wanted`` that ``tool``'s schemas hold (:func:`tool_keywords`), read once per
    definition: a later copy's schemas encode alike, so it gets its first copy's (kept in ``copies``)."""
    present: frozenset[Any] | None = None if first or copies is None else copies.get(_PRESENT)
    if present is None:
        present = wanted.intersection(tool_keywords(tool))
        if copies is not None:
            copies[_PRESENT] = present
    return present


_PARSED_SUFFIXES = (".json", ".snap", ".jsonl", ".ndjson", ".yaml", ".yml")
"""Files whose tools are parsed JSON or YAML: plain values (no tuples, no objects of a Python source)."""
_ENCODE = 0
_PARSED_FILES: dict[str, bool] = {}
"""Whether each file name seen ends with one of :data:`_PARSED_SUFFIXES` (a catalog's tools share a few files)."""


def definition_key(tool: Tool, profiles: frozenset[str]) -> tuple[Any, ...] | None:
    """A key equal for two tools of one run exactly when a rule with :attr:`Rule.per_definition`
    finds the same in both (up to where the findings are): the tool's name, description, format,
    schema path and view, profiles, and its parsed object, advertised and output schemas encoded by
    orjson in key order (the advertised schema is not encoded again when it is the very object at
    the schema path in the parsed object, whose encoding holds it; the key says which). ``None``
    (the tool is checked on its own) for a tool with a runtime contract or without a parsed object,
    one read from a file that is not JSON or YAML (a Python
    source may hold tuples, which encode as lists), a value orjson does not encode as it stands (a
    subclass, a date, an integer beyond 64 bits, too deep), and one holding a ``null`` value (orjson
    writes NaN and infinities, which JSON's fallback parser and YAML read, as ``null`` too). Never raises."""
    global _ENCODE
    raw = tool.raw
    if tool.runtime is not None or type(raw) is not dict:
        return None
    file = tool.origin.file
    parsed = _PARSED_FILES.get(file)
    if parsed is None:
        parsed = file.lower().endswith(_PARSED_SUFFIXES)
        if len(_PARSED_FILES) >= 4096:
            _PARSED_FILES.clear()
        _PARSED_FILES[file] = parsed
    if not parsed:
        return None
    import orjson

    if not _ENCODE:
        _ENCODE = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
    advertised = tool.advertised
    # the advertised schema is usually the object at schema_path in raw: raw's encoding then holds it
    inside = tool.schema_view is None and advertised is not None and _at_path(raw, tool.schema_path) is advertised
    try:
        encoded = orjson.dumps([raw, tool.output_schema] if inside else [raw, advertised, tool.output_schema],
                               option=_ENCODE)
    except Exception:  # orjson.JSONEncodeError (a TypeError)
        return None
    if has_null_value(encoded, 1, len(encoded) - 1 - (tool.output_schema is None) * 5):
        return None  # ([raw, advertised, null]: the last null is the absent output schema)
    return (tool.name, tool.description, tool.origin.format, tool.schema_path, tool.schema_view, profiles, inside,
            encoded)


_PATHS: dict[str, list[str] | None] = {}
""":func:`split_pointer` of each schema path seen (a catalog has a handful), ``None`` for one that is not a pointer."""


def _at_path(raw: dict[str, Any], path: str | None) -> Any:
    """The value at the JSON pointer ``path`` in ``raw`` (``None`` when absent or ``path`` is not one)."""
    if not path:
        return None
    try:
        tokens = _PATHS[path]
    except KeyError:
        from schemalint.model import split_pointer

        try:
            tokens = split_pointer(path)
        except ValueError:
            tokens = None
        if len(_PATHS) < 256:
            _PATHS[path] = tokens
    if not tokens:
        return None
    node: Any = raw
    for token in tokens:
        if type(node) is not dict:
            return None
        node = node.get(token)
    return node


class _ByDefinition:
    """The findings of each definition seen in the run (:func:`definition_key` -> ``(origin of its first
    copy, {rule: findings, or None when they cannot be moved})``; the dict also holds, under
    :data:`_PRESENT` and :data:`_TEXT`, the keywords its schemas hold and its joined descriptions),
    bounded: cleared above :data:`LIMIT` bytes of keys (a streaming run over millions of distinct tools stays small).
    ``keying``: whether the run still looks definitions up; it stops when fewer than one in
    :data:`RARE` of the first :data:`TRIAL` keys was a repeat (10,000 generated tools, all distinct:
    the keys and the findings kept cost a tenth of the check and never saved a rule's call), and the
    tools are then checked each on its own, which finds the same."""

    LIMIT = 32 * 1024 * 1024
    TRIAL = 2048
    RARE = 16
    __slots__ = ("added", "entries", "hits", "keying", "size")

    def __init__(self) -> None:
        self.entries: dict[tuple[Any, ...], tuple[Origin, dict[Any, Any]]] = {}
        self.size = 0
        self.added = self.hits = 0
        self.keying = True

    @classmethod
    def of_run(cls) -> _ByDefinition:
        found: _ByDefinition = RunContext.current.table("run_loop.by_definition", cls, RUN)
        return found

    def get(self, key: tuple[Any, ...]) -> tuple[Origin, dict[Any, Any]] | None:
        found = self.entries.get(key)
        if found is not None:
            self.hits += 1
        return found

    def add(self, key: tuple[Any, ...], origin: Origin) -> tuple[Origin, dict[Any, Any]]:
        self.added += 1
        if self.added == self.TRIAL and self.hits * self.RARE < self.TRIAL:
            self.keying = False
        self.size += len(key[-1]) + 200
        if self.size > self.LIMIT:
            self.entries.clear()
            self.size = len(key[-1]) + 200
        entry = self.entries[key] = (origin, {})
        return entry


def _movable(found: Sequence[Diagnostic], origin: Origin) -> bool:
    """Whether ``found`` (a rule's findings for a tool at ``origin``) can be given to another copy of the
    definition by moving them (:func:`_moved`): each is in the tool's file, under its pointer, on its
    line, with no column or path of its own, and no message or hint names the file or the pointer."""
    for d in found:
        if (d.file != origin.file or not d.pointer.startswith(origin.pointer) or d.line != origin.line
                or d.column is not None or d.path is not None):
            return False
        for text in (d.message, d.hint):
            if text and ((origin.file and origin.file in text) or (origin.pointer and origin.pointer in text)):
                return False
    return True


def _moved(found: Sequence[Diagnostic], old: Origin, new: Origin) -> Iterator[Diagnostic]:
    """``found`` (:func:`_movable` at ``old``) at the copy of the definition at ``new``."""
    if old == new and old.line == new.line:
        yield from found
        return
    cut = len(old.pointer)
    for d in found:
        yield Diagnostic(d.code, d.name, d.severity, d.tool, new.file, new.pointer + d.pointer[cut:], d.message,
                         d.instance_path, d.hint, new.line, None, None, d.kind,
                         new.pointer + d.site[cut:] if d.site is not None else None)


def run_catalog_rule(rule: Rule, tools: Sequence[Tool], ctx: Context) -> Iterator[Diagnostic]:
    """The catalog half of :func:`run_rules` for one rule; a crash becomes an ``SL999`` diagnostic."""
    try:
        yield from rule.check_catalog(tools, ctx)
    except Exception as exc:
        yield internal_error(rule, exc, Diagnostic(rule.code, rule.name, Severity.ERROR, None, "", "", ""),
                             what="the catalog")


def internal_error(rule: Rule, exc: BaseException, where: Diagnostic, what: str = "this tool") -> Diagnostic:
    """The ``SL999 internal-error`` diagnostic for ``exc`` raised by ``rule``, at the tool, file and
    pointer of ``where`` (the tool object itself, or no tool for a catalog check). The message names the
    rule, the exception and the innermost traceback frame, and asks for a bug report."""
    import os
    import traceback
    from dataclasses import replace

    frames = traceback.extract_tb(exc.__traceback__)
    at = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    module = type(rule).__module__
    owner = "schemalint" if module.startswith("schemalint.") else f"the plugin that defines it ({module})"
    message = (f"internal error: rule {rule.code} {rule.name} crashed on {what} "
               f"({type(exc).__name__}: {exc}{at}); this is a bug in {owner}, not a finding: "
               "please report it with this line and the tool definition")
    return replace(where, code=INTERNAL_ERROR, name="internal-error", severity=Severity.ERROR, message=message,
                   instance_path=None, hint=None)


class _InjectedFault(RuntimeError):
    """Raised by :func:`run_tool_rules` inside the rule named by :data:`FAIL_RULE_ENV`."""

# ---------------------------------------------------------------------------- 4.-6. filter, locate, baseline, notes
