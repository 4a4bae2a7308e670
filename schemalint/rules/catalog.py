"""The static rule catalog: every rule's code, name, targets and class, without importing it.

``schemalint check`` selects rules by code and name and validates configuration selectors
from this table, then imports only the rule modules that can report something in the run
(:func:`schemalint.rules.registry.rules_for_run`): importing all the rule modules and their
helpers was a third of the start-up time of a check on one small file (issue 9).

:data:`CATALOG` is the one list of rules: each family's ``RULES``
(``schemalint/rules/<family>/__init__.py``) is read from it (:func:`family_getattr`), and
``tests/test_rules_lazy.py`` asserts that every rule module is listed. A rule's code, name and
targets are written only here: :meth:`schemalint.rules.base.Rule.__init_subclass__` sets them on
the class from its row (:func:`entry_for`), so a new rule is added here once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from schemalint.rules.base import Rule

NAME_AND_ROOT_PROFILES: tuple[str, ...] = (
    "openai", "openai-strict", "anthropic", "anthropic-strict", "gemini", "gemini-json", "mcp", "bedrock",
)
"""Every profile with a tool-name and schema-root rule of its own (Ollama has neither)."""
_NAME_AND_ROOT = NAME_AND_ROOT_PROFILES


class RuleEntry:
    """One rule of the catalog.

    ``code``/``name``/``targets``: the rule's code, name and targets (``targets`` empty: the rule
    runs for every tool), the one place they are written; the rule class gets them from here.
    ``path``: ``"package.module:ClassName"``. ``runtime``: True when
    the rule's hooks report nothing for a tool whose :attr:`~schemalint.model.Tool.runtime` is
    ``None`` (the contract rules), so a run without runtime contracts need not import it.
    ``traffic``: True for a rule of recorded traffic (SL4xx), which only ``schemalint replay`` runs
    (:mod:`schemalint.commands.replay`); a check never imports it.
    ``help_base``: for a plugin's rule (:mod:`schemalint.rules.plugins`), the URL its pages are
    published under (SARIF ``helpUri`` is ``help_base + "<CODE>-<name>.md"``); ``None``: schemalint's
    own pages online for a built-in rule, the installed page's ``file:`` URI for a plugin's.
    """

    __slots__ = ("code", "help_base", "name", "path", "runtime", "targets", "traffic")

    def __init__(self, code: str, name: str, targets: tuple[str, ...], path: str, runtime: bool = False,
                 traffic: bool = False, help_base: str | None = None) -> None:
        self.code = code
        self.name = name
        self.targets = targets
        self.path = path
        self.runtime = runtime
        self.traffic = traffic
        self.help_base = help_base

    def __repr__(self) -> str:
        return (f"RuleEntry({self.code!r}, {self.name!r}, {self.targets!r}, {self.path!r}, runtime={self.runtime}"
                + (", traffic=True)" if self.traffic else ")"))

    def load(self) -> type[Rule]:
        """Import the rule's module and return its class (raises ``ImportError``/``AttributeError``
        only when the catalog is wrong, which the catalog test rules out)."""
        from importlib import import_module

        module, _, attr = self.path.partition(":")
        cls: type[Rule] = getattr(import_module(module), attr)
        return cls

    @property
    def options(self) -> Mapping[str, Any]:
        """The rule class's declared options (imports the rule's module)."""
        return self.load().options

    def can_report(self, profiles: frozenset[str] | set[str], runtime: bool) -> bool:
        """Whether the rule may report anything in a run whose tools are checked against ``profiles``
        (the union of every tool's profiles) and where ``runtime`` says some tool has a runtime
        contract. Rules with targets report only for tools checked against one of them
        (:func:`schemalint.engine.run_tool_rules`, ``catalog_members``)."""
        if self.traffic or (self.runtime and not runtime):
            return False
        return not self.targets or not profiles.isdisjoint(self.targets)


_SHAPE = "schemalint.rules.shape."
_CONTRACT = "schemalint.rules.contract."
_DESCRIPTION = "schemalint.rules.description."
_PROVIDER = "schemalint.rules.provider."
_POISONING = "schemalint.rules.poisoning."
_TRAFFIC = "schemalint.rules.traffic."

BUILTIN: tuple[RuleEntry, ...] = (
    RuleEntry("SL000", "unreadable-source", (), _SHAPE + "sl000_unreadable_source:UnreadableSource"),
    RuleEntry("SL001", "invalid-schema", (), _SHAPE + "sl001_invalid_schema:InvalidSchema"),
    RuleEntry("SL002", "root-not-object", (), _SHAPE + "sl002_root_not_object:RootNotObject"),
    RuleEntry("SL003", "required-not-in-properties", (),
              _SHAPE + "sl003_required_not_in_properties:RequiredNotInProperties"),
    RuleEntry("SL004", "unresolvable-ref", (), _SHAPE + "sl004_unresolvable_ref:UnresolvableRef"),
    RuleEntry("SL005", "duplicate-tool-name", (), _SHAPE + "sl005_duplicate_tool_name:DuplicateToolName"),
    RuleEntry("SL006", "invalid-tool-name", (), _SHAPE + "sl006_invalid_tool_name:InvalidToolName"),
    RuleEntry("SL007", "missing-description", (), _SHAPE + "sl007_missing_description:MissingDescription"),
    RuleEntry("SL008", "unsatisfiable-schema", (), _SHAPE + "sl008_unsatisfiable_schema:UnsatisfiableSchema"),
    RuleEntry("SL009", "foreign-schema-key", (), _SHAPE + "sl009_foreign_schema_key:ForeignSchemaKey"),
    RuleEntry("SL101", "required-drift", (), _CONTRACT + "sl101_required_drift:RequiredDrift", runtime=True),
    RuleEntry("SL102", "hidden-parameter", (), _CONTRACT + "sl102_hidden_parameter:HiddenParameter", runtime=True),
    RuleEntry("SL103", "phantom-parameter", (), _CONTRACT + "sl103_phantom_parameter:PhantomParameter",
              runtime=True),
    RuleEntry("SL104", "type-drift", (), _CONTRACT + "sl104_type_drift:TypeDrift", runtime=True),
    RuleEntry("SL105", "mode-drift", (), _CONTRACT + "sl105_mode_drift:ModeDrift", runtime=True),
    RuleEntry("SL106", "additional-properties-drift", (),
              _CONTRACT + "sl106_additional_properties_drift:AdditionalPropertiesDrift", runtime=True),
    RuleEntry("SL107", "probe-refusal", (), _CONTRACT + "sl107_probe_refusal:ProbeRefusal", runtime=True),
    RuleEntry("SL108", "constraint-drift", (), _CONTRACT + "sl108_constraint_drift:ConstraintDrift", runtime=True),
    RuleEntry("SL109", "advertised-output-mode", (),
              _CONTRACT + "sl109_advertised_output_mode:AdvertisedOutputMode", runtime=True),
    RuleEntry("SL110", "output-schema-drift", (), _CONTRACT + "sl110_output_schema_drift:OutputSchemaDrift",
              runtime=True),
    RuleEntry("SL201", "description-mentions-unknown-parameter", (),
              _DESCRIPTION + "sl201_description_mentions_unknown_parameter:DescriptionMentionsUnknownParameter"),
    RuleEntry("SL202", "description-mentions-removed-parameter", (),
              _DESCRIPTION + "sl202_description_mentions_removed_parameter:DescriptionMentionsRemovedParameter"),
    RuleEntry("SL203", "description-range-mismatch", (),
              _DESCRIPTION + "sl203_description_range_mismatch:DescriptionRangeMismatch"),
    RuleEntry("SL204", "description-type-mismatch", (),
              _DESCRIPTION + "sl204_description_type_mismatch:DescriptionTypeMismatch"),
    RuleEntry("SL205", "description-enum-mismatch", (),
              _DESCRIPTION + "sl205_description_enum_mismatch:DescriptionEnumMismatch"),
    RuleEntry("SL206", "description-required-mismatch", (),
              _DESCRIPTION + "sl206_description_required_mismatch:DescriptionRequiredMismatch"),
    RuleEntry("SL301", "tool-name-pattern", _NAME_AND_ROOT, _PROVIDER + "sl301_tool_name_pattern:ToolNamePattern"),
    RuleEntry("SL302", "description-too-long", ("openai", "openai-strict"),
              _PROVIDER + "sl302_description_too_long:DescriptionTooLong"),
    RuleEntry("SL303", "empty-description", ("bedrock",), _PROVIDER + "sl303_empty_description:EmptyDescription"),
    RuleEntry("SL304", "provider-root-not-object", _NAME_AND_ROOT,
              _PROVIDER + "sl304_provider_root_not_object:ProviderRootNotObject"),
    RuleEntry("SL305", "root-composition",
              ("openai", "openai-strict", "anthropic", "anthropic-strict", "bedrock", "gemini-json", "mcp"),
              _PROVIDER + "sl305_root_composition:RootComposition"),
    RuleEntry("SL306", "object-without-properties", ("openai", "openai-strict", "gemini"),
              _PROVIDER + "sl306_object_without_properties:ObjectWithoutProperties"),
    RuleEntry("SL307", "strict-additional-properties", ("openai-strict", "anthropic-strict", "bedrock"),
              _PROVIDER + "sl307_strict_additional_properties:StrictAdditionalProperties"),
    RuleEntry("SL308", "strict-required-all-properties", ("openai-strict",),
              _PROVIDER + "sl308_strict_required_all_properties:StrictRequiredAllProperties"),
    RuleEntry("SL309", "array-without-items", ("openai", "openai-strict", "gemini", "mcp"),
              _PROVIDER + "sl309_array_without_items:ArrayWithoutItems"),
    RuleEntry("SL310", "untyped-parameter", ("anthropic", "anthropic-strict", "gemini", "mcp", "ollama"),
              _PROVIDER + "sl310_untyped_parameter:UntypedParameter"),
    RuleEntry("SL311", "openai-strict-unsupported-keyword", ("openai-strict",),
              _PROVIDER + "sl311_openai_strict_unsupported_keyword:OpenAIStrictUnsupportedKeyword"),
    RuleEntry("SL312", "anthropic-strict-unsupported-keyword", ("anthropic-strict",),
              _PROVIDER + "sl312_anthropic_strict_unsupported_keyword:AnthropicStrictUnsupportedKeyword"),
    RuleEntry("SL313", "gemini-unsupported-keyword", ("gemini",),
              _PROVIDER + "sl313_gemini_unsupported_keyword:GeminiUnsupportedKeyword"),
    RuleEntry("SL314", "gemini-invalid-type", ("gemini",), _PROVIDER + "sl314_gemini_invalid_type:GeminiInvalidType"),
    RuleEntry("SL315", "gemini-json-unsupported-keyword", ("gemini-json",),
              _PROVIDER + "sl315_gemini_json_unsupported_keyword:GeminiJsonUnsupportedKeyword"),
    RuleEntry("SL316", "ref-with-siblings", ("openai-strict", "anthropic-strict", "mcp"),
              _PROVIDER + "sl316_ref_with_siblings:RefWithSiblings"),
    RuleEntry("SL317", "recursive-schema", ("anthropic-strict", "bedrock"),
              _PROVIDER + "sl317_recursive_schema:RecursiveSchema"),
    RuleEntry("SL318", "nesting-depth", ("openai-strict", "gemini", "gemini-json"),
              _PROVIDER + "sl318_nesting_depth:NestingDepth"),
    RuleEntry("SL319", "strict-schema-size", ("openai-strict",),
              _PROVIDER + "sl319_strict_schema_size:StrictSchemaSize"),
    RuleEntry("SL320", "strict-budget", ("anthropic-strict", "bedrock"),
              _PROVIDER + "sl320_strict_budget:StrictBudget"),
    RuleEntry("SL321", "too-many-tools", ("openai", "openai-strict", "gemini", "gemini-json"),
              _PROVIDER + "sl321_too_many_tools:TooManyTools"),
    RuleEntry("SL322", "name-collision", _NAME_AND_ROOT, _PROVIDER + "sl322_name_collision:NameCollision"),
    RuleEntry("SL323", "bedrock-strict-unsupported-keyword", ("bedrock",),
              _PROVIDER + "sl323_bedrock_strict_unsupported_keyword:BedrockStrictUnsupportedKeyword"),
    RuleEntry("SL324", "ollama-dropped-keyword", ("ollama",),
              _PROVIDER + "sl324_ollama_dropped_keyword:OllamaDroppedKeyword"),
    RuleEntry("SL325", "property-key-pattern", ("anthropic", "anthropic-strict", "bedrock", "mcp"),
              _PROVIDER + "sl325_property_key_pattern:PropertyKeyPattern"),
    RuleEntry("SL330", "mcp-schema-dialect", ("mcp",), _PROVIDER + "sl330_mcp_schema_dialect:McpSchemaDialect"),
    RuleEntry("SL331", "mcp-output-schema-root", ("mcp",),
              _PROVIDER + "sl331_mcp_output_schema_root:McpOutputSchemaRoot"),
    RuleEntry("SL332", "mcp-header", ("mcp",), _PROVIDER + "sl332_mcp_header:McpHeader"),
    RuleEntry("SL333", "mcp-annotations", ("mcp",), _PROVIDER + "sl333_mcp_annotations:McpAnnotations"),
    RuleEntry("SL334", "ollama-refused-shape", ("ollama",),
              _PROVIDER + "sl334_ollama_refused_shape:OllamaRefusedShape"),
    RuleEntry("SL335", "anthropic-strict-grammar-size", ("anthropic-strict",),
              _PROVIDER + "sl335_anthropic_strict_grammar_size:AnthropicStrictGrammarSize"),
    RuleEntry("SL336", "pattern-not-provider-regex", ("openai", "openai-strict"),
              _PROVIDER + "sl336_pattern_not_provider_regex:PatternNotProviderRegex"),
    RuleEntry("SL401", "undeclared-tool-call", (), _TRAFFIC + "sl401_undeclared_tool_call:UndeclaredToolCall",
              traffic=True),
    RuleEntry("SL402", "orphan-tool-result", (), _TRAFFIC + "sl402_orphan_tool_result:OrphanToolResult", traffic=True),
    RuleEntry("SL403", "unanswered-tool-call", (), _TRAFFIC + "sl403_unanswered_tool_call:UnansweredToolCall",
              traffic=True),
    RuleEntry("SL404", "duplicate-call-id", (), _TRAFFIC + "sl404_duplicate_call_id:DuplicateCallId", traffic=True),
    RuleEntry("SL405", "traffic-contract-mismatch", (),
              _TRAFFIC + "sl405_traffic_contract_mismatch:TrafficContractMismatch", traffic=True),
    RuleEntry("SL406", "runtime-refused-valid-call", (),
              _TRAFFIC + "sl406_runtime_refused_valid_call:RuntimeRefusedValidCall", traffic=True),
    RuleEntry("SL407", "json-string-argument", (), _TRAFFIC + "sl407_json_string_argument:JsonStringArgument",
              traffic=True),
    RuleEntry("SL408", "described-key-refused", (), _TRAFFIC + "sl408_described_key_refused:DescribedKeyRefused",
              traffic=True),
    RuleEntry("SL409", "repeated-invalid-call", (), _TRAFFIC + "sl409_repeated_invalid_call:RepeatedInvalidCall",
              traffic=True),
    RuleEntry("SL410", "result-breaks-output-schema", (),
              _TRAFFIC + "sl410_result_breaks_output_schema:ResultBreaksOutputSchema", traffic=True),
    RuleEntry("SL501", "invisible-character", (), _POISONING + "sl501_invisible_character:InvisibleCharacter"),
    RuleEntry("SL502", "homoglyph-tool-name", (), _POISONING + "sl502_homoglyph_tool_name:HomoglyphToolName"),
    RuleEntry("SL503", "hidden-instruction", (), _POISONING + "sl503_hidden_instruction:HiddenInstruction"),
    RuleEntry("SL504", "secret-request", (), _POISONING + "sl504_secret_request:SecretRequest"),
    RuleEntry("SL505", "unrelated-data-request", (),
              _POISONING + "sl505_unrelated_data_request:UnrelatedDataRequest"),
    RuleEntry("SL506", "tool-shadowing", (), _POISONING + "sl506_tool_shadowing:ToolShadowing"),
    RuleEntry("SL999", "internal-error", (), _SHAPE + "sl999_internal_error:InternalError"),
)
"""schemalint's own rules, ordered by code."""


def _with_plugins(builtin: tuple[RuleEntry, ...]) -> tuple[RuleEntry, ...]:
    from schemalint.rules.plugins import plugin_entries

    return builtin + plugin_entries([k for e in builtin for k in (e.code, e.name)], RuleEntry)


CATALOG: tuple[RuleEntry, ...] = _with_plugins(BUILTIN)
"""Every rule: schemalint's own (:data:`BUILTIN`, ordered by code), then the installed plugins' rows
(the ``schemalint.rules`` entry point group, :mod:`schemalint.rules.plugins`; docs/plugins.md), in
the order of :func:`schemalint.rules.registry.all_rules`. Raises
:class:`~schemalint.rules.plugins.PluginError` on import when a plugin's rows cannot be used."""


_BY_PATH: dict[str, RuleEntry] = {entry.path: entry for entry in CATALOG}


def entry_for(cls: type) -> RuleEntry | None:
    """The catalog row of the rule class ``cls`` (by ``module:QualName``), or ``None`` for a class
    the catalog does not list (a base class such as ``ProviderRule``, a rule defined in a test)."""
    return _BY_PATH.get(f"{cls.__module__}:{cls.__qualname__}")


def family_rules(package: str) -> tuple[type[Rule], ...]:
    """The rule classes of the family ``package`` (e.g. ``"schemalint.rules.shape"``) in catalog
    order; imports their modules."""
    prefix = package + "."
    return tuple(entry.load() for entry in CATALOG if entry.path.startswith(prefix))


def family_getattr(package: str) -> Callable[[str], object]:
    """A module ``__getattr__`` (PEP 562) for a family package that builds its ``RULES`` on first
    access, so that importing one rule module does not import the whole family."""
    import sys

    def __getattr__(name: str) -> object:
        if name == "RULES":
            rules = family_rules(package)
            sys.modules[package].__dict__["RULES"] = rules
            return rules
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
