"""The plugin's catalog: one :class:`~schemalint.rules.catalog.RuleEntry` row per rule, as in
schemalint's own ``schemalint/rules/catalog.py``. The entry point ``schemalint.rules`` names
:data:`CATALOG`; schemalint imports a rule's module only when a run can use the rule."""

from schemalint.rules.catalog import RuleEntry

CATALOG = (
    RuleEntry("ACME101", "parameter-snake-case", (), "acme_schemalint.acme101_parameter_snake_case:ParameterSnakeCase"),
)
