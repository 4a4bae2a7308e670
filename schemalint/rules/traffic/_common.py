"""What the traffic rules share: the hook, the context, validation of a call, call/result pairing.

A traffic rule (:class:`TrafficRule`) reports nothing through the tool hooks of ``check``; its
:meth:`TrafficRule.check_conversation` yields :class:`Witness` objects for one recorded
conversation. Findings with the same :attr:`Witness.key` are one finding with a count
(:meth:`TrafficRule.counted` writes its message), so a pattern repeated over a million log lines
is reported once. Calls are validated with ``jsonschema`` (the dialect its ``$schema`` names,
draft-07 otherwise; ``format`` not asserted; a ``$ref`` outside the schema is never fetched: the
call is then not judged).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from schemalint.model import Diagnostic, Severity, Tool
from schemalint.rules.base import Rule
from schemalint.traffic.records import Call, Conversation, Result


@dataclass
class Witness:
    """One finding of a traffic rule: its first witness ``diagnostic`` and the ``key`` that
    makes repeats one finding (``None``: never merged)."""

    diagnostic: Diagnostic
    key: Hashable | None = None


@dataclass
class TrafficContext:
    """What a traffic rule may know besides the conversation.

    ``project``: the tools of ``--tools`` by name (the first definition of a name); ``options``:
    per-rule options from the configuration; ``calls_by_tool``: how many recorded calls named each
    tool so far (filled by the run before the rules see a conversation); ``replay_limit``: distinct
    calls per tool replayed against a callable runtime (the rest are counted, not replayed).
    """

    project: Mapping[str, Tool] = field(default_factory=dict)
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    calls_by_tool: dict[str, int] = field(default_factory=dict)
    replay_limit: int = 2000
    _validators: dict[int, tuple[Any, Any]] = field(default_factory=dict, repr=False)
    _by_text: dict[str, Any] = field(default_factory=dict, repr=False)
    _errors: dict[int, tuple[Call, Any]] = field(default_factory=dict, repr=False)
    _pairs: tuple[Conversation | None, dict[int, Result]] = (None, {})
    _replayed: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)

    def option(self, code: str, key: str, default: Any) -> Any:
        """The configured option ``key`` of rule ``code``, else ``default``."""
        return self.options.get(code, {}).get(key, default)

    def advertised(self, conv: Conversation, name: str | None) -> Tool | None:
        """The tool a call to ``name`` was made against: the one the record declares (what the
        model was shown), else the project's (``--tools``), else ``None``."""
        if name is None:
            return None
        return conv.declared_tool(name) or self.project.get(name)

    def validator(self, schema: Any) -> Any:
        """A ``jsonschema`` validator for ``schema``, or ``None`` when ``schema`` is not a schema
        ``jsonschema`` accepts (a broken one is ``check``'s to report). Cached by the schema object
        and by its JSON text, so the same schema declared on every line of a log is compiled once."""
        cached = self._validators.get(id(schema))
        if cached is not None and cached[0] is schema:
            return cached[1]
        try:
            text = json.dumps(schema, sort_keys=True, default=repr)
        except (TypeError, ValueError, RecursionError):
            text = None
        if text is not None and text in self._by_text:
            validator = self._by_text[text]
        else:
            validator = _compile(schema)
            if text is not None:
                if len(self._by_text) > 10_000:
                    self._by_text.clear()
                self._by_text[text] = validator
        if len(self._validators) > 64:  # a few recent schema objects (a log's lines each bring their own)
            self._validators.clear()
        self._validators[id(schema)] = (schema, validator)
        return validator

    def errors(self, call: Call, schema: Any) -> list[Any] | None:
        """The ``jsonschema`` errors of ``call``'s arguments against ``schema`` (``[]``: valid);
        ``None`` when it cannot be judged (no usable schema, undecodable arguments, an
        unresolvable ``$ref``). Cached per call."""
        cached = self._errors.get(id(call))
        if cached is not None and cached[0] is call:
            return list(cached[1]) if cached[1] is not None else None
        found: list[Any] | None = None
        validator = self.validator(schema)
        if validator is not None and call.undecodable is None:
            try:
                found = sorted(validator.iter_errors(call.arguments), key=lambda e: list(e.absolute_path))
            except Exception:  # an unresolvable $ref, a pattern the engine cannot read
                found = None
        self._errors[id(call)] = (call, found)
        return list(found) if found is not None else None

    def new_conversation(self) -> None:
        """Forget the per-conversation caches (the run calls it before each conversation)."""
        self._errors.clear()
        self._pairs = (None, {})

    def results_of(self, conv: Conversation) -> dict[int, Result]:
        """``id(call)`` -> the result that answers it, for the calls of ``conv`` that have one
        (:func:`pair_results`; cached for the conversation)."""
        if self._pairs[0] is not conv:
            self._pairs = (conv, pair_results(conv))
        return self._pairs[1]

    def replay_slot(self, tool: str, call: Call) -> tuple[bool, Any]:
        """``(known, outcome)``: the outcome recorded for an identical call to ``tool`` replayed
        before, or ``(False, None)`` when it must be replayed (then :meth:`remember` it). Past
        :attr:`replay_limit` distinct calls, ``(True, None)``: not replayed."""
        seen = self._replayed.setdefault(tool, {})
        key = _call_key(call)
        if key in seen:
            return True, seen[key]
        if len(seen) >= self.replay_limit:
            return True, None
        return False, None

    def remember(self, tool: str, call: Call, outcome: Any) -> None:
        """Record the replay ``outcome`` of ``call`` (see :meth:`replay_slot`)."""
        self._replayed.setdefault(tool, {})[_call_key(call)] = outcome


def _compile(schema: Any) -> Any:
    """The validator of ``schema`` (the dialect its ``$schema`` names, draft-07 otherwise; patterns in
    linear time; ``format`` not asserted), or ``None`` when the schema is not valid for its dialect."""
    if not isinstance(schema, (Mapping, bool)):
        return None
    try:
        from jsonschema.validators import Draft7Validator, validator_for

        cls = validator_for(schema, default=Draft7Validator) if isinstance(schema, Mapping) else Draft7Validator
        cls.check_schema(schema)
        return _linear(cls)(schema)
    except Exception:
        return None


@functools.cache
def _linear(cls: Any) -> Any:
    from schemalint.schema.patterns import linear_validator

    return linear_validator(cls)


def _call_key(call: Call) -> str:
    try:
        return json.dumps(call.arguments, sort_keys=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        return repr(id(call))


def pair_results(conv: Conversation) -> dict[int, Result]:
    """Which result answers which call, in conversation order: a result answers the earliest call
    before it that has its id and no result yet; calls and results without ids (Gemini, legacy
    OpenAI functions) pair by name the same way. Keyed by ``id(call)``."""
    waiting: dict[tuple[str, str], list[Call]] = {}
    out: dict[int, Result] = {}
    for turn in conv.turns:
        for result in turn.results:
            key = ("id", result.id) if result.id is not None else ("name", result.name) if result.name else None
            queue = waiting.get(key) if key is not None else None
            if queue:
                out[id(queue.pop(0))] = result
        for call in turn.calls:
            key = ("id", call.id) if call.id is not None else ("name", call.name) if call.name else None
            if key is not None:
                waiting.setdefault(key, []).append(call)
    return out


class TrafficRule(Rule):
    """Base class of the SL4xx rules (see the module docstring)."""

    severity = Severity.ERROR

    def check_conversation(self, conv: Conversation, ctx: TrafficContext) -> Iterable[Witness]:
        """Findings for one recorded conversation; default: none."""
        return ()

    def counted(self, diagnostic: Diagnostic, count: int, ctx: TrafficContext) -> Diagnostic | None:
        """The diagnostic of a finding seen ``count`` times (its first witness ``diagnostic``), or
        ``None`` to report nothing; default: the message with "(N times; first shown)" added when
        ``count`` > 1."""
        if count <= 1:
            return diagnostic
        from dataclasses import replace

        return replace(diagnostic, message=f"{diagnostic.message} ({count} times in the traffic; the first is shown)")

    def at(self, conv: Conversation, pointer: str, message: str, *, tool: str | None = None,
           line: int | None = None, hint: str | None = None, instance_path: str | None = None,
           severity: Severity | None = None) -> Diagnostic:
        """A diagnostic of this rule at ``pointer`` of ``conv``'s document (``line``: the JSON Lines
        line when it is not the conversation's)."""
        return Diagnostic(code=self.code, name=self.name, severity=severity or self.severity, tool=tool,
                          file=conv.file, pointer=pointer, message=message, instance_path=instance_path,
                          hint=hint, line=line if line is not None else conv.line)


def failing_calls(conv: Conversation, ctx: TrafficContext) -> Iterator[tuple[Call, Tool, list[Any]]]:
    """``(call, advertised tool, jsonschema errors)`` for every call of ``conv`` made against a known
    tool whose arguments fail its advertised schema (calls that cannot be judged are left out)."""
    for call in conv.calls():
        tool = ctx.advertised(conv, call.name)
        if tool is None:
            continue
        errors = ctx.errors(call, tool.advertised)
        if errors:
            yield call, tool, errors


def instance_pointer(path: Iterable[Any]) -> str:
    """An error's ``absolute_path`` as a JSON pointer into the arguments."""
    from schemalint.model import join_pointer

    return join_pointer("", *[str(p) for p in path])


def abstract_pointer(path: Iterable[Any]) -> str:
    """As :func:`instance_pointer` with array indexes written ``*`` (one pattern for every item)."""
    from schemalint.model import join_pointer

    return join_pointer("", *["*" if isinstance(p, int) else str(p) for p in path])


def mentions(text: str | None, word: str) -> str | None:
    """The sentence of ``text`` that names ``word`` as a word (backticked, quoted or bare), else ``None``."""
    if not text or not word:
        return None
    m = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
    if m is None:
        return None
    start = max(text.rfind(". ", 0, m.start()) + 2, 0) if text.rfind(". ", 0, m.start()) >= 0 else 0
    end = text.find(". ", m.end())
    sentence = text[start: end + 1 if end >= 0 else len(text)].strip()
    return sentence if len(sentence) <= 200 else sentence[:199] + "…"


VALIDATION_WORDS = re.compile(
    r"validat|required|missing|invalid (?:arg|param|input|type|value|request)|must (?:not )?(?:have|be|match|contain)"
    r"|additional propert|unexpected (?:keyword|argument|property|field|key)|not allowed|extra (?:field|input)s?"
    r"|unknown (?:argument|parameter|field|key)|schema|-32602|type error|expected (?:an? )?\w+",
    re.I)
"""Words of an error text that make it a refusal of the call's arguments, not a failure of the
tool's work (a file not found, a timeout)."""


def is_refusal_text(text: str | None) -> bool:
    """True when an error result's text reads as a refusal of the arguments (:data:`VALIDATION_WORDS`)."""
    return bool(text) and VALIDATION_WORDS.search(text or "") is not None


def short(value: Any, limit: int = 120) -> str:
    """Compact JSON of ``value`` cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _wants(schema: Any, kinds: tuple[str, ...]) -> bool:
    if not isinstance(schema, Mapping):
        return False
    t = schema.get("type")
    types = [t] if isinstance(t, str) else t if isinstance(t, list) else []
    return any(k in types for k in kinds) or (not types and ("properties" in schema or "items" in schema))


def json_string_value(error: Any, validator: Any) -> Any:
    """The decoded value when ``error`` (a ``jsonschema`` error) is a string holding JSON sent where
    the schema wants an object or array, and the decoded value satisfies that subschema; else
    :data:`NOT_JSON`. ``validator`` validates the subschema (the root validator's ``evolve``)."""
    instance = error.instance
    if error.validator != "type" or not isinstance(instance, str) or not _wants(error.schema, ("object", "array")):
        return NOT_JSON
    stripped = instance.strip()
    if not stripped.startswith(("{", "[")) or len(stripped) > 1_000_000:
        return NOT_JSON
    try:
        decoded = json.loads(stripped)
    except (ValueError, RecursionError):
        return NOT_JSON
    if not isinstance(decoded, (dict, list)):
        return NOT_JSON
    try:
        if not validator.evolve(schema=error.schema).is_valid(decoded):
            return NOT_JSON
    except Exception:
        return NOT_JSON
    return decoded


NOT_JSON = object()
"""What :func:`json_string_value` answers for an error that is not a JSON string."""


def extra_keys(error: Any) -> list[str]:
    """The keys an ``additionalProperties: false`` error refuses (those not in ``properties`` and
    matching no ``patternProperties``), else ``[]``."""
    if error.validator != "additionalProperties" or error.validator_value is not False:
        return []
    if not isinstance(error.instance, Mapping) or not isinstance(error.schema, Mapping):
        return []
    raw_props, raw_patterns = error.schema.get("properties"), error.schema.get("patternProperties")
    props: Mapping[str, Any] = raw_props if isinstance(raw_props, Mapping) else {}
    patterns: Mapping[str, Any] = raw_patterns if isinstance(raw_patterns, Mapping) else {}
    out = []
    for key in error.instance:
        if key in props:
            continue
        if any(_search(p, key) for p in patterns):
            continue
        out.append(key)
    return out


def _search(pattern: str, text: str) -> bool:
    try:
        from schemalint.schema.patterns import search

        return bool(search(pattern, text))
    except Exception:
        return False


def described(tool: Tool, error: Any, key: str) -> str | None:
    """The sentence of ``tool``'s description, or of the refusing object's own description, that
    asks for ``key`` (:func:`mentions`), else ``None``."""
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    for text in (schema.get("description") if isinstance(schema.get("description"), str) else None,
                 tool.description):
        found = mentions(text, key)
        if found:
            return found
    return None
