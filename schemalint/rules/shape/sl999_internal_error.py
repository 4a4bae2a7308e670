"""SL999 internal-error: schemalint itself failed while checking a tool (a bug to report).

Emitted by the rule runner (:func:`schemalint.engine.run_tool_rules` and
:func:`~schemalint.engine.run_loop.run_catalog_rule`) when a rule raises, never by a hook: an
exception inside the program is not a finding about the tool, so it is not reported under
the crashed rule's code. It is always reported: ``select``/``ignore``, per-file and per-tool
ignores and severity overrides do not apply to it (docs/shape-rules.md, "Internal errors").

Source: rules/SL999-internal-error.md, section "Source" (the one place it is written).
"""

from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import Rule


class InternalError(Rule):
    """A rule raised an exception on a tool or on the catalog; the message names the rule, the
    exception and the innermost traceback line, and asks for a bug report."""

    severity = Severity.ERROR
