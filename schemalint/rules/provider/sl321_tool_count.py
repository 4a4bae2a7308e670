"""SL321 too-many-tools: more tools in one request than the provider accepts.

Source: reference/provider-constraints.md §1.1 and §3.1 (read 2026-08). OpenAI Chat
Completions: "A max of 128 functions are supported" (openai-python
``evals/create_eval_completions_run_data_source_param.py`` @ e43b422; openai-openapi PR #76).
Gemini: "At most 512 function declarations can be specified" (google-gemini/gemini-cli#19083,
2026; current Vertex value UNCONFIRMED). A request is taken to be the tools of one file (one
JSON Lines line). Options ``openai_max_tools``, ``gemini_max_tools``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from schemalint.model import Diagnostic, Tool
from schemalint.rules.base import Context
from schemalint.rules.provider._common import E, Finding, ProviderRule, catalog_members


class TooManyTools(ProviderRule):
    """One request (file) declares more tools than the target accepts."""

    severity = E

    options: ClassVar[Mapping[str, Any]] = {
        "openai_max_tools": 128,
        "gemini_max_tools": 512,
    }

    def check_catalog(self, tools: Sequence[Tool], ctx: Context) -> Iterable[Diagnostic]:
        limits = {
            "openai": int(self.option(ctx, "openai_max_tools")),
            "gemini": int(self.option(ctx, "gemini_max_tools")),
        }
        members = catalog_members(self, tools, ctx)
        for fam, limit in limits.items():
            groups: dict[tuple[str, int | None], list[tuple[Tool, tuple[str, ...]]]] = {}
            for tool, active in members:
                fam_targets = tuple(t for t in active if t.startswith(fam))
                if fam_targets:
                    groups.setdefault((tool.origin.file, tool.origin.line), []).append((tool, fam_targets))
            for (file, _line), entries in groups.items():
                if len(entries) <= limit:
                    continue
                over, targets = entries[limit]
                yield from self.merge(
                    over,
                    [
                        Finding(
                            t,
                            E,
                            None,
                            "count",
                            f"{file} declares {len(entries)} tools for one request; the provider "
                            f"accepts at most "
                            f"{limit} (this tool is number {limit + 1}) and refuses the request",
                            "send only the tools relevant to the task (select them per request), or "
                            "split them "
                            "between several agents",
                        )
                        for t in targets
                    ],
                )
