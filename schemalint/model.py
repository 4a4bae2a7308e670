"""Core value types shared by loaders, rules, reporters and the diff engine.

Everything here is a plain frozen dataclass so that tools and diagnostics can be
hashed, compared and passed between processes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar


class Severity(str, enum.Enum):
    """Diagnostic severity, ordered ``info < warning < error``."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """0 for info, 1 for warning, 2 for error."""
        return _RANK[self]

    @classmethod
    def parse(cls, text: str) -> Severity:
        """Return the severity named ``text`` (case-insensitive); raise ``ValueError`` otherwise."""
        try:
            return cls(text.lower())
        except ValueError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


def fails_at(diagnostics: Iterable[Diagnostic], level: str) -> bool:
    """True when a diagnostic is at least as severe as ``level`` (``error``, ``warning``, ``info``;
    ``never``: never), the ``--fail-on`` of check, replay and probe. Raises ``ValueError`` for
    another level."""
    if level == "never":
        return False
    rank = Severity.parse(level).rank
    return any(d.severity.rank >= rank for d in diagnostics)


@dataclass(frozen=True)
class Origin:
    """Where a tool definition was found.

    ``file`` is the path as given on the command line (or ``module:attr`` for Python
    sources); ``pointer`` is the RFC 6901 JSON pointer of the tool object inside that
    document (``""`` for a whole-file tool); ``format`` names the source format
    (``openai-chat``, ``openai-responses``, ``anthropic``, ``gemini``, ``mcp``,
    ``manifest``, ``bfcl``, ``docker-arguments``, ``pydantic`` ...); ``line`` is the
    1-based line for JSONL documents (each line is its own JSON document), else ``None``;
    for a Python source, the line of the definition (class, ``def``) in ``path``.
    ``path``/``path_line``: for a Python source (``file`` is ``module:attr``), the file the
    definition is written in (relative to the working directory where it lies inside it) and
    the line of its ``class``/``def`` there; ``None`` for tool files (``file`` is the path) and
    where no file is known (a server over stdio). They are where a report points a reader,
    never part of what is snapshotted, compared or grouped (rules group by ``file``/``line``).
    ``listed_by``: for a tool listed from a TypeScript or JavaScript module's MCP server, the npm
    package whose ``tools/list`` wrote its JSON schemas (``@modelcontextprotocol/sdk``,
    ``@modelcontextprotocol/server``, ``fastmcp``), so that a rule can tell what the tool's author
    wrote from what the library adds (SL330); ``None`` elsewhere. Not compared either.
    """

    file: str
    pointer: str
    format: str
    line: int | None = None
    path: str | None = field(default=None, compare=False)
    path_line: int | None = field(default=None, compare=False)
    listed_by: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Contract:
    """What the tool accepts at run time.

    ``input``: JSON schema of the runtime validator in input (validation) mode, or
    ``None`` when unknown. ``output``: the same in output (serialization) mode.
    ``validate``: a callable taking the call's arguments (a dict) that raises any
    exception on refusal; ``None`` when the runtime is not callable (e.g. a manifest).
    ``refused_when_omitted``: instance paths (JSON pointers into the arguments) whose
    omission the runtime is known to refuse, e.g. from probes run by an exporter.
    """

    input: Any = None
    output: Any = None
    validate: Callable[[Any], Any] | None = field(default=None, compare=False, hash=False)
    refused_when_omitted: tuple[str, ...] = ()


FIELDS_AT: Mapping[str, str] = {"openai-chat": "/function"}
"""Where a tool's own fields (``name``, ``description``, the schema, ``strict``) live inside the
tool object, per :attr:`Origin.format`: a pointer relative to the tool object (OpenAI Chat
Completions wraps them in ``{"type": "function", "function": {...}}``). Formats not listed keep
them at the top (``""``). Read it through :attr:`Tool.fields_at`, :attr:`Tool.fields` and
:meth:`Tool.field_pointer`."""


@dataclass(frozen=True)
class Tool:
    """One tool definition as the model sees it, plus its runtime contract when known.

    ``advertised`` is the input schema exactly as shown to the model (key order kept);
    it may be any JSON value, because broken definitions are still loaded so that a
    rule can report them. ``schema_path`` is the JSON pointer of that schema relative
    to the tool object (``/parameters``, ``/function/parameters``, ``/inputSchema`` ...;
    ``None`` when the tool has no schema), so ``origin.pointer + schema_path`` locates
    the schema in the file.
    ``raw`` is the tool object itself (for rules that look at other fields, e.g.
    ``strict``, ``annotations``); ``output_schema`` is an advertised output schema
    (MCP ``outputSchema``) when present.
    ``schema_view`` says how ``advertised`` was read when it is not the file's bytes as they stand
    (:data:`SCHEMA_VIEWS`): ``None`` for a schema as written; otherwise the schema was decoded or
    translated, and a finding inside it is located at the deepest key that exists in the file
    (:func:`schemalint.engine.run_loop.relocate`).
    """

    name: str
    description: str | None
    advertised: Any
    origin: Origin
    schema_path: str | None = None
    runtime: Contract | None = None
    output_schema: Any = None
    raw: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)
    schema_view: str | None = None

    @property
    def schema_pointer(self) -> str:
        """JSON pointer of the advertised schema inside the source file."""
        return self.origin.pointer + (self.schema_path or "")

    def pointer_in_file(self, schema_pointer: str) -> str:
        """Translate a pointer relative to the advertised schema into a pointer into the file."""
        return self.schema_pointer + schema_pointer

    @property
    def docker_arguments(self) -> list[Any] | None:
        """The ``arguments`` list of a Docker MCP registry entry (format ``docker-arguments``:
        parameters listed as ``{name, type, desc, optional}`` objects, no schema); ``None`` for
        another format or an entry whose ``arguments`` is not a list. The one place that shape is
        read (its items may still be anything: test each for a mapping)."""
        if self.origin.format != "docker-arguments":
            return None
        args = (self.raw or {}).get("arguments")
        return args if isinstance(args, list) else None

    @property
    def fields_at(self) -> str:
        """Pointer, relative to the tool object, of the object holding the tool's fields
        (``"/function"`` for OpenAI Chat tools, else ``""``; :data:`FIELDS_AT`)."""
        return FIELDS_AT.get(self.origin.format, "")

    @property
    def fields(self) -> Mapping[str, Any]:
        """The object holding the tool's fields (``raw["function"]`` for OpenAI Chat tools, else
        ``raw``); ``raw`` itself when that object is missing or not a mapping, ``{}`` without raw."""
        raw = self.raw if isinstance(self.raw, Mapping) else {}
        at = self.fields_at
        if at:
            inner = raw.get(at[1:])
            if isinstance(inner, Mapping):
                return inner
        return raw

    def field_pointer(self, *tokens: str) -> str:
        """File pointer of a field of the tool, e.g. ``tool.field_pointer("name")``
        (``origin.pointer`` + :attr:`fields_at` + the escaped ``tokens``)."""
        return join_pointer(self.origin.pointer + self.fields_at, *tokens)

    @property
    def strict(self) -> bool:
        """True when the definition opts into provider strict mode (``"strict": true``)."""
        raw = self.raw or {}
        if raw.get("strict") is True:
            return True
        fn = raw.get("function")
        return isinstance(fn, Mapping) and fn.get("strict") is True


SCHEMA_VIEWS = {
    "json-string": "the schema is a JSON-encoded string (xAI gRPC `Function.parameters`), read as the "
                   "object it encodes",
    "snake-case": "Gemini Schema fields in the Python SDK's snake_case spelling (`any_of`, `min_items`), "
                  "read as their camelCase names",
    "agentschema": "an AgentSchema `parameters` block (`kind` per property, `required: true|false`), read "
                   "as the JSON Schema it stands for",
    "property-map": "a `parameters` map of argument records (`{name: {type, description}}`, API-Bank and "
                    "ToolAlpaca data), read as the object schema whose `properties` it is",
}
"""The values of :attr:`Tool.schema_view` and what each means (docs/shape-rules.md, "Schemas read
through a view")."""


PROBLEM_KINDS = {
    "definition": "the tool as written cannot be read (fix the definition)",
    "environment": "what runs the source lacks something (a package, a command, a setting, a version)",
    "unchecked": "a side of the tool could not be reached, so a contract check did not run for it",
}
"""The values of :attr:`Diagnostic.kind` of an ``SL000`` diagnostic (``kind`` in JSON, a
``kind`` property in SARIF)."""


@dataclass(frozen=True)
class Diagnostic:
    """One finding of one rule.

    ``pointer`` is an RFC 6901 pointer into the source *file* (not the schema);
    ``instance_path`` is a pointer into the call's arguments the finding concerns
    (``""`` for the whole call, ``None`` when it does not concern an instance).
    ``line``/``column`` are 1-based and filled in by the reporter pipeline.
    ``path``: the file a reader is pointed to when ``file`` is not one (a Python source's
    ``module:attr``: the module's file; a server over stdio: the configuration file that
    names it), set by :func:`schemalint.engine.sites.locate_sources`; ``None`` when ``file`` is the file.
    ``kind``: for an ``SL000``, what it is about (:data:`PROBLEM_KINDS`: ``"definition"``, the
    tool as written cannot be read; ``"environment"``, what runs it lacks something; ``"unchecked"``,
    a side of the tool could not be reached, so a check did not run); ``None`` for a rule's finding.
    """

    code: str
    name: str
    severity: Severity
    tool: str | None
    file: str
    pointer: str
    message: str
    instance_path: str | None = None
    hint: str | None = None
    line: int | None = None
    column: int | None = None
    path: str | None = None
    kind: str | None = field(default=None, compare=False)
    site: str | None = field(default=None, compare=False, repr=False)
    """The pointer of the tool object the finding is in (:attr:`Origin.pointer`), set by
    :meth:`schemalint.rules.base.Rule.diag`; ``None`` for a finding about no one tool. Reports use
    it to tell the copies of one finding in repeated copies of a tool
    (:func:`schemalint.report.copies.fold_copies`); never part of a report or a fingerprint."""
    copies: tuple[tuple[str, int | None, int | None], ...] = field(default=(), compare=False, repr=False)
    """``(pointer, line, column)`` of the same finding in the other copies of its tool in the same
    file, folded into this one by :func:`schemalint.report.copies.fold_copies` (JSON ``copies``)."""

    @property
    def location_file(self) -> str:
        """The file to point a reader to: :attr:`path` when set, else :attr:`file`."""
        return self.path or self.file

    def to_json(self) -> dict[str, Any]:
        """The diagnostic as a JSON-ready dict (the report shape of docs/ci.md, "Report formats"); ``path`` is
        present only when set (a Python source or a server without a file), ``kind`` and ``copies`` too."""
        out: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "tool": self.tool,
            "file": self.file,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "instance_path": self.instance_path,
            "message": self.message,
            "hint": self.hint,
        }
        if self.path is not None:
            out["path"] = self.path
        if self.kind is not None:
            out["kind"] = self.kind
        if self.copies:
            out["copies"] = [{"pointer": p, "line": line, "column": col} for p, line, col in self.copies]
        return out


@dataclass(frozen=True, order=True)
class Fingerprint:
    """The stable identity of a finding (see the module docstring)."""

    code: str
    file: str
    tool: str | None
    path: str
    instance_path: str | None

    def sort_key(self) -> tuple[str, str, str, str, str]:
        """Sorting key (``None`` sorts first)."""
        return (self.file, self.tool or "", self.code, self.path, self.instance_path or "")

    def digest(self) -> str:
        """A short hex digest of the fingerprint (used as SARIF ``partialFingerprints``)."""
        import hashlib
        import json

        text = json.dumps([self.code, self.file, self.tool, self.path, self.instance_path])
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def tool_pointer(d: Diagnostic, origins: Mapping[tuple[str, str], Collection[str]]) -> str:
    """``d.pointer`` relative to its tool object (the longest tool origin that prefixes it).

    ``origins`` maps ``(file, tool name)`` to the origin pointers of tools with that name
    in that file (pass sets: each lookup then costs the pointer's depth, not the number of
    tools sharing the name, so a file of 100,000 same-named tools stays linear). Returns
    ``d.pointer`` unchanged for file-level diagnostics.
    """
    if d.tool is None:
        return d.pointer
    known = origins.get((d.file, d.tool))
    if not known:
        return d.pointer
    pointer = d.pointer
    # The candidates, longest first: the pointer itself, then each prefix ending before a "/".
    end = len(pointer)
    while end > 0:
        if pointer[:end] in known:
            return pointer[end:]
        end = pointer.rfind("/", 0, end)
    return pointer  # no origin but "" (the whole document) prefixes it


def fingerprint(d: Diagnostic, relative_file: str, origins: Mapping[tuple[str, str], Collection[str]]) -> Fingerprint:
    """The fingerprint of ``d``; ``relative_file`` is its file relative to the configuration root."""
    return Fingerprint(d.code, relative_file, d.tool, tool_pointer(d, origins), d.instance_path)


@dataclass
class BaselineEntry:
    """One fingerprint with how many findings share it, plus name and message for readers."""

    fingerprint: Fingerprint
    count: int = 1
    name: str = ""
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """The entry as stored in the file."""
        fp = self.fingerprint
        out: dict[str, Any] = {"code": fp.code, "name": self.name, "file": fp.file, "tool": fp.tool,
                               "path": fp.path, "instance_path": fp.instance_path}
        if self.count != 1:
            out["count"] = self.count
        out["message"] = self.message
        return out


@dataclass
class CheckResult:
    """Outcome of :func:`schemalint.api.check`: diagnostics (located, sorted) plus counts for the summary."""

    diagnostics: list[Diagnostic]
    files: int
    tools: int
    elapsed: float
    tools_by_format: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    rules: Sequence[Any] = ()
    """The rules this check chose from (:class:`~schemalint.rules.base.Rule` instances; reporters
    describe them, e.g. SARIF ``driver.rules``)."""
    fingerprints: list[Fingerprint] = field(default_factory=list)
    """Baseline fingerprints aligned with :attr:`diagnostics` (empty when built by hand)."""
    suppressed: int = 0
    """Diagnostics hidden by per-file / per-tool ignores."""
    unused_suppressions: list[str] = field(default_factory=list)
    baseline_path: str | None = None
    """The baseline applied, if any; then :attr:`baselined` findings were hidden by it."""
    baselined: int = 0
    stale: list[BaselineEntry] = field(default_factory=list)
    """Baseline entries that matched no finding (fixed since the baseline was written)."""
    baseline_written: int | None = None
    """The number of entries recorded when the check wrote a baseline
    (:func:`schemalint.engine.request.check_request` with ``write_baseline``), else ``None``."""
    fails: bool | None = None
    """Whether the check fails (the command exits 1): a diagnostic at least as severe as the
    request's ``fail_on`` (:func:`schemalint.engine.request.check_request`; a check that writes a
    baseline never fails); ``None`` where nothing decided it (:func:`schemalint.engine.check`)."""
    catalog: Sequence[Tool] = field(default=(), repr=False, compare=False)
    """The tools that were checked, in load order."""

    def fingerprint_of(self, index: int) -> Fingerprint | None:
        """The fingerprint of ``diagnostics[index]``, or ``None`` when not computed."""
        return self.fingerprints[index] if index < len(self.fingerprints) else None

    def counts_by_code(self) -> dict[str, int]:
        """Number of diagnostics per rule code, sorted by code."""
        from collections import Counter

        return dict(sorted(Counter(d.code for d in self.diagnostics).items()))

TOOL = "tool"
"""Lifetime of a memo entry tied to the tools being checked (keyed by ``id(tool)``, or holding
tools): dropped with them when a route checks the catalog group by group (:meth:`RunContext.drop`)."""
FILE = "file"
"""Lifetime of a memo entry that gathers over one file's tools (a per-file summary): kept from one
batch of a file to the next, dropped when the file's last tools are checked."""
RUN = "run"
"""Lifetime of a memo entry that depends only on the run's options and on texts: kept for the run."""


class RunContext:
    """The state of one check run, in one place: created by the engine for each run
    (:func:`schemalint.engine.check`), referenced by the rules' context
    (:attr:`schemalint.rules.base.Context.run`) and dropped with it, so nothing computed for one
    run's objects survives into another (no cache keyed by ``id()`` outliving its objects).

    Memo entries declare their lifetime where they are made (:data:`TOOL`, :data:`FILE`,
    :data:`RUN`): ``memo`` holds the entries tied to the tools being checked (the default, read on
    hot paths), ``file_memo`` the per-file summaries, ``run_memo`` what lasts the run
    (:meth:`store`, :meth:`table`, :meth:`schemalint.rules.base.Context.memo`). A route that
    checks group by group calls :meth:`drop` after each group, and so never names an entry.
    Helpers reached without a context (the schema index, the contract sides) find the active run
    with :func:`current_run`.
    """

    __slots__ = ("file_memo", "last_targets", "memo", "run_memo")
    current: ClassVar[RunContext]
    """The run being checked (:func:`running`), else the idle run that serves calls outside one;
    read by the helpers on hot paths (a class attribute costs no call), :func:`current_run` elsewhere."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        self.file_memo: dict[Any, Any] = {}
        self.run_memo: dict[Any, Any] = {}
        self.last_targets: list[Any] = [None, frozenset()]
        """The last tool :meth:`~schemalint.rules.base.Context.targets_for` answered, and its answer."""

    def store(self, lifetime: str = TOOL) -> dict[Any, Any]:
        """The memo of entries of ``lifetime`` (:data:`TOOL`, :data:`FILE` or :data:`RUN`); raises
        ``ValueError`` for another value."""
        if lifetime == TOOL:
            return self.memo
        if lifetime == FILE:
            return self.file_memo
        if lifetime == RUN:
            return self.run_memo
        raise ValueError(f"no memo lifetime {lifetime!r} (tool, file or run)")

    def table(self, purpose: str, factory: Callable[[], Any], lifetime: str = TOOL) -> Any:
        """The run's table for ``purpose`` (a dict, an ``OrderedDict``, a slot list ...), made with
        ``factory()`` on first use and kept for ``lifetime`` (:meth:`store`)."""
        memo = self.memo if lifetime == TOOL else self.store(lifetime)  # the common case without a call
        try:
            return memo[purpose]
        except KeyError:
            value = memo[purpose] = factory()
            return value

    def drop(self, lifetime: str = TOOL) -> None:
        """Drop the entries tied to the tools just checked; with ``lifetime`` :data:`FILE` (the
        file's last tools were checked), also the per-file summaries; with :data:`RUN` (the run is
        over), every entry."""
        self.memo.clear()
        if lifetime in (FILE, RUN):
            self.file_memo.clear()
        if lifetime == RUN:
            self.run_memo.clear()
        self.last_targets[0] = None


_RUNS: list[RunContext] = [RunContext()]
"""The active run last; the first entry serves calls made outside any run (``schemalint show``, a
rule called directly)."""
RunContext.current = _RUNS[-1]


def current_run() -> RunContext:
    """The run being checked (:func:`running`), else the idle run that serves calls outside one."""
    return RunContext.current


@contextmanager
def running(run: RunContext) -> Iterator[RunContext]:
    """Make ``run`` the :func:`current_run` for the duration of the ``with`` block."""
    _RUNS.append(run)
    RunContext.current = run
    try:
        yield run
    finally:
        _RUNS.remove(run)
        RunContext.current = _RUNS[-1]


def escape_token(token: str | int) -> str:
    """Escape one reference token for a JSON pointer (RFC 6901 section 3)."""
    text = str(token)
    if "~" not in text and "/" not in text:
        return text
    return text.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    """Reverse :func:`escape_token` (RFC 6901 section 4)."""
    return token.replace("~1", "/").replace("~0", "~")


def join_pointer(base: str, *tokens: str | int) -> str:
    """Append escaped ``tokens`` to the JSON pointer ``base``."""
    return base + "".join("/" + escape_token(t) for t in tokens)


def split_pointer(pointer: str) -> list[str]:
    """Split an RFC 6901 pointer (``""`` or ``/a/b``; a leading ``#`` is accepted) into tokens.

    Raises ``ValueError`` for a non-empty pointer that does not start with ``/``.
    """
    if pointer.startswith("#"):
        pointer = pointer[1:]
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    if "~" not in pointer:  # nothing to unescape (the common case)
        return pointer[1:].split("/")
    return [unescape_token(t) for t in pointer[1:].split("/")]


MISSING: Any = type("Missing", (), {"__repr__": lambda self: "<missing>"})()
"""What :func:`resolve` returns for a pointer that names nothing."""


def resolve(document: Any, pointer: str) -> Any:
    """The value at the RFC 6901 ``pointer`` in ``document`` (parsed JSON: dicts, lists,
    scalars), or :data:`MISSING` when it names nothing (never raises; a malformed pointer
    without its leading ``/`` raises ``ValueError``, as :func:`split_pointer` does)."""
    node = document
    for token in split_pointer(pointer):
        if isinstance(node, dict):
            if token not in node:
                return MISSING
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                return MISSING
            node = node[int(token)]
        else:
            return MISSING
    return node
