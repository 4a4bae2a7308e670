"""The rule interface every rule module implements.

A rule is a class with catalog metadata and one of two hooks. Each fact is written once: ``code``,
``name`` and ``targets`` in its catalog row (:mod:`schemalint.rules.catalog`), ``summary`` and
``source`` in its page (``rules/<CODE>-<name>.md``), ``severity`` and ``options`` in the class.
The hooks:

- ``check_tool(tool, ctx)`` yields :class:`~schemalint.model.Diagnostic` for one tool;
- ``check_catalog(tools, ctx)`` yields diagnostics that need every tool at once
  (duplicate names, whole-request limits).

Rules build diagnostics with :meth:`Rule.diag`, giving a pointer *relative to the
advertised schema*; the file pointer, tool name and file are filled in for them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from schemalint.model import TOOL, Diagnostic, RunContext, Severity, Tool

if TYPE_CHECKING:
    from schemalint.rules.facts import CatalogFacts
    from schemalint.rules.fixes import Fix


@dataclass(frozen=True)
class FileScreen:
    """A cheap test of a source file's whole text, declared by a rule (:attr:`Rule.file_screen`):
    ``may_hold(text)`` is ``False`` only when no string parsed from ``text`` (JSON, YAML, JSON
    Lines; raw or escaped) can hold what the rule, or a costly part of it, looks for. The engine
    runs each screen the active rules declare once per file and records the files it cleared
    (:attr:`Context.cleared_files`); the rule asks :meth:`Context.cleared` for a tool's file.
    ``name``: the screen's key (one per screen, shared by the rules that declare it)."""

    name: str
    may_hold: Callable[[str], bool]


@dataclass
class Context:
    """What a rule may know besides the tool.

    ``targets``: provider profiles to check against (``openai-strict``, ``gemini`` ...);
    an empty set means "only target-independent rules". ``dialect``: ``--dialect``
    override or ``None`` (then each schema's ``$schema`` decides, draft-07 when absent).
    ``options``: per-rule options from configuration, keyed by rule code.
    ``catalog``: every tool loaded in this run (for cross-tool rules).
    ``previous``: tools of an earlier revision by name (``--base``/snapshots), if known.
    ``probe``: whether rules may call runtime validators (omission probes).
    ``replace_targets``: when true, ``targets`` replaces the targets inferred from each
    tool's format (``--target =openai``); otherwise it adds to them.
    ``cleared_files``: per file screen (:class:`FileScreen`, by name) the source files whose text
    the screen cleared, so that a rule skips what it declared the screen for without a walk
    (:meth:`cleared`); filled by the engine for the screens the active rules declare
    (:attr:`Rule.file_screen`), empty when unknown.
    ``run``: the state of this check run (:class:`~schemalint.model.RunContext`): :meth:`memo`,
    the caches of the rules' helpers; a fresh one by default.
    ``facts``: in a streaming check (:mod:`schemalint.engine.stream`), what the catalog-wide parts
    of the rules need to know about the whole run (:class:`~schemalint.rules.facts.CatalogFacts`),
    while ``catalog`` holds only the file (or batch of JSON Lines) being checked; ``None`` when
    ``catalog`` is the whole run.
    """

    targets: frozenset[str] = frozenset()
    dialect: str | None = None
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    catalog: Sequence[Tool] = ()
    previous: Mapping[str, Tool] = field(default_factory=dict)
    probe: bool = True
    replace_targets: bool = False
    cleared_files: Mapping[str, frozenset[str]] = field(default_factory=dict)
    run: RunContext = field(default_factory=RunContext, repr=False, compare=False)
    facts: CatalogFacts | None = field(default=None, repr=False, compare=False)

    def option(self, code: str, key: str, default: Any) -> Any:
        """The configured option ``key`` of rule ``code``, else ``default``."""
        return self.options.get(code, {}).get(key, default)

    def cleared(self, screen: FileScreen, file: str) -> bool:
        """Whether ``screen`` cleared the text of ``file``: no string parsed from it holds what the
        screen looks for (``False`` when unknown)."""
        return file in self.cleared_files.get(screen.name, ())

    def memo(self, key: Any, compute: Callable[[], Any], lifetime: str = TOOL) -> Any:
        """Per-run cache: the value stored under ``key``, computing it once with ``compute()``.

        Rules use it to share per-tool work (e.g. one schema walk) across rules; key by
        ``(purpose, id(tool))``. ``lifetime`` says how long the entry may be kept
        (:data:`schemalint.model.TOOL`: while the tools it was computed from are checked;
        ``FILE``: until the file's last tools are checked; ``RUN``: for the run, for an entry that
        depends only on the options and on texts), so that a route checking group by group keeps
        the right entries without naming them (:meth:`schemalint.model.RunContext.drop`).
        """
        memo = self.run.store(lifetime)
        try:
            return memo[key]
        except KeyError:
            value = memo[key] = compute()
            return value

    def targets_for(self, tool: Tool) -> frozenset[str]:
        """Provider profiles ``tool`` is checked against: those inferred from its format
        (:func:`schemalint.targets.infer_targets`) plus :attr:`targets`, or only
        :attr:`targets` when :attr:`replace_targets` is set. A Gemini declaration that uses
        ``parametersJsonSchema`` (format ``gemini-json``) is checked as ``gemini-json`` when
        ``gemini`` is asked for: that is the surface it is sent on."""
        if self.replace_targets:
            targets = self.targets
            if "gemini" in targets and tool.origin.format == "gemini-json":
                return (targets - {"gemini"}) | {"gemini-json"}
            return targets
        last = self.run.last_targets
        if last[0] is tool:
            return last[1]
        inferred = _infer_targets(tool)
        memo = self.run.run_memo
        found = memo.get(("targets-union", inferred))
        if found is None:
            found = inferred | self.targets
            if "gemini-json" in inferred:
                # `--target gemini` on a declaration that uses parametersJsonSchema checks the surface
                # the declaration uses, not the `parameters` subset it does not send
                found = found - {"gemini"}
            memo[("targets-union", inferred)] = found
        last[0], last[1] = tool, found
        return found


def _infer_targets(tool: Tool) -> frozenset[str]:
    """:func:`schemalint.targets.infer_targets`, imported on first use (an import statement inside
    :meth:`Context.targets_for` cost a module lookup per tool)."""
    global _infer_targets
    from schemalint.targets import infer_targets

    _infer_targets = infer_targets
    return infer_targets(tool)


class _FromPage:
    """A class attribute read from the rule's page (:func:`schemalint.rule_docs.page_field`)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def __get__(self, obj: object, cls: type) -> str:
        from schemalint.rule_docs import page_field

        return page_field(cls, self.key)


class Rule:
    """Base class of every rule. Subclasses set the class attributes and one hook.

    ``targets``: profiles this rule belongs to; empty means it always runs. A rule
    with targets runs per tool, for the profiles :meth:`Context.targets_for` gives that
    tool (inferred from its format plus ``--target``): its hooks must filter by them.
    ``source``: where the rule's fact comes from (spec section or provider doc, with date).
    ``options``: configurable settings with defaults; read them with :meth:`option`.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    """``code``, ``name`` and ``targets`` of a rule listed in the catalog are its catalog row's
    (:data:`schemalint.rules.catalog.CATALOG`, the one place they are written), set when the
    class is defined (:meth:`__init_subclass__`); a rule outside the catalog sets its own."""
    severity: ClassVar[Severity]
    targets: ClassVar[tuple[str, ...]] = ()
    catalog_entry: ClassVar[Any] = None
    """The :class:`~schemalint.rules.catalog.RuleEntry` the class was defined from (``None``: not
    listed); :mod:`schemalint.rule_docs` reads a plugin's ``help_base`` from it."""
    if TYPE_CHECKING:
        summary: ClassVar[str]
        source: ClassVar[str]
    else:
        summary = _FromPage("summary")
        source = _FromPage("source")
    """``summary`` (one line) and ``source`` of a rule with a page are written in the page's
    catalog block (:func:`schemalint.rule_docs.split_page`), the one place of a rule's prose; a
    rule without a page (one defined in a test) sets them as class attributes."""
    options: ClassVar[Mapping[str, Any]] = {}
    """Configurable options and their defaults, e.g. ``{"max_tools": 128}``; users set them in
    ``[tool.schemalint.options.<CODE>]`` (validated against these keys and value types)."""
    keywords: ClassVar[frozenset[str] | None] = None
    """An exact precondition of :meth:`check_tool`, or ``None`` (always called): the rule finds
    nothing in a tool none of whose walked subschemas (:func:`schemalint.schema.index.index_schema`
    of the advertised schema and of an MCP ``outputSchema``; :func:`schemalint.engine.run_loop.tool_keywords`)
    has one of these keys, so the run loop does not call it for such a tool. Declare it only when
    every finding of the rule starts at a subschema holding one of them (``{"$ref"}`` for a rule
    that looks only at references); tests/test_rule_preconditions.py checks each declaration on
    generated schemas and on the shared corpus."""
    file_screen: ClassVar[FileScreen | None] = None
    """A test of a source file's text that proves part of the rule's work useless for every tool of
    that file (:class:`FileScreen`), or ``None``. The engine runs it once per file on every route
    when the rule is active; the rule asks :meth:`Context.cleared`. Like :attr:`keywords`, a
    declaration must be exact: its test checks the screen against what the rule finds."""
    fix: ClassVar[Fix | None] = None
    """How a finding of the rule is fixed (:class:`schemalint.rules.fixes.Fix`: safety, reason, the
    plan that turns a diagnostic into JSON Patch operations on its document), or ``None`` when the
    rule has no mechanical answer; ``schemalint check --fix`` (:mod:`schemalint.fix`) applies it,
    and the rule's page says which, and why, in its ``## Fix`` section."""
    per_definition: ClassVar[bool] = False
    """True when :meth:`check_tool`'s findings depend only on the tool's definition (its parsed
    object, name, description, format, schema path and view, advertised and output schemas, its
    profiles) and the run's settings (targets, dialect, options): never on other tools, the file
    or the document around the tool, nor on state kept for :meth:`check_catalog`; and its findings
    are built with :meth:`diag` (at the tool's file, under its pointer, on its line). The run loop then
    checks one of the byte-identical definitions a catalog repeats and gives each other copy the same
    findings at its own place (:func:`schemalint.engine.run_loop.definition_key`); the goldens of the
    corpus, whose tools repeat across files, check that nothing changes."""
    catalog_from_tools: ClassVar[bool] = False
    """True when :meth:`check_catalog` only reports what :meth:`check_tool` gathered per file
    (so with ``--jobs`` it runs in the worker that checked those files, not in the parent); such a
    rule names the files whose tools one worker must check together (:meth:`whole_files`)."""

    def shares_definition(self, tool: Tool, ctx: Context) -> bool:
        """For a rule with :attr:`per_definition`: whether ``tool``'s findings may be shared with the other
        copies of its definition (default: always); a rule that treats some files apart (SL001's files
        written in a type dialect, summarised per file) says no for their tools."""
        return True

    def whole_files(self, tools: Sequence[Tool], facts: CatalogFacts | None) -> Collection[str] | None:
        """For a rule with :attr:`catalog_from_tools`: the files of ``tools`` (or, in a check that
        gathered them, of ``facts``) whose per-file summary needs every tool of the file checked in
        one process; ``None`` (the default): every file."""
        return None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        from schemalint.rules.catalog import entry_for

        entry = entry_for(cls)
        if entry is not None:
            cls.code, cls.name, cls.targets = entry.code, entry.name, entry.targets
            cls.catalog_entry = entry

    def option(self, ctx: Context, key: str) -> Any:
        """The configured value of this rule's option ``key``, else its declared default.

        Raises ``KeyError`` when the rule does not declare ``key`` in :attr:`options`.
        """
        if key not in self.options:
            raise KeyError(f"{self.code} declares no option {key!r}")
        return ctx.option(self.code, key, self.options[key])

    def applies(self, ctx: Context) -> bool:
        """True when this rule may run in ``ctx``. Rules with targets run unless the targets
        were replaced (``--target =...``) by a set that shares none of theirs (``gemini`` also
        stands for ``gemini-json``, see :meth:`Context.targets_for`), because
        targets inferred per tool may select them; their hooks filter per tool."""
        if not self.targets or not ctx.replace_targets:
            return True
        wanted = ctx.targets | {"gemini-json"} if "gemini" in ctx.targets else ctx.targets
        return bool(wanted.intersection(self.targets))

    def check_tool(self, tool: Tool, ctx: Context) -> Iterable[Diagnostic]:
        """Diagnostics for one tool; default: none."""
        return ()

    def checks_tools(self) -> bool:
        """False when :meth:`check_tool` is the default that finds nothing (a rule with only a catalog
        check): the run loop (:func:`schemalint.engine.run_loop.run_tool_rules`) does not call it per tool."""
        return type(self).check_tool is not Rule.check_tool

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        """Diagnostics that need the whole catalog; default: none."""
        return ()

    def diag(
        self,
        tool: Tool,
        schema_pointer: str | None,
        message: str,
        *,
        instance_path: str | None = None,
        hint: str | None = None,
        severity: Severity | None = None,
        file_pointer: str | None = None,
    ) -> Diagnostic:
        """Build a diagnostic of this rule for ``tool``.

        ``schema_pointer`` is relative to the advertised schema (``""`` for its root);
        pass ``file_pointer`` instead to point elsewhere in the file (e.g. the tool's
        ``description``), or neither for the tool object itself.
        """
        if file_pointer is None:
            file_pointer = tool.origin.pointer if schema_pointer is None else tool.pointer_in_file(schema_pointer)
        return Diagnostic(
            code=self.code,
            name=self.name,
            severity=severity or self.severity,
            tool=tool.name or None,
            file=tool.origin.file,
            pointer=file_pointer,
            message=message,
            instance_path=instance_path,
            hint=hint,
            line=tool.origin.line,
            site=tool.origin.pointer,
        )


INTERNAL_ERROR = "SL999"
"""The code of an exception inside a rule (:mod:`schemalint.rules.shape.sl999_internal_error`);
the engine's run loop (:func:`schemalint.engine.run_rules`) reports it."""

FAIL_RULE_ENV = "SCHEMALINT_FAIL_RULE"
"""Fault injection for testing the crash path: a rule code here (``SL007``) makes that rule raise
on every tool (``schemalint check --fail-rule SL007``); see rules/SL999-internal-error.md."""
